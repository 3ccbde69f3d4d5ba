"""Quarter Back: engine speed and the default bot's win rate against random.

* random play: full matches (the default ruleset: two games, four halves) between the game's
  ``random`` bots, in validated actions per second (issue #22's target: 50,000 on one core) and
  matches per second;
* uniform random play: the core :class:`~gm.core.bots.RandomBot` (every legal action listed, one
  drawn uniformly, then a validated apply), and full legal-action lists per second (every distinct
  move of every piece, the passes, end);
* the default bot against the random bot over seeded single games (``format = "game"``, two halves
  each), the default bot's seat alternating: win rate with a Wilson 95% confidence interval (a fair
  share is 50%), its points per half when attacking, and games per second (``gm sim quarterback
  --games 1000`` default-vs-random should take at most 20 s on two cores).

Times are process (CPU) times, so other work on a shared machine disturbs them less.
``run(quick)`` returns rows ``{name, value, unit, note}``.
"""

from __future__ import annotations

import time
from typing import Any

from bench import wilson
from gm.core.playout import play_out

TARGET_ACTIONS = 50_000  # random-play actions per second on one core (issue #22)
TARGET_SIM_SECONDS = 20.0  # gm sim --games 1000, default vs random, on two cores
GAMES = 1000  # seeded games for the win rate (quick: QUICK_GAMES)
QUICK_GAMES = 60
MATCHES = 200  # random-vs-random matches for the speed figure (quick: QUICK_MATCHES)
QUICK_MATCHES = 20
UNIFORM_GAMES = 20  # uniform random games (one game of 4-round halves each; quick: 3)


def _met(value: float, target: float) -> str:
    """``met`` or ``not met (N% of it)``: a figure against its target (higher is better)."""
    return "met" if value >= target else f"not met ({value / target:.0%} of it)"


def _random_matches(n: int) -> tuple[float, int]:
    from gm.core.registry import find_game

    game = find_game("quarterback")
    actions = 0
    t = time.process_time()
    for k in range(n):
        s = game.new_state(None, k)
        actions += play_out(s, {seat: game.make_bot("random", 10 * k + i) for i, seat in enumerate(game.seats)})
    return time.process_time() - t, actions


def _uniform_games(n: int) -> tuple[float, int]:
    from gm.core.bots import RandomBot
    from gm.core.registry import find_game

    game = find_game("quarterback")
    rules = game.load_rules({"format": "game", "max_rounds": 4})
    actions = 0
    t = time.process_time()
    for k in range(n):
        s = game.new_state(rules, k)
        actions += play_out(s, {seat: RandomBot(10 * k + i) for i, seat in enumerate(game.seats)})
    return time.process_time() - t, actions


def _legal_lists(n: int) -> tuple[float, int]:
    """Seconds and total actions for ``n`` full legal lists along random play."""
    from gm.core.registry import find_game

    game = find_game("quarterback")
    s = game.new_state({"format": "game"}, 1)
    bot = game.make_bot("random", 1)
    total = 0
    t = 0.0
    for _ in range(n):
        if s.is_terminal:
            s = game.new_state({"format": "game"}, total)
        seat = s.to_act()[0]
        t0 = time.process_time()
        total += len(s.legal_actions(seat))
        t += time.process_time() - t0
        s.apply(seat, bot.choose(s, seat))
    return t, total


def _win_rate(n: int) -> dict[str, Any]:
    from gm.core.registry import find_game

    game = find_game("quarterback")
    rules = game.load_rules({"format": "game"})
    wins = draws = 0
    attack_points = defend_points = 0
    t = time.process_time()
    for k in range(n):
        s = game.new_state(rules, 100_000 + k)
        hero = game.seats[k % 2]
        play_out(s, {seat: game.make_bot("default" if seat == hero else "random", 10 * k + i) for i, seat in enumerate(game.seats)})
        assert s.outcome is not None
        wins += s.outcome.winner == hero
        draws += s.outcome.winner is None
        for r in s.results:
            if r["attacker"] == hero:
                attack_points += r["points"]
            else:
                defend_points += r["points"]
    return {"wins": wins, "draws": draws, "seconds": time.process_time() - t, "for": attack_points, "against": defend_points}


def run(quick: bool = False) -> list[dict[str, Any]]:
    n = QUICK_GAMES if quick else GAMES
    m = QUICK_MATCHES if quick else MATCHES
    out: list[dict[str, Any]] = []
    dt, actions = _random_matches(m)
    rate = actions / dt
    out.append({"name": "quarterback: random-play actions/s", "value": round(rate), "unit": "actions/s",
                "target": f">= {TARGET_ACTIONS:,}",
                "note": f"target {TARGET_ACTIONS:,}: {_met(rate, TARGET_ACTIONS)}; the random bots' choices and "
                        "validated applies, full matches"})  # fmt: skip
    out.append({"name": "quarterback: random matches/s", "value": round(m / dt, 1), "unit": "matches/s",
                "note": f"{m} random-vs-random full matches (4 halves), {actions / m:.0f} actions per match"})
    u = 3 if quick else UNIFORM_GAMES
    dt, actions = _uniform_games(u)
    rate = actions / dt
    out.append({"name": "quarterback: uniform random actions/s", "value": round(rate), "unit": "actions/s",
                "note": "core RandomBot (not the figure #22 sets a target for): every legal action "
                        "counted, one drawn (uniformly, as from the list), validated apply"})  # fmt: skip
    lists = 100 if quick else 1000
    dt, total = _legal_lists(lists)
    out.append({"name": "quarterback: full legal lists/s", "value": round(lists / dt), "unit": "lists/s",
                "note": f"every distinct move of every piece, passes and end; {total / lists:.0f} actions per list"})
    res = _win_rate(n)
    lo, hi = wilson(res["wins"], n)
    out.append({"name": "quarterback: default win rate vs random", "value": round(res["wins"] / n, 3), "unit": "rate",
                "note": f"{res['wins']}/{n} games won, {res['draws']} drawn, 95% CI {lo:.3f}-{hi:.3f}, fair share 0.50, "
                        "seat alternating, one game (two halves) each"})
    out.append({"name": "quarterback: default points per half", "value": round(res["for"] / n, 2), "unit": "points",
                "note": f"attacking, against random; random scores {res['against'] / n:.2f} against it"})
    games_s = n / res["seconds"]
    out.append({"name": "quarterback: default-vs-random games/s", "value": round(games_s, 1), "unit": "games/s",
                "target": f">= {1000 / TARGET_SIM_SECONDS / 2:g}",
                "note": f"one core; 1000 games on two cores in about {1000 / games_s / 2:.0f} s "
                        f"(target {TARGET_SIM_SECONDS:.0f} s: {_met(TARGET_SIM_SECONDS, 1000 / games_s / 2)})"})  # fmt: skip
    return out


if __name__ == "__main__":
    import sys

    for row in run(quick="--quick" in sys.argv):
        print(f"{row['name']:48} {row['value']:>10} {row['unit']:10} {row['note']}")
