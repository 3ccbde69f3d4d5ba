"""The core chance interface (gm.core.chance): named draws, a state drawing them from its generator
unless a chance source supplies them, the draw log, supplied outcomes kept in the game's record, and
games replayed on chosen dice (what `gm import --chance from-log` builds on)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from gm.core.bots import RandomBot
from gm.core.chance import (
    CHACHA20_V1,
    MT19937,
    Chance,
    ChanceError,
    Choice,
    Coin,
    Deal,
    Die,
    Draw,
    Scripted,
    Shuffle,
    take,
)
from gm.core.errors import GameError, StateError
from gm.core.playout import play_out
from gm.core.registry import find_game
from gm.core.state import GameState

BRAWL = find_game("brawl")
CF = find_game("chess-football")
ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ the draws
@pytest.mark.parametrize("seed", [0, 1, 17, 2**40 + 3])
def test_legacy_draws_consume_the_generator_exactly_as_the_direct_calls_did(seed: int) -> None:
    """A named draw on ``random.Random`` is the call the engines made before: same result, same state after."""
    deck = tuple(f"C{i}" for i in range(15))
    cases: list[tuple[Draw[Any], Any]] = [
        (Die("pass roll", 1, 6), lambda r: r.randint(1, 6)),
        (Die("field goal roll", 1, 100), lambda r: r.randint(1, 100)),
        (Coin("coin toss"), lambda r: r.choice(("heads", "tails"))),
        (Choice("toss", ("home", "away")), lambda r: r.choice(("home", "away"))),
        (Shuffle("shuffle", deck), lambda r: (lambda p: (r.shuffle(p), p)[1])(list(deck))),
    ]
    for draw, direct in cases:
        a, b = random.Random(seed), random.Random(seed)
        a.random(), b.random()  # (somewhere in the stream)
        assert draw.generate(a) == direct(b)
        assert a.getstate() == b.getstate()
    r = random.Random(seed)
    before = r.getstate()
    assert Deal("deal", ("a", "b", "c", "d"), 3).generate(r) == ("d", "c", "b") and r.getstate() == before


def test_a_supplied_outcome_is_checked_and_read_from_its_text() -> None:
    assert Die("pass roll", 1, 6).check(5) == 5 and Die("pass roll", 1, 6).check(" 4 ") == 4
    assert Coin("coin toss").check("Tails") == "tails"
    assert Choice("toss", ("home", "away")).check("AWAY") == "away"
    assert Shuffle("shuffle", ("S3", "F2", "S3")).check("S3 S3 F2") == ["S3", "S3", "F2"]
    assert Deal("deal", ("A1", "B2", "C3", "B2"), 2).check(["b2", "B2"]) == ("B2", "B2")
    for draw, bad in [
        (Die("pass roll", 1, 6), 7),
        (Die("pass roll", 1, 6), True),
        (Die("pass roll", 1, 6), "six"),
        (Coin("coin toss"), "edge"),
        (Shuffle("shuffle", ("S3", "F2")), ["S3", "S3"]),
        (Deal("deal", ("A1", "B2"), 2), ["A1"]),
        (Deal("deal", ("A1", "B2"), 1), ["Z9"]),
    ]:
        with pytest.raises(ChanceError):
            draw.check(bad)


def test_an_impossible_outcome_names_the_draw_the_value_and_the_possible_ones() -> None:
    with pytest.raises(ChanceError) as exc:
        Die("pass roll", 1, 6, about="QB to FA1").check(9)
    e = exc.value
    assert e.rule == "CORE-CHANCE" and e.input == "9" and e.legal == ("1", "2", "3", "4", "5", "6")
    assert e.message == "[CORE-CHANCE] '9': pass roll (1-6, QB to FA1) cannot come out 9; possible: 1, 2, 3, 4, 5, 6"
    with pytest.raises(ChanceError) as exc:
        Deal("deal", ("S3", "F2", "A1-4"), 2, about="home QB").check("S3 S4")
    assert exc.value.message == (
        "[CORE-CHANCE] 'S3 S4': deal (2 of 3, home QB) cannot come out S3 S4: S4 is not left to draw; possible: 2 of A1-4 F2 S3"
    )
    assert Die("field goal roll", 1, 100).possible() == ("a whole number from 1 to 100",)


def test_take_removes_the_dealt_cards_from_the_pile() -> None:
    pile = ["a", "b", "c", "d", "e"]
    dealt = Deal("deal", tuple(pile), 2).generate(random.Random(0))
    take(pile, dealt)
    assert pile == ["a", "b", "c"]
    pile = ["a", "b", "c", "d", "e"]
    chosen = Deal("deal", tuple(pile), 2).check(["b", "e"])
    take(pile, chosen)
    assert pile == ["a", "c", "d"]


# ------------------------------------------------------ a state and its chance
class MaxAgility:
    """A source that makes every brawl Agility card roll its highest value and says nothing else."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, str]] = []

    def outcome(self, draw: Draw[Any], index: int, drawn: Any) -> Any:
        self.seen.append((index, draw.label))
        return draw.hi if isinstance(draw, Die) and draw.label == "agility roll" else None


def _play(state: GameState[Any], seed: int) -> list[str]:
    texts: list[str] = []
    bots = {seat: RandomBot(seed * 10 + i) for i, seat in enumerate(state.seats)}
    play_out(state, bots, on_move=lambda seat, action, evs: texts.extend(e.text for e in evs))
    return texts


def _fingerprint(st: GameState[Any]) -> str:
    return json.dumps([st.to_json(), st.snapshot(), str(st.rng.getstate()), st.draws], sort_keys=True, default=str)


def test_a_source_sees_every_draw_and_its_outcomes_are_the_games() -> None:
    st = BRAWL.new_state({"rounds": 2}, 5, Chance(CHACHA20_V1, source=MaxAgility(), record=True))
    texts = _play(st, 5)
    rolls = re.findall(r"(\S+) A(\d+)-(\d+)@\S+ rolls (\d+)", "\n".join(texts))
    assert rolls and all(int(roll) == int(hi) for _, _, hi, roll in rolls)
    assert st.draw_log is not None and len(st.draw_log) == st.draws > 0
    agility = [r for r in st.draw_log if r.draw.label == "agility roll"]
    assert len(agility) == len(rolls) and all(r.supplied and r.outcome == r.draw.hi for r in agility)
    # the source was asked about every draw, in order, setup included
    source = st.chance_source
    assert isinstance(source, MaxAgility) and [i for i, _ in source.seen] == list(range(st.draws))
    # the supplied outcomes are part of the record: the game replays without the source
    data = st.to_json()
    assert data["chance"] == "chacha20-v1" and {int(k) for k in data["supplied"]} == {r.index for r in agility}
    again = GameState.from_json(json.loads(json.dumps(data)))
    assert again.snapshot() == st.snapshot() and again.supplied == st.supplied and again.to_json() == data
    # and without them the same moves play out with gm's own rolls (different ones somewhere)
    plain = BRAWL.new_state({"rounds": 2}, 5)
    for m in st.log:
        try:
            plain.apply(m.seat, m.action)
        except GameError:
            break
    assert plain.snapshot() != st.snapshot()


class Observer:
    """A source that supplies nothing and notes every draw."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, str, Any]] = []

    def outcome(self, draw: Draw[Any], index: int, drawn: Any) -> Any:
        self.seen.append((index, draw.kind, draw.to_json(drawn)))
        return None


@pytest.mark.parametrize("generator", [MT19937, CHACHA20_V1])
@pytest.mark.parametrize("game_id", ["brawl", "chess-football", "grid-football", "quarterback"])
def test_a_watched_game_plays_as_the_unwatched_one(game_id: str, generator: str) -> None:
    """The speed seams (GameState.roll and deal skip making the draw when nobody watches) give what the
    draws give: a game with an observing source, and one logging its draws, play exactly as one
    without, draw for draw."""
    g = find_game(game_id)
    rules = {"brawl": {"rounds": 3}, "chess-football": {"possessions_per_half": 1}}.get(game_id)
    seen = Observer()
    games = [g.new_state(rules, 7, generator), g.new_state(rules, 7, Chance(generator, source=seen)),
             g.new_state(rules, 7, Chance(generator, record=True))]
    texts: list[list[str]] = [[], [], []]
    for k, st in enumerate(games):
        bots = {seat: g.make_bot("random", 70 + i) for i, seat in enumerate(g.seats)}
        play_out(st, bots, on_move=lambda seat, action, evs, out=texts[k]: out.extend(e.text for e in evs))
    plain, watched, logged = games
    assert texts[0] == texts[1] == texts[2] and plain.outcome == watched.outcome == logged.outcome
    assert plain.to_json() == watched.to_json() == logged.to_json() and plain.snapshot() == watched.snapshot()
    assert plain.draws == watched.draws == logged.draws == len(seen.seen) > 0
    assert str(plain.rng.getstate()) == str(watched.rng.getstate()) == str(logged.rng.getstate())
    assert logged.draw_log is not None and [(r.index, r.draw.kind, r.draw.to_json(r.outcome)) for r in logged.draw_log] == seen.seen


def test_the_draw_log_shows_the_chatbots_roll_and_gms_roll() -> None:
    st = CF.new_state(None, 3, Chance(MT19937, record=True))
    st.chance_source = Scripted({"coin toss": ["tails"]})
    mine = random.Random(3)
    gms = mine.choice(("heads", "tails"))
    st.apply("home", "captains: deep_threat safety")
    st.apply("away", "captains: lead_blocker rusher")
    events = st.apply(st.to_act()[0], "call heads")
    assert "the coin shows tails" in events[0].text
    assert st.draw_log is not None
    (rec,) = st.draw_log
    assert (rec.index, rec.drawn, rec.outcome, rec.supplied) == (0, gms, "tails", True)
    said = f"coin toss (heads or tails): tails (supplied; gm's own: {gms})" if gms != "tails" else "coin toss (heads or tails): tails"
    assert str(rec) == said
    assert rec.to_json() == {"index": 0, "kind": "coin", "label": "coin toss", "about": "", "drawn": gms, "outcome": "tails", "supplied": True}


def test_an_impossible_supplied_outcome_refuses_the_move_and_changes_nothing() -> None:
    st = CF.new_state(None, 8)
    st.apply("home", "captains: deep_threat safety")
    st.apply("away", "captains: lead_blocker rusher")
    caller = st.to_act()[0]
    before = _fingerprint(st)
    st.chance_source = Scripted({"coin toss": ["edge"]})
    with pytest.raises(ChanceError) as exc:
        st.apply(caller, "call heads")
    assert exc.value.message == "[CORE-CHANCE] 'edge': coin toss (heads or tails) cannot come out edge; possible: heads, tails"
    assert _fingerprint(st) == before
    st.chance_source = Scripted({"coin toss": ["heads"]})
    assert "the coin shows heads" in st.apply(caller, "call heads")[0].text
    assert st.supplied == {0: "heads"}


def test_a_strict_script_without_an_outcome_refuses_and_undoes_a_half_done_move() -> None:
    """A brawl series ending with Agility rolls: the first roll is scripted, the second is not; the whole
    play is undone (its earlier draws included), and the game is byte-identical."""
    st = BRAWL.new_state({"rounds": 1, "first_offense": "home"}, 11)
    rng = random.Random(4)
    while not st.is_terminal:
        seat = st.to_act()[0]
        action = st.legal_actions(seat).sample(rng)
        trial = st.copy()
        trial.chance_source = Scripted(strict=True)
        try:
            trial.apply(seat, action)
        except ChanceError:
            break  # this move draws
        st.apply(seat, action)
    else:  # pragma: no cover - a series always ends with draws
        pytest.fail("no move drew")
    before = _fingerprint(st)
    st.chance_source = Scripted(strict=True)
    with pytest.raises(ChanceError) as exc:
        st.apply(seat, action)
    assert exc.value.message.startswith("[CORE-CHANCE] nothing scripted for ")
    assert _fingerprint(st) == before


def test_rebuilt_keeps_only_the_outcomes_of_the_draws_it_made() -> None:
    st = CF.new_state(None, 2, Chance(CHACHA20_V1, source=Scripted({"coin toss": ["tails"]})))
    st.apply("home", "captains: deep_threat safety")
    st.apply("away", "captains: lead_blocker rusher")
    st.apply(st.to_act()[0], "call heads")
    assert st.supplied == {0: "tails"}
    back = st.rebuilt(2)
    assert back.supplied == {} and back.draws == 0 and back.chance_source is None
    assert st.rebuilt().supplied == {0: "tails"} and st.rebuilt().snapshot() == st.snapshot()
    # the rebuilt game goes on with gm's own chance: the earlier supplied toss is not supplied again
    back.apply(back.to_act()[0], "call heads")
    assert back.supplied == {}


# ------------------------------------------------- records name their generator
def test_records_without_a_generator_replay_with_the_legacy_one() -> None:
    new = BRAWL.new_state(None, 9)
    assert new.generator == CHACHA20_V1 and new.to_json()["chance"] == "chacha20-v1"
    legacy = BRAWL.new_state(None, 9, MT19937)
    assert "chance" not in legacy.to_json() and "supplied" not in legacy.to_json()
    assert list(legacy.to_json()) == ["game", "rules", "seed", "log"]
    _play(legacy, 9)
    data = legacy.to_json()
    again = GameState.from_json(data)
    assert again.generator == MT19937 and again.snapshot() == legacy.snapshot()
    assert str(again.rng.getstate()) == str(legacy.rng.getstate())
    # the same seed under the two generators deals different hands
    assert BRAWL.new_state(None, 9).view("home")["hand"] != BRAWL.new_state(None, 9, MT19937).view("home")["hand"]
    with pytest.raises(StateError) as exc:
        GameState.from_json({**data, "chance": "xorshift"})
    assert exc.value.rule == "CORE-CHANCE"
    with pytest.raises(StateError):
        GameState.from_json({**data, "supplied": {"x": 1}})


def test_a_supplied_outcome_that_no_longer_fits_its_draw_does_not_replay() -> None:
    st = CF.new_state(None, 2, Chance(CHACHA20_V1, source=Scripted({"coin toss": ["tails"]})))
    st.apply("home", "captains: deep_threat safety")
    st.apply("away", "captains: lead_blocker rusher")
    st.apply(st.to_act()[0], "call heads")
    data = st.to_json()
    data["supplied"] = {"0": 7}
    with pytest.raises(StateError) as exc:
        GameState.from_json(data)
    assert "coin toss (heads or tails) cannot come out 7" in exc.value.reason


# ---------------------------------------- replaying a game on chosen dice (#35)
def _dice_game(game_id: str, rules: dict[str, Any] | None, seed: int, pick: Any) -> tuple[GameState[Any], list[str]]:
    """A seeded bot game in which ``pick(draw, drawn)`` chooses some outcomes (the rest gm's own), and
    its events in words."""

    class Chooser:
        def outcome(self, draw: Draw[Any], index: int, drawn: Any) -> Any:
            return pick(draw, drawn)

    g = find_game(game_id)
    st = g.new_state(rules, seed, Chance(CHACHA20_V1, source=Chooser(), record=True))
    bots = {seat: g.make_bot("default", seed * 7 + i) for i, seat in enumerate(g.seats)}
    texts: list[str] = []
    play_out(st, bots, on_move=lambda seat, action, evs: texts.extend(e.text for e in evs))
    assert st.outcome is not None
    return st, texts


def _brawl_pick(d: Draw[Any], drawn: Any) -> Any:
    """Away wins the toss, every Agility card rolls its lowest value, field goals roll 1, and every deal
    gives the bottom cards of the pile instead of the top."""
    if d.label == "toss":
        return "away"
    if isinstance(d, Die):
        return d.lo
    if isinstance(d, Deal):
        return [str(c) for c in d.pile[: d.n]]
    return None


def _cf_pick(d: Draw[Any], drawn: Any) -> Any:
    """Tails, every pass roll a 6, every collision roll a 1 (a tie: both pieces go back)."""
    return {"coin toss": "tails", "pass roll": 6, "collision roll": 1}.get(d.label)


@pytest.mark.parametrize(
    ("game_id", "rules", "pick"),
    [("brawl", {"rounds": 4}, _brawl_pick), ("chess-football", {"possessions_per_half": 1}, _cf_pick)],
    ids=["brawl", "chess-football"],
)
def test_a_game_replays_move_by_move_on_the_dice_and_deals_a_script_supplies(game_id: str, rules: dict[str, Any], pick: Any) -> None:
    """A game played on chosen dice and deals is replayed from its moves alone with a script holding
    those outcomes by label (as a chatbot's log states them): the same game, event for event.  Without
    the script, gm's own chance makes another game of the same moves."""
    played, said = _dice_game(game_id, rules, 21, pick)
    log = played.draw_log
    assert log is not None and sum(r.supplied and r.outcome != r.drawn for r in log) >= 3
    by_label: dict[str, list[Any]] = {}
    for r in log:
        if r.supplied:
            by_label.setdefault(r.draw.label, []).append(r.draw.to_json(r.outcome))
    g = find_game(game_id)
    script = Scripted(by_label)
    replay = g.new_state(rules, 21, Chance(CHACHA20_V1, source=script, record=True))
    again: list[str] = []
    for m in played.log:
        again += [e.text for e in replay.apply(m.seat, str(m.action))]
    assert script.left() == 0
    assert again == said and replay.outcome == played.outcome and replay.snapshot() == played.snapshot()
    assert replay.supplied == played.supplied and GameState.from_json(replay.to_json()).snapshot() == played.snapshot()
    assert replay.draw_log is not None and [str(r) for r in replay.draw_log] == [str(r) for r in log]
    # gm's own chance, the same moves: another game (or a move the other dice make illegal)
    plain = g.new_state(rules, 21, CHACHA20_V1)
    mine: list[str] = []
    try:
        for m in played.log:
            mine += [e.text for e in plain.apply(m.seat, str(m.action))]
    except GameError:
        pass
    assert mine != said


# ------------------------------------------------------------------ the guard
#: the bots' own seeded generators are not the game's chance (brawl's decision draws moved to decisions.py)
ENGINE_FILES = sorted(p for p in (ROOT / "gm" / "games").rglob("*.py") if p.name not in ("bots.py", "strategy.py", "tactics.py", "decisions.py"))


def test_engines_draw_every_chance_result_through_the_chance_interface() -> None:
    """No engine module calls a generator itself: every chance result is a named draw (``state.draw``)."""
    offenders = []
    for p in ENGINE_FILES:
        text = p.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            if re.search(r"\b(self|state|f)\.rng\b|\brandom\.(Random|randint|randrange|choice|shuffle|random|sample)\(", code):
                offenders.append(f"{p.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []
    drawn = [p for p in ENGINE_FILES if re.search(r"\.draw\((Die|Coin|Choice|Shuffle|Deal)\(|\b(roll|roll_die|deal)\(\"", p.read_text(encoding="utf-8"))]
    assert {p.parent.name for p in drawn} == {"brawl", "chess_football", "grid_football", "quarterback"}
