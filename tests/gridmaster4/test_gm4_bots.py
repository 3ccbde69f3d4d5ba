"""Bots: both strategies play legal moves to the end; the default bot beats random play."""

from __future__ import annotations

from gm4_helpers import GAME, new

from gm.core.bots import RandomBot
from gm.games.gridmaster4.bots import GreedyBot, play_out


def test_bot_registry_has_default_and_random() -> None:
    assert set(GAME.bots()) == {"default", "random"}
    assert isinstance(GAME.make_bot("default", seed=1), GreedyBot)
    assert isinstance(GAME.make_bot("bot:random", seed=1), RandomBot)


def test_bots_are_deterministic_for_a_seed() -> None:
    def game() -> list[list[str]]:
        s = new(5)
        bots = {seat: GAME.make_bot("default", seed=i) for i, seat in enumerate(GAME.seats)}
        play_out(s, bots)
        return [m.to_json() for m in s.log]

    assert game() == game()


def test_default_beats_random_with_a_safe_margin() -> None:
    """One default bot against three random bots, rotating through the seats: a fair share
    would be 1 game in 4; the default bot must win at least 3 in 5 (it wins ~19 in 20)."""
    games, wins = 30, 0
    for k in range(games):
        s = new(1000 + k)
        hero = GAME.seats[k % 4]
        bots = {seat: (GreedyBot(seed=k) if seat == hero else RandomBot(seed=10 * k + i)) for i, seat in enumerate(GAME.seats)}
        outcome = play_out(s, bots)
        wins += outcome.winner == hero
    assert wins >= 18, f"default won only {wins} of {games}"


def test_default_bot_plays_small_and_variant_rulesets() -> None:
    for k, rules in enumerate(
        [
            {"columns": 5, "rows": 4, "players": 3, "tiles": 30, "winning_tile": 30},
            {"columns": 10, "rows": 10, "players": 1},
            {"players": 2, "build_from": "any"},
            {"players": 4, "deactivate": "own", "columns": 9, "rows": 9},
        ]
    ):
        s = new(k, **rules)
        bots = {seat: GreedyBot(seed=k) for seat in GAME.seats}
        outcome = play_out(s, bots)
        assert outcome.winner in s.order
