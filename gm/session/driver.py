"""The bots of a session: a fresh, seeded bot for every decision.

A bot's choice depends only on its strategy, its seed and what its seat may see, so a game plays the
same whether it runs in one process from start to end, is resumed, or is served move by move by
different server processes.  Each decision's seed is derived from the session's bot seed, the seat
and the move number.  Injected bots (a transcript replay serving recorded moves) are used as given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.session.commit import derive_int

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.bots import Bot
    from gm.core.game import Game
    from gm.core.state import GameState


class BotDriver:
    """Chooses the bot seats' moves of one session."""

    def __init__(self, game: Game, players: Mapping[str, str], bot_seed: int, injected: Mapping[str, Bot]) -> None:
        self.game = game
        self.players = players
        self.bot_seed = bot_seed
        self.injected = dict(injected)

    def bot(self, state: GameState[Any], seat: str) -> Bot:
        """The bot that makes ``seat``'s next decision."""
        given = self.injected.get(seat)
        if given is not None:
            return given
        seed = derive_int(self.bot_seed, seat, len(state.log))
        return self.game.make_bot(self.players[seat], seed=seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        return self.bot(state, seat).choose(state, seat)
