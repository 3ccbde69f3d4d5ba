"""Shared helpers for the Chess-Football tests: reach a down, place pieces, script the dice."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from gm.core import Event, GameError, Scripted, find_game
from gm.core.chance import MT19937
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.field import Field, parse_square, sq

G = find_game("chess-football")


def new(rules: dict[str, Any] | None = None, seed: int = 0) -> ChessFootballState:
    """A fresh game (the tests' seeded tosses and dice were chosen under the mt19937 generator)."""
    s = G.new_state(rules, seed, MT19937)
    assert isinstance(s, ChessFootballState)
    return s


def start(
    first: str = "home",
    *,
    home: tuple[str, str] = ("deep_threat", "safety"),
    away: tuple[str, str] = ("lead_blocker", "rusher"),
    rules: dict[str, Any] | None = None,
    seed: int = 0,
) -> ChessFootballState:
    """Captains picked and the toss called so that ``first`` has the first possession: the first snap."""
    s = new(rules, seed)
    s.apply("home", f"captains {home[0]} {home[1]}")
    s.apply("away", f"captains {away[0]} {away[1]}")
    for call in ("heads", "tails"):
        c = s.copy()
        c.apply("away", call)
        assert isinstance(c, ChessFootballState)
        if c.offense == first:
            s.apply("away", call)
            return s
    raise AssertionError("no toss call gives the first possession")


def snap(s: ChessFootballState, offense_plan: str = "plan: hold", defense_plan: str = "plan: hold") -> list[Event]:
    """Both teams submit a snap plan (offense first); every event."""
    assert s.offense and s.defense and s.phase == "snap", s.phase
    return [*s.apply(s.offense, offense_plan), *s.apply(s.defense, defense_plan)]


def field(s: ChessFootballState) -> Field:
    assert s.field is not None
    return s.field


def at(s: ChessFootballState, pid: str) -> str:
    """``"H11 C"``: where a piece stands."""
    p = field(s).pieces[pid]
    return f"{sq(p.sq)} {p.pos}"


def place(s: ChessFootballState, restart: bool = True, **spots: str) -> None:
    """Put pieces on squares directly (``FA1="H14 NW"``); with ``restart`` the current part of
    the turn starts again (movement and starting squares recomputed).  Test-only: such a
    state no longer replays."""
    f = field(s)
    for pid, spot in spots.items():
        square, _, pos = spot.partition(" ")
        p = f.pieces[pid]
        p.sq, p.pos = parse_square(square), (pos or "C")
    if restart and f.acting is not None:
        f.phase_idx -= 1
        f.start_phase(f.acting)


def reaction(s: ChessFootballState, **spots: str) -> ChessFootballState:
    """From the snap: both teams hold, then (optionally) pieces are placed: turn 2, offense to act."""
    snap(s)
    assert s.phase == "offense_turn", s.phase
    if spots:
        place(s, **spots)
    return s


def defense_turn(s: ChessFootballState, **spots: str) -> ChessFootballState:
    """The offense says done; pieces placed; the defense acts."""
    assert s.offense
    s.apply(s.offense, "done")
    assert s.phase == "defense_turn"
    if spots:
        place(s, **spots)
    return s


class Dice(Scripted):
    """The state's chance source for a test: the dice it scripts, in order (a draw beyond them, or an
    impossible value, is a ChanceError that fails the test)."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(every=values, strict=True)

    @property
    def values(self) -> list[Any]:
        """The scripted dice not rolled yet."""
        return self.every


def dice(s: ChessFootballState, *values: int) -> Dice:
    d = Dice(values)
    s.chance_source = d
    return d


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def texts(events: Iterable[Event]) -> str:
    return "\n".join(e.text for e in events)


def frozen(s: ChessFootballState) -> str:
    return json.dumps(s.snapshot(), sort_keys=True) + json.dumps(s.to_json(), sort_keys=True)


def rejects(s: ChessFootballState, seat: str, text: str, rule: str) -> GameError:
    """``text`` is rejected for ``seat`` with ``rule`` and the state is byte-identical."""
    before = frozen(s)
    with pytest.raises(GameError) as info:
        s.apply(seat, text)
    assert info.value.rule == rule, info.value.message
    assert frozen(s) == before
    return info.value
