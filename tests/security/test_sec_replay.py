"""Issue #15, tests 2: a replay attack using everything a seat can see does not rebuild a secret;
and at the end the revealed seed opens its commitment and the transcript replays the game.

The attacker knows gm's code (the chance generator a game uses is public: its header names it).  It collects every number its seat was ever shown (every integer in
every text of its world, every run of hex digits and its 8/15/16-digit prefixes read as integers -
commitment prefixes, session id digits - and 0..10000), and tries each as the game's seed, and each
(and what gm derives from it) as the bots' seed: replaying the visible log on a fresh state, it
looks for the other side's hand and draw piles, the hidden generator, the bot's locked pick and the
bot's every decision so far.  None may come out.  Each attack is first run against a *practice*
game (whose seed is public, by design): there it must succeed - so the attack is real.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import cli, world

from gm.core.chance import make_generator
from gm.core.registry import find_game
from gm.core.state import GameState
from gm.session import SeedSecret, Session, verify_seed
from gm.session.commit import derive_int
from gm.transcript.replay import replay_path

#: a hidden seed and bot seed of the size gm draws (63 bits), fixed so that the test is repeatable
SEED = 0x5A3C91F27D441B6E
BOT_SEED = 0x2B7E151628AED2A6
SALT = "9d" * 16
SID = "attacked"


def _secret(practice: bool) -> SeedSecret:
    if practice:
        return SeedSecret.draw(4321)  # what --seed 4321 gives: seed public, bots and nonces derived
    return SeedSecret(seed=SEED, salt=SALT, bot_seed=BOT_SEED, nonce_seed=None, practice=False)


def visible_numbers(texts: list[str]) -> set[int]:
    """Every number the seat was shown (see the module docstring), and 0..10000."""
    out = set(range(10001))
    blob = "\n".join(texts)
    for m in re.findall(r"\d{1,20}", blob):
        out.add(int(m))
    for h in set(re.findall(r"[0-9a-fA-F]{4,}", blob)):
        for k in (8, 15, 16, len(h)):
            if k <= len(h) and k <= 32:
                out.add(int(h[:k], 16))
    return out


def _numbers_seen(home: Path, seat: str) -> set[int]:
    w = world(home, SID, seat, play=True)
    return visible_numbers([*w.values(), cli(home, "show", SID, "--json")[1]])


def _bot_seeds(numbers: set[int]) -> set[int]:
    """Candidate bot seeds: each number, and the bot seed gm would derive from it as a game seed."""
    return numbers | {derive_int(n, "bots") for n in numbers}


def _play(game: str, human: str, bot: str, practice: bool, home: Path, until: Any, rules: Any = None) -> Session:
    g = find_game(game)
    players = {s: bot if s != human else "human" for s in g.seats}
    s = Session.create(g, secret=_secret(practice), players=players, home=home, id=SID, rules=rules)
    rng = random.Random(3)
    for _ in range(3000):
        if until(s):
            return s
        legal = s.state.legal_actions(human)
        assert legal, (s.state.to_act(), s.state.outcome, s.bot_error, len(s.state.log))
        action = legal.sample(rng)
        from gm.core.tools import call_for_action

        tool, args = call_for_action(s.tools, action)
        assert s.call(tool, args, human)["ok"]
    raise AssertionError("the game never reached the point of the attack")


def _bot_decisions(s: Session, seat: str) -> list[tuple[GameState[Any], str]]:
    """(state before, action) of every move the bot of ``seat`` made, its locked pick included.
    (Each state answers ``legal_actions`` from a list made once: the attack tries thousands of bots
    on it, and the list does not change; a space stays a space.)"""
    g = s.game
    st = g.new_state(s.state.rules, s.state.seed, s.state.generator)
    out = []
    for m in s.state.log:
        if m.seat == seat:
            before = st.copy()
            legal = before.legal_actions(seat)
            if not legal.is_space:  # a space (brawl's placements, a snap plan) is counted, never listed
                legal.all()
            before.legal_actions = lambda _seat, legal=legal: legal  # type: ignore[method-assign]
            out.append((before, str(m.action)))
        st.apply(m.seat, m.action)
    return out


def _bot_seed_attack(s: Session, seat: str, candidates: set[int]) -> list[int]:
    """The candidate bot seeds that predict every decision of the bot so far (the locked one too)."""
    g = s.game
    name = s.players[seat]
    decisions = _bot_decisions(s, seat)
    assert len(decisions) >= 6, "too few decisions to tell a rebuilt bot from luck"
    hits = []
    for c in candidates:
        for st, made in decisions:
            bot = g.make_bot(name, seed=derive_int(c, seat, len(st.log)))
            if str(bot.choose(st, seat)) != made:
                break
        else:
            hits.append(c)
    return hits


# --------------------------------------------------------------- the bots
BOT_GAMES = [
    # game, the human's seat, the bot's seat, ruleset, how many bot decisions to wait for
    ("grid-football", "home", "away", None, 10),
    ("chess-football", "home", "away", None, 8),
    ("quarterback", "red", "blue", None, 8),
    ("gridmaster4", "orange", "aqua", None, 8),
    ("brawl", "home", "away", None, 8),
]


PRACTICE = pytest.mark.parametrize("practice", [True, False], ids=["practice game (the attack works)", "hidden seed"])


@PRACTICE
@pytest.mark.parametrize(("game", "human", "bot", "rules", "decisions"), BOT_GAMES, ids=[b[0] for b in BOT_GAMES])
def test_no_number_shown_rebuilds_the_bots_choices(game: str, human: str, bot: str, rules: Any, decisions: int,
                                                  practice: bool, tmp_path: Path) -> None:
    def enough(s: Session) -> bool:
        made = sum(1 for m in s.state.log if m.seat == bot)
        locked = any(sec.seat == bot for sec in s.book.open)
        simultaneous = game in ("grid-football", "brawl")  # the bot's pick there is locked before the human's
        return made >= decisions and (locked or not simultaneous)

    s = _play(game, human, "bot:random", practice, tmp_path, enough, rules)
    numbers = _numbers_seen(tmp_path, human)
    hits = _bot_seed_attack(s, bot, _bot_seeds(numbers))
    if practice:  # the seed is public: the attack finds the bots' seed (the game says so at the start)
        assert s.secret.seed in numbers and s.bot_seed in hits, "the attack cannot even rebuild a practice game"
    else:
        assert hits == [], f"{game}: the bot's choices were rebuilt from a number the seat was shown"
        assert not {s.secret.seed, s.bot_seed, int(s.secret.salt, 16)} & numbers


# ------------------------------------------------------------ brawl's cards
def _dealt(seed: int, rules: Any, generator: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """What a fresh brawl state of ``seed`` deals: both hands, both draw piles, the generator."""
    g = find_game("brawl")
    st: Any = g.new_state(rules, seed, generator)
    hands = {s: {p: [c.code for c in cs] for p, cs in st.hands[s].items()} for s in ("home", "away")}
    piles = {s: {p: [c.code for c in cs] for p, cs in st.piles[s].items()} for s in ("home", "away")}
    return hands, piles, str(st.rng.getstate())


@PRACTICE
def test_no_number_shown_rebuilds_brawls_hands_draw_piles_or_rolls(practice: bool, tmp_path: Path) -> None:
    """Each candidate seed deals a fresh game; the attacker keeps those that deal its own hand as it
    was dealt (what it can check) and looks at the other side's hand, the draw piles and the rolls
    to come.  (Dealing is the costly part, so candidates are first screened on the top card of its
    own first player's draw: the same check, made early - the screen is shown to pass the true seed.)"""
    g = find_game("brawl")
    rules = g.default_rules()
    s = _play("brawl", "home", "bot:random", practice, tmp_path, lambda s: len(s.state.log) >= 1, rules)
    mine = s.view("home")["state"]["hand"]
    numbers = _numbers_seen(tmp_path, "home")
    gen = s.state.generator
    truth = _dealt(s.secret.seed, rules, gen)
    assert truth[0]["home"] == mine
    player, card = next((p, cs[0]) for p, cs in mine.items() if cs)
    screen = _Screen(rules, player, gen)
    assert screen.first(s.secret.seed) == card
    rebuilt = []
    for c in sorted(numbers):
        if screen.first(c) != card:
            continue
        hands, piles, rng = _dealt(c, rules, gen)
        if hands["home"] == mine and (hands["away"] == truth[0]["away"] or piles == truth[1] or rng == truth[2]):
            rebuilt.append(c)
    if practice:
        assert rebuilt == [s.secret.seed]
    else:
        assert rebuilt == [], "the other side's cards were rebuilt from a number the seat was shown"


class _Screen:
    """The first card home's ``player`` is dealt from a seed: the deal replayed as the engine does it
    (every player's deck shuffled in seat and roster order, hands drawn from the end); checked
    against the engine by the caller (the true seed passes)."""

    def __init__(self, rules: Any, player: str, generator: str) -> None:
        positions = {**rules.offense, **rules.defense}
        self.decks = [list(rules.positions[pos].deck) for _seat in ("home", "away") for pos in positions.values()]
        self.at = list(positions).index(player)
        self.generator = generator

    def first(self, seed: int) -> str:
        rng = make_generator(self.generator, seed)
        for i, deck in enumerate(self.decks):
            pile = deck[:]
            rng.shuffle(pile)
            if i == self.at:
                return pile[-1]
        raise AssertionError("no such player")


# ------------------------------------------------------------- CF's dice
@PRACTICE
def test_no_number_shown_rebuilds_the_generator_of_chess_football(practice: bool, tmp_path: Path) -> None:
    """After the toss the dice to come are the secret: no candidate seed, replaying the visible log
    on a fresh state, comes out with the game's generator.  (Candidates are first screened on the
    coin - the seed's first draw, public: the screen is shown to pass the true seed.)"""
    g = find_game("chess-football")
    s = _play("chess-football", "home", "bot:random", practice, tmp_path,
              lambda s: s.state.phase == "snap" and "home" in s.state.to_act())
    numbers = _numbers_seen(tmp_path, "home")
    visible = [(seat, text) for seat, text in s.log("home") if text not in ("locked", "voided")]
    truth = str(s.state.rng.getstate())
    st0: Any = s.state
    call = next(text for _seat, text in visible if text in ("heads", "tails"))  # the coin as the toss showed it
    coin = call if st0.toss_winner == st0.rules.toss_caller else {"heads": "tails", "tails": "heads"}[call]
    gen = s.state.generator
    assert make_generator(gen, s.secret.seed).choice(("heads", "tails")) == coin
    rebuilt = []
    for c in numbers:
        if make_generator(gen, c).choice(("heads", "tails")) != coin:
            continue
        st = g.new_state(s.state.rules, c, gen)
        try:
            for seat, text in visible:
                st.apply(seat, text)
        except Exception:
            continue
        if str(st.rng.getstate()) == truth:
            rebuilt.append(c)
    assert rebuilt == ([s.secret.seed] if practice else [])


# ------------------------------------------------------- the end: reveal, replay
END_RULES = {
    "grid-football": {"quarters": 2, "downs_per_quarter": 1, "switch_after_quarters": [1], "warning_quarters": [2]},
    "brawl": {"rounds": 1},
    "chess-football": {"possessions_per_half": 1, "overtime_periods": 0},
    "quarterback": {"format": "game"},
    "gridmaster4": {"tiles": 12, "winning_tile": 12},
}


@pytest.mark.parametrize("game", list(END_RULES))
def test_at_the_end_the_seed_opens_its_commitment_and_the_transcript_replays(game: str, tmp_path: Path) -> None:
    g = find_game(game)
    human = g.seats[0]
    players = {x: "human" if x == human else "bot:random" for x in g.seats}
    hidden = SeedSecret(seed=0x3E8A5D7C91B2F406, salt="5c" * 16, bot_seed=0x17, nonce_seed=None, practice=False)
    s = Session.create(g, players=players, home=tmp_path, rules=END_RULES[game], secret=hidden)  # a hidden seed
    commitment = s.seed_commitment
    assert s.view(human)["seed"] is None and s.view(human)["seed_commitment"] == commitment
    rng = random.Random(11)
    last: dict[str, Any] = {}
    from gm.core.tools import call_for_action

    while not s.state.is_terminal:
        tool, args = call_for_action(s.tools, s.state.legal_actions(human).sample(rng))
        last = s.call(tool, args, human)
        assert last["ok"], last
        if not s.state.is_terminal:
            assert "seed" not in last and s.view(human)["seed"] is None
    reveal = last["seed"]
    assert reveal["commitment"] == commitment and verify_seed(reveal) and reveal["seed"] == s.secret.seed
    assert s.view(human)["seed"] == reveal["seed"]
    # the whole game from the revealed seed and the log everyone sees now
    st = g.new_state(s.state.rules, reveal["seed"], s.state.generator)
    for seat, text in s.log(human):
        st.apply(seat, text)
    assert json.dumps(st.snapshot(), sort_keys=True) == json.dumps(s.state.snapshot(), sort_keys=True)
    # the transcript has the seed entry and replays; gm replay says so
    path = tmp_path / "transcripts" / f"{s.id}.jsonl"
    entries = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    seeds = [e for e in entries if e["type"] == "seed"]
    assert seeds == [{"type": "seed", "seed": reveal["seed"], "salt": reveal["salt"], "commitment": commitment}]
    result = replay_path(path)
    assert result.ok, result.report()
    code, out = cli(tmp_path, "replay", str(path))
    assert code == 0 and "1 passed, 0 failed" in out, out
    # and a tampered seed entry does not replay
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().replace(f'"seed":{reveal["seed"]}', f'"seed":{reveal["seed"] + 1}'))
    assert not replay_path(bad).ok
