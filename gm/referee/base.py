"""The referee interface."""

from __future__ import annotations

from collections.abc import Callable
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
    #: replies of the model this message whose words the engine's account contradicted (a move
    #: claimed without an accepted call, a narration the check overruled)
    invented: int = 0

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


#: receives the narration as it is written, a piece at a time
TextSink = Callable[[str], None]


def handle_streaming(referee: Referee, session: Session, seat: str, text: str, on_text: TextSink) -> RefereeTurn:
    """``referee.handle`` with the narration handed to ``on_text`` as it is written: pieces whose
    concatenation is exactly ``turn.narration``.  A referee that streams (``streams = True``: the
    LLM referee) sends them as the model writes, checked as they come; any other sends the whole
    narration once, when the turn is done."""
    if getattr(referee, "streams", False):
        turn: RefereeTurn = referee.handle(session, seat, text, on_text=on_text)  # type: ignore[call-arg]
        return turn
    turn = referee.handle(session, seat, text)
    if turn.narration:
        on_text(turn.narration)
    return turn
