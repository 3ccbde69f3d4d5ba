"""Helpers for the GridMaster4 tests: fresh states, moves by whoever is to act, rejections."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from gm.core.errors import GameError, IllegalActionError, InvalidActionError
from gm.core.events import Event
from gm.core.registry import find_game
from gm.games.gridmaster4.engine import GridMaster4State

GAME = find_game("gridmaster4")


def new(seed: int = 0, **rules: Any) -> GridMaster4State:
    """A fresh game with the default rules changed by ``rules``."""
    state = GAME.new_state(rules, seed)
    assert isinstance(state, GridMaster4State)
    return state


def play(state: GridMaster4State, *moves: str) -> list[Event]:
    """Apply each move for the seat to act; return all events."""
    events: list[Event] = []
    for text in moves:
        (seat,) = state.to_act()
        events.extend(state.apply(seat, text))
    return events


def opening(state: GridMaster4State, *cells: str) -> list[Event]:
    """Each player's tile 1, in seat order."""
    return play(state, *(f"place 1 at {c}" for c in cells))


def fingerprint(state: GridMaster4State) -> bytes:
    """Every byte of the state (a rejected action must leave this unchanged).

    The immutable parts (ruleset, board geometry, logged moves) and the placement values shared by
    every game on this board (a table that grows as games reach higher tiles) count by identity."""
    shared = ("rules", "geo", "log", "places")
    fields = {k: v for k, v in vars(state).items() if k not in shared}
    return pickle.dumps((fields, [id(m) for m in state.log], id(state.rules), id(state.geo), id(state.places)))


def rejects(state: GridMaster4State, seat: str, text: str, rule: str, kind: type[GameError] = IllegalActionError) -> GameError:
    """Assert ``text`` by ``seat`` is rejected with ``rule`` and changes nothing."""
    before = fingerprint(state)
    with pytest.raises((IllegalActionError, InvalidActionError)) as info:
        state.apply(seat, text)
    assert info.value.rule == rule, info.value.message
    assert isinstance(info.value, kind)
    assert fingerprint(state) == before
    return info.value


def cells(state: GridMaster4State, seat: str) -> list[str]:
    """The cells of ``seat``'s legal placements, in the engine's order."""
    return [a.cell for a in state.legal_actions(seat)]  # type: ignore[attr-defined]


def tile(state: GridMaster4State, cell: str) -> tuple[str, int, bool] | None:
    return state.tile(state.geo.index[cell])


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
