"""GridMaster4's tools: the ``place_tile`` action and a ``get_cell`` query.

The generic queries (board, status, legal actions, rules) come from the core.
``place_tile``'s arguments equal the fields of :class:`Place`, so an action and its
tool call convert both ways (:func:`gm.core.tools.call_for_action`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field, create_model

from gm.core.actions import Action
from gm.core.errors import IllegalActionError, InvalidActionError
from gm.core.tools import ToolArgs, ToolSpec
from gm.games.gridmaster4.actions import Place, parse_action
from gm.games.gridmaster4.grid import CANONICAL
from gm.games.gridmaster4.rules import GridMaster4Rules

if TYPE_CHECKING:
    from gm.core.state import GameState

CELL_HELP = "a cell: column letter + row number, e.g. K12 (A1 is the bottom-left cell)"


_NUMBER_HELP = "your tile number (1-{tiles}); optional: if given it must be your next tile"


class PlaceTileArgs(ToolArgs):
    cell: str = Field(max_length=40, description=CELL_HELP)
    number: int | None = Field(
        default=None, ge=1, le=GridMaster4Rules().tiles, description=_NUMBER_HELP.format(tiles=GridMaster4Rules().tiles)
    )


class CellArgs(ToolArgs):
    cell: str = Field(max_length=40, description=CELL_HELP)


def _read_cell(text: str) -> Place:
    """The cell named in ``text`` (tolerant: ``k12``, ``K 12``, ``12K``) as a placement."""
    action = parse_action(text)
    assert isinstance(action, Place)
    return action


def _place_tile(state: GameState[Any], seat: str, args: PlaceTileArgs) -> Action:
    if args.cell in CANONICAL:  # a cell as the game writes it (what parse_action reads as that cell alone)
        return Place(args.cell, args.number)
    where = _read_cell(args.cell)
    return Place(where.cell, args.number if args.number is not None else where.number)


def _get_cell(state: GameState[Any], seat: str | None, args: CellArgs) -> dict[str, Any]:
    from gm.games.gridmaster4.engine import GridMaster4State

    assert isinstance(state, GridMaster4State)
    cell = _read_cell(args.cell).cell
    i = state.geo.index.get(cell)
    r = state.rules
    if i is None:
        return {"cell": cell, "on_board": False, "note": f"the board is A1 to {state.geo.names[-1]} ({r.columns}x{r.rows})"}
    tile = state.tile(i)
    out: dict[str, Any] = {
        "cell": cell,
        "on_board": True,
        "tile": {"seat": tile[0], "number": tile[1], "active": tile[2]} if tile else None,
        "one_move_away": [state.geo.names[u] for u in state.geo.reach[i]],
    }
    if seat is not None and seat in state.to_act():
        try:
            state.validate(seat, Place(cell))
            out["you_can_place_here"] = True
        except (IllegalActionError, InvalidActionError) as exc:
            out["you_can_place_here"] = False
            out["why_not"] = exc.message
    return out


def gridmaster4_tools(rules: GridMaster4Rules | None = None) -> list[ToolSpec]:
    """The action tool (plus one cell query) of GridMaster4, described as ``rules`` (default: the default
    ruleset) has the game: its jump lengths and its tile numbers."""
    r = rules if rules is not None else GridMaster4Rules()
    args: type[ToolArgs] = PlaceTileArgs
    if r.tiles != GridMaster4Rules().tiles:
        args = create_model("PlaceTileArgs", __base__=PlaceTileArgs, number=(int | None, Field(
            default=None, ge=1, le=r.tiles, description=_NUMBER_HELP.format(tiles=r.tiles))))
    return [
        ToolSpec(
            "place_tile",
            "Place your next tile on a cell: on your first turn and in a free placement any open cell, otherwise an "
            f"open cell exactly {r.orthogonal} cells up/down/left/right or exactly {r.diagonal} cells diagonally from one "
            "of your active tiles.",
            args,
            "action",
            _place_tile,
            decisions=("place_tile",),
            produces=Place.type,
            made={},  # (the action is a function of the arguments alone: kept by them)
        ),
        ToolSpec(
            "get_cell",
            "What is on one cell (e.g. K12): the tile (colour, number, active or not), the cells one move away, "
            "and whether you may place your tile there now.",
            CellArgs,
            "query",
            _get_cell,
        ),
    ]
