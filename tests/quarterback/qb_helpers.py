"""Shared helpers for the Quarter Back tests: build positions from a set-up, check rejections."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from gm.core import GameError, find_game
from gm.games.quarterback.engine import QuarterbackState

G = find_game("quarterback")
F = TypeVar("F", bound=Callable[..., Any])


def side(qb: str | None = None, s: tuple[str, ...] = (), d: tuple[str, ...] = (), t: tuple[str, ...] = ()) -> dict[str, list[str]]:
    """A side's set-up: the Quarterback's square and the Singles', Doubles' and Triples' squares (ids in order)."""
    return {"quarterback": [qb] if qb else [], "singles": list(s), "doubles": list(d), "triples": list(t)}


def game(attack: dict[str, list[str]] | None = None, defense: dict[str, list[str]] | None = None, *,
         first: str = "red", seed: int = 0, **rules: Any) -> QuarterbackState:  # fmt: skip
    """One game (two halves) with this set-up, ``first`` attacking first; a real, replayable state."""
    data: dict[str, Any] = {"format": "game", "first_attacker": first, **rules}
    if attack is not None:
        data["attack"] = attack
    if defense is not None:
        data["defense"] = defense
    s = G.new_state(data, seed)
    assert isinstance(s, QuarterbackState)
    return s


def frozen(s: QuarterbackState) -> str:
    return json.dumps([s.snapshot(), s.to_json()], sort_keys=True)


def rejected(s: QuarterbackState, seat: str, text: str, rule: str) -> GameError:
    """``text`` is rejected for ``seat`` with ``rule`` and the state does not change at all."""
    before = frozen(s)
    with pytest.raises(GameError) as info:
        s.apply(seat, text)
    assert info.value.rule == rule, info.value.message
    assert frozen(s) == before
    return info.value


def at(s: QuarterbackState, seat: str, pid: str) -> str:
    """The square of ``seat``'s piece ``pid``."""
    return s.snapshot()["pieces"][seat][pid]


def texts(events: list[Any]) -> str:
    return " | ".join(e.text for e in events)


def rules_of(events: list[Any]) -> set[str]:
    return {e.rule for e in events}


def pins(*rule_ids: str) -> Callable[[F], F]:
    """Mark the rule ids a test pins (the meta test checks that every id in RULES is pinned)."""

    def mark(func: F) -> F:
        func.rule_ids = rule_ids  # type: ignore[attr-defined]
        return func

    return mark
