"""Scoring a series (the pure function, and through the engine): won zones, adjacency, yards,
completions, interceptions, fumbles, sacks and the rulings around them."""

from __future__ import annotations

import pytest
from br_helpers import Z, kinds, new, series, totals_of

from gm.games.brawl.rules import PLAYABLE
from gm.games.brawl.scoring import score_series

MULT = {"D": 4, "M": 2, "S": 1, "B": 0}


def score(zones: dict, turnovers: str = "pure"):  # type: ignore[no-untyped-def]
    full = {z: Z(0, 0) for z in PLAYABLE}
    full.update(zones)
    return score_series(full, MULT, turnovers)


def test_offense_wins_a_zone_by_exceeding_the_defense_next_to_the_x() -> None:
    """BR-WIN-ZONE: a higher total next to the X (SM) wins the zone."""
    s = score({"SM": Z(5, 3)})
    assert s.won == {"SM": 2} and s.result == "gain"
    assert score({"SM": Z(3, 5)}).won == {}


def test_zones_count_only_when_connected_to_the_x_or_a_won_zone() -> None:
    """BR-ADJ: MM counts through SM; DL alone is cut off; BL and BR touch the X."""
    s = score({"SM": Z(4, 1), "MM": Z(6, 2), "DL": Z(9, 1), "BL": Z(3, 2)})
    assert set(s.won) == {"SM", "MM", "BL"}
    assert s.unconnected == ("DL",)
    assert s.zone_status("DL") == "cut"
    # the chain through SM -> MM -> DM -> DL connects DL
    s = score({"SM": Z(4, 1), "MM": Z(6, 2), "DM": Z(2, 1), "DL": Z(9, 1)})
    assert set(s.won) == {"SM", "MM", "DM", "DL"}


def test_a_won_zone_is_worth_its_margin() -> None:
    """BR-MARGIN: the value of a won zone is offense total - defense total."""
    s = score({"SM": Z(10, 3), "SL": Z(4, 3)})
    assert s.won == {"SL": 1, "SM": 7}
    assert s.margin == 8


def test_yards_are_the_margins_times_the_highest_multiplier() -> None:
    """BR-YARDS: (2 + 3 + 1) x 4 once a Downfield zone is won; Backfield alone is 0x."""
    s = score({"SM": Z(3, 1), "MM": Z(5, 2), "DM": Z(2, 1)})
    assert (s.margin, s.multiplier, s.yards) == (6, 4, 24)
    s = score({"SM": Z(3, 1), "MM": Z(5, 2)})
    assert s.yards == 5 * 2
    only_backfield = score({"BL": Z(9, 1), "BR": Z(9, 1)})
    assert only_backfield.won and only_backfield.yards == 0


def test_a_focus_only_win_needs_no_adjacency() -> None:
    """BR-COMPLETION: DL won on Focus alone counts without a chain."""
    s = score({"DL": Z(6, 2, ok="F")})
    assert s.completions == ("DL",) and s.won == {"DL": 4} and s.yards == 16
    assert s.zone_status("DL") == "comp"
    assert score({"DL": Z(6, 2, ok="*")}).won == {}


def test_a_completion_is_a_won_zone_others_connect_to() -> None:
    """BR-R-CHAIN: ML (not next to the X) connects through the completion in DL."""
    s = score({"DL": Z(6, 2, ok="F"), "ML": Z(3, 1), "MR": Z(3, 1)})
    assert set(s.won) == {"DL", "ML"}
    assert s.unconnected == ("MR",)


def test_winning_on_focus_alone_means_every_card_is_focus() -> None:
    """BR-R-ALONE: F3 F2 F1 is Focus alone; F3 F2 A1 is not."""
    assert totals_of(["F3", "F2", "F1"], ["S1"]).offense_kind == "F"
    assert totals_of(["F3", "F2", "A1"], ["S1"]).offense_kind == "*"
    assert score({"DR": totals_of(["F3", "F2", "F1"], ["S1"])}).completions == ("DR",)
    assert score({"DR": totals_of(["F3", "F2", "A1"], ["S1"])}).completions == ()


def test_interception_is_a_defense_focus_win_against_a_pass() -> None:
    """BR-INTERCEPTION: the defense wins DM on Focus alone where the offense threw Focus."""
    s = score({"SM": Z(9, 1), "DM": Z(2, 6, ok="F", dk="F")})
    assert s.result == "interception" and s.interceptions == ("DM",) and s.yards == 0
    assert s.zone_status("DM") == "INT" and s.turnover and s.rule == "BR-INTERCEPTION"


def test_fumble_is_a_defense_strength_win_against_a_carry() -> None:
    """BR-FUMBLE: the defense wins SL on Strength alone where the offense carried (Strength)."""
    s = score({"SM": Z(9, 1), "SL": Z(2, 6, ok="S", dk="S")})
    assert s.result == "fumble" and s.fumbles == ("SL",)
    assert s.zone_status("SL") == "FUM" and s.rule == "BR-FUMBLE"


def test_turnovers_need_the_offense_cards_to_be_of_that_kind_too() -> None:
    """BR-R-TURNOVER-ZONE: pure (default), kind, reach and any (literal) readings."""
    mixed_offense = {"SM": Z(9, 1), "DL": Z(2, 6, ok="*", dk="F", okinds="AF")}
    assert score(mixed_offense).result == "gain"
    assert score(mixed_offense, "kind").result == "interception"  # the offense has a Focus card there
    assert score({"DL": Z(2, 6, ok="A", dk="F", okinds="A")}, "kind").result == "gain"
    assert score(mixed_offense, "any").result == "interception"
    # reach: DL is not next to the X or a won zone; SL is (next to BL... and SM)
    assert score(mixed_offense, "reach").result == "gain"
    assert score({"SM": Z(9, 1), "SL": Z(2, 6, ok="*", dk="S")}, "reach").result == "fumble"
    assert new(turnovers="any").rules.turnovers == "any"
    assert new().rules.turnovers == "pure"


def test_a_zone_the_offense_left_empty_gives_no_turnover() -> None:
    """BR-R-EMPTY: no offense cards -> total 0, no interception; an open zone is won above 0."""
    s = score({"SM": Z(3, 0, ok="F", dk=""), "DL": Z(0, 5, ok="", dk="F")}, "any")
    assert s.result == "gain" and s.won == {"SM": 3}
    assert s.lost == ("DL",)


def test_empty_zones_with_a_small_roster_through_the_engine() -> None:
    """BR-R-EMPTY: a 3-a-side variant leaves 8 zones empty; they score 0 - 0, a tie."""
    st = new(offense={"QB": "QB", "RB": "RB", "TE": "TE"}, defense={"MLB": "MLB", "FS": "S", "SS": "S"})
    one = ({"QB": "F4@SM", "RB": "A0@DL", "TE": "A0@DR"}, {"MLB": "A0@BL", "FS": "A0@BR", "SS": "A0@ML"})
    events = series(st, one, one, one)
    assert st.history[-1]["score"]["won"] == {"SM": 12}  # three F4 against no defensive card
    assert st.history[-1]["result"] == "first_down" and "first_down" in kinds(events)
    assert st.history[-1]["score"]["lost"] == []  # BL, BR, ML hold only 0-value cards: ties


def test_sack_is_losing_both_playable_backfield_zones() -> None:
    """BR-SACK and BR-R-SACK: BL and BR lost (the X holds no cards) -> no zones count."""
    s = score({"BL": Z(1, 4), "BR": Z(2, 5), "SM": Z(9, 1), "MM": Z(9, 1)})
    assert s.result == "sack" and s.sack and s.yards == 0 and s.rule == "BR-SACK"
    assert score({"BL": Z(1, 4), "BR": Z(5, 5), "SM": Z(9, 1)}).result == "gain"  # BR tied: not lost


def test_ties_are_neither_won_nor_lost() -> None:
    """BR-R-TIE: equal totals don't carry a chain and don't count towards a sack."""
    s = score({"SM": Z(4, 4), "MM": Z(6, 1), "BL": Z(2, 3), "BR": Z(3, 3)})
    assert s.won == {} and s.unconnected == ("MM",) and s.result == "gain"
    assert s.zone_status("SM") == "tie"


@pytest.mark.parametrize(
    ("zones", "result"),
    [
        ({"DL": Z(1, 5, ok="F", dk="F"), "DR": Z(1, 5, ok="S", dk="S"), "BL": Z(0, 3), "BR": Z(0, 3)}, "interception"),
        ({"DR": Z(1, 5, ok="S", dk="S"), "BL": Z(0, 3), "BR": Z(0, 3)}, "fumble"),
        ({"BL": Z(0, 3), "BR": Z(0, 3), "SM": Z(9, 0)}, "sack"),
    ],
)
def test_interception_then_fumble_then_sack_before_yards(zones: dict, result: str) -> None:  # type: ignore[type-arg]
    """BR-R-PRIORITY: the first of interception, fumble, sack decides; none gains yards."""
    s = score(zones)
    assert s.result == result and s.yards == 0


def test_scoring_through_the_engine_uses_the_rolled_totals() -> None:
    """BR-WIN-ZONE through the engine: QB F3 x3 in SM vs MLB S1 x3 -> SM +6, 6 yards."""
    st = new()
    series(st, *[({"QB": "F3@SM"}, {"MLB": "S1@SM"})] * 3)
    assert st.series_score is not None and st.series_score.won["SM"] == 6
    assert st.phase == "fourth_down" and st.fourth_spot == 25 + 6
