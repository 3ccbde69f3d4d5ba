"""Security tests (issue #15): every test runs with its own ``GM_HOME`` under ``tmp_path`` and one
fixed secret key (``GM_SECRET_KEY``), so that two games compared side by side are sealed alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from sec_helpers import SECRET_KEY

from gm.server.pgcluster import PgCluster


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path / "gm-home"))
    monkeypatch.setenv("GM_SECRET_KEY", SECRET_KEY)
    monkeypatch.delenv("GM_KEY_FILE", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.fixture(scope="session")
def pg(pg_cluster: PgCluster) -> PgCluster:
    """The test process's PostgreSQL cluster (tests/conftest.py); a test makes a schema of its own in
    it (``pg.new_schema``)."""
    return pg_cluster
