"""What a Quarter Back narration can claim (:meth:`gm.core.game.Game.narration_claims`): the square
a piece moves, passes or is pushed to, or the carrier is tackled on (``E-2``: checked against this
turn's events, the piece or seat named in the sentence), any other square named, points scored,
tackles, interceptions and pushes, every game's score and the game points, and the words saying a
piece moved or the turn ended.  A square counts only after "on", "to", "from", "at" or "onto":
piece names (``D2``, ``T1``) look like squares."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim

# alike on purpose: every game's narration claims read its own notation with patterns of this shape (its
# squares, its dice, what its pieces are said to reach)
SQUARE_RE = r"[A-I]-?[0-9]{1,2}"
SQUARE = re.compile(rf"\b(?:on|to|from|at|onto)\s+(?:square\s+)?({SQUARE_RE})\b")
ANY_SQUARE = re.compile(rf"\b{SQUARE_RE}\b")
POINTS = re.compile(r"\bscores?\s+([0-9]{1,3})\b", re.I)
#: a square a piece is said to reach: "moves to E-1", "passes to F-2", "pushed back to I-1", "tackled on H0"
REACHES = re.compile(
    rf"\b(?:moves?|moved|steps?|stepped|runs?|ran|goes|went|advances?|advanced|passes|passed|throws?|threw|pushe[sd]|pushed\s+back|"
    rf"tackled|tackles|brought\s+down|picks?\s+up|picked\s+up|intercept\w*|lands?|landed|lies|lay)\b[^.!?;]{{0,40}}?"
    rf"\b(?:to|on|onto|into|at)\s+(?:square\s+)?({SQUARE_RE})\b",
    re.I,
)
#: the piece or seat a sentence is about
SUBJECT = re.compile(r"\b(?:QB|[SDT][1-3]|(?i:you|your|red|blue))\b")
#: the event kinds that put a piece or the ball on a square
REACH_KINDS = frozenset({"move", "pass", "push", "tackle", "score", "pick_up", "intercept", "released"})


def _squares(facts: Facts) -> set[str]:
    return {m.group(0) for m in ANY_SQUARE.finditer(facts.corpus)}


def scoreboards(view: Mapping[str, Any]) -> list[dict[str, int]]:
    """The game being played first, then every game's score and the match's game points."""
    points = [p for p in view.get("points") or [] if isinstance(p, Mapping)]
    game = view.get("game")
    boards = [{str(k): int(v) for k, v in p.items() if isinstance(v, int)} for p in points]
    if isinstance(game, int) and 0 < game <= len(boards):
        boards.insert(0, boards.pop(game - 1))
    gp = view.get("game_points")
    if isinstance(gp, Mapping):
        boards.append({str(k): int(v) for k, v in gp.items() if isinstance(v, int)})
    return [b for b in boards if b]


CLAIMS = Claims(
    values=(
        ValueClaim("square", SQUARE, value=lambda m: m.group(1), known=_squares),
        ValueClaim("square", REACHES, value=lambda m: m.group(1), events=REACH_KINDS, subject=SUBJECT, extract=ANY_SQUARE,
                   message="no event of this turn puts it there"),
        ValueClaim("points", POINTS, value=lambda m: m.group(1), label="scores {value}", events=frozenset({"score"}),
                   message="the engine scores no such points this turn"),
    ),
    events=(
        # "tackled", "tackling", "S1 tackles the quarterback": a tackle said to happen; "a tackle
        # scores nothing" (a rules answer) names one and claims nothing
        EventClaim("a tackle", re.compile(r"\btackl(?:ed|ing)\b|\btackles\s+(?:the\s+|your\s+|his\s+|her\s+|their\s+)?[A-Za-z]+\b(?<!\bscore)(?<!\bcount)(?<!\bare)", re.I), frozenset({"tackle"})),
        EventClaim("an interception", re.compile(r"\bintercept(?:ed|ion|s)?\b|\b(?:picks?|picked)\s+off\b", re.I), frozenset({"intercept"})),
        EventClaim("a push", re.compile(r"\bpush(?:es|ed)\b", re.I), frozenset({"push"})),
    ),
    moves=(
        re.compile(r"\b(?:quarterback|QB|single|double|triple|[SDT][1-3])\s+(?:has\s+|was\s+)?(?:moved|stepped|advanced|went|ran|passed|threw)\b", re.I),
        re.compile(r"\b(?:passed|threw)\s+(?:the\s+ball\s+)?to\b", re.I),
        re.compile(r"\b(?:turn\s+(?:is\s+)?(?:over|ended|done|complete)|ended\s+(?:your|the)\s+turn)\b", re.I),
    ),
    scores=scoreboards,
)
