"""Movement: allowances, restricted pieces, king steps, blocking, order, retreat (CF-MOVEMENT ... CF-R-RETREAT)."""

from __future__ import annotations

import pytest
from cf_helpers import at, defense_turn, field, reaction, rejects, start

from gm.games.chess_football import paths

ALLOWANCE = {"HV1": 1, "HV2": 1, "ST1": 2, "FA1": 3, "FA2": 3, "QB": 1}


@pytest.mark.rules("CF-MOVEMENT", "CF-MOVE-UNRESTRICTED", "CF-MOVE-RESTRICTED")
def test_movement_allowances_in_a_reaction_turn() -> None:
    s = reaction(start(home=("scrambler", "nickelback"), away=("lineman", "safety")))
    f = field(s)
    assert {k: f.mp[k] for k in ALLOWANCE} == ALLOWANCE and f.mp["SC"] == 3
    defense_turn(s)
    assert {k: f.mp[k] for k in ("HV3", "ST3", "FA3", "SF")} == {"HV3": 1, "ST3": 2, "FA3": 3, "SF": 3}
    r = s.rules
    movement = {name: c.movement for name, c in r.captains.items()}
    assert movement == {"safety": 3, "nickelback": 2, "rusher": 2, "scrambler": 3, "deep_threat": 3, "lead_blocker": 2, "lineman": 2}
    assert [n for n, c in r.captains.items() if c.restricted] == ["safety", "scrambler", "deep_threat"]
    assert [n for n, k in r.kinds.items() if k.restricted] == ["fast"]


@pytest.mark.rules("CF-MOVE-RESTRICTED", "CF-R-STEP")
def test_a_change_of_direction_costs_a_restricted_piece_one() -> None:
    s = reaction(start(), FA1="A20")
    rejects(s, "home", "FA1 to B23 C", "CF-MOVE-RESTRICTED")  # 3 steps + 1 turn
    s.copy()
    for ok in ("FA1 to A23 C", "FA1 to D23 C", "FA1 to B22 C"):  # straight, diagonal, 1 + turn + 1
        c = reaction(start(), FA1="A20")
        c.apply("home", ok)
        assert at(c, "FA1") == ok.split(" to ")[1]
    c = reaction(start(), FA1="A20")
    c.apply("home", "FA1 to B22 SW")
    assert field(c).mp["FA1"] == 0


@pytest.mark.rules("CF-MOVE-UNRESTRICTED", "CF-R-STEP", "CF-MOVEMENT")
def test_unrestricted_pieces_turn_for_free() -> None:
    s = defense_turn(reaction(start()))
    s.apply("away", "ST3 to G16 C")  # up then up-right: 2 steps, no turn cost
    assert at(s, "ST3") == "G16 C"
    rejects(s, "away", "ST4 to K17 C", "CF-MOVEMENT")  # 3 squares for a Strong


@pytest.mark.rules("CF-SNAP-BURST", "CF-R-BLOCKING-CAPTAINS")
def test_the_snap_burst_goes_to_heavy_strong_and_lineman() -> None:
    s = start(home=("lineman", "safety"), away=("lead_blocker", "rusher"))
    board = s.plan_board("home")
    assert {k: board.mp[k] for k in ("HV1", "ST1", "LM", "FA1", "QB")} == {"HV1": 2, "ST1": 3, "LM": 3, "FA1": 3, "QB": 1}
    board = s.plan_board("away")
    assert board.mp["RU"] == 2 and board.mp["HV3"] == 2 and board.mp["ST3"] == 3
    s.apply("home", "plan: HV1 to G10 C")  # 2 squares at the snap
    s.apply("away", "plan: hold")
    assert at(s, "HV1") == "G10 C" and field(s).mp["HV1"] == 1  # back to 1 in reaction turns
    t = start(home=("lead_blocker", "safety"))
    assert t.plan_board("home").mp["LB"] == 3  # 2 + Escort (next to the QB), no burst for the Lead Blocker


@pytest.mark.rules("CF-MOVE-ORDER", "CF-R-QB-ORDER")
def test_movement_order_captain_heavy_strong_fast_then_qb() -> None:
    s = reaction(start())
    s.apply("home", "FA1 to C13 C")
    rejects(s, "home", "HV1 to G11 C", "CF-MOVE-ORDER")
    rejects(s, "home", "DT to L13 C", "CF-R-QB-ORDER")  # a Fast-based captain is no Fast: it goes first
    s.apply("home", "QB to H10 C")
    rejects(s, "home", "FA2 to N13 C", "CF-R-QB-ORDER")  # the QB, missing from the order, goes last
    s = reaction(start())
    s.apply("home", "HV1 to G11 C")
    rejects(s, "home", "DT to L13 C", "CF-R-QB-ORDER")  # the captain goes first
    s = start("away", home=("deep_threat", "rusher"))
    s.apply("away", "plan: hold")
    rejects(s, "home", "plan: ST3 to F34 C; RU to H35 C", "CF-MOVE-ORDER")  # a Heavy-based captain after a Strong
    s = start()
    rejects(s, "home", "plan: FA1 to C13 C; HV1 to G11 C", "CF-MOVE-ORDER")
    rejects(s, "home", "plan: QB to H10 C; FA1 to C13 C", "CF-R-QB-ORDER")


@pytest.mark.rules("CF-R-PASS-THROUGH")
def test_opponents_block_the_way_but_may_be_ended_on_teammates_never_block() -> None:
    s = reaction(start())
    rejects(s, "home", "FA2 to N15 C", "CF-R-PASS-THROUGH")  # FA4 stands on N14
    c = reaction(start())
    c.apply("home", "FA2 to N14 NE")  # ending on an opponent's square is fine
    assert at(c, "FA2") == "N14 NE"
    c = reaction(start(), FA2="A20", DT="A21")
    c.apply("home", "FA2 to A23 C")  # through a teammate's square
    assert at(c, "FA2") == "A23 C"


@pytest.mark.rules("CF-R-ADJACENT")
def test_adjacent_means_the_same_or_a_neighbouring_square() -> None:
    s = reaction(start())
    rejects(s, "home", "ST1 engage ST3", "CF-R-ADJACENT")  # F14 is two squares from H12
    s.apply("home", "ST1 engage HV3")  # diagonal neighbour
    s = reaction(start(), ST3="H12 NW")
    s.apply("home", "ST1 engage ST3")  # same square
    assert field(s).mod["ST3"] == -1


@pytest.mark.rules("CF-R-TEAMMATE-POS")
def test_no_piece_ends_on_a_teammates_position() -> None:
    s = reaction(start())
    rejects(s, "home", "HV1 to H12 C", "CF-R-TEAMMATE-POS")
    s.apply("home", "HV1 to H12 NW")
    assert at(s, "HV1") == "H12 NW"


@pytest.mark.rules("CF-R-ONE-MOVE")
def test_one_move_and_each_ability_once_per_turn() -> None:
    s = reaction(start())
    s.apply("home", "ST1 engage HV3")
    rejects(s, "home", "ST1 engage RU", "CF-R-ONE-MOVE")
    s.apply("home", "ST1 to H13 C")
    rejects(s, "home", "ST1 to H12 C", "CF-R-ONE-MOVE")


@pytest.mark.rules("CF-RETREAT", "CF-R-RETREAT")
def test_retreat_two_squares_toward_the_own_qb_for_one() -> None:
    s = reaction(start(), HV1="G14")
    rejects(s, "home", "HV1 retreat to G16 C", "CF-RETREAT")  # away from the QB
    s.apply("home", "HV1 retreat to G12 C")  # G14 -> F13 -> G12: 2 squares, each closer to H11
    assert at(s, "HV1") == "G12 C" and field(s).mp["HV1"] == 0
    d = defense_turn(reaction(start()))
    rejects(d, "away", "HV3 retreat to G14 C", "CF-R-RETREAT")  # the defense has no QB


@pytest.mark.rules("CF-R-HEAVY", "CF-CHIP")
def test_heavy_captains_count_as_heavies() -> None:
    s = reaction(start(home=("lineman", "safety")))
    rejects(s, "home", "HV1 chip ST1", "CF-CHIP")
    s.apply("home", "HV2 chip LM")  # J12 next to I12; LM already acted? no: captain rank is lower
    assert field(s).mod.get("LM") == 1 or field(s).mp["LM"] == 3


@pytest.mark.rules("CF-R-STEP", "CF-MOVE-RESTRICTED", "CF-R-PASS-THROUGH")
def test_restricted_path_templates_agree_with_the_search() -> None:
    import random

    g = field(start()).grid
    rng = random.Random(7)
    for _ in range(500):
        origin = (rng.randrange(16), rng.randrange(1, 49))
        block = frozenset((rng.randrange(16), rng.randrange(1, 49)) for _ in range(rng.randrange(0, 40))) - {origin}
        mp, dcc = rng.randrange(0, 6), rng.randrange(0, 3)
        assert paths.from_templates(g, origin, mp, block, dcc) == paths.search(g, origin, mp, True, block, frozenset(), dcc, 1)
