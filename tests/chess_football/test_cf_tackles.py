"""Tackles, sacks, safeties, touchdowns and collisions."""

from __future__ import annotations

import pytest
from cf_helpers import at, defense_turn, dice, field, kinds, reaction, start, texts


@pytest.mark.rules("CF-TACKLE", "CF-R-COLLISION-TACKLE", "CF-POSITIONS")
def test_a_defender_on_the_carriers_square_and_position_tackles_without_dice() -> None:
    s = defense_turn(reaction(start(), QB="H14 SE"))
    c = s.copy()
    dice(s)  # no dice scripted: a roll would fail the test
    events = s.apply("away", "HV3 to H14 SE")
    assert "tackle" in kinds(events) and "sack" not in kinds(events)
    assert s.down == 2 and s.los == 14 and s.phase == "snap"
    # the same square on another position is no tackle
    assert isinstance(c, type(s))
    c.apply("away", "HV3 to H14 NW")
    assert c.phase == "defense_turn" and at(c, "HV3") == "H14 NW"


@pytest.mark.rules("CF-R-COLLISION-TACKLE", "CF-COLLISION", "CF-R-COLLISION-RETURN")
def test_the_carrier_moving_onto_a_defender_collides() -> None:
    s = reaction(start(), ST3="G11 C")
    d = dice(s, 5, 2)
    events = s.apply("home", "QB to G11 C")
    assert "collision" in kinds(events) and not d.values
    assert at(s, "QB") == "G11 C" and at(s, "ST3") == "G11 NW"  # ST3 keeps its square, loses the position
    assert s.phase == "offense_turn"


@pytest.mark.rules("CF-SACK")
def test_a_tackle_behind_the_line_is_a_sack() -> None:
    s = defense_turn(reaction(start()), RU="J12")
    events = s.apply("away", "RU to H11 C")  # J12 -> I11 -> H11, the QB's position
    assert "sack" in kinds(events) and "a sack" in texts(events)
    assert s.down == 2 and s.los == 11 and s.fdl == 16


@pytest.mark.rules("CF-SAFETY", "CF-R-SAFETY-RESTART")
def test_a_tackle_in_the_own_end_zone_is_a_safety_and_a_turnover() -> None:
    s = defense_turn(reaction(start(), QB="H3 C"), FA3="H5 C")
    events = s.apply("away", "FA3 to H3 C")
    assert "safety" in kinds(events) and "turnover" in kinds(events)
    assert s.score == {"home": 0, "away": 2}
    assert s.offense == "away" and s.los == 37 and s.down == 1


@pytest.mark.rules("CF-COLLISION", "CF-R-COLLISION-RETURN")
@pytest.mark.parametrize(("rolls", "fa1", "fa3"), [((6, 1), "C14 C", "C14 NW"), ((1, 6), "C12 C", "C14 C"), ((3, 3), "C12 C", "C14 C")])
def test_collisions_roll_1d6_each_and_losers_go_back(rolls: tuple[int, int], fa1: str, fa3: str) -> None:
    s = reaction(start())
    dice(s, *rolls)
    events = s.apply("home", "FA1 to C14 C")
    assert "collision" in kinds(events)
    assert (at(s, "FA1"), at(s, "FA3")) == (fa1, fa3)
    if rolls[0] == rolls[1]:
        assert "tie" in texts(events)


@pytest.mark.rules("CF-R-COLLISION-RETURN")
def test_a_mover_that_loses_goes_back_to_where_its_part_of_the_turn_started() -> None:
    s = defense_turn(reaction(start()))
    dice(s, 1, 4)
    s.apply("away", "FA3 to C12 C")  # onto FA1 (not the carrier): a collision, lost
    assert at(s, "FA3") == "C14 C" and at(s, "FA1") == "C12 C"


@pytest.mark.rules("CF-TOUCHDOWN", "CF-R-TD", "CF-END-ZONES")
def test_the_carrier_entering_the_end_zone_scores_seven() -> None:
    s = reaction(start(), FA1="H42 C")
    field(s).carrier = "FA1"
    events = s.apply("home", "FA1 to H45 C")
    assert "touchdown" in kinds(events)
    assert s.score == {"home": 7, "away": 0}
    assert s.offense == "away" and s.los == 37  # the opponent starts at its square 8
