"""Where a brawl bot's randomness for a decision comes from: its seed and the decision's public place
in the game, never a generator earlier decisions advanced (the bots of :mod:`gm.games.brawl.bots` and
:mod:`gm.games.brawl.strategy` draw from here, so neither imports the other for it)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

_BITS = 256


def decision_key(state: Any, seat: str) -> str:
    """The decision ``seat`` faces, by its public place in the game: the seat, the series, the phase and
    the play (each seat makes one decision per series, phase and play)."""
    return f"{seat}:{state.round}:{state.phase}:{state.play_no}"


def _digest(seed: int, key: str, counter: int) -> int:
    return int.from_bytes(hashlib.blake2b(f"{seed}:{key}:{counter}".encode(), digest_size=_BITS // 8).digest())


def uniform_index(seed: int, key: str, n: int) -> int:
    """A whole number in ``0 .. n-1``, each equally likely, determined by ``seed`` and ``key`` (hash
    draws, the few at the top of the range that would bias the result rejected)."""
    if n <= 0:
        raise IndexError("nothing to choose from")
    limit = (1 << _BITS) - (1 << _BITS) % n
    counter = 0
    while True:
        v = _digest(seed, key, counter)
        if v < limit:
            return v % n
        counter += 1


def decision_rng(seed: int, state: Any, seat: str) -> random.Random:
    """A generator for one decision, seeded by the bot's seed and the decision (:func:`decision_key`)."""
    return random.Random(_digest(seed, decision_key(state, seat), 0))
