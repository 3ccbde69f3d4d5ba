"""Throwing by pointing (``Game.move_builder``): click the shape on the board.  gm's page needs no code
of this game's: the builder says which part is chosen where (gm.core.movebuilder)."""

from __future__ import annotations

from typing import Any

from gm.core.movebuilder import Part, builder, form, idle, where
from gm_rps.game import RpsState, Throw


def move_builder(state: RpsState, seat: str | None = None) -> dict[str, Any]:
    done = idle(state, seat)
    if done is not None:
        return done
    shapes = state.rules.shapes
    throws = [a for a in state.legal_actions(seat or "") if isinstance(a, Throw)]
    part = Part("shape", "Shape", input="square", where={s: where(shapes.index(s), 1) for s in shapes})
    return builder(seat, "throw", [form("throw", "Throw", [part], [[a.shape, str(a)] for a in throws])],
                   prompt="Throw a shape in secret: click it", examples=state.game.move_examples)
