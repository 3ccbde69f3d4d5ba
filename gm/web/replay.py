"""The transcript viewer's data: the recorded games of the corpus (``transcripts/``), replayed step by
step through the engine with the board drawn after each move."""

from __future__ import annotations

from typing import Any


def corpus() -> list[dict[str, Any]]:
    return []


def steps(game: str, name: str) -> dict[str, Any]:
    return {"ok": False, "error": {"status": 404, "message": "no such transcript"}}
