"""``gm sim``'s process pool never outlives its run: not when the run ends, not when it is interrupted
(Ctrl-C), not when it fails, not even when its process is killed outright (the workers would otherwise wait
for games forever with parent pid 1)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gm.sim import Job, run_jobs

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")

#: generous bounds for a loaded machine; the tests wait on a condition, these only stop a broken run
START_WITHIN = 90.0
GONE_WITHIN = 30.0


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent pid, state, start time) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], fields[19]


def _children(parent: int) -> dict[int, str]:
    """The live children of ``parent``: pid -> start time (so a reused pid is not mistaken for them)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            st = _stat(int(entry.name))
            if st and st[0] == parent and st[1] != "Z":
                out[int(entry.name)] = st[2]
    return out


def _alive(procs: dict[int, str]) -> list[int]:
    alive = []
    for pid, start in procs.items():
        st = _stat(pid)
        if st and st[2] == start and st[1] != "Z":
            alive.append(pid)
    return alive


def _wait(cond: Callable[[], object], within: float) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.05)
    return bool(cond())


@pytest.fixture
def sim_run(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], dict[int, str]]]:
    """A long ``gm sim`` on two processes, once its two workers are up; whatever the test does, the run and
    its workers are stopped afterwards (by their pids)."""
    env = {**os.environ, "GM_HOME": str(tmp_path / "gmhome")}
    proc = subprocess.Popen([sys.executable, "-m", "gm", "sim", "grid-football", "--games", "20000", "--seed", "3",
                             "--workers", "2", "--json"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)  # fmt: skip
    workers: dict[int, str] = {}
    try:
        assert _wait(lambda: len(_children(proc.pid)) >= 2 or proc.poll() is not None, START_WITHIN)
        assert proc.poll() is None, "gm sim ended before its pool was up"
        workers = _children(proc.pid)
        yield proc, workers
    finally:
        for pid in [proc.pid, *_alive(workers)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait()


def test_ctrl_c_stops_the_pool_at_once(sim_run: tuple[subprocess.Popen[bytes], dict[int, str]]) -> None:
    proc, workers = sim_run
    os.kill(proc.pid, signal.SIGINT)  # the parent only, as a terminal's Ctrl-C reaches the foreground job
    proc.wait(timeout=GONE_WITHIN)  # the pool's shutdown does not play the queued games first
    assert proc.returncode != 0
    assert _wait(lambda: not _alive(workers), GONE_WITHIN), f"workers outlived the run: {_alive(workers)}"


def test_workers_die_with_a_killed_run(sim_run: tuple[subprocess.Popen[bytes], dict[int, str]]) -> None:
    proc, workers = sim_run
    os.kill(proc.pid, signal.SIGKILL)  # no chance to clean up: the workers must notice by themselves
    proc.wait(timeout=GONE_WITHIN)
    assert _wait(lambda: not _alive(workers), GONE_WITHIN), f"orphaned workers: {_alive(workers)}"


class Stop(Exception):
    pass


def test_an_error_mid_run_terminates_the_pool() -> None:
    jobs: list[Job] = [("grid-football", {}, {"home": "bot:default", "away": "bot:default"}, 0, [i], 4, False)
                       for i in range(40)]  # fmt: skip
    heard: list[int] = []

    def progress(done: int) -> None:
        heard.append(done)
        raise Stop

    before = set(multiprocessing.active_children())
    with pytest.raises(Stop):
        run_jobs(jobs, workers=2, progress=progress)
    assert heard == [1]
    assert set(multiprocessing.active_children()) <= before
