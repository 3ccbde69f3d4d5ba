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
from gm.games.quarterback.rules import QuarterbackRules

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


def _squares(k: int) -> str:
    return f"{k} square{'s' if k != 1 else ''}"


def action_tools(rules: QuarterbackRules | None = None) -> list[ToolSpec]:
    """The action tools, described as ``rules`` has the game; each names the decisions
    (``state.decision(seat)``) it answers."""
    r = rules or QuarterbackRules()
    qb = f"the Quarterback {r.triple_moves}" + (
        f" ({r.triple_moves + r.quarterback_extra} when it starts over the line)" if r.quarterback_extra else ""
    )
    moves = (
        f"a Single {_squares(r.single_moves)}, a Double up to {r.double_moves}, a Triple up to {r.triple_moves}, {qb}"
        if r.single_moves == 1
        else f"a Single up to {r.single_moves}, a Double up to {r.double_moves}, a Triple up to {r.triple_moves}, {qb}"
    )
    last_row = r.field_rows
    attack = "two actions" if r.attack_actions == 2 else f"{r.attack_actions} action{'s' if r.attack_actions != 1 else ''}"
    defense = "" if r.defense_moves == r.attack_actions else (
        f"; the defender moves up to {r.defense_moves} piece{'s' if r.defense_moves != 1 else ''}")  # fmt: skip
    return [
        ToolSpec(
            "move_piece",
            f"Move one of your pieces square by square (any direction): {moves}. Moving into a weaker opposition piece "
            "pushes it; a defender moving onto (or a Single next to) the ball carrier may tackle it.",
            MovePieceArgs,
            "action",
            _move,
            decisions=("attacker_turn", "defender_turn"),
            produces=MovePiece.type,
            made={},  # (the action is a function of the arguments alone: kept by them)
        ),
        ToolSpec(
            "pass_ball",
            "Attacker only: the ball carrier passes along a row, column or diagonal over empty squares, to one of your "
            "pieces or an empty square. Only the Quarterback passes forward, and only from behind the line (row 0 or "
            f"lower){'' if last_row == 12 else f'; rows run up to {last_row}'}.",
            PassBallArgs,
            "action",
            _pass,
            decisions=("attacker_turn",),
            produces=PassBall.type,
            made={},
        ),
        ToolSpec(
            "end_turn",
            f"End your turn now (you may do less than your {attack}{defense}).",
            NoArgs,
            "action",
            _end,
            decisions=("attacker_turn", "defender_turn"),
            produces=EndTurn.type,
            made={},
        ),
    ]
