"""brawl's tools: ``play_cards`` and ``choose_fourth_down`` (actions) and a ``get_zone`` query.

The generic queries (board, status, legal actions, rules) come from the core.  Argument
names equal the fields of the action each tool makes (``play_cards`` ->
:class:`Placement`, ``choose_fourth_down`` -> :class:`FourthDown`), so an action and its
tool call convert both ways (:func:`gm.core.tools.call_for_action`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from gm.core.actions import Action
from gm.core.tools import ToolArgs, ToolSpec
from gm.games.brawl.actions import FourthDown, Placement, norm_zone, read_card_play

if TYPE_CHECKING:
    from gm.core.state import GameState
    from gm.games.brawl.rules import BrawlRules

ZONE_HELP = (
    "a zone: region letter + column letter - D Downfield, M Midfield, S Scrimmage, B Backfield; "
    "L Left, M Middle, R Right: DL DM DR ML MM MR SL SM SR BL BR (BM is the X, no cards)"
)


class CardPlacementArgs(ToolArgs):
    player: str = Field(max_length=12, description="one of your players on the field, e.g. QB, WR1, OT3, CB2, FS")
    card: str | None = Field(
        default=None,
        max_length=12,
        description="a card in that player's hand: S3 (Strength 3), F2 (Focus 2), A1-4 (Agility rolled 1-4); "
        "null only when the player holds a single kind of card",
    )
    zone: str = Field(max_length=24, description=ZONE_HELP)


class PlayCardsArgs(ToolArgs):
    placements: list[CardPlacementArgs] = Field(
        min_length=1,
        max_length=11,
        description="one entry per player on the field (every one of them), each player into a different zone",
    )


class FourthDownArgs(ToolArgs):
    option: Literal["punt", "field_goal", "go_for_it"] = Field(
        description="punt, field_goal (if in range: a seeded roll against the odds), "
        "or go_for_it (every player draws more cards, more plays, the series is rescored)"
    )


class ZoneArgs(ToolArgs):
    zone: str = Field(max_length=24, description=ZONE_HELP)


def _play_cards(state: GameState[Any], seat: str, args: PlayCardsArgs) -> Action:
    return Placement(tuple(read_card_play(p.player, p.card, p.zone) for p in args.placements))


def _fourth_down(state: GameState[Any], seat: str, args: FourthDownArgs) -> Action:
    return FourthDown(args.option)


def _get_zone(state: GameState[Any], seat: str | None, args: ZoneArgs) -> dict[str, Any]:
    from gm.games.brawl.board import zone_line
    from gm.games.brawl.engine import SEATS, BrawlState
    from gm.games.brawl.rules import ADJACENT, COLUMN_NAMES, REGION_NAMES, X_ZONE

    assert isinstance(state, BrawlState)
    zone = norm_zone(args.zone)
    r = state.rules
    out: dict[str, Any] = {
        "zone": zone,
        "name": f"{REGION_NAMES[zone[0]]} {COLUMN_NAMES[zone[1]]}",
        "multiplier": r.multipliers[zone[0]],
        "adjacent": list(ADJACENT[zone]),
    }
    if zone == X_ZONE:
        out["note"] = "the X: the play starts here; no cards are played here"
        return out
    cell = state.zones[zone]
    out["offense"] = [p.to_json() for p in cell["offense"]]
    out["defense"] = [p.to_json() for p in cell["defense"]]
    out["totals"] = zone_line(state, zone)
    if seat in SEATS and state.outcome is None:
        # what each of the caller's cards would be worth here (position effect applied)
        worth = {}
        for player, cards in state.hands[seat].items():
            pos = state.positions[player]
            eff = r.effect(pos, zone)
            worth[player] = {
                "position": pos,
                "effect": {"S": f"strong x{r.strong_factor}", "W": f"weak /{r.weak_divisor}", "-": "none"}[eff],
                "cards": {
                    c.code: (f"{r.modify(c.lo, eff)}-{r.modify(c.hi, eff)}" if c.rolled else r.modify(c.lo, eff))
                    for c in cards
                },
            }
        out["your_cards_here"] = worth
    return out


def brawl_tools(rules: BrawlRules | None = None) -> list[ToolSpec]:
    """The action tools (plus one zone query) of brawl, described as ``rules`` has the game."""
    from gm.games.brawl.rules import REGION_NAMES, REGIONS, BrawlRules

    r = rules if rules is not None else BrawlRules()
    players = (
        f"your {len(r.offense)} players" if len(r.offense) == len(r.defense)
        else f"your players ({len(r.offense)} on offense, {len(r.defense)} on defense)"
    )
    mult = ", ".join(f"{REGION_NAMES[g]} {r.multipliers[g]}x" for g in REGIONS)
    longest = max(r.field_goal_odds)
    go = f"{r.go_cards} more card{'s' if r.go_cards > 1 else ''}"
    return [
        ToolSpec(
            "play_cards",
            f"Secretly lock this play's cards: one card from each of {players}, each into a different zone "
            f"(never BM, the X; yard multipliers {mult}). Both sides' cards are revealed together once both have locked.",
            PlayCardsArgs,
            "action",
            _play_cards,
            decisions=("placement",),
            produces=Placement.type,
        ),
        ToolSpec(
            "choose_fourth_down",
            f"Offense, when a series ends short of a first down ({r.first_down_yards} yards): punt ({r.punt_distance} yards), "
            f"try a field goal (kicks of up to {longest} yards: yards to the goal line + {r.field_goal_extra}), or go for it "
            f"(every player draws {go}, the series is rescored).",
            FourthDownArgs,
            "action",
            _fourth_down,
            decisions=("fourth_down",),
            produces=FourthDown.type,
        ),
        ToolSpec(
            "get_zone",
            "One zone (e.g. MM): its multiplier and neighbours, the revealed cards and totals, and what each of "
            "your players' cards would be worth there.",
            ZoneArgs,
            "query",
            _get_zone,
        ),
    ]
