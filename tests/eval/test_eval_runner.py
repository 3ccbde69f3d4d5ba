"""The runner's rules: the same move said another way is right, another move is wrong; a hidden pick
counts as leaked only as whole words and only while it is still hidden; quantiles by nearest rank."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gm.core.registry import find_game
from gm.eval import scripted_provider
from gm.eval.runner import CaseResult, Metered, _pct, leaked, run_case
from gm.eval.suite import Case
from gm.referee.llm.referee import LLMReferee

QB_MOVE = Case("quarterback", "t-1", "quickstart", "move the quarterback to E-1", "action", seed=1,
               tool="move_piece", args={"piece": "QB", "to": "E-1", "via": []})


def run(case: Case) -> CaseResult:
    provider, set_case = scripted_provider()
    set_case(case)
    metered = Metered(provider)
    return run_case(find_game(case.game), case, LLMReferee(metered), metered)


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
    r = run(replace(case, tool=None, args={}, expect="refuse", message="what did they pick?", reply="They picked play 3 black."))
    assert r.leak and not r.changed


def test_nearest_rank_quantiles() -> None:
    assert _pct([], 0.5) == 0.0
    assert _pct([5.0, 1.0, 3.0, 2.0], 0.5) == 2.0
    assert _pct([float(i) for i in range(1, 101)], 0.95) == 95.0
    assert _pct([7.0], 0.95) == 7.0
