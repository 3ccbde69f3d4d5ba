"""The bot interface: one method, given a state and a seat, returns an action."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol

from gm.core.actions import Action

if TYPE_CHECKING:
    from gm.core.state import GameState


class Bot(Protocol):
    """A strategy.  It sees the state through ``state.view(seat)`` semantics only:
    bots must never read another seat's pending secret choice."""

    name: str

    def choose(self, state: GameState[Any], seat: str) -> Action:
        """Pick a legal action for ``seat``."""
        ...


class RandomBot:
    """Uniform over the legal actions (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        return state.legal_actions(seat).sample(self.rng)
