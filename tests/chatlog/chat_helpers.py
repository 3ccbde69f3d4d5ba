"""Helpers of the chatbot-log tests: editing a log, playing a game in gm for a round trip."""

from __future__ import annotations

from typing import Any

from gm.chatlog.audit import audit
from gm.core.chance import MT19937
from gm.core.game import Game
from gm.core.state import GameState
from gm.core.token import settled
from gm.export import render_doc


def edit(text: str, *pairs: tuple[str, str]) -> str:
    """``text`` with each ``old`` replaced by ``new`` (every ``old`` must be there)."""
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


def moves(state: GameState[Any]) -> list[str]:
    return [f"{m.seat}: {m.action}" for m in state.log]


def played(game: Game, seed: int, bot: str, bot_seed: int, limit: int, rules: Any = None) -> GameState[Any]:
    """A game between two bots, ``limit`` moves at most (the tests' seeds were chosen under mt19937)."""
    state = game.new_state(rules, seed, MT19937)
    bots = {s: game.make_bot(bot, seed=bot_seed + i) for i, s in enumerate(game.seats)}
    while state.to_act() and len(state.log) < limit:
        seat = state.to_act()[-1]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


def assert_round_trip(game: Game, state: GameState[Any], seed: int | None = None) -> None:
    """The session document of ``state``, imported, gives the same game (no finding on the way)."""
    a = audit(game, render_doc(game, "session", None, state), seed=seed, chance=state.chance_setup())
    public = settled(state)[0]
    assert (a.divergences, a.illegal, a.unread, a.left_out) == ([], None, [], [])
    assert moves(a.state) == moves(public)
    assert a.state.snapshot() == public.snapshot()
