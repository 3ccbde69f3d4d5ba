"""Chess-Football action tools: one per kind of decision, in the game's own words.

Argument names equal the fields of the action each tool makes (``move_piece`` ->
:class:`Move`), so actions and tool calls convert both ways
(:func:`gm.core.tools.call_for_action`).  The engine rejects what the rules do not allow
now with a rule id and the legal alternatives.  One query is game-specific:
``piece_options`` lists what one of your pieces may do (the full legal list of a turn is
long).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, create_model

from gm.core.errors import InvalidActionError
from gm.core.tools import NoArgs, ToolArgs, ToolSpec, action_tool

from .actions import Ability, BallChoice, CaptainPick, CoinCall, Done, FourthDown, Move, Pass, Plan, PlayAction

if TYPE_CHECKING:
    from gm.core.state import GameState

PIECE = r"^[A-Za-z]{2}[0-9]?$"
SQUARE = r"^[A-Za-z][0-9]{1,2}$"
Position = Literal["C", "NW", "NE", "SW", "SE"]
OffenseRole = Literal["scrambler", "deep_threat", "lead_blocker", "lineman"]
DefenseRole = Literal["safety", "nickelback", "rusher"]


class CaptainArgs(ToolArgs):
    offense: OffenseRole = Field(description="your offensive captain: scrambler (QB), deep_threat (Fast), lead_blocker (Strong) or lineman (Heavy)")
    defense: DefenseRole = Field(description="your defensive captain: safety (Fast), nickelback (Strong) or rusher (Heavy)")


class CoinArgs(ToolArgs):
    call: Literal["heads", "tails"] = Field(description="heads or tails")


class FourthArgs(ToolArgs):
    choice: Literal["punt", "go"] = Field(description="punt (opponent starts at its square 8) or go (go for it: fail = turnover at the spot)")


class PlanArgs(ToolArgs):
    rows: list[str] = Field(
        max_length=20,
        description="up to 7 rows in order, each one piece action, e.g. ['LB to H14 C', 'HV1 push HV3', 'FA1 to C20 NW', "
        "'QB pass to FA1']; movement order captain, heavy, strong, fast, QB; [] = everybody holds",
    )


class MoveArgs(ToolArgs):
    piece: str = Field(pattern=PIECE, description="your piece id, e.g. FA1, QB, SF")
    to: str = Field(pattern=SQUARE, description="destination square, column letter + row, e.g. H20")
    position: Position | None = Field(default=None, description="position in the square: C (default), NW, NE, SW or SE; "
                                      "a defender on the ball carrier's position tackles it")
    rush: bool | None = Field(default=None, description="Speed Rush: pass through squares with opponents (not Heavies), costs 1")
    route: bool | None = Field(default=None, description="Route Running (Deep Threat): no direction-change cost")


class AbilityArgs(ToolArgs):
    piece: str = Field(pattern=PIECE, description="your piece using the ability")
    ability: Literal["push", "chop_block", "chip_block", "retreat", "engage", "react", "juke", "jam", "seal", "impact", "anchor"] = Field(
        description="push/chop_block/engage/impact: an adjacent opponent; chip_block/anchor: an adjacent Heavy teammate; "
        "retreat: a square toward your QB; react/juke/jam/seal: no target")
    target: str | None = Field(default=None, pattern=PIECE, description="the target piece id (for targeted abilities)")
    to: str | None = Field(default=None, pattern=SQUARE, description="retreat only: the square")
    position: Position | None = Field(default=None, description="retreat only: the position in the square")


class PassArgs(ToolArgs):
    receiver: str = Field(pattern=PIECE, description="the eligible teammate to throw to")
    passer: str | None = Field(default=None, pattern=PIECE, description="the passer (default: the ball carrier)")


class PlayActionArgs(ToolArgs):
    partner: str = Field(pattern=PIECE, description="the adjacent non-Heavy teammate the QB fakes with")
    holder: str | None = Field(default=None, pattern=PIECE,
                               description="who secretly keeps the ball: the QB (a fake) or the partner (a hand-off); "
                               "default: the QB keeps it")


class HolderArgs(ToolArgs):
    holder: str = Field(pattern=PIECE, description="which of the play-action pair holds the hidden ball")


class PieceArgs(ToolArgs):
    piece: str = Field(pattern=PIECE, description="one of your pieces")


def _plan(state: GameState[Any], seat: str, args: Any) -> Plan:
    return Plan(tuple(args.rows))


def _piece_options(state: GameState[Any], seat: str | None, args: PieceArgs) -> dict[str, Any]:
    from .engine import ChessFootballState, Decision
    from .options import piece_options

    assert isinstance(state, ChessFootballState)
    f = state.field
    pid = args.piece.upper()
    if seat is None or f is None:
        raise InvalidActionError("ask for one of your own pieces during a down", rule="CF-TEAM", input=args.piece)
    p = f.pieces.get(pid)
    if p is None or p.team != seat:
        mine = sorted(q.id for q in f.team_pieces(seat))
        raise InvalidActionError("not one of your pieces on the field", rule="CF-TEAM", input=args.piece, legal=mine)
    if state.decision(seat) == Decision.SNAP_PLAN:
        board = state.plan_board(seat)
        opts = piece_options(board, seat, pid, plan=True)
        left = board.mp.get(pid, 0)
        note = "snap plan row options (planned from the board at the snap)"
    elif state.decision(seat) == Decision.TURN:
        opts = piece_options(f, seat, pid)
        left = f.mp.get(pid, 0)
        note = "options now"
    else:
        opts, left, note = [], 0, "nothing to do for this piece now"
    return {"piece": pid, "square": f"{chr(ord('A') + p.sq[0])}{p.sq[1]}", "position": p.pos, "movement_left": left,
            "note": note, "options": [str(a) for a in opts]}


def _captain_args(rules: Any) -> type[ToolArgs]:
    """The captain pick's arguments: the roles ``rules`` has, by side."""
    roles = {side: [n for n, c in rules.captains.items() if c.side == side] for side in ("offense", "defense")}

    def desc(side: str) -> str:
        names = ", ".join(f"{n} ({rules.captains[n].base})" for n in roles[side])
        return f"your {side} captain: {names}"

    fields: dict[str, Any] = {
        side: (Literal[tuple(roles[side])], Field(description=desc(side)))
        for side in ("offense", "defense")
    }
    return create_model("CaptainArgs", __base__=ToolArgs, **fields)


def chess_football_tools(rules: Any = None) -> list[ToolSpec]:
    """The action tools (plus the piece_options query) of the Chess-Football Hybrid, described as ``rules`` has it."""
    from .rules import ChessFootballRules

    r = rules if rules is not None else ChessFootballRules()
    order = ", ".join(r.movement_order)
    abilities = sorted({a for k in r.kinds.values() for a in k.abilities} | {a for c in r.captains.values() for a in c.abilities})
    standalone = [a for a in abilities if a not in ("speed_rush", "route_running", "pass", "play_action")]
    plan_args = create_model(
        "PlanArgs", __base__=ToolArgs,
        rows=(list[str], Field(max_length=r.plan_rows, description=f"up to {r.plan_rows} rows in the movement order ({order}), each "
                               "one piece action, e.g. ['LB to H14 C', 'HV1 push HV3', 'QB pass to FA1']; [] = all hold")),
    )
    pr = r.passing
    band = (f"{pr.incomplete_min} to {pr.complete_min - 1} incomplete; " if pr.incomplete_min < pr.complete_min - 1
            else f"{pr.incomplete_min} incomplete; " if pr.incomplete_min == pr.complete_min - 1 else "")
    pass_table = (f"1d{pr.die} + modifiers: {pr.complete_min} or more complete; {band}lower: intercepted with the Safety next "
                  f"to the receiver at {pr.safety_interception_max} or less, by another defender next to it at "
                  f"{pr.interception_max} or less, else incomplete")
    return [
        action_tool("choose_captains", "Secretly name your two captains, one for each side.",
                    _captain_args(r), CaptainPick, ("captains",)),
        action_tool("call_coin_toss", f"Call the coin toss: heads or tails (the winner has the first possession; {r.toss_caller} calls).",
                    CoinArgs, CoinCall, ("coin_call",)),
        action_tool("fourth_down", f"Offense on down {', '.join(map(str, r.punt_downs))}, before the snap: punt or go for it.",
                    FourthArgs, FourthDown, ("fourth_down",)),
        ToolSpec("submit_snap_plan", "Secretly lock your snap plan; both plans are revealed together, offense rows run "
                 "first.", plan_args, "action", _plan, ("snap_plan",),
                 Plan.type, made={}),  # (a plan is a function of its rows alone: kept by them)
        action_tool("move_piece", "Reaction turn: move one of your pieces to a square and a position (C, NW, NE, SW, SE).",
                    MoveArgs, Move, ("turn",)),
        action_tool("use_ability", f"Reaction turn: use a piece's ability ({', '.join(standalone)}).", AbilityArgs, Ability, ("turn",)),
        action_tool("pass_ball", f"Offense: declare a pass to an eligible receiver; it is thrown ({pass_table}) when the ball "
                    "moves, after the defense has moved.", PassArgs, Pass, ("turn",)),
        action_tool("play_action", "Offense: the QB fakes with an adjacent non-Heavy teammate; the ball is hidden from the "
                    "defense; name who secretly holds it.", PlayActionArgs, PlayAction, ("turn",)),
        action_tool("choose_ball_holder", "Offense under play action: secretly choose which of the pair holds the hidden ball.",
                    HolderArgs, BallChoice, ("turn",)),
        action_tool("end_turn", "End your side's part of the current turn (then the other side moves, or the ball moves).",
                    NoArgs, Done, ("turn",)),
        ToolSpec("piece_options", "What one of your pieces may do now (moves, abilities, passes), with its movement left.",
                 PieceArgs, "query", _piece_options),
    ]
