"""The seeded generator's draws the engine makes most (shuffles, rolls, a uniform index), taken the way
:class:`random.Random` takes them, without its layers of calls.

``random.Random`` draws a whole number below ``n`` as ``getrandbits(n.bit_length())``, drawn again while
it is ``n`` or more; ``randint(a, b)`` is ``a`` plus such a number below ``b - a + 1``; ``shuffle`` swaps
item ``i`` (last to second) with the one at such a number below ``i + 1``.  These functions make exactly
those calls, so the generator is left exactly where the library's own methods leave it and the results
are the same (``tests/brawl/test_br_draws.py`` compares them).  For any other generator than a plain
``random.Random`` (a subclass may draw otherwise) they call its own methods.
"""

from __future__ import annotations

from random import Random
from typing import Any

#: ``n.bit_length()`` for the small ``n`` a shuffle or a roll uses
_BITS = tuple(n.bit_length() for n in range(257))


def below(rng: Random, n: int) -> int:
    """``rng.randrange(n)``."""
    if n <= 0 or type(rng) is not Random:  # (nothing to draw from: the library's error)
        return rng.randrange(n)
    bits = rng.getrandbits
    k = _BITS[n] if n < 257 else n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r


def randint(rng: Random, lo: int, hi: int) -> int:
    """``rng.randint(lo, hi)``."""
    if hi < lo or type(rng) is not Random:
        return rng.randint(lo, hi)
    n = hi - lo + 1
    bits = rng.getrandbits
    k = _BITS[n] if n < 257 else n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return lo + r


def shuffle(rng: Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``."""
    if type(rng) is not Random:
        rng.shuffle(x)
        return
    bits = rng.getrandbits
    table = _BITS
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = table[n] if n < 257 else n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]
