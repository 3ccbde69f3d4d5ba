"""The bot interface: one method, given a state and a seat, returns an action.

A bot is named by a spec: ``bot`` (the game's default), ``bot:NAME`` or ``bot:NAME?key=value&...`` (the
bot's parameters, e.g. ``bot:search?iters=400``).  Every game has its own bots (``Game.bots()``) and the
ones the core gives every game (:func:`core_bots`: ``search``).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
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


class SeededBot(ABC):
    """Base of a bot made from a seed alone, which it keeps (``self.seed``) to draw from at each decision."""

    name: str = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @abstractmethod
    def choose(self, state: GameState[Any], seat: str) -> Action:
        """Pick a legal action for ``seat``."""


class RandomBot:
    """Uniform over the legal actions (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        return state.legal_actions(seat).sample(self.rng)


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """A bot spec's strategy name and parameters: ``"bot:search?iters=50&ms=200"`` -> ``("search", {"iters":
    "50", "ms": "200"})``; ``"bot"`` -> ``("", {})`` (the game's default).  Names and keys are lower case."""
    text = str(spec).strip().lower()
    text = text.removeprefix("bot").removeprefix(":")
    name, _, query = text.partition("?")
    params: dict[str, str] = {}
    for part in filter(None, query.split("&")):
        key, _, value = part.partition("=")
        params[key.strip()] = value.strip()
    return name.strip(), params


def spec_text(name: str, params: Mapping[str, Any]) -> str:
    """The canonical spec of a strategy and its parameters (keys in order): ``bot:search?iters=50``."""
    query = "&".join(f"{k}={params[k]}" for k in sorted(params))
    return f"bot:{name}" + (f"?{query}" if query else "")


def core_bots() -> Mapping[str, Callable[..., Bot]]:
    """The bots every game gets from the core: ``search`` (Monte-Carlo tree search over the game contract,
    :mod:`gm.core.search`)."""

    def search(seed: int = 0, **params: Any) -> Bot:
        from gm.core.search import make_search_bot

        return make_search_bot(seed, **params)

    return {"search": search}
