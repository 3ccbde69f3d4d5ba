"""Bot-vs-bot simulation with game-agnostic statistics (counted from event kinds; each game
names the kinds worth a headline in ``Game.sim_headlines``)."""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from gm.core.game import Game
from gm.core.playout import play_out


def _seed(*parts: object) -> int:
    return int(hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:15], 16)


@dataclass(frozen=True)
class GameResult:
    """What one simulated game contributes to the report."""

    winner: str | None
    reason: str | None
    finished: bool
    length: int
    events: dict[str, int]


def play_one(game: Game, ruleset: Any, specs: Mapping[str, str], seed: int, i: int, max_moves: int) -> GameResult:
    """Game ``i`` of a simulation: seed ``seed + i``, bots seeded from (seed, i, seat)."""
    state = game.new_state(ruleset, seed + i)
    bots = {s: game.make_bot(p, seed=_seed(seed, i, s)) for s, p in specs.items()}
    events: Counter[str] = Counter()

    def count(seat: str, action: Any, evs: list[Any]) -> None:
        for ev in evs:
            events[ev.kind] += 1

    play_out(state, bots, max_moves=max_moves, on_move=count)
    out = state.outcome
    return GameResult(
        winner=out.winner if out else None,
        reason=out.reason if out else None,
        finished=out is not None,
        length=len(state.log),
        events=dict(events),
    )


def _play_chunk(job: tuple[str, dict[str, Any], dict[str, str], int, list[int], int]) -> list[GameResult]:
    """A worker process's share: some game indices (the game found again by id in the worker)."""
    from gm.core.registry import find_game

    game_id, rules_data, specs, seed, indices, max_moves = job
    game = find_game(game_id)
    ruleset = game.load_rules(rules_data)
    return [play_one(game, ruleset, specs, seed, i, max_moves) for i in indices]


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def simulate(
    game: Game,
    *,
    games: int,
    seed: int = 0,
    rules: Any = None,
    players: Mapping[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
    max_moves: int = 100_000,
    workers: int = 1,
) -> dict[str, Any]:
    """Play ``games`` bot-vs-bot games (game ``i`` uses seed ``seed + i``) and report
    win rates, average length and per-game rates of every event kind.  ``workers`` > 1 plays them
    in that many processes; the report is the same as with one (games are independent and are
    added up in their own order)."""
    from gm.session import normalise_player

    ruleset = game.load_rules(rules)
    specs = {s: normalise_player(game, (players or {}).get(s, "bot")) for s in game.seats}
    if any(not p.startswith("bot:") for p in specs.values()):
        raise ValueError("every seat needs a bot in a simulation")
    results: list[GameResult] = []
    if workers <= 1 or games < 2:
        for i in range(games):
            results.append(play_one(game, ruleset, specs, seed, i, max_moves))
            if progress:
                progress(i + 1)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        size = max(1, min(50, games // (workers * 8)))
        chunks = [list(range(k, min(games, k + size))) for k in range(0, games, size)]
        data = ruleset.model_dump(mode="json")
        jobs = [(game.id, data, specs, seed, chunk, max_moves) for chunk in chunks]
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")  # fork: registered games carry over
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
            for part in pool.map(_play_chunk, jobs):
                results.extend(part)
                if progress:
                    progress(len(results))
    return _report(game, games, seed, specs, results)


def _report(game: Game, games: int, seed: int, specs: Mapping[str, str], results: list[GameResult]) -> dict[str, Any]:
    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    events: Counter[str] = Counter()
    games_with: Counter[str] = Counter()
    draws = unfinished = 0
    for r in results:  # in game order, so ties in the counts list alike however the games were played
        events.update(r.events)
        games_with.update(r.events.keys())
        if not r.finished:
            unfinished += 1
        elif r.winner is None:
            draws += 1
            reasons[str(r.reason)] += 1
        else:
            wins[r.winner] += 1
            reasons[str(r.reason)] += 1
    lengths = [r.length for r in results]
    n = max(games, 1)
    return {
        "game": game.id,
        "games": games,
        "seed": seed,
        "players": dict(specs),
        "wins": {s: wins[s] for s in game.seats},
        "draws": draws,
        "unfinished": unfinished,
        "win_rate": {s: wins[s] / n for s in game.seats},
        "draw_rate": draws / n,
        "avg_length": sum(lengths) / n,
        "min_length": min(lengths, default=0),
        "max_length": max(lengths, default=0),
        "headlines": dict(game.sim_headlines),
        "rates": {k: events[k] / n for k in game.sim_headlines},
        "games_with": {k: games_with[k] / n for k in game.sim_headlines},
        "events_per_game": {k: v / n for k, v in sorted(events.items())},
        "end_reasons": dict(reasons.most_common()),
    }
