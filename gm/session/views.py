"""What a seat may read of a session's log and seed: the session's view collaborator.

Another seat's pick that is still locked reads ``locked``, a pick the engine voided reads ``voided``
(for good), a move that still carries a secret (``GameState.secret_moves``) reads in its public form
(``Action.public_text``) to everyone but its mover; a hidden seed shows only its commitment until the
game is over.  These functions read the game and the secret book and change nothing;
:func:`session_view` puts the whole game together as a seat may see it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError
from gm.core.game import ruleset_hash
from gm.session.commit import SecretBook, SecretStatus, SeedSecret
from gm.session.players import SEAT_RULE

if TYPE_CHECKING:
    from gm.core.state import GameState
    from gm.session.session import Session

_LOCKED, _VOIDED = SecretStatus.LOCKED.value, SecretStatus.VOIDED.value


def log_as_seen(state: GameState[Any], book: SecretBook, seat: str | None) -> list[list[str]]:
    """The action log as ``seat`` may read it (``None``: a spectator): ``[seat, text]`` pairs."""
    hidden, voided = book.hidden_from(seat), book.voided_for(seat)
    secret = state.secret_moves()
    return [
        [
            m.seat,
            _LOCKED if i in hidden
            else _VOIDED if i in voided
            else m.action.public_text() if i in secret and m.seat != seat
            else str(m.action),
        ]
        for i, m in enumerate(state.log)
    ]


def public_move(state: GameState[Any], book: SecretBook, i: int) -> str:
    """Log entry ``i`` as a spectator reads it (see :func:`log_as_seen`)."""
    m = state.log[i]
    if i in book.hidden_from(None):
        return _LOCKED
    if i in book.voided_for(None):
        return _VOIDED
    return m.action.public_text() if i in state.secret_moves() else str(m.action)


def seed_info(secret: SeedSecret, over: bool) -> dict[str, Any]:
    """What the players may know of the seed: practice or hidden, its commitment, and the seed itself
    when it is public (a practice game, or ``over``: the game is over)."""
    out: dict[str, Any] = {"practice": secret.practice, "commitment": None if secret.practice else secret.commitment}
    if secret.practice:
        out["seed"] = secret.seed
    elif over:
        out.update(secret.reveal())
    else:
        out["seed"] = None
    return out


def session_view(s: Session, seat: str | None) -> dict[str, Any]:
    """What ``seat`` may see of session ``s`` (see :meth:`gm.session.Session.view`)."""
    if seat is not None:
        if seat not in s.game.seats:
            raise GameError("unknown seat", rule=SEAT_RULE, input=seat, legal=s.game.seats)
        if s.players.get(seat) != "human":
            raise GameError(f"{seat} is played by {s.players[seat]}; its view is private", rule=SEAT_RULE, input=seat)
    st = s.state
    return {
        "session": s.id,
        "game": s.game.id,
        "seat": seat,
        "players": dict(s.players),
        "seed": s.public_seed,
        "practice": s.practice,
        "seed_commitment": None if s.practice else s.secret.commitment,
        "rules_hash": ruleset_hash(st.rules),
        "status": s.game.status(st, seat),
        "state": st.view(seat),
        "expected": s.expected(seat),
        "commitments": s.commitments(),
        "reveals": s.reveals(),
        "log": s.log(seat),
        "outcome": st.outcome.to_json() if st.outcome else None,
    }
