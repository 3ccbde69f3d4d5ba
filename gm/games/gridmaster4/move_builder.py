"""GridMaster4 moves by pointing (``Game.move_builder``): click one of the cells your next tile may go
on (the engine's legal placements, lit on the board)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.movebuilder import Part, builder, for_the_mover, form, where

if TYPE_CHECKING:
    from gm.games.gridmaster4.engine import GridMaster4State


@for_the_mover
def move_builder(state: GridMaster4State, seat: str) -> dict[str, Any]:
    """The seat's placement as one ``square`` part: the cells it may place its next tile on."""
    cols = state.rules.columns
    index = state.geo.index
    rows = []
    spots: dict[str, dict[str, Any]] = {}
    from gm.games.gridmaster4.actions import Place

    for action in state.legal_actions(seat):
        assert isinstance(action, Place)
        i = index[action.cell]
        spots[action.cell] = where(i % cols, i // cols + 1)  # as board_json draws the cell
        rows.append([action.cell, str(action)])
    tile = state.next_tile(seat)
    part = Part("cell", "Cell", input="square", where=spots)
    return builder(seat, str(state.decision(seat)), [form("place_tile", f"Place tile {tile}", [part], rows)],
                   prompt=f"Place your tile {tile}: click a lit cell", examples=state.game.move_examples)
