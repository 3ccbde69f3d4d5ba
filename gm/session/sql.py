"""Session stores in a database, for ``gm serve``: SQLite (embedded, one machine) and PostgreSQL
(many server processes on many machines).

Both keep the same tables (created on first use):

- ``gm_sessions``: one row per session — its header (JSON text, exactly as sealed), game, when it was
  created and last written, and how many records and transcript lines it holds;
- ``gm_records``: the chained records, keyed by ``(session, n)`` (so no two writers can both store a
  record ``n``);
- ``gm_anchors``: each session's anchor (how many records it has and the MAC of the last, MACed under
  the key: :mod:`gm.session.records`), written in the same transaction as the records, so a session
  whose last records were deleted, or whose rows were put back from an older copy, is refused;
- ``gm_transcripts``: the transcript lines, keyed by ``(session, i)``;
- ``gm_grants`` / ``gm_ended``: who may play which seat (hashes of access tokens, see
  :mod:`gm.server.access`, each grant MACed under the key, so a row added to the database does not
  grant a seat) and which games an admin ended;
- ``gm_meta``: the id of the key that seals the sessions (never the key itself: a server takes its key
  from ``$GM_SECRET_KEY`` or a key file, :mod:`gm.session.keys`).  A server started with another key
  is refused at once rather than failing on every session.  And the mark that every session has an
  anchor (MACed under the key).

**Upgrading a database made before anchors.**  Opening it, the store anchors every session that has
no anchor yet at the length it has then, in one transaction, logs how many, and writes the mark
(:meth:`_SqlStore._migrate_anchors`); from then on a session without an anchor is refused like one
whose anchor does not match.  What was cut before the upgrade cannot be seen.

**Writes.**  :meth:`writing` is one transaction per call: everything a call stores (its records and
its transcript lines) is committed together, or nothing is.  A process killed mid-call leaves no trace
of it: what was acknowledged is committed, what was not is rolled back by the database.

- SQLite (stdlib :mod:`sqlite3`, WAL, ``synchronous=NORMAL``: a committed write survives the process
  being killed): one writer per game — a per-game lock in the process, the call's writes buffered and
  committed in one short ``BEGIN IMMEDIATE`` transaction that first checks no other process moved the
  game meanwhile (:class:`SessionConflict` if one did).  Different games are written concurrently;
  SQLite itself commits one transaction at a time, each a fraction of a millisecond.  The WAL is
  copied back into the database by a checkpointer thread of the store's own (``PASSIVE``: it never
  blocks a writer), not by the commit that happens to fill it: an automatic checkpoint syncs the
  database file inside that commit, and every other game's commit queued behind it for as long as the
  disk takes (up to a second on a busy machine).
- PostgreSQL (psycopg 3 with its connection pool): the transaction takes the game's row lock
  (``SELECT ... FOR UPDATE``) for the whole call, so concurrent calls to one game — from any process —
  run one after the other, and calls to different games in parallel.  Each commit sends
  ``NOTIFY gm_moves`` with the session id, so servers can wake their event streams.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from gm.core.errors import StateError
from gm.core.files import refuse_shared
from gm.session.keys import KEY_RULE, KeyRing, load_keyring
from gm.session.records import make_anchor
from gm.session.store import (
    SESSION_RULE,
    AnchorInfo,
    GameLocks,
    Position,
    SessionConflict,
    SessionExists,
    SessionInfo,
    SessionNotFound,
    Stored,
    _info,
    check_id,
)

NOTIFY_CHANNEL = "gm_moves"
log = logging.getLogger("gm.serve")
#: what the mark "every session has an anchor" MACs (gm_meta 'anchors')
_ANCHORS_MARK = b"gm-sql-anchors-v1"
_UPSERT_ANCHOR = (
    "INSERT INTO gm_anchors (session, n, last, mac) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (session) DO UPDATE SET n = excluded.n, last = excluded.last, mac = excluded.mac"
)

_TABLES = (
    """CREATE TABLE IF NOT EXISTS gm_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS gm_sessions (
        id TEXT PRIMARY KEY, game TEXT NOT NULL, header TEXT NOT NULL, created TEXT NOT NULL,
        updated {real} NOT NULL, records {int} NOT NULL DEFAULT 0, tlines {int} NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS gm_records (
        session TEXT NOT NULL, n {int} NOT NULL, body TEXT NOT NULL, PRIMARY KEY (session, n))""",
    """CREATE TABLE IF NOT EXISTS gm_anchors (
        session TEXT PRIMARY KEY, n {int} NOT NULL, last TEXT NOT NULL, mac TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS gm_transcripts (
        session TEXT NOT NULL, i {int} NOT NULL, line TEXT NOT NULL, PRIMARY KEY (session, i))""",
    """CREATE TABLE IF NOT EXISTS gm_grants (
        hash TEXT PRIMARY KEY, kind TEXT NOT NULL, session TEXT NOT NULL, seat TEXT NOT NULL,
        sealed TEXT, created {real} NOT NULL, used {real}, mac TEXT)""",
    """CREATE INDEX IF NOT EXISTS gm_grants_session ON gm_grants (session)""",
    """CREATE TABLE IF NOT EXISTS gm_ended (session TEXT PRIMARY KEY, at {real} NOT NULL, reason TEXT NOT NULL)""",
)


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class _Forged(Exception):
    """A grant row whose MAC does not verify (its transaction is rolled back)."""


def _anchor_row(session_id: str, anchor: Mapping[str, Any]) -> tuple[str, int, str, str]:
    return (session_id, int(anchor["n"]), str(anchor["last"]), str(anchor["mac"]))


def _loads(text: str, where: str) -> dict[str, Any]:
    try:
        obj = json.loads(text)
    except ValueError:
        obj = None
    if not isinstance(obj, dict):
        raise StateError(f"{where} is corrupt: not a valid record", rule=SESSION_RULE)
    return obj


class _Buffer:
    """What one call writes, kept until its transaction commits."""

    def __init__(self, session_id: str, records: int, tlines: int) -> None:
        self.id = session_id
        self.start_records, self.records = records, records
        self.tlines = tlines
        self.rows: list[tuple[str, int, str]] = []
        self.lines: list[tuple[str, int, str]] = []
        self.anchor: tuple[str, int, str, str] | None = None

    def stale(self, at: Position) -> bool:
        return self.records != at.count

    def append(self, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
        if at.count != self.records:
            raise SessionConflict(f"session {self.id} was changed by another writer", rule=SESSION_RULE)
        for rec in records:
            self.records += 1
            self.rows.append((self.id, self.records, _dumps(rec)))
        if anchor is not None:
            self.anchor = _anchor_row(self.id, anchor)
        return Position(self.records)

    def transcript(self, lines: Sequence[str], header: str) -> None:
        todo = [header, *lines] if self.tlines == 0 and not self.lines else list(lines)
        for line in todo:
            self.lines.append((self.id, self.tlines + len(self.lines), line))

    @property
    def dirty(self) -> bool:
        return bool(self.rows or self.lines)


class _SqlStore:
    """What the SQLite and PostgreSQL stores share: the queries, in ``?`` style."""

    description: str
    keys: KeyRing
    dialect = "sqlite"
    #: every session must have an anchor (the database was made, or upgraded, with anchors)
    anchors_required = False

    # --- the connection, per dialect
    def _cursor(self) -> AbstractContextManager[Any]:  # pragma: no cover - per dialect
        raise NotImplementedError

    def _q(self, sql: str) -> str:
        return sql

    def _one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        with self._cursor() as cur:
            cur.execute(self._q(sql), params)
            return cur.fetchone()

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._cursor() as cur:
            cur.execute(self._q(sql), params)
            return list(cur.fetchall())

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        with self._cursor() as cur:
            cur.execute(self._q(sql), params)
            return int(cur.rowcount)

    def _setup(self) -> None:
        real, integer = ("REAL", "INTEGER") if self.dialect == "sqlite" else ("DOUBLE PRECISION", "BIGINT")
        with self._transaction() as cur:
            if self.dialect == "postgresql":  # processes starting together: one creates the tables
                cur.execute("SELECT pg_advisory_xact_lock(7243215)")
            for ddl in _TABLES:
                cur.execute(ddl.format(real=real, int=integer))
            if self.dialect == "postgresql":
                cur.execute("ALTER TABLE gm_grants ADD COLUMN IF NOT EXISTS mac TEXT")
            else:
                cur.execute("PRAGMA table_info(gm_grants)")
                if "mac" not in {str(r[1]) for r in cur.fetchall()}:
                    cur.execute("ALTER TABLE gm_grants ADD COLUMN mac TEXT")
        self._check_key()
        self._migrate_anchors()

    def _grant_mac(self, digest: str, kind: str, session_id: str, seat: str) -> str:
        return self.keys.grant_mac(b"grant|" + json.dumps([digest, kind, session_id, seat], separators=(",", ":")).encode())

    def _granted(self, row: Any, digest: str, kind: str) -> bool:
        """Whether a grant row (session, seat, mac) is one this server made (its MAC verifies)."""
        return row[2] is not None and hmac.compare_digest(str(row[2]), self._grant_mac(digest, kind, str(row[0]), str(row[1])))

    def _migrate_anchors(self) -> None:
        """Once per database: anchor every session that has no anchor yet (made by a gm before
        anchors) at the length it has now, MAC every grant that has no MAC yet, then mark the
        database as anchored (see the module docstring).  A mark that does not verify is refused."""
        mark = self.keys.index_mac(_ANCHORS_MARK)
        row = self._one("SELECT v FROM gm_meta WHERE k = 'anchors'")
        if row is not None:
            if row[0] != mark:
                raise StateError(f"{self.description}: the mark that its sessions are anchored (gm_meta) was changed", rule=KEY_RULE)
            self.anchors_required = True
            return
        with self._transaction() as cur:
            if self.dialect == "postgresql":
                cur.execute("SELECT pg_advisory_xact_lock(7243216)")
            cur.execute(self._q("SELECT v FROM gm_meta WHERE k = 'anchors'"))
            if cur.fetchone() is None:
                cur.execute(
                    "SELECT s.id, s.header, s.records, r.body FROM gm_sessions s LEFT JOIN gm_anchors a ON a.session = s.id"
                    " LEFT JOIN gm_records r ON r.session = s.id AND r.n = s.records WHERE a.session IS NULL"
                )
                todo = cur.fetchall()
                for sid, header, count, last_body in todo:
                    source = last_body if int(count) else header
                    last = str(_loads(source, self.where(str(sid), int(count))).get("mac", ""))
                    cur.execute(self._q(_UPSERT_ANCHOR), _anchor_row(str(sid), make_anchor(self.keys, str(sid), int(count), last)))
                cur.execute("SELECT hash, kind, session, seat FROM gm_grants WHERE mac IS NULL")
                for digest, kind, session_id, seat in cur.fetchall():
                    cur.execute(self._q("UPDATE gm_grants SET mac = ? WHERE hash = ?"), (self._grant_mac(str(digest), str(kind), str(session_id), str(seat)), digest))
                cur.execute(self._q(self._insert_ignore("gm_meta", "(k, v) VALUES ('anchors', ?)")), (mark,))
                if todo:
                    log.warning("%s: anchored %d sessions of an older gm at the length each has now", self.description, len(todo))
        self.anchors_required = True

    def _snapshot(self) -> AbstractContextManager[Any]:  # pragma: no cover - per dialect
        """A read-only transaction that sees one moment of the database (a session's anchor and its
        records as they were committed together)."""
        raise NotImplementedError

    def anchor_info(self, row: Any, session_id: str) -> AnchorInfo:
        record = None if row is None else {"n": int(row[0]), "last": str(row[1]), "mac": str(row[2])}
        return AnchorInfo(
            record, f"{self.description} (gm_anchors)", 0, f"gm admin repair {session_id} --store {self.description}",
            required=self.anchors_required,
        )

    def set_anchor(self, session_id: str, anchor: Mapping[str, Any]) -> None:
        """Make ``anchor`` the session's anchor (``gm admin repair``)."""
        with self._transaction() as cur:
            cur.execute(self._q(_UPSERT_ANCHOR), _anchor_row(check_id(session_id), anchor))

    def _check_key(self) -> None:
        row = self._one("SELECT v FROM gm_meta WHERE k = 'key_id'")
        if row is None:
            self._exec(self._insert_ignore("gm_meta", "(k, v) VALUES ('key_id', ?)"), (self.keys.id,))
            row = self._one("SELECT v FROM gm_meta WHERE k = 'key_id'")
        if row is not None and row[0] != self.keys.id:
            raise StateError(
                f"the sessions in {self.description} are sealed with gm key {row[0]!r}, and this gm has key "
                f"{self.keys.id!r} (from {self.keys.source}): start it with the database's key "
                "($GM_SECRET_KEY or --key-file)",
                rule=KEY_RULE,
            )

    def _insert_ignore(self, table: str, rest: str) -> str:
        if self.dialect == "sqlite":
            return f"INSERT OR IGNORE INTO {table} {rest}"
        return f"INSERT INTO {table} {rest} ON CONFLICT DO NOTHING"

    # --- SessionStore
    def where(self, session_id: str, n: int) -> str:
        return f"record {n} of session {session_id} in {self.description}" if n else f"the header of session {session_id} in {self.description}"

    def create(self, session_id: str, header: Mapping[str, Any], anchor: Mapping[str, Any] | None = None) -> Position:
        check_id(session_id)
        with self._transaction() as cur:
            cur.execute(
                self._q(self._insert_ignore("gm_sessions", "(id, game, header, created, updated) VALUES (?, ?, ?, ?, ?)")),
                (session_id, str(header.get("game", "?")), _dumps(header), str(header.get("created", "")), time.time()),
            )
            if cur.rowcount != 1:
                raise SessionExists(f"session {session_id} already exists in {self.description}", rule=SESSION_RULE)
            if anchor is not None:
                cur.execute(self._q(_UPSERT_ANCHOR), _anchor_row(session_id, anchor))
        return Position(0)

    def append(self, session_id: str, at: Position, records: Sequence[Mapping[str, Any]], anchor: Mapping[str, Any] | None = None) -> Position:
        with self.writing(session_id) as w:
            return w.append(at, records, anchor)

    def writing(self, session_id: str) -> AbstractContextManager[_Buffer]:  # pragma: no cover - per dialect
        raise NotImplementedError

    def _missing(self, session_id: str) -> SessionNotFound:
        return SessionNotFound(f"no session {session_id!r} in {self.description}", rule=SESSION_RULE, input=session_id)

    def read(self, session_id: str) -> Stored:
        """The session and its anchor, as one moment of the database holds them."""
        check_id(session_id)
        with self._snapshot() as cur:
            cur.execute(self._q("SELECT header, records FROM gm_sessions WHERE id = ?"), (session_id,))
            row = cur.fetchone()
            if row is None:
                raise self._missing(session_id)
            cur.execute(self._q("SELECT n, last, mac FROM gm_anchors WHERE session = ?"), (session_id,))
            anchor = cur.fetchone()
            cur.execute(self._q("SELECT n, body FROM gm_records WHERE session = ? ORDER BY n"), (session_id,))
            rows = cur.fetchall()
        header = _loads(row[0], self.where(session_id, 0))
        records = [_loads(body, self.where(session_id, n)) for n, body in rows]
        return Stored(header, records, Position(len(records)), anchor=self.anchor_info(anchor, session_id))

    def ids(self) -> list[str]:
        return [r[0] for r in self._all("SELECT id FROM gm_sessions ORDER BY id")]

    def info(self, session_id: str) -> SessionInfo:
        row = self._one("SELECT header, records, updated FROM gm_sessions WHERE id = ?", (check_id(session_id),))
        if row is None:
            raise self._missing(session_id)
        return _info(session_id, _loads(row[0], self.where(session_id, 0)), int(row[1]), float(row[2]))

    def records(self, session_id: str) -> int:
        """How many records the session holds (cheap: a server checks its cached copy is current)."""
        row = self._one("SELECT records FROM gm_sessions WHERE id = ?", (check_id(session_id),))
        if row is None:
            raise self._missing(session_id)
        return int(row[0])

    def _transaction(self) -> AbstractContextManager[Any]:  # pragma: no cover - per dialect
        raise NotImplementedError

    def delete(self, session_id: str) -> None:
        check_id(session_id)
        with self._transaction() as cur:
            cur.execute(self._q("DELETE FROM gm_sessions WHERE id = ?"), (session_id,))
            gone = cur.rowcount
            for table in ("gm_records", "gm_anchors", "gm_transcripts", "gm_grants", "gm_ended"):
                cur.execute(self._q(f"DELETE FROM {table} WHERE session = ?"), (session_id,))
        if gone != 1:
            raise self._missing(session_id)

    def transcript_append(self, session_id: str, lines: Sequence[str], header: str) -> None:
        with self.writing(session_id) as w:
            w.transcript(lines, header)

    def transcript_read(self, session_id: str) -> list[str]:
        return [r[0] for r in self._all("SELECT line FROM gm_transcripts WHERE session = ? ORDER BY i", (check_id(session_id),))]

    def transcript_location(self, session_id: str) -> str | None:
        return None

    # --- access (gm.server.access)
    def grant(self, digest: str, kind: str, session_id: str, seat: str, sealed: str | None = None) -> None:
        self._exec(
            "INSERT INTO gm_grants (hash, kind, session, seat, sealed, created, mac) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (digest, kind, session_id, seat, sealed, time.time(), self._grant_mac(digest, kind, session_id, seat)),
        )

    def seat_grant(self, digest: str) -> tuple[str, str, str | None] | None:
        """(session, seat, why the game was ended or ``None``) of a seat token, else ``None``: one
        query, since every call of ``gm serve`` asks it; a grant whose MAC does not verify (a row
        someone put in the database) grants nothing."""
        row = self._one(
            "SELECT g.session, g.seat, g.mac, e.reason FROM gm_grants g LEFT JOIN gm_ended e ON e.session = g.session"
            " WHERE g.hash = ? AND g.kind = 'seat' AND g.used IS NULL",
            (digest,),
        )
        if row is None or not self._granted(row, digest, "seat"):
            return None
        return str(row[0]), str(row[1]), None if row[3] is None else str(row[3])

    def invitation(self, digest: str) -> tuple[str, str] | None:
        """(session, seat) of an unused join code, without using it."""
        row = self._one("SELECT session, seat, mac FROM gm_grants WHERE hash = ? AND kind = 'join' AND used IS NULL", (digest,))
        return (str(row[0]), str(row[1])) if row and self._granted(row, digest, "join") else None

    def join(self, code_digest: str, token_digest: str) -> tuple[str, str] | None:
        """Use a join code (one transaction): mark it used, void every live token of its seat (a game
        made by an older gm handed its creator every seat's token), grant the seat to the new token."""
        now = time.time()
        try:
            with self._transaction() as cur:
                cur.execute(
                    self._q("UPDATE gm_grants SET used = ?, sealed = NULL WHERE hash = ? AND kind = 'join' AND used IS NULL"),
                    (now, code_digest),
                )
                if cur.rowcount != 1:
                    return None
                cur.execute(self._q("SELECT session, seat, mac FROM gm_grants WHERE hash = ?"), (code_digest,))
                row = cur.fetchone()
                if not self._granted(row, code_digest, "join"):
                    raise _Forged()  # (rolls back: the code stays as it was)
                session_id, seat = str(row[0]), str(row[1])
                cur.execute(
                    self._q("UPDATE gm_grants SET used = ? WHERE session = ? AND seat = ? AND kind = 'seat' AND used IS NULL"),
                    (now, session_id, seat),
                )
                self._seat(cur, token_digest, session_id, seat, now)
        except _Forged:
            return None
        return session_id, seat

    def rotate(self, old_digest: str, new_digest: str) -> tuple[str, str] | None:
        """Void a live seat token and grant its seat to a new one (one transaction)."""
        now = time.time()
        try:
            with self._transaction() as cur:
                cur.execute(self._q("UPDATE gm_grants SET used = ? WHERE hash = ? AND kind = 'seat' AND used IS NULL"), (now, old_digest))
                if cur.rowcount != 1:
                    return None
                cur.execute(self._q("SELECT session, seat, mac FROM gm_grants WHERE hash = ?"), (old_digest,))
                row = cur.fetchone()
                if not self._granted(row, old_digest, "seat"):
                    raise _Forged()
                session_id, seat = str(row[0]), str(row[1])
                self._seat(cur, new_digest, session_id, seat, now)
        except _Forged:
            return None
        return session_id, seat

    def _seat(self, cur: Any, digest: str, session_id: str, seat: str, now: float) -> None:
        """Grant ``seat`` to the token ``digest`` (in the caller's transaction), MACed."""
        cur.execute(
            self._q("INSERT INTO gm_grants (hash, kind, session, seat, sealed, created, mac) VALUES (?, 'seat', ?, ?, NULL, ?, ?)"),
            (digest, session_id, seat, now, self._grant_mac(digest, "seat", session_id, seat)),
        )

    def invited(self, session_id: str) -> list[str]:
        """The seats whose join code has not been used yet."""
        return [str(r[0]) for r in self._all("SELECT seat FROM gm_grants WHERE session = ? AND kind = 'join' AND used IS NULL ORDER BY seat", (session_id,))]

    def end(self, session_id: str, reason: str) -> bool:
        return self._exec(self._insert_ignore("gm_ended", "(session, at, reason) VALUES (?, ?, ?)"), (session_id, time.time(), reason)) == 1

    def ended(self, session_id: str) -> str | None:
        row = self._one("SELECT reason FROM gm_ended WHERE session = ?", (session_id,))
        return str(row[0]) if row else None

    def seats_of(self, session_id: str) -> list[tuple[str, str]]:
        """(kind, seat) of every grant of a session (no hashes)."""
        return [(str(k), str(s)) for k, s in self._all("SELECT kind, seat FROM gm_grants WHERE session = ? ORDER BY seat, kind", (session_id,))]


# ------------------------------------------------------------------- SQLite
class _Checkpointer:
    """Copies a SQLite WAL back into the database from a thread of its own (``PRAGMA
    wal_checkpoint(PASSIVE)``: it copies what no reader still needs and never blocks a writer), after
    every ``every`` commits or ``seconds`` after the last one; stops when its store is closed or gone."""

    def __init__(self, path: Path, every: int = 200, seconds: float = 2.0) -> None:
        self.path = path
        self.every = every
        self.seconds = seconds
        self.commits = 0
        self.checkpoints = 0
        self._wake = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def committed(self) -> None:
        """One more commit; start the thread on the first."""
        with self._lock:
            self.commits += 1
            if self._thread is None and not self._stop:
                self._thread = threading.Thread(target=self._run, name=f"gm-sqlite-checkpoint {self.path.name}", daemon=True)
                self._thread.start()
        if self.commits >= self.every:
            self._wake.set()

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
        try:
            while not self._stop:
                self._wake.wait(self.seconds)
                self._wake.clear()
                if self._stop:
                    break
                if self.commits:
                    self.commits = 0
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                    self.checkpoints += 1
        except sqlite3.Error:
            pass  # the database went away (a test's temporary folder): nothing left to copy
        finally:
            conn.close()

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(timeout=5)


class SqliteStore(_SqlStore):
    """Sessions in one SQLite file (see the module docstring)."""

    dialect = "sqlite"

    def __init__(self, path: str | Path, keys: KeyRing | None = None) -> None:
        self.path = Path(path).expanduser()
        self.description = f"sqlite:{self.path}"
        fresh = not self.path.exists()
        if not fresh:  # (it holds sealed sessions: refused if others could read it)
            refuse_shared(self.path, "the database")
        # a new key only for a new database: one that exists needs the key it was sealed with
        self.keys = keys if keys is not None else load_keyring(create=fresh)
        self._local = threading.local()
        self._commit = threading.Lock()  # SQLite commits one transaction at a time: queue here, not in its busy loop
        self._game_lock: GameLocks[threading.Lock] = GameLocks(threading.Lock)
        if not self.path.parent.is_dir():
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        conn = self._connect()
        if fresh:
            os.chmod(self.path, 0o600)
        conn.execute("PRAGMA journal_mode=WAL")
        self.checkpointer = _Checkpointer(self.path)
        weakref.finalize(self, self.checkpointer.stop)
        self._setup()

    def _connect(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=30000")
            conn.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread copies the WAL back
            self._local.conn = conn
        return conn

    @contextmanager
    def _cursor(self) -> Iterator[sqlite3.Cursor]:
        cur = self._connect().cursor()
        try:
            yield cur
        finally:
            cur.close()

    def _exec(self, sql: str, params: Sequence[Any] = ()) -> int:
        """A write of its own: queued on the process's commit lock, never in SQLite's busy loop
        (whose back-off sleeps would stall every other writer)."""
        with self._commit:
            n = super()._exec(sql, params)
        self.checkpointer.committed()
        return n

    @contextmanager
    def writing(self, session_id: str) -> Iterator[_Buffer]:
        check_id(session_id)
        lock = self._game_lock(session_id)
        with lock:
            row = self._one("SELECT records, tlines FROM gm_sessions WHERE id = ?", (session_id,))
            if row is None:
                raise self._missing(session_id)
            buf = _Buffer(session_id, int(row[0]), int(row[1]))
            yield buf
            if buf.dirty:
                self._flush(buf)

    def _flush(self, buf: _Buffer) -> None:
        conn = self._connect()
        with self._commit:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT records, tlines FROM gm_sessions WHERE id = ?", (buf.id,)).fetchone()
                if row is None:
                    raise self._missing(buf.id)
                if int(row[0]) != buf.start_records:
                    raise SessionConflict(f"session {buf.id} was changed by another process", rule=SESSION_RULE)
                if buf.lines and int(row[1]) != buf.tlines:  # another process wrote transcript lines: go after them
                    buf.lines = [(s, int(row[1]) + k, line) for k, (s, _, line) in enumerate(buf.lines)]
                conn.executemany("INSERT INTO gm_records (session, n, body) VALUES (?, ?, ?)", buf.rows)
                conn.executemany("INSERT INTO gm_transcripts (session, i, line) VALUES (?, ?, ?)", buf.lines)
                if buf.anchor is not None:
                    conn.execute(_UPSERT_ANCHOR, buf.anchor)
                conn.execute(
                    "UPDATE gm_sessions SET records = ?, tlines = tlines + ?, updated = ? WHERE id = ?",
                    (buf.records, len(buf.lines), time.time(), buf.id),
                )
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        self.checkpointer.committed()

    @contextmanager
    def _snapshot(self) -> Iterator[sqlite3.Cursor]:
        conn = self._connect()
        if conn.in_transaction:  # (inside this thread's own transaction: it sees one moment already)
            with self._cursor() as cur:
                yield cur
            return
        conn.execute("BEGIN")  # deferred: the first read fixes what the transaction sees (WAL)
        try:
            with self._cursor() as cur:
                yield cur
        finally:
            conn.execute("COMMIT")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Cursor]:
        conn = self._connect()
        with self._commit:
            conn.execute("BEGIN IMMEDIATE")
            cur = conn.cursor()
            try:
                yield cur
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            finally:
                cur.close()
        self.checkpointer.committed()

    def close(self) -> None:
        self.checkpointer.stop()
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


# --------------------------------------------------------------- PostgreSQL
def _safe_dsn(dsn: str) -> str:
    """The DSN without a password (for messages)."""
    parts = urlsplit(dsn)
    if parts.password:
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
        return urlunsplit(parts._replace(netloc=netloc))
    return dsn


class PostgresStore(_SqlStore):
    """Sessions in a PostgreSQL database (see the module docstring)."""

    dialect = "postgresql"

    def __init__(self, dsn: str, keys: KeyRing | None = None, *, pool_size: int = 16) -> None:
        try:
            from psycopg_pool import ConnectionPool
        except ImportError as exc:  # pragma: no cover - the postgres extra is missing
            raise StateError(
                f"a postgresql store needs psycopg 3 ({exc.name} is missing): pip install 'gm[postgres]'", rule=SESSION_RULE
            ) from None
        self.dsn = dsn
        self.description = _safe_dsn(dsn)
        self.keys = keys if keys is not None else load_keyring(create=False)  # (every process must share one key)
        self.pool = ConnectionPool(
            dsn, min_size=1, max_size=pool_size, kwargs={"autocommit": True}, open=False, name="gm", timeout=30.0
        )
        try:
            self.pool.open(wait=True, timeout=30.0)
        except Exception as exc:
            self.pool.close()
            raise StateError(f"cannot connect to {self.description}: {exc}", rule=SESSION_RULE) from None
        self._setup()

    def _q(self, sql: str) -> str:
        return sql.replace("?", "%s")

    @contextmanager
    def _cursor(self) -> Iterator[Any]:
        with self.pool.connection() as conn, conn.cursor() as cur:
            yield cur

    @contextmanager
    def _transaction(self) -> Iterator[Any]:
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            yield cur

    @contextmanager
    def _snapshot(self) -> Iterator[Any]:
        with self.pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield cur

    @contextmanager
    def writing(self, session_id: str) -> Iterator[_Buffer]:
        check_id(session_id)
        with self._transaction() as cur:
            cur.execute("SELECT records, tlines FROM gm_sessions WHERE id = %s FOR UPDATE", (session_id,))
            row = cur.fetchone()
            if row is None:
                raise self._missing(session_id)
            buf = _Buffer(session_id, int(row[0]), int(row[1]))
            yield buf
            if buf.dirty:
                if buf.rows:
                    cur.executemany("INSERT INTO gm_records (session, n, body) VALUES (%s, %s, %s)", buf.rows)
                if buf.lines:
                    cur.executemany("INSERT INTO gm_transcripts (session, i, line) VALUES (%s, %s, %s)", buf.lines)
                if buf.anchor is not None:
                    cur.execute(self._q(_UPSERT_ANCHOR), buf.anchor)
                cur.execute(
                    "UPDATE gm_sessions SET records = %s, tlines = tlines + %s, updated = %s WHERE id = %s",
                    (buf.records, len(buf.lines), time.time(), session_id),
                )
                if buf.rows:
                    cur.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, session_id))

    def close(self) -> None:
        self.pool.close()


_PG = re.compile(r"^postgres(ql)?://", re.IGNORECASE)


def open_sql_store(spec: str, keys: KeyRing | None = None) -> SqliteStore | PostgresStore:
    """The store ``spec`` names: ``sqlite:PATH`` or ``postgresql://...`` (a libpq URI).  The key ring:
    ``keys``, else ``$GM_SECRET_KEY``, ``$GM_KEY_FILE``, or ``$GM_HOME/secret.key``."""
    if spec.startswith("sqlite:"):
        path = spec.removeprefix("sqlite:").removeprefix("//")
        if not path:
            raise StateError("sqlite: needs a path, e.g. sqlite:~/.gm/gm.sqlite", rule=SESSION_RULE)
        return SqliteStore(path, keys)
    if _PG.match(spec):
        return PostgresStore(spec, keys)
    raise StateError(f"not a database store: {spec!r} (sqlite:PATH or postgresql://...)", rule=SESSION_RULE)
