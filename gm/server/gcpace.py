"""Keep the cyclic garbage collector's full passes off the request path of ``gm serve``.

A full (generation 2) pass of CPython's collector walks every tracked object and holds the event
loop while it does: at 500 players one process holds some 270,000 of them (the players' MCP
sessions and tasks, their games) and a pass takes 130-300 ms, which every request in flight waits
for - most of the slow tail of the latencies.  Most of those objects live for a whole session.

:class:`GcPacer` freezes what survives a full pass (``gc.freeze``: the collector no longer scans it;
objects still go away as soon as nothing refers to them), so the next full passes only walk the
objects made since, and every ``full_every`` seconds unfreezes everything for one complete pass, so
that cyclic garbage among long-lived objects (a finished session's tasks) is freed within that time.
The memory a pacer can hold back is bounded by what the process made in ``full_every`` seconds.
"""

from __future__ import annotations

import gc
import time
from typing import Any


class GcPacer:
    """Freeze the survivors of each full collection; the server calls :meth:`full` for a complete
    pass every ``full_every`` seconds (a collector callback cannot collect)."""

    def __init__(self, full_every: float = 600.0, *, clock: Any = time.monotonic) -> None:
        self.full_every = full_every
        self.clock = clock
        self.last_full = clock()
        self.full_passes = 0
        self.freezes = 0
        self._installed = False

    def install(self) -> None:
        """Start pacing: one complete pass now, its survivors frozen, then the callback below."""
        if self._installed:
            return
        gc.collect()
        gc.freeze()
        self.freezes += 1
        self.last_full = self.clock()
        gc.callbacks.append(self._after)
        self._installed = True

    def uninstall(self) -> None:
        """Stop pacing and give everything back to the collector."""
        if self._installed:
            gc.callbacks.remove(self._after)
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
