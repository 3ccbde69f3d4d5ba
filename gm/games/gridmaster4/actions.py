"""GridMaster4 actions: one kind of decision, placing a tile.

Text forms (``str(action)``) parse back exactly: ``place 37 at K12`` names the
tile number, ``place K12`` leaves it to the engine (always the player's next
tile).  ``parse_action`` also reads the natural ways a player states a move:
``K12``, ``place at k12``, ``tile on K12``, ``12 K``, ``37 K12``,
``put tile #37 on row 12 column K``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from gm.core.actions import Action
from gm.core.errors import InvalidActionError, bad_input
from gm.games.gridmaster4.grid import CANONICAL, normalise_cell

FORMS = ("place 37 at K12", "place K12", "K12")


def _bad(reason: str, text: object, rule: str = "GM4-SYNTAX") -> InvalidActionError:
    return bad_input(reason, text, rule=rule, legal=FORMS)


# alike on purpose: every game's actions are frozen dataclasses of this shape (fields, a type tag, checks in
# __post_init__, a text form: gm.core.actions.Action), each holding its own game's move in its own words
@dataclass(frozen=True, slots=True)
class Place(Action):
    """Place a tile on a cell; ``number`` (optional) must be the player's next tile."""

    cell: str
    number: int | None = None
    type: ClassVar[str] = "place"

    def __post_init__(self) -> None:
        if not isinstance(self.cell, str) or self.cell not in CANONICAL:
            cell = normalise_cell(self.cell) if isinstance(self.cell, str) else None
            if cell is None:
                raise _bad(
                    "a cell is a column letter and a row number from 1, e.g. K12 (A1 is the bottom-left cell)",
                    self.cell,
                    rule="GM4-R-CELLS",
                )
            object.__setattr__(self, "cell", cell)
        n = self.number
        if n is not None and (type(n) is not int or n < 1):
            raise _bad("the tile number is a whole number from 1", n)

    def __str__(self) -> str:
        if self.number is None:
            return f"place {self.cell}"
        return f"place {self.number} at {self.cell}"


_new = object.__new__
_set = object.__setattr__


class PlaceRow(dict[int, Place]):
    """The placements of one tile number on one board, by cell index, made on first use (the
    engine lists legal placements from these shared values instead of building new ones)."""

    __slots__ = ("names", "number")

    def __init__(self, names: tuple[str, ...], number: int) -> None:
        super().__init__()
        self.names = names
        self.number = number

    def __missing__(self, cell: int) -> Place:
        # the cell name comes from the board's own names: canonical, so the checks of __post_init__ hold
        p = _new(Place)
        _set(p, "cell", self.names[cell])
        _set(p, "number", self.number)
        self[cell] = p
        return p


class PlaceTable:
    """Every :class:`PlaceRow` of one board (at most ``limit`` placements are kept: past that the
    rows start afresh, so a long run on the largest board stays small)."""

    __slots__ = ("limit", "names", "rows")

    def __init__(self, names: tuple[str, ...], limit: int = 200_000) -> None:
        self.names = names
        self.limit = limit
        self.rows: dict[int, PlaceRow] = {}

    def row(self, number: int) -> PlaceRow:
        """The placements of tile ``number``."""
        row = self.rows.get(number)
        if row is None:
            if sum(map(len, self.rows.values())) > self.limit:
                self.rows.clear()
            row = self.rows[number] = PlaceRow(self.names, number)
        return row


ACTION_TYPES: dict[str, type[Action]] = {Place.type: Place}

_WORD_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "first": 1,
}
_FILLER = frozenset(
    """place places placing placed put puts putting drop drops lay lays set sets play plays move moves moving go goes
    tile tiles piece my our the next new at on in onto into to of ill will want would like let me we it its here
    there and please now then cell square space spot position pos location coordinate coordinates target build
    builds building with from number num no nr
    how about think guess maybe perhaps say lets ok okay yes yeah alright um uh so just choose pick take try going
    gonna goes ll im id ive
    orange magenta lime green aqua""".split()
)
_PASS = frozenset({"pass", "skip", "wait"})
_CANONICAL_FORM = re.compile(r"place (?:([1-9][0-9]{0,2}) at )?([A-Z][1-9][0-9]?)")
_TILENUM = re.compile(r"tilenum([0-9]{1,6})")
_COMPACT = re.compile(r"([a-z])([0-9]{1,2})")
_REVERSED = re.compile(r"([0-9]{1,2})([a-z])")
_DIGITS = re.compile(r"[0-9]{1,6}")
_LETTER = re.compile(r"[a-z]")
_PUNCT = re.compile(r"[,;:()\[\]{}'\"!?.=/\\-]")
_NUMBER_MARK = re.compile(r"(?:#|\bno\.|\bnumber|\bnum\b|\btile)\s*([0-9]+)")
_ORDINAL = re.compile(r"\b([0-9]+)(?:st|nd|rd|th)\b")


def parse_action(text: str) -> Action:
    """Parse a placement (see ``FORMS``); tolerant of how players say it."""
    if not isinstance(text, str) or not text.strip():
        raise _bad("empty action", text)
    if text in CANONICAL:  # a bare cell, as a tool call names it: the fast path (calls)
        return Place(text)
    if m := _CANONICAL_FORM.fullmatch(text):  # the text form itself: the fast path (replays)
        return Place(m.group(2), int(m.group(1)) if m.group(1) else None)
    return _parse_words(text)


def _parse_words(text: str) -> Action:
    """A placement in a player's words (what :func:`parse_action` reads past its fast paths)."""
    t = text.lower()
    t = _NUMBER_MARK.sub(r" tilenum\1 ", t)  # "#37", "tile 37", "number 37" name the tile number
    t = _ORDINAL.sub(r" tilenum\1 ", t)  # "my 37th tile"
    t = _PUNCT.sub(" ", t)
    toks = t.split()
    if not toks:
        raise _bad("empty action", text)
    if any(w in _PASS for w in toks):
        raise _bad("there is no passing: place a tile on a legal cell", text, rule="GM4-R-NO-PASS")
    cells: list[str] = []
    explicit: list[int] = []
    bare: list[tuple[int, int]] = []  # (position, value)
    letters: list[tuple[int, str]] = []
    row_kw: int | None = None
    col_kw: str | None = None
    i = 0
    pos = 0
    while i < len(toks):
        w = toks[i]
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if w == "row" and _DIGITS.fullmatch(nxt):
            row_kw, i = int(nxt), i + 2
            continue
        if w in ("column", "col") and _LETTER.fullmatch(nxt):
            col_kw, i = nxt, i + 2
            continue
        i += 1
        if m := _TILENUM.fullmatch(w):
            explicit.append(int(m.group(1)))
        elif m := _COMPACT.fullmatch(w):
            cells.append(f"{m.group(1)}{m.group(2)}")
        elif m := _REVERSED.fullmatch(w):
            cells.append(f"{m.group(2)}{m.group(1)}")
        elif _DIGITS.fullmatch(w):
            bare.append((pos, int(w)))
        elif w in _WORD_NUMBERS:
            bare.append((pos, _WORD_NUMBERS[w]))
        elif _LETTER.fullmatch(w):
            letters.append((pos, w))
        elif w in _FILLER or w in ("row", "column", "col"):
            continue
        else:
            raise _bad(f"cannot read {w!r} in a placement", text)
        pos += 1
    cell = _pick_cell(cells, letters, bare, row_kw, col_kw, text)
    numbers = explicit + [v for _, v in bare]
    if len(numbers) > 1:
        raise _bad("name one tile number and one cell, e.g. 'place 37 at K12'", text)
    return Place(cell, numbers[0] if numbers else None)


def _pick_cell(
    cells: list[str],
    letters: list[tuple[int, str]],
    bare: list[tuple[int, int]],
    row_kw: int | None,
    col_kw: str | None,
    text: str,
) -> str:
    """Find the one cell in a placement; consumes the row number from ``bare`` if it is separate."""
    if col_kw is not None or row_kw is not None:
        if cells or col_kw is None or row_kw is None:
            raise _bad("name the cell once: 'K12' or 'row 12 column K'", text)
        return f"{col_kw}{row_kw}"
    if len(cells) > 1:
        raise _bad(f"more than one cell named ({', '.join(c.upper() for c in cells)})", text)
    if cells:
        return cells[0]
    def beside(at: int) -> tuple[int, int] | None:
        after = [b for b in bare if b[0] == at + 1]
        before = [b for b in bare if b[0] == at - 1]
        return after[0] if after else before[0] if before else None

    paired = [(letter, beside(at)) for at, letter in letters if beside(at) is not None]
    if len(paired) > 1:  # "place a tile at K 12", "I put it on K 12": an article or pronoun is not a column
        paired = [p for p in paired if p[0] not in ("a", "i")] or paired
    if len(paired) != 1:
        if letters and not paired:
            raise _bad(f"column {letters[-1][1].upper()} but no row number", text)
        if not letters and len(bare) >= 2:  # "11, 12": coordinates as numbers
            raise _bad("a cell is named by its column letter and row number, e.g. K12 (A1 is the bottom-left cell), "
                       "not by two numbers", text, rule="GM4-R-CELLS")
        raise _bad("name one cell: a column letter and a row number, e.g. K12", text)
    letter, chosen = paired[0]
    assert chosen is not None
    bare.remove(chosen)
    return f"{letter}{chosen[1]}"
