"""What a GridMaster4 narration can claim (:meth:`gm.core.game.Game.narration_claims`): a tile
placed on a cell (``tile 12 at R10``, ``placed at R10``: checked against this turn's placements,
the seat named or "your" the player's), any other cell named, tile numbers, who is blocked, tiles
made inactive, free placements, every seat's score, and the words saying a tile was put down."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim, hedged, state_of

CELL_RE = r"[A-T](?:1[0-9]|20|[1-9])"
CELL = re.compile(rf"\b(?:at|on|in|to|onto)\s+(?:cell\s+)?({CELL_RE})\b")
ANY_CELL = re.compile(rf"\b{CELL_RE}\b")
TILE = re.compile(r"\b(?:tile|places?|placed|placing)\s+(?:number\s+|tile\s+)?([0-9]{1,3})\b", re.I)
#: a tile said to lie on a cell: "tile 12 at R10", "12 on R10", "places 3 at K12"
TILE_AT = re.compile(rf"\b(?:tile\s+)?(?:number\s+|no\.?\s*)?([0-9]{{1,3}})\s+(?:is\s+|goes\s+|went\s+|now\s+)*(?:at|on|onto|in|to)\s+(?:cell\s+)?({CELL_RE})\b", re.I)
#: a cell said to receive a tile: "placed on R10", "put it at K12", "your tile goes to H9"
PLACED_AT = re.compile(
    rf"\b(?:plac\w*|put\w*|drop\w*|land\w*|goes|went|go|set\w*|lays?|laid)\b[^.!?;]{{0,30}}?\b(?:at|on|onto|in|to|into)\s+(?:cell\s+)?({CELL_RE})\b",
    re.I,
)
BLOCKED = re.compile(r"\b([a-z]+)\s+(?:(?:is|are|gets?|got|has\s+been|was)\s+(?:now\s+)?blocked\b|has\s+no\s+(?:legal\s+)?moves?\b)", re.I)
#: the seat (or "you") a sentence is about
SUBJECT = re.compile(r"\b(?:orange|magenta|lime|aqua|you|your)\b", re.I)


def _cells(facts: Facts) -> set[str]:
    return {m.group(0) for m in ANY_CELL.finditer(facts.corpus.upper())}


PLACES = re.compile(rf"\b([a-z]+)\s+places\s+([0-9]{{1,3}})\s+at\s+({CELL_RE})\b")
ON_CELL = re.compile(rf"\b([a-z]+)\s+([0-9]{{1,3}})\s+at\s+({CELL_RE})\b")


def _tiles_on_cells(facts: Facts, seat: str | None) -> set[tuple[int, str]]:
    """(tile, cell) of this turn's placements and deactivations, as the engine's events say them
    (``seat``'s only, when given)."""
    out: set[tuple[int, str]] = set()
    for text in facts.texts(("placed",)):
        out |= {(int(n), c) for who, n, c in PLACES.findall(text) if seat is None or who == seat.lower()}
    for text in facts.texts(("deactivated",)):
        out |= {(int(n), c) for who, n, c in ON_CELL.findall(text) if seat is None or who == seat.lower()}
    return out


def _placed_cells(facts: Facts, seat: str | None) -> set[str]:
    return {c for text in facts.texts(("placed",)) for who, _, c in PLACES.findall(text) if seat is None or who == seat.lower()}


def _about(text: str, start: int, facts: Facts) -> str | None:
    head = max(text.rfind(c, 0, start) for c in ".!?;\n") + 1
    found = [m.group(0).lower() for m in SUBJECT.finditer(text, head, start)]
    if not found:
        return None
    return facts.seat if found[-1] in ("you", "your") else found[-1]


def _placements(narration: str, facts: Facts) -> list[str]:
    """A tile on a cell, or a cell given a tile, is true only of a placement (or a tile made inactive)
    of this turn or just before - the seat's named in the sentence, "your" the player's."""
    out: list[str] = []
    for m in TILE_AT.finditer(narration):
        if hedged(narration, m.start(), conditional_only=True):
            continue
        seat = _about(narration, m.start(), facts)
        tile, cell = int(m.group(1)), m.group(2).upper()
        if (tile, cell) not in _tiles_on_cells(facts, seat):
            whose = f"{seat}'s " if seat else ""
            out.append(f"{whose}tile {tile} at {cell}: no placement of this turn puts it there")
    for m in PLACED_AT.finditer(narration):
        if hedged(narration, m.start(), conditional_only=True):
            continue
        seat = _about(narration, m.start(), facts)
        cell = m.group(1).upper()
        if cell not in _placed_cells(facts, seat):
            whose = f" for {seat}" if seat else ""
            out.append(f"placed at {cell}{whose}: no placement of this turn is there")
    return out


def _blocked(narration: str, facts: Facts) -> list[str]:
    """"SEAT is blocked": true only when the engine blocked that seat (this turn, just before, or in its view)."""
    out: list[str] = []
    seats = {s.lower() for s in facts.seats}
    for m in BLOCKED.finditer(narration):
        who = m.group(1).lower()
        seat = facts.seat if who in ("you", "you're") else who
        if seat is None or seat.lower() not in seats or hedged(narration, m.start()):
            continue
        events = {text.split()[0].lower() for text in facts.texts(("blocked",)) if text.split()}
        if seat.lower() not in events and not _shown_blocked(facts, seat):
            out.append(f"{seat} blocked: the engine has not blocked {seat}")
    return out


def _shown_blocked(facts: Facts, seat: str) -> bool:
    for view in facts.views[-1:]:
        for p in state_of(view).get("players") or []:
            if isinstance(p, Mapping) and str(p.get("seat")).lower() == seat.lower() and p.get("status") == "blocked":
                return True
    return False


def scoreboards(view: Mapping[str, Any]) -> list[dict[str, int]]:
    """Every seat's score, from the view's players."""
    board = {str(p["seat"]): int(p["score"]) for p in view.get("players") or []
             if isinstance(p, Mapping) and isinstance(p.get("score"), int)}
    return [board] if board else []


CLAIMS = Claims(
    values=(
        ValueClaim("cell", CELL, value=lambda m: m.group(1), known=_cells),
        ValueClaim("tile", TILE, value=lambda m: m.group(1)),
    ),
    events=(
        EventClaim("a blocked player", re.compile(r"\b(?:is|are|gets?|got) blocked\b|\bno legal move\b", re.I), frozenset({"blocked"}),
                   unless=lambda f: any(_shown_blocked(f, s) for s in f.seats)),
        EventClaim("an inactive tile", re.compile(r"\binactive\b|\bdeactivat\w*", re.I), frozenset({"deactivated"})),
        EventClaim("a free placement", re.compile(r"\bfree\s+(?:round|placements?)\b", re.I), frozenset({"free_round"})),
    ),
    custom=(_placements, _blocked),
    moves=(
        re.compile(r"\btile\s+(?:[0-9]{1,3}\s+)?(?:is\s+|was\s+|has\s+been\s+)?(?:now\s+)?(?:down|placed|put|laid)\b", re.I),
        re.compile(r"\b(?:put|placed|dropped|laid)\s+(?:your|the|a)\s+(?:next\s+)?tile\b", re.I),
        re.compile(rf"\btile\s+[0-9]{{1,3}}\s+(?:goes|went)\s+(?:down\s+)?(?:at|on|to|in)\s+{CELL_RE}\b", re.I),
    ),
    scores=scoreboards,
)
