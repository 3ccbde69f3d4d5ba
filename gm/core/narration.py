"""Narration claims: what a referee's narration states, checked against what the engine did.

The referee's narration is a model's words; the engine's events are the truth.  :func:`check`
pulls the checkable claims out of a narration and compares each with the turn's :class:`Facts`
(the events and results of this turn's tool calls, the statuses and seat views before and after,
the rules summary the model may quote).  The player's own words are not facts: "put the ball on
row 64" does not make row 64 true.  Sentences quoted from the engine (event texts, statuses,
rejection reasons) are never contradictions.

What can be claimed is the game's business: each game declares its :class:`Claims`
(:meth:`gm.core.game.Game.narration_claims`) - *event claims* (words saying something happened:
"tackled!", "first down") true only when an event of the named kinds happened this turn or just
before, *value claims* (a square, a tile number, a down and distance) true only when the engine's
account of the turn states the same value, and any *custom* check.  Here live only the claims every
game shares: scores by seat, "game over" and "SEAT wins".

Claims in a negated or hypothetical phrase ("no touchdown", "a match would be a turnover") are not
claims of fact and pass: an event claim is excused by a hedge word just before it or a conditional
anywhere earlier in its sentence, a value claim by the conditional only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

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
ORDINALS = {"first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th"}


@dataclass
class Facts:
    """What the engine says about the turn (and just before it)."""

    corpus: str  # event texts, statuses, results, views, rules summary
    kinds: set[str] = field(default_factory=set)  # event kinds of this turn
    recent_kinds: set[str] = field(default_factory=set)  # event kinds of the last turns
    scores: list[dict[str, int]] = field(default_factory=list)  # before / after
    seats: tuple[str, ...] = ()
    over: bool = False
    quotes: list[str] = field(default_factory=list)  # engine sentences: quoting them is never a contradiction
    statuses: tuple[str, ...] = ()  # before / after
    views: tuple[Mapping[str, Any], ...] = ()  # the seat's views before / after
    claims: Claims | None = None  # what this game's narrations can claim


@dataclass(frozen=True, slots=True)
class EventClaim:
    """Words saying an event happened (``what``: "a touchdown"): true only when an event of one of
    ``kinds`` happened this turn or just before, or when ``unless(facts)`` says the state shows it."""

    what: str
    pattern: re.Pattern[str]
    kinds: frozenset[str]
    unless: Callable[[Facts], bool] | None = None


def _same(m: re.Match[str]) -> str:
    return m.group(0)


@dataclass(frozen=True, slots=True)
class ValueClaim:
    """A value the narration states (a square, a tile number, a down and distance): true only when
    the engine's account states the same value.  ``value`` normalises a match ("second and 4" ->
    "2nd & 4"); the values known are the pattern's matches in the engine's account, normalised alike,
    or ``known(facts)``.  A finding reads ``label.format(what=..., value=...)`` then ``message``."""

    what: str
    pattern: re.Pattern[str]
    value: Callable[[re.Match[str]], str] = _same
    known: Callable[[Facts], set[str]] | None = None
    label: str = "{what} {value}"
    message: str = "not in the engine's account of this turn"
    conditional_only: bool = True  # only a conditional excuses it (a value is never "nearly" stated)

    def values_known(self, facts: Facts) -> set[str]:
        if self.known is not None:
            return self.known(facts)
        return {self.value(m) for m in self.pattern.finditer(facts.corpus)}


#: a custom check: the findings in a narration (quotes of the engine already removed)
Custom = Callable[[str, Facts], list[str]]


@dataclass(frozen=True, slots=True)
class Claims:
    """What a game's narrations can claim (:meth:`gm.core.game.Game.narration_claims`)."""

    events: tuple[EventClaim, ...] = ()
    values: tuple[ValueClaim, ...] = ()
    custom: tuple[Custom, ...] = ()


def ordinal_pair(what: str, noun: str, tail: str | None = None) -> ValueClaim:
    """A claim like "2nd & 6" / "third down and 4" (``noun`` "down", ``tail`` "goal"), normalised to
    ``2nd & 6``: for games that count attempts with a distance."""
    words = "|".join([*ORDINALS.values(), *ORDINALS])
    end = rf"[0-9]{{1,2}}|{re.escape(tail)}" if tail else r"[0-9]{1,2}"
    pattern = re.compile(rf"\b({words})(?:\s+{re.escape(noun)})?\s*(?:&|and)\s*({end})\b", re.I)

    def value(m: re.Match[str]) -> str:
        o = m.group(1).lower()
        return f"{ORDINALS.get(o, o)} & {m.group(2).lower()}"

    return ValueClaim(what, pattern, value, label="{value}", message=f"the engine's {what} differ", conditional_only=False)


def status_shows(text: str) -> Callable[[Facts], bool]:
    """For :attr:`EventClaim.unless`: the status after the turn shows ``text`` (a claim of a new
    series is true when the status after the turn starts one)."""
    return lambda facts: bool(facts.statuses) and text in facts.statuses[-1]


def hedged(text: str, start: int, *, conditional_only: bool = False) -> bool:
    """Whether the claim at ``start`` sits in a negated or hypothetical phrase."""
    sentence_start = max(text.rfind(c, 0, start) for c in ".!?;\n") + 1
    words = re.findall(r"[a-z']+", text[sentence_start:start].lower())
    if any(w in CONDITIONALS for w in words):
        return True
    if conditional_only:
        return False
    return any(w in HEDGES or w.endswith("n't") for w in words[-4:])


def build_facts(
    *,
    results: Iterable[Mapping[str, Any]],
    statuses: Sequence[str],
    views: Iterable[Mapping[str, Any]],
    rules_text: str,
    recent_kinds: Iterable[str] = (),
    seats: Iterable[str] = (),
    over: bool = False,
    claims: Claims | None = None,
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
    views = tuple(views)
    scores: list[dict[str, int]] = []
    for view in views:
        parts.append(json.dumps(view, default=str))
        score = (view.get("state") or view).get("score") if isinstance(view, Mapping) else None
        if isinstance(score, Mapping) and all(isinstance(v, int) for v in score.values()):
            scores.append({str(k): int(v) for k, v in score.items()})
    return Facts("\n".join(parts), kinds, set(recent_kinds), scores, tuple(seats), over, quotes,
                 tuple(statuses), views, claims)


def check(narration: str, facts: Facts) -> list[str]:
    """Contradictions between ``narration`` and ``facts`` (empty: consistent)."""
    out: list[str] = []
    for quote in sorted({q for q in facts.quotes if len(q) >= 12}, key=len, reverse=True):
        narration = re.sub(re.escape(quote), " ", narration, flags=re.I)
    claims = facts.claims or Claims()
    for vc in claims.values:
        known: set[str] | None = None
        for m in vc.pattern.finditer(narration):
            value = vc.value(m)
            if known is None:
                known = vc.values_known(facts)
            if value not in known and not hedged(narration, m.start(), conditional_only=vc.conditional_only):
                out.append(f"{vc.label.format(what=vc.what, value=value)}: {vc.message}")
    happened = facts.kinds | facts.recent_kinds
    for ec in claims.events:
        for m in ec.pattern.finditer(narration):
            if ec.kinds & happened or hedged(narration, m.start()) or (ec.unless is not None and ec.unless(facts)):
                continue
            out.append(f"{ec.what}: the engine reports none this turn")
            break
    for custom in claims.custom:
        out.extend(custom(narration, facts))
    for m in GAME_OVER.finditer(narration):
        if not facts.over and "game_over" not in facts.kinds and not hedged(narration, m.start()):
            out.append("the game is not over")
            break
    out.extend(_check_scores(narration, facts))
    low = facts.corpus.lower()
    for seat in facts.seats:
        for m in re.finditer(rf"\b{re.escape(seat)}\s+wins\b", narration, re.I):
            if f"{seat} wins".lower() not in low and not hedged(narration, m.start()):
                out.append(f"{seat} wins: the engine does not say so")
    return list(dict.fromkeys(out))


def _check_scores(narration: str, facts: Facts) -> list[str]:
    if not facts.scores:
        return []
    out = []
    pairs = [sorted(s.values()) for s in facts.scores]
    two = all(len(s) == 2 for s in facts.scores)
    for sentence in re.split(r"(?<=[.!?])\s+|\n", narration):
        named = list(SEAT_SCORE.finditer(sentence))
        for m in named:
            a, x, y, b = m.group(1).lower(), int(m.group(2)), int(m.group(3)), m.group(4).lower()
            if a in facts.seats and b in facts.seats:
                if not any(s.get(a) == x and s.get(b) == y for s in facts.scores):
                    out.append(f"score {a} {x} - {y} {b}: the engine's score differs")
        if named or not two or not SCORE_WORDS.search(sentence):
            continue
        for m in PAIR.finditer(sentence):
            claim = sorted((int(m.group(1)), int(m.group(2))))
            if claim not in pairs:
                out.append(f"score {m.group(1)}-{m.group(2)}: the engine's score differs")
    return out
