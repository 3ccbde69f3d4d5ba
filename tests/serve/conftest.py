"""Fixtures of the server tests: a real PostgreSQL cluster (one per test process, started and stopped
here), a clean schema of it per test, and each kind of session store."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gm.server.pgcluster import PgCluster
from gm.session import FileStore, KeyRing, MemoryStore, SessionStore
from gm.session.sql import PostgresStore, SqliteStore

STORES = ("files", "memory", "sqlite", "postgresql")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def pg_dsn(pg_cluster: PgCluster) -> str:
    """A DSN whose tables live in a schema of their own (a clean database for one test)."""
    return pg_cluster.new_schema(f"t_{uuid.uuid4().hex[:12]}")


@pytest.fixture
def keys() -> KeyRing:
    return KeyRing.generate()


def make_store(kind: str, tmp_path: Path, keys: KeyRing, pg: PgCluster | None) -> SessionStore:
    if kind == "files":
        store: SessionStore = FileStore(tmp_path / "home")
        store.keys = keys  # type: ignore[attr-defined]
        return store
    if kind == "memory":
        mem = MemoryStore()
        mem.keys = keys  # type: ignore[attr-defined]
        return mem
    if kind == "sqlite":
        return SqliteStore(tmp_path / "gm.sqlite", keys)
    assert pg is not None
    return PostgresStore(pg.new_schema(f"t_{uuid.uuid4().hex[:12]}"), keys, pool_size=8)


@pytest.fixture
def store_factory() -> Callable[[str, Path, KeyRing, PgCluster | None], SessionStore]:
    """:func:`make_store` for a test that picks the kind itself (a conftest is not importable by name:
    several test folders have one)."""
    return make_store


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path, keys: KeyRing) -> Iterator[SessionStore]:
    pg = request.getfixturevalue("pg_cluster") if request.param == "postgresql" else None
    st = make_store(request.param, tmp_path, keys, pg)
    yield st
    close = getattr(st, "close", None)
    if close is not None:
        close()
