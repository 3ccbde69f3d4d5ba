"""The board the page draws (``Game.board_json``): the shapes in a row to throw from, and the last rounds
above them, each shape thrown marked by who threw it - cells of kinds of this game's own (``shape``,
``thrown``), which gm's page draws with its default style."""

from __future__ import annotations

from typing import Any

from gm_rps.game import SEATS, RpsState

#: the last rounds shown above the shapes
SHOWN = 5


def board_json(state: RpsState, seat: str | None = None) -> dict[str, Any]:
    shapes = state.rules.shapes
    rounds = state.rounds[-SHOWN:]
    first = len(state.rounds) - len(rounds) + 1
    cells: list[dict[str, Any]] = [
        {"col": c, "row": 1, "kind": "shape", "text": shape, "label": f"{shape}"} for c, shape in enumerate(shapes)
    ]
    for k, rnd in enumerate(reversed(rounds)):
        row = k + 2
        number = len(state.rounds) - k
        for c, shape in enumerate(shapes):
            who = [s for s in SEATS if rnd[s] == shape]
            if who:
                cells.append({"col": c, "row": row, "kind": "thrown", "text": " & ".join(who),
                              "label": f"round {number}: {' and '.join(who)} threw {shape}"})
    row_labels = {"1": "throw"} | {str(k + 2): f"round {len(state.rounds) - k}" for k in range(len(rounds))}
    text = [f"round {first + i}: {r[SEATS[0]]} v {r[SEATS[1]]}, {r['winner']}" for i, r in enumerate(rounds)]
    headline = f"Rock-Paper-Scissors: {SEATS[0]} {state.wins[SEATS[0]]}, {SEATS[1]} {state.wins[SEATS[1]]}"
    return {
        "game": "rock-paper-scissors",
        "kind": "grid",
        "cell": 60,
        "columns": len(shapes),
        "rows": len(rounds) + 1,
        "col_labels": list(shapes),
        "row_labels": row_labels,
        "row_order": list(range(len(rounds) + 1, 0, -1)),
        "bands": [],
        "lines": [],
        "cells": cells,
        "pieces": [],
        "headline": headline,
        "text": [headline, *text],
    }
