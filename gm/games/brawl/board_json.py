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
                cells.append({"col": c, "row": rows[region], "kind": "x", "fill": "#a29f96", "text": "X", "label": f"{where}: no play"})
                continue
            off = " ".join(_card(p) for p in state.zones[zone]["offense"])
            de = " ".join(_card(p) for p in state.zones[zone]["defense"])
            line = zone_line(state, zone)
            drawn = [*_rows("O", off.split()), *_rows("D", de.split()), line]
            cells.append({
                "col": c, "row": rows[region], "kind": "zone card" if off or de else "zone", "fill": "#ffffff" if off or de else "#f1eee3",
                "text": "\n".join(drawn),
                "label": f"{where} ({zone}): offense {off or 'none'}; defense {de or 'none'}; {line}",
            })
            text.append(cells[-1]["label"])
    text.extend(_hand_lines(state, seat))
    assert len(cells) == len(PLAYABLE) + 1
    return {
        "game": "brawl",
        "kind": "grid",
        "surface": "plain",
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
        "hand": _hand(state, seat),
        "legend": [
            {"shape": "cell", "kind": "zone", "fill": "#f1eee3", "text": "a zone (region and column; the region's yard multiplier at the left)"},
            {"shape": "cell", "kind": "zone card", "fill": "#ffffff", "text": "a zone with cards played: O offense, D defense, then the totals"},
            {"shape": "cell", "kind": "x", "fill": "#a29f96", "text": "the X (BM): the play starts here, no cards"},
        ],
        "headline": f"brawl - {_situation(state)}",
        "text": text,
    }


#: each kind of card's tint on the page (0-5: the page's tints)
TONES = {"S": 0, "A": 1, "F": 2}


def _hand(state: BrawlState, seat: str | None) -> dict[str, Any] | None:
    """The seat's own hand as cards, player by player (nobody else's: a hand is secret)."""
    from gm.games.brawl.engine import SEATS

    if seat not in SEATS or state.outcome is not None:
        return None
    hand = state.hands[seat]
    groups = []
    for player in state.roster(seat):
        cards = [{"text": c.code, "tone": TONES[c.kind], "label": card_label(c.code)} for c in hand.get(player, [])]
        groups.append({"label": player_label(state, player), "name": player, "cards": cards})
    locked = state.pending.get(seat)
    title = f"Your hand ({state.unit(seat)})" + (" - your cards for this play are locked" if locked is not None else "")
    return {"title": title, "groups": groups}


EFFECT_WORDS = {"S": "strong", "W": "weak"}


def card_label(code: str) -> str:
    """``S3`` -> ``Strength 3``, ``A1-4`` -> ``Agility 1-4 (rolled)``."""
    from gm.games.brawl.rules import KINDS, parse_card

    card = parse_card(code)
    value = f"{card.lo}-{card.hi} (rolled)" if card.rolled else str(card.lo)
    return f"{KINDS[card.kind]} {value}"


def player_label(state: BrawlState, player: str) -> str:
    """``WR1 (WR): strong in Downfield, Midfield; weak in Scrimmage, Backfield``."""
    from gm.games.brawl.rules import REGION_NAMES, REGIONS

    pos = state.positions[player]
    effects = state.rules.positions[pos].effects
    said = []
    for effect, word in EFFECT_WORDS.items():
        regions = [REGION_NAMES[g] for g in REGIONS if effects[g] == effect]
        if regions:
            said.append(f"{word} in {', '.join(regions)}")
    return f"{player} ({pos})" + (f": {'; '.join(said)}" if said else "")


def _rows(side: str, cards: list[str], per_line: int = 2) -> list[str]:
    """``O S4v F1v`` / ``  S3`` - a side's cards, a few to a line (a zone is drawn small)."""
    if not cards:
        return [side]
    return [(side if i == 0 else " ") + " " + " ".join(cards[i:i + per_line]) for i in range(0, len(cards), per_line)]
