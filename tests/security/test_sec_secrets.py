"""Issue #15, tests 1: a seat's whole visible world does not depend on any secret it may not know.

For every kind of secret of every game, two games are built that differ *only* in that secret
(the bot's sealed pick, the other side's hand or draw pile, the hidden ball holder, the hidden
seed's future chance) and are driven through the same session machinery with the same moves.
Then everything the human seat can see (see :func:`sec_helpers.world`: the session API, every
query tool, refusals, the MCP host and its resources, ``gm show`` / ``gm call`` / ``gm export`` /
``gm play``, the transcript and the session file) is gathered for both and compared, masking only
what is random by design.  Each case also checks, from the test's own (omniscient) vantage, that
the two games really differ in the secret, and that the difference shows once the secret is out -
so the comparison is not blind.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import Scripted, assert_same_world, masked, world

from gm.core.registry import find_game
from gm.core.state import GameState
from gm.core.tools import call_for_action
from gm.session import SeedSecret, Session

SID = "sec-game"
SALT = "0f" * 16
BOT_SEED = 4242

Policy = Callable[[GameState[Any], str], str]


def hidden(seed: int) -> SeedSecret:
    """A hidden seed (not a practice game) with everything else fixed: only ``seed`` varies."""
    return SeedSecret(seed=seed, salt=SALT, bot_seed=BOT_SEED, nonce_seed=None, practice=False)


@dataclass
class Game:
    """One game of a comparison: its session, and every result its human seat was shown."""

    session: Session
    home: Path
    seat: str
    shown: list[Any] = field(default_factory=list)

    def move(self, text: str) -> dict[str, Any]:
        s = self.session
        tool, args = call_for_action(s.tools, s.state.parse_action(text))
        r = s.call(tool, args, self.seat)
        assert r["ok"], r
        self.shown.append(r)
        return r

    def world(self, *, play: bool = True) -> dict[str, str]:
        return masked(world(self.home, SID, self.seat, shown=self.shown, play=play), self.home)


def start(home: Path, game: str, seat: str, *, seed: int = 7, bots: dict[str, Policy] | None = None,
          rules: dict[str, Any] | None = None) -> Game:
    g = find_game(game)
    players = {s: "human" if s == seat else "bot:default" for s in g.seats}
    injected = {s: Scripted(p) for s, p in (bots or {}).items()}
    s = Session.create(g, secret=hidden(seed), players=players, home=home, id=SID, bots=injected, rules=rules)
    return Game(s, home, seat, [s.opening_events, s.commitments()])


def compare(a: Game, b: Game, what: str, *, play: bool = True) -> None:
    assert_same_world(a.world(play=play), b.world(play=play), what)


def differ(a: Game, b: Game) -> None:
    """The two games really differ (what the test knows and the seat must not)."""
    assert json.dumps(a.session.state.snapshot(), sort_keys=True) != json.dumps(b.session.state.snapshot(), sort_keys=True)


# ------------------------------------------------------------ Grid Football
GF_HUMAN = {"coin_call": "heads", "kick_choice": "receive", "kick_pick": "left yellow", "number_pick": "number 5",
            "play_call": "play 1 black"}
GF_BOT = {"coin_call": "heads", "kick_choice": "kick", "kick_pick": "left yellow", "number_pick": "number 1",
          "play_call": "play 2 red"}


@dataclass(frozen=True)
class GFCase:
    name: str
    target: str  # the bot's decision whose (sealed) pick differs
    variants: tuple[str, str]
    human: dict[str, str]
    bot: dict[str, str]
    rules: dict[str, Any] | None = None
    when: Callable[[Any], bool] = lambda st: True


GF_CASES = [
    GFCase("kickoff pick", "kick_pick", ("left yellow", "right green"), GF_HUMAN, GF_BOT),
    GFCase("play call", "play_call", ("play 1 red", "play 3 black"), GF_HUMAN, GF_BOT),
    GFCase("number after a 0-match return", "number_pick", ("number 3", "number 8"),
           {**GF_HUMAN, "kick_pick": "right green"}, GF_BOT),
    GFCase("number after a colour match", "number_pick", ("number 2", "number 9"),
           {**GF_HUMAN, "play_call": "play 2 black"}, {**GF_BOT, "play_call": "play 1 black"},
           when=lambda st: st.phase == "number_check"),
    GFCase("punt pick", "kick_pick", ("center red", "left green"), {**GF_HUMAN, "play_call": "punt"}, GF_BOT,
           rules={"punt_downs": [1]}, when=lambda st: st.phase == "punt"),
]


def _gf(case: GFCase, variant: str, home: Path) -> Game:
    done: list[bool] = []

    def bot(st: Any, seat: str) -> str:
        d = st.decision(seat)
        if not done and d == case.target and case.when(st):
            done.append(True)
            return variant
        return case.bot[d]

    g = start(home, "grid-football", "home", bots={"away": bot}, rules=case.rules)
    while not done:
        g.move(case.human[g.session.state.decision("home")])
    assert g.session.commitments().get("away")  # the bot has committed its pick; the human is to choose
    return g


@pytest.mark.parametrize("case", GF_CASES, ids=[c.name for c in GF_CASES])
def test_grid_football_sealed_bot_picks(case: GFCase, tmp_path: Path) -> None:
    a, b = (_gf(case, v, tmp_path / str(i)) for i, v in enumerate(case.variants))
    assert [s.choice for s in a.session.book.open] != [s.choice for s in b.session.book.open]
    compare(a, b, f"grid-football {case.name}")
    # the human moves: the reveal shows the difference (so the comparison above could see one)
    human = case.human[a.session.state.decision("home")]
    ra, rb = a.move(human), b.move(human)
    assert ra["reveal"]["away"]["choice"] == case.variants[0] and rb["reveal"]["away"]["choice"] == case.variants[1]


def _same_first_flip(game: str, seeds: range, decide: Callable[[GameState[Any]], Any]) -> tuple[int, int]:
    """Two seeds whose public chance so far comes out the same (``decide``: what the seat sees of it)."""
    g = find_game(game)
    seen: dict[Any, int] = {}
    for seed in seeds:
        key = decide(g.new_state(None, seed))
        if key in seen:
            return seen[key], seed
        seen[key] = seed
    raise AssertionError("no two seeds agree")


def _replay_same(a: Game, b: Game, human: Policy, at: tuple[int, ...], what: str) -> int:
    """Play both games with the same human policy; compare the worlds after the moves numbered
    ``at`` while (omnisciently) the two states agree; return how many were compared."""
    compared = 0
    for i in range(max(at) + 1):
        sa, sb = a.session.state, b.session.state
        if sa.is_terminal or sb.is_terminal:
            break
        if json.dumps(sa.snapshot(), sort_keys=True) != json.dumps(sb.snapshot(), sort_keys=True):
            break  # chance came out differently and is now public: the worlds may differ from here
        if i in at:
            compare(a, b, f"{what} after {i} moves", play=compared == 0)
            compared += 1
        text = human(sa, a.seat)
        assert text == human(sb, b.seat)
        a.move(text)
        b.move(text)
    return compared


def _first_legal(st: GameState[Any], seat: str) -> str:
    legal = st.legal_actions(seat)
    return str(legal[len(st.log) % len(legal)])


@pytest.mark.parametrize(
    ("game", "seat", "at", "least"),
    [
        ("grid-football", "home", (0, 6, 14), 3),
        ("quarterback", "red", (0, 6, 14), 3),
        ("gridmaster4", "orange", (0, 4, 9), 3),
        ("chess-football", "home", (0, 1, 2), 2),  # its first snap may roll a die
    ],
)
def test_hidden_seed_only_decides_chance_that_has_not_happened(game: str, seat: str, at: tuple[int, ...], least: int,
                                                               tmp_path: Path) -> None:
    """Two hidden seeds whose public chance so far agrees (the toss) give the seat identical worlds,
    the bots' moves included (bots seeded alike: a bot that read the hidden seed would differ)."""
    g = find_game(game)

    def public_chance(st: GameState[Any]) -> Any:
        if game in ("grid-football", "chess-football"):  # the coin toss is the seed's first draw
            return random.Random(st.seed).choice(("heads", "tails"))
        return json.dumps(st.view(None), sort_keys=True)  # QB: the toss at setup; GridMaster4: no chance

    s1, s2 = _same_first_flip(game, range(1, 200), public_chance)
    a = start(tmp_path / "a", game, seat, seed=s1)
    b = start(tmp_path / "b", game, seat, seed=s2)
    assert a.session.secret.commitment != b.session.secret.commitment
    assert _replay_same(a, b, _first_legal, at, f"{g.id} hidden seeds {s1} / {s2}") >= least


# -------------------------------------------------------------------- brawl
# brawl's secrets live in the state the seed deals: the other side's hand and draw piles, one's own
# draw pile, the rolls to come.  Each variant below changes exactly one of them right after the deal,
# before anything is shown (a patch of the setup, applied whenever a state is built, so the session,
# every re-opened copy and every front end see the same game); both games are then driven through
# the same session machinery with the same moves.


def _swap_apart(cards: list[Any], i: int) -> int:
    """The index of the first card from the bottom of ``cards`` whose code differs from ``cards[i]``."""
    return next(j for j, c in enumerate(cards) if c.code != cards[i].code)


def _brawl_variant(kind: str, st: Any) -> None:
    """Change one secret of a freshly dealt brawl state (variant ``b``; variant ``a`` is the deal)."""
    away = st.hands["away"]
    player = next(iter(st.roster("away")))
    if kind == "hand":  # one card of the other side's hand, exchanged with one of its draw pile
        pile = st.piles["away"][player]
        j = next(k for k, c in enumerate(pile) if c.code != away[player][0].code)  # from the bottom
        away[player][0], pile[j] = pile[j], away[player][0]
    elif kind == "piles":  # the bottom of the other side's draw pile and of one's own
        for seat in ("away", "home"):
            name = next(iter(st.roster(seat)))
            pile = st.piles[seat][name]
            j = _swap_apart(pile, 0)
            pile[0], pile[j] = pile[j], pile[0]
    elif kind == "chance":  # the rolls to come (the seed's stream after the deal and the toss)
        st.rng.seed(987654321)


def _brawl_bot(st: Any, seat: str) -> str:
    """The other side: at play k each player plays its hand's card k (counted as dealt, leaving out
    the first card of the first player, which the 'hand' variant exchanges: it is played last)."""
    from gm.games.brawl.rules import PLAYABLE

    if st.decision(seat) != "placement":
        return "punt"
    k = st.play_no - 1
    rows = []
    for i, (name, cards) in enumerate(st.hands[seat].items()):
        codes = [c.code for c in cards]
        if i == 0:  # its first card (the exchanged one) stays in the hand until the last play
            code = codes[1] if len(codes) > 1 else codes[0]
        else:
            code = codes[0]
        rows.append(f"{name}:{code}@{PLAYABLE[(i + k) % len(PLAYABLE)]}")
    return " ".join(rows)


def _omniscient(st: Any) -> str:
    """Everything of a brawl state, the draw piles and the generator included."""
    piles = {s: {p: [c.code for c in cs] for p, cs in st.piles[s].items()} for s in st.piles}
    return json.dumps([st.snapshot(), piles, str(st.rng.getstate())], sort_keys=True)


def _brawl_human(st: Any, seat: str) -> str:
    if st.decision(seat) == "fourth_down":
        return "punt"
    legal = st.legal_actions(seat)
    return str(legal[st.play_no % len(legal)])


BRAWL = [
    # kind, the moves of the human after which the worlds are compared, the move that shows the change
    ("placement", (0,), 1),  # the other side's locked cards for play 1
    ("hand", (0, 1, 2), 3),  # a card of its hand (played at play 3)
    ("piles", (0, 2, 4), None),  # the bottom of both sides' draw piles (drawn rounds later)
    ("chance", (0, 1, 2), 3),  # the rolls of the first series (rolled once play 3 is revealed)
]


@pytest.mark.parametrize(("kind", "at", "shows"), BRAWL, ids=[b[0] for b in BRAWL])
def test_brawl_hidden_cards_piles_and_chance(kind: str, at: tuple[int, ...], shows: int | None, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from gm.games.brawl.engine import BrawlState

    dealt = BrawlState._setup
    current = {"variant": "a"}

    def setup(self: Any) -> None:
        dealt(self)
        if current["variant"] == "b":
            _brawl_variant(kind, self)

    monkeypatch.setattr(BrawlState, "_setup", setup)
    runs: dict[str, tuple[list[dict[str, str]], list[str]]] = {}
    for variant in ("a", "b"):
        current["variant"] = variant
        first: list[str] = []

        def bot(st: Any, seat: str, first: list[str] = first, variant: str = variant) -> str:
            text = _brawl_bot(st, seat)
            if kind == "placement" and not first:  # its first placement: two different legal choices
                legal = st.legal_actions(seat)
                text = str(legal[0 if variant == "a" else 1])
            first.append(text)
            return text

        g = start(tmp_path / variant, "brawl", "home", seed=11, bots={"away": bot})
        worlds, secret = [], []
        for i in range(max(at) + 1 if shows is None else shows + 1):
            if i in at:
                worlds.append(g.world(play=i == at[0]))
                secret.append(_omniscient(g.session.state))
            if i == shows:
                break
            g.move(_brawl_human(g.session.state, "home"))
        runs[variant] = worlds, [json.dumps(g.shown[-1], sort_keys=True)] if shows else []
        runs[variant] = worlds, secret + runs[variant][1]
    (wa, sa), (wb, sb) = runs["a"], runs["b"]
    assert sa[: len(at)] != sb[: len(at)] or kind == "placement"  # the games differ where the seat cannot look
    for n, (x, y) in enumerate(zip(wa, wb, strict=True)):
        assert_same_world(x, y, f"brawl {kind}, checkpoint {n}")
    if shows is not None:  # and the difference shows once the secret is out: the comparison is not blind
        assert sa[-1] != sb[-1]


# ----------------------------------------------------------- Chess-Football
def _cf_bot(kind: str, variant: str) -> Policy:
    """The other side (away): wins the toss, so it has the ball; its captains, its first snap plan
    or its play action's hidden holder is the variant (and the holder it switches to, secretly, on
    its next turn)."""
    done: set[str] = set()

    def choose(st: Any, seat: str) -> str:
        d = st.decision(seat)
        if d == "captains":
            return variant if kind == "captains" else "captains lead_blocker rusher"
        if d == "coin_call":
            c = st.copy()
            c.apply(seat, "heads")
            return "heads" if c.toss_winner == seat else "tails"
        if d == "snap_plan":
            if kind == "plan" and "plan" not in done:
                done.add("plan")
                return variant
            return "plan: hold"
        if d == "turn" and seat == st.offense and kind == "holder":
            if "holder" not in done:  # turn 2: play action, the holder hidden
                done.add("holder")
                return f"play action ST1 ball {variant}"
            if "choice" not in done and st.field.hidden:  # turn 4: the holder changes hands, secretly
                done.add("choice")
                return "ball " + next(p for p in st.field.pair if p != st.field.carrier)
        if d == "fourth_down":
            return "punt"
        return "done"

    return choose


def _cf_human(st: Any, seat: str) -> str:
    return {"captains": "captains scrambler nickelback", "snap_plan": "plan: hold"}.get(st.decision(seat), "done")


CF = [
    # kind, the two variants, the human moves after which the worlds are compared
    ("captains", ("captains lead_blocker rusher", "captains deep_threat safety"), (0,)),
    ("plan", ("plan: hold", "plan: LB to G36 NW"), (1,)),
    ("holder", ("QB", "ST1"), (2, 3)),
]


@pytest.mark.parametrize(("kind", "variants", "at"), CF, ids=[c[0] for c in CF])
def test_chess_football_captains_plans_and_the_hidden_ball(kind: str, variants: tuple[str, str], at: tuple[int, ...],
                                                           tmp_path: Path) -> None:
    games = [start(tmp_path / str(i), "chess-football", "home", seed=5, bots={"away": _cf_bot(kind, v)})
             for i, v in enumerate(variants)]
    for i in range(max(at) + 1):
        if i in at:
            a, b = games
            differ(a, b) if kind != "holder" else None
            if kind == "holder":  # the offense knows who has the ball; the defense (the human) must not
                views = [json.dumps(g.session.state.view("away")["ball"]) for g in games]
                assert views[0] != views[1] and a.session.state.view("home")["ball"]["hidden"]
                secret = [[str(m.action) for m in g.session.state.log if "ball" in str(m.action)] for g in games]
                assert secret[0] != secret[1] and len(secret[0]) == 2, secret  # play action, then a ball choice
            compare(a, b, f"chess-football {kind} after {i} moves", play=i == at[0])
        for g in games:
            g.move(_cf_human(g.session.state, "home"))
    if kind != "holder":  # the human's move completed the round: the reveal shows the difference
        assert json.dumps(games[0].shown[-1]["reveal"]) != json.dumps(games[1].shown[-1]["reveal"])


# ------------------------------------------------- a new game, every front end
OPENING = [
    # game, the bot's opening secret (locked as the game is created) in two variants
    ("brawl", "placement"),
    ("chess-football", "captains"),
]


@pytest.mark.parametrize(("game", "kind"), OPENING)
def test_a_new_game_shows_nothing_of_the_bots_opening_secret(game: str, kind: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``gm new`` (text and JSON), ``gm play`` (banner, board, table talk) and MCP ``new_game``
    (its result, resources and the seat's world after it): the bot locks a different opening pick
    in each game, and the seat's worlds are the same.  The seed is hidden (drawn as usual, but the
    same in both games: the draw is pinned, not the code under test)."""
    from gm.session import commit

    g = find_game(game)
    variant = {"v": 0}

    def policy(st: Any, seat: str) -> str:
        d = st.decision(seat)
        if game == "brawl":
            return str(st.legal_actions(seat)[variant["v"]])
        return ["captains lead_blocker rusher", "captains deep_threat safety"][variant["v"]] if d == "captains" else "heads"

    orig = type(g).bots
    monkeypatch.setattr(type(g), "bots", lambda self: {**orig(self), "scripted": lambda seed=0: Scripted(policy)})
    monkeypatch.setattr(commit.SeedSecret, "draw", classmethod(lambda cls, seed=None, **kw: hidden(31337)))
    from sec_helpers import cli_text

    from gm.mcp_server.host import GameHost

    worlds = []
    picks = []
    for v in (0, 1):
        variant["v"] = v
        home = tmp_path / str(v)
        w: dict[str, str] = {}
        w["gm new"] = cli_text(home, "new", game, "--player", "away=bot:scripted")
        w["gm new --json"] = cli_text(home, "new", game, "--player", "away=bot:scripted", "--json")
        w["gm play"] = cli_text(home, "play", game, "--opponent", "bot:scripted", input=TABLE_TALK_NEW)
        assert all(w[k].startswith("0\n") for k in w), w
        assert "Seed hidden until the game ends" in w["gm play"] and "Game paused (quit)" in w["gm play"], w["gm play"]
        host = GameHost(home=home)
        r = host.call("new_game", {"game": game, "opponent": "scripted"})
        w["mcp new_game"] = json.dumps(r.result, sort_keys=True) + "\n" + r.text
        for uri in ("gm://session/board", "gm://session/state"):
            w[uri] = host.read_resource(uri)[0]
        sid = r.result["session"]
        w.update({f"after new_game: {k}": x for k, x in world(home, sid, "home", play=False).items()})
        picks.append([m.action for m in Session.open(sid, home=home, record=False).state.log])
        worlds.append(masked(w, home))
    assert str(picks[0]) != str(picks[1])
    assert_same_world(worlds[0], worlds[1], f"{game}: a new game")


TABLE_TALK_NEW = "board\nscore\nwhat can i do?\nquit\n"
