"""brawl bots: ``random`` (uniform over the legal actions) and ``default`` (see :mod:`gm.games.brawl.strategy`).

A bot's choice is a function of its seed and of what its seat may see: its randomness for a
decision is drawn from the seed and the decision's public place in the game (:func:`gm.games.brawl.decisions.decision_key`),
never from a generator that earlier decisions advanced.  So a bot made afresh for every decision
plays exactly as one kept for the whole game, whichever process serves the game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from gm.core.actions import Action
from gm.core.bots import Bot, SeededBot
from gm.core.state import GameState
from gm.games.brawl.decisions import decision_key, uniform_index


class RandomBot(SeededBot):
    """Uniform over the legal actions (every placement the rules allow, from the counted
    :class:`~gm.games.brawl.legal.PlacementSpace`; every 4th-down option).  It sees only the size
    of its own choice."""

    name = "random"

    def choose(self, state: GameState[Any], seat: str) -> Action:
        legal = state.legal_actions(seat)
        return legal[uniform_index(self.seed, decision_key(state, seat), len(legal))]


def _default(seed: int = 0) -> Bot:
    from gm.games.brawl.strategy import DefaultBot

    return DefaultBot(seed)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "default": _default}


def evaluate(state: GameState[Any]) -> dict[str, float]:
    """How a brawl game stands for each seat, for the search bot's rollouts it stops early: the score and the
    offense's ball position (yards toward the goal), on a logistic scale (public facts only)."""
    from gm.games.brawl.engine import BrawlState

    assert isinstance(state, BrawlState)
    st = state
    home, away = st.seats
    margin = float(st.score[home] - st.score[away])
    if st.outcome is None and st.rules.field_length:
        edge = 4.0 * (st.los / st.rules.field_length - 0.5)
        margin += edge if st.offense == home else -edge
    p = 1.0 / (1.0 + math.exp(-margin / 5.0))
    return {home: p, away: 1.0 - p}


def _default_policy(state: GameState[Any], seat: str, rng: random.Random) -> Action:
    """The default bot's choice, seeded from ``rng``: a placement for the search's prior and its model of the
    other side's locked placement (far better informed than a uniform draw from thousands)."""
    bot = _default(seed=rng.getrandbits(32))
    return bot.choose(state, seat)


#: the search bot tuned for brawl (:meth:`gm.core.game.Game.search_hints`): placements are too many to list, so
#: the default bot proposes them
SEARCH: dict[str, Any] = {"evaluate": evaluate, "prior": _default_policy, "model": _default_policy, "iters": 60, "depth": 12}
