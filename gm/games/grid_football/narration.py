"""What a Grid Football narration can claim (:meth:`gm.core.game.Game.narration_claims`): squares
(``K20``), rows (``row 31``), the ball's square or row, the square a run, kick or return ends on
(checked against this turn's events), the line to gain, down and distance (``2nd & 6``), first downs, touchdowns,
turnovers, and the words saying a play was called or the ball moved."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim, hedged, new_series, ordinal_pair, state_of

# alike on purpose: every game's narration claims read its own notation with patterns of this shape (its
# squares, its dice, what its pieces are said to reach)
SQUARE = re.compile(r"\b([A-Z])([1-9][0-9]?)\b")
ROW = re.compile(r"\brow\s+([0-9]{1,3})\b", re.I)
BALL_AT = re.compile(
    r"\b(?i:ball)\b[^.!?;]{0,40}?\b(?:on|at|to|in|reaches|placed)\s+(?:square\s+)?(?:(row)\s+([0-9]{1,3})|([A-Z][1-9][0-9]?))\b"
)
#: a square the ball is said to go to: a run, a kick, a return, a gain ("moves to K28", "comes down at E4")
MOVED_TO = re.compile(
    r"\b(?:moves?|moved|advances?|advanced|goes|went|gains?|gained|runs?|ran|carries|carried|returns?|returned|lands?|landed|"
    r"comes\s+down|came\s+down|kicks?|kicked|punts?|punted|pushes|pushed|takes?\s+it|took\s+it|picks?\s+up|picked\s+up)\b"
    r"[^.!?;]{0,30}?\b(?:to|at|on|into|onto)\s+(?:square\s+)?([A-Z][1-9][0-9]?)\b"
)
#: the line to gain, said as a row: "the line to gain is row 30", "reach row 30 for a first down"
LINE_TO_GAIN = re.compile(
    r"\b(?:line\s+to\s+gain|first[- ]down\s+line|marker)\b[^.!?;]{0,30}?\brow\s+([0-9]{1,3})\b"
    r"|\breach\s+row\s+([0-9]{1,3})\s+for\s+a\s+first\s+down\b",
    re.I,
)
#: view keys whose numbers are rows
_ROWISH = ("line", "row", "attacking", "los", "gain")


def _squares(facts: Facts) -> set[str]:
    return {m.group(0) for m in SQUARE.finditer(facts.corpus.upper())}


def _rows(facts: Facts) -> set[str]:
    rows: set[int] = set()
    for view in facts.views:
        _collect_rows(view, rows, False)
    rows |= {int(m.group(2)) for m in SQUARE.finditer(facts.corpus)}
    rows |= {int(m.group(1)) for m in ROW.finditer(facts.corpus)}
    return {str(r) for r in rows}


def _collect_rows(node: Any, rows: set[int], rowish: bool) -> None:
    if isinstance(node, Mapping):
        for k, v in node.items():
            key = str(k).lower()
            _collect_rows(v, rows, rowish or any(w in key for w in _ROWISH))
    elif isinstance(node, list | tuple):
        for v in node:
            _collect_rows(v, rows, rowish)
    elif rowish and isinstance(node, int) and not isinstance(node, bool):
        rows.add(node)


def _line_to_gain(facts: Facts) -> set[str]:
    """The line to gain before and after the turn (the seat's views)."""
    return {str(state_of(v).get("line_to_gain")) for v in facts.views if isinstance(state_of(v).get("line_to_gain"), int)}


def _ball_squares(facts: Facts) -> set[str]:
    balls = {m.group(0) for q in facts.quotes for m in SQUARE.finditer(q.upper())}
    for view in facts.views:
        ball = state_of(view).get("ball")
        if isinstance(ball, str):
            balls.add(ball.upper())
    return balls


def _moved_to(facts: Facts) -> set[str]:
    """The squares this turn's events name, and the ball's square before and after."""
    found = {m.group(0) for text in facts.texts(recent=False) for m in SQUARE.finditer(text)}
    for view in facts.views:
        ball = state_of(view).get("ball")
        if isinstance(ball, str):
            found.add(ball.upper())
    return found


#: words between "ball" and its square saying where it was, not where it is ("the ball was on K20")
_THEN = re.compile(r"\b(?:was|were|had|started|began|from|before|earlier)\b", re.I)


def _ball_at(narration: str, facts: Facts) -> list[str]:
    """"The ball is on K26" is true of where the ball is after the turn; "the ball was at K20" of any
    square the turn's account gives the ball (its events, the ball before and after)."""
    out: list[str] = []
    balls: set[str] | None = None
    for m in BALL_AT.finditer(narration):
        if hedged(narration, m.start(), conditional_only=True):
            continue
        if balls is None:
            balls = _ball_squares(facts)
        where = balls
        if not _THEN.search(m.group(0)):
            after = state_of(facts.views[-1]).get("ball") if facts.views else None
            where = {str(after).upper()} if isinstance(after, str) else balls
        shown = ", ".join(sorted(where)) or "nowhere"
        if m.group(3) and m.group(3) not in where:
            out.append(f"ball at {m.group(3)}: the engine has the ball elsewhere ({shown})")
        elif m.group(2) and int(m.group(2)) not in {int(b[1:]) for b in where if b[1:].isdigit()}:
            out.append(f"ball on row {m.group(2)}: the engine has the ball elsewhere ({shown})")
    return out


CLAIMS = Claims(
    values=(
        ValueClaim("square", SQUARE, known=_squares),
        ValueClaim("square", MOVED_TO, value=lambda m: m.group(1), known=_moved_to,
                   message="no event of this turn puts the ball there"),
        ValueClaim("row", ROW, value=lambda m: m.group(1), known=_rows),
        ValueClaim("line to gain", LINE_TO_GAIN, value=lambda m: m.group(1) or m.group(2), known=_line_to_gain,
                   label="the line to gain at row {value}", message="the engine's line to gain is elsewhere"),
        ordinal_pair("down and distance", "down", "goal"),
    ),
    events=(
        EventClaim("a first down", re.compile(r"\bfirst\s+down\b(?!\s*(?:&|and)\s*(?:[0-9]|goal))", re.I),
                   frozenset({"first_down", "first_and_ten"}), unless=new_series("1st &"), by_seat=True),
        EventClaim("a touchdown", re.compile(r"\btouch\s?-?down\b", re.I), frozenset({"touchdown"}), by_seat=True),
        EventClaim("a turnover", re.compile(
            r"\bturn\s?-?over\b|\binterception\b|\bintercepted\b|\bfumbles?\b|\bchange of possession\b", re.I),
            frozenset({"turnover"})),
    ),
    custom=(_ball_at,),
    moves=(
        re.compile(r"\b(?:the\s+)?ball\s+(?:is\s+|was\s+|has\s+been\s+)?(?:snapped|moved|advanced|went|gained)\b", re.I),
        re.compile(r"\b(?:play|call)\s+[1-4](?:\s+(?:red|black))?(?:\s+\w+){0,3}?\s+(?:is|was)\s+(?:in|called|locked|run|made)\b", re.I),
        re.compile(r"\b(?:punted|kicked\s+off|snapped\s+the\s+ball)\b", re.I),
    ),
)
