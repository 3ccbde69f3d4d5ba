"""Bot-vs-bot simulation with game-agnostic statistics (counted from event kinds; each game
names the kinds worth a headline in ``Game.sim_headlines``)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from gm.core.game import Game
from gm.core.playout import play_out


def _seed(*parts: object) -> int:
    return int(hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:15], 16)


def simulate(
    game: Game,
    *,
    games: int,
    seed: int = 0,
    rules: Any = None,
    players: Mapping[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
    max_moves: int = 100_000,
) -> dict[str, Any]:
    """Play ``games`` bot-vs-bot games (game ``i`` uses seed ``seed + i``) and report
    win rates, average length and per-game rates of every event kind."""
    from gm.session import normalise_player

    ruleset = game.load_rules(rules)
    specs = {s: normalise_player(game, (players or {}).get(s, "bot")) for s in game.seats}
    if any(not p.startswith("bot:") for p in specs.values()):
        raise ValueError("every seat needs a bot in a simulation")
    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    events: Counter[str] = Counter()
    games_with: Counter[str] = Counter()
    lengths: list[int] = []
    draws = unfinished = 0
    for i in range(games):
        state = game.new_state(ruleset, seed + i)
        bots = {s: game.make_bot(p, seed=_seed(seed, i, s)) for s, p in specs.items()}
        seen: set[str] = set()

        def count(seat: str, action: Any, evs: list[Any], seen: set[str] = seen) -> None:
            for ev in evs:
                events[ev.kind] += 1
                seen.add(ev.kind)

        play_out(state, bots, max_moves=max_moves, on_move=count)
        games_with.update(seen)
        lengths.append(len(state.log))
        if state.outcome is None:
            unfinished += 1
        elif state.outcome.winner is None:
            draws += 1
            reasons[state.outcome.reason] += 1
        else:
            wins[state.outcome.winner] += 1
            reasons[state.outcome.reason] += 1
        if progress:
            progress(i + 1)
    n = max(games, 1)
    return {
        "game": game.id,
        "games": games,
        "seed": seed,
        "players": specs,
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
