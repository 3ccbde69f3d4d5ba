"""Helpers for the brawl tests: states with chosen cards, whole plays and series in one call."""

from __future__ import annotations

from typing import Any

from gm.core.chance import MT19937
from gm.core.events import Event
from gm.games.brawl import GAME
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.rules import PLAYABLE, parse_card
from gm.games.brawl.scoring import ZoneTotals, purity

G = GAME


def new(seed: int = 0, **rules: Any) -> BrawlState:
    """A fresh game; home has the ball first unless the rules say otherwise.  (The tests' seeded hands
    were chosen under the mt19937 generator: a seed and its generator name one game.)"""
    rules.setdefault("first_offense", "home")
    state = G.new_state(rules, seed, MT19937)
    assert isinstance(state, BrawlState)
    return state


def deal(state: BrawlState, seat: str, hands: dict[str, list[str]]) -> None:
    """Replace some players' hands (tests only: the cards come from nowhere)."""
    for player, codes in hands.items():
        state.hands[seat][player] = [parse_card(c) for c in codes]


def placement(state: BrawlState, seat: str, spec: dict[str, str], filler: str = "A0") -> str:
    """A full placement text: ``spec`` maps players to ``CARD@ZONE``; everybody else plays
    ``filler`` (dealt to them) into the zones left over, in zone order."""
    used = {v.split("@")[1] for v in spec.values()}
    free = [z for z in PLAYABLE if z not in used]
    entries = {}
    for p in state.roster(seat):
        entries[p] = spec[p] if p in spec else f"{filler}@{free.pop(0)}"
    return " ".join(f"{p}:{e}" for p, e in entries.items())


def play(state: BrawlState, off: dict[str, str] | None = None, de: dict[str, str] | None = None) -> list[Event]:
    """One play: each side's players in ``off`` / ``de`` play ``CARD@ZONE`` (dealt to them
    just before), the rest a 0-value Agility card elsewhere.  Returns the events."""
    events: list[Event] = []
    for seat, spec in ((state.offense, off or {}), (state.defense, de or {})):
        text = placement(state, seat, spec)
        for entry in text.split():
            player, rest = entry.split(":")
            deal(state, seat, {player: [rest.split("@")[0]]})
        events += state.apply(seat, text)
    return events


def series(state: BrawlState, *plays: tuple[dict[str, str], dict[str, str]]) -> list[Event]:
    """Several plays in a row (3 for a whole series); empty plays fill up to the series' length."""
    events: list[Event] = []
    todo = list(plays)
    while len(todo) < state.plays_in_series - state.play_no + 1:
        todo.append(({}, {}))
    for off, de in todo:
        events += play(state, off, de)
    return events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def Z(off: int, de: int, ok: str = "*", dk: str = "*", okinds: str | None = None) -> ZoneTotals:
    """Zone totals for the scoring function: totals and each side's purity (``*`` mixed)."""
    if okinds is None:
        okinds = {"*": "AFS", "": ""}.get(ok, ok)
    return ZoneTotals(off, de, ok, dk, okinds)


def totals_of(cards_off: list[str], cards_def: list[str]) -> ZoneTotals:
    """Zone totals from flat card codes (no position effects)."""
    o = [parse_card(c) for c in cards_off]
    d = [parse_card(c) for c in cards_def]
    return ZoneTotals(
        sum(c.lo for c in o), sum(c.lo for c in d), purity([c.kind for c in o]), purity([c.kind for c in d]),
        "".join(sorted({c.kind for c in o})),
    )
