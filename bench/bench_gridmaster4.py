"""GridMaster4: engine speed (games/s, moves/s) and the default bot's win rate against random.

The win rate is measured with one default bot and three random bots, the default bot's
seat rotating through orange, magenta, lime and aqua (a fair share is 25%), and in the
two-player ruleset, default against random (a fair share is 50%); each with a Wilson 95%
confidence interval.  ``run(quick)`` returns rows ``{name, value, unit, note}``.
"""

from __future__ import annotations

import time
from typing import Any

from bench import wilson

GAMES = 1000  # seeded games per win-rate figure (quick: QUICK_GAMES)
QUICK_GAMES = 100


def _random_games(n: int) -> tuple[float, int]:
    """Seconds and moves for ``n`` random-vs-random games on the document's rules."""
    from gm.core.bots import RandomBot
    from gm.core.registry import find_game
    from gm.games.gridmaster4.bots import play_out

    game = find_game("gridmaster4")
    moves = 0
    t = time.perf_counter()
    for k in range(n):
        s = game.new_state(None, k)
        play_out(s, {seat: RandomBot(seed=10 * k + i) for i, seat in enumerate(game.seats)})
        moves += len(s.log)
    return time.perf_counter() - t, moves


def _win_rate(n: int, players: int) -> tuple[int, float, int]:
    """Wins of one default bot (seat rotating) against random bots: (wins, seconds, moves)."""
    from gm.core.bots import RandomBot
    from gm.core.registry import find_game
    from gm.games.gridmaster4.bots import GreedyBot, play_out

    game = find_game("gridmaster4")
    rules = game.load_rules({"players": players})
    wins = moves = 0
    t = time.perf_counter()
    for k in range(n):
        s = game.new_state(rules, 50_000 + k)
        hero = s.order[k % players]  # type: ignore[attr-defined]
        bots = {seat: GreedyBot(seed=k) if seat == hero else RandomBot(seed=10 * k + i) for i, seat in enumerate(game.seats)}
        outcome = play_out(s, bots)
        wins += outcome.winner == hero
        moves += len(s.log)
    return wins, time.perf_counter() - t, moves


def run(quick: bool = False) -> list[dict[str, Any]]:
    n = QUICK_GAMES if quick else GAMES
    out: list[dict[str, Any]] = []
    dt, moves = _random_games(n)
    out.append({"name": "gridmaster4: random games/s", "value": round(n / dt, 1), "unit": "games/s",
                "note": f"{n} random-vs-random 4-player games, {moves / n:.0f} moves per game"})
    out.append({"name": "gridmaster4: engine moves/s", "value": round(moves / dt), "unit": "moves/s",
                "note": "legal actions + validated apply, random bots, one core", "target": ">= 50000"})
    for players, fair in ((4, 0.25), (2, 0.5)):
        wins, dt, moves = _win_rate(n, players)
        lo, hi = wilson(wins, n)
        label = "1 default vs 3 random" if players == 4 else "default vs random, 2 players"
        out.append({"name": f"gridmaster4: default win rate ({label})", "value": round(wins / n, 3), "unit": "rate",
                    "note": f"{wins}/{n} games, 95% CI {lo:.3f}-{hi:.3f}, fair share {fair:.2f}, seat rotating"})
        out.append({"name": f"gridmaster4: default-bot games/s ({players} players)", "value": round(n / dt, 1),
                    "unit": "games/s", "note": f"{moves / n:.0f} moves per game, one core"
                    + ("; gm sim's workload: 1000 games in 20 s on 2 cores is 25 per core" if players == 4 else ""),
                    "target": ">= 25" if players == 4 else None})
    return out


if __name__ == "__main__":
    for row in run(quick="--quick" in __import__("sys").argv):
        print(row)
