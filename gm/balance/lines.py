"""Simple scripted lines: seats that play without thinking, to find a dominant line.

A line is the same kind of move every turn - ``line:KIND`` for every kind of move of a game
(``Action.type``): whenever a move of that kind is legal, the first one in the game's own order, else
what the default bot would do - or a line the game names (``Game.lines()``, e.g. Quarter Back's
``triple-walk``).  A line that beats the default bot more often than a designer allows is a sign of a
dominant line: a ruleset whose best play needs no thought (``gm balance`` flags it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.bots import Bot
    from gm.core.game import Game
    from gm.core.state import GameState


def default_spec(game: Game) -> str:
    """The default bot of ``game`` (its ``random`` one when it has none)."""
    return "bot:default" if "default" in game.bots() else "bot:random"


class KindLine:
    """The same kind of move every turn: whenever a move of ``kind`` is legal, the first such move in the
    game's order; otherwise the fallback bot's move."""

    def __init__(self, kind: str, fallback: Bot) -> None:
        self.kind = kind
        self.name = f"line:{kind}"
        self.fallback = fallback

    def choose(self, state: GameState[Any], seat: str) -> Action:
        if self.kind in state.action_kinds(seat, {self.kind}):
            for action in state.legal_actions(seat):
                if action.type == self.kind:
                    return action
        return self.fallback.choose(state, seat)


def line_names(game: Game) -> list[str]:
    """Every line of ``game``: the lines it names, then one per kind of move (a kind a named line shadows
    is left out)."""
    named = list(game.lines())
    return named + [k for k in game.action_types() if k not in named]


def make_line(game: Game, spec: str, seed: int) -> Bot:
    """The bot of a line spec (``line:NAME``), seeded; an unknown line is a :class:`GameError` naming them."""
    name = spec.removeprefix("line:")
    declared = game.lines()
    if name in declared:
        bot: Bot = declared[name](seed=seed)
        return bot
    if name in game.action_types():
        return KindLine(name, game.make_bot(default_spec(game), seed=seed))
    raise GameError(f"no such line in {game.id}", rule="CORE-BOT", input=spec, legal=[f"line:{n}" for n in line_names(game)])


def describe(game: Game, name: str) -> str:
    """How a line reads in a report: ``always move``, or the name the game gives it."""
    if name in game.lines():
        return name
    return f"always {name}"
