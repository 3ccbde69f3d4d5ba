"""A session's stored records: where they are kept, how they are sealed and chained, how far this
copy has read them, and the write a call holds.

:class:`Ledger` is the session's storage collaborator.  It knows nothing of the game: it takes the
records :meth:`gm.session.Session` makes of its moves, seals the secret part of each (the key ring
of :func:`store_keys`), chains them (:class:`gm.session.records.Chain`) and appends them, with the
session's anchor, to its :class:`gm.session.store.SessionStore`, inside the write a call holds or in a
write of their own.  A failed or refused append leaves the chain as it was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gm.session.keys import KeyRing
from gm.session.records import Chain
from gm.session.store import FileStore, MemoryStore, Position, SessionStore, Writer


def store_keys(store: SessionStore, *, create: bool = True) -> KeyRing:
    """The key ring that seals and chains ``store``'s sessions; ``create``: a file store may make its
    home's key (only when it has none and no sessions: :func:`gm.session.keys.load_keyring`)."""
    keys = getattr(store, "keys", None)
    if isinstance(keys, KeyRing):
        return keys
    if isinstance(store, FileStore):
        from gm.session.keys import load_keyring

        keys = load_keyring(store.home, create=create)
    else:
        keys = KeyRing.generate()
    store.keys = keys  # type: ignore[attr-defined]
    return keys


class Ledger:
    """The stored records of one session (``store``, ``id``): their chain and this copy's position."""

    __slots__ = ("chain", "id", "position", "store", "writer")

    def __init__(self, store: SessionStore, id: str, chain: Chain, position: Position | None = None) -> None:
        self.store = store
        self.id = id
        self.chain = chain
        #: how many records (and, for files, bytes) of the session this copy has read or written
        self.position = position if position is not None else Position(0)
        #: the store's writer while a call holds the session's write lock, else ``None``
        self.writer: Writer | None = None

    @property
    def count(self) -> int:
        """How many records this copy has read or written."""
        return self.position.count

    def stored_count(self) -> int:
        """How many records the store holds now (another process may have added some)."""
        count = getattr(self.store, "records", None)
        return int(count(self.id)) if callable(count) else self.store.info(self.id).moves

    def seal(self, part: Mapping[str, Any], label: str) -> str:
        """``part`` sealed with the session's key (a header's hidden seed)."""
        return self.chain.seal(part, label)

    def append(self, records: list[dict[str, Any]]) -> None:
        """Seal, chain and append ``records`` (a record's ``_inner`` part is sealed in place), with the
        session's anchor after them (:mod:`gm.session.records`), in the held write if there is one.
        Raises what the store raises (:class:`gm.session.store.SessionConflict`, ``OSError``), and then
        the chain is as it was."""
        out = []
        chain = self.chain
        last = chain.last
        n = self.position.count
        for rec in records:
            n += 1
            if "_inner" in rec:
                inner = rec.pop("_inner")
                rec["sealed"] = chain.seal(inner, f"record {n}")
            out.append(chain.record(n, rec))
        anchor = None if chain.plain else chain.anchor(n)  # (a memory store's chain is plain: nothing to anchor)
        try:
            if self.writer is not None:
                self.position = self.writer.append(self.position, out, anchor)
            else:
                self.position = self.store.append(self.id, self.position, out, anchor)
        except BaseException:
            chain.last = last
            raise

    def write_transcript(self, lines: Sequence[str], header: str) -> None:
        """Append transcript lines: inside a call, in the same write as its records."""
        if self.writer is not None:
            self.writer.transcript(lines, header)
        else:
            self.store.transcript_append(self.id, lines, header)

    def follow(self, other: Ledger) -> None:
        """Take the chain and position of a fresh copy of the same session (a reload), keeping the
        write this copy holds."""
        self.chain, self.position = other.chain, other.position

    @property
    def in_memory(self) -> bool:
        """Whether the records are only in this process (a memory store: nothing to seal for others)."""
        return isinstance(self.store, MemoryStore)
