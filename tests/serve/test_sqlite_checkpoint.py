"""SQLite's WAL is copied back by the store's checkpointer thread, never inside a commit (#18): an
automatic checkpoint syncs the database file in the commit that fills the WAL, and every other game's
commit waits behind it.  The commits turn the automatic checkpoint off; the thread checkpoints after
enough commits, the WAL stays bounded, and closing the store (or dropping it) stops the thread."""

from __future__ import annotations

import gc
import os
import sqlite3
import threading
import time
from pathlib import Path

from gm.session import Session
from gm.session.keys import KeyRing
from gm.session.sql import SqliteStore


def _threads(db: Path) -> set[str]:
    return {t.name for t in threading.enumerate() if t.name == f"gm-sqlite-checkpoint {db.name}"}


def _db(tmp_path: Path) -> Path:
    return tmp_path / f"{tmp_path.name}.sqlite"  # a name of its own: other tests' stores have threads too


def test_commits_never_checkpoint_and_the_thread_does(tmp_path: Path) -> None:
    db = _db(tmp_path)
    store = SqliteStore(db, KeyRing(os.urandom(32)))
    store.checkpointer.every = 20
    try:
        assert store._connect().execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
        s = Session.create("quarterback", seed=1, players={"red": "human", "blue": "bot:random"}, store=store, record=True)
        import random

        from gm.core.tools import call_for_action

        rng = random.Random(1)
        for _ in range(60):
            if s.state.is_terminal:
                break
            a = s.state.legal_actions("red").sample(rng)
            assert s.call(*call_for_action(s.tools, a), "red")["ok"]
        deadline = time.monotonic() + 10
        while store.checkpointer.checkpoints == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.checkpointer.checkpoints >= 1 and _threads(db)
        store.checkpointer.stop()  # not mid-checkpoint below (a second checkpoint at once answers busy)
        # the WAL was copied back: a fresh connection's checkpoint has nothing left to copy
        busy, log, done = sqlite3.connect(db).execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and log == done
        assert len(Session.open(s.id, store=store).state.log) == len(s.state.log)  # nothing lost
    finally:
        store.close()
    assert not _threads(db)


def test_a_store_dropped_without_closing_stops_its_thread(tmp_path: Path) -> None:
    db = _db(tmp_path)
    store = SqliteStore(db, KeyRing(os.urandom(32)))
    Session.create("quarterback", seed=1, players={"red": "human", "blue": "bot:random"}, store=store)
    assert _threads(db)
    del store
    gc.collect()
    deadline = time.monotonic() + 10
    while _threads(db) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _threads(db)
