"""Append-only transcript recording: the header first, then each entry as it happens.

A :class:`Recorder` writes through a *sink* (a function taking JSON lines): a file, or a session
store's transcript (:class:`gm.session.Session` records every game this way, whatever the front
end).  It keeps the transcript in memory too unless told not to (a long game on a server need not
hold its whole transcript), and writes the header only with the first entry.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm.transcript.format import (
    BoardEntry,
    BotMoveEntry,
    Header,
    LLMResponseEntry,
    NarrationEntry,
    PlayerEntry,
    RefereeEntry,
    RefereeInfo,
    SeedEntry,
    ToolCallEntry,
    ToolResultEntry,
    Transcript,
    UsageEntry,
    dumps_entry,
)

if TYPE_CHECKING:
    from gm.session import Session

#: where entries go: ``sink(lines, header)`` appends the lines, the header first if nothing is there yet
Sink = Callable[[Sequence[str], str], None]


def file_sink(path: str | Path) -> Sink:
    """A sink appending lines to ``path`` (flushed and synced: a killed game keeps every line)."""
    p = Path(path)

    def write(lines: Sequence[str], header: str) -> None:
        p.parent.mkdir(parents=True, exist_ok=True)
        with p.open("a", encoding="utf-8") as f:
            first = [header] if f.tell() == 0 else []
            f.write("".join(line + "\n" for line in (*first, *lines)))
            f.flush()
            os.fsync(f.fileno())

    return write


class Recorder:
    """Records a transcript entry by entry.

    ``path``: append to that file (``append=True`` continues a transcript already there, else it is
    started afresh); ``sink``: write through it instead; ``existing``: the lines already written
    (continue after them).  ``keep``: hold the whole transcript in memory (:attr:`transcript`)."""

    def __init__(
        self,
        header: Header,
        path: str | Path | None = None,
        *,
        append: bool = False,
        sink: Sink | None = None,
        existing: Sequence[str] = (),
        keep: bool = True,
    ) -> None:
        self.path = Path(path) if path else None
        if self.path is not None and sink is None:
            if append and self.path.exists():
                existing = [ln for ln in self.path.read_text(encoding="utf-8").split("\n") if ln.strip()]
            elif self.path.exists():
                self.path.unlink()
            sink = file_sink(self.path)
        self._sink = sink
        self.keep = keep
        self.transcript = Transcript(header=header)
        self._batch: list[str] | None = None
        self._calls = 0
        self._bot_moves: dict[str, int] = {}
        self._referee = (header.referee.kind, header.referee.model)
        self._written = bool(existing)
        if existing:
            old = Transcript.from_jsonl("\n".join(existing), str(self.path or "<transcript>"))
            if keep:
                self.transcript = old
            else:
                self.transcript = Transcript(header=old.header)
            self._calls = sum(1 for e in old.entries if e.type == "tool_call")
            for e in old.entries:
                if e.type == "bot_move":
                    self._bot_moves[e.seat] = self._bot_moves.get(e.seat, 0) + 1
                elif e.type == "referee":
                    self._referee = (e.kind, e.model)

    @property
    def header(self) -> Header:
        return self.transcript.header

    def _add(self, entry: Any) -> Any:
        if self.keep:
            self.transcript.entries.append(entry)
        self._written = True
        if self._batch is not None:
            self._batch.append(dumps_entry(entry))
        elif self._sink is not None:
            self._sink([dumps_entry(entry)], self.transcript.header.model_dump_json())
        return entry

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Entries added inside are written together, in one append, when it ends."""
        if self._batch is not None:  # already batching: the outer batch writes them
            yield
            return
        self._batch = []
        try:
            yield
        finally:
            lines, self._batch = self._batch, None
            if lines and self._sink is not None:
                self._sink(lines, self.transcript.header.model_dump_json())

    def referee(self, kind: str, model: str | None = None) -> None:
        """Who referees from here on: set in the header before anything was recorded, else noted
        with a ``referee`` entry when it changes (a game resumed under another referee)."""
        if (kind, model) == self._referee:
            return
        if not self._written:
            self.transcript.header.referee = RefereeInfo(kind=kind, model=model)
        else:
            self._add(RefereeEntry(kind=kind, model=model))
        self._referee = (kind, model)

    def player(self, seat: str, text: str) -> None:
        self._add(PlayerEntry(seat=seat, text=text))

    def tool_call(self, seat: str | None, tool: str, args: dict[str, Any] | str | None) -> str:
        self._calls += 1
        call_id = f"c{self._calls}"
        self._add(ToolCallEntry(id=call_id, seat=seat, tool=tool, args=args))
        return call_id

    def tool_result(self, call_id: str, result: dict[str, Any]) -> None:
        # stored as JSON data, exactly as it reads back from the file (tuples become lists)
        self._add(ToolResultEntry(id=call_id, result=json.loads(json.dumps(result, default=str))))

    def narration(self, text: str, seat: str | None = None, flags: list[str] | None = None) -> None:
        self._add(NarrationEntry(seat=seat, text=text, flags=flags or []))

    def board(self, text: str, seat: str | None = None) -> None:
        self._add(BoardEntry(seat=seat, text=text))

    def seed(self, seed: int, salt: str, commitment: str) -> None:
        self._add(SeedEntry(seed=seed, salt=salt, commitment=commitment))

    def sync_bot_moves(self, session: Session, *, final: bool = False) -> None:
        """Record the bots' moves that have become public since the last sync.  ``final``: the
        recording ends here, so a public move that still carries a secret (and the bot's moves
        after it) is written in its public form: nothing recorded depends on the secret, and a
        replay stands in for it (:class:`gm.transcript.replay.ReplayBot`)."""
        seen: dict[str, int] = {}
        blocked: set[str] = set()
        secret = session.state.secret_moves()
        bots = set(session.bot_seats)
        for i, (seat, text) in enumerate(session.log(None)):
            if seat not in bots or seat in blocked:
                continue
            if text == "locked" or (i in secret and not final):  # still a secret: nothing after it is recorded yet
                blocked.add(seat)
                continue
            seen[seat] = seen.get(seat, 0) + 1
            if seen[seat] > self._bot_moves.get(seat, 0):
                self._bot_moves[seat] = seen[seat]
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
