"""Scoring a series: which zones the offense wins, the yards, and the special results.

A pure function of the zone totals (the engine and the bots share it):

1. The offense *leads* a zone when its total exceeds the defense's (BR-WIN-ZONE; a tie
   is neither side's, BR-R-TIE).
2. A lead won on Focus alone is a *completion* and needs no adjacency (BR-COMPLETION).
3. A lead counts when it connects, zone by orthogonal zone, to the X or to a completion
   (BR-ADJ, BR-R-CHAIN).
4. Yards = the sum of the counted margins x the highest multiplier among those zones
   (BR-MARGIN, BR-YARDS).
5. Before any yards (BR-R-PRIORITY): a defense lead on Focus alone where the offense has
   cards is an interception (BR-INTERCEPTION), on Strength alone a fumble (BR-FUMBLE);
   the defense leading in both playable Backfield zones is a sack (BR-SACK, BR-R-SACK).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from gm.games.brawl.rules import ADJACENT, BACKFIELD, PLAYABLE, X_ZONE, ZONE_INDEX, Kind

#: the purity of a side's cards in a zone: no cards, one kind only (S, A, F), or mixed
EMPTY, MIXED = "", "*"

_X_NEIGHBOURS = frozenset(ADJACENT[X_ZONE])
_PLAYABLE_ADJ = {z: tuple(n for n in ADJACENT[z] if n != X_ZONE) for z in PLAYABLE}


class SeriesResult(StrEnum):
    """What scoring a series decided: a gain of yards (maybe none), or a special result first."""

    GAIN = "gain"
    INTERCEPTION = "interception"
    FUMBLE = "fumble"
    SACK = "sack"


#: a defense win on one of these kinds alone may take the ball (BR-INTERCEPTION, BR-FUMBLE)
_FOCUS, _STRENGTH = Kind.FOCUS, Kind.STRENGTH  # (an enum member read through its class is slow in 3.11)
_TAKES = (_FOCUS, _STRENGTH)
_RESULT_RULE = {
    SeriesResult.INTERCEPTION: "BR-INTERCEPTION",
    SeriesResult.FUMBLE: "BR-FUMBLE",
    SeriesResult.SACK: "BR-SACK",
}


def purity(kinds: Sequence[str]) -> str:
    """``""`` for no cards, the kind if every card is of one kind, else ``"*"``."""
    if not kinds:
        return EMPTY
    first = kinds[0]
    return first if kinds.count(first) == len(kinds) else MIXED


class ZoneTotals(NamedTuple):
    """One zone as scoring sees it: each side's total and card purity (a named tuple: the engine
    builds eleven every series)."""

    offense: int = 0
    defense: int = 0
    offense_kind: str = EMPTY
    defense_kind: str = EMPTY
    #: every kind the offense has in the zone (``"AF"``: Agility and Focus)
    offense_kinds: str = ""


@dataclass(frozen=True)
class SeriesScore:
    """The result of scoring a series."""

    #: ``gain``, ``interception``, ``fumble`` or ``sack``
    result: SeriesResult
    yards: int
    multiplier: int
    #: counted zones (zone order) with their margins
    won: dict[str, int] = field(default_factory=dict)
    completions: tuple[str, ...] = ()
    #: zones the offense led but could not connect (BR-ADJ)
    unconnected: tuple[str, ...] = ()
    #: zones the defense led
    lost: tuple[str, ...] = ()
    interceptions: tuple[str, ...] = ()
    fumbles: tuple[str, ...] = ()
    sack: bool = False
    #: the margin each side's yards came from, before the multiplier
    margin: int = 0

    @property
    def turnover(self) -> bool:
        return self.result in (SeriesResult.INTERCEPTION, SeriesResult.FUMBLE)

    @property
    def rule(self) -> str:
        return _RESULT_RULE.get(self.result, "BR-YARDS")

    def zone_status(self, zone: str) -> str:
        """``won``, ``comp``, ``INT``, ``FUM``, ``lost``, ``cut`` (led, unconnected) or ``tie``."""
        statuses = (("INT", self.interceptions), ("FUM", self.fumbles), ("comp", self.completions), ("won", self.won),
                    ("cut", self.unconnected), ("lost", self.lost))  # the first that holds the zone names it
        return next((status for status, zones in statuses if zone in zones), "tie")

    def to_json(self) -> dict[str, Any]:
        return {
            "result": self.result.value,
            "yards": self.yards,
            "multiplier": self.multiplier,
            "won": dict(self.won),
            "completions": list(self.completions),
            "unconnected": list(self.unconnected),
            "lost": list(self.lost),
            "interceptions": list(self.interceptions),
            "fumbles": list(self.fumbles),
            "sack": self.sack,
        }


_BLANK = ZoneTotals()


def score_series(zones: Mapping[str, ZoneTotals], multipliers: Mapping[str, int], turnovers: str = "pure") -> SeriesScore:
    """Score a series from each playable zone's totals (missing zones are empty).

    ``turnovers`` says where a defensive win on one kind alone takes the ball (BR-R-TURNOVER-ZONE):
    ``pure`` where the offense's cards are all of that kind too (a pass thrown into Focus
    coverage, a carry stuffed by Strength), ``kind`` where the offense has a card of that kind,
    ``reach`` where the offense's play reaches (next to the X or to a won zone),
    ``any`` wherever the offense has cards (the literal reading)."""
    blank = _BLANK
    lead: set[str] = set()
    completions: list[str] = []
    lost: list[str] = []
    taken: list[str] = []  # defense wins on one kind alone
    for z in PLAYABLE:
        t = zones.get(z, blank)
        if t.offense > t.defense:
            lead.add(z)
            if t.offense_kind == _FOCUS:
                completions.append(z)
        elif t.defense > t.offense:
            lost.append(z)
            if t.offense_kind != EMPTY and t.defense_kind in _TAKES:  # BR-R-EMPTY: no offense cards, no turnover
                if (
                    turnovers in ("any", "reach")
                    or (turnovers == "kind" and t.defense_kind in t.offense_kinds)
                    or (turnovers == "pure" and t.defense_kind == t.offense_kind)
                ):
                    taken.append(z)
    # BR-ADJ / BR-R-CHAIN: grow the won set from the X and from every completion
    won = set(completions)
    frontier = [z for z in lead if z in _X_NEIGHBOURS] + completions
    won.update(frontier)
    while frontier:
        z = frontier.pop()
        for n in _PLAYABLE_ADJ[z]:
            if n in lead and n not in won:
                won.add(n)
                frontier.append(n)
    if turnovers == "reach":
        reach = won | _X_NEIGHBOURS
        reach.update(n for z in won for n in ADJACENT[z])
        taken = [z for z in taken if z in reach]
    interceptions = [z for z in taken if zones[z].defense_kind == _FOCUS]
    fumbles = [z for z in taken if zones[z].defense_kind == _STRENGTH]
    order = sorted(won, key=ZONE_INDEX.__getitem__)
    margins = {z: zones[z].offense - zones[z].defense for z in order}
    unconnected = tuple(sorted(lead - won, key=ZONE_INDEX.__getitem__))
    sack = all(z in lost for z in BACKFIELD)
    common: dict[str, Any] = {
        "won": margins,
        "completions": tuple(sorted(completions, key=ZONE_INDEX.__getitem__)),
        "unconnected": unconnected,
        "lost": tuple(lost),
        "interceptions": tuple(interceptions),
        "fumbles": tuple(fumbles),
        "sack": sack,
    }
    if interceptions:
        return SeriesScore(SeriesResult.INTERCEPTION, 0, 0, **common)
    if fumbles:
        return SeriesScore(SeriesResult.FUMBLE, 0, 0, **common)
    if sack:
        return SeriesScore(SeriesResult.SACK, 0, 0, **common)
    if not order:
        return SeriesScore(SeriesResult.GAIN, 0, 0, **common)
    mult = max(multipliers[z[0]] for z in order)
    margin = sum(margins.values())
    return SeriesScore(SeriesResult.GAIN, margin * mult, mult, margin=margin, **common)
