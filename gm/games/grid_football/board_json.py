"""Grid Football's board as drawable geometry (the web page's SVG), from what a seat may see.

The same facts the ASCII renderer (:mod:`gm.games.grid_football.board`) shows, as data: the 20x64
field, the end zones and goal lines (who defends each), blocked squares, the ball, the line of
scrimmage and the line to gain, the row a kick lands in, and the last revealed picks.  Nothing here
reads a pending pick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.boardjson import lettered_axes

if TYPE_CHECKING:
    from gm.games.grid_football.engine import GridFootballState


def board_json(state: GridFootballState, seat: str | None = None) -> dict[str, Any]:
    """The board for ``seat``'s eyes: ``kind: grid`` geometry (see ``gm/web/static/board.js``)."""
    from gm.games.grid_football.board import _headline, status_line
    from gm.games.grid_football.engine import AWAY, HOME, sq

    r = state.rules
    low_team = state.up_team
    high_team = HOME if low_team == AWAY else AWAY
    live = state.offense is not None and state.outcome is None
    lines: list[dict[str, Any]] = [
        {"row": r.low_goal_line, "kind": "goal", "label": f"goal line row {r.low_goal_line} ({low_team} defends)"},
        {"row": r.high_goal_line, "kind": "goal", "label": f"goal line row {r.high_goal_line} ({high_team} defends)"},
    ]
    if live:
        lines.append({"row": state.los, "kind": "scrimmage", "label": f"line of scrimmage row {state.los}"})
        first_row, last_row = r.field_rows
        if first_row <= state.to_gain <= last_row:
            lines.append({"row": state.to_gain, "kind": "gain", "label": f"line to gain row {state.to_gain}"})
    if state.phase == "kickoff" and state.kicker and state.outcome is None:
        dk = state.direction(state.kicker)
        landing = max(1, min(r.rows, state.own_goal_line(dk) + dk * r.kick_distance))
        cols = "/".join(f"{p} {c}" for p, c in r.kick_columns.items())
        lines.append({"row": landing, "kind": "landing", "label": f"the kick lands in row {landing} ({cols})"})
    cells: list[dict[str, Any]] = [
        {"col": c, "row": row, "kind": "blocked", "label": f"blocked {sq((c, row))}"}
        for c, row in sorted(state.blocked, key=lambda b: (b[1], b[0]))
    ]
    pieces: list[dict[str, Any]] = []
    if state.ball:
        pieces.append({"col": state.ball[0], "row": state.ball[1], "kind": "ball", "glyph": "O", "label": f"ball {sq(state.ball)}"})
    text = [_headline(state), status_line(state, seat)]
    if state.ball:
        text.append(f"ball on {sq(state.ball)}")
    text.extend(line["label"] for line in lines)
    text.append(f"{len(state.blocked)} blocked squares" + (": " + ", ".join(str(c["label"]).split()[1] for c in cells) if cells else ""))
    focus_rows = [line["row"] for line in lines if line["kind"] != "goal"]
    if state.ball:
        focus_rows.append(state.ball[1])
    # the ball's last move, when it went somewhere (a play of no legs leaves it where it was: no path)
    moved = len(set(state.ball_path)) > 1 and state.ball_path[-1] == state.ball
    path = [list(p) for p in state.ball_path] if state.ball and moved else []
    focus_rows.extend(p[1] for p in path)
    return {
        "game": "grid-football",
        "kind": "grid",
        "surface": "turf",
        **lettered_axes(r.columns, r.rows),
        "bands": [
            {"from": 1, "to": r.low_goal_line, "kind": "endzone", "label": f"end zone rows 1-{r.low_goal_line} ({low_team})"},
            {"from": r.high_goal_line, "to": r.rows, "kind": "endzone", "label": f"end zone rows {r.high_goal_line}-{r.rows} ({high_team})"},
        ],
        "lines": lines,
        "cells": cells,
        "pieces": pieces,
        "path": path,
        "focus": {"rows": [max(1, min(focus_rows) - 4), min(r.rows, max(focus_rows) + 4)]} if focus_rows else None,
        "legend": LEGEND,
        "attack": {s: ("up" if state.direction(s) > 0 else "down") for s in (HOME, AWAY)},
        "offense": state.offense,
        "last": state.last,
        "headline": _headline(state),
        "text": text,
    }


#: what each colour and mark on the board means (shape: how the page draws its swatch)
LEGEND = [
    {"shape": "band", "kind": "endzone", "text": "end zone"},
    {"shape": "line", "kind": "goal", "text": "goal line"},
    {"shape": "line", "kind": "scrimmage", "text": "line of scrimmage"},
    {"shape": "line", "kind": "gain", "text": "line to gain"},
    {"shape": "line", "kind": "landing", "text": "the row the kick lands in"},
    {"shape": "cell", "kind": "blocked", "text": "blocked square"},
    {"shape": "piece", "kind": "ball", "text": "the ball"},
    {"shape": "path", "kind": "path", "text": "the ball's last move"},
]
