"""brawl bots: ``random`` (uniform placements) and ``default`` (see :mod:`gm.games.brawl.strategy`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gm.core.actions import Action
from gm.core.bots import Bot
from gm.core.state import GameState
from gm.games.brawl.actions import CardPlay, FourthDown, Placement
from gm.games.brawl.rules import PLAYABLE


class RandomBot:
    """Uniform over placements: a random zone for every player (distinct), a random card from each hand;
    a random 4th-down option.  Sees only its own hand and revealed cards."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        from gm.games.brawl.engine import BrawlState

        assert isinstance(state, BrawlState)
        if state.decision(seat) == "fourth_down":
            return FourthDown(self.rng.choice(state.fourth_options()))
        players = list(state.roster(seat))
        zones = self.rng.sample(PLAYABLE, len(players))
        hand = state.hands[seat]
        return Placement(tuple(CardPlay(p, self.rng.choice(hand[p]).code, z) for p, z in zip(players, zones, strict=True)))


def _default(seed: int = 0) -> Bot:
    from gm.games.brawl.strategy import DefaultBot

    return DefaultBot(seed)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "default": _default}
