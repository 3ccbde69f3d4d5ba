"""Downs, first downs, the quarter clock, switching ends, halftime, the end of the game, points mode."""

from __future__ import annotations

import pytest
from gf_helpers import at_down, blocked, both, down, first, kick, kinds, new, numbers, random_game, rejects, rules_of

from gm.games.grid_football.engine import parse_square

# ---------------------------------------------------------------------- downs


@pytest.mark.rules("GF-FIRST-DOWN")
@pytest.mark.parametrize(("ball", "first_down"), [("K34", True), ("K35", True), ("K33", False)])
def test_gaining_10_rows_is_a_first_down(ball: str, first_down: bool) -> None:
    s = at_down(ball, down=3, to_gain=40)
    ev = down(s, "play 1 black", "play 2 red")  # +6
    assert ("first_down" in kinds(ev)) is first_down
    assert s.ball is not None
    if first_down:
        assert (s.down, s.los, s.to_gain) == (1, s.ball[1], s.ball[1] + 10)
    else:
        assert (s.down, s.to_gain) == (4, 40)


@pytest.mark.rules("GF-R-LINE-TO-GAIN", "GF-FIRST-DOWN")
def test_the_10_rows_are_counted_from_the_start_of_the_series() -> None:
    s = at_down("K30")
    down(s, "play 1 black", "play 2 red")  # +6
    snap = s.snapshot()
    assert (snap["down"], snap["to_go"], snap["line_of_scrimmage"], snap["line_to_gain"]) == (2, 4, 36, 40)
    down(s, "play 1 black", "play 2 red")  # +6 more: 12 from the series start
    snap = s.snapshot()
    assert (snap["down"], snap["to_go"], snap["line_of_scrimmage"], snap["line_to_gain"]) == (1, 10, 42, 52)


@pytest.mark.rules("GF-DOWNS", "GF-R-DOWNS-FAIL", "GF-R-NEW-SERIES", "GF-TURNOVER")
def test_four_downs_then_a_turnover_on_downs() -> None:
    s = at_down("K30")
    for n in (1, 2, 3, 4):
        assert s.down == n and s.offense == "home"
        ev = down(s, "play 2 black", "play 2 red")  # matched: 0 net
    assert first(ev, "turnover").rule == "GF-R-DOWNS-FAIL"
    assert (s.offense, s.ball, s.down, s.to_gain) == ("away", parse_square("K30"), 1, 20)


@pytest.mark.rules("GF-DOWNS")
def test_the_down_event_reports_down_and_distance() -> None:
    s = at_down("K30")
    ev = down(s, "play 2 black", "play 1 red")
    assert str(first(ev, "down")) == "2nd & 6"


# ---------------------------------------------------------------------- clock


@pytest.mark.rules("GF-QUARTERS", "GF-R-DOWN-COUNT")
def test_each_quarter_has_15_downs() -> None:
    s = at_down("K20")
    for _ in range(14):
        down(s, "play 2 black", "play 2 red")  # 0 net, turnovers on downs in between
        assert s.quarter == 1
    assert s.downs_left_in_quarter == 1
    ev = down(s, "play 2 black", "play 2 red")
    assert first(ev, "quarter_end").data["q"] == 1
    assert (s.quarter, s.quarter_downs, s.downs_left_in_quarter) == (2, 0, 15)


@pytest.mark.rules("GF-R-DOWN-COUNT")
def test_what_counts_as_a_down() -> None:
    s = new(seed=0)
    s.apply("away", "heads")
    assert s.toss_winner
    s.apply(s.toss_winner, "kick")
    kick(s, "center red", "center red")
    assert s.quarter_downs == 0  # a kickoff is not a down
    down(s, "play 1 black", "play 2 black")  # colour match: one down, counted after the numbers
    assert s.quarter_downs == 0
    numbers(s, 1, 2)
    assert s.quarter_downs == 1
    s = at_down("K10", down=4)
    s.apply("home", "punt")
    kick(s, "center red", "center red")
    assert s.quarter_downs == 1  # a punt is a down
    s = at_down("K10")
    down(s, "play 1 red", "play 1 red")  # a turnover is a down
    assert s.quarter_downs == 1


@pytest.mark.rules("GF-WARNING")
@pytest.mark.parametrize(("quarter", "warned"), [(1, False), (2, True), (3, False), (4, True)])
def test_a_warning_at_4_downs_left_in_q2_and_q4(quarter: int, warned: bool) -> None:
    s = at_down("K30", quarter=quarter, quarter_downs=10)
    ev = down(s, "play 2 black", "play 1 red")
    assert s.downs_left_in_quarter == 4
    assert ("warning" in kinds(ev)) is warned
    if warned:
        assert str(first(ev, "warning")) == f"warning: 4 downs remaining in quarter {quarter}"
    ev = down(s, "play 2 black", "play 1 red")
    assert "warning" not in kinds(ev)


@pytest.mark.rules("GF-SWITCH", "GF-R-SWITCH-MAP", "GF-R-CARRY")
@pytest.mark.parametrize("quarter", [1, 3])
def test_teams_switch_ends_after_q1_and_q3_mirroring_ball_and_blocks(quarter: int) -> None:
    s = at_down("K30", quarter=quarter, quarter_downs=14, blocked=["C10", "T58", "A6"], down=2, to_gain=38)
    ev = down(s, "play 2 black", "play 1 red")  # K30 -> K34, 2nd & 4 -> 3rd & 4, then the quarter ends
    assert "switch_ends" in kinds(ev) and "carry" in kinds(ev)
    assert "GF-R-SWITCH-MAP" in rules_of(ev)
    assert s.quarter == quarter + 1 and s.up_team == "away"
    assert s.snapshot()["ball"] == "K30"  # 64 - 34
    assert blocked(s) == ["A58", "C54", "K30", "T6"]  # every block mirrored: row r -> 64 - r
    assert (s.offense, s.down, s.los, s.to_gain) == ("home", 3, 30, 26)  # the drive carries on, attacking down
    assert s.snapshot()["attacking"] == {"home": 5, "away": 59}
    ev = down(s, "play 2 black", "play 1 red")
    assert s.snapshot()["ball"] == "K26" and "first_down" in kinds(ev)  # K26 reaches the mirrored line K26


@pytest.mark.rules("GF-SWITCH", "GF-R-CARRY")
def test_no_switch_after_q2_or_q4() -> None:
    s = at_down("K30", quarter=2, quarter_downs=14)
    ev = down(s, "play 2 black", "play 1 red")
    assert "switch_ends" not in kinds(ev) and s.up_team == "home" and s.quarter == 3
    s = at_down("K30", quarter=4, quarter_downs=14)
    ev = down(s, "play 2 black", "play 1 red")
    assert "switch_ends" not in kinds(ev) and s.up_team == "home"


@pytest.mark.rules("GF-R-HALF", "GF-TOSS-2H")
@pytest.mark.parametrize("toss_winner", ["home", "away"])
def test_halftime_ends_the_drive_and_the_toss_loser_chooses(toss_winner: str) -> None:
    s = at_down("K30", quarter=2, quarter_downs=14, toss_winner=toss_winner, blocked=["C10"])
    ev = down(s, "play 2 black", "play 1 red")
    assert first(ev, "halftime").rule == "GF-R-HALF"
    loser = "away" if toss_winner == "home" else "home"
    assert (s.phase, s.quarter, s.offense, s.ball) == ("halftime_choice", 3, None, None)
    assert s.to_act() == (loser,) and s.decision(loser) == "kick_choice"
    assert blocked(s) == ["C10", "K34"]  # blocked squares stay
    rejects(s, toss_winner, "kick", "CORE-TURN")
    rejects(s, loser, "heads", "GF-R-DECISION")  # a coin call when the choice is due
    ev = s.apply(loser, "receive")
    assert "GF-TOSS-2H" in rules_of(ev)
    assert s.phase == "kickoff" and s.kicker == toss_winner


@pytest.mark.rules("GF-R-SCORELESS", "GF-QUARTERS")
def test_regulation_ending_scoreless_is_a_draw() -> None:
    s = at_down("K30", quarter=4, quarter_downs=14)
    ev = down(s, "play 2 black", "play 1 red")
    assert s.outcome is not None and s.outcome.winner is None and s.outcome.rule == "GF-R-SCORELESS"
    assert first(ev, "game_over").rule == "GF-R-SCORELESS"
    assert s.phase == "game_over" and s.to_act() == ()
    assert list(s.legal_actions("home")) == [] and list(s.legal_actions("away")) == []
    rejects(s, "home", "play 1 red", "CORE-OVER")


@pytest.mark.rules("GF-WIN")
def test_the_first_touchdown_wins() -> None:
    s = at_down("K55", "home")
    down(s, "play 1 black", "play 2 red")
    assert s.outcome is not None and (s.outcome.winner, s.outcome.reason) == ("home", "touchdown")
    assert s.outcome.score == {"home": 1, "away": 0}


# ------------------------------------------------------------------ points mode


@pytest.mark.rules("GF-R-POINTS")
def test_points_mode_a_touchdown_scores_7_and_the_scorer_kicks_off() -> None:
    s = at_down("K55", "home", rules={"win": "points"}, quarter_downs=3)
    ev = down(s, "play 1 black", "play 2 red")
    assert "touchdown" in kinds(ev) and s.outcome is None
    assert s.score == {"home": 7, "away": 0}
    assert (s.phase, s.kicker, s.offense, s.ball) == ("kickoff", "home", None, None)
    assert s.quarter_downs == 4  # the scoring play is a down
    kick(s, "center red", "center red")
    assert s.offense == "away" and s.snapshot()["ball"] == "K55"


@pytest.mark.rules("GF-R-POINTS")
@pytest.mark.parametrize(
    ("score", "winner", "rule"), [({"home": 7, "away": 0}, "home", "GF-R-POINTS"), ({"home": 7, "away": 7}, None, "GF-R-POINTS")]
)
def test_points_mode_most_points_after_4_quarters_wins(score: dict[str, int], winner: str | None, rule: str) -> None:
    s = at_down("K30", rules={"win": "points"}, quarter=4, quarter_downs=14)
    s.score = dict(score)
    down(s, "play 2 black", "play 1 red")
    assert s.outcome is not None and s.outcome.winner == winner and s.outcome.rule == rule


@pytest.mark.rules("GF-R-POINTS", "GF-QUARTERS")
def test_points_mode_plays_all_four_quarters() -> None:
    for seed in range(5):
        s = random_game(seed, {"win": "points"})
        assert s.outcome is not None and s.quarter == 4 and s.downs_left_in_quarter == 0
        assert sum(s.score.values()) == 7 * s.touchdowns


@pytest.mark.rules("GF-R-POINTS", "GF-R-HALF")
def test_points_mode_kick_return_touchdown_then_kickoff() -> None:
    s = new({"win": "points"})
    s.apply("away", "heads")
    assert s.toss_winner
    s.apply(s.toss_winner, "kick" if s.toss_winner == "home" else "receive")
    kick(s, "center red", "left yellow")
    numbers(s, 4, 4)
    assert s.score == {"home": 0, "away": 7} and s.kicker == "away" and s.phase == "kickoff"
    assert s.quarter_downs == 0  # a kickoff return is not a down
    both(s, "center red", "center red", first_seat="away")
    assert s.offense == "home"


@pytest.mark.rules("GF-R-POINTS", "GF-R-HALF", "GF-SWITCH")
@pytest.mark.parametrize(
    ("quarter", "after"),
    [(1, ["touchdown", "quarter_end", "switch_ends", "kickoff_next"]), (2, ["touchdown", "quarter_end", "halftime"]),
     (4, ["touchdown", "quarter_end", "game_over"])],
)
def test_points_mode_touchdown_on_the_last_down_of_a_quarter(quarter: int, after: list[str]) -> None:
    s = at_down("K55", rules={"win": "points"}, quarter=quarter, quarter_downs=14)
    ev = down(s, "play 1 black", "play 2 red")
    assert kinds(ev)[kinds(ev).index("touchdown"):] == after  # no 'kicks off' when halftime or the end comes first
    assert s.score["home"] == 7
