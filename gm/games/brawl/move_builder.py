"""brawl moves by pointing (``Game.move_builder``): a placement is built by giving every player on the
field one card from its hand and a zone of its own (click the zone on the field, or choose it), checked
as it is built; on 4th down, a button per option."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.movebuilder import Part, assign_form, builder, for_the_mover, form, where

if TYPE_CHECKING:
    from gm.games.brawl.engine import BrawlState

def zone_where(zone: str) -> dict[str, Any]:
    """Where a zone is drawn (``board_json``: Downfield on top, columns left to right)."""
    from gm.games.brawl.rules import COLUMNS, REGIONS

    return where(COLUMNS.index(zone[1]), len(REGIONS) - REGIONS.index(zone[0]))


@for_the_mover
def move_builder(state: BrawlState, seat: str) -> dict[str, Any]:
    """A placement as an ``assign`` form (player -> card, zone), or the 4th-down options."""
    from gm.games.brawl.actions import FourthDown
    from gm.games.brawl.board_json import TONES, card_label, player_label
    from gm.games.brawl.rules import COLUMN_NAMES, PLAYABLE, REGION_NAMES

    decision = str(state.decision(seat))
    legal = state.legal_actions(seat)
    if decision == "fourth_down":
        options = [a for a in legal if isinstance(a, FourthDown)]
        words = {"punt": "punt", "field_goal": "field goal", "go_for_it": "go for it"}
        part = Part("option", "Choose", labels={str(a.option): words.get(str(a.option), str(a)) for a in options})
        return builder(seat, decision, [form("choose_fourth_down", "4th down", [part], [[str(a.option), str(a)] for a in options])],
                       prompt="4th down: punt, kick a field goal or go for it", examples=state.game.move_examples)
    hand = state.hands[seat]
    items = []
    for player in state.roster(seat):
        codes = sorted({c.code for c in hand[player]})
        items.append({"value": player, "label": player_label(state, player), "choices": {"card": codes}})
    cards = sorted({c.code for cs in hand.values() for c in cs})
    mult = state.rules.multipliers
    fields: list[dict[str, Any]] = [
        {"name": "card", "label": "Card", "input": "choice", "labels": {c: card_label(c) for c in cards},
         "tones": {c: TONES[c[0]] for c in cards}},
        {"name": "zone", "label": "Zone", "input": "square", "values": list(PLAYABLE), "distinct": True,
         "labels": {z: f"{z}: {REGION_NAMES[z[0]]} {COLUMN_NAMES[z[1]]} (x{mult[z[0]]})" for z in PLAYABLE},
         "where": {z: zone_where(z) for z in PLAYABLE}},
    ]
    unit = state.unit(seat)
    placement = assign_form(
        "play_cards", f"Play your cards ({unit})", key_name="player", items=items, fields=fields, arg="placements",
        count=len(legal), help="Every player plays one card from its hand into a zone of its own (never BM, the X). "
        "Both sides' cards are revealed together once both have locked.",
    )
    return builder(seat, decision, [placement], prompt=f"Play {state.play_no} of the series: place your {unit}'s cards",
                   summary=state.legal_summary(seat), examples=state.game.move_examples)
