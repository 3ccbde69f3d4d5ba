"""The search bot (``bot:search``, :mod:`gm.core.search`): its win rate against the random bot and against the
default bot in every game and in the test-only plugin game, with 95% (Wilson) intervals, and its time per
decision.

Games alternate the search bot's seat; each pairing plays the same seeds.  The search runs on its game's
own iteration budget (``SEARCH`` of the game's bots module; the plugin game gets the plain search), so the
figures are reproducible.  Long games are played on a short ruleset (named in each row's note) to keep the
module within minutes: the search decides each move by thousands of simulated moves in pure Python.

``run(quick)`` returns rows for ``python -m bench``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from bench import row, wilson

#: game -> the short ruleset the figures are played on (None: the default ruleset)
RULES: dict[str, dict[str, Any] | None] = {
    "grid-football": None,
    "gridmaster4": None,
    "quarterback": {"format": "game"},
    "brawl": {"rounds": 6},
    "chess-football": {"possessions_per_half": 1, "overtime_periods": 0},
    "rock-paper-scissors": None,
}
GAMES, QUICK = 12, 4


def _plugin() -> Any:
    """The test-only plugin game (tests/plugin_game), registered for this process."""
    from gm.core.registry import register_game

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "plugin_game"))
    from gm_rps import GAME

    return register_game(GAME)


class Timed:
    """A bot whose decisions are counted and timed (CPU time)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions = 0
        self.spent = 0.0

    def choose(self, state: Any, seat: str) -> Any:
        t = time.process_time()
        action = self.inner.choose(state, seat)
        self.spent += time.process_time() - t
        self.decisions += 1
        return action


def _series(game: Any, opponent: str, games: int) -> tuple[int, int, int, float]:
    """``games`` games of the search bot against ``opponent`` (seats alternate); (wins, draws, decisions, CPU
    seconds the search spent deciding)."""
    from gm.core.playout import play_out

    wins = draws = decisions = 0
    spent = 0.0
    for seed in range(games):
        me = game.seats[seed % len(game.seats)]
        state = game.new_state(RULES.get(game.id), 1000 + seed)
        search = Timed(game.make_bot("bot:search", seed=seed))
        bots = {s: search if s == me else game.make_bot(opponent, seed=seed * 7 + i) for i, s in enumerate(game.seats)}
        play_out(state, bots)
        decisions += search.decisions
        spent += search.spent
        out = state.outcome
        if out is not None and out.winner == me:
            wins += 1
        elif out is None or out.winner is None:
            draws += 1
    return wins, draws, decisions, spent


def run(quick: bool = False) -> list[dict[str, Any]]:
    from gm.core.registry import all_games

    n = QUICK if quick else GAMES
    games = [*all_games(), _plugin()]
    out: list[dict[str, Any]] = []
    for game in games:
        short = RULES.get(game.id)
        where = f"{n} games, seats alternating" + (f", ruleset {short}" if short else "")
        total_decisions, total_spent = 0, 0.0
        for opponent in ("random", "default"):
            if opponent not in game.bots():
                continue
            wins, draws, decisions, spent = _series(game, f"bot:{opponent}", n)
            lo, hi = wilson(wins, n)
            total_decisions += decisions
            total_spent += spent
            out.append(row(f"{game.id}: search win rate vs {opponent}", round(wins / n, 3), "fraction",
                           f"95% CI {lo:.2f}-{hi:.2f}; {draws} draws; {where}"))
        out.append(row(f"{game.id}: search decision time", round(1000 * total_spent / max(total_decisions, 1), 1), "ms",
                       f"CPU time per decision, {total_decisions} decisions"))
    return out


if __name__ == "__main__":
    for r in run(quick=True):
        print(f"{r['name']:50} {r['value']:>8} {r['unit']:8} {r['note']}")
