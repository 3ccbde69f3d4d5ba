"""Helpers for a game's ``board_json`` hook (the drawable board, schema ``board_json.schema.json``)."""

from __future__ import annotations

from typing import Any


def lettered_axes(columns: int, rows: int) -> dict[str, Any]:
    """The axes of a board whose columns are lettered from ``A`` (left to right) and whose rows are numbered
    from 1, drawn with the highest row on top: its ``columns``, ``rows``, ``col_labels`` and ``row_order``."""
    return {
        "columns": columns,
        "rows": rows,
        "col_labels": [chr(ord("A") + c) for c in range(columns)],
        "row_order": list(range(rows, 0, -1)),
    }
