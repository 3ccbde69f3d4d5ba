"""ASCII rendering of the Grid Football board: full (every row) or a window around the ball."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from gm.games.grid_football.engine import AWAY, HOME, NUMBER_CHECK, PLAY, RETURN_NUMBER, other, plural, sq

if TYPE_CHECKING:
    from gm.games.grid_football.engine import GridFootballState


@lru_cache(maxsize=64)
def _header(columns: int) -> str:
    return "     " + " ".join(chr(ord("A") + c) for c in range(columns))


@lru_cache(maxsize=256)
def _row(fill: str, columns: int) -> str:
    return " ".join(fill * columns)


LEGEND = "O ball   # blocked   - line of scrimmage   + line to gain   = goal line   : end zone   . field"
WINDOW_BEHIND = 5
WINDOW_AHEAD = 11


def status_line(state: GridFootballState, seat: str | None = None) -> str:
    """Quarter, downs left, down & distance at the snap, direction, score, whose move; during a
    colour-match number check also where the ball went, and during a return number check where
    the return ended."""
    r = state.rules
    left = state.downs_left_in_quarter
    parts = [f"Q{state.quarter}", f"{left} {plural(left, 'down')} left"]
    p = state.phase
    if state.outcome:
        parts = [f"FINAL: {state.outcome}"]
    elif state.offense and state.ball:
        d = state.direction(state.offense)
        goal = r.high_goal_line if d > 0 else r.low_goal_line
        snap = (state.ball[0], state.los)  # the ball's square at the snap (a colour match moves it straight ahead)
        parts.append(f"{state.offense} ball, {state.down_and_distance()} at {sq(snap)}, attacking {'^' if d > 0 else 'v'} row {goal}")
        if p == NUMBER_CHECK:
            parts.append(f"colour match number check (a match is a turnover): the ball moved to {sq(state.ball)}, "
                         f"{_short_of(state)}")
        elif p != PLAY:
            parts.append(p.replace("_", " "))
    elif p == RETURN_NUMBER and state.kicker and state.ball:
        parts.append(f"return number check: {other(state.kicker)} returned the ball to {sq(state.ball)}; "
                     f"a match is a touchdown for {other(state.kicker)}")
    else:
        parts.append(p.replace("_", " "))
    parts.append(f"{HOME} {state.score[HOME]} - {state.score[AWAY]} {AWAY}")
    acting = state.to_act()
    if acting:
        parts.append("to act: " + ", ".join(acting))
    return " | ".join(parts)


def _short_of(state: GridFootballState) -> str:
    """Where the ball stands against the line to gain (or the goal line, going for the goal)."""
    assert state.offense and state.ball
    d = state.direction(state.offense)
    if state.goal_to_go():
        line, what = (state.rules.high_goal_line if d > 0 else state.rules.low_goal_line), "the goal line"
    else:
        line, what = state.to_gain, "the line to gain"
    rows = (line - state.ball[1]) * d
    return f"{what} reached" if rows <= 0 else f"{rows} {plural(rows, 'row')} short of {what}"


def _headline(state: GridFootballState) -> str:
    """What is going on, in one line, above the board."""
    r = state.rules
    p = state.phase
    if state.outcome:
        return f"game over: {state.outcome}"
    if p == "coin_toss":
        return f"coin toss: {r.toss_caller} calls heads or tails"
    if p in ("kick_choice", "halftime_choice"):
        assert state.toss_winner
        who = state.toss_winner if p == "kick_choice" else other(state.toss_winner)
        return f"{'halftime: ' if p == 'halftime_choice' else ''}{who} chooses to kick or receive"
    if p == "kickoff" and state.kicker:
        d = state.direction(state.kicker)
        return f"kickoff: {state.kicker} kicks from row {state.own_goal_line(d)} toward row {state.own_goal_line(-d)}"
    if p == "return_number" and state.kicker:
        return f"return number check: a match is a touchdown for {other(state.kicker)}"
    assert state.offense
    d = state.direction(state.offense)
    arrow = f"^ (toward row {r.high_goal_line})" if d > 0 else f"v (toward row {r.low_goal_line})"
    line = f"{state.offense} attacking {arrow}, {state.down_and_distance()}"
    if p == "punt":
        line += f"; {state.offense} punts"
    elif p == "number_check":
        line += f"; colour match number check: a match is a turnover; ball at {sq(state.ball)}, {_short_of(state)}"
    return line


def render(state: GridFootballState, seat: str | None = None, *, full: bool = False) -> str:
    """The board as text: column letters, row numbers, end zones, goal lines, blocked
    squares, the ball, the line of scrimmage and the line to gain; a headline says what is
    going on (attack direction, down & distance).  ``full`` shows all rows, otherwise a
    window around the ball that always holds the line of scrimmage and the line to gain."""
    r = state.rules
    ball = state.ball
    live = state.offense is not None and state.outcome is None
    los = state.los if live else None
    gain = state.to_gain if live else None
    first, last = r.field_rows
    if gain is not None and not first <= gain <= last:
        gain = None  # & goal: the line to gain is in the end zone
    d = state.direction(state.offense) if state.offense else 1
    landing = None
    if state.phase == "kickoff" and state.kicker:
        dk = state.direction(state.kicker)
        landing = max(1, min(r.rows, state.own_goal_line(dk) + dk * r.kick_distance))
    if full:
        lo, hi = 1, r.rows
    elif landing is not None:  # the receiving end: where the kick lands and the return can end
        reach = landing - dk * max(r.return_steps.values())
        lo, hi = sorted((landing + dk * WINDOW_BEHIND, reach))
    else:
        centre = ball[1] if ball else (r.low_goal_line + r.high_goal_line) // 2
        lo, hi = sorted((centre - d * WINDOW_BEHIND, centre + d * WINDOW_AHEAD))
        for extra in (gain, los):
            if extra is not None:
                lo, hi = min(lo, extra), max(hi, extra)
    lo, hi = max(1, lo), min(r.rows, hi)
    low_team = state.up_team  # attacks up, so defends the low end zone
    high_team = HOME if low_team == AWAY else AWAY
    cols = r.columns
    header = _header(cols)
    lines = [_headline(state), header]
    # the blocked squares of the rows shown, by row (a row with neither them nor the ball is one
    # cached string)
    by_row: dict[int, list[int]] = {}
    for c, row in state.blocked:
        if lo <= row <= hi:
            by_row.setdefault(row, []).append(c)
    ball_row = ball[1] if ball else None
    special = {r.high_goal_line, r.rows, r.low_goal_line, 1, los, gain, landing, ball_row}
    high, low = r.high_goal_line, r.low_goal_line
    for row in range(hi, lo - 1, -1):
        if row >= high:
            fill = "=" if row == high else ":"
        elif row <= low:
            fill = "=" if row == low else ":"
        elif row == los:
            fill = "-"
        elif row == gain:
            fill = "+"
        else:
            fill = "."
        marks = by_row.get(row)
        if marks is None and row != ball_row:
            cells = _row(fill, cols)
        else:
            chars = [fill] * cols
            for c in marks or ():
                chars[c] = "#"
            if ball is not None and row == ball_row:
                chars[ball[0]] = "O"
            cells = " ".join(chars)
        if row not in special:
            lines.append(f"{row:>3}  {cells}")
            continue
        notes = []
        if row == high:
            notes.append(f"goal line ({high_team} defends)")
        elif row == r.rows:
            notes.append(f"end zone ({high_team})")
        elif row == low:
            notes.append(f"goal line ({low_team} defends)")
        elif row == 1:
            notes.append(f"end zone ({low_team})")
        if row == los:
            notes.append("line of scrimmage")
        if row == gain:
            notes.append("line to gain")
        if row == landing:
            kick_cols = "/".join(f"{p} {c}" for p, c in r.kick_columns.items())
            notes.append(f"the kick lands in this row ({kick_cols})")
        if ball and row == ball_row:
            notes.append(f"ball {sq(ball)}" + (" (blocked square)" if ball in state.blocked else ""))
        lines.append(f"{row:>3}  {cells}" + (f"  {'; '.join(notes)}" if notes else ""))
    lines.append(header)
    blocked = state.blocked
    inside = sorted((b for b in blocked if lo <= b[1] <= hi), key=lambda b: (b[1], b[0]))
    if not full:
        shown = ", ".join(sq(b) for b in inside) or "none"
        lines.append(f"rows {lo}-{hi} of {r.rows}; blocked here: {shown}; {len(blocked)} blocked on the board")
    lines.append(LEGEND)
    return "\n".join(lines)
