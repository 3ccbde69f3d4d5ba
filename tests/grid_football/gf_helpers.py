"""Shared helpers for the Grid Football tests: build situations, play downs, check rejections."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from gm.core import Event, GameError, RandomBot, find_game
from gm.core.chance import MT19937
from gm.games.grid_football.engine import GridFootballState, other, parse_square, sq

G = find_game("grid-football")


def new(rules: dict[str, Any] | None = None, seed: int = 0) -> GridFootballState:
    """A fresh game (the tests' seeded coin tosses were chosen under the mt19937 generator)."""
    s = G.new_state(rules, seed, MT19937)
    assert isinstance(s, GridFootballState)
    return s


def at_down(
    ball: str = "K20",
    offense: str = "home",
    *,
    down: int = 1,
    to_gain: int | None = None,
    blocked: Iterable[str] = (),
    quarter: int = 1,
    quarter_downs: int = 0,
    up_team: str = "home",
    toss_winner: str = "home",
    rules: dict[str, Any] | None = None,
    seed: int = 0,
) -> GridFootballState:
    """A state set up directly at a down: ``offense`` has the ball at ``ball``.

    (Like tests/test_smoke.py: fields are set on the state; such a state does not replay.)
    """
    s = new(rules, seed)
    s.toss_winner = toss_winner
    s.up_team = up_team
    s.quarter = quarter
    s.quarter_downs = quarter_downs
    s.phase = "play"
    s.offense = offense
    s.kicker = other(offense)
    s.ball = parse_square(ball)
    s.down = down
    s.los = s.ball[1]
    s.to_gain = to_gain if to_gain is not None else s.los + s.direction(offense) * s.rules.first_down_rows
    s.blocked = {parse_square(b) for b in blocked}
    return s


def down(s: GridFootballState, offense_call: str, defense_call: str) -> list[Event]:
    """Both teams call a play (offense first); return every event of the down."""
    assert s.offense
    events = s.apply(s.offense, offense_call)
    events += s.apply(other(s.offense), defense_call)
    return events


def both(s: GridFootballState, first: str, second: str, *, first_seat: str = "home") -> list[Event]:
    """A simultaneous pick: ``first_seat`` picks ``first``, the other seat ``second``."""
    return s.apply(first_seat, first) + s.apply(other(first_seat), second)


def to_kickoff(kicker: str = "home", *, rules: dict[str, Any] | None = None, seed: int = 0) -> GridFootballState:
    """Through the public API: coin toss and choice, so that ``kicker`` kicks off."""
    s = new(rules, seed)
    s.apply(s.rules.toss_caller, "heads")
    assert s.toss_winner
    s.apply(s.toss_winner, "kick" if s.toss_winner == kicker else "receive")
    assert s.phase == "kickoff" and s.kicker == kicker
    return s


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def rules_of(events: Iterable[Event]) -> set[str]:
    """Every rule id the events name (``rule`` and ``also``)."""
    out: set[str] = set()
    for e in events:
        out.add(e.rule)
        out.update(e.data.get("also", ()))
    return out


def first(events: Iterable[Event], kind: str) -> Event:
    for e in events:
        if e.kind == kind:
            return e
    raise AssertionError(f"no {kind!r} event in {[str(e) for e in events]}")


def blocked(s: GridFootballState) -> list[str]:
    return sorted(sq(b) for b in s.blocked)


def frozen(s: GridFootballState) -> tuple[str, str]:
    """The state's snapshot and its JSON form, byte for byte."""
    return json.dumps(s.snapshot(), sort_keys=True), json.dumps(s.to_json())


def rejects(s: GridFootballState, seat: str, action: Any, rule: str, *, kind: type[GameError] = GameError) -> GameError:
    """Assert ``action`` is refused with ``rule``, the input quoted, and the state unchanged."""
    before = frozen(s)
    with pytest.raises(kind) as info:
        s.apply(seat, action)
    err = info.value
    assert err.rule == rule, err.message
    assert err.input is not None and err.input in err.message
    assert frozen(s) == before, "a rejected action changed the state"
    return err


def random_game(seed: int, rules: dict[str, Any] | None = None) -> GridFootballState:
    """A full game of RandomBot against RandomBot (deterministic for ``seed``)."""
    s = new(rules, seed)
    bots = {"home": RandomBot(2 * seed), "away": RandomBot(2 * seed + 1)}
    while not s.is_terminal:
        for seat in s.to_act():
            s.apply(seat, bots[seat].choose(s, seat))
    return s


def kick(s: GridFootballState, kicker_pick: str, receiver_pick: str) -> list[Event]:
    """Kickoff or punt picks: the kicking team first, then the receiving team."""
    assert s.kicker
    return s.apply(s.kicker, kicker_pick) + s.apply(other(s.kicker), receiver_pick)


def numbers(s: GridFootballState, a: int, b: int) -> list[Event]:
    """A number check: ``a`` for the kicker (return check) or the offense (colour match), ``b`` for the other."""
    seat = s.kicker if s.phase == "return_number" else s.offense
    assert seat
    return s.apply(seat, f"number {a}") + s.apply(other(seat), f"number {b}")
