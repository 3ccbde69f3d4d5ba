"""Chess-Football's field as drawable geometry (the web page's SVG): 48x16 squares with five positions
each (C, NW, NE, SW, SE), end zones, the line of scrimmage and the first-down line, and the ball as
the seat may see it (under play action the defense sees only the two pieces that may hold it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.boardjson import lettered_axes

if TYPE_CHECKING:
    from gm.games.chess_football.engine import ChessFootballState

#: where each of a square's five positions sits in it (fractions of the square)
SLOTS = {"C": (0.5, 0.5), "NW": (0.25, 0.25), "NE": (0.75, 0.25), "SW": (0.25, 0.75), "SE": (0.75, 0.75)}


def board_json(state: ChessFootballState, seat: str | None = None) -> dict[str, Any]:
    from gm.games.chess_football.board import _label, _shown_ball, status_line
    from gm.games.chess_football.field import sq

    r = state.rules
    f = state.field
    off = state.offense
    lines: list[dict[str, Any]] = []
    if off and state.outcome is None:
        lines.append({"row": state.los, "kind": "scrimmage", "label": f"line of scrimmage row {state.los}"})
        if not state.goal_to_go():
            lines.append({"row": state.fdl, "kind": "gain", "label": f"first-down line row {state.fdl}"})
    pieces: list[dict[str, Any]] = []
    if f is not None:
        with_ball, maybe = _shown_ball(state, f, seat)
        for p in sorted(f.pieces.values(), key=lambda q: q.id):
            dx, dy = SLOTS.get(p.pos, (0.5, 0.5))
            side = "offense" if p.team == off else "defense"
            ball = " with the ball" if p.id in with_ball else " maybe with the ball" if p.id in maybe else ""
            pieces.append({"col": p.sq[0], "row": p.sq[1], "kind": side, "side": p.team, "ref": p.id, "dx": dx, "dy": dy, "r": 0.2,
                           "glyph": _label(state, p), "label": f"{p.team} {side} {_label(state, p)} {sq(p.sq)} {p.pos}{ball}"})
            if ball:
                pieces.append({"col": p.sq[0], "row": p.sq[1], "kind": "ball" if p.id in with_ball else "maybe-ball",
                               "dx": dx, "dy": dy, "r": 0.09, "label": f"ball{'?' if p.id in maybe else ''} {p.id}"})
    rows = [p["row"] for p in pieces] + [line["row"] for line in lines]
    text = [status_line(state, seat), *(line["label"] for line in lines)]
    text.extend(p["label"] for p in pieces if p["kind"] in ("offense", "defense"))
    return {
        "game": "chess-football",
        "kind": "grid",
        "surface": "turf",
        "cell": 22,
        **lettered_axes(r.columns, r.rows),
        "bands": [
            {"from": 1, "to": r.low_goal, "kind": "endzone", "label": f"end zone rows 1-{r.low_goal}"},
            {"from": r.high_goal, "to": r.rows, "kind": "endzone", "label": f"end zone rows {r.high_goal}-{r.rows}"},
        ],
        "lines": lines,
        "cells": [],
        "pieces": pieces,
        "sides": list(state.seats),
        "focus": {"rows": [max(1, min(rows) - 2), min(r.rows, max(rows) + 2)]} if rows else None,
        "legend": [
            *({"shape": "piece", "kind": "side", "side": s, "text": f"{s}'s pieces (the offense's ids in capitals)"} for s in state.seats),
            {"shape": "piece", "kind": "ball", "text": "the ball"},
            {"shape": "piece", "kind": "maybe-ball", "text": "maybe the ball (hidden under play action)"},
            {"shape": "band", "kind": "endzone", "text": "end zone"},
            {"shape": "line", "kind": "scrimmage", "text": "line of scrimmage"},
            {"shape": "line", "kind": "gain", "text": "first-down line"},
        ],
        "headline": status_line(state, seat),
        "text": text,
    }
