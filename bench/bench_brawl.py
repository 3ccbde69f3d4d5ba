"""brawl: engine speed (games/s, actions/s) and the default bot's win rate against random.

Games are full games of the default ruleset (20 series).  The win rate is one default bot
against one random bot over seeded games, the default bot's seat alternating between home
and away (a fair share is 50%), with a Wilson 95% confidence interval; draws count as not
won.  ``run(quick)`` returns rows ``{name, value, unit, note}``.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from bench import met, row, wilson
from gm.core.playout import play_out

#: issue #22's targets: random-play actions per second on one core, and default-vs-random games per
#: second per core (``gm sim brawl --games 1000`` within 20 s on two cores)
TARGET_ACTIONS = 50_000
TARGET_GAMES = 25

GAMES = 1000  # seeded games for the win rate (quick: QUICK_GAMES)
QUICK_GAMES = 100
SPEED_GAMES = 200  # random-vs-random games for the engine speed (quick: QUICK_SPEED_GAMES)
QUICK_SPEED_GAMES = 40


class _Timed:
    """A bot whose decisions are timed (CPU seconds in ``spent``)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.name, self.spent = bot, bot.name, 0.0

    def choose(self, state: Any, seat: str) -> Any:
        t = time.process_time()
        try:
            return self.bot.choose(state, seat)
        finally:
            self.spent += time.process_time() - t


def _uniform_actions(n: int) -> tuple[float, int]:
    """CPU seconds and actions of ``n`` games where every decision is issue #22's random decision:
    ``state.legal_actions(seat)`` and a uniform draw from it, then a validated ``state.apply``."""
    import random

    from gm.core.registry import find_game

    game = find_game("brawl")
    actions = 0
    t = time.process_time()
    for k in range(n):
        s = game.new_state(None, k)
        rng = random.Random(k)
        while not s.is_terminal:
            seat = s.to_act()[0]
            s.apply(seat, s.legal_actions(seat).sample(rng))
            actions += 1
    return time.process_time() - t, actions


def _random_games(n: int) -> tuple[float, int, Counter[str]]:
    """CPU seconds, actions and series results of ``n`` random-vs-random games (the random bot)."""
    from gm.core.registry import find_game
    from gm.games.brawl.bots import RandomBot

    game = find_game("brawl")
    actions = 0
    results: Counter[str] = Counter()
    t = time.process_time()
    for k in range(n):
        s = game.new_state(None, k)
        actions += play_out(s, {seat: RandomBot(seed=10 * k + i) for i, seat in enumerate(game.seats)})
        results.update(h["result"] for h in s.history)  # type: ignore[attr-defined]
    return time.process_time() - t, actions, results


def _win_rate(n: int) -> tuple[Counter[str], float, int, float]:
    """Default against random: (results, seconds, actions, seconds spent in the default bot)."""
    from gm.core.registry import find_game
    from gm.games.brawl.bots import RandomBot
    from gm.games.brawl.strategy import DefaultBot

    game = find_game("brawl")
    results: Counter[str] = Counter()
    actions = 0
    thinking = 0.0
    t = time.process_time()
    for k in range(n):
        s = game.new_state(None, 70_000 + k)
        hero = game.seats[k % 2]
        default = _Timed(DefaultBot(seed=k))
        actions += play_out(s, {seat: default if seat == hero else RandomBot(seed=10 * k + 1) for seat in game.seats})
        thinking += default.spent
        assert s.outcome is not None
        results[s.outcome.result(hero)] += 1
    return results, time.process_time() - t, actions, thinking


def _default_games(n: int) -> tuple[float, int, Counter[str], int]:
    """The default bot playing itself for ``n`` games: seconds, actions, series results, points."""
    from gm.core.registry import find_game
    from gm.games.brawl.strategy import DefaultBot

    game = find_game("brawl")
    actions = points = 0
    results: Counter[str] = Counter()
    t = time.process_time()
    for k in range(n):
        s = game.new_state(None, 90_000 + k)
        actions += play_out(s, {seat: DefaultBot(seed=k + i) for i, seat in enumerate(game.seats)})
        results.update(h["result"] for h in s.history)  # type: ignore[attr-defined]
        points += sum(s.score.values())  # type: ignore[attr-defined]
    return time.process_time() - t, actions, results, points


def _met(value: float, target: str) -> str:
    return "met" if met(value, target) else "not met"


def run(quick: bool = False) -> list[dict[str, Any]]:
    """The benchmark rows (``quick``: fewer games, for CI)."""
    from gm.games.brawl.strategy import DefaultBot

    DefaultBot(0)  # import scipy before timing
    from scipy.optimize import linear_sum_assignment  # noqa: F401

    rows: list[dict[str, Any]] = []
    n_speed = QUICK_SPEED_GAMES if quick else SPEED_GAMES
    secs, actions = _uniform_actions(n_speed)
    rate = round(actions / secs)
    target = f">= {TARGET_ACTIONS}"
    rows.append(row("brawl random-play actions/s", rate, "actions/s",
                    f"target {TARGET_ACTIONS:,} on one core (issue #22): {_met(rate, target)}; legal_actions + a uniform draw "
                    f"+ a validated apply, {n_speed} games, CPU time", target))
    secs, actions, results = _random_games(n_speed)
    series = sum(results.values())
    rows.append({"name": "brawl random games/s", "value": round(n_speed / secs, 1), "unit": "games/s",
                 "note": f"{n_speed} full games (20 series), random vs random"})
    rows.append({"name": "brawl actions/s", "value": round(actions / secs), "unit": "actions/s",
                 "note": "validated placements and 4th-down choices applied, bot time included"})
    share = ", ".join(f"{k} {v / series:.0%}" for k, v in results.most_common())
    rows.append({"name": "brawl random series results", "value": series, "unit": "series", "note": share})

    n = QUICK_GAMES if quick else GAMES
    res, secs, actions, thinking = _win_rate(n)
    lo, hi = wilson(res["win"], n)
    rows.append({"name": "brawl default win rate vs random", "value": round(res["win"] / n, 3), "unit": "fraction",
                 "note": f"{n} seeded games, seats alternating; 95% CI {lo:.3f}-{hi:.3f}; "
                         f"{res['win']} won, {res['draw']} drawn, {res['loss']} lost"})
    rate_games = round(n / secs, 1)
    target = f">= {TARGET_GAMES}"
    rows.append(row("brawl default vs random games/s", rate_games, "games/s",
                    f"target {TARGET_GAMES} per core (gm sim brawl --games 1000 in 20 s on 2 cores): "
                    f"{_met(rate_games, target)}; {actions} actions; {thinking / secs:.0%} of the time in the default bot; CPU time",
                    target))
    n_self = 10 if quick else 50
    secs, decisions, results, points = _default_games(n_self)
    rows.append({"name": "brawl default decision time", "value": round(secs / decisions * 1000, 2), "unit": "ms",
                 "note": f"default vs default, {n_self} games, {decisions} actions (engine time included)"})
    series = sum(results.values())
    share = ", ".join(f"{k} {v / series:.0%}" for k, v in results.most_common())
    rows.append({"name": "brawl default series results", "value": round(points / (2 * n_self), 1), "unit": "points/team",
                 "note": f"default vs default, {series} series: {share}"})
    return rows


if __name__ == "__main__":
    import sys

    for row in run(quick="--quick" in sys.argv):
        print(f"{row['name']:40} {row['value']:>10} {row['unit']:10} {row['note']}")
