"""Referees: turn a player's words into tool calls and tool results into narration.

Every referee (offline, OpenAI, Anthropic, replay) implements :class:`Referee`
and talks to the game only through ``session.call`` – the one tool registry –
so all of them produce the same kind of transcript.
"""

from gm.referee.base import Referee, RefereeTurn, TextSink, ToolCallRecord, handle_streaming

__all__ = ["Referee", "RefereeTurn", "TextSink", "ToolCallRecord", "handle_streaming"]
