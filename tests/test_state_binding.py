"""A game's seats are declared once, on its Game: the state class gets ``game`` and ``seats`` from
:meth:`gm.core.state.GameState.bind`, and an unbound state class says what is missing."""

from __future__ import annotations

from typing import Any

import pytest

from gm.core.registry import all_games, find_game
from gm.core.state import GameState


def test_every_installed_games_state_takes_game_and_seats_from_the_game() -> None:
    for g in all_games():
        st = g.new_state(None, 1)
        assert type(st).game is g and st.game is g and st.seats == tuple(g.seats), g.id


def test_an_unbound_state_class_names_the_missing_call() -> None:
    bare: Any = type("Bare", (GameState,), {})
    bare.__abstractmethods__ = frozenset()  # (only its attribute lookup is under test)
    st: Any = object.__new__(bare)
    with pytest.raises(AttributeError, match=r"Bare has no game, so no seats: its game package must call Bare.bind\(GAME\)"):
        _ = st.seats
    with pytest.raises(AttributeError, match=r"Bare has no game, so no game"):
        _ = st.game
    with pytest.raises(AttributeError, match=r"'Bare' object has no attribute 'nothing_here'"):
        _ = st.nothing_here
    assert getattr(st, "nothing_here", 7) == 7 and not hasattr(st, "game")
    bare.bind(find_game("grid-football"))
    assert st.seats == ("home", "away") and st.game.id == "grid-football"
