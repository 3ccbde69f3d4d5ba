"""Issue #36, the threat model: someone with ``gm serve``'s database but not its key.

They can read its rows and write them.  What they can write must not grant them a seat: a grant row
(a seat token's hash, or a join code's) that they add is refused, since every grant is MACed under the
server key; a legacy database's grants get their MAC once, when it is upgraded.  (Cutting a game back
or putting its rows back: ``test_sec_rollback.py``; reading what is sealed: ``test_sec_secrets.py``.)
On gm before this work a row added to ``gm_grants`` granted the seat."""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from pathlib import Path

import httpx2
import pytest
from serve_attack import ServerProcess, auth

from gm.server.pgcluster import PgCluster


def _h(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _code_h(code: str) -> str:
    return _h("join:" + "".join(ch for ch in code.upper() if ch.isalnum()))


def test_a_grant_written_into_the_sqlite_database_grants_nothing(tmp_path: Path) -> None:
    db = tmp_path / "gm.sqlite"
    with ServerProcess(f"sqlite:{db}", tmp_path, "--rate", "0", "--quiet") as server, httpx2.Client(base_url=server.url, timeout=30) as http:
        made = http.post("/api/games", json={"game": "grid-football", "opponent": "human"}).json()
        sid = made["session"]
        mine = "gms_" + "A" * 43  # tokens and a code the attacker makes up, written straight into the database
        code = "ABCD-EFGH-JKLM"
        raw = sqlite3.connect(db)
        raw.execute("INSERT INTO gm_grants (hash, kind, session, seat, sealed, created) VALUES (?, 'seat', ?, 'away', NULL, 0)", (_h(mine), sid))
        raw.execute("INSERT INTO gm_grants (hash, kind, session, seat, sealed, created) VALUES (?, 'join', ?, 'away', NULL, 0)", (_code_h(code), sid))
        raw.commit()
        r = http.get(f"/api/games/{sid}", headers=auth(mine))
        assert r.status_code == 401, f"a grant written into the database let a token in: {r.text[:300]}"
        r = http.post(f"/api/games/{sid}/call", headers=auth(mine), json={"tool": "call_coin_toss", "args": {"call": "heads"}})
        assert r.status_code == 401
        r = http.post("/api/join", json={"code": code})
        assert r.status_code == 404 and r.json()["error"]["message"] == "unknown or used join code", r.text
        # a copy of a real grant's MAC does not fit another row either
        mac = raw.execute("SELECT mac FROM gm_grants WHERE session = ? AND kind = 'join' AND hash != ?", (sid, _code_h(code))).fetchone()[0]
        raw.execute("INSERT INTO gm_grants (hash, kind, session, seat, sealed, created, mac) VALUES (?, 'seat', ?, 'away', NULL, 0, ?)",
                    (_h(mine + "x"), sid, mac))
        raw.commit()
        raw.close()
        assert http.get(f"/api/games/{sid}", headers=auth(mine + "x")).status_code == 401
        # the real code still works, for its joiner
        joined = http.post("/api/join", json={"code": made["seats"]["away"]["join_code"]}).json()
        assert joined["seat"] == "away" and http.get(f"/api/games/{sid}", headers=auth(joined["token"])).status_code == 200


def test_a_grant_written_into_postgresql_grants_nothing_and_older_grants_are_kept(pg: PgCluster) -> None:
    """The same on a real PostgreSQL, and a database of an older gm: its grants (no MAC) are MACed once
    when this gm first opens it, so its players keep their seats; a row added after that does not."""
    from gm.server.hub import Denied, GameHub
    from gm.session import KeyRing
    from gm.session.sql import PostgresStore

    keys = KeyRing(bytes.fromhex("77" * 32))
    dsn = pg.new_schema(f"g_{uuid.uuid4().hex[:10]}")
    store = PostgresStore(dsn, keys, pool_size=2)
    hub = GameHub(store)
    made = hub.create("brawl", opponent="human")
    sid, mine = made["session"], made["token"]
    # as an older gm left it: no MACs, no mark
    with store._transaction() as cur:
        cur.execute("UPDATE gm_grants SET mac = NULL")
        cur.execute("DELETE FROM gm_meta WHERE k = 'anchors'")
    store.close()
    store = PostgresStore(dsn, keys, pool_size=2)
    hub = GameHub(store)
    assert hub.authorize(mine).seat == "home"  # kept
    with store._transaction() as cur:
        cur.execute("INSERT INTO gm_grants (hash, kind, session, seat, sealed, created) VALUES (%s, 'seat', %s, 'away', NULL, 0)", (_h("gms_" + "B" * 43), sid))
    with pytest.raises(Denied) as err:
        hub.authorize("gms_" + "B" * 43)
    assert err.value.status == 401
    store.close()
    store = PostgresStore(dsn, keys, pool_size=2)  # (a restart does not MAC it either: the database is marked)
    with pytest.raises(Denied):
        GameHub(store).authorize("gms_" + "B" * 43)
    store.close()
