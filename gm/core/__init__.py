"""The game-agnostic core: actions, states, errors, events, outcomes, registry."""

from gm.core.actions import Action, Move
from gm.core.bots import Bot, RandomBot
from gm.core.errors import (
    ActionError,
    GameError,
    IllegalActionError,
    InvalidActionError,
    RulesetError,
    StateError,
    UnknownGameError,
)
from gm.core.events import Event
from gm.core.game import Game, ruleset_hash
from gm.core.outcome import Outcome
from gm.core.registry import all_games, find_game, game_ids, register_game
from gm.core.state import GameState, LegalActions

__all__ = [
    "Action",
    "ActionError",
    "Bot",
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
    "StateError",
    "UnknownGameError",
    "all_games",
    "find_game",
    "game_ids",
    "register_game",
    "ruleset_hash",
]
