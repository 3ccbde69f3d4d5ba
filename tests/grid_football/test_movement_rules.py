"""Movement: air and ground, blocked squares, board edges, end zones, touchdowns, incompletions."""

from __future__ import annotations

import pytest
from gf_helpers import at_down, blocked, down, first, kinds, rules_of

from gm.games.grid_football.engine import parse_square


@pytest.mark.rules("GF-COLOUR", "GF-MOVE-RED", "GF-MOVE-BLACK")
@pytest.mark.parametrize(
    ("call", "end"), [("play 2 red after", "K34"), ("play 2 black", "K31")], ids=["red-pass-flies", "black-run-stops"]
)
def test_red_is_a_pass_black_is_a_run(call: str, end: str) -> None:
    s = at_down("K30", blocked=["K32"])
    down(s, call, "play 1 black" if "red" in call else "play 1 red")
    assert s.snapshot()["ball"] == end


@pytest.mark.rules("GF-MOVE-RED", "GF-BLOCK")
def test_red_before_lateral_in_the_air_forward_on_the_ground() -> None:
    s = at_down("K30", blocked=["L30", "N34"])
    ev = down(s, "play 1 red 3 right before", "play 2 black")
    assert s.snapshot()["ball"] == "N33"  # flew over L30 to N30, ran up the N column into N34
    assert first(ev, "stopped").data["at"] == "N34"


@pytest.mark.rules("GF-MOVE-RED", "GF-BLOCK")
def test_red_after_forward_in_the_air_lateral_on_the_ground() -> None:
    s = at_down("K30", blocked=["K33", "M36"])
    down(s, "play 1 red 3 right after", "play 2 black")
    assert s.snapshot()["ball"] == "L36"  # flew over K33 to K36, ran right into M36


@pytest.mark.rules("GF-MOVE-BLACK", "GF-BLOCK")
def test_black_is_all_ground() -> None:
    s = at_down("K30", blocked=["L30", "K33"])
    down(s, "play 1 black 3 right before", "play 2 red")
    assert s.snapshot()["ball"] == "K32"  # L30 stops the lateral at once, K33 the forward run


@pytest.mark.rules("GF-BLOCK")
def test_every_down_blocks_its_ending_square_and_blocks_stop_ground_moves() -> None:
    s = at_down("K30", blocked=["K31"])
    ev = down(s, "play 2 black", "play 1 red")
    assert first(ev, "stopped").rule == "GF-BLOCK"
    assert s.snapshot()["ball"] == "K30" and blocked(s) == ["K30", "K31"]
    ev = down(s, "play 1 black 1 left", "play 2 red")
    assert s.snapshot()["ball"] == "J36" and blocked(s) == ["J36", "K30", "K31"]
    assert "blocked" in kinds(ev)


@pytest.mark.rules("GF-R-AIR-LANDING")
@pytest.mark.parametrize(
    ("call", "blocks", "end"),
    [
        ("play 2 red after", ["K34"], "K33"),
        ("play 2 red after", ["K33", "K34"], "K32"),
        ("play 1 red 3 right before", ["N30"], "M36"),  # the lateral comes down at M30, then runs up
        ("play 2 red after", ["K31", "K32", "K33", "K34"], "K30"),
    ],
    ids=["one-short", "two-short", "lateral-short", "back-to-the-start"],
)
def test_air_movement_lands_short_of_a_blocked_square(call: str, blocks: list[str], end: str) -> None:
    s = at_down("K30", blocked=blocks)
    ev = down(s, call, "play 3 black")
    assert s.snapshot()["ball"] == end
    assert "GF-R-AIR-LANDING" in rules_of(ev)


@pytest.mark.rules("GF-R-EDGE", "GF-R-LEFT-RIGHT")
@pytest.mark.parametrize(
    ("ball", "call", "end"),
    [
        ("B30", "play 1 black 3 left", "A36"),
        ("B30", "play 1 red 3 left", "A36"),
        ("S30", "play 1 black 3 right after", "T36"),
        ("S30", "play 1 red 3 right after", "T36"),
        ("A30", "play 3 red 2 left", "A33"),
    ],
    ids=["ground-left", "air-left", "ground-right", "ground-right-after-air", "already-at-the-edge"],
)
def test_lateral_stops_at_the_board_edge(ball: str, call: str, end: str) -> None:
    s = at_down(ball)
    ev = down(s, call, "play 2 black" if "red" in call else "play 2 red")
    assert s.snapshot()["ball"] == end
    assert "GF-R-EDGE" in rules_of(ev)


@pytest.mark.rules("GF-R-OWN-END-ZONE")
@pytest.mark.parametrize(
    ("ball", "offense", "call", "end"),
    [
        ("K7", "home", "play 4 black", "K6"),
        ("K7", "home", "play 4 red after", "K6"),
        ("K57", "away", "play 4 black", "K58"),
        ("K57", "away", "play 4 red after", "K58"),
        ("K6", "home", "play 3 black", "K6"),
    ],
    ids=["home-ground", "home-air", "away-ground", "away-air", "on-the-last-row"],
)
def test_backward_movement_stops_outside_the_own_end_zone(ball: str, offense: str, call: str, end: str) -> None:
    s = at_down(ball, offense, quarter=2)
    play = call.split()[1]
    ev = down(s, call, f"play {play} {'black' if 'red' in call else 'red'}")  # play match: backward
    assert s.snapshot()["ball"] == end and s.outcome is None
    assert "GF-R-OWN-END-ZONE" in rules_of(ev)


@pytest.mark.rules("GF-TD", "GF-WIN", "GF-R-END-ZONE")
@pytest.mark.parametrize(
    ("ball", "offense", "call", "end", "td"),
    [
        ("K55", "home", "play 2 black", "K59", True),  # the goal line row 59 is in the end zone
        ("K54", "home", "play 2 black", "K58", False),
        ("K9", "away", "play 2 black", "K5", True),
        ("K10", "away", "play 2 black", "K6", False),
        ("K58", "home", "play 1 red after", "K64", True),  # the high end zone is 6 rows deep: row 64 is on it
    ],
)
def test_a_touchdown_when_the_ball_enters_the_end_zone(ball: str, offense: str, call: str, end: str, td: bool) -> None:
    s = at_down(ball, offense)
    ev = down(s, call, "play 3 red" if "black" in call else "play 3 black")
    assert s.snapshot()["ball"] == end
    assert ("touchdown" in kinds(ev)) is td
    if td:
        assert s.outcome is not None and s.outcome.winner == offense and s.outcome.rule == "GF-WIN"
        assert s.score[offense] == 1 and s.to_act() == ()
        assert parse_square(end) not in s.blocked
    else:
        assert s.outcome is None


@pytest.mark.rules("GF-R-TD-STOP")
@pytest.mark.parametrize(
    ("call", "end"),
    [("play 1 red 3 right after", "K61"), ("play 1 black 3 right after", "K59"), ("play 1 black 3 right", "N59")],
    ids=["air-then-lateral-dropped", "ground-stops-on-entering", "lateral-first-then-td"],
)
def test_a_touchdown_ends_the_movement(call: str, end: str) -> None:
    s = at_down("K55")
    ev = down(s, call, "play 2 black" if "red" in call else "play 2 red")
    assert "GF-R-TD-STOP" in rules_of(ev)
    assert s.snapshot()["ball"] == end and s.outcome is not None


@pytest.mark.rules("GF-INCOMPLETE", "GF-R-INCOMPLETE", "GF-R-DOWN-COUNT")
@pytest.mark.parametrize(
    ("ball", "offense", "call", "quarter"),
    [("K58", "home", "play 4 red after", 2), ("K6", "away", "play 1 red after", 1), ("K7", "away", "play 4 red after", 2)],
    ids=["up-past-row-64", "down-past-row-1", "down-7-from-row-7"],
)
def test_a_pass_overshooting_the_end_zone_is_incomplete(ball: str, offense: str, call: str, quarter: int) -> None:
    s = at_down(ball, offense, quarter=quarter, down=2, quarter_downs=5)
    ev = down(s, call, "play 2 black")
    assert first(ev, "incomplete").rule == "GF-INCOMPLETE"
    assert s.snapshot()["ball"] == ball and s.outcome is None
    assert (s.offense, s.down, s.quarter_downs) == (offense, 3, 6)  # the down counts
    assert blocked(s) == [ball]


@pytest.mark.rules("GF-INCOMPLETE")
def test_red_before_never_goes_incomplete() -> None:
    s = at_down("K58", quarter=2)
    down(s, "play 4 red 1 left before", "play 2 black")  # forward on the ground: a touchdown
    assert s.outcome is not None and s.snapshot()["ball"] == "J59"


@pytest.mark.rules("GF-DIRECTION")
@pytest.mark.parametrize(("offense", "end"), [("home", "K34"), ("away", "K26")])
def test_forward_is_toward_the_opponents_goal_line(offense: str, end: str) -> None:
    s = at_down("K30", offense)
    ev = down(s, "play 2 black", "play 1 red")
    assert s.snapshot()["ball"] == end
    assert first(ev, "moved").data["gained"] == 4
