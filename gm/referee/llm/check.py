"""Narration check: what the model's narration states, against what the engine did.

The referee's narration is the model's words; the engine's events are the truth.
:func:`check` pulls the checkable claims out of a narration – squares (``K20``),
rows (``row 31``), down and distance (``2nd & 6``), first downs, touchdowns,
turnovers, scores and game results – and compares each with the turn's facts:
the events and results of this turn's tool calls, the status before and after and
the rules summary (which the model may quote).  The player's own words are not
facts: "put the ball on row 64" does not make row 64 true.  Sentences quoted from
the engine (event texts, statuses, rejection reasons) are never contradictions.  Every
contradiction is one finding; the referee then shows the engine's version.

Claims in a negated or hypothetical phrase ("no touchdown", "a match would be a
turnover", "one more first down to go") are not claims of fact and pass.
:func:`strip_boards` removes anything board-like the model drew (gm prints the
engine's board itself).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SQUARE = re.compile(r"\b([A-Z])([1-9][0-9]?)\b")
ROW = re.compile(r"\brow\s+([0-9]{1,3})\b", re.I)
DOWN_DISTANCE = re.compile(r"\b(1st|2nd|3rd|4th|first|second|third|fourth)(?:\s+down)?\s*(?:&|and)\s*([0-9]{1,2}|goal)\b", re.I)
FIRST_DOWN = re.compile(r"\bfirst\s+down\b(?!\s*(?:&|and)\s*(?:[0-9]|goal))", re.I)
TOUCHDOWN = re.compile(r"\btouch\s?-?down\b", re.I)
TURNOVER = re.compile(r"\bturn\s?-?over\b|\binterception\b|\bintercepted\b|\bfumbles?\b|\bchange of possession\b", re.I)
GAME_OVER = re.compile(r"\bgame\s+over\b|\b(?:wins?|won)\s+the\s+(?:game|match)\b|\bvictory\b", re.I)
SCORE_WORDS = re.compile(r"\b(?:score|scores|leads?|leading|trails?|trailing|tied)\b", re.I)
PAIR = re.compile(r"\b([0-9]{1,3})\s*(?:-|–|:|to)\s*([0-9]{1,3})\b")
SEAT_SCORE = re.compile(r"\b([a-z]+)\s+([0-9]{1,3})\s*(?:-|–|:)\s*([0-9]{1,3})\s+([a-z]+)\b", re.I)
#: words just before a claim that make it negated or hypothetical
HEDGES = frozenset(
    "no not never without would could might may can cannot need needs needed chance almost nearly score get "
    "away short before until avoid avoids avoided risk risks or possible possibly any next".split()
)
#: words anywhere earlier in the sentence that make the rest of it conditional
CONDITIONALS = frozenset("if when whenever unless whether should".split())
ORDINALS = {"first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th"}
BOARD_LINE = re.compile(r"^\s*[0-9]{1,2}\s+(?:[.#O=:+\-]\s+){5,}")
BALL_AT = re.compile(
    r"\bball\b[^.!?;]{0,40}?\b(?:on|at|to|in|reaches|placed)\s+(?:square\s+)?(?:(row)\s+([0-9]{1,3})|([A-Z][1-9][0-9]?))\b"
)
FENCE = re.compile(r"```.*?(?:```|$)", re.S)


@dataclass
class Facts:
    """What the engine says about the turn (and just before it)."""

    corpus: str  # event texts, statuses, results, rules summary
    kinds: set[str] = field(default_factory=set)  # event kinds of this turn
    recent_kinds: set[str] = field(default_factory=set)  # event kinds of the last turns
    scores: list[dict[str, int]] = field(default_factory=list)  # before / after
    rows: set[int] = field(default_factory=set)
    seats: tuple[str, ...] = ()
    over: bool = False
    first_down_now: bool = False  # the status after the turn is a 1st down
    quotes: list[str] = field(default_factory=list)  # engine sentences: quoting them is never a contradiction
    ball_squares: set[str] = field(default_factory=set)  # where the ball was this turn (views and action events)


def _hedged(text: str, start: int, *, conditional_only: bool = False) -> bool:
    """Whether the claim at ``start`` sits in a negated or hypothetical phrase."""
    sentence_start = max(text.rfind(c, 0, start) for c in ".!?;\n") + 1
    words = re.findall(r"[a-z']+", text[sentence_start:start].lower())
    if any(w in CONDITIONALS for w in words):
        return True
    if conditional_only:
        return False
    return any(w in HEDGES or w.endswith("n't") for w in words[-4:])


def _down_text(ordinal: str, togo: str) -> str:
    o = ORDINALS.get(ordinal.lower(), ordinal.lower())
    return f"{o} & {togo.lower()}"


def build_facts(
    *,
    results: Iterable[Mapping[str, Any]],
    statuses: Sequence[str],
    views: Iterable[Mapping[str, Any]],
    rules_text: str,
    recent_kinds: Iterable[str] = (),
    seats: Iterable[str] = (),
    over: bool = False,
) -> Facts:
    """Facts from this turn's tool results, the statuses and seat views before and after."""
    parts = [rules_text, *statuses]
    quotes: list[str] = [*statuses]
    kinds: set[str] = set()
    for res in results:
        if res.get("ok") and res.get("kind") == "action":
            for ev in res.get("events") or []:
                if isinstance(ev, Mapping):
                    kinds.add(str(ev.get("kind")))
                    parts.append(str(ev.get("text", "")))
                    quotes.append(str(ev.get("text", "")))
        err = res.get("error")
        if isinstance(err, Mapping) and err.get("reason"):
            quotes.append(str(err["reason"]))
        parts.append(json.dumps({k: v for k, v in res.items() if k not in ("board", "events")}, default=str))
    rows: set[int] = set()
    scores: list[dict[str, int]] = []
    for view in views:
        parts.append(json.dumps(view, default=str))
        _collect_rows(view, rows, False)
        score = (view.get("state") or view).get("score") if isinstance(view, Mapping) else None
        if isinstance(score, Mapping) and all(isinstance(v, int) for v in score.values()):
            scores.append({str(k): int(v) for k, v in score.items()})
    corpus = "\n".join(parts)
    rows |= {int(m.group(2)) for m in SQUARE.finditer(corpus)}
    rows |= {int(m.group(1)) for m in ROW.finditer(corpus)}
    first_now = bool(statuses) and "1st &" in statuses[-1]
    balls = {m.group(0) for q in quotes for m in SQUARE.finditer(q.upper())}
    for view in views:
        ball = (view.get("state") or view).get("ball") if isinstance(view, Mapping) else None
        if isinstance(ball, str):
            balls.add(ball.upper())
    return Facts(corpus, kinds, set(recent_kinds), scores, rows, tuple(seats), over, first_now, quotes, balls)


def _collect_rows(node: Any, rows: set[int], rowish: bool) -> None:
    if isinstance(node, Mapping):
        for k, v in node.items():
            key = str(k).lower()
            _collect_rows(v, rows, rowish or any(w in key for w in ("line", "row", "attacking", "los", "gain")))
    elif isinstance(node, list | tuple):
        for v in node:
            _collect_rows(v, rows, rowish)
    elif rowish and isinstance(node, int) and not isinstance(node, bool):
        rows.add(node)


def check(narration: str, facts: Facts) -> list[str]:
    """Contradictions between ``narration`` and ``facts`` (empty: consistent)."""
    out: list[str] = []
    for quote in sorted({q for q in facts.quotes if len(q) >= 12}, key=len, reverse=True):
        narration = re.sub(re.escape(quote), " ", narration, flags=re.I)
    corpus_upper = facts.corpus.upper()
    known_squares = {m.group(0) for m in SQUARE.finditer(corpus_upper)}
    for m in SQUARE.finditer(narration):
        if m.group(0) not in known_squares and not _hedged(narration, m.start(), conditional_only=True):
            out.append(f"square {m.group(0)}: not in the engine's account of this turn")
    for m in ROW.finditer(narration):
        n = int(m.group(1))
        if n not in facts.rows and not _hedged(narration, m.start(), conditional_only=True):
            out.append(f"row {n}: not in the engine's account of this turn")
    ball_rows = {int(b[1:]) for b in facts.ball_squares if b[1:].isdigit()}
    for m in BALL_AT.finditer(narration):
        if _hedged(narration, m.start(), conditional_only=True):
            continue
        if m.group(3) and m.group(3) not in facts.ball_squares:
            out.append(f"ball at {m.group(3)}: the engine has the ball elsewhere ({', '.join(sorted(facts.ball_squares)) or 'nowhere'})")
        elif m.group(2) and int(m.group(2)) not in ball_rows:
            out.append(f"ball on row {m.group(2)}: the engine has the ball elsewhere ({', '.join(sorted(facts.ball_squares)) or 'nowhere'})")
    low = facts.corpus.lower()
    for m in DOWN_DISTANCE.finditer(narration):
        dd = _down_text(m.group(1), m.group(2))
        if dd not in low and dd.replace(" & ", " and ") not in low and not _hedged(narration, m.start()):
            out.append(f"{dd}: the engine's down and distance differ")
    new_series = {"first_down", "first_and_ten"}
    checks = (
        (FIRST_DOWN, new_series, "a first down"),
        (TOUCHDOWN, {"touchdown"}, "a touchdown"),
        (TURNOVER, {"turnover"}, "a turnover"),
    )
    for pattern, kinds, what in checks:
        for m in pattern.finditer(narration):
            if kinds & (facts.kinds | facts.recent_kinds) or _hedged(narration, m.start()):
                continue
            if what == "a first down" and facts.first_down_now:
                continue
            out.append(f"{what}: the engine reports none this turn")
            break
    for m in GAME_OVER.finditer(narration):
        if not facts.over and "game_over" not in facts.kinds and not _hedged(narration, m.start()):
            out.append("the game is not over")
            break
    out.extend(_check_scores(narration, facts))
    for seat in facts.seats:
        for m in re.finditer(rf"\b{re.escape(seat)}\s+wins\b", narration, re.I):
            if f"{seat} wins".lower() not in low and not _hedged(narration, m.start()):
                out.append(f"{seat} wins: the engine does not say so")
    return list(dict.fromkeys(out))


def _check_scores(narration: str, facts: Facts) -> list[str]:
    if not facts.scores:
        return []
    out = []
    pairs = [sorted(s.values()) for s in facts.scores]
    for sentence in re.split(r"(?<=[.!?])\s+|\n", narration):
        named = list(SEAT_SCORE.finditer(sentence))
        for m in named:
            a, x, y, b = m.group(1).lower(), int(m.group(2)), int(m.group(3)), m.group(4).lower()
            if a in facts.seats and b in facts.seats:
                if not any(s.get(a) == x and s.get(b) == y for s in facts.scores):
                    out.append(f"score {a} {x} - {y} {b}: the engine's score differs")
        if named or not SCORE_WORDS.search(sentence):
            continue
        for m in PAIR.finditer(sentence):
            claim = sorted((int(m.group(1)), int(m.group(2))))
            if claim not in pairs:
                out.append(f"score {m.group(1)}-{m.group(2)}: the engine's score differs")
    return out


def strip_boards(text: str) -> tuple[str, bool]:
    """``text`` without code blocks and board-like lines; and whether anything was removed."""
    cleaned = FENCE.sub("", text)
    lines = [ln for ln in cleaned.splitlines() if not BOARD_LINE.match(ln)]
    out = "\n".join(lines).strip()
    if out == text.strip():
        return out, False
    return re.sub(r"\n\s*\n", "\n", out), True
