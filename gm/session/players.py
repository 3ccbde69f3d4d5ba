"""Who plays each seat of a new game: the one rule every front end uses (``gm new``, ``gm play``,
``gm sim``, ``gm mcp``, ``gm serve``'s API and MCP tools).

The creator's seat (default the first) is a human; ``players`` (seat -> spec) names any seat's
player; every other seat gets ``opponent``.  A player is ``human``, ``bot`` (the game's default
strategy), ``bot:NAME`` or, for ``opponent``, a bare strategy name (``random`` means
``bot:random``).  Bad input is a :class:`~gm.core.errors.GameError` naming what is legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gm.core.errors import GameError

if TYPE_CHECKING:
    from gm.core.game import Game

SEAT_RULE = "CORE-SEAT"
PLAYER_RULE = "CORE-PLAYER"


def normalise_player(game: Game, spec: str) -> str:
    """``human``, ``bot`` (the default strategy) or ``bot:NAME``; raises :class:`GameError`."""
    s = str(spec).strip().lower()
    if s == "human":
        return s
    if s == "bot" or s.startswith("bot:"):
        from gm.core.bots import spec_text, split_spec

        bots = game.strategies()
        name, params = split_spec(s)
        name = name or ("default" if "default" in bots else "random")
        if name not in bots:
            raise GameError(
                f"unknown bot strategy for {game.id}", rule="CORE-BOT", input=spec, legal=[f"bot:{b}" for b in sorted(bots)]
            )
        if params:
            game.make_bot(s)  # (its parameters checked: a bad one is a GameError naming the right form)
        return spec_text(name, params)
    raise GameError("a player is 'human' or 'bot:STRATEGY'", rule=PLAYER_RULE, input=spec, legal=["human", "bot"])


def opponent_player(game: Game, opponent: str | None) -> str:
    """The normalised player of the other seats: ``human``, ``bot``, ``bot:NAME`` or a bare strategy
    name; empty or ``None``: the default bot."""
    spec = (opponent or "bot").strip().lower()
    if spec != "human" and spec != "bot" and not spec.startswith("bot:"):
        spec = f"bot:{spec}"
    return normalise_player(game, spec)


def check_seat(game: Game, seat: str | None) -> str:
    """``seat`` (trimmed, lower case; default the first) if ``game`` has it, else a :class:`GameError`."""
    me = (seat or game.seats[0]).strip().lower()
    if me not in game.seats:
        raise GameError(f"{game.id} has no such seat", rule=SEAT_RULE, input=str(seat)[:50], legal=list(game.seats))
    return me


def seat_players(
    game: Game,
    seat: str | None = None,
    *,
    opponent: str | None = None,
    players: Mapping[str, str] | None = None,
    creator: bool = True,
) -> dict[str, str]:
    """Seat -> normalised player for a new game of ``game``: ``seat`` (default the first) is
    ``human``, a seat named in ``players`` gets its player, every other seat ``opponent`` (default
    the default bot).  ``creator=False``: no seat is the creator's (a bots-only game)."""
    me = check_seat(game, seat) if creator else None
    given = {str(k).strip().lower(): str(v) for k, v in dict(players or {}).items()}
    unknown = sorted(set(given) - set(game.seats))
    if unknown:
        raise GameError(f"{game.id} has no such seat", rule=SEAT_RULE, input=unknown[0][:50], legal=list(game.seats))
    other = opponent_player(game, opponent)
    return {s: normalise_player(game, given[s]) if s in given else "human" if s == me else other for s in game.seats}
