"""What a Chess-Football narration can claim (:meth:`gm.core.game.Game.narration_claims`): the square
a piece moves, runs or is tackled on (checked against this turn's events, the piece named in the
sentence), any other square named (``F45``), down and distance, dice rolls, tackles, passes complete
or not, interceptions, first downs (a new series only: a move inside a down is none) and
touchdowns, and the words saying a plan was submitted or a piece moved."""

from __future__ import annotations

import re

from gm.core.narration import ANY_EVENT, Claims, EventClaim, Facts, ValueClaim, new_series, ordinal_pair

# alike on purpose: every game's narration claims read its own notation with patterns of this shape (its
# squares, its dice, what its pieces are said to reach)
SQUARE = re.compile(r"\b([A-P])([1-9][0-9]?)\b")
ROLL = re.compile(r"\brolls?\s+(?:a\s+)?([1-6])\b", re.I)
#: a square a piece is said to reach: "moves to F36", "is tackled on E33", "catches it on E33"
REACHES = re.compile(
    r"\b(?:moves?|moved|runs?|ran|steps?|stepped|goes|went|advances?|advanced|carries|carried|retreats?|retreated|rushe[sd]|"
    r"pushe[sd]|tackled|brought\s+down|(?:is|was)\s+down|catch(?:es)?|caught|complete[ds]?|intercept\w*|spotted|lands?|landed)\b"
    r"[^.!?;]{0,30}?\b(?:to|on|onto|into|at)\s+(?:square\s+)?([A-P][1-9][0-9]?)\b",
    re.I,
)
#: the piece a sentence is about (``HV2``, ``QB``, ``FA1``)
PIECE = re.compile(r"\b(?!(?:NE|NW|SE|SW|OK)\b)[A-Z]{2}[0-9]?\b")


def _squares(facts: Facts) -> set[str]:
    return {m.group(0) for m in SQUARE.finditer(facts.corpus.upper())}


CLAIMS = Claims(
    values=(
        ValueClaim("square", SQUARE, known=_squares),
        ValueClaim("square", REACHES, value=lambda m: m.group(1).upper(), events=ANY_EVENT, subject=PIECE,
                   extract=re.compile(r"\b[A-P][1-9][0-9]?\b"), message="no event of this turn puts it there"),
        ordinal_pair("down and distance", "down", "goal"),
        ValueClaim("roll", ROLL, value=lambda m: m.group(1), label="a roll of {value}", events=frozenset(
            {"pass", "collision", "reveal_tackle", "tackle", "interception", "complete", "incomplete", "punt"}),
                   message="the engine rolled no such number this turn"),
    ),
    events=(
        EventClaim("a touchdown", re.compile(r"\btouch\s?-?down\b", re.I), frozenset({"touchdown"}), by_seat=True),
        EventClaim("a tackle", re.compile(r"\btackl(?:ed|es?|ing)\b", re.I), frozenset({"tackle", "whistle", "reveal_tackle"})),
        EventClaim("an interception", re.compile(r"\bintercept(?:ed|ion|s)?\b", re.I), frozenset({"interception"})),
        EventClaim("a complete pass", re.compile(r"\b(?<!in)complete(?:d)?\s+pass\b|\bpass\s+(?:is\s+)?complete\b", re.I),
                   frozenset({"complete"})),
        EventClaim("an incomplete pass", re.compile(r"\bincomplete\b", re.I), frozenset({"incomplete"})),
        EventClaim("a first down", re.compile(r"\bfirst\s+down\b(?!\s*(?:&|and)\s*(?:[0-9]|goal))", re.I),
                   frozenset({"first_down"}), unless=new_series("1st &")),
    ),
    moves=(
        re.compile(r"\bcaptains\s+(?:are|have\s+been|were)\s+(?:now\s+)?(?:named|set|chosen|picked|in)\b", re.I),
        re.compile(r"\b(?:QB|quarterback|[A-Z]{2}[0-9])\s+(?:has\s+)?(?:moved|ran|stepped|passed|threw|retreated|advanced)\b"),
        re.compile(r"\b(?:handed\s+off|hiked|snapped)\b", re.I),
    ),
)
