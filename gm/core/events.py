"""Events: what an accepted action made happen, as data and in plain words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    ``kind`` names the event (``touchdown``, ``square_blocked`` ...), ``rule`` the
    rule id that produced it, ``data`` its facts and ``template`` a format string
    over ``data`` that gives the plain-words ``text`` (built lazily: bots playing
    thousands of games never pay for it).
    """

    kind: str
    rule: str
    template: str
    data: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The event in plain words."""
        return self.template.format(**self.data)

    def to_json(self) -> dict[str, Any]:
        """JSON form: kind, rule, text and the data fields."""
        return {"kind": self.kind, "rule": self.rule, "text": self.text, **self.data}

    def __str__(self) -> str:
        return self.text
