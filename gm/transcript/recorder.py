"""Append-only transcript recording: the header first, then each entry as it happens."""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm.transcript.format import (
    BoardEntry,
    BotMoveEntry,
    Header,
    LLMResponseEntry,
    NarrationEntry,
    PlayerEntry,
    ToolCallEntry,
    ToolResultEntry,
    Transcript,
    UsageEntry,
    dumps_entry,
)

if TYPE_CHECKING:
    from gm.session import Session


class Recorder:
    """Collects a transcript in memory and, with a path, appends every entry to disk at once
    (flushed, so a killed game keeps everything up to its last line)."""

    def __init__(self, header: Header, path: str | Path | None = None, *, append: bool = False) -> None:
        self.transcript = Transcript(header=header)
        self.path = Path(path) if path else None
        self._ids = itertools.count(1)
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if append and self.path.exists():
                old = Transcript.load(self.path)
                self.transcript = old
                self._ids = itertools.count(1 + sum(1 for e in old.entries if e.type == "tool_call"))
            else:
                self.path.write_text(header.model_dump_json() + "\n", encoding="utf-8")

    def _add(self, entry: Any) -> Any:
        self.transcript.entries.append(entry)
        if self.path:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(dumps_entry(entry) + "\n")
                f.flush()
                os.fsync(f.fileno())
        return entry

    def player(self, seat: str, text: str) -> None:
        self._add(PlayerEntry(seat=seat, text=text))

    def tool_call(self, seat: str | None, tool: str, args: dict[str, Any] | str | None) -> str:
        call_id = f"c{next(self._ids)}"
        self._add(ToolCallEntry(id=call_id, seat=seat, tool=tool, args=args))
        return call_id

    def tool_result(self, call_id: str, result: dict[str, Any]) -> None:
        # stored as JSON data, exactly as it reads back from the file (tuples become lists)
        self._add(ToolResultEntry(id=call_id, result=json.loads(json.dumps(result, default=str))))

    def narration(self, text: str, seat: str | None = None, flags: list[str] | None = None) -> None:
        self._add(NarrationEntry(seat=seat, text=text, flags=flags or []))

    def board(self, text: str, seat: str | None = None) -> None:
        self._add(BoardEntry(seat=seat, text=text))

    def sync_bot_moves(self, session: Session, *, final: bool = False) -> None:
        """Record the bots' moves that have become public since the last sync.  ``final``: the
        recording ends here, so a public move that still carries a secret (and the bot's moves
        after it) is written in its public form: nothing recorded depends on the secret, and a
        replay stands in for it (:class:`gm.transcript.replay.ReplayBot`)."""
        done: dict[str, int] = {}
        for e in self.transcript.entries:
            if e.type == "bot_move":
                done[e.seat] = done.get(e.seat, 0) + 1
        seen: dict[str, int] = {}
        blocked: set[str] = set()
        secret = session.state.secret_moves()
        for i, (seat, text) in enumerate(session.log(None)):
            if seat not in session.bot_seats or seat in blocked:
                continue
            if text == "locked" or (i in secret and not final):  # still a secret: nothing after it is recorded yet
                blocked.add(seat)
                continue
            seen[seat] = seen.get(seat, 0) + 1
            if seen[seat] > done.get(seat, 0):
                self._add(BotMoveEntry(seat=seat, action=text))

    def llm_response(self, provider: str, response: dict[str, Any]) -> None:
        self._add(LLMResponseEntry(provider=provider, response=response))

    def usage(
        self,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        cache_read_input_tokens: int | None = None,
        cache_creation_input_tokens: int | None = None,
    ) -> None:
        self._add(UsageEntry(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cache_read_input_tokens=cache_read_input_tokens,
            cache_creation_input_tokens=cache_creation_input_tokens,
        ))
