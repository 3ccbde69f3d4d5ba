"""GridMaster4's board as drawable geometry (the web page's SVG): tiles by colour, active or
inactive, and the cells the viewing seat may move to - the facts of the ASCII board."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.games.gridmaster4.engine import GridMaster4State


def board_json(state: GridMaster4State, seat: str | None = None) -> dict[str, Any]:
    from gm.games.gridmaster4.board import _header, _marked_cells, status_line
    from gm.games.gridmaster4.rules import COLOURS, LETTERS

    r = state.rules
    names = state.geo.names
    marks = _marked_cells(state, seat)
    # where the seat may place now, as the move a click makes (the page sends it as the player's words)
    moves: dict[str, str] = {}
    if seat is not None and seat in state.order and state.outcome is None and seat in state.to_act():
        for action in state.legal_actions(seat):
            said = str(action)
            moves[said.rsplit(" at ", 1)[-1]] = said
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
        elif i in marks or names[i] in moves:
            cell = {"col": col, "row": row, "kind": "target", "label": f"{names[i]}: {seat} can place here"}
            if names[i] in moves:
                cell["move"] = moves[names[i]]
            cells.append(cell)
    text = [_header(state), status_line(state, seat)]
    for s in state.order:
        act = ", ".join(f"{names[c]} ({state.number[c]})" for c in sorted(state.actives[s])) or "none"
        text.append(f"{s} ({COLOURS[s]}): score {state.score[s]}; active tiles: {act}")
    if marks:
        text.append(f"{seat} can place on: " + ", ".join(names[c] for c in sorted(marks)))
    return {
        "game": "gridmaster4",
        "kind": "grid",
        "cell": 26,
        "columns": r.columns,
        "rows": r.rows,
        "col_labels": [chr(ord("A") + c) for c in range(r.columns)],
        "row_order": list(range(r.rows, 0, -1)),
        "bands": [],
        "lines": [],
        "cells": cells,
        "pieces": [],
        "headline": _header(state),
        "text": text,
    }
