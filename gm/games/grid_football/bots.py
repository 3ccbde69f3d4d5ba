"""Grid Football bot strategies (placeholder registry; strategies are filled in below)."""

from __future__ import annotations

from collections.abc import Callable

from gm.core.bots import Bot, RandomBot

BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
