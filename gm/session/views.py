"""What a seat may read of a session's log and seed: the session's view collaborator.

Another seat's pick that is still locked reads ``locked``, a pick the engine voided reads ``voided``
(for good), a move that still carries a secret (``GameState.secret_moves``) reads in its public form
(``Action.public_text``) to everyone but its mover; a hidden seed shows only its commitment until the
game is over.  These functions read the game and the secret book and change nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.session.commit import SecretBook, SecretStatus, SeedSecret

if TYPE_CHECKING:
    from gm.core.state import GameState

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
