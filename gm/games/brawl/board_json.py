"""brawl's board as drawable geometry (the web page's SVG): the 4x3 zones with the cards played and
each zone's totals - what the seat may see (locked placements are never drawn)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.games.brawl.engine import BrawlState


def board_json(state: BrawlState, seat: str | None = None) -> dict[str, Any]:
    from gm.games.brawl.board import _card, _hand_lines, _situation, status_line, zone_line
    from gm.games.brawl.rules import COLUMN_NAMES, COLUMNS, PLAYABLE, REGION_NAMES, REGIONS, X_ZONE

    rows = {region: len(REGIONS) - i for i, region in enumerate(REGIONS)}  # Downfield on top
    cells: list[dict[str, Any]] = []
    text = [f"brawl - {_situation(state)}", status_line(state, seat)]
    for region in REGIONS:
        for c, column in enumerate(COLUMNS):
            zone = region + column
            where = f"{REGION_NAMES[region]} {COLUMN_NAMES[column]}"
            if zone == X_ZONE:
                cells.append({"col": c, "row": rows[region], "kind": "x", "text": "X", "label": f"{where}: no play"})
                continue
            off = " ".join(_card(p) for p in state.zones[zone]["offense"])
            de = " ".join(_card(p) for p in state.zones[zone]["defense"])
            line = zone_line(state, zone)
            drawn = [*_rows("O", off.split()), *_rows("D", de.split()), line]
            cells.append({
                "col": c, "row": rows[region], "kind": "zone card" if off or de else "zone",
                "text": "\n".join(drawn),
                "label": f"{where} ({zone}): offense {off or 'none'}; defense {de or 'none'}; {line}",
            })
            text.append(cells[-1]["label"])
    text.extend(_hand_lines(state, seat))
    assert len(cells) == len(PLAYABLE) + 1
    return {
        "game": "brawl",
        "kind": "grid",
        "cell": 124,
        "columns": len(COLUMNS),
        "rows": len(REGIONS),
        "col_labels": [COLUMN_NAMES[c] for c in COLUMNS],
        "row_labels": {str(rows[r]): f"{r} {state.rules.multipliers[r]}x" for r in REGIONS},
        "row_order": [rows[r] for r in REGIONS],
        "bands": [],
        "lines": [],
        "cells": cells,
        "pieces": [],
        "headline": f"brawl - {_situation(state)}",
        "text": text,
    }


def _rows(side: str, cards: list[str], per_line: int = 2) -> list[str]:
    """``O S4v F1v`` / ``  S3`` - a side's cards, a few to a line (a zone is drawn small)."""
    if not cards:
        return [side]
    return [(side if i == 0 else " ") + " " + " ".join(cards[i:i + per_line]) for i in range(0, len(cards), per_line)]
