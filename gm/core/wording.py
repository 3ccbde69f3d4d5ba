"""Small words every game's text uses the same way (ordinals, seats in a pattern), worded once."""

from __future__ import annotations

import re
from collections.abc import Iterable


def ordinal(n: int) -> str:
    """``n`` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 21st, 102nd (downs, plays, rows; the
    templates' ``ordinal`` filter)."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def seat_pattern(seats: Iterable[str]) -> str:
    """A regex alternative matching any of ``seats`` (the longest first, so no seat stops at another's prefix)."""
    return "|".join(re.escape(s) for s in sorted(seats, key=len, reverse=True))
