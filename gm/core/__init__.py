"""The game-agnostic core: actions, states, errors, events, outcomes, tools, registry: the public
API a game (in gm or in a package of its own) is written against.

Names are imported on first use (PEP 562), so ``import gm.core.errors`` – what the
command line needs at start-up – does not pull in pydantic and the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Action": "actions",
    "Move": "actions",
    "Bot": "bots",
    "RandomBot": "bots",
    "Chance": "chance",
    "ChanceError": "chance",
    "ChanceSource": "chance",
    "Choice": "chance",
    "Coin": "chance",
    "Deal": "chance",
    "Die": "chance",
    "Draw": "chance",
    "Scripted": "chance",
    "Shuffle": "chance",
    "ActionError": "errors",
    "GameError": "errors",
    "IllegalActionError": "errors",
    "InvalidActionError": "errors",
    "RulesetError": "errors",
    "StateError": "errors",
    "UnknownGameError": "errors",
    "bad_input": "errors",
    "Event": "events",
    "Game": "game",
    "ruleset_hash": "game",
    "Outcome": "outcome",
    "all_games": "registry",
    "default_game": "registry",
    "find_game": "registry",
    "game_ids": "registry",
    "register_game": "registry",
    "ActionSpace": "state",
    "GameState": "state",
    "LegalActions": "state",
    "ToolArgs": "tools",
    "ToolSpec": "tools",
    "action_tool": "tools",
}

__all__ = [
    "Action",
    "ActionError",
    "ActionSpace",
    "Bot",
    "Chance",
    "ChanceError",
    "ChanceSource",
    "Choice",
    "Coin",
    "Deal",
    "Die",
    "Draw",
    "Event",
    "Game",
    "GameError",
    "GameState",
    "IllegalActionError",
    "InvalidActionError",
    "LegalActions",
    "Move",
    "Outcome",
    "RandomBot",
    "RulesetError",
    "Scripted",
    "Shuffle",
    "StateError",
    "ToolArgs",
    "ToolSpec",
    "UnknownGameError",
    "action_tool",
    "all_games",
    "bad_input",
    "default_game",
    "find_game",
    "game_ids",
    "register_game",
    "ruleset_hash",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gm.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"gm.core.{module}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from gm.core.actions import Action, Move
    from gm.core.bots import Bot, RandomBot
    from gm.core.chance import Chance, ChanceError, ChanceSource, Choice, Coin, Deal, Die, Draw, Scripted, Shuffle
    from gm.core.errors import (
        ActionError,
        GameError,
        IllegalActionError,
        InvalidActionError,
        RulesetError,
        StateError,
        UnknownGameError,
        bad_input,
    )
    from gm.core.events import Event
    from gm.core.game import Game, ruleset_hash
    from gm.core.outcome import Outcome
    from gm.core.registry import all_games, default_game, find_game, game_ids, register_game
    from gm.core.state import ActionSpace, GameState, LegalActions
    from gm.core.tools import ToolArgs, ToolSpec, action_tool
