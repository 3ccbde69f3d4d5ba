"""Quarter Back bots: both strategies play legal moves to the end; the default beats random."""

from __future__ import annotations

from qb_helpers import G

from gm.core import RandomBot
from gm.games.quarterback.engine import QuarterbackState


def _play(red: str, blue: str, seed: int, rules: dict) -> QuarterbackState:
    s = G.new_state(rules, seed)
    assert isinstance(s, QuarterbackState)
    bots = {"red": G.make_bot(red, seed * 2), "blue": G.make_bot(blue, seed * 2 + 1)}
    while not s.is_terminal:
        seat = s.to_act()[0]
        s.apply(seat, bots[seat].choose(s, seat))
    return s


def test_bots_registered() -> None:
    assert set(G.bots()) == {"random", "default"}
    assert G.make_bot("bot:default").name == "default"


def test_default_beats_random_with_a_safe_margin() -> None:
    wins = games = 0
    for seed in range(12):
        default_seat = ("red", "blue")[seed % 2]
        red, blue = ("default", "random") if default_seat == "red" else ("random", "default")
        s = _play(red, blue, seed, {"format": "game"})
        assert s.outcome is not None
        wins += s.outcome.winner == default_seat
        games += 1
    assert wins >= 10, f"default won only {wins} of {games}"


def test_default_against_itself_and_core_random_bot_finish() -> None:
    s = _play("default", "default", 3, {"format": "game"})
    assert s.is_terminal
    s = G.new_state({"format": "game", "max_rounds": 2}, seed=4)
    bots = {seat: RandomBot(i) for i, seat in enumerate(G.seats)}  # uniform over the full legal list
    while not s.is_terminal:
        seat = s.to_act()[0]
        s.apply(seat, bots[seat].choose(s, seat))
    assert s.outcome is not None
