"""The garbage collector's full passes are paced (#18): what survives a full pass is frozen, so the
next passes walk only new objects and stop holding every request for the whole heap; a complete
pass every ``full_every`` seconds still frees cyclic garbage among long-lived objects."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from gm.server.app import ServeConfig
from gm.server.gcpace import GcPacer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def pacer() -> Iterator[GcPacer]:
    p = GcPacer(600.0, clock=Clock())
    yield p
    p.uninstall()
    assert gc.get_freeze_count() == 0 and p._after not in gc.callbacks


def test_survivors_of_a_full_pass_are_frozen_and_a_complete_pass_frees_old_cycles(pacer: GcPacer) -> None:
    old = Cycle()
    dead = weakref.ref(old)
    pacer.install()
    frozen = gc.get_freeze_count()
    assert frozen > 0 and pacer.freezes == 1
    del old  # cyclic garbage among the frozen: the paced passes leave it
    gc.collect()
    assert dead() is not None
    assert pacer.freezes == 2  # that full pass froze its survivors in turn
    young = Cycle()
    fresh = weakref.ref(young)
    del young  # cyclic garbage made since: any pass frees it
    gc.collect()
    assert fresh() is None
    assert pacer.full() >= 1 and dead() is None  # the complete pass reaches the frozen cycle
    assert pacer.full_passes == 1 and gc.get_freeze_count() > 0


def test_a_complete_pass_is_due_every_full_every_seconds(pacer: GcPacer) -> None:
    clock = pacer.clock
    pacer.install()
    assert not pacer.due()
    clock.now += 599
    assert not pacer.due()
    clock.now += 1
    assert pacer.due()
    pacer.full()
    assert not pacer.due() and pacer.last_full == clock.now


def test_gm_serve_paces_by_default_and_can_leave_the_collector_alone() -> None:
    assert ServeConfig().full_gc_every == 600.0
    from typer.testing import CliRunner

    from gm.cli.app import app

    out = CliRunner().invoke(app, ["serve", "--help"]).output
    assert "--full-gc-every SECONDS" in out and "(0: Python's own" in out


def test_while_pacing_the_collector_makes_no_full_pass_of_its_own(pacer: GcPacer) -> None:
    """Full passes are the pacer's alone; the young and middle ones go on (and free young cycles);
    uninstalling gives the collector its thresholds back."""
    before = gc.get_threshold()
    passes: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    pacer.install()
    assert gc.get_threshold() == (before[0], 2, 2**30)
    gc.callbacks.append(count)
    try:
        kept = []
        for k in range(200_000):  # enough new objects for hundreds of young passes
            c = Cycle()
            if k % 10 == 0:
                kept.append(c)  # survivors, so that the older generations fill up too
        last = weakref.ref(c)
        del c
        gc.collect(1)  # a middle pass: the last young cycle is garbage and goes
        assert last() is None
    finally:
        gc.callbacks.remove(count)
    assert passes.count(0) > 100 and passes.count(1) > 50
    assert passes.count(2) == 0  # Python's own rule would have made several full passes here
    pacer.uninstall()
    assert gc.get_threshold() == before
