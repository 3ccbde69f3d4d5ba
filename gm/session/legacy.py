"""Session files of format 1 (gm 0.1): read once and rewritten in format 2.

Format 1 kept the seed and the bots' sealed picks in plain text and chained nothing.  Its seed was
shown to the player, so an upgraded session is a practice game (its seed public); its records are
re-written sealed and chained, and the file is replaced in one step (``os.replace``).
"""

from __future__ import annotations

import json
import os
from typing import Any

from gm.core.errors import StateError
from gm.session.keys import KeyRing
from gm.session.records import Chain
from gm.session.store import SESSION_RULE, FileStore, Position, SessionStore, Stored


def upgrade_v1(store: SessionStore, sid: str, stored: Stored, keys: KeyRing) -> Stored:
    """The format-2 form of a format-1 session, written back in place of the old file."""
    if not isinstance(store, FileStore):
        raise StateError(f"session {sid}: format 1 sessions exist only as files", rule=SESSION_RULE)
    h = stored.header
    try:
        chain = Chain(keys, sid)
        header = chain.header(
            {
                "id": sid,
                "game": h["game"],
                "rules": h["rules"],
                "rules_hash": h["rules_hash"],
                "players": h["players"],
                "created": h.get("created", ""),
                "gm_version": h.get("gm_version", ""),
                "practice": True,
                "seed": int(h["seed"]),
                "bot_seed": int(h["bot_seed"]),
                "nonce_seed": h.get("nonce_seed"),
                "upgraded_from": 1,
            }
        )
        records: list[dict[str, Any]] = []
        for n, rec in enumerate(stored.records, start=1):
            if "retract" in rec:
                payload: dict[str, Any] = {"retract": str(rec["retract"]["seat"])}
            elif "sealed" in rec:
                s = rec["sealed"]
                payload = {
                    "seat": str(s["seat"]),
                    "public": "locked",
                    "sealed": chain.seal({"action": str(s["action"]), "nonce": s.get("nonce")}, f"record {n}"),
                    "commitment": str(s["commitment"]),
                }
            else:
                payload = {"seat": str(rec["seat"]), "action": str(rec["action"])}
            records.append(chain.record(n, payload))
    except (KeyError, TypeError, ValueError) as exc:
        raise StateError(f"session {sid}: a format 1 session that cannot be upgraded ({exc!r})", rule=SESSION_RULE) from None
    data = "".join(json.dumps(o, separators=(",", ":"), ensure_ascii=False) + "\n" for o in (header, *records)).encode()
    path = store.path(sid)
    tmp = path.with_name(path.name + ".upgrade")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    store.set_anchor(sid, chain.anchor(len(records)))  # (its header says it is anchored: so it is)
    return Stored(header, records, Position(len(records), len(data)))
