"""The game registry: every installed game, found by id or alias.

Games are plugins.  A distribution declares its games in the entry-point group ``gm.games``
(name = the game id, value = ``module:attribute`` of the :class:`Game` instance), e.g. in its
``pyproject.toml``::

    [project.entry-points."gm.games"]
    tic-tac-toe = "tictactoe:GAME"

gm's own five games are declared the same way in gm's ``pyproject.toml``; nothing here names
any game.  A game is imported on first use.  :func:`register_game` adds a game from code
(tests, notebooks); it wins over an entry point of the same id.  The game gm plays when none
is named is :func:`default_game`: the one installed game whose class says ``default = True``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from gm.core.errors import GameError, UnknownGameError
from gm.core.game import Game

#: the entry-point group games are declared in
ENTRY_POINT_GROUP = "gm.games"
GAME_RULE = "CORE-GAME"

_loaded: dict[str, Game[Any, Any]] = {}
_registered: dict[str, Game[Any, Any]] = {}


def _norm(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


@lru_cache(maxsize=1)
def _declared() -> dict[str, tuple[EntryPoint, ...]]:
    """Game id -> the entry points declaring it (more than one: a conflict), read once."""
    out: dict[str, list[EntryPoint]] = {}
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        key = _norm(ep.name)
        if all(e.value != ep.value for e in out.get(key, [])):  # the same dist seen twice on sys.path
            out.setdefault(key, []).append(ep)
    return {k: tuple(v) for k, v in out.items()}


def _origin(ep: EntryPoint) -> str:
    dist = ep.dist.name if ep.dist is not None else "?"
    return f"{ep.value} (from {dist})"


def _load(key: str) -> Game[Any, Any]:
    """Import the game declared as ``key``; a clear :class:`GameError` when it cannot be used."""
    eps = _declared()[key]
    if len(eps) > 1:
        raise GameError(
            f"several installed packages declare the game {key}: {'; '.join(map(_origin, eps))}; uninstall all but one",
            rule=GAME_RULE,
            input=key,
        )
    ep = eps[0]
    try:
        game = ep.load()
    except Exception as exc:
        raise GameError(
            f"the game {key} ({_origin(ep)}) cannot be loaded: {type(exc).__name__}: {exc}", rule=GAME_RULE, input=key
        ) from None
    if not isinstance(game, Game):
        raise GameError(
            f"the entry point of game {key} ({_origin(ep)}) is a {type(game).__name__}, not a gm.core.Game instance",
            rule=GAME_RULE,
            input=key,
        )
    if _norm(game.id) != key:
        raise GameError(
            f"the entry point {key} ({_origin(ep)}) loads a game whose id is {game.id!r}; name the entry point after the id",
            rule=GAME_RULE,
            input=key,
        )
    _loaded[key] = game
    return game


def register_game(game: Game[Any, Any]) -> Game[Any, Any]:
    """Register a game instance from code (it wins over an installed game of the same id)."""
    _registered[_norm(game.id)] = game
    return game


def unregister_game(game: Game[Any, Any]) -> None:
    """Undo :func:`register_game` of ``game`` (an installed game of its id is found again); a game
    not registered is left alone."""
    key = _norm(game.id)
    if _registered.get(key) is game:
        del _registered[key]


def game_ids() -> list[str]:
    """The id of every installed or registered game, sorted."""
    return sorted(set(_declared()) | set(_registered))


def _get(key: str) -> Game[Any, Any]:
    if key in _registered:
        return _registered[key]
    if key in _loaded:
        return _loaded[key]
    return _load(key)


def all_games() -> list[Game[Any, Any]]:
    """Every game that loads, by id (a game that cannot be loaded is left out: :func:`broken_games`)."""
    out = []
    for gid in game_ids():
        try:
            out.append(_get(gid))
        except GameError:
            continue
    return out


def broken_games() -> dict[str, str]:
    """Declared games that cannot be loaded, with the reason."""
    out = {}
    for gid in game_ids():
        try:
            _get(gid)
        except GameError as exc:
            out[gid] = exc.reason
    return out


def find_game(name: str) -> Game[Any, Any]:
    """The game with id or alias ``name`` (case, spaces and underscores ignored).  An unknown
    name is an :class:`UnknownGameError` listing the installed games."""
    known = _registered.get(name) or _loaded.get(name)  # the fast path: an id, as the code passes them
    if known is not None:
        return known
    key = _norm(name)
    if key in _registered or key in _declared():
        return _get(key)
    for game in all_games():
        if key in (_norm(a) for a in game.aliases):
            return game
    ids = game_ids()
    if not ids:
        raise UnknownGameError(
            f"no games are installed (no entry points in the group {ENTRY_POINT_GROUP}): reinstall gm, e.g. pip install -e .",
            rule=GAME_RULE,
            input=name,
        )
    raise UnknownGameError(f"no such game; installed games: {', '.join(ids)}", rule=GAME_RULE, input=name, legal=ids)


def default_game() -> Game[Any, Any]:
    """The game played when none is named: the one installed game that declares itself the
    default (``Game.default``); the only game, when just one is installed."""
    games = all_games()
    chosen = [g for g in games if g.default]
    if len(chosen) == 1:
        return chosen[0]
    if not chosen and len(games) == 1:
        return games[0]
    ids = [g.id for g in games]
    why = f"several games declare themselves the default ({', '.join(g.id for g in chosen)})" if chosen else "no game declares itself the default"
    raise UnknownGameError(f"{why}: name the game; installed games: {', '.join(ids) or 'none'}", rule=GAME_RULE, legal=ids)
