"""Small words every game's text uses the same way (counts and ordinals), worded once."""

from __future__ import annotations

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, and ``Nth`` for any other number (as every game words its downs and plays)."""
    return _ORDINALS.get(n) or f"{n}th"
