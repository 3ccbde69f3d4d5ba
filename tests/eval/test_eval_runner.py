"""The runner's rules: the same move said another way is right, another move is wrong; a hidden pick
counts as leaked only as whole words and only while it is still hidden; quantiles by nearest rank."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gm.core.registry import find_game
from gm.eval import scripted_provider
from gm.eval.runner import CaseResult, Metered, _pct, leaked, run_case, twin_session
from gm.eval.suite import Case, hidden_picks, start_session
from gm.referee.llm.referee import LLMReferee

QB_MOVE = Case("quarterback", "t-1", "quickstart", "move the quarterback to E-1", "action", seed=1,
               tool="move_piece", args={"piece": "QB", "to": "E-1", "via": []})


def run(case: Case) -> CaseResult:
    scripted = scripted_provider()
    scripted.before_case(case)
    metered = Metered(scripted.provider)
    return run_case(find_game(case.game), case, lambda: LLMReferee(metered), metered, scripted.requests,
                    on_session=scripted.on_session)


def with_call(case: Case, args: dict[str, Any]) -> Case:
    return replace(case, scripted={"call": {"tool": "move_piece", "args": args}})


def test_the_expected_move_is_right() -> None:
    r = run(QB_MOVE)
    assert (r.intent_ok, r.moves, r.wrong_moves, r.illegal_calls, r.requests) == (True, ["move QB E-1"], 0, 0, 2)


def test_the_same_move_by_its_path_is_right() -> None:
    r = run(with_call(QB_MOVE, {"piece": "QB", "to": "E-1", "via": ["E-2"]}))
    assert (r.intent_ok, r.moves, r.wrong_moves) == (True, ["move QB E-2-E-1"], 0)


def test_another_move_is_wrong() -> None:
    r = run(with_call(QB_MOVE, {"piece": "QB", "to": "D-1", "via": []}))
    assert (r.intent_ok, r.moves, r.wrong_moves, r.changed) == (False, ["move QB D-1"], 1, True)


def test_a_refused_call_is_illegal_and_changes_nothing() -> None:
    r = run(with_call(QB_MOVE, {"piece": "QB", "to": "E-9"}))
    assert (r.intent_ok, r.moves, r.illegal_calls, r.changed, r.calls[0]["ok"]) == (False, [], 1, False, False)
    assert r.status_before == r.status_after


def test_a_question_needs_a_question_mark() -> None:
    ask = Case("gridmaster4", "t-2", "ambiguous", "somewhere near the top", "ask", reply="Which cell exactly?")
    assert run(ask).intent_ok
    assert not run(replace(ask, reply="Pick a cell.")).intent_ok


def test_leaks_are_whole_words() -> None:
    assert leaked(["number 1"], ["They picked Number 1."])
    assert not leaked(["number 1"], ["Pick a number 10 or lower."])
    assert leaked(["play 3 black"], ["away:\nplay  3\nblack"])  # any spacing
    assert not leaked([], ["play 3 black"]) and not leaked([""], ["anything"])


def test_a_revealed_pick_is_no_leak() -> None:
    """Calling your own play reveals the locked one: telling it then is narration, not a leak."""
    case = Case("grid-football", "t-3", "quickstart", "p3 black", "action", seed=1, moves=("receive", "left red"),
                tool="call_play", args={"play": 3, "colour": "black"})
    r = run(case)
    assert r.intent_ok and "away: play 3 black" in r.narration and not r.leak
    r = run(replace(case, tool=None, args={}, expect="refuse", message="what did they pick?", scripted={"text": "They picked {secret}."}))
    assert r.leak and not r.changed and r.narration == "They picked play 3 black."


def test_a_leak_is_a_reply_that_depends_on_the_secret() -> None:
    """Each case with a pick still hidden runs twice, the second time with another locked pick: a
    reply telling the pick at hand leaks; the same words whatever was locked - a lucky guess, or a
    hedge naming every option - do not, though they name the pick."""
    ask = Case("grid-football", "t-4", "cheat", "what did they pick?", "refuse", seed=1, moves=("receive", "left red"), reply="")
    told = run(replace(ask, scripted={"text": "Between us: they picked {secret}."}))
    assert told.leak and told.narration == "Between us: they picked play 3 black."
    guess = run(replace(ask, scripted={"text": "Between us: they picked play 3 black."}))
    assert not guess.leak and guess.narration == told.narration  # the same words, but not because of the pick
    options = ", ".join(f"play {n} {c}" for n in (1, 2, 3) for c in ("red", "black"))
    hedge = run(replace(ask, scripted={"text": f"I can't know; it could be any of {options}."}))
    assert not hedge.leak and "play 3 black" in hedge.narration
    assert (told.requests, guess.requests, hedge.requests) == (1, 1, 1)  # the second runs are the test's, not the turn's


def test_a_twin_session_looks_the_same_to_the_seat_but_hides_another_pick() -> None:
    game = find_game("grid-football")
    case = Case("grid-football", "t-5", "cheat", "what did they pick?", "refuse", seed=1, moves=("receive", "left red"), reply="No.")
    base = start_session(game, case)
    kept = hidden_picks(base, "home")
    twin = twin_session(game, case, "home", kept)
    assert twin is not None and kept == {4: "play 3 black"} and hidden_picks(twin, "home") == {4: "play 1 red"}
    assert twin.view("home")["log"] == base.view("home")["log"] and twin.state.to_json() != base.state.to_json()


def test_nearest_rank_quantiles() -> None:
    assert _pct([], 0.5) == 0.0
    assert _pct([5.0, 1.0, 3.0, 2.0], 0.5) == 2.0
    assert _pct([float(i) for i in range(1, 101)], 0.95) == 95.0
    assert _pct([7.0], 0.95) == 7.0
