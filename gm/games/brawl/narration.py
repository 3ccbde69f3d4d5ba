"""What a brawl narration can claim (:meth:`gm.core.game.Game.narration_claims`): down and
distance, the ball's field position (``own 25``, ``opp 48``), yards gained or lost and zones won
(checked against this turn's events, the side named in the sentence), first downs, touchdowns,
turnovers, sacks, punts, and the words saying cards were put down or a fourth-down choice made."""

from __future__ import annotations

import re

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim, new_series, ordinal_pair

YARDS = re.compile(r"\b(?:gains?|gained|loses?|lost)\s+([0-9]{1,3})\s+yards?\b", re.I)
ZONE_WON = re.compile(r"\bwins?\s+(?:the\s+)?(?:zone\s+)?([BMSFD][LMR])\b")
FIELD = re.compile(r"\b(own|opp(?:onent'?s)?)\s+([0-9]{1,2})\b(?!\s*(?:yards?|%))", re.I)
#: the side a sentence is about
SIDE = re.compile(r"\b(?i:home|away|you|your)\b")


def _field(m: re.Match[str]) -> str:
    return f"{'own' if m.group(1).lower() == 'own' else 'opp'} {int(m.group(2))}"


def _field_known(facts: Facts) -> set[str]:
    """Field positions the statuses before and after and this turn's events state (each side's
    ``own N`` is the other's ``opp 100-N``)."""
    found: set[str] = set()
    for text in (*facts.statuses, *facts.texts()):
        for m in FIELD.finditer(text):
            own = m.group(1).lower() == "own"
            n = int(m.group(2))
            found |= {f"{'own' if own else 'opp'} {n}", f"{'opp' if own else 'own'} {100 - n}"}
    return found


CLAIMS = Claims(
    values=(
        ordinal_pair("down and distance", "down", "goal"),
        ValueClaim("yards", YARDS, value=lambda m: m.group(1), label="{value} yards", events=frozenset({"yards"}), subject=SIDE,
                   message="the engine gives other yards this turn"),
        ValueClaim("zone", ZONE_WON, value=lambda m: m.group(1), label="zone {value} won",
                   events=frozenset({"zones", "fumble", "interception", "sack"}), subject=SIDE,
                   extract=re.compile(r"\b[BMSFD][LMR]\b"),
                   message="the engine gives no such zone this turn"),
        ValueClaim("field position", FIELD, value=_field, known=_field_known, label="the ball at {value}",
                   message="the engine has the ball elsewhere"),
    ),
    events=(
        EventClaim("a first down", re.compile(r"\bfirst\s+down\b(?!\s*(?:&|and)\s*(?:[0-9]|goal))", re.I),
                   frozenset({"first_down"}), unless=new_series("1st &")),
        EventClaim("a touchdown", re.compile(r"\btouch\s?-?down\b", re.I), frozenset({"touchdown"}), by_seat=True),
        EventClaim("a turnover", re.compile(r"\bturn\s?-?over\b|\bfumbles?d?\b|\bintercept(?:ed|ion)\b", re.I),
                   frozenset({"fumble", "interception", "downs", "possession", "punt"})),
        EventClaim("a sack", re.compile(r"\bsack(?:ed|s)?\b", re.I), frozenset({"sack"})),
        EventClaim("a field goal", re.compile(r"\bfield\s+goal\b(?=[^.!?]*\b(?:good|made|scores?|kicked|through)\b)", re.I),
                   frozenset({"field_goal"})),
    ),
    moves=(
        re.compile(r"\bcards?\s+(?:are|is)\s+(?:now\s+)?(?:down|in|locked|played|set)\b", re.I),
        re.compile(r"\b(?:punted|went\s+for\s+it|going\s+for\s+it\s+it\s+is)\b", re.I),
        re.compile(r"\b(?:lineup|formation|hand|play)\s+(?:is|are)\s+(?:now\s+)?(?:set|in|locked|down)\b", re.I),
    ),
)
