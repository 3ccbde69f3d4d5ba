"""Play calls and their results: the plays table, matches, bonuses, lateral caps, turnovers."""

from __future__ import annotations

import pytest
from gf_helpers import at_down, blocked, down, first, kinds, numbers, rejects, rules_of

from gm.games.grid_football.actions import PlayCall
from gm.games.grid_football.engine import parse_square


@pytest.mark.rules("GF-LOCK", "GF-MATCH-NONE", "GF-PLAY-1", "GF-MOVE-RED", "GF-BLOCK")
def test_the_quick_start_worked_example() -> None:
    """K20, "Play 1, Red, 2 right before" vs "Play 3, Black": +4 +2 bonus, 2 right -> M26, now blocked."""
    s = at_down("K20")
    s.apply("home", "Play 1, Red, 2 right before")
    ev = s.apply("away", "Play 3, Black")
    reveal = first(ev, "play_reveal")
    assert (reveal.data["ocall"], reveal.data["dcall"], reveal.data["result"]) == (
        "play 1 red 2 right before",
        "play 3 black",
        "no match",
    )
    res = first(ev, "play_result")
    assert (res.data["base"], res.data["bonus"], res.data["total"], res.data["lat"]) == (4, 2, 6, "2 right")
    assert s.snapshot()["ball"] == "M26"
    assert blocked(s) == ["M26"]
    assert (s.down, s.to_gain, s.los) == (2, 30, 26)


# (offense call, defense call, quarter, end square) from K30, home attacking up, nothing blocked
PLAYS_TABLE = [
    pytest.param("play 1 black 3 left", "play 2 red", 1, "H36", id="GF-PLAY-1-wrong-+4+2-lateral-3"),
    pytest.param("play 1 black 3 left", "play 1 red", 1, "I32", id="GF-PLAY-1-matched-0+2-lateral-2"),
    pytest.param("play 2 black", "play 1 red", 1, "K34", id="GF-PLAY-2-wrong-+2+2"),
    pytest.param("play 2 black", "play 2 red", 1, "K30", id="GF-PLAY-2-matched--2+2"),
    pytest.param("play 3 black 3 right", "play 1 red", 1, "N33", id="GF-PLAY-3-wrong-+1+2-lateral-3"),
    pytest.param("play 3 black 3 right", "play 3 red", 1, "K29", id="GF-PLAY-3-matched--3+2-no-lateral"),
    pytest.param("play 4 black 2 right", "play 1 red", 2, "M37", id="GF-PLAY-4-wrong-+5+2-lateral-2"),
    pytest.param("play 4 black 2 right", "play 4 red", 2, "L28", id="GF-PLAY-4-matched--4+2-lateral-1"),
    pytest.param("play 1 red 3 left", "play 2 black", 1, "H36", id="GF-PLAY-1-wrong-red"),
    pytest.param("play 4 red 2 left after", "play 4 black", 2, "J28", id="GF-PLAY-4-matched-red-after"),
]


@pytest.mark.rules("GF-PLAY-1", "GF-PLAY-2", "GF-PLAY-3", "GF-PLAY-4", "GF-MATCH-NONE", "GF-MATCH-PLAY", "GF-R-NET")
@pytest.mark.parametrize(("offense", "defense", "quarter", "end"), PLAYS_TABLE)
def test_the_plays_table(offense: str, defense: str, quarter: int, end: str) -> None:
    s = at_down("K30", quarter=quarter)
    ev = down(s, offense, defense)
    assert s.snapshot()["ball"] == end
    assert f"GF-PLAY-{offense.split()[1]}" in rules_of(ev)
    assert parse_square(end) in s.blocked


@pytest.mark.rules("GF-PLAY-1", "GF-DIRECTION", "GF-R-LEFT-RIGHT")
def test_forward_and_left_for_the_team_attacking_down() -> None:
    s = at_down("K30", "away")  # away attacks row 5 in Q1
    down(s, "play 1 black 3 left", "play 2 red")
    assert s.snapshot()["ball"] == "H24"  # forward = toward row 5; left = toward column A
    s = at_down("K30", "away")
    down(s, "play 3 black 2 right", "play 1 red")
    assert s.snapshot()["ball"] == "M27"


@pytest.mark.rules("GF-MATCH-NONE")
def test_no_match_adds_the_bonus() -> None:
    s = at_down("K30", rules={"no_match_bonus": 0})
    down(s, "play 2 black", "play 1 red")
    assert s.snapshot()["ball"] == "K32"
    s = at_down("K30")
    ev = down(s, "play 2 black", "play 1 red")
    assert first(ev, "play_result").rule == "GF-MATCH-NONE" and first(ev, "play_result").data["bonus"] == 2


@pytest.mark.rules("GF-MATCH-PLAY")
def test_a_play_match_uses_the_matched_result_plus_the_bonus() -> None:
    s = at_down("K30", rules={"play_match_bonus": 0})
    down(s, "play 2 black", "play 2 red")
    assert s.snapshot()["ball"] == "K28"
    s = at_down("K30")
    ev = down(s, "play 2 black", "play 2 red")
    res = first(ev, "play_result")
    assert (res.rule, res.data["base"], res.data["bonus"]) == ("GF-MATCH-PLAY", -2, 2)


@pytest.mark.rules("GF-R-NET")
@pytest.mark.parametrize(
    ("offense", "defense", "quarter", "block", "end"),
    [("play 3 black", "play 3 red", 1, "K28", "K29"), ("play 4 black", "play 4 red", 2, "K27", "K28")],
    ids=["play-3-net-1-back", "play-4-net-2-back"],
)
def test_the_bonus_is_netted_before_moving(offense: str, defense: str, quarter: int, block: str, end: str) -> None:
    """Moving back 3 then forward 2 would be stopped by the block; the net -1 is not."""
    s = at_down("K30", quarter=quarter, blocked=[block])
    down(s, offense, defense)
    assert s.snapshot()["ball"] == end


# ------------------------------------------------------------- colour matches


@pytest.mark.rules("GF-MATCH-COLOUR", "GF-R-COLOUR-MOVE", "GF-R-NUMBER")
def test_a_colour_match_moves_exactly_3_then_numbers_no_match_continues() -> None:
    s = at_down("K30", down=2, to_gain=40)
    ev = down(s, "play 1 black 3 left", "play 2 black")
    assert "colour_match" in kinds(ev) and "play_result" not in kinds(ev)
    assert s.snapshot()["ball"] == "K33" and "K33" in blocked(s)  # exactly +3, no lateral
    assert s.phase == "number_check" and s.decision("home") == s.decision("away") == "number_pick"
    assert s.quarter_downs == 0  # the down is counted once the numbers are in
    s.apply("away", "number 4")
    assert s.view("home")["pending"] == {"away": "locked"}
    ev = s.apply("home", "number 3")
    assert first(ev, "number_reveal").data["result"] == "no match"
    assert (s.offense, s.down, s.phase, s.quarter_downs) == ("home", 3, "play", 1)


@pytest.mark.rules("GF-MATCH-COLOUR", "GF-TURNOVER", "GF-R-NEW-SERIES")
def test_a_colour_match_number_match_is_a_turnover() -> None:
    s = at_down("K30")
    down(s, "play 1 red", "play 3 red")
    ev = numbers(s, 5, 5)
    assert "turnover" in kinds(ev)
    assert (s.offense, s.ball, s.down, s.to_gain) == ("away", parse_square("K33"), 1, 23)


@pytest.mark.rules("GF-R-COLOUR-MOVE", "GF-MOVE-RED", "GF-MOVE-BLACK")
@pytest.mark.parametrize(
    ("offense", "defense", "end"),
    [
        ("play 1 red 2 left after", "play 2 red", "K33"),  # red after: forward in the air, over K32
        ("play 1 red after", "play 2 red", "K33"),
        ("play 1 red 2 left before", "play 3 red", "K31"),  # red before: forward on the ground
        ("play 1 black 2 left", "play 2 black", "K31"),  # black: ground
    ],
    ids=["red-after-air", "red-after-no-lateral-air", "red-before-ground", "black-ground"],
)
def test_the_colour_match_3_uses_the_offenses_forward_mode(offense: str, defense: str, end: str) -> None:
    s = at_down("K30", blocked=["K32"])
    down(s, offense, defense)
    assert s.snapshot()["ball"] == end and s.phase == "number_check"


@pytest.mark.rules("GF-R-COLOUR-TD", "GF-TD", "GF-WIN")
def test_a_colour_match_touchdown_comes_before_the_number_check() -> None:
    s = at_down("K56")
    ev = down(s, "play 1 black", "play 2 black")
    assert "GF-R-COLOUR-TD" in rules_of(ev) and "number_check" not in kinds(ev)
    assert s.outcome is not None and s.outcome.winner == "home" and s.to_act() == ()
    assert s.snapshot()["ball"] == "K59"


@pytest.mark.rules("GF-MATCH-BOTH", "GF-TURNOVER", "GF-BLOCK", "GF-R-NEW-SERIES")
@pytest.mark.parametrize("offense", ["home", "away"])
def test_play_and_colour_match_is_an_immediate_turnover_in_place(offense: str) -> None:
    s = at_down("K30", offense, down=3)
    ev = down(s, "play 1 red 2 left after", "play 1 red")
    assert first(ev, "turnover").rule == "GF-MATCH-BOTH"
    new_offense = "away" if offense == "home" else "home"
    assert (s.offense, s.ball, s.down) == (new_offense, parse_square("K30"), 1)
    assert blocked(s) == ["K30"]
    d = s.direction(new_offense)
    assert d == (-1 if new_offense == "away" else 1) and s.to_gain == 30 + 10 * d  # the drive direction reverses
    down(s, "play 2 black", "play 1 red")  # and the new offense moves the other way
    assert s.snapshot()["ball"] == f"K{30 + 4 * d}"


# --------------------------------------------------------------------- lateral


@pytest.mark.rules("GF-LATERAL")
def test_lateral_timing_defaults_to_before() -> None:
    a = at_down("K30")
    assert a.parse_action("play 1 black 2 right") == PlayCall(1, "black", 2, "right", "before")


@pytest.mark.rules("GF-LATERAL", "GF-MOVE-BLACK")
@pytest.mark.parametrize(("timing", "end"), [("before", "M35"), ("after", "L36")])
def test_lateral_before_or_after_the_forward_move(timing: str, end: str) -> None:
    """M36 is blocked: lateral first then up the M column stops at M35; up first then right stops at L36."""
    s = at_down("K30", blocked=["M36"])
    down(s, f"play 1 black 2 right {timing}", "play 2 red")
    assert s.snapshot()["ball"] == end


@pytest.mark.rules("GF-LATERAL-MATCH")
@pytest.mark.parametrize(
    ("offense", "defense", "quarter", "lateral"),
    [("play 1 black 3 left", "play 1 red", 1, 2), ("play 4 black 2 left", "play 4 red", 2, 1)],
    ids=["play-1-3-to-2", "play-4-2-to-1"],
)
def test_a_play_match_reduces_lateral_by_one(offense: str, defense: str, quarter: int, lateral: int) -> None:
    s = at_down("K30", quarter=quarter)
    ev = down(s, offense, defense)
    cut = first(ev, "lateral_cut")
    assert (cut.rule, cut.data["lateral"]) == ("GF-LATERAL-MATCH", lateral)
    assert s.ball is not None and s.ball[0] == 10 - lateral


@pytest.mark.rules("GF-R-LATERAL-TABLE", "GF-PLAY-3")
def test_play_3_matched_allows_no_lateral() -> None:
    s = at_down("K30")
    ev = down(s, "play 3 red 3 right", "play 3 black")
    cut = first(ev, "lateral_cut")
    assert (cut.rule, cut.data["declared"], cut.data["lateral"]) == ("GF-R-LATERAL-TABLE", 3, 0)
    assert s.snapshot()["ball"] == "K29"


@pytest.mark.rules("GF-R-LATERAL-CAP")
@pytest.mark.parametrize(
    ("call", "quarter"),
    [("play 1 red 4 left", 1), ("play 2 black 1 right", 1), ("play 3 red 4 right after", 1), ("play 4 black 3 left", 2)],
)
def test_declaring_more_lateral_than_the_play_allows_is_rejected(call: str, quarter: int) -> None:
    s = at_down("K30", quarter=quarter)
    err = rejects(s, "home", call, "GF-R-LATERAL-CAP")
    assert any("up to" in alt for alt in err.legal)
    assert call not in [str(a) for a in s.legal_actions("home")]


@pytest.mark.rules("GF-R-LATERAL-CAP")
def test_the_declared_lateral_within_the_cap_is_legal_and_a_match_cuts_it() -> None:
    s = at_down("K30")
    caps = {1: 3, 2: 0, 3: 3}
    legal = {a for a in s.legal_actions("home") if isinstance(a, PlayCall)}
    assert {(a.play, max(x.lateral for x in legal if x.play == a.play)) for a in legal} == set(caps.items())
    down(s, "play 1 red 3 right", "play 1 black")
    assert s.snapshot()["ball"] == "M32"  # 3 declared, the matched play moves 2


@pytest.mark.rules("GF-R-DEFENSE-CALL")
@pytest.mark.parametrize("call", ["play 1 red 1 left", "play 1 red after", "play 3 black 2 right after"])
def test_the_defense_may_not_declare_movement_intent(call: str) -> None:
    s = at_down("K30")
    err = rejects(s, "away", call, "GF-R-DEFENSE-CALL")
    assert err.legal == tuple(str(a) for a in s.legal_actions("away"))
    assert err.legal == ("play 1 red", "play 1 black", "play 2 red", "play 2 black", "play 3 red", "play 3 black")
    s.apply("away", "play 1 black after")  # a run without lateral has no intent: it is the same call
    assert s.pending["away"] == PlayCall(1, "black")


# -------------------------------------------------------------------- play 4


@pytest.mark.rules("GF-PLAY4-LOCK")
@pytest.mark.parametrize("seat", ["home", "away"])
def test_play_4_is_locked_in_quarter_1_for_both_sides(seat: str) -> None:
    s = at_down("K30")
    err = rejects(s, seat, "play 4 black", "GF-PLAY4-LOCK")
    assert "quarter 2" in err.reason
    assert all(not (isinstance(a, PlayCall) and a.play == 4) for a in s.legal_actions(seat))


@pytest.mark.rules("GF-PLAY4-LOCK", "GF-PLAY-4")
@pytest.mark.parametrize("quarter", [2, 3, 4])
def test_play_4_is_open_after_quarter_1(quarter: int) -> None:
    s = at_down("K30", quarter=quarter)
    assert PlayCall(4, "black") in s.legal_actions("home") and PlayCall(4, "black") in s.legal_actions("away")
    down(s, "play 4 black", "play 1 red")
    assert s.snapshot()["ball"] == "K37"


@pytest.mark.rules("GF-LOCK")
def test_unknown_play_numbers_are_rejected() -> None:
    s = at_down("K30")
    err = rejects(s, "home", "play 7 red", "GF-LOCK")
    assert "no play 7" in err.reason
    rejects(s, "away", "play 0 black", "GF-LOCK")


@pytest.mark.rules("GF-LOCK")
def test_calls_are_simultaneous_secret_and_final() -> None:
    s = at_down("K30")
    assert s.decision("home") == s.decision("away") == "play_call"
    s.apply("away", "play 2 red")  # the defense may lock first
    assert s.view("home")["pending"] == {"away": "locked"} and s.to_act() == ("home",)
    rejects(s, "away", "play 3 red", "CORE-TURN")  # a locked call cannot be changed
    ev = s.apply("home", "play 1 black")
    assert first(ev, "play_reveal").data["dcall"] == "play 2 red"
    assert s.last == {"kind": "play", "home": "play 1 black", "away": "play 2 red", "result": "no match"}
