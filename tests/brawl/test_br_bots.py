"""Bots: both strategies play legal actions, are deterministic by seed, and default beats random."""

from __future__ import annotations

import pytest
from br_helpers import G, new, series

from gm.games.brawl.actions import FourthDown


def _game(seed: int, home: str, away: str, rounds: int) -> object:
    st = G.new_state({"rounds": rounds}, seed)
    bots = {"home": G.make_bot(home, seed=seed), "away": G.make_bot(away, seed=seed + 1)}
    while not st.is_terminal:
        for seat in st.to_act():
            action = bots[seat].choose(st, seat)
            assert st.is_legal(seat, action)
            st.apply(seat, action)
    assert st.outcome is not None
    return st.outcome


def test_default_beats_random() -> None:
    """Seeded and fast: default wins at least 11 of 12 six-series games, on either side."""
    wins = 0
    for g in range(12):
        seat = "home" if g % 2 == 0 else "away"
        lineup = ("default", "random") if seat == "home" else ("random", "default")
        outcome = _game(g, *lineup, rounds=6)
        wins += outcome.result(seat) == "win"  # type: ignore[attr-defined]
    assert wins >= 11


@pytest.mark.parametrize("name", ["default", "random"])
def test_bots_are_deterministic_by_seed(name: str) -> None:
    a, b = new(seed=3), new(seed=3)
    assert str(G.make_bot(name, seed=5).choose(a, "home")) == str(G.make_bot(name, seed=5).choose(b, "home"))


def test_default_against_itself_plays_whole_games() -> None:
    outcome = _game(7, "default", "default", rounds=4)
    assert outcome.rule == "BR-R-WIN"  # type: ignore[attr-defined]


def _fourth(los: int, yards_plays: tuple = ()) -> object:  # type: ignore[type-arg]
    st = new()
    st.los = los
    series(st, *yards_plays)
    assert st.phase == "fourth_down"
    return G.make_bot("default").choose(st, "home")


def test_default_fourth_down_choices() -> None:
    """Kicks when the odds are good, punts from deep with nothing gained, goes for it when close."""
    two = ({"QB": "F2@SM"}, {})
    assert _fourth(80) == FourthDown("field_goal")  # 37 yards, 85%
    assert _fourth(20) == FourthDown("punt")
    assert _fourth(30, (two,)) == FourthDown("punt")  # 2 yards from the own 30
    assert _fourth(30, (two, two, two)) == FourthDown("go_for_it")  # 6 yards: 4 to go


@pytest.mark.parametrize("name", ["default", "random"])
def test_a_bot_made_afresh_for_every_decision_plays_the_same_game(name: str) -> None:
    """A bot's choice is a function of its seed and what its seat sees: a game where the bot is made again
    before every decision equals one with a single instance per seat (over many seeds)."""
    from gm.core.playout import play_out

    rounds = 2 if name == "default" else 4
    for seed in range(6 if name == "default" else 20):
        kept = G.new_state({"rounds": rounds}, seed)
        play_out(kept, {s: G.make_bot(name, seed=seed * 10 + i) for i, s in enumerate(G.seats)})
        fresh = G.new_state({"rounds": rounds}, seed)
        play_out(fresh, lambda s, seed=seed: G.make_bot(name, seed=seed * 10 + G.seats.index(s)))  # type: ignore[misc]
        assert kept.is_terminal and [str(m.action) for m in fresh.log] == [str(m.action) for m in kept.log]
