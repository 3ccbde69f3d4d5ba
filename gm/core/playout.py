"""The one play-out loop: bots choose for seats until the game ends or a seat without a bot
must act.  ``gm sim``, the session's bot moves, benchmarks and bot tests all play through it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.bots import Bot
    from gm.core.events import Event
    from gm.core.state import GameState

#: a hook called after every move: seat, action, the events it caused
OnMove = Callable[[str, "Action", "list[Event]"], None]


def play_out(
    state: GameState[Any],
    bots: Mapping[str, Bot] | Callable[[str], Bot | None],
    *,
    max_moves: int = 100_000,
    on_move: OnMove | None = None,
    apply: Callable[[str, Action], list[Event]] | None = None,
) -> int:
    """Let the bots move until the game is over, a seat with no bot must act, or ``max_moves``
    moves were made; returns the number of moves made.  ``bots`` maps seats to bots, or is a
    function giving a seat's bot for its next decision (``None``: no bot for that seat).  When
    several seats act at once, they choose in the order of ``state.to_act()``.  ``apply`` makes a
    chosen move (default ``state.apply``; a recording makes it as the seat's tool call instead)."""
    pick = bots if callable(bots) else bots.get
    made = 0
    while made < max_moves and not state.is_terminal:
        for seat in state.to_act():
            bot = pick(seat)
            if bot is not None:
                break
        else:
            return made
        action = bot.choose(state, seat)
        events = state.apply(seat, action) if apply is None else apply(seat, action)
        made += 1
        if on_move is not None:
            on_move(seat, action, events)
    return made
