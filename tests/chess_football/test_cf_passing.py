"""Passing: 1d6 + modifiers, the table, timing, receivers and interceptions."""

from __future__ import annotations

import pytest
from cf_helpers import at, dice, field, kinds, place, reaction, rejects, start, texts

from gm.core import Event
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.passing import pass_modifiers


def _throw(s: ChessFootballState, roll: int, *, defense: list[str] | None = None) -> list[Event]:
    """Offense done after declaring; the defense does ``defense`` then done; the ball moves with ``roll``."""
    s.apply("home", "done")
    for a in defense or []:
        s.apply("away", a)
    dice(s, roll)
    return s.apply("away", "done")


@pytest.mark.rules("CF-PASS", "CF-PASS-TABLE", "CF-R-TELEPORT")
def test_a_complete_pass_puts_the_ball_on_the_receiver_and_the_down_goes_on() -> None:
    s = reaction(start(), FA1="C16 NE")
    rejects(s, "home", "FA1 pass to FA2", "CF-PASS")  # only the QB or the Scrambler
    events = s.apply("home", "QB pass to FA1")
    assert "pass_declared" in kinds(events)
    assert s.view("away")["pass_declared"] == {"passer": "QB", "receiver": "FA1"}
    events = _throw(s, 3)
    assert "complete" in kinds(events) and "rolls 3 (no modifiers) = 3: complete" in texts(events)
    assert field(s).carrier == "FA1" and s.view("away")["ball"] == {"carrier": "FA1", "square": "C16", "position": "NE"}
    assert s.phase == "offense_turn" and field(s).turn == 3


@pytest.mark.rules("CF-PASS-TABLE", "CF-R-INCOMPLETE")
def test_an_incomplete_pass_ends_the_down_at_the_line() -> None:
    s = reaction(start(), FA1="C15")
    s.apply("home", "QB pass to FA1")
    events = _throw(s, 2)
    assert "incomplete" in kinds(events)
    assert s.down == 2 and s.los == 12 and s.offense == "home"


@pytest.mark.rules("CF-PASS-TABLE", "CF-R-PASS-TABLE", "CF-R-INTERCEPT-SPOT", "CF-TURNOVERS")
def test_minus_one_is_intercepted_by_a_defender_next_to_the_receiver() -> None:
    s = reaction(start(), FA1="C15", FA3="C16", ST3="D16")
    s.apply("home", "QB pass to FA1")
    events = _throw(s, 1)  # 1 - 2 = -1
    assert "interception" in kinds(events) and "INTERCEPTED by FA3" in texts(events)
    assert s.offense == "away" and s.los == 37 and s.down == 1


@pytest.mark.rules("CF-R-PASS-TABLE")
def test_zero_without_the_safety_is_only_incomplete() -> None:
    s = reaction(start(), FA1="C15", FA3="C16")
    s.apply("home", "QB pass to FA1")
    events = _throw(s, 1)  # 1 - 1 = 0
    assert "incomplete" in kinds(events) and "interception" not in kinds(events)


@pytest.mark.rules("CF-R-PASS-TABLE", "CF-INTERCEPT", "CF-PASS-MOD-SAFETY", "CF-R-PASS-MODS", "CF-PASS-MOD-DEFENDER")
def test_the_safety_intercepts_at_zero_and_counts_minus_three() -> None:
    s = reaction(start(away=("lead_blocker", "safety")), FA1="C16", SF="C17")
    f = field(s)
    mods = pass_modifiers(f, f.pieces["QB"], f.pieces["FA1"])
    assert [(m[1], m[2]) for m in mods] == [(-1, "CF-PASS-MOD-DEFENDER"), (-2, "CF-PASS-MOD-SAFETY")]
    s.apply("home", "QB pass to FA1")
    events = _throw(s, 3)  # 3 - 3 = 0
    assert "INTERCEPTED by SF" in texts(events)


@pytest.mark.rules("CF-PASS-MOD-DEFENDER")
def test_minus_one_per_adjacent_defender() -> None:
    s = reaction(start(), FA1="C15", FA3="C15 NW", ST3="B16", HV3="A30")
    f = field(s)
    assert sum(m[1] for m in pass_modifiers(f, f.pieces["QB"], f.pieces["FA1"])) == -2


@pytest.mark.rules("CF-PASS-MOD-RUSHER", "CF-PRESSURE", "CF-R-PASS-MODS")
def test_the_rusher_next_to_the_passer() -> None:
    s = reaction(start(home=("scrambler", "safety")), RU="H10", FA1="C16")
    f = field(s)
    assert [m[1] for m in pass_modifiers(f, f.pieces["QB"], f.pieces["FA1"])] == [-1]
    f.carrier = "SC"  # "QB" means the passer: the Scrambler feels the pressure too
    place(s, restart=False, RU="I11")
    assert [m[2] for m in pass_modifiers(f, f.pieces["SC"], f.pieces["FA1"])] == ["CF-PASS-MOD-RUSHER"]


@pytest.mark.rules("CF-PASS-MOD-DEEP", "CF-CATCHING")
def test_plus_one_to_the_deep_threat() -> None:
    s = reaction(start(), DT="L16")
    f = field(s)
    assert [(m[1], m[2]) for m in pass_modifiers(f, f.pieces["QB"], f.pieces["DT"])] == [(1, "CF-PASS-MOD-DEEP")]
    s.apply("home", "QB pass to DT")
    events = _throw(s, 2)  # 2 + 1 = 3
    assert "complete" in kinds(events)


@pytest.mark.rules("CF-PASS-MOD-LEAD", "CF-CHECK-DOWN", "CF-R-PASS-MODS")
def test_plus_one_with_the_lead_blocker_within_two_of_the_passer() -> None:
    s = reaction(start(home=("lead_blocker", "safety")), FA1="C16")
    f = field(s)
    assert [(m[1], m[2]) for m in pass_modifiers(f, f.pieces["QB"], f.pieces["FA1"])] == [(1, "CF-PASS-MOD-LEAD")]
    place(s, restart=False, LB="H8")  # three squares away
    assert pass_modifiers(f, f.pieces["QB"], f.pieces["FA1"]) == []


@pytest.mark.rules("CF-R-PASS-TIMING", "CF-SCRAMBLE")
def test_the_qb_passes_only_before_moving_the_scrambler_after_too() -> None:
    s = reaction(start())
    s.apply("home", "QB to H10 C")
    rejects(s, "home", "QB pass to FA1", "CF-SCRAMBLE")
    s = reaction(start(home=("scrambler", "safety")))
    field(s).carrier = "SC"
    s.apply("home", "SC to I11 C")
    s.apply("home", "SC pass to FA1")
    rejects(s, "home", "SC pass to FA2", "CF-R-ONE-MOVE")  # passing ends the passer's turn


@pytest.mark.rules("CF-R-PASS-TIMING", "CF-SACK")
def test_the_pass_is_thrown_after_the_defense_moved_so_a_sack_stops_it() -> None:
    s = reaction(start())
    s.apply("home", "QB pass to FA1")
    s.apply("home", "done")
    place(s, RU="J12")
    dice(s)  # no roll happens
    events = s.apply("away", "RU to H11 C")
    assert "sack" in kinds(events) and "pass" not in kinds(events)
    assert s.down == 2 and s.los == 11


@pytest.mark.rules("CF-R-PASS-TIMING")
def test_one_pass_per_down() -> None:
    s = reaction(start(), FA1="C15", FA2="N15")
    s.apply("home", "QB pass to FA1")
    _throw(s, 4)
    assert field(s).carrier == "FA1"
    field(s).carrier = "QB"  # even with the ball back in a passer's hands
    rejects(s, "home", "QB pass to FA2", "CF-R-PASS-TIMING")


@pytest.mark.rules("CF-R-RECEIVER", "CF-INELIGIBLE", "CF-R-BLOCKING-CAPTAINS")
def test_who_may_catch() -> None:
    s = reaction(start(home=("lead_blocker", "safety")))
    rejects(s, "home", "QB pass to QB", "CF-R-RECEIVER")
    rejects(s, "home", "QB pass to FA3", "CF-R-RECEIVER")
    rejects(s, "home", "QB pass to HV1", "CF-INELIGIBLE")
    rejects(s, "home", "QB pass to ST1", "CF-INELIGIBLE")
    rejects(s, "home", "QB pass to LB", "CF-R-BLOCKING-CAPTAINS")  # a blocking captain
    s.apply("home", "QB pass to FA2")


@pytest.mark.rules("CF-INELIGIBLE", "CF-R-BLOCKING-CAPTAINS")
def test_ineligible_receivers_stay_within_one_row_of_the_line_before_the_pass() -> None:
    s = reaction(start(home=("lead_blocker", "safety")), LB="A13", FA1="C15", ST1="E12")
    rejects(s, "home", "LB to A14 C", "CF-R-BLOCKING-CAPTAINS")
    rejects(s, "home", "ST1 to E14 C", "CF-INELIGIBLE")
    s.apply("home", "ST1 to E13 C")
    s.apply("home", "QB pass to FA1")
    _throw(s, 6)
    s.apply("home", "ST1 to E15 C")  # after the pass
    t = reaction(start(), DT="L13")
    t.apply("home", "DT to L16 C")  # the Deep Threat is eligible


@pytest.mark.rules("CF-R-TELEPORT", "CF-R-TD", "CF-TOUCHDOWN")
def test_a_pass_caught_in_the_end_zone_scores() -> None:
    s = reaction(start(), FA1="C46 SW")
    s.apply("home", "QB pass to FA1")
    events = _throw(s, 5)
    assert "touchdown" in kinds(events) and s.score["home"] == 7


@pytest.mark.rules("CF-PASS")
def test_the_away_team_passes_toward_row_one() -> None:
    s = reaction(start("away"), FA1="C33")
    s.apply("away", "QB pass to FA1")
    s.apply("away", "done")
    dice(s, 4)
    events = s.apply("home", "done")
    assert "complete" in kinds(events) and at(s, "FA1") == "C33 C"
