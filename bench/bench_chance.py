"""Chance generators: random-play speed of every game under chacha20-v1 (new games) against mt19937 (legacy).

Issue #36 item 7 moved new games to a cryptographic generator (:mod:`gm.core.chance`); its cost must
not show in random play.  For each game the same seeded random-vs-random games (a uniform draw from
``state.legal_actions(seat)`` by a ``random.Random`` of its own, then ``state.apply``) are played under
each generator, in alternating rounds so that load on the shared machine falls on both alike, and
timed in CPU seconds.  The games differ only in their chance, so their lengths differ a little: the
figure compared is actions per second.  Row: the ratio chacha20-v1 / mt19937 (1.0 = no cost).
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench import row

#: per game: (games per round, actions played of each game at most) - about half a CPU second a round
#: on the machine of the figures (a random Chess-Football game is some 1,300 actions at ~140 a second)
GAMES = {"grid-football": (300, None), "gridmaster4": (100, None), "quarterback": (4, None), "brawl": (40, None),
         "chess-football": (1, 80)}
ROUNDS, QUICK_ROUNDS = 4, 2  # (rounds alternate which generator goes first)
GENERATORS = ("mt19937", "chacha20-v1")


def _play(game_id: str, generator: str, seeds: range, limit: int | None = None) -> tuple[float, int]:
    """CPU seconds and actions of random-vs-random games, one per seed, under ``generator`` (each
    played to its end, or for its first ``limit`` actions)."""
    from gm.core.registry import find_game

    game = find_game(game_id)
    rules = game.load_rules({})
    actions = 0
    t = time.process_time()
    for k in seeds:
        s = game.new_state(rules, k, generator)
        rng = random.Random(k)
        left = limit
        while not s.is_terminal and left != 0:
            left = None if left is None else left - 1
            seat = s.to_act()[0]
            s.apply(seat, s.legal_actions(seat).sample(rng))
            actions += 1
    return time.process_time() - t, actions


def run(quick: bool = False) -> list[dict[str, Any]]:
    rows = []
    rounds = QUICK_ROUNDS if quick else ROUNDS
    for game_id, (n, limit) in GAMES.items():
        secs = dict.fromkeys(GENERATORS, 0.0)
        acts = dict.fromkeys(GENERATORS, 0)
        for r in range(rounds):
            seeds = range(r * n, (r + 1) * n)
            for g in GENERATORS if r % 2 == 0 else reversed(GENERATORS):
                t, a = _play(game_id, g, seeds, limit)
                secs[g] += t
                acts[g] += a
        rate = {g: acts[g] / max(secs[g], 1e-9) for g in GENERATORS}
        ratio = rate["chacha20-v1"] / rate["mt19937"]
        rows.append(row(
            f"{game_id} random play chacha20-v1/mt19937", round(ratio, 3), "ratio",
            f"{rate['chacha20-v1']:,.0f} vs {rate['mt19937']:,.0f} actions/s; {rounds * n} seeded games each"
            + (f" (their first {limit} actions)" if limit else ""),
            ">= 0.9",
        ))
    return rows
