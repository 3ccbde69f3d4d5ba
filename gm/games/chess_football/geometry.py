"""Squares of the Chess-Football field and the tables precomputed per field size.

A square is ``(column index, row)``: column 0 is ``A``, rows are numbered from 1 (``(7, 12)``
is ``H12``).  A :class:`Grid` holds, once per field size, each square's on-field neighbours
(king steps, in the fixed direction order :data:`DIRS`) and its 3 x 3 neighbourhood, so the
path search and the adjacency tests never recompute them.
"""

from __future__ import annotations

from functools import lru_cache

Square = tuple[int, int]
#: a square and a position in it
Spot = tuple[Square, str]
#: the five positions of a square, in "first free position" order (CF-POSITIONS)
POSITIONS = ("C", "NW", "NE", "SW", "SE")
#: king steps in a fixed order: a step's index is its direction (a change of index is a turn)
DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def col_letter(col: int) -> str:
    """``7`` -> ``"H"``."""
    return chr(ord("A") + col)


_NAMES: dict[Square, str] = {}


def sq(square: Square | None) -> str:
    """``(7, 12)`` -> ``"H12"`` (``None`` -> ``"-"``)."""
    name = _NAMES.get(square)  # type: ignore[arg-type]
    if name is None:
        if square is None:
            return "-"
        if len(_NAMES) >= 4096:
            _NAMES.clear()
        name = _NAMES[square] = f"{col_letter(square[0])}{square[1]}"
    return name


@lru_cache(maxsize=4096)
def parse_square(text: str) -> Square:
    """``"H12"`` -> ``(7, 12)`` (no bounds check)."""
    t = text.strip().upper()
    return ord(t[0]) - ord("A"), int(t[1:])


def cheb(a: Square, b: Square) -> int:
    """King-step distance; adjacent means ``cheb <= 1`` (ruling CF-R-ADJACENT)."""
    dc = a[0] - b[0]
    dr = a[1] - b[1]
    if dc < 0:
        dc = -dc
    if dr < 0:
        dr = -dr
    return dc if dc > dr else dr


class Grid:
    """The squares of a ``columns`` x ``rows`` field with their neighbour tables (see :func:`grid`)."""

    __slots__ = ("around", "cols", "neighbours", "rows", "squares")

    def __init__(self, cols: int, rows: int) -> None:
        self.cols = cols
        self.rows = rows
        self.squares: frozenset[Square] = frozenset((c, r) for c in range(cols) for r in range(1, rows + 1))
        #: square -> its on-field king steps as (direction index, square)
        self.neighbours: dict[Square, tuple[tuple[int, Square], ...]] = {
            (c, r): tuple((i, (c + dc, r + dr)) for i, (dc, dr) in enumerate(DIRS) if 0 <= c + dc < cols and 1 <= r + dr <= rows)
            for c in range(cols)
            for r in range(1, rows + 1)
        }
        #: square -> itself and its on-field neighbours (what "adjacent" covers)
        self.around: dict[Square, tuple[Square, ...]] = {s: (s, *(n for _, n in nb)) for s, nb in self.neighbours.items()}

    def on(self, square: Square) -> bool:
        """Is ``square`` on the field?"""
        return 0 <= square[0] < self.cols and 1 <= square[1] <= self.rows

    def ring(self, centre: Square, dist: int) -> list[Square]:
        """The on-field squares exactly ``dist`` king steps from ``centre``."""
        c0, r0 = centre
        return [
            (c0 + dc, r0 + dr)
            for dc in range(-dist, dist + 1)
            for dr in range(-dist, dist + 1)
            if max(abs(dc), abs(dr)) == dist and self.on((c0 + dc, r0 + dr))
        ]


@lru_cache(maxsize=16)
def grid(cols: int, rows: int) -> Grid:
    """The (shared, immutable) :class:`Grid` of a field size."""
    return Grid(cols, rows)


__all__ = ["DIRS", "POSITIONS", "Grid", "Spot", "Square", "cheb", "col_letter", "grid", "parse_square", "sq"]
