"""Chess-Football Hybrid: engine speed and the default bot's win rate against random.

* random play (issue #22, CPU time: the machine is shared): a random bot's decision = ``state.legal_actions(seat)`` + a uniform draw
  (the ``random`` bot: at the snap it draws a plan piece by piece, see its docstring), then a
  validated ``state.apply`` - actions per second over full games, beside the target;
* exact legal-action spaces per second along random play (a reaction turn's space counted) and snap
  plans checked per second; one snap's whole plan space counted by dynamic programming;
* the default bot against the random bot over seeded full games, the default bot's seat
  alternating: win rate with a Wilson 95% confidence interval (a fair share is 50%), points
  for and against per game, games/s in CPU time (``gm sim chess-football --games 1000`` plays these).

``run(quick)`` returns rows ``{name, value, unit, note}``.
"""

from __future__ import annotations

import time
from typing import Any

from bench import wilson
from gm.core.playout import play_out

GAMES = 1000  # seeded default-vs-random games for the win rate (quick: QUICK_GAMES)
QUICK_GAMES = 40
MATCHES = 100  # random-vs-random games for the speed figure (quick: QUICK_MATCHES)
QUICK_MATCHES = 10
TARGET_ACTIONS = 50_000  # random-play actions/s on one core (issue #22)
TARGET_SIM = 1000 / 20 / 2  # default-vs-random games/s per core: 1000 games in 20 s on 2 cores


def _met(value: float, target: float) -> str:
    """``met``, or ``not met (N% of it)``."""
    return "met" if value >= target else f"not met ({100 * value / target:.0f}% of it)"


def _random_games(n: int) -> tuple[float, int]:
    from gm.core.registry import find_game
    from gm.games.chess_football.bots import RandomBot

    game = find_game("chess-football")
    actions = 0
    t = time.process_time()
    for k in range(n):
        s = game.new_state(None, k)
        actions += play_out(s, {seat: RandomBot(10 * k + i) for i, seat in enumerate(game.seats)})
    return time.process_time() - t, actions


def _legal_spaces(n: int) -> tuple[float, int, float, int]:
    """Seconds and total actions for ``n`` reaction-turn spaces counted along random play; seconds and count of plan checks."""
    from gm.core.registry import find_game
    from gm.games.chess_football.bots import RandomBot
    from gm.games.chess_football.engine import ChessFootballState

    game = find_game("chess-football")
    s = game.new_state(None, 1)
    bot = RandomBot(1)
    total = spaces = plans = 0
    t_spaces = t_plans = 0.0
    for k in range(n):
        if s.is_terminal:
            s = game.new_state(None, k)
        assert isinstance(s, ChessFootballState)
        seat = s.to_act()[0]
        action = bot.choose(s, seat)
        if s.phase == "snap":
            t0 = time.perf_counter()
            s.validate(seat, action)
            t_plans += time.perf_counter() - t0
            plans += 1
        elif s.phase in ("offense_turn", "defense_turn"):
            t0 = time.perf_counter()
            total += len(s._legal(seat))  # type: ignore[arg-type]
            t_spaces += time.perf_counter() - t0
            spaces += 1
        s.apply(seat, action)
    return t_spaces / max(spaces, 1) * n, total * n // max(spaces, 1), t_plans, plans


def _plan_space() -> tuple[float, int]:
    from gm.core.registry import find_game
    from gm.games.chess_football.engine import ChessFootballState

    s = find_game("chess-football").new_state(None, 0)
    assert isinstance(s, ChessFootballState)
    for seat, text in (("home", "captains deep_threat safety"), ("away", "captains lead_blocker rusher"), ("away", "heads")):
        s.apply(seat, text)
    t = time.perf_counter()
    n = len(s.plan_space(s.to_act()[0]))
    return time.perf_counter() - t, n


def _win_rate(n: int) -> dict[str, Any]:
    from gm.core.registry import find_game
    from gm.games.chess_football.bots import DefaultBot, RandomBot
    from gm.games.chess_football.engine import ChessFootballState

    game = find_game("chess-football")
    rules = game.default_rules()
    wins = draws = points_for = points_against = actions = 0
    t = time.process_time()
    for k in range(n):
        s = game.new_state(rules, 100_000 + k)
        hero = game.seats[k % 2]
        bots = {seat: DefaultBot(k) if seat == hero else RandomBot(10 * k + i) for i, seat in enumerate(game.seats)}
        actions += play_out(s, bots)
        assert isinstance(s, ChessFootballState) and s.outcome is not None
        wins += s.outcome.winner == hero
        draws += s.outcome.winner is None
        points_for += s.score[hero]
        points_against += s.score[game.seats[1 - k % 2]]
    return {"wins": wins, "draws": draws, "seconds": time.process_time() - t, "for": points_for,
            "against": points_against, "actions": actions}


def run(quick: bool = False) -> list[dict[str, Any]]:
    n = QUICK_GAMES if quick else GAMES
    m = QUICK_MATCHES if quick else MATCHES
    out: list[dict[str, Any]] = []
    dt, actions = _random_games(m)
    out.append({"name": "chess_football: random games/s", "value": round(m / dt, 2), "unit": "games/s",
                "note": f"{m} random-vs-random full games (4 possessions a team per half), {actions / m:.0f} actions per game"})
    rate = actions / dt
    out.append({"name": "chess_football: random-play actions/s", "value": round(rate), "unit": "actions/s",
                "note": f"legal_actions + a uniform draw + a validated apply, CPU time; target {TARGET_ACTIONS:,} on one "
                        f"core: {_met(rate, TARGET_ACTIONS)}", "target": f">= {TARGET_ACTIONS}"})
    lists = 200 if quick else 2000
    t_spaces, total, t_plans, plans = _legal_spaces(lists)
    out.append({"name": "chess_football: turn spaces/s", "value": round(lists / t_spaces) if t_spaces else 0, "unit": "spaces/s",
                "note": f"exact reaction-turn action spaces counted along random play, {total / lists:.0f} actions per space"})
    out.append({"name": "chess_football: snap plan checks/s", "value": round(plans / t_plans) if t_plans else 0,
                "unit": "checks/s", "note": f"{plans} random snap plans checked row by row (per piece) on the board at the snap"})
    t_plan, count = _plan_space()
    out.append({"name": "chess_football: plan space counted", "value": round(t_plan, 3), "unit": "s",
                "note": f"every plan of the first snap counted by dynamic programming: {count:.3g} plans"})
    res = _win_rate(n)
    lo, hi = wilson(res["wins"], n)
    out.append({"name": "chess_football: default win rate vs random", "value": round(res["wins"] / n, 3), "unit": "rate",
                "note": f"{res['wins']}/{n} full games won, {res['draws']} drawn, 95% CI {lo:.3f}-{hi:.3f}, fair share 0.50, "
                        "seat alternating"})
    out.append({"name": "chess_football: default points per game", "value": round(res["for"] / n, 2), "unit": "points",
                "note": f"against random; random scores {res['against'] / n:.2f} against it"})
    sim = n / res["seconds"]
    out.append({"name": "chess_football: default-vs-random games/s", "value": round(sim, 2), "unit": "games/s",
                "note": f"full games, {res['actions'] / n:.0f} actions per game, CPU time; target {TARGET_SIM:g} per core "
                        f"(1000 games in 20 s on 2 cores): {_met(sim, TARGET_SIM)}", "target": f">= {TARGET_SIM:g}"})
    return out


if __name__ == "__main__":
    import sys

    for row in run(quick="--quick" in sys.argv):
        print(f"{row['name']:48} {row['value']:>10} {row['unit']:10} {row['note']}")
