"""Issue #17: texts that were wrong or contradicted each other, pinned word for word (engine
events, the status line, the board, the exported session document)."""

from __future__ import annotations

import re

import pytest
from gf_helpers import G, at_down, down, kick, new, numbers

from gm.core.bots import RandomBot
from gm.export.render import render_doc
from gm.games.grid_football.engine import GridFootballState


def texts(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.text for e in events if e.kind != "locked"]


# ------------------------------------------------ 1. a colour-match number check
@pytest.mark.rules("GF-MATCH-COLOUR", "GF-FIRST-DOWN")
def test_a_colour_match_past_the_line_to_gain_shows_the_true_situation() -> None:
    """`3rd & 1 at H24` +3 used to read `3rd & 2 at H21` (the overshoot as distance to go)."""
    s = at_down("H24", "away", down=3, to_gain=23)
    assert texts(down(s, "play 1 black", "play 2 black")) == [
        "away: play 1 black / home: play 2 black - colour match",
        "colour match: exactly 3 forward, then a number check",
        "ball H24 -> H21 (+3 rows)",
        "H21 is now blocked",
    ]
    assert G.status(s) == (
        "Q1 | 15 downs left | away ball, 3rd & 1 at H24, attacking v row 5 | colour match number check (a match is a "
        "turnover): the ball moved to H21, the line to gain reached | home 0 - 0 away | to act: home, away"
    )
    assert G.render(s).splitlines()[0] == (
        "away attacking v (toward row 5), 3rd & 1; colour match number check: a match is a turnover; ball at H21, "
        "the line to gain reached"
    )
    assert s.view(None)["to_go"] == 1 and s.down_and_distance() == "3rd & 1"
    assert texts(numbers(s, 3, 4)) == ["Numbers: away 3, home 4 - no match", "first down!", "away ball, 1st & 10 at H21, attacking row 5"]
    assert G.status(s).startswith("Q1 | 14 downs left | away ball, 1st & 10 at H21, attacking v row 5 |")


def test_a_colour_match_short_of_the_line_says_how_far_short() -> None:
    s = at_down("G37", "away", down=4, to_gain=36)
    down(s, "play 1 black", "play 2 black")
    assert "away ball, 4th & 1 at G37, attacking v row 5 | colour match number check (a match is a turnover): " \
           "the ball moved to G34, the line to gain reached |" in G.status(s)
    s = at_down("K30", down=2, to_gain=38)
    down(s, "play 1 black", "play 2 black")
    assert "home ball, 2nd & 8 at K30, attacking ^ row 59 | colour match number check (a match is a turnover): " \
           "the ball moved to K33, 5 rows short of the line to gain |" in G.status(s)


# -------------------------------------------------------- 2. after a punt return
@pytest.mark.rules("GF-R-PUNT", "GF-KICK-NUMBER")
def test_after_a_punt_return_the_status_and_board_show_the_return_not_the_old_series() -> None:
    s = at_down("K16", down=4, to_gain=25)
    s.apply("home", "punt")
    assert texts(kick(s, "center red", "left yellow")) == [
        "home punts from row 16: the ball comes down at K56",
        "Kick picks: home center red, away left yellow - 0 match(es), return 15 steps",
        "away returns the ball to K41",
        "no matches: number check 1-10 - a match is a return touchdown",
    ]
    assert G.status(s) == (
        "Q1 | 15 downs left | return number check: away returned the ball to K41; a match is a touchdown for away | "
        "home 0 - 0 away | to act: home, away"
    )
    board = G.render(s)
    assert "line of scrimmage;" not in board and "line to gain" not in board.split("O ball")[0]
    assert not re.search(r"^ *\d+  [-+] ", board, flags=re.M)  # no row drawn as the old lines
    view = s.view(None)
    assert (view["offense"], view["down"], view["to_go"], view["line_of_scrimmage"]) == (None, None, None, None)
    numbers(s, 1, 2)
    assert G.status(s).startswith("Q1 | 14 downs left | away ball, 1st & 10 at K41, attacking v row 5 |")


# ------------------------------------------- 3. one statement of down & distance
@pytest.mark.rules("GF-R-NEW-SERIES", "GF-DOWNS")
def test_a_new_series_with_the_line_to_gain_in_the_end_zone_is_and_goal_everywhere() -> None:
    s = at_down("J53", "home", up_team="away")  # home attacks down; a turnover gives away J53 attacking up
    events = down(s, "play 1 red", "play 1 red")
    assert texts(events)[-1] == "away ball, 1st & goal at J53, attacking row 59"
    assert "| away ball, 1st & goal at J53, attacking ^ row 59 |" in G.status(s)
    assert G.render(s).splitlines()[0] == "away attacking ^ (toward row 59), 1st & goal"


def test_a_down_with_the_line_to_gain_in_the_end_zone_is_and_goal_everywhere() -> None:
    s = at_down("P51", to_gain=61)
    events = down(s, "play 2 black", "play 1 red")  # +4 to P55
    assert texts(events)[-1] == "2nd & goal"
    assert "| home ball, 2nd & goal at P55, attacking ^ row 59 |" in G.status(s)
    assert s.view(None)["to_go"] == "goal"


def test_one_down_left_is_singular() -> None:
    s = at_down("K20", quarter_downs=14)
    assert G.status(s).startswith("Q1 | 1 down left | ")
    s = new({"warning_downs_left": 1, "downs_per_quarter": 3, "warning_quarters": [1, 2, 4]}, 0)
    s.quarter_downs = 1
    s.phase, s.offense, s.ball, s.down, s.los, s.to_gain = "play", "home", (10, 20), 1, 20, 30
    events = down(s, "play 1 black", "play 2 red")
    assert "warning: 1 down remaining in quarter 1" in texts(events)


def _played(seed: int) -> list[tuple[GridFootballState, list]]:  # type: ignore[type-arg]
    """Every (state, events) of a seeded random game (the state object moves on: read it at once)."""
    s = new({"win": "points"} if seed % 2 else None, seed)
    bots = {"home": RandomBot(seed), "away": RandomBot(seed + 77)}
    out = []
    while not s.is_terminal:
        seat = s.to_act()[0]
        events = s.apply(seat, bots[seat].choose(s, seat))
        out.append((G.status(s), s.down_and_distance(), s.phase, events))
    return out


def test_narration_status_and_board_state_the_same_down_and_distance() -> None:
    """Over many games: each 'down' and new-series narration is the down & distance the status
    line and the board headline then show."""
    checked = 0
    for seed in range(40):
        for status, dd, phase, events in _played(seed):
            if any(e.kind == "switch_ends" for e in events):
                continue  # the status then shows the mirrored squares
            for e in events:
                if e.kind == "down" and phase == "play":
                    assert e.text == dd and f", {dd} at " in status, (e.text, status)
                    checked += 1
                elif e.kind == "first_and_ten" and phase == "play":
                    assert e.text.split(" at ")[0] == f"{e.data['offense']} ball, {dd}", (e.text, dd)
                    assert f"| {e.data['offense']} ball, {dd} at {e.data['at']}," in status
                    checked += 1
    assert checked > 500


def test_the_session_document_states_down_and_distance_as_the_status_does() -> None:
    """The exported session used to say `2nd & 1` where the status said `2nd & goal`."""
    for seed in range(200):
        s = new(None, seed)
        bots = {"home": RandomBot(seed), "away": RandomBot(seed + 1)}
        while not s.is_terminal and not (s.phase == "play" and not s.pending and s.goal_to_go() and s.down >= 2):
            seat = s.to_act()[0]
            s.apply(seat, bots[seat].choose(s, seat))
        if not s.is_terminal:
            break
    else:
        raise AssertionError("no 2nd-and-goal situation in 200 games")
    dd = s.down_and_distance()
    assert dd is not None and dd.endswith(" & goal")
    doc = render_doc(G, "session", state=s)
    assert f"| Down and distance | {dd} |" in doc and f", {dd} at " in G.status(s)


# ------------------------------------------------------------ 4. switching ends
@pytest.mark.rules("GF-SWITCH", "GF-R-SWITCH-MAP")
def test_switching_ends_says_where_the_ball_now_is_and_why() -> None:
    s = at_down("H17", quarter_downs=14, to_gain=27)
    events = down(s, "play 2 black", "play 1 red")  # H17 -> H21, then the quarter ends
    assert "teams switch ends: away now attacks row 59; the ball moves from H21 to H43: every square is mirrored " \
           "across midfield (row r becomes row 64 - r), keeping its distance from each goal" in texts(events)
    assert s.ball == (7, 43)
    assert "| home ball, 2nd & 6 at H43, attacking v row 5 |" in G.status(s)
