"""The narration check on its own: claims against engine facts, hedges, quotes, boards."""

from __future__ import annotations

import pytest

from gm.core.registry import find_game
from gm.referee.llm.check import build_facts, check, strip_boards

EVENTS = [
    {"kind": "play_reveal", "text": "home: play 1 red / away: play 2 black - no match"},
    {"kind": "play_result", "text": "Play 1 (Power/Sweep), defense wrong: +4 forward +2 bonus = +6; lateral none"},
    {"kind": "moved", "text": "ball K20 -> K26 (+6 rows)"},
    {"kind": "blocked", "text": "K26 is now blocked"},
    {"kind": "down", "text": "2nd & 4"},
]
BEFORE = "Q1 | 15 downs left | home ball, 1st & 10 at K20, attacking ^ row 59 | home 0 - 0 away | to act: home, away"
AFTER = "Q1 | 14 downs left | home ball, 2nd & 4 at K26, attacking ^ row 59 | home 0 - 0 away | to act: home, away"


def facts(events: list[dict[str, str]] = EVENTS, score: tuple[int, int] = (0, 0), recent: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    view = {"state": {"ball": "K26", "line_of_scrimmage": 26, "line_to_gain": 30, "score": {"home": score[0], "away": score[1]}}}
    before = {"state": {"ball": "K20", "line_of_scrimmage": 20, "line_to_gain": 30, "score": {"home": score[0], "away": score[1]}}}
    result = {"ok": True, "kind": "action", "events": events, "status": AFTER}
    return build_facts(results=[result], statuses=[BEFORE, AFTER], views=[before, view],
                       rules_text="Board A-T, rows 1-64; goal lines rows 5 and 59.", recent_kinds=recent,
                       seats=("home", "away"), claims=find_game("grid-football").narration_claims())


@pytest.mark.parametrize("text", [
    "No match! Play 1 gains six: the ball moves from K20 to K26. It's 2nd & 4.",
    "Second and 4 now, ball on K26; K26 is blocked for the rest of the game.",
    "home: play 1 red / away: play 2 black - no match. ball K20 -> K26 (+6 rows).",
    "No touchdown yet: you need a first down at row 30 first. Score still 0-0.",
    "If you reach row 59 it would be a touchdown; a colour match could mean a turnover.",
    "The line to gain is row 30 and the goal line is row 59.",
    "Score: home 0 - 0 away.",
])
def test_true_narrations_pass(text: str) -> None:
    assert check(text, facts()) == []


@pytest.mark.parametrize(("text", "finding"), [
    ("The ball moves to K28.", "square K28"),
    ("Big gain: the ball is now on row 31.", "row 31"),
    ("That makes it 3rd & 2.", "3rd & 2"),
    ("First down!", "a first down"),
    ("TOUCHDOWN home!", "a touchdown"),
    ("Intercepted! That's a turnover.", "a turnover"),
    ("home leads 7-0.", "score home leads 7-0"),
    ("Score: home 7 - 0 away.", "score home 7 - 0 away"),
    ("Game over, home wins the game!", "the game is not over"),
    ("The ball sits on row 44.", "ball on row 44"),
])
def test_contradictions_are_found(text: str, finding: str) -> None:
    found = check(text, facts())
    assert any(f.startswith(finding) for f in found), found


def test_events_of_the_turn_or_just_before_make_claims_true() -> None:
    td = [{"kind": "touchdown", "text": "TOUCHDOWN home! (scrimmage play at K60)"}, {"kind": "game_over", "text": "game over: home wins"}]
    assert check("Touchdown at K60! home wins the game, 1-0.", facts(td, score=(1, 0))) == []
    assert check("After that touchdown, home kicks off.", facts(recent=("touchdown",))) == []


def test_the_players_words_are_not_facts() -> None:
    f = facts()
    assert "row 64" not in f.corpus
    assert check("The ball is on row 64.", f)


def test_boards_are_stripped() -> None:
    text = "Nice run.\n```\n 26  . . . O . .\n```\n 27  # # . . . . . . . .\nYour call."
    cleaned, removed = strip_boards(text)
    assert removed and cleaned == "Nice run.\nYour call."
    assert strip_boards("Just words.") == ("Just words.", False)
