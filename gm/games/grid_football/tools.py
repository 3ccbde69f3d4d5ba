"""Grid Football's action tools: one per decision a side makes, in the game's own words.

Argument names equal the fields of the action each tool makes (``call_play`` ->
:class:`PlayCall`), so an action and its tool call convert both ways
(:func:`gm.core.tools.call_for_action`).  Ranges here are the widest any ruleset
allows; the engine rejects what the current rules do not (play 4 in quarter 1,
lateral beyond the play's cap, numbers above ``number_max``) with a rule id and
the legal alternatives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from gm.core.tools import NoArgs, ToolArgs, ToolSpec, action_tool

from .actions import CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt

if TYPE_CHECKING:
    from gm.core.state import GameState


class CoinCallArgs(ToolArgs):
    call: Literal["heads", "tails"] = Field(description="heads or tails")


class KickChoiceArgs(ToolArgs):
    choice: Literal["kick", "receive"] = Field(description="kick (kick off) or receive (take the kickoff)")


class KickPickArgs(ToolArgs):
    position: Literal["left", "center", "right"] = Field(description="kick position: left, center or right")
    colour: Literal["yellow", "red", "green"] = Field(description="kick colour: yellow, red or green")


class PlayCallArgs(ToolArgs):
    play: int = Field(ge=1, le=9, description="play number: 1 Power/Sweep, 2 Interior Run, 3 Speed/Positioning, 4 Breakaway (from quarter 2)")
    colour: Literal["red", "black"] = Field(description="red (pass: air movement) or black (run: ground movement)")
    lateral: int | None = Field(
        default=None, ge=0, le=10, description="offense only: columns of lateral movement (play 1 and 3 up to 3, play 4 up to 2, play 2 none); null or 0 for none"
    )
    direction: Literal["left", "right"] | None = Field(
        default=None, description="offense only: lateral direction, left (toward column A) or right (toward column T)"
    )
    timing: Literal["before", "after"] | None = Field(
        default=None, description="offense only: lateral before (the default when null) or after the forward movement"
    )


class NumberPickArgs(ToolArgs):
    number: int = Field(ge=1, le=100, description="your secret number, 1-10")


class SquareArgs(ToolArgs):
    square: str = Field(pattern=r"^[A-Za-z][0-9]{1,2}$", description="a square as column letter + row, e.g. K20")


def _square(state: GameState[Any], seat: str | None, args: SquareArgs) -> dict[str, Any]:
    from .engine import GridFootballState, parse_square, sq

    assert isinstance(state, GridFootballState)
    col, row = parse_square(args.square)
    r = state.rules
    on_board = 0 <= col < r.columns and 1 <= row <= r.rows
    out: dict[str, Any] = {"square": args.square.upper(), "on_board": on_board}
    if not on_board:
        out["note"] = f"the board is columns A-{chr(ord('A') + r.columns - 1)}, rows 1-{r.rows}"
        return out
    if row <= r.low_goal_line:
        zone = "goal line" if row == r.low_goal_line else "end zone"
        owner = state.up_team
    elif row >= r.high_goal_line:
        zone = "goal line" if row == r.high_goal_line else "end zone"
        owner = "away" if state.up_team == "home" else "home"
    else:
        zone, owner = "field", None
    out.update(
        {
            "blocked": (col, row) in state.blocked,
            "ball": state.ball == (col, row),
            "zone": zone if owner is None else f"{zone} ({owner} defends)",
        }
    )
    if state.ball:
        out["ball_at"] = sq(state.ball)
    return out


def grid_football_tools() -> list[ToolSpec]:
    """The action tools (plus one square query) of Grid Football."""
    return [
        action_tool("call_coin_toss", "Call the coin toss: heads or tails (the winner chooses to kick or receive).",
                    CoinCallArgs, CoinCall, ("coin_call",)),
        action_tool("choose_kick_or_receive", "Toss winner (or, at halftime, the toss loser): choose to kick off or to receive.",
                    KickChoiceArgs, KickChoice, ("kick_choice",)),
        action_tool("pick_kick", "Secretly pick a kickoff or punt position (left/center/right) and colour (yellow/red/green); matches shorten the return.",
                    KickPickArgs, KickPick, ("kick_pick",)),
        action_tool("call_play", "Secretly lock a play (1-4) and colour (red pass / black run); the offense may add lateral columns, left/right, before/after.",
                    PlayCallArgs, PlayCall, ("play_call",)),
        action_tool("punt", "Offense on 4th down: punt instead of calling a play.", NoArgs, Punt, ("play_call",)),
        action_tool("pick_number", "Secretly pick a number 1-10 for a number check (kick return or colour match).",
                    NumberPickArgs, NumberPick, ("number_pick",)),
        ToolSpec("get_square", "What is on one square (e.g. K20): blocked, ball, end zone or field.", SquareArgs, "query", _square),
    ]
