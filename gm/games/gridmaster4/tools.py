"""GridMaster4's action tool: ``place_tile``.  The generic queries come from the core."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from gm.core.actions import Action
from gm.core.state import GameState
from gm.core.tools import ToolArgs, ToolSpec
from gm.games.gridmaster4.actions import Place, parse_action


class PlaceTileArgs(ToolArgs):
    cell: str = Field(description="the cell: column letter and row number, e.g. K12 (A1 is bottom-left)")
    number: int | None = Field(
        default=None, ge=1, description="the tile number; optional, it must be your next tile if given"
    )


def _place_tile(state: GameState[Any], seat: str, args: PlaceTileArgs) -> Action:
    action = parse_action(args.cell)  # tolerant: "k12", "K 12", "12K"
    assert isinstance(action, Place)
    number = args.number if args.number is not None else action.number
    return Place(action.cell, number)


def action_tools() -> list[ToolSpec]:
    return [
        ToolSpec(
            "place_tile",
            "Place your next tile on a cell: on your first turn and in a free placement any open cell, "
            "otherwise an open cell exactly 3 cells up/down/left/right or 2 cells diagonally from one of "
            "your active tiles.",
            PlaceTileArgs,
            "action",
            _place_tile,
            decisions=("place_tile",),
        )
    ]
