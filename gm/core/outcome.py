"""Typed game outcomes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winning seat (``None`` for a draw), why, and the score."""

    winner: str | None
    reason: str
    rule: str
    score: dict[str, int] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """``SEAT wins`` or ``draw``: how a move log and a claim of the result word the end."""
        return f"{self.winner} wins" if self.winner else "draw"

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def result(self, seat: str) -> str:
        """``win``, ``loss`` or ``draw`` from one seat's point of view."""
        if self.winner is None:
            return "draw"
        return "win" if self.winner == seat else "loss"

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "rule": self.rule, "score": dict(self.score)}

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"{self.winner} wins"
        return f"{who} ({self.reason})"
