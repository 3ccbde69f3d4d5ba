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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm.core.errors import StateError
from gm.transcript.format import (
    SEALED,
    UNSEALED,
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
    is_marker,
    parse_entries,
)

if TYPE_CHECKING:
    from gm.session import Session

#: where entries go: ``sink(lines, header)`` appends the lines, the header first if nothing is there yet
Sink = Callable[[Sequence[str], str], None]


@dataclass(frozen=True, slots=True)
class Sealing:
    """How a recorder keeps a human's secret pick out of the transcript until it is revealed:
    ``active()`` says whether one is open now, ``seal``/``open`` encrypt and decrypt a batch of lines
    (the session's key; see :meth:`gm.session.Session.start_recording`)."""

    active: Callable[[], bool]
    seal: Callable[[list[str]], str]
    open: Callable[[str], list[str]]


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
    (continue after them); ``reader``: where the written lines can be read back (then nothing is
    held in memory and :attr:`transcript` reads them back on demand)."""

    def __init__(
        self,
        header: Header,
        path: str | Path | None = None,
        *,
        append: bool = False,
        sink: Sink | None = None,
        existing: Sequence[str] = (),
        reader: Callable[[], Sequence[str]] | None = None,
        sealing: Sealing | None = None,
    ) -> None:
        self.path = Path(path) if path else None
        if self.path is not None and sink is None:
            if append and self.path.exists():
                from gm.core.files import TRANSCRIPT_LIMIT, read_text

                existing = [ln for ln in read_text(self.path, TRANSCRIPT_LIMIT, "transcript").split("\n") if ln.strip()]
            elif self.path.exists():
                self.path.unlink()
            sink = file_sink(self.path)
        self._sink = sink
        self._reader = reader
        self.keep = reader is None
        self._held = Transcript(header=header)
        self._batch: list[str] | None = None
        self._header_text: str | None = None
        self._calls = 0
        self._bot_moves: dict[str, int] = {}
        self._scan: dict[str, int] | None = None  # per bot seat: the log index to look from
        self._referee = (header.referee.kind, header.referee.model)
        self._written = bool(existing)
        self.sealing = sealing
        self._pending: list[tuple[str, list[str]]] = []  # sealed batches, held until no secret is open
        self._lead: list[str] = []  # the player's words, written with what they lead to (see :meth:`player`)
        self._sealed = 0
        #: what :attr:`transcript` last read back: the lines, and the header and entries parsed from them
        self._read_cache: tuple[list[str], Header, list[Any]] | None = None
        if existing:
            existing = self._restore_sealed(existing)
            old = Transcript.from_jsonl("\n".join(existing), str(self.path or "<transcript>"))
            self._held = old if self.keep else Transcript(header=old.header)
            self._calls = sum(1 for e in old.entries if e.type == "tool_call")
            for e in old.entries:
                if e.type == "bot_move":
                    self._bot_moves[e.seat] = self._bot_moves.get(e.seat, 0) + 1
                elif e.type == "referee":
                    self._referee = (e.kind, e.model)

    @property
    def transcript(self) -> Transcript:
        """The transcript so far (read back from where it is written, when it is not held)."""
        if self.keep or self._reader is None:
            return self._held
        lines = [ln for ln in self._reader() if ln.strip()]
        if not lines:
            return Transcript(header=self._held.header)
        # lines are appended: parse only those after the ones read last time, when those are unchanged
        # (a referee reads the transcript after every message; parsing it all each time made a long
        # game quadratic)
        cache = self._read_cache
        if cache is None or lines[: len(cache[0])] != cache[0]:
            whole = Transcript.from_jsonl("\n".join(lines))
            header, entries = whole.header, whole.entries
        else:
            header, entries = cache[1], cache[2] + parse_entries(lines[len(cache[0]):], first_line=len(cache[0]) + 1)
        self._read_cache = (lines, header, entries)
        return Transcript.model_construct(header=header, entries=list(entries))

    @property
    def header(self) -> Header:
        """The header (set when the recorder is made; :meth:`referee` is the one change it takes)."""
        return self._held.header

    def _header_json(self) -> str:
        if self._header_text is None:
            self._header_text = self._held.header.model_dump_json()
        return self._header_text

    def _add(self, entry: Any) -> Any:
        if self.keep:
            self._held.entries.append(entry)
        self._emit(dumps_entry(entry))
        return entry

    def _emit(self, line: str) -> None:
        self._written = True
        if self._batch is not None:
            self._batch.append(line)
        elif self._sink is not None:
            lines, self._lead = [*self._lead, line], []
            out = self._through_seal(lines)
            if out:
                self._sink(out, self._header_json())

    def flush(self) -> None:
        """Write the player's words held by :meth:`player` (a referee calls it as a turn ends)."""
        if self._lead and self._batch is None and self._sink is not None:
            lines, self._lead = self._lead, []
            out = self._through_seal(lines)
            if out:
                self._sink(out, self._header_json())

    def _through_seal(self, lines: list[str]) -> list[str]:
        """What is written of ``lines``: sealed (one ``sealed`` line) while a human's pick is still
        secret, else the batches held so far (each after an ``unsealed`` marker), then ``lines``.
        A transcript is readable by whoever can read the gm home; a human's locked pick, typed or
        called, must not be (the other seat at the same keyboard could read it)."""
        seal = self.sealing
        if seal is None:
            return lines
        if seal.active():
            if not lines:
                return []
            self._sealed += 1
            sid = f"s{self._sealed}"
            self._pending.append((sid, lines))
            return [json.dumps({"type": SEALED, "id": sid, "box": seal.seal(lines)}, separators=(",", ":"))]
        out: list[str] = []
        for sid, held in self._pending:
            out.append(json.dumps({"type": UNSEALED, "id": sid}, separators=(",", ":")))
            out.extend(held)
        self._pending = []
        return out + lines

    def _restore_sealed(self, existing: Sequence[str]) -> list[str]:
        """The lines already written with the batches still sealed opened in place (to count the
        calls and bot moves in them); the sealed ones are held again, to be written once opened."""
        markers = [(i, json.loads(ln)) for i, ln in enumerate(existing) if is_marker(ln)]
        if not markers:
            return list(existing)
        opened = {m["id"] for _, m in markers if m.get("type") == UNSEALED}
        self._sealed = sum(1 for _, m in markers if m.get("type") == SEALED)
        out = [ln for ln in existing if not is_marker(ln)]
        for _, m in markers:
            if m.get("type") == SEALED and m["id"] not in opened:
                if self.sealing is None:
                    raise StateError("this transcript holds sealed entries and no key to open them", rule="CORE-SESSION")
                held = [str(x) for x in self.sealing.open(str(m["box"]))]
                self._pending.append((str(m["id"]), held))
                out.extend(held)
        return out

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
            lines, self._batch = [*self._lead, *self._batch], None
            self._lead = []
            if self._sink is not None:
                out = self._through_seal(lines)
                if out:
                    self._sink(out, self._header_json())

    def referee(self, kind: str, model: str | None = None) -> None:
        """Who referees from here on: set in the header before anything was recorded, else noted
        with a ``referee`` entry when it changes (a game resumed under another referee)."""
        if (kind, model) == self._referee:
            return
        if not self._written:
            self._held.header.referee = RefereeInfo(kind=kind, model=model)
            self._header_text = None
        else:
            self._add(RefereeEntry(kind=kind, model=model))
        self._referee = (kind, model)

    def player(self, seat: str, text: str) -> None:
        """What a player typed: held until what it leads to is written (or :meth:`flush`), so a pick
        typed in words is sealed with the call that locks it."""
        entry = PlayerEntry(seat=seat, text=text)
        if self.keep:
            self._held.entries.append(entry)
        self._written = True
        if self._batch is not None:
            self._batch.append(dumps_entry(entry))
        else:
            self._lead.append(dumps_entry(entry))

    def tool_call(self, seat: str | None, tool: str, args: dict[str, Any] | str | None, *, board: bool | None = None) -> str:
        self._calls += 1
        call_id = f"c{self._calls}"
        if self.keep:
            self._add(ToolCallEntry(id=call_id, seat=seat, tool=tool, args=args, board=board))
        else:  # written straight as JSON: no model to build for an entry nobody holds
            self._emit(json.dumps({"type": "tool_call", "id": call_id, "seat": seat, "tool": tool, "args": args, "board": board},
                                  ensure_ascii=False, separators=(",", ":"), default=str))
        return call_id

    def tool_result(self, call_id: str, result: dict[str, Any]) -> None:
        # stored as JSON data, exactly as it reads back from the file (tuples become lists)
        line = json.dumps({"type": "tool_result", "id": call_id, "result": result}, ensure_ascii=False, separators=(",", ":"), default=str)
        if self.keep:
            self._held.entries.append(ToolResultEntry.model_validate_json(line))
        self._emit(line)

    def narration(self, text: str, seat: str | None = None, flags: list[str] | None = None) -> None:
        self._add(NarrationEntry(seat=seat, text=text, flags=flags or []))

    def board(self, text: str, seat: str | None = None) -> None:
        self._add(BoardEntry(seat=seat, text=text))

    def seed(self, seed: int, salt: str, commitment: str, supplied: dict[str, Any] | None = None) -> None:
        self._add(SeedEntry(seed=seed, salt=salt, commitment=commitment, supplied=supplied or None))

    def sync_bot_moves(self, session: Session, *, final: bool = False) -> None:
        """Record the bots' moves that have become public since the last sync.  ``final``: the
        recording ends here, so a public move that still carries a secret (and the bot's moves
        after it) is written in its public form: nothing recorded depends on the secret, and a
        replay stands in for it (:class:`gm.transcript.replay.ReplayBot`).  Each bot seat's moves
        are written in order, up to the first that is still secret (scanning only what is new)."""
        bots = session.bot_seats
        if not bots:
            return
        log = session.state.log
        if self._scan is None:  # where each seat's next unrecorded move can be: after the ones recorded
            self._scan = {}
            for seat in bots:
                left, i = self._bot_moves.get(seat, 0), 0
                while left and i < len(log):
                    left -= log[i].seat == seat
                    i += 1
                self._scan[seat] = i
        secret = session.state.secret_moves()
        hidden = session.book.hidden_from(None)
        for seat in bots:
            i = min(self._scan.get(seat, 0), len(log))
            while i < len(log):
                move = log[i]
                if move.seat == seat:
                    if i in hidden or (i in secret and not final):
                        break  # still a secret: nothing after it is recorded yet
                    self._bot_moves[seat] = self._bot_moves.get(seat, 0) + 1
                    self._add(BotMoveEntry(seat=seat, action=session.public_move(i)))
                i += 1
            self._scan[seat] = i

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
