"""``gm sim``'s own workload for every game: default bot against random bots, on every core.

Issue #22's target: ``gm sim GAME --games 1000`` default vs random within 20 s on this machine,
using every core.  This module calls :func:`gm.sim.simulate` exactly as the command does (the
first seat the default bot, every other seat the random bot, ``workers`` = every core) and times
it; process start-up and the pool's fork are included, the interpreter's start is not.  The quick
run plays 100 games and scales the time to 1000 (the pool's fixed cost makes that a little
pessimistic).  A second row gives one worker's speed on the same games in CPU time (steadier on a
shared machine), so the figure can be read as cores x per-core speed.

``run(quick)`` returns rows for ``python -m bench``.
"""

from __future__ import annotations

import time
from typing import Any

from bench import row

GAMES = ("grid-football", "gridmaster4", "quarterback", "brawl", "chess-football")
FULL, QUICK = 1000, 100
TARGET_SECONDS = 20.0


def _timed(game_id: str, games: int, workers: int, clock: Any = time.perf_counter) -> float:
    from gm.core.registry import find_game
    from gm.sim import simulate

    game = find_game(game_id)
    players = {seat: ("bot:default" if i == 0 else "bot:random") for i, seat in enumerate(game.seats)}
    t0 = clock()
    simulate(game, games=games, seed=0, players=players, workers=workers)
    return clock() - t0


def run(quick: bool = False) -> list[dict[str, Any]]:
    from gm.sim import default_workers

    n = QUICK if quick else FULL
    m = max(10, n // 10)  # games for the one-worker figure
    cores = default_workers()
    out: list[dict[str, Any]] = []
    for game_id in GAMES:
        seconds = _timed(game_id, n, cores) * (FULL / n)
        out.append(row(f"{game_id}: gm sim --games 1000", round(seconds, 1), "s",
                       f"default vs random, {cores} workers{'' if n == FULL else f', {n} games scaled to 1000'}",
                       target=f"<= {TARGET_SECONDS:g}"))
        one = _timed(game_id, m, 1, time.process_time) * (FULL / m)
        out.append(row(f"{game_id}: gm sim games/s per core", round(FULL / one, 1), "games/s",
                       f"one worker, {m} games, CPU time; {TARGET_SECONDS:g} s for 1000 on {cores} cores needs "
                       f"{FULL / TARGET_SECONDS / cores:g} per core", target=f">= {FULL / TARGET_SECONDS / cores:g}"))
    return out


if __name__ == "__main__":
    for r in run(quick=True):
        print(f"{r['name']:40} {r['value']:>8} {r['unit']:8} {r['target']:8} {r['note']}")
