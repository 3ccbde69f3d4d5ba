"""Quarter Back's action tools: ``move_piece``, ``pass_ball``, ``end_turn``.

Argument names equal the fields of the action each tool makes (``move_piece`` ->
:class:`MovePiece`), so an action and its tool call convert both ways.  The
generic queries (board, status, legal actions, rules) come from the core.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from gm.core.actions import Action
from gm.core.state import GameState
from gm.core.tools import NoArgs, ToolArgs, ToolSpec
from gm.games.quarterback.actions import EndTurn, MovePiece, PassBall

_SQUARE = r"^\s*[A-Za-z]\s*-?\d{1,2}\s*$"


class MovePieceArgs(ToolArgs):
    piece: str = Field(
        pattern=r"^\s*([Qq][Bb]|[SsDdTt][1-9])\s*$",
        description="your piece: QB (the Quarterback) or S1.., D1.., T1.. (Single, Double, Triple)",
    )
    to: str = Field(pattern=_SQUARE, description="the square it ends on: column letter + row, e.g. E5 (rows behind row 0 are -1, -2)")
    via: list[str] | None = Field(
        default=None,
        description="optional squares on the way, in order (each leg a straight line); without it the engine "
        "takes the straight route, or else the first legal one",
    )


class PassBallArgs(ToolArgs):
    to: str = Field(pattern=_SQUARE, description="the square the ball goes to: a receiver's square or an empty one, e.g. E7")


def _move(state: GameState[Any], seat: str, args: MovePieceArgs) -> Action:
    return MovePiece(args.piece, args.to, tuple(args.via or ()))


def _pass(state: GameState[Any], seat: str, args: PassBallArgs) -> Action:
    return PassBall(args.to)


def _end(state: GameState[Any], seat: str, args: NoArgs) -> Action:
    return EndTurn()


def action_tools() -> list[ToolSpec]:
    """The action tools; each names the decisions (``state.decision(seat)``) it answers."""
    return [
        ToolSpec(
            "move_piece",
            "Move one of your pieces square by square (any direction): a Single 1 square, a Double up to 2, a Triple up "
            "to 3, the Quarterback 3 (4 when it starts over the line). Moving into a weaker opposition piece pushes it; "
            "a defender moving onto (or a Single next to) the ball carrier may tackle it.",
            MovePieceArgs,
            "action",
            _move,
            decisions=("attacker_turn", "defender_turn"),
            produces=MovePiece.type,
        ),
        ToolSpec(
            "pass_ball",
            "Attacker only: the ball carrier passes along a row, column or diagonal over empty squares, to one of your "
            "pieces or an empty square. Only the Quarterback passes forward, and only from behind the line (row 0 or lower).",
            PassBallArgs,
            "action",
            _pass,
            decisions=("attacker_turn",),
            produces=PassBall.type,
        ),
        ToolSpec(
            "end_turn",
            "End your turn now (you may do less than your two actions).",
            NoArgs,
            "action",
            _end,
            decisions=("attacker_turn", "defender_turn"),
            produces=EndTurn.type,
        ),
    ]
