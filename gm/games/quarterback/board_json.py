"""Quarter Back's board as drawable geometry (the web page's SVG): pieces by kind and side, the ball
carrier or a loose ball, the line of scrimmage - the facts of the ASCII board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.games.quarterback.engine import QuarterbackState


def board_json(state: QuarterbackState, seat: str | None = None) -> dict[str, Any]:
    from gm.games.quarterback.board import _ball_text, _header, _name, status_line
    from gm.games.quarterback.rules import KIND_NAMES

    r = state.rules
    pieces: list[dict[str, Any]] = []
    for square, (pseat, pid) in sorted(state.board.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        role = "attacker" if pseat == state.attacker else "defender"
        carrier = (pseat, pid) == state.carrier
        pieces.append({
            "col": square[0], "row": square[1], "kind": f"qb-{pid[0].lower()}", "side": pseat, "glyph": pid, "ref": f"{pseat}:{pid}",
            "label": f"{pseat} {role} {KIND_NAMES[pid[0]]} {pid} on {_name(square)}" + (", has the ball" if carrier else ""),
        })
        if carrier:
            pieces.append({"col": square[0], "row": square[1], "kind": "ball", "dx": 0.82, "dy": 0.2, "r": 0.16,
                           "label": f"ball with {pid}"})
    if state.loose is not None:
        pieces.append({"col": state.loose[0], "row": state.loose[1], "kind": "ball", "label": f"loose ball on {_name(state.loose)}"})
    text = [*_header(state, seat), status_line(state, seat), f"ball: {_ball_text(state)}"]
    text.extend(p["label"] for p in pieces if p["kind"] != "ball")
    return {
        "game": "quarterback",
        "kind": "grid",
        "surface": "turf",
        "cell": 30,
        "columns": r.columns,
        "rows": r.field_rows - r.min_row + 1,
        "col_labels": [f"{chr(ord('A') + c)} {v}" for c, v in enumerate(r.values)],
        "row_order": list(range(r.field_rows, r.min_row - 1, -1)),
        "bands": [{"from": r.min_row, "to": 0, "kind": "zone", "label": "the unnumbered rows behind the line"}],
        "lines": [{"row": 1, "kind": "scrimmage", "label": "line of scrimmage (between rows 0 and 1)"}],
        "cells": [],
        "pieces": pieces,
        "sides": [state.attacker, state.defender],
        "legend": [
            {"shape": "piece", "kind": "side", "side": state.attacker, "text": f"{state.attacker}: attacking pieces"},
            {"shape": "piece", "kind": "side", "side": state.defender, "text": f"{state.defender}: defending pieces"},
            {"shape": "piece", "kind": "kinds", "text": "on a piece: " + "; ".join(
                "QB: the Quarterback" if k == "Q" else f"{k}1, {k}2 ...: {name}s" for k, name in KIND_NAMES.items())},
            {"shape": "piece", "kind": "ball", "text": "the ball (with its carrier, or loose)"},
            {"shape": "band", "kind": "zone", "text": "the unnumbered rows behind the line"},
            {"shape": "line", "kind": "scrimmage", "text": "line of scrimmage"},
        ],
        "headline": _header(state, seat)[0],
        "text": text,
    }
