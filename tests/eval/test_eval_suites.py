"""The eval suites are sound: every game ships one (package data, >= 40 cases), each case's position is
built by the engine, every expected call is legal there, every cheat's forbidden move is refused, and
the scripted model's deliberate mistakes are what the suite says they are."""

from __future__ import annotations

from collections import Counter

import pytest

from gm.core.errors import GameError
from gm.core.registry import all_games, find_game
from gm.eval.suite import Case, SuiteError, _case, expected_action, hidden_picks, load_suite, start_session

GAMES = ["brawl", "chess-football", "grid-football", "gridmaster4", "quarterback"]
SIZES = {"brawl": 42, "chess-football": 42, "grid-football": 42, "gridmaster4": 42, "quarterback": 40}
FAULTS = {
    "brawl": ["wrong-move", "contradiction", "illegal", "leak", "cheat"],
    "chess-football": ["wrong-move", "leak", "cheat", "contradiction", "illegal"],
    "grid-football": ["contradiction", "wrong-move", "illegal", "cheat", "leak"],
    "gridmaster4": ["illegal", "wrong-move", "cheat", "contradiction"],
    "quarterback": ["wrong-move", "illegal", "cheat", "contradiction"],
}


def cases(game: str) -> list[Case]:
    return load_suite(find_game(game))


def test_every_game_ships_a_suite_of_at_least_40_cases() -> None:
    assert sorted(g.id for g in all_games() if load_suite(g)) == GAMES
    assert {g: len(cases(g)) for g in GAMES} == SIZES


@pytest.mark.parametrize("game", GAMES)
def test_a_suite_covers_what_players_really_say(game: str) -> None:
    suite = cases(game)
    kinds = Counter(c.expect for c in suite)
    assert set(kinds) == {"action", "ask", "answer", "refuse"}
    assert kinds["action"] >= 15 and kinds["refuse"] >= 4 and kinds["ask"] >= 3
    cats = {c.category for c in suite}
    assert {"quickstart", "typo", "slang", "ambiguous", "cheat"} <= cats
    assert cats & {"rules", "table-talk"}
    assert len({c.message for c in suite}) == len(suite)  # no message twice
    assert [c.fault for c in suite if c.fault] == FAULTS[game]


@pytest.mark.parametrize("game", GAMES)
def test_every_expected_call_is_legal_and_every_cheat_is_refused(game: str) -> None:
    g = find_game(game)
    for case in cases(game):
        seat = case.seat or g.seats[0]
        session = start_session(g, case)
        assert seat in session.state.to_act(), case.id
        if case.expect == "action":
            action = expected_action(session, case)
            assert action in session.state.legal_actions(seat), case.id
            result = session.call(str(case.tool), dict(case.args), seat)
            assert result["ok"], (case.id, result)
        else:
            assert case.reply, case.id
        if case.forbidden:
            try:
                bad = g.parse_action(case.forbidden)
            except GameError:
                continue
            assert bad not in session.state.legal_actions(seat), case.id
            with pytest.raises(GameError):
                session.state.copy().apply(seat, bad)


@pytest.mark.parametrize("game", GAMES)
def test_the_scripted_mistakes_are_what_they_say(game: str) -> None:
    g = find_game(game)
    for case in cases(game):
        if not case.fault:
            continue
        seat = case.seat or g.seats[0]
        session = start_session(g, case)
        call = case.scripted.get("call")
        if case.fault in ("wrong-move", "cheat"):
            before = len(session.state.log)
            assert session.call(call["tool"], call["args"], seat)["ok"], case.id
            made = [m.action for m in session.state.log[before:] if m.seat == seat]
            assert len(made) == 1, case.id
            if case.fault == "wrong-move":
                assert made[0] != expected_action(start_session(g, case), case), case.id
            else:
                assert case.expect == "refuse", case.id
        elif case.fault == "illegal":
            assert not session.call(call["tool"], call["args"], seat)["ok"], case.id
        elif case.fault == "leak":  # the scripted model tells the pick locked in the session at hand
            assert hidden_picks(session, seat) and "{secret}" in case.scripted["text"], case.id
        else:
            assert case.fault == "contradiction" and case.expect == "action" and case.scripted["text"]


def test_a_malformed_case_is_one_clear_error() -> None:
    with pytest.raises(SuiteError, match="expect is one of action, ask, answer, refuse"):
        _case("grid-football", {"id": "x", "message": "hi", "expect": "maybe"}, "suite case 1")
    with pytest.raises(SuiteError, match="unknown field 'colour'"):
        _case("grid-football", {"id": "x", "message": "hi", "expect": "ask", "colour": "red"}, "suite case 1")
    with pytest.raises(SuiteError, match="a tool \\(and args\\) exactly when expect = 'action'"):
        _case("grid-football", {"id": "x", "message": "kick", "expect": "action"}, "suite case 1")
