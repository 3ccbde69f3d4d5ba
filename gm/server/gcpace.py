"""Keep the cyclic garbage collector's long passes off the request path of ``gm serve``.

A full (generation 2) pass of CPython's collector walks every tracked object and holds the event
loop while it does: at 500 players one process holds some 270,000 of them (the players' MCP
sessions and tasks, their games) and a pass takes 130-300 ms, which every request in flight waits
for - most of the slow tail of the latencies.  Most of those objects live for a whole session.

:class:`GcPacer` freezes what survives a full pass (``gc.freeze``: the collector no longer scans it;
objects still go away as soon as nothing refers to them), and every ``full_every`` seconds unfreezes
everything for one complete pass, so that cyclic garbage among long-lived objects (a finished
session's tasks) is freed within that time.  Between those, the collector makes no full pass of its
own: with the survivors frozen its "a quarter more long-lived objects" rule fired every few seconds,
and each such pass still walked the ~80,000 objects of the 500 players' waiting requests (each waits
~2.5 s for its next call: the MCP SDK's per-session streams, coroutines and their ``WouldBlock``
tracebacks), 50-90 ms a pass.  Those objects die by reference counting; the passes found 0-10 cyclic
garbage objects each.  The middle generation is collected every second young pass instead of every
tenth, so each of its passes walks a fifth as much: 6-13 ms instead of 20-34 ms of CPU.  The memory
a pacer can hold back is bounded by what the process made in ``full_every`` seconds.
"""

from __future__ import annotations

import gc
import time
from typing import Any

#: the collector's thresholds while pacing: young passes as Python makes them, the middle
#: generation every second young pass, no full pass but the pacer's (see the module docstring)
MIDDLE_EVERY = 2
NO_FULL_PASS = 2**30


class GcPacer:
    """Freeze the survivors of each full collection and leave full passes to the server, which
    calls :meth:`full` for a complete pass every ``full_every`` seconds (a collector callback
    cannot collect)."""

    def __init__(self, full_every: float = 600.0, *, clock: Any = time.monotonic) -> None:
        self.full_every = full_every
        self.clock = clock
        self.last_full = clock()
        self.full_passes = 0
        self.freezes = 0
        self._installed = False
        self._thresholds: tuple[int, int, int] | None = None

    def install(self) -> None:
        """Start pacing: one complete pass now, its survivors frozen, then the callback below."""
        if self._installed:
            return
        gc.collect()
        gc.freeze()
        self.freezes += 1
        self.last_full = self.clock()
        gc.callbacks.append(self._after)
        self._thresholds = gc.get_threshold()
        gc.set_threshold(self._thresholds[0], MIDDLE_EVERY, NO_FULL_PASS)
        self._installed = True

    def uninstall(self) -> None:
        """Stop pacing and give everything back to the collector."""
        if self._installed:
            gc.callbacks.remove(self._after)
            if self._thresholds is not None:
                gc.set_threshold(*self._thresholds)
            self._installed = False
        gc.unfreeze()

    def _after(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            gc.freeze()  # what survived this pass is long-lived: the next passes skip it
            self.freezes += 1

    def due(self) -> bool:
        """Whether a complete pass is due (the server runs :meth:`full` when it is)."""
        return self.clock() - self.last_full >= self.full_every

    def full(self) -> int:
        """One complete pass over everything (frozen objects too), then freeze the survivors;
        returns the number of objects collected."""
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        self.freezes += 1
        self.full_passes += 1
        self.last_full = self.clock()
        return collected


__all__ = ["GcPacer"]
