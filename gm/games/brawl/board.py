"""ASCII rendering of brawl: the 4x3 zone grid (full) or a few compact lines (for an LLM).

A seat sees its own hand and only revealed cards: locked placements are never drawn,
and the other side's hand only as a count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.core.wording import ordinal
from gm.games.brawl.rules import COLUMN_NAMES, COLUMNS, PLAYABLE, REGION_NAMES, REGIONS, X_ZONE

if TYPE_CHECKING:
    from gm.games.brawl.engine import BrawlState, PlayedCard
    from gm.games.brawl.rules import BrawlRules

def legend(rules: BrawlRules) -> str:
    """The full board's legend, with the ruleset's strong factor and weak divisor."""
    return (
        f"O offense, D defense; ^ strong (x{rules.strong_factor}), v weak (/{rules.weak_divisor} down); "
        "A1-4=n Agility rolled to n; totals lo-hi until Agility is rolled; lead: O / D / = / ? (rolls decide); "
        "result: won +margin, comp (completion), cut (led, not connected), INT, FUM, lost, tie"
    )


#: the compact board's key to a zone entry such as ``DL 4 v 4-8 ?``: before the series is scored it ends in
#: who leads, after it in the zone's result
KEY_ZONES = "key: DL 4 v 4-8 ? = zone (region D/M/S/B + column L/M/R), offense v defense total (lo-hi until Agility is rolled), "
KEY_LEAD = "then who leads: O, D, = (tied) or ? (the rolls decide)"
KEY_RESULT = "then the result: won/comp +margin, cut +margin (led, not connected), INT, FUM, lost, tie"


def compact_key(state: BrawlState) -> str:
    """The line that explains the compact board's zone entries."""
    return KEY_ZONES + (KEY_LEAD if state.series_score is None else KEY_RESULT)
_MIN_CELL = 18
_LABEL = 10


def _card(p: PlayedCard) -> str:
    mark = {"S": "^", "W": "v"}.get(p.effect, "")
    text = f"{p.card.code}{mark}"
    if p.card.rolled and p.value is not None:
        text += f"={p.value}"
    return text


def _total(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def zone_line(state: BrawlState, zone: str) -> str:
    """``7 v 4-10 ?``: both totals and the lead (or, once scored, the zone's result)."""
    o_lo, o_hi = state.total_range(zone, "offense")
    d_lo, d_hi = state.total_range(zone, "defense")
    text = f"{_total(o_lo, o_hi)} v {_total(d_lo, d_hi)}"
    s = state.series_score
    if s is not None:
        status = s.zone_status(zone)
        if status in ("won", "comp"):
            status += f" +{s.won[zone]}"
        elif status == "cut":
            status += f" +{o_lo - d_lo}"
        return f"{text} {status}"
    if not state.zones[zone]["offense"] and not state.zones[zone]["defense"]:
        return "-"
    if o_lo > d_hi:
        lead = "O"
    elif d_lo > o_hi:
        lead = "D"
    elif o_lo == o_hi == d_lo == d_hi:
        lead = "="
    else:
        lead = "?"
    return f"{text} {lead}"


def _situation(state: BrawlState) -> str:
    r = state.rules
    if state.outcome is not None:
        return f"FINAL: {state.outcome}"
    togo = min(r.first_down_yards, state.to_goal)
    distance = "goal" if togo == state.to_goal and togo < r.first_down_yards else str(togo)
    text = f"{state.offense} ball, "
    if state.phase == "fourth_down":
        s = state.series_score
        yards = s.yards if s else 0
        text += f"4th-down choice after {yards} yards (series from {state.field_text(state.los)}, ball now at {state.field_text(state.fourth_spot)})"
    else:
        text += f"{ordinal(state.play_no)} & {distance} at {state.field_text(state.los)}"
        text += f" - play {state.play_no} of {state.plays_in_series}"
        if state.going and state.first_score is not None:
            text += f", going for it after {state.first_score.yards} yards"
    return text


def status_line(state: BrawlState, seat: str | None = None) -> str:
    """Round, score, possession, down and field position, whose move."""
    from gm.games.brawl.engine import AWAY, HOME

    parts = [f"Round {state.round}/{state.rules.rounds}", f"{HOME} {state.score[HOME]} - {state.score[AWAY]} {AWAY}", _situation(state)]
    acting = state.to_act()
    if acting:
        parts.append("to act: " + ", ".join(acting))
    locked = [s for s in state.pending if s != seat]
    if locked:
        parts.append("locked: " + ", ".join(locked))
    return " | ".join(parts)


def _hand_lines(state: BrawlState, seat: str | None) -> list[str]:
    from gm.games.brawl.engine import SEATS

    lines = []
    if seat in SEATS and state.outcome is None:
        hand = state.hands[seat]
        unit = state.unit(seat)
        cards = " | ".join(f"{p} {' '.join(c.code for c in cs)}" for p, cs in hand.items() if cs) or "empty (all played)"
        lines.append(f"your hand ({seat} {unit}): {cards}")
        mine = state.pending.get(seat)
        if mine is not None:
            lines.append(f"your locked play: {mine}")
    for s in SEATS:
        if s != seat and state.outcome is None:
            n = sum(len(c) for c in state.hands[s].values())
            lines.append(f"{s} holds {n} card(s)" + (" - locked in" if s in state.pending else ""))
    return lines


def _fourth_line(state: BrawlState) -> list[str]:
    if state.phase != "fourth_down" or state.outcome is not None:
        return []
    dist = state.field_goal_distance()
    chance = state.rules.field_goal_chance(dist)
    fg = f"field goal ({dist} yds, {chance}%)" if chance is not None else f"no field goal ({dist} yds is out of range)"
    return [f"4th down: {state.offense} chooses: punt | {fg} | go for it"]


def _last_line(state: BrawlState) -> list[str]:
    last = state.last
    if not last:
        return []
    text = f"last series (round {last['round']}): {last['offense']} from {last['from']}"
    score = last.get("score")
    if score:
        won = ", ".join(f"{z} +{m}" for z, m in score["won"].items())
        if score["result"] in ("interception", "fumble"):
            text += f": {score['result']} in {', '.join(score['interceptions'] or score['fumbles'])}"
        elif score["result"] == "sack":
            text += ": sacked"
        elif won:
            text += f": won {won} (x{score['multiplier']})"
    text += f" - {last['yards']} yards, {last['result'].replace('_', ' ')}"
    if last.get("went_for_it"):
        text += " (went for it)"
    return [text]


def render(state: BrawlState, seat: str | None = None, *, full: bool = False) -> str:
    """The zone grid (``full``) or the compact lines, as ``seat`` may see them."""
    if not full:
        return render_compact(state, seat)
    cells: dict[str, list[str]] = {}
    for z in PLAYABLE:
        off = " ".join(_card(p) for p in state.zones[z]["offense"])
        de = " ".join(_card(p) for p in state.zones[z]["defense"])
        cells[z] = [f"O {off}".rstrip(), f"D {de}".rstrip(), zone_line(state, z)]
    cells[X_ZONE] = ["", "X", ""]
    width = max(_MIN_CELL, *(len(line) for c in cells.values() for line in c))
    sep = " " * _LABEL + "+" + "+".join("-" * (width + 2) for _ in COLUMNS) + "+"
    header = " " * (_LABEL + 1) + " ".join(f" {COLUMN_NAMES[c]:<{width}}" for c in COLUMNS).rstrip()
    title = f"brawl - {_situation(state)}"
    lines = [title, f"round {state.round}/{state.rules.rounds} | score {_score(state)} | offense {state.offense}, defense {state.defense}", header, sep]
    for region in REGIONS:
        mult = state.rules.multipliers[region]
        for i in range(3):
            label = REGION_NAMES[region] if i == 0 else (f"{region} {mult}x" if i == 1 else "")
            row = []
            for c in COLUMNS:
                text = cells[region + c][i]
                row.append(f" {text.center(width) if region + c == X_ZONE else text.ljust(width)} ")
            lines.append(f"{label:<{_LABEL}}|" + "|".join(row) + "|")
        lines.append(sep)
    lines += _fourth_line(state) + _hand_lines(state, seat) + _last_line(state)
    lines.append(legend(state.rules))
    return "\n".join(lines)


def _score(state: BrawlState) -> str:
    from gm.games.brawl.engine import AWAY, HOME

    return f"{HOME} {state.score[HOME]} - {state.score[AWAY]} {AWAY}"


def render_compact(state: BrawlState, seat: str | None = None) -> str:
    """A few lines: situation, every zone's totals and lead, the seat's hand."""
    lines = [status_line(state, seat)]
    zones = " | ".join(f"{z} {zone_line(state, z)}" for z in PLAYABLE)
    lines.append(f"zones (offense v defense, then who leads): {zones}")
    lines.append(compact_key(state))
    lines += _fourth_line(state) + _hand_lines(state, seat) + _last_line(state)
    return "\n".join(lines)
