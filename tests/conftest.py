"""The test run's last line names every group of tests it skipped, and why (``make test`` ends with it):
a skipped group (the browser tests without Playwright or Chromium) must never pass unseen.  And the one
PostgreSQL cluster a test process starts, for every test that needs one."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator

    from gm.server.pgcluster import PgCluster


def skipped_groups(reports: list[Any], root: Path) -> dict[str, tuple[int, str]]:
    """The skipped tests by group (the folder of their file, ``tests/web``): how many, and the first reason."""
    counts: Counter[str] = Counter()
    why: dict[str, str] = {}
    for rep in reports:
        path = Path(str(rep.nodeid).split("::", 1)[0])
        group = str(path.parent) if path.parent != Path() else str(path)
        counts[group] += 1
        reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) and len(rep.longrepr) == 3 else str(rep.longrepr)
        why.setdefault(group, str(reason).removeprefix("Skipped: "))
    return {g: (n, why[g]) for g, n in sorted(counts.items())}


def skipped_line(groups: dict[str, tuple[int, str]]) -> str:
    """One line naming the skipped groups: ``skipped: tests/web (12 tests: no Chromium ...)``."""
    parts = [f"{g} ({n} test{'s' if n != 1 else ''}: {why})" for g, (n, why) in groups.items()]
    return "skipped: " + "; ".join(parts)


def pytest_unconfigure(config: pytest.Config) -> None:
    """After pytest's own summary: the one line of skipped groups (nothing when none was skipped)."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller reports for all
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        return
    skipped = [r for r in reporter.stats.get("skipped", []) if getattr(r, "nodeid", "")]
    if skipped:
        reporter.write_line(skipped_line(skipped_groups(skipped, Path(str(config.rootpath)))))


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A real PostgreSQL cluster (``gm/server/pgcluster.py``), one per test process, shared by every
    test that needs one (each makes a schema or database of its own in it)."""
    from gm.server.pgcluster import PgCluster, pg_bin

    if pg_bin() is None:  # .ci/run installs the server; a developer machine without it says so
        pytest.fail("PostgreSQL server binaries not found: apt-get install postgresql (or set GM_PG_BIN)")
    cluster = PgCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()
