"""Tool specifications: how a game exposes its decisions and queries as function tools.

A game lists its tools in ``Game.tools()``: each is a :class:`ToolSpec` with a
name, a one-line description (also the LLM-facing tool description), a pydantic
argument model (``extra="forbid"``) and a handler.  An *action* tool's handler
turns validated arguments into one of the game's :class:`Action` values, which
the session then applies for the calling seat; a *query* tool's handler returns
JSON-ready data computed from what that seat may see.

The generic queries every game gets (board, status, legal actions, rules) live
here, so games only write their action tools.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from gm.core.actions import Action

if TYPE_CHECKING:
    from gm.core.state import GameState


class ToolArgs(BaseModel):
    """Base of every tool's argument model: unknown arguments are errors."""

    model_config = ConfigDict(extra="forbid")


class NoArgs(ToolArgs):
    """No arguments."""


ActionHandler = Callable[["GameState[Any]", str, Any], Action]
QueryHandler = Callable[["GameState[Any]", "str | None", Any], dict[str, Any]]


@dataclass(frozen=True)
class ToolSpec:
    """One tool: ``kind`` is ``action`` (makes a decision for the calling seat) or ``query``."""

    name: str
    description: str
    args: type[ToolArgs]
    kind: Literal["action", "query"]
    handler: Callable[..., Any]
    #: for action tools: the engine decision kinds (``state.decision(seat)``) this tool answers
    decisions: tuple[str, ...] = ()


class BoardArgs(ToolArgs):
    full: bool = Field(default=False, description="true for the whole board, false for a compact window around the ball")


class RulesArgs(ToolArgs):
    topic: str | None = Field(default=None, description="a rule id (e.g. GF-BLOCK) or a word to search for; empty lists all rule ids")


def _board(state: GameState[Any], seat: str | None, args: BoardArgs) -> dict[str, Any]:
    g = state.game
    return {"board": g.render(state, seat, full=args.full), "status": g.status(state, seat)}


def _status(state: GameState[Any], seat: str | None, args: NoArgs) -> dict[str, Any]:
    return {"status": state.game.status(state, seat), "state": state.view(seat)}


def _legal(state: GameState[Any], seat: str | None, args: NoArgs) -> dict[str, Any]:
    if seat is None:
        return {"to_act": list(state.to_act()), "legal": []}
    return {"to_act": list(state.to_act()), "legal": [str(a) for a in state.legal_actions(seat)]}


def _rules(state: GameState[Any], seat: str | None, args: RulesArgs) -> dict[str, Any]:
    index = state.game.rules_index
    if not args.topic:
        return {"rules": dict(index)}
    key = args.topic.strip()
    if key.upper() in index:
        return {"rules": {key.upper(): index[key.upper()]}}
    words = key.lower().split()
    hits = {rid: text for rid, text in index.items() if all(w in f"{rid} {text}".lower() for w in words)}
    return {"rules": hits}


def generic_queries() -> list[ToolSpec]:
    """The query tools every game has."""
    return [
        ToolSpec("get_board", "Show the board as ASCII (a window around the ball, or the full board) with the status line.", BoardArgs, "query", _board),
        ToolSpec("get_status", "Game status: clock, score, down and distance, whose move, and the last revealed result.", NoArgs, "query", _status),
        ToolSpec("legal_actions", "What the calling side may do right now, as action texts.", NoArgs, "query", _legal),
        ToolSpec("get_rules", "Look up rules by rule id or keyword (e.g. 'blocked', 'GF-PLAY4-LOCK').", RulesArgs, "query", _rules),
    ]
