"""Grid Football: engine speed and bot strength, on one core.

* random-play actions per second (a random bot's decision: ``state.legal_actions(seat)`` and
  a uniform draw, then a validated ``state.apply``), printed beside the target of issue #22;
* random vs random full games per second and downs (resolved play calls and punts) per
  second, bot time included;
* ``gm sim``'s workload: default bot vs random bot games per second (the target: 1000 games in
  20 s on this machine's 2 cores);
* the board window and the full board rendered per second (``Session.call`` renders the window
  for every result);
* seeded matches between bot strategies, the first bot's seat alternating home/away
  (game ``i`` uses seed ``base + i``).  A match reports the first bot's *score*: wins plus
  half the draws, over games (0.5 = even), with a 95% Wilson interval; the note gives
  wins-draws-losses and the time spent in the first bot per decision;
* how long the default bot's value model takes to build (once per ruleset and plays open).

``run(quick)`` returns rows ``{name, value, unit, note}`` for ``python -m bench``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench import row, wilson

SPEED_GAMES = (1000, 100)  # (full, quick)
SIM_GAMES = (200, 30)  # default vs random games timed (full, quick)
ACTIONS_TARGET = 50_000  # random-play actions/s on one core (issue #22)
SIM_TARGET = 1000 / 20  # gm sim games/s: 1000 default-vs-random games in 20 s
#: (first bot, second bot, games full, games quick, seed base)
MATCHES = (
    ("default", "random", 2000, 200, 100_000),
    ("adaptive", "always-1-red", 1000, 100, 200_000),
    ("default", "always-1-red", 500, 60, 300_000),
    ("default", "adaptive", 500, 60, 400_000),
    ("adaptive", "random", 500, 60, 500_000),
    ("adaptive", "cycler", 500, 60, 600_000),
)


class Cycler:
    """A human who cycles through calls (1 red, 2 black, 3 red, 1 black): even frequencies,
    predictable sequence.  Everything else at random."""

    name = "cycler"
    CYCLE = ((1, "red"), (2, "black"), (3, "red"), (1, "black"))

    def __init__(self, seed: int = 0) -> None:
        self.rng, self.i = random.Random(seed), 0

    def choose(self, state: Any, seat: str) -> Any:
        from gm.games.grid_football.actions import PlayCall

        if state.decision(seat) == "play_call":
            play, colour = self.CYCLE[self.i % len(self.CYCLE)]
            self.i += 1
            return PlayCall(play, colour)
        return self.rng.choice(list(state.legal_actions(seat)))


LOCAL_BOTS: dict[str, Callable[..., Any]] = {"cycler": Cycler}


def make_bot(name: str, seed: int) -> Any:
    """A registered bot strategy, or one of the bench's own stand-ins for humans."""
    from gm.games.grid_football import GAME

    return LOCAL_BOTS[name](seed=seed) if name in LOCAL_BOTS else GAME.make_bot(name, seed=seed)


@dataclass
class MatchResult:
    """Wins, draws and losses of the first bot, and what the games cost."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    downs: int = 0
    seconds: float = 0.0
    decisions: int = 0
    thinking: float = 0.0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


class _Timed:
    """Wraps a bot: counts its decisions and the time it spends choosing."""

    def __init__(self, bot: Any, res: MatchResult) -> None:
        self.bot, self.res, self.name = bot, res, bot.name

    def choose(self, state: Any, seat: str) -> Any:
        t = time.perf_counter()
        action = self.bot.choose(state, seat)
        self.res.thinking += time.perf_counter() - t
        self.res.decisions += 1
        return action


def play_match(first: str, second: str, games: int, base: int = 0) -> MatchResult:
    """``games`` seeded games of bot ``first`` against bot ``second``, seats alternating."""
    from gm.core.playout import play_out
    from gm.games.grid_football import GAME

    res = MatchResult()

    def count(seat: str, action: Any, events: list[Any]) -> None:
        res.downs += sum(ev.kind in ("play_reveal", "punt_called") for ev in events)

    t0 = time.perf_counter()
    for i in range(games):
        hero, villain = ("home", "away") if i % 2 == 0 else ("away", "home")
        bots = {hero: _Timed(make_bot(first, 2 * (base + i)), res), villain: make_bot(second, 2 * (base + i) + 1)}
        state = GAME.new_state(None, base + i)
        play_out(state, bots, on_move=count)
        assert state.outcome is not None
        result = state.outcome.result(hero)
        res.wins += result == "win"
        res.draws += result == "draw"
        res.losses += result == "loss"
    res.seconds = time.perf_counter() - t0
    return res


def random_play_actions(games: int, base: int = 0) -> tuple[int, float]:
    """Actions of ``games`` random-play games (legal actions, a uniform draw, a validated apply)
    and the seconds they took."""
    from gm.games.grid_football import GAME

    actions = 0
    t0 = time.perf_counter()
    for seed in range(base, base + games):
        state = GAME.new_state(None, seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            seat = state.to_act()[0]
            state.apply(seat, state.legal_actions(seat).sample(rng))
            actions += 1
    return actions, time.perf_counter() - t0


def _speed(quick: bool) -> list[dict[str, Any]]:
    n = SPEED_GAMES[1] if quick else SPEED_GAMES[0]
    random_play_actions(20, base=9_000_000)  # warm up imports and caches
    actions, seconds = random_play_actions(n)
    rate = actions / seconds
    rows = [row("random-play actions/s", round(rate), "actions/s",
                f"on one core; {n} seeded games, {actions / n:.1f} actions/game", target=f">= {ACTIONS_TARGET}")]
    play_match("random", "random", 5, base=9_000_000)
    res = play_match("random", "random", n, base=0)
    note = f"{n} seeded games, {res.downs / n:.1f} downs/game, bot time included"
    rows += [
        row("random vs random games/s", round(res.games / res.seconds, 1), "games/s", note),
        row("random vs random downs/s", round(res.downs / res.seconds), "downs/s", "resolved play calls and punts"),
    ]
    sims = SIM_GAMES[1] if quick else SIM_GAMES[0]
    res = play_match("default", "random", sims, base=700_000)
    rate = res.games / res.seconds
    rows.append(row("default vs random games/s", round(rate, 1), "games/s",
                    "gm sim's workload on one core: 1000 games in 20 s on 2 cores is 25 per core",
                    target=f">= {SIM_TARGET / 2:g}"))
    return rows


def _render() -> list[dict[str, Any]]:
    from gm.games.grid_football import GAME

    state = GAME.new_state(None, 5)
    rng = random.Random(5)
    for _ in range(60):  # a position with a drive and blocked squares on the board
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat).sample(rng))
    out = []
    for full in (False, True):
        n = 2000 if full else 5000
        t = time.perf_counter()
        for _ in range(n):
            GAME.render(state, "home", full=full)
        out.append(row(f"board render ({'full' if full else 'window'})/s", round(n / (time.perf_counter() - t)), "renders/s",
                       f"{len(state.blocked)} blocked squares; Session.call renders the window for every result"))
    return out


def _model_build() -> dict[str, Any]:
    from gm.games.grid_football.bots import ValueModel
    from gm.games.grid_football.rules import GridFootballRules

    rules = GridFootballRules()
    ValueModel(rules, (1, 2, 3))  # numpy import, warm-up
    t = time.perf_counter()
    model = ValueModel(rules, tuple(rules.plays))
    ms = (time.perf_counter() - t) * 1000
    return row("default value model build", round(ms, 1), "ms", f"Shapley iteration, {model.sweeps} sweeps, once per ruleset")


def _match_row(first: str, second: str, n: int, base: int) -> dict[str, Any]:
    res = play_match(first, second, n, base)
    lo, hi = wilson(res.wins + 0.5 * res.draws, res.games)
    per_decision = res.thinking / res.decisions * 1000 if res.decisions else 0.0
    note = (
        f"95% CI {lo:.3f}-{hi:.3f}; {res.wins}-{res.draws}-{res.losses} W-D-L in {n} seeded games, seats alternating; "
        f"{res.games / res.seconds:.1f} games/s, {first} {per_decision:.2f} ms/decision"
    )
    return row(f"{first} vs {second} score", round(res.score, 3), "score", note)


def run(quick: bool = False) -> list[dict[str, Any]]:
    """The benchmark rows (``quick``: fewer games)."""
    rows = _speed(quick)
    rows += _render()
    rows.append(_model_build())
    for first, second, full, small, base in MATCHES:
        rows.append(_match_row(first, second, small if quick else full, base))
    return rows


if __name__ == "__main__":
    import sys

    for r in run(quick="--quick" in sys.argv):
        print(f"{r['name']:36} {r['value']:>10} {r['unit']:8} {r['note']}")
