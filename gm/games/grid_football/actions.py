"""Grid Football actions: one small frozen value per kind of decision.

Text forms (``str(action)``) read as the quick-start guide writes them and parse
back exactly: ``heads``, ``kick``, ``left yellow``, ``number 7``, ``punt``,
``play 1 red 2 right before``, ``play 3 black``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar, Literal

from gm.core import actions
from gm.core.actions import Action
from gm.core.errors import InvalidActionError, bad_input
from gm.games.grid_football.rules import KICK_COLOURS, PLAY_COLOURS, POSITIONS

Side = Literal["left", "right"]
Timing = Literal["before", "after"]


SYNTAX = "GF-SYNTAX"  # the rule of every "not a Grid Football action" error


@dataclass(frozen=True, slots=True)
class CoinCall(actions.CoinCall):
    """Call the coin toss: heads or tails."""

    rule: ClassVar[str] = SYNTAX


# alike on purpose: a one-word action declares only its words, message and rule (gm.core.actions.OneWord
# checks and writes it); these are this game's own
@dataclass(frozen=True, slots=True)
class KickChoice(actions.OneWord):
    """Choose to kick or to receive (coin toss winner; second half: the toss loser)."""

    choice: str
    type: ClassVar[str] = "kick_choice"
    words: ClassVar[tuple[str, ...]] = ("kick", "receive")
    mistake: ClassVar[str] = "choose kick or receive"
    rule: ClassVar[str] = SYNTAX


# alike on purpose: every game's actions are frozen dataclasses of this shape (fields, a type tag, checks in
# __post_init__, a text form: gm.core.actions.Action), each holding its own game's move in its own words
@dataclass(frozen=True, slots=True)
class KickPick(Action):
    """Kickoff or punt pick: a position (left/center/right) and a colour (yellow/red/green)."""

    position: str
    colour: str
    type: ClassVar[str] = "kick_pick"

    def __post_init__(self) -> None:
        if self.position not in POSITIONS:
            raise bad_input("kick position is left, center or right", self.position, rule=SYNTAX, legal=POSITIONS)
        if self.colour not in KICK_COLOURS:
            raise bad_input("kick colour is yellow, red or green", self.colour, rule=SYNTAX, legal=KICK_COLOURS)

    def __str__(self) -> str:
        return f"{self.position} {self.colour}"


@dataclass(frozen=True, slots=True)
class NumberPick(Action):
    """A secret number for a number check (1..10 by default)."""

    number: int
    type: ClassVar[str] = "number_pick"

    def __post_init__(self) -> None:
        if isinstance(self.number, bool) or not isinstance(self.number, int):
            raise bad_input("a number pick is a whole number", self.number, rule=SYNTAX, legal=("number 7",))

    def __str__(self) -> str:
        return f"number {self.number}"


@dataclass(frozen=True, slots=True)
class Punt(Action):
    """Punt instead of calling a play (offense, on a punting down)."""

    type: ClassVar[str] = "punt"

    def __str__(self) -> str:
        return "punt"


@dataclass(frozen=True, slots=True, eq=False)
class PlayCall(Action):
    """A play call: play number, colour (red pass / black run) and, for the offense,
    the lateral intent: how many columns, left or right, before or after the forward move."""

    play: int
    colour: str
    lateral: int = 0
    direction: str | None = None
    timing: str = "before"
    _text: str = field(default="", init=False, repr=False, compare=False)  # the text form, made once
    type: ClassVar[str] = "play_call"

    def __post_init__(self) -> None:
        if isinstance(self.play, bool) or not isinstance(self.play, int):
            raise bad_input("the play is a number", self.play, rule=SYNTAX, legal=("play 1 red",))
        if self.colour not in PLAY_COLOURS:
            raise bad_input("play colour is red (pass) or black (run)", self.colour, rule=SYNTAX, legal=PLAY_COLOURS)
        if isinstance(self.lateral, bool) or not isinstance(self.lateral, int) or not 0 <= self.lateral <= 10:
            raise bad_input("lateral is a number of columns from 0 to 10", self.lateral, rule=SYNTAX, legal=("0..10",))
        if self.timing not in ("before", "after"):
            raise bad_input("lateral timing is before or after", self.timing, rule=SYNTAX, legal=("before", "after"))
        if self.lateral and self.direction not in ("left", "right"):
            raise bad_input("lateral movement needs a direction: left or right", self.direction, rule=SYNTAX, legal=("left", "right"))
        if not self.lateral:
            object.__setattr__(self, "direction", None)
            if self.colour == "black":  # a run with no lateral moves the same either way
                object.__setattr__(self, "timing", "before")
        text = f"play {self.play} {self.colour}"
        if self.lateral:
            text += f" {self.lateral} {self.direction}"
        if self.lateral or self.timing == "after":
            text += f" {self.timing}"
        object.__setattr__(self, "_text", text)

    # equality and hash by the text form, which is canonical (one text per call): as the field-wise
    # comparison, but faster (a string's hash is cached; legality is a set lookup)
    def __eq__(self, other: object) -> bool:
        return type(other) is PlayCall and other._text == self._text

    def __hash__(self) -> int:
        return hash(self._text)

    @property
    def has_intent(self) -> bool:
        """Whether the call states movement intent (only the offense may)."""
        return bool(self.lateral) or self.timing == "after"

    def __str__(self) -> str:
        return self._text

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "play": self.play,
            "colour": self.colour,
            "lateral": self.lateral,
            "direction": self.direction,
            "timing": self.timing,
        }


ACTION_TYPES: dict[str, type[Action]] = {
    c.type: c for c in (CoinCall, KickChoice, KickPick, NumberPick, Punt, PlayCall)
}

_WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_COLOUR_WORDS = {"red": "red", "pass": "red", "black": "black", "run": "black"}
_SIDE_WORDS = {"left": "left", "l": "left", "right": "right", "r": "right"}

FORMS = (
    "heads",
    "tails",
    "kick",
    "receive",
    "left yellow",
    "number 7",
    "punt",
    "play 1 red 2 right before",
    "play 3 black",
)


_NUMBER = re.compile(r"[0-9]{1,6}")  # ASCII digits only; longer numbers are never meaningful
_FILLER = frozenset(("with", "and", "the", "a", "lateral", "columns", "column", "steps"))


def _is_num(word: str) -> bool:
    return _NUMBER.fullmatch(word) is not None


def _tokens(text: str) -> list[str]:
    text = text.lower().replace(",", " ").replace(":", " ").replace("colour", " ").replace("color", " ")
    text = re.sub(r"\b([0-9]+)([lr])\b", r"\1 \2", text)  # "2r" -> "2 r"
    text = re.sub(r"\bp([0-9])\b", r"play \1", text)  # "p3" -> "play 3"
    return [str(_WORD_NUMBERS.get(t, t)) for t in text.split()]


def parse_action(text: str) -> Action:
    """Parse the text form of any Grid Football action (see ``FORMS``).

    Raises :class:`InvalidActionError` (rule ``GF-SYNTAX``, the whole text quoted) for anything
    else, never another error.
    """
    try:
        if isinstance(text, str) and len(text) <= 64:
            return _parse_cached(text)  # replaying a log parses the same few texts over and over
        return _parse(text)
    except InvalidActionError as exc:
        if exc.input == str(text):
            raise
        raise bad_input(exc.reason, text, rule=SYNTAX, legal=FORMS) from None  # a field's own check: quote the whole text


@lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Action:
    return _parse(text)  # actions are immutable values: sharing them is safe


def _parse(text: str) -> Action:
    if not isinstance(text, str) or not text.strip():
        raise bad_input("empty action", text, rule=SYNTAX, legal=FORMS)
    words = [t for t in _tokens(text) if t not in _FILLER]
    if len(words) == 1 and words[0] in ("heads", "tails"):
        return CoinCall(words[0])
    if len(words) == 1 and words[0] in ("kick", "receive"):
        return KickChoice(words[0])
    if words == ["punt"]:
        return Punt()
    if (words and words[0] in ("number", "pick", "#")) or (len(words) == 1 and _is_num(words[0])):
        nums = [w for w in words if _is_num(w)]
        if len(nums) != 1 or len(words) > 2:
            raise bad_input("a number pick reads like 'number 7'", text, rule=SYNTAX, legal=FORMS)
        return NumberPick(int(nums[0]))
    if len(words) == 2 and words[0] in POSITIONS and words[1] in KICK_COLOURS:
        return KickPick(words[0], words[1])
    if len(words) == 2 and words[1] in POSITIONS and words[0] in KICK_COLOURS:
        return KickPick(words[1], words[0])
    if words and words[0] == "play":
        return _parse_play(words[1:], text)
    if len(words) > 1 and _is_num(words[0]) and words[1] in _COLOUR_WORDS:
        return _parse_play(words, text)
    raise bad_input("not a Grid Football action", text, rule=SYNTAX, legal=FORMS)


def _parse_play(words: list[str], text: str) -> PlayCall:
    if not words or not _is_num(words[0]):
        raise bad_input("a play call starts with the play number, e.g. 'play 1 red'", text, rule=SYNTAX, legal=FORMS)
    play = int(words[0])
    rest = words[1:]
    colour: str | None = None
    lateral: int | None = None
    direction: str | None = None
    timing: str | None = None
    i = 0
    while i < len(rest):
        w = rest[i]
        if w in _COLOUR_WORDS:
            if colour is not None:
                raise bad_input("a play call has one colour: red (pass) or black (run)", text, rule=SYNTAX, legal=FORMS)
            colour = _COLOUR_WORDS[w]
        elif _is_num(w):
            if lateral is not None:
                raise bad_input("a play call has one lateral distance, e.g. '2 right'", text, rule=SYNTAX, legal=FORMS)
            lateral = int(w)
            if i + 1 < len(rest) and rest[i + 1] in _SIDE_WORDS:
                if direction is not None:
                    raise bad_input("a play call has one lateral direction: left or right", text, rule=SYNTAX, legal=FORMS)
                direction = _SIDE_WORDS[rest[i + 1]]
                i += 1
        elif w in ("left", "right"):
            if direction is not None:
                raise bad_input("a play call has one lateral direction: left or right", text, rule=SYNTAX, legal=FORMS)
            direction = w
        elif w in ("before", "after"):
            if timing is not None:
                raise bad_input("a play call has one lateral timing: before or after", text, rule=SYNTAX, legal=FORMS)
            timing = w
        else:
            raise bad_input(f"cannot read {w!r} in a play call", text, rule=SYNTAX, legal=FORMS)
        i += 1
    if colour is None:
        raise bad_input("a play call needs a colour: red (pass) or black (run)", text, rule=SYNTAX, legal=FORMS)
    if direction is not None and lateral is None:
        raise bad_input(f"say how many columns {direction}, e.g. 'play {play} {colour} 2 {direction}'", text, rule=SYNTAX, legal=FORMS)
    return PlayCall(play, colour, lateral or 0, direction, timing or "before")
