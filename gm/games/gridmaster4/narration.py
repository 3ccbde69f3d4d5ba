"""What a GridMaster4 narration can claim (:meth:`gm.core.game.Game.narration_claims`): the cell a
tile goes to (``R10``), tile numbers, who is blocked, tiles made inactive, free placements."""

from __future__ import annotations

import re

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim

CELL = re.compile(r"\b(?:at|on|in|to|onto)\s+(?:cell\s+)?([A-T](?:1[0-9]|20|[1-9]))\b")
ANY_CELL = re.compile(r"\b[A-T](?:1[0-9]|20|[1-9])\b")
TILE = re.compile(r"\b(?:tile|places?|placed|placing)\s+(?:number\s+|tile\s+)?([0-9]{1,3})\b", re.I)


def _cells(facts: Facts) -> set[str]:
    return {m.group(0) for m in ANY_CELL.finditer(facts.corpus.upper())}


CLAIMS = Claims(
    values=(
        ValueClaim("cell", CELL, value=lambda m: m.group(1), known=_cells),
        ValueClaim("tile", TILE, value=lambda m: m.group(1)),
    ),
    events=(
        EventClaim("a blocked player", re.compile(r"\b(?:is|are|gets?|got) blocked\b|\bno legal move\b", re.I), frozenset({"blocked"})),
        EventClaim("an inactive tile", re.compile(r"\binactive\b|\bdeactivat\w*", re.I), frozenset({"deactivated"})),
        EventClaim("a free placement", re.compile(r"\bfree\s+(?:round|placements?)\b", re.I), frozenset({"free_round"})),
    ),
)
