"""Events cite the rules that decided them (``rule`` plus ``also``), and only those: what
``gm replay --coverage`` counts as a rule exercised."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from cf_helpers import defense_turn, dice, new, reaction, rejects, snap, start

from gm.core.events import Event


def cited(ev: Event) -> set[str]:
    return {ev.rule, *ev.data.get("also", ())}


def first(events: Iterable[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


@pytest.mark.rules("CF-R-TOSS", "CF-R-CAPTAINS", "CF-R-EIGHTH", "CF-POSSESSIONS", "CF-SIDES", "CF-R-ENDS", "CF-R-SQUARE8",
                   "CF-LOS", "CF-TEAM", "CF-R-LINEUP", "CF-R-SNAP-BALL")
def test_the_opening_cites_the_captains_toss_drive_and_line_up_rules() -> None:
    s = new()
    assert cited(first(s.apply("home", "captains deep_threat safety"), "locked")) == {"CF-R-CAPTAINS", "CF-R-EIGHTH"}
    events = s.apply("away", "captains lead_blocker rusher")
    assert cited(first(events, "captains")) == {"CF-CAPTAIN", "CF-R-CAPTAINS", "CF-R-EIGHTH"}
    events = s.apply("away", "heads")
    assert cited(first(events, "coin_toss")) == {"CF-COIN-TOSS", "CF-R-TOSS"}
    assert cited(first(events, "drive_start")) == {"CF-DRIVE-START", "CF-POSSESSIONS", "CF-SIDES", "CF-R-ENDS", "CF-R-SQUARE8"}
    assert cited(first(events, "down")) == {"CF-FIRST-DOWN", "CF-LOS", "CF-TEAM", "CF-R-LINEUP", "CF-R-SNAP-BALL"}


@pytest.mark.rules("CF-R-STEP", "CF-MOVE-RESTRICTED", "CF-MOVE-UNRESTRICTED", "CF-R-POSITION", "CF-SNAP-BURST")
def test_a_move_cites_its_kind_of_movement_the_position_and_the_snap_burst_it_needed() -> None:
    s = start()
    events = snap(s, "plan: HV1 to E12 NW; FA1 to C14 C", "plan: hold")
    hv1, fa1 = (e for e in events if e.kind == "move")
    assert cited(hv1) == {"CF-MOVEMENT", "CF-R-STEP", "CF-MOVE-UNRESTRICTED", "CF-R-POSITION", "CF-SNAP-BURST"}
    assert cited(fa1) == {"CF-MOVEMENT", "CF-R-STEP", "CF-MOVE-RESTRICTED"}
    s = start()
    hv1 = first(snap(s, "plan: HV1 to G11 C", "plan: hold"), "move")  # one square: no burst needed
    assert "CF-SNAP-BURST" not in cited(hv1)


@pytest.mark.rules("CF-SPEED-RUSH", "CF-R-SPEED-RUSH", "CF-ONCE-4", "CF-R-ONCE-4", "CF-CAPTAIN-INHERIT", "CF-ROUTE")
def test_limited_abilities_cite_the_once_per_four_downs_rules() -> None:
    s = reaction(start(), FA1="C14", FA3="C15")
    route = first(s.apply("home", "DT route to K14 C"), "move")
    assert {"CF-ROUTE", "CF-ONCE-4", "CF-R-ONCE-4"} <= cited(route) and "CF-MOVE-RESTRICTED" not in cited(route)
    rush = first(s.apply("home", "FA1 rush to C16 C"), "move")
    assert {"CF-SPEED-RUSH", "CF-R-SPEED-RUSH", "CF-ONCE-4", "CF-R-ONCE-4"} <= cited(rush)
    assert "CF-CAPTAIN-INHERIT" not in cited(rush)
    t = reaction(start(), DT="L14", FA4="L15")
    assert "CF-CAPTAIN-INHERIT" in cited(first(t.apply("home", "DT rush to L16 C"), "move"))  # a Fast's ability


@pytest.mark.rules("CF-CAPTAIN-INHERIT", "CF-R-ADJACENT", "CF-R-EFFECT-TIMING", "CF-R-HEAVY", "CF-R-SWIM")
def test_abilities_cite_inheritance_adjacency_timing_and_heavy_captains() -> None:
    s = reaction(start(home=("lead_blocker", "safety")), LB="H13 NW", HV3="H13 SE")
    push = first(s.apply("home", "LB push HV3"), "push")
    assert cited(push) == {"CF-PUSH", "CF-R-PUSH", "CF-CAPTAIN-INHERIT", "CF-R-ADJACENT"}
    s = reaction(start(home=("lineman", "safety"), away=("deep_threat", "rusher")), LM="H12 NW", RU="H13")
    swim = first(s.apply("home", "LM impact RU"), "swim")
    assert {"CF-SWIM", "CF-IMPACT", "CF-R-SWIM", "CF-R-EFFECT-TIMING", "CF-R-HEAVY"} <= cited(swim)
    s = reaction(start())
    engage = first(s.apply("home", "ST1 engage RU"), "engage")
    assert cited(engage) == {"CF-ENGAGE", "CF-R-EFFECT-TIMING"}


@pytest.mark.rules("CF-R-HEAVY")
def test_a_heavy_based_captain_is_no_play_action_partner() -> None:
    s = reaction(start(home=("lineman", "safety")), LM="I11")
    rejects(s, "home", "play action LM ball LM", "CF-R-HEAVY")


@pytest.mark.rules("CF-PASS-TABLE", "CF-INTERCEPT", "CF-PRESSURE", "CF-CATCHING", "CF-CHECK-DOWN", "CF-R-PASS-MODS",
                   "CF-R-ABILITY-ORDER")
def test_a_pass_cites_the_table_and_the_captains_behind_its_modifiers() -> None:
    s = reaction(start(home=("deep_threat", "safety")), DT="L16")
    s.apply("home", "QB pass to DT")
    s.apply("home", "done")
    dice(s, 4)
    thrown = first(s.apply("away", "done"), "pass")
    assert cited(thrown) == {"CF-PASS", "CF-PASS-TABLE", "CF-PASS-MOD-DEEP", "CF-CATCHING", "CF-R-PASS-MODS",
                             "CF-R-ABILITY-ORDER"}
    s = reaction(start(away=("lead_blocker", "safety")), FA1="C16", SF="C17")
    s.apply("home", "QB pass to FA1")
    s.apply("home", "done")
    dice(s, 1)
    events = s.apply("away", "done")
    assert {"CF-PASS-MOD-SAFETY", "CF-INTERCEPT", "CF-R-PASS-MODS", "CF-R-PASS-TABLE"} <= cited(first(events, "pass"))
    assert {"CF-R-PASS-TABLE", "CF-INTERCEPT", "CF-TURNOVERS"} <= cited(first(events, "interception"))


@pytest.mark.rules("CF-POSITIONS", "CF-R-COLLISION-TACKLE", "CF-END-ZONES", "CF-R-TD", "CF-R-POSSESSION-END")
def test_tackles_and_touchdowns_cite_positions_and_end_zones() -> None:
    s = defense_turn(reaction(start()), FA3="H12")
    tackle = first(s.apply("away", "FA3 to H11 C"), "sack")
    assert cited(tackle) == {"CF-SACK", "CF-TACKLE", "CF-POSITIONS", "CF-R-COLLISION-TACKLE"}
    s = reaction(start(), QB="H44")
    events = s.apply("home", "QB to H45 C")
    assert cited(first(events, "touchdown")) == {"CF-TOUCHDOWN", "CF-END-ZONES", "CF-R-TD"}
    assert "CF-R-POSSESSION-END" in cited(first(events, "score"))
