"""Board, teams, captains, coin toss, line-ups (CF-BOARD ... CF-R-SPOT)."""

from __future__ import annotations

import pytest
from cf_helpers import G, at, field, new, place, reaction, rejects, snap, start

from gm.core import GameError


@pytest.mark.rules("CF-BOARD", "CF-END-ZONES")
def test_the_field_is_48_by_16_with_four_row_end_zones() -> None:
    r = G.default_rules()
    assert (r.rows, r.columns, r.end_zone_rows) == (48, 16, 4)
    assert (r.low_goal, r.high_goal) == (4, 45)
    s = reaction(start())
    rejects(s, "home", "FA2 to Q12 C", "CF-BOARD")  # column Q does not exist
    lines = G.render(s, "home", full=True).splitlines()
    rows = [int(line[:3]) for line in lines if line[:3].strip().isdigit()]
    assert rows == list(range(48, 0, -1))
    assert lines[1].split() == [chr(c) for c in range(ord("A"), ord("P") + 1)]


@pytest.mark.rules("CF-POSITIONS", "CF-R-POSITION")
def test_five_positions_per_square_and_free_position_changes() -> None:
    s = reaction(start())
    f = field(s)
    # a position change inside the square costs nothing
    s.apply("home", "DT to L12 NE")
    assert at(s, "DT") == "L12 NE" and f.mp["DT"] == 3
    rejects(s, "home", "FA1 to C12 C", "CF-R-POSITION")  # already there
    with pytest.raises(GameError) as info:
        s.apply("home", "FA1 to C13 XX")
    assert info.value.rule == "CF-SYNTAX"


@pytest.mark.rules("CF-TEAM", "CF-SIDES", "CF-R-LINEUP", "CF-R-SNAP-BALL")
def test_seven_pieces_a_side_in_the_line_up_and_the_qb_has_the_ball() -> None:
    s = start()
    f = field(s)
    home = {p.id: at(s, p.id) for p in f.team_pieces("home")}
    away = {p.id: at(s, p.id) for p in f.team_pieces("away")}
    assert home == {"HV1": "G12 C", "HV2": "I12 C", "ST1": "H12 C", "QB": "H11 C", "FA1": "C12 C", "FA2": "N12 C", "DT": "L12 C"}
    assert away == {"HV3": "G13 C", "HV4": "I13 C", "ST3": "F14 C", "ST4": "K14 C", "FA3": "C14 C", "FA4": "N14 C", "RU": "H13 C"}
    assert f.carrier == "QB" and s.view("away")["ball"] == {"carrier": "QB", "square": "H11", "position": "C"}
    snap(s)
    rejects(s, "home", "HV3 to G14 C", "CF-TEAM")  # not your piece


@pytest.mark.rules("CF-SIDES", "CF-R-CAPTAINS", "CF-CAPTAIN")
def test_each_team_fields_the_captain_of_its_current_side() -> None:
    s = start("away", home=("scrambler", "nickelback"), away=("lineman", "safety"))
    f = field(s)
    assert s.offense == "away"
    assert {p.id for p in f.pieces.values() if p.role} == {"LM", "NB"}
    assert f.pieces["LM"].team == "away" and f.pieces["NB"].team == "home"


@pytest.mark.rules("CF-R-CAPTAINS", "CF-CAPTAIN", "CF-R-EIGHTH")
def test_captain_picks_are_secret_and_checked() -> None:
    s = new()
    assert s.decision("home") == "captains" and len(list(s.legal_actions("home"))) == 12  # 4 offense x 3 defense roles
    rejects(s, "home", "captains safety deep_threat", "CF-R-CAPTAINS")  # sides swapped
    rejects(s, "home", "captains quarterback safety", "CF-CAPTAIN")
    rejects(s, "home", "captains eighth safety", "CF-R-EIGHTH")
    s.apply("home", "captains deep_threat safety")
    assert s.view("away")["pending"] == {"home": "locked"}
    assert s.view("home")["pending"] == {"home": "captains deep_threat safety"}
    assert "deep_threat" not in str(s.view("away"))
    s.apply("away", "captains lead_blocker rusher")
    assert s.view("away")["captains"]["home"] == {"offense": "deep_threat", "defense": "safety"}
    assert s.phase == "coin_toss"


@pytest.mark.rules("CF-COIN-TOSS", "CF-R-TOSS")
def test_away_calls_the_toss_and_the_winner_has_the_first_possession() -> None:
    for first in ("home", "away"):
        s = start(first)
        assert s.toss_winner == first and s.offense == first
    s = new()
    s.apply("home", "captains deep_threat safety")
    s.apply("away", "captains deep_threat safety")
    assert s.to_act() == ("away",)
    err = rejects(s, "home", "heads", "CF-R-TOSS")
    assert err.reason == "away calls the toss"


@pytest.mark.rules("CF-R-ENDS", "CF-R-SQUARE8", "CF-DRIVE-START")
def test_home_attacks_up_from_row_12_and_away_down_from_row_37() -> None:
    s = start("home")
    assert (s.los, s.fdl, s.direction("home")) == (12, 16, 1)
    assert s.yard_square("home", 12) == 8
    s = start("away")
    assert (s.los, s.fdl, s.direction("away")) == (37, 33, -1)
    assert s.yard_square("away", 37) == 8
    assert at(s, "QB") == "H38 C"  # the offense lines up behind the line toward its own end zone


@pytest.mark.rules("CF-R-SPOT", "CF-LOS")
def test_the_next_down_lines_up_at_fixed_columns_on_the_spot_row() -> None:
    s = reaction(start(), QB="B15 NE")
    s.apply("home", "done")
    s.apply("away", "FA3 to B15 NE")  # tackle
    assert s.phase == "snap" and s.down == 2 and s.los == 15
    assert at(s, "QB") == "H14 C" and at(s, "FA1") == "C15 C" and at(s, "HV3") == "G16 C"


@pytest.mark.rules("CF-TEAM")
def test_placing_helpers_keep_pieces_distinct() -> None:
    s = reaction(start())
    place(s, FA1="D13 NW")
    assert at(s, "FA1") == "D13 NW"
