"""Where sessions are kept: one interface, :class:`SessionStore`, and its implementations.

A stored session is a header and a sequence of records (plain JSON objects; :mod:`gm.session.records`
chains and seals them, the store only keeps them), plus the session's transcript.  A store never
interprets a record.  Appends are optimistic: the caller says how many records it knows of
(:class:`Position`), and if the store holds more, someone else moved first and the append is refused
with :class:`SessionConflict` — nothing is written.

- :class:`FileStore` — ``$GM_HOME/sessions/<id>.jsonl``, an append-only JSON Lines file (the header
  line, then a line per record), owner-only (0600 in a 0700 folder).  Each append is one ``write`` of
  whole lines under an exclusive ``flock``; a torn last line (a write cut short, never acknowledged)
  is ignored on read and cut off by the next append.  Killing the writer at any moment loses nothing
  acknowledged.  Transcripts: ``$GM_HOME/transcripts/<id>.jsonl``; each session's anchor (its record
  count, :mod:`gm.session.records`), kept apart from the sessions: ``$GM_HOME/anchors/<id>.json``.
- :class:`MemoryStore` — in memory (tests, replays, ``persist=False`` sessions).
- SQL stores (SQLite, PostgreSQL) for ``gm serve``: :func:`open_store` picks one from a URL.

Session ids are literal names (letters, digits, ``-``, ``_``): a reference is an exact id or an
unambiguous prefix of one, never a pattern.
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from gm.core.errors import StateError

if sys.platform != "win32":
    import fcntl
else:  # pragma: no cover - no advisory locks on Windows; the size check still catches most conflicts
    fcntl = None

SESSION_RULE = "CORE-SESSION"
SUFFIX = ".jsonl"
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$")


def default_home() -> Path:
    """``$GM_HOME`` or ``~/.gm``."""
    env = os.environ.get("GM_HOME")
    return Path(env).expanduser() if env else Path.home() / ".gm"


def sessions_dir(home: str | Path | None = None) -> Path:
    return (Path(home).expanduser() if home is not None else default_home()) / "sessions"


class SessionConflict(StateError):
    """The session moved in the store since this copy read it (another process or request moved)."""


class SessionNotFound(StateError):
    """No stored session has that id (or the prefix matches none)."""


class SessionExists(StateError):
    """A session with that id is already stored."""


def check_id(session_id: str) -> str:
    """``session_id`` if it is a literal session id, else a one-line error."""
    if not isinstance(session_id, str) or not ID_PATTERN.match(session_id):
        raise StateError(
            "a session id is letters, digits, '-' and '_' (at most 100), starting with a letter or digit",
            rule=SESSION_RULE,
            input=str(session_id)[:100],
        )
    return session_id


@dataclass(frozen=True)
class Position:
    """How far a reader has seen a stored session: ``count`` records (the header not counted);
    ``offset``: for file stores, the bytes of complete lines."""

    count: int
    offset: int = 0


_new = object.__new__


def position(count: int, offset: int = 0) -> Position:
    """``Position(count, offset)`` (a store makes one per write): the first few thousand without an
    offset are made once and shared (they are frozen), any other without the dataclass's ``__init__``."""
    if not offset and count < _COUNTS_MAX:
        if count >= len(_COUNTS):
            _COUNTS.extend(_made(n, 0) for n in range(len(_COUNTS), count + 1))
        return _COUNTS[count]
    return _made(count, offset)


def _made(count: int, offset: int) -> Position:
    p = _new(Position)
    p.__dict__.update(count=count, offset=offset)
    return p


_COUNTS: list[Position] = []
_COUNTS_MAX = 8192


@dataclass
class Stored:
    """A session as read from a store: the header, the records, and where it ends."""

    header: dict[str, Any]
    records: list[dict[str, Any]]
    position: Position
    #: a cut-off last record was dropped (a write that never completed)
    torn: bool = False


@dataclass(frozen=True)
class SessionInfo:
    """One line of a session listing."""

    id: str
    game: str
    players: dict[str, str]
    moves: int
    created: str
    updated: float  # seconds since the epoch


class Writer(Protocol):
    """What may be done inside :meth:`SessionStore.writing`."""

    def stale(self, at: Position) -> bool:
        """Whether the store holds more than the ``at.count`` records the caller knows of (another
        process moved): a cached session reads the new records before it acts."""
        ...

    def append(self, at: Position, records: Sequence[Mapping[str, Any]]) -> Position:
        """Append ``records`` after the ``at.count`` records the caller knows of, all or nothing;
        :class:`SessionConflict` if the store holds more (someone else moved first)."""
        ...

    def transcript(self, lines: Sequence[str], header: str) -> None:
        """Append transcript lines; ``header`` goes first when the transcript is still empty."""
        ...


@runtime_checkable
class SessionStore(Protocol):
    """The one interface every session store implements."""

    #: a one-line description (``files in ~/.gm/sessions``, ``sqlite:/path``)
    description: str

    def create(self, session_id: str, header: Mapping[str, Any]) -> Position:
        """Store a new session's header; :class:`SessionExists` if the id is taken."""
        ...

    def writing(self, session_id: str) -> AbstractContextManager[Writer]:
        """Exclusive write access to one session (other sessions are not held up): every record and
        transcript line written inside it lands in order, and no other writer of this session runs
        meanwhile.  A database store makes it one transaction."""
        ...

    def append(self, session_id: str, at: Position, records: Sequence[Mapping[str, Any]]) -> Position:
        """Append ``records`` in a write of their own (see :meth:`Writer.append`)."""
        ...

    def read(self, session_id: str) -> Stored:
        """The stored session; :class:`SessionNotFound` when there is none; :class:`StateError`
        naming the line/record when a record cannot be read at all."""
        ...

    def ids(self) -> list[str]:
        """Every stored session id."""
        ...

    def info(self, session_id: str) -> SessionInfo:
        ...

    def delete(self, session_id: str) -> None:
        ...

    def where(self, session_id: str, n: int) -> str:
        """Where record ``n`` (1-based; 0 = the header) is, in words a user can find it by."""
        ...

    def transcript_append(self, session_id: str, lines: Sequence[str], header: str) -> None:
        """Append lines (JSON texts) to the session's transcript in a write of their own; ``header``
        goes first when the transcript is still empty."""
        ...

    def transcript_read(self, session_id: str) -> list[str]:
        """The session's transcript lines so far ([] if none)."""
        ...

    def transcript_location(self, session_id: str) -> str | None:
        """A path a user can open the transcript at (file stores), else ``None``."""
        ...


def resolve(store: SessionStore, ref: str) -> str:
    """The id of the session ``ref`` names: an exact id, or the one id it is a prefix of."""
    ref = str(ref).strip()
    check_id(ref)
    ids = store.ids()
    if ref in ids:
        return ref
    hits = sorted(i for i in ids if i.startswith(ref))
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise StateError(
            f"session id {ref!r} is ambiguous: {len(hits)} sessions start with it ({', '.join(hits[:10])}"
            f"{', ...' if len(hits) > 10 else ''}); give more of the id",
            rule=SESSION_RULE,
            input=ref,
            legal=hits[:20],
        )
    raise SessionNotFound(f"no session {ref!r} in {store.description} (gm new GAME creates one)", rule=SESSION_RULE, input=ref)


# ------------------------------------------------------------------- files
def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _line(record: Mapping[str, Any]) -> bytes:
    return (json.dumps(record, separators=(",", ":"), ensure_ascii=False) + "\n").encode()


class FileStore:
    """Sessions as append-only JSON Lines files (see the module docstring)."""

    def __init__(self, home: str | Path | None = None) -> None:
        self.home = Path(home).expanduser() if home is not None else default_home()
        self.dir = self.home / "sessions"
        self.transcripts = self.home / "transcripts"
        self.description = f"{self.dir}"

    def _private_dir(self, d: Path, *, own: bool = True) -> Path:
        """``d``, made owner-only; a folder of gm's own (not the home, which may be any folder) that an
        older gm made 0755 is tightened, so that nobody else can list the session ids."""
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        if own and d.stat().st_mode & 0o077:
            d.chmod(0o700)
        return d

    def path(self, session_id: str) -> Path:
        return self.dir / f"{check_id(session_id)}{SUFFIX}"

    def where(self, session_id: str, n: int) -> str:
        return f"line {n + 1} of {self.path(session_id)}"

    def create(self, session_id: str, header: Mapping[str, Any]) -> Position:
        self._private_dir(self.home, own=False)
        self._private_dir(self.dir)
        path = self.path(session_id)
        data = _line(header)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise SessionExists(f"session {session_id} already exists: {path}", rule=SESSION_RULE) from None
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        return Position(0, len(data))

    @contextmanager
    def writing(self, session_id: str) -> Iterator[_FileWriter]:
        path = self.path(session_id)
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            raise SessionNotFound(f"session {session_id} is gone: {path}", rule=SESSION_RULE) from None
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield _FileWriter(self, session_id, fd)
        finally:
            os.close(fd)  # releases the lock

    def append(self, session_id: str, at: Position, records: Sequence[Mapping[str, Any]]) -> Position:
        with self.writing(session_id) as w:
            return w.append(at, records)

    def read(self, session_id: str) -> Stored:
        path = self.path(session_id)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            raise SessionNotFound(f"no session {session_id!r} in {self.dir}", rule=SESSION_RULE, input=session_id) from None
        except OSError as exc:
            raise StateError(f"cannot read session file {path}: {exc.strerror or exc}", rule=SESSION_RULE) from None
        return parse_lines(raw, str(path))

    def ids(self) -> list[str]:
        if not self.dir.is_dir():
            return []
        return sorted(p.name.removesuffix(SUFFIX) for p in self.dir.iterdir() if p.name.endswith(SUFFIX) and ID_PATTERN.match(p.name.removesuffix(SUFFIX)))

    def info(self, session_id: str) -> SessionInfo:
        path = self.path(session_id)
        try:
            with path.open("rb") as f:
                header = json.loads(f.readline())
                moves = sum(1 for line in f if line.endswith(b"\n"))
            updated = path.stat().st_mtime
        except FileNotFoundError:
            raise SessionNotFound(f"no session {session_id!r} in {self.dir}", rule=SESSION_RULE, input=session_id) from None
        except (OSError, ValueError) as exc:
            raise StateError(f"cannot read session file {path}: {exc}", rule=SESSION_RULE) from None
        return _info(session_id, header, moves, updated)

    def delete(self, session_id: str) -> None:
        path = self.path(session_id)
        try:
            path.unlink()
        except FileNotFoundError:
            raise SessionNotFound(f"no session {session_id!r} in {self.dir}", rule=SESSION_RULE, input=session_id) from None
        tp = self.transcripts / f"{session_id}{SUFFIX}"
        tp.unlink(missing_ok=True)
        self.anchor_path(session_id).unlink(missing_ok=True)

    # ---------------------------------------------------------------- anchors
    def anchor_path(self, session_id: str) -> Path:
        return self.home / "anchors" / f"{check_id(session_id)}.json"

    def write_anchor(self, session_id: str, anchor: Mapping[str, Any]) -> None:
        """Replace the session's anchor in one step (best effort: the records are already stored, and
        an anchor that lags behind them is still true)."""
        path = self.anchor_path(session_id)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        try:
            self._private_dir(self.home, own=False)
            self._private_dir(path.parent)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                _write_all(fd, _line(anchor))
            finally:
                os.close(fd)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)

    def read_anchor(self, session_id: str) -> dict[str, Any] | None:
        """The session's anchor; ``None`` if it has none (a session copied from elsewhere, or made
        before anchors); ``{}`` if it cannot be read (which no anchor matches)."""
        try:
            data = json.loads(self.anchor_path(session_id).read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    # ------------------------------------------------------------ transcripts
    def transcript_location(self, session_id: str) -> str | None:
        return str(self.transcripts / f"{check_id(session_id)}{SUFFIX}")

    def transcript_append(self, session_id: str, lines: Sequence[str], header: str) -> None:
        with self.writing(session_id) as w:
            w.transcript(lines, header)

    def _transcript_write(self, session_id: str, lines: Sequence[str], header: str) -> None:
        self._private_dir(self.home, own=False)
        self._private_dir(self.transcripts)
        path = self.transcripts / f"{check_id(session_id)}{SUFFIX}"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            first = [header] if os.fstat(fd).st_size == 0 else []
            _write_all(fd, "".join(line + "\n" for line in (*first, *lines)).encode())
        finally:
            os.close(fd)

    def transcript_read(self, session_id: str) -> list[str]:
        path = self.transcripts / f"{check_id(session_id)}{SUFFIX}"
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        return [line for line in text.split("\n") if line.strip()]  # only "\n" ends a line


class _FileWriter:
    """Writes to one session file while its lock is held."""

    def __init__(self, store: FileStore, session_id: str, fd: int) -> None:
        self.store, self.id, self.fd = store, session_id, fd

    def stale(self, at: Position) -> bool:
        size = os.fstat(self.fd).st_size
        return size < at.offset or (size > at.offset and b"\n" in os.pread(self.fd, size - at.offset, at.offset))

    def append(self, at: Position, records: Sequence[Mapping[str, Any]]) -> Position:
        fd = self.fd
        size = os.fstat(fd).st_size
        if size != at.offset:
            extra = os.pread(fd, size - at.offset, at.offset) if size > at.offset else b""
            if size < at.offset or b"\n" in extra:
                raise SessionConflict(f"session {self.id} was changed by another process", rule=SESSION_RULE)
            os.ftruncate(fd, at.offset)  # a torn tail: a write that never completed
        data = b"".join(_line(r) for r in records)
        _write_all(fd, data)
        return Position(at.count + len(records), at.offset + len(data))

    def transcript(self, lines: Sequence[str], header: str) -> None:
        self.store._transcript_write(self.id, lines, header)


def parse_lines(raw: bytes, source: str) -> Stored:
    """A stored session from JSON Lines bytes (header line, then records); a torn last line is dropped."""
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the data ends with a newline; else a torn write
    good = len(raw) - len(tail)
    foreign = StateError(f"{source} is not a gm session file", rule=SESSION_RULE)
    if not lines:
        raise foreign
    try:
        header = json.loads(lines[0])
    except (UnicodeDecodeError, ValueError):
        raise foreign from None
    if not isinstance(header, dict) or header.get("format") != "gm-session":
        raise foreign
    records: list[dict[str, Any]] = []
    for n, line in enumerate(lines[1:], start=2):
        try:
            rec = json.loads(line)
        except (UnicodeDecodeError, ValueError):
            rec = None
        if not isinstance(rec, dict):
            raise StateError(f"{source}: line {n} is corrupt: not a valid record", rule=SESSION_RULE)
        records.append(rec)
    return Stored(header, records, Position(len(records), good), torn=bool(tail))


def _info(session_id: str, header: Mapping[str, Any], moves: int, updated: float) -> SessionInfo:
    return SessionInfo(
        id=session_id,
        game=str(header.get("game", "?")),
        players={str(k): str(v) for k, v in dict(header.get("players") or {}).items()},
        moves=moves,
        created=str(header.get("created", "")),
        updated=updated,
    )


# ------------------------------------------------------------------ memory
@dataclass
class _Mem:
    header: dict[str, Any]
    records: list[dict[str, Any]] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)
    updated: float = 0.0
    lock: threading.RLock = field(default_factory=threading.RLock)
    writer: _MemWriter | None = field(default=None, repr=False, compare=False)  # made once: it holds nothing but the session and its id


class MemoryStore:
    """Sessions in memory (tests, replays, sessions that are not saved).  Nobody but this process
    reads them, so sessions here are neither sealed nor chained (:class:`gm.session.records.Chain`)."""

    def __init__(self) -> None:
        self._data: dict[str, _Mem] = {}
        self._lock = threading.Lock()
        self.description = "memory"

    def create(self, session_id: str, header: Mapping[str, Any]) -> Position:
        with self._lock:
            if session_id in self._data:
                raise SessionExists(f"session {session_id} already exists", rule=SESSION_RULE)
            self._data[session_id] = _Mem(json.loads(json.dumps(header)), updated=time.time())
        return Position(0)

    def writing(self, session_id: str) -> _MemWriter:
        # a plain context manager (the writer itself), not a generator: a call takes it every time
        mem = self._data.get(session_id) if type(session_id) is str else None
        if mem is None:
            return _MemWriter(self._get(session_id), session_id)
        writer = mem.writer
        if writer is None or writer.id != session_id:
            writer = mem.writer = _MemWriter(mem, session_id)
        return writer

    def append(self, session_id: str, at: Position, records: Sequence[Mapping[str, Any]]) -> Position:
        with self.writing(session_id) as w:
            return w.append(at, records)

    def _get(self, session_id: str) -> _Mem:
        mem = self._data.get(check_id(session_id))
        if mem is None:
            raise SessionNotFound(f"no session {session_id!r} in memory", rule=SESSION_RULE, input=session_id)
        return mem

    def read(self, session_id: str) -> Stored:
        with self._lock:
            mem = self._get(session_id)
            return Stored(json.loads(json.dumps(mem.header)), [dict(r) for r in mem.records], Position(len(mem.records)))

    def ids(self) -> list[str]:
        return sorted(self._data)

    def info(self, session_id: str) -> SessionInfo:
        mem = self._get(session_id)
        return _info(session_id, mem.header, len(mem.records), mem.updated)

    def delete(self, session_id: str) -> None:
        with self._lock:
            self._get(session_id)
            del self._data[session_id]

    def where(self, session_id: str, n: int) -> str:
        return f"record {n}" if n else "the header"

    def transcript_append(self, session_id: str, lines: Sequence[str], header: str) -> None:
        with self.writing(session_id) as w:
            w.transcript(lines, header)

    def transcript_read(self, session_id: str) -> list[str]:
        mem = self._data.get(check_id(session_id))
        return list(mem.transcript) if mem is not None else []

    def transcript_location(self, session_id: str) -> str | None:
        return None


class _MemWriter:
    """Write access to one memory session: holds its lock from ``with`` to the end of the block."""

    __slots__ = ("id", "mem")

    def __init__(self, mem: _Mem, session_id: str) -> None:
        self.mem, self.id = mem, session_id

    def __enter__(self) -> _MemWriter:
        self.mem.lock.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.mem.lock.release()

    def stale(self, at: Position) -> bool:
        return len(self.mem.records) != at.count

    def append(self, at: Position, records: Sequence[Mapping[str, Any]]) -> Position:
        mem = self.mem
        if len(mem.records) != at.count:
            raise SessionConflict(f"session {self.id} was changed by another writer", rule=SESSION_RULE)
        for r in records:  # flat JSON objects: a session hands over its own fresh dicts, kept as they are
            mem.records.append(r if type(r) is dict else dict(r))
        mem.updated = time.time()
        return position(len(mem.records))

    def transcript(self, lines: Sequence[str], header: str) -> None:
        if not self.mem.transcript:
            self.mem.transcript.append(header)
        self.mem.transcript.extend(lines)


def iter_infos(store: SessionStore) -> Iterator[SessionInfo]:
    """Info on every session the store can read (unreadable ones are skipped)."""
    for sid in store.ids():
        try:
            yield store.info(sid)
        except StateError:
            continue


def open_store(spec: str | Path | None = None) -> SessionStore:
    """The store ``spec`` names: ``None`` (``$GM_STORE``, else files under ``$GM_HOME``), a folder
    (files), ``file:PATH``, ``memory:``, ``sqlite:PATH`` or ``postgresql://...``."""
    text = str(spec) if spec is not None else os.environ.get("GM_STORE", "")
    if not text:
        return FileStore()
    if text.startswith("file:"):
        return FileStore(text.removeprefix("file:"))
    if text in ("memory", "memory:"):
        return MemoryStore()
    if text.startswith("sqlite:") or text.startswith(("postgresql:", "postgres:")):
        import importlib

        sql = importlib.import_module("gm.session.sql")
        store: SessionStore = sql.open_sql_store(text)
        return store
    return FileStore(text)
