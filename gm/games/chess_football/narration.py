"""What a Chess-Football narration can claim (:meth:`gm.core.game.Game.narration_claims`): squares
(``F45``), down and distance, dice rolls, tackles, passes complete or not, interceptions, first
downs and touchdowns."""

from __future__ import annotations

import re

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim, ordinal_pair, status_shows

SQUARE = re.compile(r"\b([A-P])([1-9][0-9]?)\b")
ROLL = re.compile(r"\brolls?\s+(?:a\s+)?([1-6])\b", re.I)


def _squares(facts: Facts) -> set[str]:
    return {m.group(0) for m in SQUARE.finditer(facts.corpus.upper())}


CLAIMS = Claims(
    values=(
        ValueClaim("square", SQUARE, known=_squares),
        ordinal_pair("down and distance", "down", "goal"),
        ValueClaim("roll", ROLL, value=lambda m: m.group(1), label="a roll of {value}",
                   message="the engine rolled no such number this turn"),
    ),
    events=(
        EventClaim("a touchdown", re.compile(r"\btouch\s?-?down\b", re.I), frozenset({"touchdown"})),
        EventClaim("a tackle", re.compile(r"\btackl(?:ed|es?|ing)\b", re.I), frozenset({"tackle", "whistle"})),
        EventClaim("an interception", re.compile(r"\bintercept(?:ed|ion|s)?\b", re.I), frozenset({"interception"})),
        EventClaim("a complete pass", re.compile(r"\b(?<!in)complete(?:d)?\s+pass\b|\bpass\s+(?:is\s+)?complete\b", re.I),
                   frozenset({"complete"})),
        EventClaim("an incomplete pass", re.compile(r"\bincomplete\b", re.I), frozenset({"incomplete"})),
        EventClaim("a first down", re.compile(r"\bfirst\s+down\b(?!\s*(?:&|and)\s*(?:[0-9]|goal))", re.I),
                   frozenset({"first_down"}), unless=status_shows("1st &")),
    ),
)
