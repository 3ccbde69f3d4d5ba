"""What a Quarter Back narration can claim (:meth:`gm.core.game.Game.narration_claims`): the square
a piece moves to or the carrier is held on (``E-2``), points scored, tackles, interceptions and
pushes.  A square counts only after "on", "to", "from", "at" or "onto": piece names (``D2``, ``T1``)
look like squares."""

from __future__ import annotations

import re

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim

SQUARE = re.compile(r"\b(?:on|to|from|at|onto)\s+(?:square\s+)?([A-I]-?[0-9]{1,2})\b")
ANY_SQUARE = re.compile(r"\b[A-I]-?[0-9]{1,2}\b")
POINTS = re.compile(r"\bscores?\s+([0-9]{1,3})\b", re.I)


def _squares(facts: Facts) -> set[str]:
    return {m.group(0) for m in ANY_SQUARE.finditer(facts.corpus)}


CLAIMS = Claims(
    values=(
        ValueClaim("square", SQUARE, value=lambda m: m.group(1), known=_squares),
        ValueClaim("points", POINTS, value=lambda m: m.group(1), label="scores {value}",
                   message="the engine scores no such points this turn"),
    ),
    events=(
        # "tackled", "tackling", "S1 tackles the quarterback": a tackle said to happen; "a tackle
        # scores nothing" (a rules answer) names one and claims nothing
        EventClaim("a tackle", re.compile(r"\btackl(?:ed|ing)\b|\btackles\s+(?:the\s+|your\s+|his\s+|her\s+|their\s+)?[A-Za-z]+\b(?<!\bscore)(?<!\bcount)(?<!\bare)", re.I), frozenset({"tackle"})),
        EventClaim("an interception", re.compile(r"\bintercept(?:ed|ion|s)?\b|\bpicks? off\b", re.I), frozenset({"intercept"})),
        EventClaim("a push", re.compile(r"\bpush(?:es|ed)\b", re.I), frozenset({"push"})),
    ),
)
