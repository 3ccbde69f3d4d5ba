"""The bots of a session: a fresh, seeded bot for every decision.

A bot's choice depends only on its strategy, its seed and what its seat may see, so a game plays the
same whether it runs in one process from start to end, is resumed, or is served move by move by
different server processes.  Each decision's seed is derived from the session's bot seed, the seat
and the move number.  Injected bots (a transcript replay serving recorded moves) are used as given.

A bot choosing in the same round as a human commits to its choice before the human picks
(:meth:`BotDriver.move`): the nonce is derived from the session's nonce seed (a practice game:
reproducible) or drawn at random.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.core.errors import StateError
from gm.session import lifecycle
from gm.session.commit import commitment, derive, derive_int

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.bots import Bot
    from gm.core.game import Game
    from gm.core.state import GameState
    from gm.session.session import Session
    from gm.transcript.recorder import Recorder

#: the most bot moves one advance makes (a guard against a game that never ends): all of a game
MAX_BOT_MOVES = 100_000


class BotDriver:
    """Chooses the bot seats' moves of one session."""

    def __init__(
        self, game: Game, players: Mapping[str, str], bot_seed: int, injected: Mapping[str, Bot], nonce_seed: int | None = None
    ) -> None:
        self.game = game
        self.players = players
        self.bot_seed = bot_seed
        self.injected = dict(injected)
        self.nonce_seed = nonce_seed
        #: whether any seat is a bot's (worked out once: the players of a session do not change)
        self.has_bots = any(p.startswith("bot:") for p in players.values())

    def is_bot(self, seat: str) -> bool:
        return self.players.get(seat, "").startswith("bot:")

    def owes_move(self, state: GameState[Any]) -> bool:
        """Whether a bot must move before any human can."""
        return self.has_bots and not state.is_terminal and any(self.is_bot(s) for s in state.to_act())

    def next_mover(self, state: GameState[Any]) -> str | None:
        """The bot seat that moves next (the first acting one), or ``None``."""
        return next((s for s in state.to_act() if self.is_bot(s)), None)

    def bot(self, state: GameState[Any], seat: str) -> Bot:
        """The bot that makes ``seat``'s next decision."""
        given = self.injected.get(seat)
        if given is not None:
            return given
        seed = derive_int(self.bot_seed, seat, len(state.log))
        return self.game.make_bot(self.players[seat], seed=seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        return self.bot(state, seat).choose(state, seat)

    def nonce(self, state: GameState[Any], seat: str) -> str:
        """The nonce of ``seat``'s commitment at this move."""
        if self.nonce_seed is None:
            return secrets.token_hex(16)
        return derive(self.nonce_seed, "nonce", seat, len(state.log))[:32]

    def move(self, state: GameState[Any], seat: str) -> tuple[Action, str | None, str | None]:
        """``seat``'s next move, with its nonce and commitment when a human chooses in the same round
        (else ``None, None``)."""
        action = self.choose(state, seat)
        if not any(s != seat and self.players.get(s) == "human" for s in state.to_act()):
            return action, None, None
        nonce = self.nonce(state, seat)
        return action, nonce, commitment(str(action), nonce)


def play_owed(s: Session, limit: int | None = None) -> list[dict[str, Any]]:
    """Let the bots of ``s`` make every move they owe now, each applied and stored through the
    session, or at most ``limit``; returns the events as JSON (see :meth:`gm.session.Session.advance_bots`).
    A bot that fails, or a move that cannot be stored, stops the bots with ``s.bot_error`` set."""
    out: list[dict[str, Any]] = []
    s.bot_error = None
    driver = s.driver
    if not driver.has_bots:
        return out
    for _ in range(MAX_BOT_MOVES if limit is None else limit):
        st = s.state
        if st.is_terminal or (limit is None and s.pause_when_out and s.humans_out()):
            break
        seat = driver.next_mover(st)
        if seat is None:
            break
        try:
            action, nonce, digest = driver.move(st, seat)  # (a bot choosing alongside a human commits first)
            events, record = s._apply(seat, action, nonce=nonce, digest=digest)
        except Exception as exc:  # a broken bot must not take the session down
            s.bot_error = f"bot {s.players[seat]} ({seat}) failed: {exc}"
            break
        try:
            s.ledger.append([record])
        except (OSError, StateError) as exc:
            lifecycle.reload(s)
            s.bot_error = f"could not save the move of {s.players[seat]} ({seat}): {exc}"
            break
        out.extend(e.to_json() for e in events)
        if s.on_bot_move is not None:
            s.on_bot_move(seat)
    return out


def advance(s: Session, limit: int | None = None) -> list[dict[str, Any]]:
    """Let the bots of ``s`` make the moves they owe now in a write of their own, recorded together
    (see :meth:`gm.session.Session.advance`); returns their events as JSON."""
    return lifecycle.held(s, play_owed, _recorded, s, limit)


def _recorded(rec: Recorder, s: Session, limit: int | None) -> list[dict[str, Any]]:
    with rec.batch():
        events = play_owed(s, limit)
        s.recording.progress()
    return events
