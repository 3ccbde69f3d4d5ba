"""Actions: small immutable values with a text form and a JSON form.

Each game defines its action classes as frozen dataclasses deriving from
:class:`Action`.  ``str(action)`` is the canonical text form and the game's
``parse_action`` reads it back (``parse(str(a)) == a``); ``to_json`` /
``from_json`` give the JSON form, tagged with the action's ``type``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from gm.core.errors import bad_input


class Action:
    """Base of every game's actions (frozen dataclasses)."""

    __slots__ = ()
    type: ClassVar[str] = "action"

    def public_text(self) -> str:
        """What the other seats may read of this action once it is no longer a pending pick
        (default: the text form).  An action that carries a lasting secret - who secretly
        holds the ball - leaves it out here, for as long as ``GameState.secret_moves`` lists it."""
        return str(self)

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"type": ..., **fields}``."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            out[f.name] = getattr(self, f.name)
        return out


class OneWord(Action):
    """An action that is one word among a few (:attr:`words`), held in the one field its class (a frozen
    dataclass) declares: any other word is refused under :attr:`rule`, saying :attr:`mistake`; its text
    form is the word."""

    __slots__ = ()
    words: ClassVar[tuple[str, ...]] = ()
    mistake: ClassVar[str] = ""
    rule: ClassVar[str] = "CORE-ACTION"

    @property
    def word(self) -> Any:
        """The word (as given: a value that is no word is refused as it came)."""
        return getattr(self, dataclasses.fields(self)[0].name)  # type: ignore[arg-type]

    def __post_init__(self) -> None:
        if self.word not in self.words:
            raise bad_input(self.mistake, self.word, rule=self.rule, legal=self.words)

    def __str__(self) -> str:
        return str(self.word)


#: the two calls of a coin toss
COIN_SIDES = ("heads", "tails")


@dataclasses.dataclass(frozen=True, slots=True)
class CoinCall(OneWord):
    """Call the coin toss: heads or tails.  A game whose toss is called derives its own, naming its syntax
    rule (:attr:`rule`: what a call that is neither is refused under)."""

    call: str
    type: ClassVar[str] = "coin_call"
    words: ClassVar[tuple[str, ...]] = COIN_SIDES
    mistake: ClassVar[str] = "a coin toss call is heads or tails"


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One entry of a game's action log: which seat did what."""

    seat: str
    action: Action

    def to_json(self) -> list[str]:
        """Compact log form: ``[seat, action text]``."""
        return [self.seat, str(self.action)]
