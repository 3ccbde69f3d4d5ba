"""Downs, first downs, possessions, halves, overtime and the result."""

from __future__ import annotations

import pytest
from cf_helpers import G, defense_turn, field, kinds, reaction, snap, start, texts

from gm.games.chess_football.engine import ChessFootballState

PUNTS = {"downs": 1, "punt_downs": [1]}  # every possession is one punt


def punt_until(s: ChessFootballState, stop: int = 10_000) -> list[tuple[int, str | None]]:
    """Punt every possession; return (period, offense) at each drive start."""
    seen = [(s.period, s.offense)]
    while not s.is_terminal and len(seen) < stop:
        assert s.offense and s.phase == "fourth_down"
        s.apply(s.offense, "punt")
        if not s.is_terminal:
            seen.append((s.period, s.offense))
    return seen


@pytest.mark.rules("CF-POSSESSIONS", "CF-R-HALF2", "CF-OVERTIME", "CF-R-OT-TIE", "CF-R-POSSESSION-END")
def test_four_possessions_a_half_then_overtime_then_a_draw() -> None:
    s = start("away", rules=PUNTS)
    seen = punt_until(s)
    half1 = [o for p, o in seen if p == 1]
    half2 = [o for p, o in seen if p == 2]
    ot = [o for p, o in seen if p == 3]
    assert half1 == ["away", "home"] * 4
    assert half2 == ["home", "away"] * 4  # the toss loser starts the second half
    assert ot == ["away", "home"]  # the toss winner starts overtime, 1 possession each
    assert s.outcome is not None and s.outcome.winner is None and s.outcome.rule == "CF-R-OT-TIE"
    assert s.phase == "game_over" and not list(s.legal_actions("home")) and not list(s.legal_actions("away"))


@pytest.mark.rules("CF-WIN", "CF-TOUCHDOWN")
def test_the_higher_score_at_the_end_of_regulation_wins() -> None:
    s = start("home", rules={**PUNTS, "possessions_per_half": 1})
    s.apply("home", "go for it")
    reaction(s, FA1="C43")
    field(s).carrier = "FA1"
    events = s.apply("home", "FA1 to C45 C")
    assert "touchdown" in kinds(events) and s.score == {"home": 7, "away": 0}
    punt_until(s)
    assert s.outcome is not None and s.outcome.winner == "home" and s.outcome.rule == "CF-WIN"
    assert "FINAL: home wins" in G.status(s)


@pytest.mark.rules("CF-OVERTIME")
def test_overtime_decides_a_tied_game() -> None:
    s = start("home", rules={**PUNTS, "possessions_per_half": 1})
    punt_until(s, stop=5)  # both halves punted away: overtime, home first
    assert s.period == 3 and s.offense == "home"
    s.apply("home", "go for it")
    reaction(s, FA1="C43")
    field(s).carrier = "FA1"
    s.apply("home", "FA1 to C45 C")
    assert s.offense == "away" and not s.is_terminal  # the other side still gets its possession
    s.apply("away", "punt")
    assert s.outcome is not None and s.outcome.winner == "home" and s.outcome.rule == "CF-OVERTIME"


@pytest.mark.rules("CF-FIRST-DOWN", "CF-LOS", "CF-R-POSSESSION-END")
def test_reaching_the_first_down_line_gives_a_new_series_in_the_same_possession() -> None:
    s = defense_turn(reaction(start(), FA1="C17"))
    field(s).carrier = "FA1"
    s.apply("away", "done")
    s.apply("home", "done")
    events = s.apply("away", "FA3 to C17 C")  # tackled on row 17, past the line on row 16
    assert "first_down" in kinds(events)
    assert (s.down, s.los, s.fdl, s.poss_used["home"]) == (1, 17, 21, 1)
    assert s.offense == "home"


@pytest.mark.rules("CF-FIRST-DOWN", "CF-LOS")
def test_short_of_the_line_the_next_down_starts_at_the_spot() -> None:
    s = defense_turn(reaction(start(), FA1="C14 NE"))
    field(s).carrier = "FA1"
    s.apply("away", "FA3 to C14 NE")
    assert (s.down, s.los, s.fdl) == (2, 14, 16)


@pytest.mark.rules("CF-R-GOAL-TO-GO")
def test_a_first_down_line_in_the_end_zone_is_goal_to_go() -> None:
    s = defense_turn(reaction(start(), FA1="C42"), FA3="C40")
    field(s).carrier = "FA1"
    s.apply("away", "FA3 to C42 C")
    assert s.los == 42 and s.fdl == 46 and s.goal_to_go()
    assert "1st & goal at row 42" in G.status(s)
    assert s.view("home")["to_go"] == "goal" and s.view("home")["first_down_line"] is None


@pytest.mark.rules("CF-TURNOVERS", "CF-FOURTH-DOWN")
def test_every_turnover_kind_is_reported() -> None:
    s = start(rules=PUNTS)
    events = s.apply("home", "punt")
    assert [e.data.get("how") for e in events if e.kind == "turnover"] == ["punt"]


@pytest.mark.rules("CF-DRIVE-START", "CF-R-SQUARE8")
def test_drives_start_on_square_8_after_scores_punts_and_interceptions() -> None:
    s = start(rules=PUNTS)
    s.apply("home", "punt")
    assert s.los == 37 and "square 8" in texts(s.apply("away", "punt"))
    assert s.los == 12


def test_snap_helper_plays_a_down() -> None:
    s = start(rules={"max_turns_per_down": 1})
    snap(s)
    assert s.down == 2
