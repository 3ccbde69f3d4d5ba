"""A game's optional hooks (``board_json``, ``move_builder``, ``chatlog``, ``narration``, ``bots``,
``phrasing``, ``export``) and the modules its every-game methods read by default (``actions``, ``board``)
are found in one way: the module of that name in the game's package (:meth:`gm.core.game.Game.hook`)."""

from __future__ import annotations

import sys
import types

import pytest

from gm.core.narration import Claims
from gm.core.phrasing import PLAIN
from gm.core.registry import find_game
from gm.games.grid_football import actions as gf_actions
from gm.games.grid_football import board as gf_board
from gm.games.grid_football import bots as gf_bots
from gm.games.grid_football import chatlog as gf_chatlog


def test_every_hook_is_read_from_the_games_package() -> None:
    g = find_game("grid-football")
    assert g.package == "gm.games.grid_football"
    assert g.hook("chatlog") is gf_chatlog and g.chatlog() is gf_chatlog.CHATLOG
    assert g.hook_attr("bots", "SEARCH") is getattr(gf_bots, "SEARCH", None)
    assert g.hook("no_such_hook") is None and g.hook_attr("no_such_hook", "X") is None
    assert g.bots() is gf_bots.BOTS and g.phrasing() is g.hook_attr("phrasing", "PHRASING")
    assert g.action_types() is gf_actions.ACTION_TYPES and g.parse_action("heads") == gf_actions.parse_action("heads")
    state = g.new_state(None, 3)
    assert type(state) is g.state_class and g.status(state, "home") == gf_board.status_line(state, "home")
    assert g.render(state, "home", full=True) == gf_board.render(state, "home", full=True)


def test_a_game_in_a_lone_module_has_no_hooks_and_no_crash() -> None:
    """A game class defined in a top-level module (no package): every hook is simply absent."""
    g = find_game("grid-football")
    lone = types.ModuleType("gm_lone_game_module")
    lone_cls = type("LoneGame", (type(g),), {"__module__": lone.__name__})
    sys.modules[lone.__name__] = lone
    try:
        game = lone_cls()
        assert game.package == "gm_lone_game_module"
        assert game.hook("board_json") is None and game.chatlog() is None and game.search_hints() == {}
        assert type(game.narration_claims()) is Claims and game.lines() == {}
        assert game.bots() == {} and game.phrasing() is PLAIN and game.export_context(None) == {}
        # what every game must have: declared (a module, ``state_class``) or the method overridden
        bare = type("BareGame", (type(g),), {"__module__": lone.__name__, "state_class": None})()
        with pytest.raises(NotImplementedError, match=r"game 'grid-football' declares no BareGame.state_class"):
            bare.new_state()
        with pytest.raises(NotImplementedError, match=r"declares no gm_lone_game_module.actions.parse_action"):
            game.parse_action("heads")
        with pytest.raises(NotImplementedError, match=r"declares no gm_lone_game_module.board.status_line"):
            game.status(g.new_state(), "home")
    finally:
        del sys.modules[lone.__name__]
