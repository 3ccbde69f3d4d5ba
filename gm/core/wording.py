"""Small words every game's text uses the same way (ordinals), worded once."""

from __future__ import annotations


def ordinal(n: int) -> str:
    """``n`` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 21st, 102nd (downs, plays, rows; the
    templates' ``ordinal`` filter)."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"
