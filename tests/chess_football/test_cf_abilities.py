"""Standard and captain abilities, their costs and their once-per-4-downs limits."""

from __future__ import annotations

import pytest
from cf_helpers import G, at, defense_turn, dice, field, kinds, reaction, rejects, snap, start

from gm.games.chess_football.field import parse_square


@pytest.mark.rules("CF-ABILITIES")
def test_standard_pieces_have_the_documents_abilities_and_costs() -> None:
    k = G.default_rules().kinds
    assert k["heavy"].abilities == {"push": 1, "chop_block": 0, "chip_block": 1, "retreat": 1}
    assert k["strong"].abilities == {"push": 2, "engage": 1, "chip_block": 1}
    assert k["fast"].abilities == {"engage": 2, "speed_rush": 1}
    assert k["qb"].abilities == {"pass": 0, "play_action": 0}
    s = reaction(start())
    rejects(s, "home", "FA1 push FA3", "CF-ABILITIES")


@pytest.mark.rules("CF-PUSH", "CF-R-PUSH")
def test_push_back_one_row_and_enter_the_square() -> None:
    s = reaction(start())
    events = s.apply("home", "HV1 push HV3")
    assert "push" in kinds(events)
    assert at(s, "HV3") == "G14 C" and at(s, "HV1") == "G13 C"  # back = toward away's own end zone
    assert field(s).mp["HV1"] == 0
    s = reaction(start())
    s.apply("home", "ST1 push HV3")  # the Strong's push: the same push for 2
    assert at(s, "HV3") == "G14 C" and at(s, "ST1") == "G13 C" and field(s).mp["ST1"] == 0


@pytest.mark.rules("CF-R-PUSH", "CF-POSITIONS")
def test_no_push_off_the_field_or_into_a_full_square() -> None:
    s = reaction(start(), HV3="G48", HV1="G47")
    rejects(s, "home", "HV1 push HV3", "CF-R-PUSH")
    s = reaction(start(), HV4="G14 C", ST3="G14 NW", ST4="G14 NE", FA3="G14 SW", FA4="G14 SE")
    rejects(s, "home", "HV1 push HV3", "CF-R-PUSH")  # G14 holds five pieces


@pytest.mark.rules("CF-CHOP", "CF-R-CHOP")
def test_chop_block_stops_both_pieces() -> None:
    assert G.default_rules().kinds["heavy"].abilities["chop_block"] == 0
    s = reaction(start())
    s.apply("home", "HV1 chop HV3")
    assert field(s).mp["HV1"] == 0
    rejects(s, "home", "HV1 to G11 C", "CF-R-ONE-MOVE")  # its turn is over
    defense_turn(s)
    assert field(s).mp["HV3"] == 0
    rejects(s, "away", "HV3 to G14 C", "CF-MOVEMENT")


@pytest.mark.rules("CF-ENGAGE")
def test_engage_costs_a_fast_two_and_removes_one() -> None:
    s = reaction(start(), FA4="N13")
    s.apply("home", "FA2 engage FA4")
    assert field(s).mp["FA2"] == 1
    defense_turn(s)
    assert field(s).mp["FA4"] == 2


@pytest.mark.rules("CF-SPEED-RUSH", "CF-R-SPEED-RUSH", "CF-R-ONCE-4")
def test_speed_rush_goes_through_opponents_but_not_heavies() -> None:
    s = reaction(start(), FA4="N13", ST4="M13", HV4="O13")
    rejects(s, "home", "FA2 to N14 C", "CF-R-PASS-THROUGH")
    s.apply("home", "FA2 rush to N14 C")  # through FA4's square: 1 + 2
    assert at(s, "FA2") == "N14 C" and field(s).mp["FA2"] == 0
    s = reaction(start(), HV4="N13", ST4="M13", FA4="O13")
    rejects(s, "home", "FA2 rush to N14 C", "CF-R-SPEED-RUSH")  # a Heavy blocks
    s = reaction(start(), FA4="N13", ST4="M13", HV4="O13")
    s.apply("home", "FA2 rush to N14 C")
    s.apply("home", "done")
    s.apply("away", "done")
    rejects(s, "home", "FA2 rush to N16 C", "CF-R-ONCE-4")


@pytest.mark.rules("CF-CAPTAIN-INHERIT")
def test_captains_inherit_their_base_pieces_abilities() -> None:
    s = defense_turn(reaction(start()))
    s.apply("away", "RU push ST1")  # the Rusher pushes like a Heavy
    assert at(s, "ST1") == "H11 NW" and at(s, "RU") == "H12 C"
    s = defense_turn(reaction(start(away=("lead_blocker", "safety"))))
    rejects(s, "away", "SF push FA1", "CF-CAPTAIN-INHERIT")
    assert field(s).abilities(field(s).pieces["SF"])["engage"] == 2


@pytest.mark.rules("CF-REACT", "CF-R-REACT", "CF-ONCE-4")
def test_react_gives_the_safety_one_more_once_per_four_downs() -> None:
    s = defense_turn(reaction(start(away=("lead_blocker", "safety"))))
    s.apply("away", "SF react")
    assert field(s).mp["SF"] == 4
    s.apply("away", "done")
    s.apply("home", "done")
    rejects(s, "away", "SF react", "CF-R-ONCE-4")
    assert "react" in G.default_rules().limited_abilities


@pytest.mark.rules("CF-JAM", "CF-R-JAM")
def test_jam_blocks_the_abilities_of_every_adjacent_opponent() -> None:
    s = defense_turn(reaction(start(away=("lead_blocker", "nickelback"))), NB="H12 NE")
    events = s.apply("away", "NB jam")
    assert "HV1, HV2, QB, ST1" in events[-1].text
    s.apply("away", "done")
    rejects(s, "home", "QB pass to FA1", "CF-JAM")
    rejects(s, "home", "ST1 engage NB", "CF-JAM")
    s.apply("home", "ST1 to H13 C")  # moving is still fine


@pytest.mark.rules("CF-SEAL", "CF-R-SEAL")
def test_seal_makes_squares_next_to_the_nickelback_cost_one_more() -> None:
    s = defense_turn(reaction(start(away=("lead_blocker", "nickelback"))), NB="D14", FA3="A30")
    s.apply("away", "NB seal")
    s.apply("away", "done")
    f = field(s)
    assert f.reach(f.pieces["FA1"], 3)[parse_square("C13")] == 2
    rejects(s, "home", "FA1 to C15 C", "CF-MOVE-RESTRICTED")  # 3 without the seal


@pytest.mark.rules("CF-SWIM", "CF-R-SWIM")
def test_a_rusher_pushed_by_a_heavy_swims_past() -> None:
    s = reaction(start())
    events = s.apply("home", "HV2 push RU")
    assert "swim" in kinds(events)
    assert at(s, "HV2") == "H13 C" and at(s, "RU") == "I12 C"
    defense_turn(s)
    assert field(s).mp["RU"] == 1  # Swim cost 1


@pytest.mark.rules("CF-JUKE", "CF-R-ONCE-4")
def test_juke_gives_the_scrambler_one_more() -> None:
    s = reaction(start(home=("scrambler", "safety")))
    s.apply("home", "SC juke")
    assert field(s).mp["SC"] == 4
    s.apply("home", "done")
    s.apply("away", "done")
    rejects(s, "home", "SC juke", "CF-R-ONCE-4")


@pytest.mark.rules("CF-ROUTE")
def test_route_running_ignores_the_direction_cost() -> None:
    s = reaction(start())
    rejects(s, "home", "DT to M15 C", "CF-MOVE-RESTRICTED")
    s.apply("home", "DT route to M15 C")
    assert at(s, "DT") == "M15 C"


@pytest.mark.rules("CF-IMPACT", "CF-R-IMPACT")
def test_impact_slows_and_pushes_back_but_the_hitter_stays() -> None:
    s = reaction(start(home=("lead_blocker", "safety")), HV3="I9")
    s.apply("home", "LB impact HV3")
    assert at(s, "HV3") == "I10 C" and at(s, "LB") == "H10 C"
    defense_turn(s)
    assert field(s).mp["HV3"] == 0


@pytest.mark.rules("CF-ESCORT", "CF-R-ESCORT")
def test_escort_next_to_the_ball_carrier() -> None:
    s = reaction(start(home=("lead_blocker", "safety")))
    assert field(s).mp["LB"] == 3  # H10 next to the QB on H11
    s = reaction(start(home=("lead_blocker", "safety")), LB="A20")
    assert field(s).mp["LB"] == 2


@pytest.mark.rules("CF-ANCHOR", "CF-R-ANCHOR")
def test_anchor_boosts_a_heavy_and_makes_the_lineman_immovable() -> None:
    s = reaction(start(home=("lineman", "safety")))
    s.apply("home", "LM anchor HV2")
    f = field(s)
    assert f.mp["LM"] == 0 and f.mp["HV2"] == 2
    s.apply("home", "done")
    rejects(s, "away", "HV4 push LM", "CF-R-ANCHOR")
    dice(s)  # no roll
    events = s.apply("away", "HV4 to J12 C")
    assert "collision" in kinds(events) and at(s, "HV4") == "I13 C" and at(s, "LM") == "J12 C"


@pytest.mark.rules("CF-ONCE-4", "CF-R-ONCE-4")
def test_once_per_four_downs_counts_downs_per_piece() -> None:
    assert G.default_rules().once_per_downs == 4
    s = start(rules={"max_turns_per_down": 2, "once_per_downs": 2})
    snap(s, "plan: HV1 chop HV3")
    s.apply("home", "done")
    s.apply("away", "done")  # whistle: down 2
    assert s.down == 2
    rejects(s, "home", "plan: HV1 chop HV3", "CF-R-ONCE-4")
    s.apply("home", "plan: HV2 chop HV4")  # another piece may
    s.apply("away", "plan: hold")
    s.apply("home", "done")
    s.apply("away", "done")
    assert s.down == 3
    s.apply("home", "plan: HV1 chop HV3")  # two downs later (this ruleset's window)
