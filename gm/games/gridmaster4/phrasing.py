"""How players say GridMaster4 placements beyond the notation: the offline referee's words for this game.

The parser (:mod:`gm.games.gridmaster4.actions`) reads cells in many spellings ("K12", "row 12 column
K", "tile on k12"); this reads the rest (:mod:`gm.core.phrasing` does the typos and numbers in words):

- a jump said in directions from an active tile ("up", "3 left", "diagonally up-right", "up from
  K10", "two down-left of my 1"): up is toward the top row as the board is printed, and the jump is
  the ruleset's (3 cells straight, 2 diagonally: "up 2" is no jump and reads as nothing);
- from which tile, when the words do not say: each active tile the player builds on - one cell that
  fits is the move, several are asked about;
- the next tile with no cell ("place 2", "my next tile"): the cells it may go on, to choose from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.phrasing import Phrasing, read_legs
from gm.core.state import GameState
from gm.games.gridmaster4.actions import Place

VOCABULARY = frozenset(
    """place tile up down left right diagonally diagonal above below row column from next jump my of""".split()
)

# alike on purpose: every game's phrasing has a table of this shape (a pattern of loose words -> the game's
# notation); the words are each game's own
SYNONYMS: tuple[tuple[str, str], ...] = (
    (r"\bplce\b|\bplase\b|\bpalce\b", "place"),
    (r"\b(up|down)[- ]?(left|right)\b", r"\1-\2"),
    (r"\bnorth\b|\babove\b|\bupward(?:s)?\b", "up"),
    (r"\bsouth\b|\bbelow\b|\bunder\b|\bdownward(?:s)?\b", "down"),
    (r"\bwest\b|\bto the left of\b", "left"),
    (r"\beast\b|\bto the right of\b", "right"),
    (r"\bnorth-?east\b", "up-right"),
    (r"\bnorth-?west\b", "up-left"),
    (r"\bsouth-?east\b", "down-right"),
    (r"\bsouth-?west\b", "down-left"),
)

FILLER = frozenset(
    """place places put drop lay set tile tiles piece my our the next new at on in onto to of it its from
    jump jumps cells cell squares square spaces space steps away please go move start starting corner spot
    there here cell""".split()
)

_CELL = re.compile(r"[a-z][1-9][0-9]?")
_DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}


def _anchors(state: Any, seat: str, words: list[str]) -> tuple[list[int], list[str]]:
    """The active tiles a jump is said from (a cell named, or "my 7": the tile numbered 7; none said:
    every tile the player builds on) and the words left."""
    geo = state.geo
    builders = state.builders(seat)
    for i, w in enumerate(words):
        if _CELL.fullmatch(w) and w.upper() in geo.index:
            cell = geo.index[w.upper()]
            return ([cell] if cell in builders else []), words[:i] + words[i + 1 :]
        m = re.fullmatch(r"(?:#|tilenum)?(\d+)", w)
        if m and i and words[i - 1] in ("my", "tile", "#", "from", "of"):
            n = int(m.group(1))
            return [c for c in builders if state.number[c] == n], words[:i] + words[i + 1 :]
    return builders, words


def candidates(state: GameState[Any], seat: str, text: str) -> Sequence[Action] | None:
    """The legal placements ``text`` may mean (see the module doc)."""
    st: Any = state
    if st.decision(seat) is None:
        return None
    raw = re.sub(r"[,;:!?()]|\.(?=\s|$)", " ", text).split()
    words = [w for w in raw if w not in FILLER or w in ("my", "from", "of", "tile")]
    nxt = st.next_tile(seat)
    # "place 2", "my next tile": the tile number and nothing else
    bare = [w for w in words if w not in ("my", "from", "of", "tile")]
    if not bare or bare == [str(nxt)]:
        return [a for a in state.legal_actions(seat).page(0, 40) if isinstance(a, Place)] if not state.legal_actions(seat).is_space else None
    if st.anywhere(seat):
        return None  # a first or free tile goes anywhere: only a cell says where
    anchors, rest = _anchors(st, seat, words)
    rest = [w for w in rest if w not in ("my", "from", "of", "tile", str(nxt))]
    r = st.rules
    directions = {w: d for w, d in _DIRECTIONS.items()}
    legs = read_legs(rest, directions, skip=("diagonally", "diagonal", "then"))
    if legs is None or len(legs) != 1:
        return None
    dx, dy, n = legs[0]
    straight = not (dx and dy)
    said_n = any(w.isdigit() for w in rest)
    jump = r.orthogonal if straight else r.diagonal
    if said_n and n != jump:
        return []  # "up 2": no jump is that long
    out: list[Action] = []
    for cell in anchors:
        col, row = cell % r.columns, cell // r.columns
        col, row = col + dx * jump, row + dy * jump
        if 0 <= col < r.columns and 0 <= row < r.rows:
            out.append(Place(st.geo.names[row * r.columns + col]))
    return out


PHRASING = Phrasing(vocabulary=VOCABULARY, synonyms=SYNONYMS, filler=FILLER, hook=candidates)
