"""What a brawl narration can claim (:meth:`gm.core.game.Game.narration_claims`): down and
distance, yards gained or lost, zones won, first downs, touchdowns, turnovers, sacks, punts."""

from __future__ import annotations

import re

from gm.core.narration import Claims, EventClaim, Facts, ValueClaim, ordinal_pair, status_shows

YARDS = re.compile(r"\b(?:gains?|gained|loses?|lost)\s+([0-9]{1,3})\s+yards?\b", re.I)
ZONE_WON = re.compile(r"\bwins?\s+(?:the\s+)?(?:zone\s+)?([BMSF][LMR]|D[LMR]|MR|SR)\b")
ZONE = re.compile(r"\b[A-Z][LMR]\b")


def _zones(facts: Facts) -> set[str]:
    return {m.group(0) for m in ZONE.finditer(facts.corpus)}


CLAIMS = Claims(
    values=(
        ordinal_pair("down and distance", "down", "goal"),
        ValueClaim("yards", YARDS, value=lambda m: m.group(1), label="{value} yards",
                   message="the engine gives other yards this turn"),
        ValueClaim("zone", ZONE_WON, value=lambda m: m.group(1), known=_zones, label="zone {value} won",
                   message="the engine gives no such zone this turn"),
    ),
    events=(
        EventClaim("a first down", re.compile(r"\bfirst\s+down\b(?!\s*(?:&|and)\s*(?:[0-9]|goal))", re.I),
                   frozenset({"first_down"}), unless=status_shows("1st &")),
        EventClaim("a touchdown", re.compile(r"\btouch\s?-?down\b", re.I), frozenset({"touchdown"})),
        EventClaim("a turnover", re.compile(r"\bturn\s?-?over\b|\bfumbles?d?\b|\bintercept(?:ed|ion)\b", re.I),
                   frozenset({"fumble", "interception", "downs", "possession", "punt"})),
        EventClaim("a sack", re.compile(r"\bsack(?:ed|s)?\b", re.I), frozenset({"sack"})),
    ),
)
