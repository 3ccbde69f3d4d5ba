"""Who may play what: seat tokens, join codes, player keys and the admin token.

- A **seat token** (``gms_`` + 43 characters, 256 random bits) grants exactly one seat of one game,
  to whoever holds the seat.  Creating a game returns the creator's own token only.  Only its SHA-256
  is stored (tokens are random, so a plain hash is enough: there is nothing to guess from it), so a
  token, once made, can be given away by nobody but its holder.  The holder may replace it
  (:meth:`AccessBook.rotate`): the old one is void at once.
- A **join code** (``XXXX-XXXX-XXXX``, 60 random bits) is what the creator hands to each other
  player: used once (:meth:`AccessBook.join`), it makes that seat's token then and there, for the
  joiner alone, and voids any token the seat had before (a game made by an older gm, whose creator
  was given every seat's token).  Only the code's hash and its seat are stored: a code is no token.
- **Player keys** (``--keys-file``): who may create and join games on a server that is not on
  loopback.  Kept in a file of the operator's (one key or ``sha256:HEX`` per line), compared by hash.
- The **admin token** (``$GM_ADMIN_TOKEN`` or ``--admin-token-file``) lists and ends games.

The grants live in the session store's database (:mod:`gm.session.sql`) or, for a memory store, in
:class:`MemoryAccess`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

SEAT_PREFIX = "gms_"
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"  # no 0/O, 1/I/L, U: read aloud and typed without mistakes
SEAT, JOIN = "seat", "join"


def new_seat_token() -> str:
    return SEAT_PREFIX + secrets.token_urlsafe(32)


def new_join_code() -> str:
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def digest(secret: str) -> str:
    """The stored form of a token: SHA-256 hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


def code_digest(code: str) -> str:
    """The stored form of a join code (read case-, space- and dash-insensitively)."""
    norm = "".join(ch for ch in code.upper() if ch.isalnum())
    return digest("join:" + norm)


def same(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


@runtime_checkable
class AccessBook(Protocol):
    """Where grants are kept (implemented by the SQL stores and :class:`MemoryAccess`)."""

    def grant(self, digest: str, kind: str, session_id: str, seat: str, sealed: str | None = None) -> None: ...

    def seat_grant(self, digest: str) -> tuple[str, str, str | None] | None:
        """(session, seat, why the game was ended or ``None``) of a live seat token, else ``None``."""
        ...

    def invitation(self, digest: str) -> tuple[str, str] | None:
        """(session, seat) of an unused join code, without using it, else ``None``."""
        ...

    def join(self, code_digest: str, token_digest: str) -> tuple[str, str] | None:
        """Use a join code: in one step mark it used, void every live token of its seat, and grant
        the seat to ``token_digest``; (session, seat), or ``None`` if the code is unknown or used."""
        ...

    def rotate(self, old_digest: str, new_digest: str) -> tuple[str, str] | None:
        """In one step void the live seat token ``old_digest`` and grant its seat to ``new_digest``;
        (session, seat), or ``None`` if ``old_digest`` is no live seat token."""
        ...

    def invited(self, session_id: str) -> list[str]:
        """The seats of ``session_id`` whose join code has not been used yet."""
        ...

    def end(self, session_id: str, reason: str) -> bool: ...

    def ended(self, session_id: str) -> str | None: ...

    def seats_of(self, session_id: str) -> list[tuple[str, str]]: ...


@dataclass
class _Grant:
    kind: str
    session: str
    seat: str
    sealed: str | None
    used: float | None = None


class MemoryAccess:
    """Grants in memory (a server on a memory store: tests, trying it out)."""

    def __init__(self) -> None:
        self._grants: dict[str, _Grant] = {}
        self._ended: dict[str, str] = {}
        self._lock = threading.Lock()

    def grant(self, digest: str, kind: str, session_id: str, seat: str, sealed: str | None = None) -> None:
        with self._lock:
            self._add(digest, _Grant(kind, session_id, seat, sealed))

    def _add(self, digest: str, g: _Grant) -> None:
        if digest in self._grants:
            raise ValueError("duplicate grant")
        self._grants[digest] = g

    def _open(self, digest: str, kind: str) -> _Grant | None:
        """The grant of ``kind`` under ``digest`` while it is not used yet."""
        g = self._grants.get(digest)
        return g if g is not None and g.kind == kind and g.used is None else None

    def seat_grant(self, digest: str) -> tuple[str, str, str | None] | None:
        g = self._open(digest, SEAT)
        if g is None:
            return None
        return g.session, g.seat, self._ended.get(g.session)

    def invitation(self, digest: str) -> tuple[str, str] | None:
        g = self._open(digest, JOIN)
        if g is None:
            return None
        return g.session, g.seat

    def join(self, code_digest: str, token_digest: str) -> tuple[str, str] | None:
        return self._redeem(code_digest, JOIN, token_digest)

    def rotate(self, old_digest: str, new_digest: str) -> tuple[str, str] | None:
        return self._redeem(old_digest, SEAT, new_digest)

    def _redeem(self, digest: str, kind: str, new_digest: str) -> tuple[str, str] | None:
        """In one step use the open grant of ``kind`` under ``digest`` and grant its seat to ``new_digest``;
        a join code also voids every live token of its seat and drops its sealed copy."""
        with self._lock:
            g = self._open(digest, kind)
            if g is None:
                return None
            now = time.time()
            g.used = now
            if kind == JOIN:
                g.sealed = None
                for other in self._grants.values():
                    if other.kind == SEAT and other.session == g.session and other.seat == g.seat and other.used is None:
                        other.used = now
            self._add(new_digest, _Grant(SEAT, g.session, g.seat, None))
            return g.session, g.seat

    def invited(self, session_id: str) -> list[str]:
        return sorted(g.seat for g in self._grants.values() if g.session == session_id and g.kind == JOIN and g.used is None)

    def end(self, session_id: str, reason: str) -> bool:
        with self._lock:
            if session_id in self._ended:
                return False
            self._ended[session_id] = reason
            return True

    def ended(self, session_id: str) -> str | None:
        return self._ended.get(session_id)

    def seats_of(self, session_id: str) -> list[tuple[str, str]]:
        return sorted((g.kind, g.seat) for g in self._grants.values() if g.session == session_id)


def access_for(store: object) -> AccessBook:
    """The access book kept with ``store``: the database's own tables, or a new :class:`MemoryAccess`."""
    if isinstance(store, AccessBook):
        return store
    return MemoryAccess()


class Keys:
    """A set of secrets compared by hash (player keys, the admin token)."""

    def __init__(self, secrets_or_hashes: Iterable[str] = ()) -> None:
        self._hashes: set[str] = set()
        for item in secrets_or_hashes:
            item = item.strip()
            if not item or item.startswith("#"):
                continue
            self._hashes.add(item.removeprefix("sha256:").lower() if item.startswith("sha256:") else digest(item))

    @classmethod
    def from_file(cls, path: str | Path) -> Keys:
        from gm.core.files import KEYS_LIMIT, read_text

        return cls(read_text(Path(path).expanduser(), KEYS_LIMIT, "keys file").splitlines())

    def __bool__(self) -> bool:
        return bool(self._hashes)

    def __len__(self) -> int:
        return len(self._hashes)

    def check(self, secret: str | None) -> bool:
        if not secret:
            return False
        h = digest(secret)
        return any(same(h, known) for known in self._hashes)
