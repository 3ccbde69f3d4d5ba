"""Taking back a move: only a seat's own locked pick, the last move made, may be taken back.

The session's undo collaborator.  A pick still locked (its round incomplete) has told nobody
anything, so its seat may choose again; anything revealed, or another seat's pick, would leak what
the other side chose.  A take-back is stored as a record of its own (``{"retract": seat}``), so
opening the session replays it (:func:`gm.session.lifecycle.replay_record`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.core.errors import StateError
from gm.session.store import SESSION_RULE

if TYPE_CHECKING:
    from gm.session.session import Session


class Undo:
    """Takes back a human seat's locked pick in one session."""

    __slots__ = ("session",)

    def __init__(self, session: Session) -> None:
        self.session = session

    def can_retract(self, seat: str) -> str | None:
        """``None`` if ``seat`` may take back its last move, else why not.  Only the seat's own pick,
        still locked (its round incomplete) and the last move made, may be taken back: anything
        revealed, or any other seat's pick, would leak information."""
        s = self.session
        log = s.state.log
        if s.players.get(seat) != "human":
            return f"{seat} is not a human seat"
        own = s.book.own_open(seat)
        if own is None:
            return f"{seat} has no locked pick to take back"
        if not log or own.index != len(log) - 1:
            return "only the last move made can be taken back, and it is not yours"
        return None

    def retract(self, seat: str) -> str:
        """Take back ``seat``'s locked, unrevealed pick (see :meth:`can_retract`), stored as a record;
        returns a message for that seat (it names only that seat's own pick)."""
        why = self.can_retract(seat)
        if why is not None:
            return f"Cannot undo: {why}."
        self.session.ledger.append([{"retract": seat}])
        taken = self.take_back(seat)
        return f"Taken back: {taken}. {seat}, choose again."

    def take_back(self, seat: str) -> str:
        """Take back ``seat``'s pick in the live game (the state replayed without it, the secret book
        told), storing nothing; returns the move taken back.  Raises :class:`StateError` when it may not."""
        why = self.can_retract(seat)
        if why is not None:
            raise StateError(f"cannot take back {seat}'s move: {why}", rule=SESSION_RULE)
        s = self.session
        s.pending.settle()
        st = s.state
        moves = st.log[:-1]
        taken = str(st.log[-1].action)
        fresh = s.game.new_state(st.rules, st.seed, s.chance)  # (as opening the session does)
        for m in moves:
            fresh.apply(m.seat, m.action)
        s.state = fresh
        s.book.retract(seat, len(moves))
        return taken
