"""Board geometry: cell names and the cells one move away from each cell.

Cells are indexed ``row * columns + column`` from 0, with column 0 = ``A`` and
row 0 = row ``1`` (the bottom row), so ``A1`` is the bottom-left cell.  The
geometry depends only on the board size and the move distances and is
immutable, so it is built once per ruleset shape and shared.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_CELL = re.compile(r"([A-Za-z]) ?([0-9]{1,2})")


def cell_name(column: int, row: int) -> str:
    """``(10, 11)`` (0-based) -> ``"K12"``."""
    return f"{chr(ord('A') + column)}{row + 1}"


#: every canonical cell name a board can have (A1 .. Z99): the fast path of ``normalise_cell``
CANONICAL = frozenset(f"{chr(ord('A') + c)}{r}" for c in range(26) for r in range(1, 100))


def normalise_cell(text: str) -> str | None:
    """``"k12"``, ``"K 12"`` -> ``"K12"``; ``None`` if it is not written like a cell."""
    if text in CANONICAL:
        return text
    m = _CELL.fullmatch(text.strip())
    if not m:
        return None
    return f"{m.group(1).upper()}{int(m.group(2))}"


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """Names and move neighbourhoods of one board shape (one shared instance per shape:
    compared and hashed by identity)."""

    columns: int
    rows: int
    names: tuple[str, ...]
    index: dict[str, int]
    #: cells exactly one legal move away from each cell (on the board), ascending
    reach: tuple[tuple[int, ...], ...]
    #: the same neighbourhoods as sets (for "is ``u`` one move from ``t``?")
    reach_sets: tuple[frozenset[int], ...]
    #: cells with fewer than 8 moves (near an edge, GM4-EDGE)
    edge: tuple[bool, ...]

    def name(self, i: int) -> str:
        return self.names[i]


@lru_cache(maxsize=64)
def geometry(columns: int, rows: int, orthogonal: int, diagonal: int) -> Geometry:
    """The geometry of a ``columns`` x ``rows`` board with the given move distances."""
    o, d = orthogonal, diagonal
    offsets = {(0, o), (0, -o), (o, 0), (-o, 0), (d, d), (d, -d), (-d, d), (-d, -d)}
    names: list[str] = []
    reach: list[tuple[int, ...]] = []
    for row in range(rows):
        for col in range(columns):
            names.append(cell_name(col, row))
            near = sorted(
                (row + dr) * columns + (col + dc)
                for dc, dr in offsets
                if 0 <= col + dc < columns and 0 <= row + dr < rows
            )
            reach.append(tuple(near))
    return Geometry(
        columns, rows, tuple(names), {n: i for i, n in enumerate(names)}, tuple(reach), tuple(map(frozenset, reach)),
        tuple(len(r) < 8 for r in reach),
    )
