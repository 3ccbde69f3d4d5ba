"""The game registry: find a game by id or alias."""

from __future__ import annotations

import importlib
import re

from gm.core.errors import UnknownGameError
from gm.core.game import Game

#: game id -> "module:attribute" of its Game instance (imported on first use).
_BUILTIN: dict[str, str] = {
    "grid-football": "gm.games.grid_football:GAME",
    "chess-football": "gm.games.chess_football:GAME",
    "gridmaster4": "gm.games.gridmaster4:GAME",
    "brawl": "gm.games.brawl:GAME",
    "quarterback": "gm.games.quarterback:GAME",
}
_loaded: dict[str, Game] = {}


def _norm(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


def register_game(game: Game) -> Game:
    """Register a game instance (third-party games may call this)."""
    _loaded[game.id] = game
    return game


def game_ids() -> list[str]:
    return sorted(set(_BUILTIN) | set(_loaded))


def all_games() -> list[Game]:
    return [find_game(g) for g in game_ids()]


def find_game(name: str) -> Game:
    """The game with id or alias ``name`` (case, spaces and underscores ignored)."""
    key = _norm(name)
    if key in _loaded:
        return _loaded[key]
    if key in _BUILTIN:
        module, attr = _BUILTIN[key].split(":")
        game: Game = getattr(importlib.import_module(module), attr)
        return register_game(game)
    for gid in game_ids():
        g = find_game(gid) if gid != key else None
        if g is not None and key in (_norm(a) for a in g.aliases):
            return g
    raise UnknownGameError("no such game", rule="CORE-GAME", input=name, legal=game_ids())
