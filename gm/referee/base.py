"""The referee interface."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from gm.session import Session

Control = Literal["quit", "undo"]


@dataclass
class ToolCallRecord:
    """One tool call made during a referee turn, with the engine's result."""

    tool: str
    args: dict[str, Any]
    seat: str | None
    result: dict[str, Any]

    @property
    def ok(self) -> bool:
        return bool(self.result.get("ok"))


@dataclass
class RefereeTurn:
    """What a referee did with one player message."""

    seat: str
    text: str
    calls: list[ToolCallRecord] = field(default_factory=list)
    narration: str = ""
    #: engine-rendered board to print (never text the model typed)
    board: str | None = None
    control: Control | None = None
    flags: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        """Whether an action tool call in this turn was accepted."""
        return any(c.ok and c.result.get("kind") == "action" for c in self.calls)


class Referee(Protocol):
    """Reads a player's message and acts on the session through tool calls only."""

    kind: str
    model: str | None

    def handle(self, session: Session, seat: str, text: str) -> RefereeTurn:
        """Handle one message from ``seat`` through ``session.call``; add the player's text and the
        narration to ``session.recorder`` (the session records the calls and their results)."""
        ...
