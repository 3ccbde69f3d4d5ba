"""Accepting a session as it is: the one explicit way past an anchor (:mod:`gm.session.records`).

A session whose records were cut back (a restored backup, a file copied from an older day) is
refused on every load; :func:`repair` accepts it as it now is, after saying what is lost: the
records its anchor names that the store no longer holds.  Only the anchor is replaced - the chain
still checks every record, so an *edited* session stays refused (nothing can make an edit verify).
``gm sessions repair SESSION`` (file stores) and ``gm admin repair GAME`` (a server's database).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gm.core.errors import GameError, StateError
from gm.session.records import make_anchor
from gm.session.session import Session, store_keys
from gm.session.store import SESSION_RULE, AnchorIndexError, FileStore, MemoryStore, SessionStore


@dataclass(frozen=True)
class Repair:
    """What accepting one session as it is means."""

    session: str
    #: records the store holds now (the game goes on from them)
    held: int
    #: records its anchor named (``None``: it had no anchor, or it could not be read)
    anchored: int | None
    #: why the session was refused (``None``: it was not: nothing to do)
    problem: str | None
    #: the last move still held, as a spectator reads it
    last_move: str | None

    @property
    def lost(self) -> int:
        return max(0, (self.anchored or 0) - self.held)

    def describe(self) -> str:
        if self.problem is None:
            return f"{self.session}: nothing to repair (its {self.held} records match its anchor)"
        where = f"move {self.held} ({self.last_move})" if self.last_move else "its start"
        if self.lost:
            return f"{self.session}: the last {self.lost} of its {self.anchored} records are lost for good; the game goes on from {where}"
        return f"{self.session}: accepted with the {self.held} records it holds (its anchor was {'unreadable' if self.anchored is None else 'behind'}); the game goes on from {where}"


def _open(store: SessionStore, sid: str, *, anchor: bool) -> Session:
    return Session.open(sid, store=store, record=False, anchor=anchor)


def _anchored(store: SessionStore, sid: str) -> int | None:
    try:
        info = store.read(sid).anchor
    except GameError:
        return None
    if info is None or info.record is None or info.error is not None:
        return None
    n = info.record.get("n")
    return n if isinstance(n, int) else None


def inspect(store: SessionStore, sid: str) -> Repair:
    """What :func:`repair` would do to session ``sid`` (nothing written).  Raises the load error when
    the session is refused for something no repair can accept (an edited or foreign record)."""
    if isinstance(store, MemoryStore):
        raise StateError("a memory store keeps no anchors: nothing to repair", rule=SESSION_RULE)
    store_keys(store)
    try:
        _open(store, sid, anchor=True)
        problem = None
    except GameError as exc:
        problem = exc.message
    s = _open(store, sid, anchor=False)  # the chain still checks every record: an edit raises here
    held = s.stored_count
    last = f"{s.state.log[-1].seat}: {s.public_move(len(s.state.log) - 1)}" if s.state.log else None
    return Repair(sid, held, _anchored(store, sid), problem, last)


def _anchor_of(store: SessionStore, sid: str) -> dict[str, Any]:
    s = _open(store, sid, anchor=False)
    stored = store.read(sid)
    last = str((stored.records[-1] if stored.records else stored.header).get("mac", ""))
    return make_anchor(store_keys(store), sid, s.stored_count, last)


def repair(store: SessionStore, sid: str) -> Repair:
    """Accept session ``sid`` as the store holds it now: its anchor is made anew for the records it
    holds (see the module docstring); returns what that meant.  A session that opens as it is is left
    alone."""
    found = inspect(store, sid)
    if found.problem is not None:
        setter = getattr(store, "set_anchor", None)
        if setter is None:
            raise StateError(f"{store.description} keeps no anchors", rule=SESSION_RULE)
        try:
            setter(sid, _anchor_of(store, sid))
        except AnchorIndexError as exc:
            raise StateError(f"{exc.reason} (repair every session at once: gm sessions repair --all)", rule=SESSION_RULE) from None
    return found


def repair_all(store: FileStore, ids: Iterable[str]) -> tuple[list[Repair], list[tuple[str, str]]]:
    """Rebuild a gm home's anchor index from its sessions as they are: every session whose chain
    checks is anchored at the records it holds (what its old anchor named is reported when it can
    still be read); the others are left out, with why."""
    keys = store_keys(store)
    done: list[Repair] = []
    skipped: list[tuple[str, str]] = []
    anchors: dict[str, Any] = {}
    for sid in ids:
        try:
            found = inspect(store, sid)
            anchors[sid] = _anchor_of(store, sid)
        except GameError as exc:
            skipped.append((sid, exc.message))
            continue
        done.append(found)
    store.index.update(keys, anchors, rebuild=True)
    for sid in anchors:
        store.anchor_path(sid).unlink(missing_ok=True)
    return done, skipped


__all__ = ["Repair", "inspect", "repair", "repair_all"]
