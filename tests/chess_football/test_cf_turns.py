"""The snap, plans, reaction turns, effect timing, the down limit and 4th down."""

from __future__ import annotations

import pytest
from cf_helpers import at, defense_turn, dice, field, kinds, reaction, rejects, snap, start, texts

from gm.core import GameError


@pytest.mark.rules("CF-SNAP", "CF-PLAN")
def test_plans_are_secret_until_both_are_in_then_offense_rows_run_first() -> None:
    s = start()
    assert s.decision("home") == s.decision("away") == "snap_plan"
    s.apply("home", "plan: FA1 to C13 C")
    assert s.view("away")["pending"] == {"home": "locked"} and "C13" not in str(s.view("away"))
    assert s.to_act() == ("away",)
    d = dice(s, 2, 5)
    events = s.apply("away", "plan: FA3 to C13 C")
    assert kinds(events)[:3] == ["plans", "move", "move"]
    moves = [e for e in events if e.kind == "move"]
    assert [e.data["piece"] for e in moves] == ["FA1", "FA3"]  # offense first
    assert "collision" in kinds(events) and not d.values
    assert at(s, "FA1") == "C13 C" and at(s, "FA3") == "C14 C"  # FA1 won (5 > 2): FA3 went back
    assert s.last["home"] == "plan: FA1 to C13 C"


@pytest.mark.rules("CF-PLAN")
def test_the_planning_board_has_seven_rows() -> None:
    s = start()
    eight = ("plan: DT to L13 C; HV1 to G11 C; HV2 to J11 C; ST1 to H13 C; ST1 engage HV3; FA1 to C13 C; "
             "FA2 to N13 C; QB pass to FA1")
    rejects(s, "home", eight, "CF-PLAN")
    s.apply("home", eight.rsplit(";", 1)[0])  # seven rows are fine


@pytest.mark.rules("CF-R-PLAN-CHECK")
def test_a_plan_must_be_legal_on_the_board_at_the_snap() -> None:
    s = start()
    err = rejects(s, "home", "plan: DT to L13 C; FA2 to N15 C", "CF-R-PASS-THROUGH")
    assert "row 2" in err.reason
    rejects(s, "home", "plan: FA1 to C13 C; FA1 to C14 C", "CF-R-ONE-MOVE")  # rows apply in order
    rejects(s, "away", "plan: QB pass to FA1", "CF-PASS")


@pytest.mark.rules("CF-R-PLAN-CHECK", "CF-CHOP", "CF-R-ADJACENT")
def test_rows_that_no_longer_fit_are_cut_short_or_skipped() -> None:
    s = start()
    events = snap(s, "plan: HV1 chop HV3; HV2 to J10 C", "plan: HV3 to F12 C; HV4 push HV2")
    assert at(s, "HV3") == "G13 C"  # frozen by the chop block: holds
    assert at(s, "HV2") == "J10 C"
    cut = [e for e in events if e.kind == "row_cut"]
    skipped = [e for e in events if e.kind == "row_skipped"]
    assert cut and cut[0].data["piece"] == "HV3"
    assert skipped and "HV4 push HV2" in skipped[0].text and "not adjacent" in skipped[0].text


@pytest.mark.rules("CF-REACTION")
def test_reaction_turns_offense_then_defense_then_the_ball() -> None:
    s = reaction(start())
    assert s.phase == "offense_turn" and s.decision("home") == "turn" and s.decision("away") is None
    assert field(s).turn == 2
    s.apply("home", "done")
    assert s.phase == "defense_turn" and s.to_act() == ("away",)
    s.apply("away", "done")
    assert s.phase == "offense_turn" and field(s).turn == 3


@pytest.mark.rules("CF-R-ABILITY-ORDER", "CF-ENGAGE")
def test_an_offense_row_slows_a_defender_in_the_same_snap() -> None:
    s = start()
    snap(s, "plan: ST1 engage HV3", "plan: HV3 to F11 C")
    assert at(s, "HV3") == "F12 C"  # 2 squares planned, 1 left after the engage


@pytest.mark.rules("CF-R-EFFECT-TIMING", "CF-CHIP")
def test_movement_changes_apply_now_or_at_the_next_part_of_a_turn() -> None:
    s = reaction(start(), HV2="F12")
    s.apply("home", "HV1 chip HV2")  # HV2 has not acted: +1 now
    assert field(s).mp["HV2"] == 2
    s.apply("home", "done")
    s.apply("away", "HV3 chop HV1")  # the offense already moved: its next turn
    assert "HV1" in field(s).frozen
    s.apply("away", "done")
    assert field(s).mp["HV1"] == 0 and "HV1" not in field(s).frozen


@pytest.mark.rules("CF-R-DOWN-LIMIT")
def test_the_whistle_blows_after_four_turns() -> None:
    s = reaction(start())
    for _ in range(3):
        s.apply("home", "done")
        events = s.apply("away", "done")
    assert "whistle" in kinds(events) and "after 4 turns" in texts(events)
    assert s.down == 2 and s.los == 11 and s.phase == "snap"  # the QB stood on row 11


@pytest.mark.rules("CF-FOURTH-DOWN", "CF-R-FOURTH", "CF-TURNOVERS")
def test_fourth_down_punt_or_go_for_it() -> None:
    s = start(rules={"max_turns_per_down": 1})
    rejects(s, "home", "punt", "CF-R-FOURTH")
    for _ in range(3):
        snap(s)
    assert s.down == 4 and s.phase == "fourth_down" and s.decision("home") == "fourth_down"
    assert s.to_act() == ("home",)
    rejects(s, "home", "plan: hold", "CF-FOURTH-DOWN")
    p = s.copy()
    events = p.apply("home", "punt")
    assert "turnover" in kinds(events) and p.offense == "away" and p.los == 37
    s.apply("home", "go for it")
    events = snap(s)  # the QB is down behind the line: failed
    assert "turnover" in kinds(events)
    assert s.offense == "away" and s.los == 8 and s.fdl == 4 and s.down == 1  # at the spot (row 8)


@pytest.mark.rules("CF-REACTION")
def test_a_plan_is_not_a_reaction_action() -> None:
    s = reaction(start())
    with pytest.raises(GameError) as info:
        s.apply("home", "plan: hold")
    assert info.value.rule == "CF-REACTION"
    d = defense_turn(s)
    assert d.decision("away") == "turn"


@pytest.mark.rules("CF-R-PLAN-CHECK", "CF-R-TEAMMATE-POS", "CF-R-PASS-THROUGH")
def test_a_plans_rows_are_checked_per_piece() -> None:
    """Each row is checked on the board at the snap after its own piece's earlier rows, not the other
    pieces' rows: a chip block's movement does not count for the Heavy it helps, and a row may end where a
    teammate stands at the snap (it is cut short if the teammate is still there)."""
    s = start()
    s.apply("home", "plan: HV1 push HV3; HV1 to F12 C")  # the pusher goes on from where the push left it (G13)
    s = start(home=("lineman", "safety"))
    err = rejects(s, "home", "plan: LM chip HV2; HV2 to I9 C", "CF-MOVEMENT")  # 2 squares at the snap, not 3
    assert err.reason == "row 2 (HV2 to I9 C): I9 is out of reach for HV2 (2 movement left)"
    s = start()
    events = snap(s, "plan: QB to H12 C", "plan: hold")  # ST1 stands on H12 C and does not move
    assert at(s, "QB") == "H12 NW" and any(e.kind == "row_cut" for e in events)  # as near as it can
