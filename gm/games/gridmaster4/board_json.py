"""GridMaster4's board as drawable geometry (the web page's SVG): tiles by colour, active or
inactive, and the cells the viewing seat may move to - the facts of the ASCII board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.boardjson import lettered_axes

if TYPE_CHECKING:
    from gm.games.gridmaster4.engine import GridMaster4State


def board_json(state: GridMaster4State, seat: str | None = None) -> dict[str, Any]:
    from gm.games.gridmaster4.board import _header, _marked_cells, status_line
    from gm.games.gridmaster4.rules import COLOURS, LETTERS

    r = state.rules
    names = state.geo.names
    marks = _marked_cells(state, seat)
    cells: list[dict[str, Any]] = []
    for i in range(r.columns * r.rows):
        col, row = i % r.columns, i // r.columns + 1
        t = state.tile(i)
        if t is not None:
            owner, number, active = t
            cells.append({
                "col": col, "row": row, "kind": "tile" if active else "tile inactive", "fill": owner,
                "text": f"{LETTERS[owner]}{number}",
                "label": f"{names[i]}: {COLOURS[owner]} {number}, {'active' if active else 'inactive'}",
            })
        elif i in marks:
            cells.append({"col": col, "row": row, "kind": "target", "label": f"{names[i]}: {seat} can move here"})
    text = [_header(state), status_line(state, seat)]
    for s in state.order:
        act = ", ".join(f"{names[c]} ({state.number[c]})" for c in sorted(state.actives[s])) or "none"
        text.append(f"{s} ({COLOURS[s]}): score {state.score[s]}; active tiles: {act}")
    if marks:
        text.append(f"{seat} can place on: " + ", ".join(names[c] for c in sorted(marks)))
    return {
        "game": "gridmaster4",
        "kind": "grid",
        "surface": "plain",
        "cell": 26,
        **lettered_axes(r.columns, r.rows),
        "bands": [],
        "lines": [],
        "cells": cells,
        "pieces": [],
        "legend": [
            *({"shape": "cell", "kind": "tile", "fill": s, "text": f"{COLOURS[s]}'s tiles ({LETTERS[s]}, the tile's number)"} for s in state.order),
            {"shape": "cell", "kind": "tile inactive", "text": "an inactive tile (faded)"},
            {"shape": "cell", "kind": "target", "text": "a cell you can move to"},
        ],
        "headline": _header(state),
        "text": text,
    }
