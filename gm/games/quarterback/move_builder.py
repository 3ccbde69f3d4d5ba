"""Quarter Back moves by pointing (``Game.move_builder``): click one of your pieces, then a lit square
it may reach (and, when several routes lead there, choose the route); click a lit square to pass the
ball to; or end the turn - from the engine's own list of legal actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.movebuilder import Part, builder, for_the_mover, form, key, where

if TYPE_CHECKING:
    from gm.games.quarterback.engine import QuarterbackState

PROMPTS = {"attacker_turn": "Your turn (attack): move a piece, pass, or end the turn",
           "defender_turn": "Your turn (defence): move a piece or end the turn"}


@for_the_mover
def move_builder(state: QuarterbackState, seat: str) -> dict[str, Any]:
    """Forms: ``move_piece`` (piece, square, route), ``pass_ball`` (square) and ``end_turn``."""
    from gm.games.quarterback.actions import EndTurn, MovePiece, PassBall
    from gm.games.quarterback.rules import KIND_NAMES, parse_square

    legal = list(state.legal_actions(seat))
    squares: dict[str, dict[str, Any]] = {}

    def spot(name: str) -> str:
        if name not in squares:
            col, row = parse_square(name)
            squares[name] = where(col, row)
        return name

    moves = [a for a in legal if isinstance(a, MovePiece)]
    forms: list[dict[str, Any]] = []
    if moves:
        pieces = {a.piece for a in moves}
        at = {pid: state.pos[(seat, pid)] for pid in pieces}
        piece = Part("piece", "Piece", input="piece",
                     labels={p: f"{p} ({KIND_NAMES[p[0]]})" for p in pieces},
                     where={p: where(at[p][0], at[p][1], ref=f"{seat}:{p}") for p in pieces})
        rows = [[a.piece, spot(a.to), list(a.via), str(a)] for a in moves]
        routes = {key(list(a.via)): " → ".join(a.path) for a in moves}
        parts = [piece, Part("to", "Square", input="square", where=squares), Part("via", "Route", labels=routes)]
        forms.append(form("move_piece", "Move a piece", parts, rows))
    passes = [a for a in legal if isinstance(a, PassBall)]
    if passes:
        targets: dict[str, dict[str, Any]] = {}
        for a in passes:
            col, row = parse_square(a.to)
            targets[a.to] = where(col, row)
        forms.append(form("pass_ball", "Pass the ball", [Part("to", "Pass to", input="square", where=targets)],
                          [[a.to, str(a)] for a in passes]))
    if any(isinstance(a, EndTurn) for a in legal):
        forms.append(form("end_turn", "End the turn", [], [["end"]]))
    decision = str(state.decision(seat))
    return builder(seat, decision, forms, prompt=PROMPTS.get(decision), examples=state.game.move_examples)
