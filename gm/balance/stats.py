"""Small statistics for balance studies: the Wilson interval of a rate, and a length summary."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval (95% by default) of ``successes`` out of ``n`` - sound for rates near 0 or 1
    and for small ``n``, where the normal approximation is not."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def rate(successes: int, n: int) -> dict[str, Any]:
    """A rate with its 95% interval: ``{"k", "n", "rate", "low", "high"}``."""
    low, high = wilson(successes, n)
    return {"k": successes, "n": n, "rate": successes / n if n else 0.0, "low": low, "high": high}


def spread(values: Sequence[float]) -> dict[str, float]:
    """Median, quartiles, minimum and maximum of ``values`` (all 0 when there are none)."""
    if not values:
        return {"median": 0.0, "q1": 0.0, "q3": 0.0, "min": 0.0, "max": 0.0}
    data = sorted(values)
    if len(data) >= 2:
        q1, _, q3 = statistics.quantiles(data, n=4, method="inclusive")
    else:
        q1 = q3 = float(data[0])
    return {"median": float(statistics.median(data)), "q1": float(q1), "q3": float(q3), "min": float(data[0]),
            "max": float(data[-1])}
