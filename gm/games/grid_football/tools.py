"""Grid Football's action tools: one per decision a side makes, in the game's own words.

Argument names equal the fields of the action each tool makes (``call_play`` ->
:class:`PlayCall`), so an action and its tool call convert both ways
(:func:`gm.core.tools.call_for_action`).  Descriptions and bounds are the session's ruleset's
(its plays, lateral caps, number range, punting downs: a schema says 1-10 where the rules do);
what the rules forbid in one situation only (play 4 in quarter 1, lateral beyond this play's
cap) the engine rejects with a rule id and the legal alternatives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from pydantic import Field, create_model

from gm.core.tools import NoArgs, ToolArgs, ToolSpec, action_tool
from gm.core.wording import ordinal

from .actions import CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt
from .rules import GridFootballRules

if TYPE_CHECKING:
    from gm.core.state import GameState


class CoinCallArgs(ToolArgs):
    call: Literal["heads", "tails"] = Field(description="heads or tails")


class KickChoiceArgs(ToolArgs):
    choice: Literal["kick", "receive"] = Field(description="kick (kick off) or receive (take the kickoff)")


class KickPickArgs(ToolArgs):
    position: Literal["left", "center", "right"] = Field(description="kick position")
    colour: Literal["yellow", "red", "green"] = Field(description="kick colour")


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


def _runs(numbers: list[int]) -> str:
    """``[1, 2, 3, 5]`` -> ``1-3, 5``."""
    out: list[str] = []
    for n in sorted(numbers):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _descriptions(rules: GridFootballRules) -> dict[str, str]:
    """Every tool and argument description that depends on the ruleset, worded from it."""
    plays = dict(sorted(rules.plays.items()))
    caps: dict[int, list[str]] = {}
    for n, spec in plays.items():
        caps.setdefault(spec.wrong.lateral, []).append(str(n))
    lateral = ", ".join(
        f"play {_and(ns)} up to {cap}" if cap else f"play {_and(ns)} none" for cap, ns in sorted(caps.items(), reverse=True)
    )
    last_col = chr(ord("A") + rules.columns - 1)
    punts = " or ".join(ordinal(d) for d in sorted(rules.punt_downs))
    return {
        "call_play": f"Secretly lock a play ({_runs(list(plays))}) and colour; the offense may add lateral movement.",
        "play": "play number: " + ", ".join(
            f"{n} {s.name}" + (f" (from quarter {s.unlock_quarter})" if s.unlock_quarter > 1 else "") for n, s in plays.items()
        ),
        "lateral": f"offense only: columns of lateral movement ({lateral}); null or 0 for none",
        "direction": f"offense only: lateral direction, left (toward column A) or right (toward column {last_col})",
        "punt": f"Offense on {punts} down: punt instead of calling a play.",
        "pick_number": f"Secretly pick a number 1-{rules.number_max} for a number check.",
        "number": f"your secret number, 1-{rules.number_max}",
    }


_DEFAULT = _descriptions(GridFootballRules())
_Side: TypeAlias = Literal["left", "right"] | None


def _bounds(rules: GridFootballRules) -> dict[str, int]:
    """The ranges of the tools' numbers under ``rules``: its plays, its largest lateral cap, its number range."""
    return {"play_min": min(rules.plays), "play_max": max(rules.plays),
            "lateral_max": max(p.wrong.lateral for p in rules.plays.values()), "number_max": rules.number_max}


_DEFAULT_BOUNDS = _bounds(GridFootballRules())


class PlayCallArgs(ToolArgs):
    play: int = Field(ge=_DEFAULT_BOUNDS["play_min"], le=_DEFAULT_BOUNDS["play_max"], description=_DEFAULT["play"])
    colour: Literal["red", "black"] = Field(description="red (pass: air movement) or black (run: ground movement)")
    lateral: int | None = Field(default=None, ge=0, le=_DEFAULT_BOUNDS["lateral_max"], description=_DEFAULT["lateral"])
    direction: _Side = Field(default=None, description=_DEFAULT["direction"])
    timing: Literal["before", "after"] | None = Field(
        default=None, description="offense only: lateral before (the default when null) or after the forward movement"
    )


class NumberPickArgs(ToolArgs):
    number: int = Field(ge=1, le=_DEFAULT_BOUNDS["number_max"], description=_DEFAULT["number"])


_CUSTOM: dict[tuple[tuple[str, Any], ...], list[ToolSpec]] = {}


def grid_football_tools(rules: GridFootballRules | None = None) -> list[ToolSpec]:
    """The action tools (plus one square query) of Grid Football, described as ``rules`` (default:
    the default ruleset) has the game: its plays, lateral caps, number range and punting downs, in
    the words and in the argument ranges.  What the rules forbid only in some situations (a play
    not yet unlocked, a lateral beyond one play's cap) is answered by the engine, with the rule id
    and the legal options."""
    d = _DEFAULT if rules is None else _descriptions(rules)
    b = _DEFAULT_BOUNDS if rules is None else _bounds(rules)
    key = (*sorted(d.items()), *sorted(b.items()))
    cached = _CUSTOM.get(key)
    if cached is not None:
        return cached
    play_args: type[ToolArgs] = PlayCallArgs
    number_args: type[ToolArgs] = NumberPickArgs
    if d != _DEFAULT or b != _DEFAULT_BOUNDS:
        play_args = create_model(
            "PlayCallArgs",
            __base__=PlayCallArgs,
            play=(int, Field(ge=b["play_min"], le=b["play_max"], description=d["play"])),
            lateral=(int | None, Field(default=None, ge=0, le=b["lateral_max"], description=d["lateral"])),
            direction=(_Side, Field(default=None, description=d["direction"])),
        )
        number_args = create_model("NumberPickArgs", __base__=NumberPickArgs,
                                   number=(int, Field(ge=1, le=b["number_max"], description=d["number"])))
    tools = [
        action_tool("call_coin_toss", "Call the coin toss: heads or tails.",
                    CoinCallArgs, CoinCall, ("coin_call",)),
        action_tool("choose_kick_or_receive", "Toss winner (at halftime the toss loser): kick off or receive.",
                    KickChoiceArgs, KickChoice, ("kick_choice",)),
        action_tool("pick_kick", "Secretly pick a kickoff or punt position and colour; matches shorten the return.",
                    KickPickArgs, KickPick, ("kick_pick",)),
        action_tool("call_play", d["call_play"], play_args, PlayCall, ("play_call",)),
        *([action_tool("punt", d["punt"], NoArgs, Punt, ("play_call",))] if rules is None or rules.punt_downs else []),
        action_tool("pick_number", d["pick_number"], number_args, NumberPick, ("number_pick",)),
        ToolSpec("get_square", "What is on a square (e.g. K20): blocked, ball, end zone, field.", SquareArgs, "query", _square),
    ]  # fmt: skip
    if len(_CUSTOM) >= 64:
        _CUSTOM.clear()
    _CUSTOM[key] = tools
    return tools
