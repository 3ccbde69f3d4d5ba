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
  acknowledged.  Transcripts: ``$GM_HOME/transcripts/<id>.jsonl``; the anchors of all its sessions
  (their record counts, :mod:`gm.session.records`), kept apart from the sessions in one index MACed
  under the key: ``$GM_HOME/anchors/_index.json`` (:class:`AnchorIndex`).
- :class:`MemoryStore` — in memory (tests, replays, ``persist=False`` sessions).
- SQL stores (SQLite, PostgreSQL) for ``gm serve``: :func:`open_store` picks one from a URL.

Session ids are literal names (letters, digits, ``-``, ``_``): a reference is an exact id or an
unambiguous prefix of one, never a pattern.
"""

from __future__ import annotations

import hmac
import json
import os
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from gm.core.errors import StateError
from gm.core.files import SESSION_LIMIT, TRANSCRIPT_LIMIT, read_bytes, read_stream, refuse_shared
from gm.session.home import default_home
from gm.session.keys import KeyRing

if sys.platform != "win32":
    import fcntl
else:  # pragma: no cover - no advisory locks on Windows; the size check still catches most conflicts
    fcntl = None

SESSION_RULE = "CORE-SESSION"
SUFFIX = ".jsonl"
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$")


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


LockT = TypeVar("LockT", threading.Lock, threading.RLock)


class GameLocks(Generic[LockT]):
    """One lock per game id (``locks(session_id)``), made on first use and forgotten once nobody holds it
    (a weak table): a process's moves on one game take turns, while other games go on."""

    def __init__(self, make: Callable[[], LockT]) -> None:
        self._make: Callable[[], LockT] = make
        self._table: weakref.WeakValueDictionary[str, LockT] = weakref.WeakValueDictionary()
        self._guard = threading.Lock()

    def __call__(self, session_id: str) -> LockT:
        with self._guard:
            lock = self._table.get(session_id)
            if lock is None:
                lock = self._make()
                self._table[session_id] = lock
            return lock


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


@dataclass(frozen=True)
class AnchorInfo:
    """What a store keeps of one session's anchor (:mod:`gm.session.records`), read with its records."""

    #: the anchor (``n``, ``last``, ``mac``), or ``None`` if the store holds none for the session
    record: Mapping[str, Any] | None
    #: where the store keeps it, in words
    source: str
    #: how many records the session may hold beyond its anchor (``None``: any, an anchor of an older gm)
    lag: int | None
    #: the command that accepts the session as it is (says what is lost and anchors it)
    repair: str
    #: every session of the store must have one (not only those whose header says so)
    required: bool = False
    #: why the anchor could not be read (an index that does not verify): the session is refused
    error: str | None = None


@dataclass
class Stored:
    """A session as read from a store: the header, the records, and where it ends."""

    header: dict[str, Any]
    records: list[dict[str, Any]]
    position: Position
    #: a cut-off last record was dropped (a write that never completed)
    torn: bool = False
    #: the session's anchor, read with the records (``None``: the store keeps no anchors)
    anchor: AnchorInfo | None = None


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

    def append(self, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
        """Append ``records`` after the ``at.count`` records the caller knows of, all or nothing;
        :class:`SessionConflict` if the store holds more (someone else moved first).  ``anchor``: the
        session's anchor after them, kept with them (in the same transaction where there is one)."""
        ...

    def transcript(self, lines: Sequence[str], header: str) -> None:
        """Append transcript lines; ``header`` goes first when the transcript is still empty."""
        ...


@runtime_checkable
class SessionStore(Protocol):
    """The one interface every session store implements."""

    #: a one-line description (``files in ~/.gm/sessions``, ``sqlite:/path``)
    description: str

    def create(self, session_id: str, header: Mapping[str, Any], anchor: Mapping[str, Any] | None = None) -> Position:
        """Store a new session's header (and its first ``anchor``); :class:`SessionExists` if the id is taken."""
        ...

    def writing(self, session_id: str) -> AbstractContextManager[Writer]:
        """Exclusive write access to one session (other sessions are not held up): every record and
        transcript line written inside it lands in order, and no other writer of this session runs
        meanwhile.  A database store makes it one transaction."""
        ...

    def append(self, session_id: str, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
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


class AnchorIndexError(StateError):
    """The anchor index of a gm home does not verify (it was edited, or put back from another key)."""


class AnchorIndex:
    """The anchors of every session of a gm home, in one file MACed as a whole under the key, and a
    per-home counter beside it.

    - ``_index.json``: two lines, the body (JSON: ``seq`` and, per session, ``n``, ``last``, ``mac``
      and the ``seq`` it was last written at) and the HMAC of the body's bytes
      (:meth:`KeyRing.index_mac`).  One MAC over all of them: an entry cannot be set back on its own,
      only the whole index with every other session's.
    - ``_counter``: the home's counter, ``seq`` and its HMAC, raised by every write.  An index put
      back from an older copy holds an older ``seq`` than the counter, and is refused even in a home
      of one session; the index is written before the counter, so after a crash between them the
      index may be one ahead of it, never behind.

    Writers hold ``_index.lock`` (an exclusive ``flock``) around read-change-replace; each file is
    replaced in one ``rename``, so a reader never sees half of one.  (Putting back old copies of the
    index and the counter together, with nothing else in the home written since, is a restore of
    the whole home: no file of the home can tell it, see ``docs/serving.md``.)"""

    NAME = "_index.json"  # (not session ids: those start with a letter or digit)
    COUNTER = "_counter"
    FORMAT = "gm-anchors"

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / self.NAME
        self.counter_path = folder / self.COUNTER

    def _broken(self, what: str) -> AnchorIndexError:
        return AnchorIndexError(
            f"the anchor index {self.path} {what}: restore it (and {self.COUNTER} beside it), or accept every session "
            "as it is now with: gm sessions repair --all",
            rule=SESSION_RULE,
        )

    def _counter(self, keys: KeyRing) -> int:
        try:
            raw = read_bytes(self.counter_path, 1024, "anchor counter")
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise AnchorIndexError(f"cannot read the anchor counter {self.counter_path}: {exc.strerror or exc}", rule=SESSION_RULE) from None
        seq, _, mac = raw.strip().partition(b" ")
        if not seq.isdigit() or not hmac.compare_digest(keys.index_mac(b"counter|" + seq).encode(), mac):
            raise self._broken(f"has a counter ({self.counter_path}) that was changed or is sealed with another gm key")
        return int(seq)

    def load(self, keys: KeyRing) -> dict[str, Any]:
        """The index (``{"seq": N, "sessions": {id: {"n", "last", "mac", "seq"}}}``), checked against
        its seal and the home's counter; an empty one in a home that has none yet;
        :class:`AnchorIndexError` if it does not verify."""
        counter = self._counter(keys)
        try:
            raw = read_bytes(self.path, SESSION_LIMIT, "anchor index")
        except FileNotFoundError:
            if counter:
                raise self._broken(f"is missing, and the home's counter says it was written {counter} times") from None
            return {"format": self.FORMAT, "key_id": keys.id, "seq": 0, "sessions": {}}
        except OSError as exc:
            raise AnchorIndexError(f"cannot read the anchor index {self.path}: {exc.strerror or exc}", rule=SESSION_RULE) from None
        body, sep, mac = raw.rstrip(b"\n").rpartition(b"\n")
        data: Any = None
        if sep and hmac.compare_digest(keys.index_mac(body).encode(), mac):
            try:
                data = json.loads(body)
            except ValueError:
                data = None
        if not isinstance(data, dict) or data.get("format") != self.FORMAT or not isinstance(data.get("sessions"), dict) \
                or not isinstance(data.get("seq"), int):
            raise self._broken("was changed (it does not match its seal) or is sealed with another gm key")
        if not counter <= data["seq"] <= counter + 1:
            raise self._broken(f"was put back from an older copy (it was written {data['seq']} times, the home's counter says {counter})")
        return data

    def entry(self, keys: KeyRing, session_id: str) -> dict[str, Any] | None:
        got = self.load(keys)["sessions"].get(session_id)
        return got if isinstance(got, dict) else None

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.folder / "_index.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)

    def _replace(self, path: Path, data: bytes) -> None:
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            _write_all(fd, data)
        finally:
            os.close(fd)
        os.replace(tmp, path)

    def update(self, keys: KeyRing, changes: Mapping[str, Mapping[str, Any] | None], *, rebuild: bool = False) -> None:
        """Set (or, for ``None``, remove) the anchors of some sessions, in one write; ``rebuild``:
        start from an empty index rather than the one there (``gm sessions repair --all``; the
        counter goes on from the highest value found)."""
        with self._locked():
            if rebuild:
                data: dict[str, Any] = {"format": self.FORMAT, "key_id": keys.id, "seq": 0, "sessions": {}}
                try:
                    counter = self._counter(keys)
                except AnchorIndexError:
                    counter = 0
                try:
                    old = json.loads(read_bytes(self.path, SESSION_LIMIT, "anchor index").split(b"\n", 1)[0])
                    counter = max(counter, int(old.get("seq", 0)))
                except (OSError, ValueError, TypeError, AttributeError):
                    pass
            else:
                data = self.load(keys)
                counter = self._counter(keys)
            seq = max(int(data["seq"]), counter) + 1
            sessions = data["sessions"]
            for sid, anchor in changes.items():
                if anchor is None:
                    sessions.pop(sid, None)
                else:
                    sessions[sid] = {"n": anchor["n"], "last": anchor["last"], "mac": anchor["mac"], "seq": seq}
            data.update(seq=seq, key_id=keys.id)
            body = json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode()
            self._replace(self.path, body + b"\n" + keys.index_mac(body).encode() + b"\n")
            mark = str(seq).encode()
            self._replace(self.counter_path, mark + b" " + keys.index_mac(b"counter|" + mark).encode() + b"\n")


class FileStore:
    """Sessions as append-only JSON Lines files (see the module docstring)."""

    #: the key ring that seals and chains the sessions (set by :func:`gm.session.session.store_keys`)
    keys: KeyRing | None = None

    def __init__(self, home: str | Path | None = None) -> None:
        self.home = Path(home).expanduser() if home is not None else default_home()
        self.dir = self.home / "sessions"
        self.transcripts = self.home / "transcripts"
        self.description = f"{self.dir}"
        self.index = AnchorIndex(self.home / "anchors")
        self._held = threading.local()  # the sessions this thread holds the write lock of (read() needs no other)

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

    def create(self, session_id: str, header: Mapping[str, Any], anchor: Mapping[str, Any] | None = None) -> Position:
        self._private_dir(self.home, own=False)
        self._private_dir(self.dir)
        path = self.path(session_id)
        data = _line(header)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise SessionExists(f"session {session_id} already exists: {path}", rule=SESSION_RULE) from None
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)  # (a reader waits for the header and its anchor)
            _write_all(fd, data)
            if anchor is not None:
                self.set_anchor(session_id, anchor)
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
        held: set[str] = self._held.__dict__.setdefault("ids", set())
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            held.add(session_id)
            yield _FileWriter(self, session_id, fd)
        finally:
            held.discard(session_id)
            os.close(fd)  # releases the lock

    def append(self, session_id: str, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
        with self.writing(session_id) as w:
            return w.append(at, records, anchor)

    def read(self, session_id: str) -> Stored:
        """The session file, and its anchor read under the same (shared) lock: no writer appends or
        anchors in between."""
        path = self.path(session_id)
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            raise SessionNotFound(f"no session {session_id!r} in {self.dir}", rule=SESSION_RULE, input=session_id) from None
        except OSError as exc:
            raise StateError(f"cannot read session file {path}: {exc.strerror or exc}", rule=SESSION_RULE) from None
        try:
            refuse_shared(path, "session file", os.fstat(fd).st_mode)
            if fcntl is not None and session_id not in self._held.__dict__.get("ids", ()):
                fcntl.flock(fd, fcntl.LOCK_SH)  # (a flock of this thread's own write lock would wait for ever)
            with os.fdopen(os.dup(fd), "rb", buffering=0) as f:
                raw = read_stream(f, SESSION_LIMIT, "session file", str(path))
            stored = parse_lines(raw, str(path))
            if self.keys is not None:
                stored.anchor = self.anchor_info(session_id)
        except OSError as exc:
            raise StateError(f"cannot read session file {path}: {exc.strerror or exc}", rule=SESSION_RULE) from None
        finally:
            os.close(fd)
        return stored

    def ids(self) -> list[str]:
        if not self.dir.is_dir():
            return []
        return sorted(p.name.removesuffix(SUFFIX) for p in self.dir.iterdir() if p.name.endswith(SUFFIX) and ID_PATTERN.match(p.name.removesuffix(SUFFIX)))

    def info(self, session_id: str) -> SessionInfo:
        path = self.path(session_id)
        try:
            raw = read_bytes(path, SESSION_LIMIT, "session file")
            first, _, rest = raw.partition(b"\n")
            header = json.loads(first)
            moves = rest.count(b"\n")
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
        if self.index.path.exists():
            from gm.session.keys import load_keyring

            try:
                self.index.update(self.keys or load_keyring(self.home, create=False), {session_id: None})
            except StateError:  # (no key, or an index that does not verify: its entry stays, and names nothing)
                pass

    # ---------------------------------------------------------------- anchors
    def anchor_path(self, session_id: str) -> Path:
        """Where an older gm kept one session's anchor (read until the session's next write)."""
        return self.home / "anchors" / f"{check_id(session_id)}.json"

    def _keys(self) -> KeyRing:
        if self.keys is None:
            raise StateError("the session store has no key yet (gm.session.session.store_keys)", rule=SESSION_RULE)
        return self.keys

    def set_anchor(self, session_id: str, anchor: Mapping[str, Any]) -> None:
        """Make ``anchor`` the session's anchor in the home's index (an older gm's file of it goes)."""
        self._private_dir(self.home, own=False)
        self._private_dir(self.index.folder)
        self.index.update(self._keys(), {check_id(session_id): anchor})
        self.anchor_path(session_id).unlink(missing_ok=True)

    def anchor_info(self, session_id: str) -> AnchorInfo:
        """The session's anchor as this home keeps it: its entry in the index (the file may hold one
        record more: the record is written before the index), else an older gm's file of it (which may
        lag any number of records behind), else none."""
        repair = f"gm sessions repair {session_id}"
        try:
            entry = self.index.entry(self._keys(), session_id)
        except AnchorIndexError as exc:  # (said after the header is checked: a wrong key is said as such first)
            return AnchorInfo(None, f"the anchor index {self.index.path}", 1, repair, error=exc.reason)
        if entry is not None:
            return AnchorInfo(entry, f"the anchor index {self.index.path}", 1, repair)
        legacy = self.anchor_path(session_id)
        try:
            data = json.loads(read_bytes(legacy, SESSION_LIMIT, "anchor"))
        except FileNotFoundError:
            return AnchorInfo(None, f"the anchor index {self.index.path}", 1, repair)
        except (OSError, ValueError):
            data = {}
        return AnchorInfo(data if isinstance(data, dict) else {}, str(legacy), None, repair)

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
            text = read_bytes(path, TRANSCRIPT_LIMIT, "transcript").decode("utf-8")
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

    def append(self, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
        fd = self.fd
        size = os.fstat(fd).st_size
        if size != at.offset:
            extra = os.pread(fd, size - at.offset, at.offset) if size > at.offset else b""
            if size < at.offset or b"\n" in extra:
                raise SessionConflict(f"session {self.id} was changed by another process", rule=SESSION_RULE)
            os.ftruncate(fd, at.offset)  # a torn tail: a write that never completed
        data = b"".join(_line(r) for r in records)
        _write_all(fd, data)
        if anchor is not None:  # after the records (a crash between leaves the file one record ahead of it)
            self.store.set_anchor(self.id, anchor)
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
    reads them, so sessions here are neither sealed, chained nor anchored
    (:class:`gm.session.records.Chain`)."""

    def __init__(self) -> None:
        self._data: dict[str, _Mem] = {}
        self._lock = threading.Lock()
        self.description = "memory"

    def create(self, session_id: str, header: Mapping[str, Any], anchor: Mapping[str, Any] | None = None) -> Position:
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

    def append(self, session_id: str, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
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

    def append(self, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
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
