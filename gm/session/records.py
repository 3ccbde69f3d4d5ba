"""The stored form of a session: a header and a chain of records, each sealed where it holds a secret
and each tied to the one before it.

Every stored object carries ``mac`` = HMAC-SHA256 (the store's key, :mod:`gm.session.keys`) of the
MAC before it and of its own canonical JSON, and every record its number ``n`` (1, 2, ...).  So an
edited record, two records swapped, or a record taken out of the middle fails on load, naming the
record; a session sealed under another key says so instead.  Only a cut-off last record (a write
that never completed) is tolerated: it was never acknowledged.

Record kinds (besides ``n`` and ``mac``):

- ``{"seat": S, "action": TEXT}`` — a move everyone may read;
- ``{"seat": S, "public": TEXT, "sealed": BLOB}`` — a move still secret when it was made: a pick
  locked in while others of its round still choose (``public`` is ``"locked"``), or a move that
  carries a lasting secret (``public`` is its public form, e.g. a hidden ball holder left out).
  ``BLOB`` seals ``{"action": TEXT, "nonce": ...}``; a bot's pick also has ``"commitment"``;
- ``{"retract": S}`` — ``S`` took back its locked pick.

The header holds the setup (game, ruleset and its hash, players, created, gm version), ``practice``
and the seed when it is public, else ``seed_commitment`` and ``sealed``: the hidden seed and what
the bots and nonces derive from.

A chain shows an edit anywhere, but not a cut at a record boundary: the file, cut back, is a shorter
game that verifies.  So every store that others could change also keeps each session's *anchor*: how
many records it has and the MAC of the last, itself MACed (:meth:`Chain.anchor`), kept apart from
the records and written with every append (:class:`gm.session.store.AnchorInfo` says where).  A
session that holds fewer records than its anchor, or other ones, is refused: a player cannot cut a
game back to before a move it has made and seen answered (a bot's pick revealed, a roll) and choose
again.  A new session's header says ``anchored``: its anchor missing is refused too (a session made
before anchors has none, and is checked by its chain alone until its next write anchors it).

- SQL stores write the anchor in the same transaction as the records: a session holds exactly
  what its anchor says.
- The file store keeps the anchors of all the sessions of a gm home in one index
  (``anchors/_index.json``), MACed as a whole under the key and numbered by a per-home counter
  (:class:`gm.session.store.AnchorIndex`): an old session file put back with its old anchor is caught,
  since the index holds the newer one; putting back an old copy of the whole index is caught as soon
  as any other session moved since (each file may run at most one record ahead of its index entry:
  the record is appended, then the index written, and a crash between leaves exactly that).

The documented way to accept a cut-off session is explicit: ``gm sessions repair SESSION`` (``gm
admin repair`` for a server's database) says what is lost and anchors the session as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gm.core.errors import StateError
from gm.session.keys import KeyRing, SealError, canonical
from gm.session.store import SESSION_RULE, AnchorInfo

FORMAT = "gm-session"
VERSION = 2


class TamperError(StateError):
    """A stored record that does not verify: the session was edited, reordered or cut."""


def make_anchor(keys: KeyRing, session_id: str, n: int, last: str) -> dict[str, Any]:
    """The anchor of session ``session_id`` holding ``n`` records, the last one's MAC ``last`` (the
    header's when ``n`` is 0): ``{"n", "last", "mac"}``, the MAC under the session's key."""
    body = {"n": n, "last": last}
    return {**body, "mac": keys.mac(session_id, b"anchor|" + canonical(body))}


class Chain:
    """Seals, chains and verifies one session's stored objects.

    ``plain``: for a store no one else can read (memory): nothing is sealed or chained there, as
    there is nobody to keep it from (records still carry their numbers)."""

    def __init__(self, keys: KeyRing, session_id: str, *, plain: bool = False) -> None:
        self.keys = keys
        self.id = session_id
        self.plain = plain
        self.last = ""  # MAC of the last object written or verified

    def _mac(self, obj: Mapping[str, Any]) -> str:
        if self.plain:
            return ""
        body = {k: v for k, v in obj.items() if k != "mac"}
        return self.keys.mac(self.id, self.last.encode() + b"|" + canonical(body))

    # ------------------------------------------------------------ writing
    def header(self, header: Mapping[str, Any]) -> dict[str, Any]:
        out = {**header, "format": FORMAT, "version": VERSION, "key_id": self.keys.id}
        if not self.plain:
            out["anchored"] = True  # (sealed in the header: a store must hold this session's anchor)
        self.last = ""
        out["mac"] = self._mac(out)
        self.last = out["mac"]
        return out

    def record(self, n: int, payload: Mapping[str, Any]) -> dict[str, Any]:
        out = {"n": n, **payload}
        if not self.plain:
            out["mac"] = self._mac(out)
            self.last = out["mac"]
        return out

    def seal(self, value: Any, context: str) -> Any:
        return value if self.plain else self.keys.seal(self.id, value, context)

    def open(self, blob: Any, context: str, where: str) -> Any:
        if self.plain:
            return blob
        try:
            return self.keys.open(self.id, str(blob), context)
        except SealError:
            raise TamperError(f"session {self.id}: {where} was changed: its sealed part does not open", rule=SESSION_RULE) from None

    def anchor(self, n: int) -> dict[str, Any]:
        """The anchor of a session of ``n`` records whose last MAC is :attr:`last` (see the module
        docstring)."""
        return make_anchor(self.keys, self.id, n, self.last)

    # ----------------------------------------------------------- reading
    def check_anchor(self, info: AnchorInfo, macs: list[str], where: Callable[[int], str], anchored: bool) -> None:
        """Refuse a session whose records (their MACs, header first) do not match its anchor (see the
        module docstring); ``where(n)``: where record ``n`` is, in words; ``anchored``: the session's
        header says it has an anchor."""
        if info.error is not None:
            raise TamperError(f"session {self.id}: {info.error}", rule=SESSION_RULE)
        anchor = info.record
        held = len(macs) - 1
        if anchor is None:
            if (anchored or info.required) and held > 0:
                raise TamperError(
                    f"session {self.id}: its anchor is missing from {info.source} (it was removed, or the session was "
                    f"copied from another gm home); restore it, or accept the session as it is with: {info.repair}",
                    rule=SESSION_RULE,
                )
            return
        body = {"n": anchor.get("n"), "last": anchor.get("last")}
        n = body["n"]
        if anchor.get("mac") != self.keys.mac(self.id, b"anchor|" + canonical(body)) or not isinstance(n, int) or n < 0:
            raise TamperError(f"session {self.id}: its anchor in {info.source} was changed", rule=SESSION_RULE)
        if n > held:
            raise TamperError(
                f"session {self.id}: records were cut off its end: {where(held + 1)} is missing (it had "
                f"{n} records, the store holds {held}); restore it, or accept the loss with: {info.repair}",
                rule=SESSION_RULE,
            )
        if macs[n] != body["last"]:
            raise TamperError(f"session {self.id}: record {n} is not the one its anchor in {info.source} names", rule=SESSION_RULE)
        if info.lag is not None and held > n + info.lag:
            raise TamperError(
                f"session {self.id}: it holds {held} records and its anchor in {info.source} only {n}: the anchors "
                f"were put back from an older copy; restore them, or accept the session as it is with: {info.repair}",
                rule=SESSION_RULE,
            )

    def verify_header(self, header: Mapping[str, Any], where: str) -> None:
        if self.plain:
            return
        if header.get("key_id") != self.keys.id:
            raise TamperError(
                f"session {self.id} was sealed with another gm key (key {header.get('key_id')!r}, this gm has "
                f"{self.keys.id!r} from {self.keys.source}): restore that key to open it",
                rule=SESSION_RULE,
            )
        self.last = ""
        if header.get("mac") != self._mac(header):
            raise TamperError(f"session {self.id}: {where} (the header) was changed: it does not match its seal", rule=SESSION_RULE)
        self.last = str(header["mac"])

    def verify(self, n: int, record: Mapping[str, Any], where: str) -> None:
        if record.get("n") != n:
            raise TamperError(
                f"session {self.id}: {where} is out of place (record {record.get('n')!r} where record {n} belongs): "
                "records were removed, swapped or inserted",
                rule=SESSION_RULE,
            )
        if not self.plain and record.get("mac") != self._mac(record):
            raise TamperError(f"session {self.id}: {where} was changed: it does not match the chain", rule=SESSION_RULE)
        self.last = str(record.get("mac", ""))
