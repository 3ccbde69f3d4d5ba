"""The engine's fast draws take exactly what ``random.Random``'s own methods take: same results, and the
generator left in the same state."""

from __future__ import annotations

import random

from gm.games.brawl import draws


class _Other(random.Random):
    """A generator of another kind: the draws fall back to its own methods."""

    def random(self) -> float:  # (a subclass that overrides random() draws whole numbers from it)
        return 0.5


def test_shuffle_randint_and_below_match_the_library() -> None:
    for seed in range(60):
        mine, ref = random.Random(seed), random.Random(seed)
        for n in (*range(0, 14), 40, 300):
            a, b = list(range(n)), list(range(n))
            draws.shuffle(mine, a)
            ref.shuffle(b)
            assert a == b
        for lo, hi in ((0, 2), (1, 4), (2, 5), (1, 100), (3, 3), (0, 1000)):
            assert draws.randint(mine, lo, hi) == ref.randint(lo, hi)
        for n in (1, 2, 3, 7, 256, 257, 10**12 + 39):
            assert draws.below(mine, n) == ref.randrange(n)
        assert mine.getstate() == ref.getstate()


def test_another_generator_uses_its_own_methods() -> None:
    mine, ref = _Other(5), _Other(5)
    a, b = list(range(9)), list(range(9))
    draws.shuffle(mine, a)
    ref.shuffle(b)
    assert a == b == [6, 3, 5, 8, 1, 4, 2, 0, 7]  # not what a plain generator of seed 5 gives
    assert draws.randint(mine, 1, 6) == ref.randint(1, 6) == 5
    assert draws.below(mine, 10) == ref.randrange(10) == 6
