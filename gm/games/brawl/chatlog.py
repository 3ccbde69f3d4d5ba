"""brawl's move log for chatbot games (:mod:`gm.core.chatlog`).

One line per play (both sides' placements, revealed together) or 4th-down choice, then what
is true after it::

    P1 away: CB2:S1@DL FS:F2@DM ... | home: OT2:F1@DL SLOT:F2@DM ... | home ball, 2nd & 7 at own 28 | round 1, score home 0-0 away | home has the ball first

Claims the audit checks: ``SEAT ball``, ``2nd & 7``, ``at own 28`` / ``at opp 30`` / ``at
midfield``, ``round N``, ``score home H-A away``, ``touchdown SEAT``, ``SEAT has the ball first``,
``SEAT wins`` / ``draw``.  The engine shuffles and deals the decks and rolls the dice from its
own seed: a chatbot's deal is not gm's, so a chatbot game replays only as far as its cards are
in the hands gm dealt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gm.core.actions import Action
from gm.core.chance import Choice, Deal, Draw
from gm.core.chatlog import ChanceLog, Claim, Fact, ParsedLine, Stated, ViewChatLog, move_segments
from gm.core.chatlog_text import move_pattern, read_line, result_claims, score_claim, score_row, status_rows
from gm.core.errors import GameError
from gm.core.events import Event
from gm.core.state import GameState
from gm.core.wording import ordinal
from gm.games.brawl.actions import Placement, parse_action
from gm.games.brawl.engine import FOURTH_DOWN, PLAY, BrawlState
from gm.games.brawl.rules import BrawlRules

# alike on purpose: the claim patterns of the other games' chatlog.py have this shape, but each reads its
# own game's words for its own claims; what every game words alike (the result, a called toss, a score) is
# read once, in gm.core.chatlog_text
_SEATS = r"home|away"
_MOVE = move_pattern(_SEATS.split("|"))
_OFFENSE = re.compile(rf"\b({_SEATS})\s+ball\b")
_DOWN = re.compile(r"\b([1-9])(?:st|nd|rd|th)\s*(?:&|and)\s*([0-9]{1,3}|goal)\b")
_SPOT = re.compile(r"\bat\s+(own\s+[0-9]{1,3}|opp\s+[0-9]{1,3}|midfield)\b")
_ROUND = re.compile(r"\bround\s*([0-9]{1,3})\b")
_TD = re.compile(rf"\b(?:touchdown|td)\s*:?\s*({_SEATS})\b")
_FIRST = re.compile(rf"\b({_SEATS})\s+has\s+the\s+ball\s+first\b")


class BrawlChatLog(ViewChatLog):
    """The move log of brawl."""

    secret_picks = (
        "both sides' placements are secret and simultaneous and the hands are secret; in a chatbot they are on the "
        "honour system (the chatbot sees both hands)"
    )
    chance_keys = frozenset({"first", "rolls", "rolls by player", "field goal roll"})
    roll_keys = frozenset({"rolls", "rolls by player", "field goal roll"})
    example_moves = (
        ("away", "CB2:S1@DL FS:F2@DM SS:S1@DR OLB2:S3@ML OLB1:S3@MM CB1:S1@MR MLB:S2@SL DT2:S4@SM DT1:S3@SR DE1:S4@BL DE2:S3@BR"),
        ("home", "OT2:F1@DL SLOT:F2@DM OT3:F1@DR TE:F1@ML WR2:F3@MM WR1:A2-4@MR OT1:S3@SL RB:S2@SM QB:A2-4@SR OT4:S4@BL OT5:S4@BR"),
    )  # the default bots' first play under seed 0

    def stated(self, line: ParsedLine) -> list[Stated]:
        """Who has the ball first (the toss), each Agility card's roll by its player, a field goal's roll."""
        said = {c.key: c.said for c in line.claims}
        out = [Stated("toss", said["first"])] if "first" in said else []
        for entry in (said.get("rolls") or said.get("rolls by player") or "").split(", "):
            if entry:
                who, _, n = entry.partition(" ")
                out.append(Stated("agility roll", int(n), who))
        if "field goal roll" in said:
            out.append(Stated("field goal roll", int(said["field goal roll"])))
        return out

    def says_chance(self, line: ParsedLine) -> bool:
        """Every placement says which cards its players were dealt."""
        return bool(line.moves) or bool(self.stated(line))

    def supply(self, draw: Draw[Any], log: ChanceLog) -> Any:
        """A deal: the cards its player plays next (each card dealt is played, one a play: BR-REPEAT), as the
        placements of the lines after the one being replayed show them; a card a placement does not name gm
        deals.  A deal of a whole draw pile is no choice; when the pile ran out mid-deal (a reshuffle, then the
        rest of the deal: BR-R-SHUFFLE), the rest deals what the plays of both parts need beyond the first
        part's cards.  The plays a deal has read are not read again.  The toss, when no line says who has the
        ball first: the side whose first placement fields the offense (BR-R-ROSTER)."""
        if draw.label == "toss":
            return _first_offense(log, draw.options) if isinstance(draw, Choice) and log.at < 0 else None
        seat, _, player = draw.about.partition(" ")
        key = (seat, player)
        last: dict[tuple[str, str], str] = log.notes.setdefault("last draw", {})
        before, last[key] = last.get(key), draw.label
        if not isinstance(draw, Deal) or draw.label != "deal" or not draw.n:
            return None
        done: set[int] = log.notes.setdefault("dealt", {}).setdefault(key, set())
        forced: dict[tuple[str, str], tuple[list[str], list[str]]] = log.notes.setdefault("forced", {})
        plays: list[str] = []
        for j in range(log.at + 1, len(log.lines)):
            card = _played(log, j, seat, player)
            if card is not None and j not in done:
                done.add(j)
                plays.append(card)
                if len(plays) == draw.n:
                    break
        if draw.n == len(draw.pile):  # the whole pile: dealt whatever the log says
            forced[key] = (plays, [str(c) for c in draw.pile])
            return None
        need = [c for c in plays if c]
        first = forced.pop(key, None)
        if first is not None and before == "reshuffle":  # the rest of a deal whose pile ran out
            need = [c for c in first[0] if c] + need
            for card in first[1]:
                if card in need:
                    need.remove(card)
        return need[: draw.n] or None

    def closes(self, state: GameState[Any], events: Sequence[Event]) -> bool:
        return not state.has_locked_picks()  # hands stay secret all game; only a locked placement holds a line open

    def format_line(self, state: GameState[Any], moves: Sequence[tuple[str, Action]], events: Sequence[Event], number: int) -> str:
        parts = move_segments(moves)
        v = state.view(None)
        parts += [f"{k} {said}" for k, said in _rolls(events).items()]
        parts += [f"touchdown {e.data['offense']}" for e in events if e.kind == "touchdown"]
        series = _series(state)
        if series is not None:
            parts.append(f"{series.offense} ball, {series.down} at {series.spot}")
        parts.append(f"round {v['round']}, score home {v['score']['home']}-{v['score']['away']} away")
        parts += [f"{e.data['seat']} has the ball first" for e in events if e.kind == "toss"]
        if state.outcome is not None:
            parts.append(state.outcome.verdict)
        return f"P{number} " + " | ".join(parts)

    def parse_line(self, text: str) -> ParsedLine | None:
        return read_line(text, parse_action, _claims, _MOVE)

    def final_claims(self, lines: Sequence[tuple[int, str]]) -> list[tuple[int, Claim]]:
        """The session template's score, ball and down rows."""
        rows = status_rows(lines)
        out = score_row(lines, ("home", "away"))
        if "ball" in rows and (b := re.match(r"(own [0-9]{1,3}|opp [0-9]{1,3}|midfield)\b", rows["ball"][1])):
            out.append((rows["ball"][0], Claim("spot", b.group(1))))
        if "down" in rows and (d := _DOWN.match(rows["down"][1])):
            out.append((rows["down"][0], Claim("down", f"{ordinal(int(d.group(1)))} & {d.group(2)}")))
        return sorted(out, key=lambda nc: nc[0])

    def fact_in(self, key: str, state: GameState[Any], events: Sequence[Event], v: dict[str, Any]) -> Fact | None:
        play = next((e.rule for e in reversed(events) if e.kind not in ("locked", "series")), "BR-YARDS")
        if key in ("offense", "down", "spot"):
            series = _series(state)
            if series is None:
                return Fact("no series", play)
            if key == "offense":
                return Fact(series.offense, play)
            if key == "down":
                return Fact(series.down, play, series.down_also)
            return Fact(series.spot, play, series.spot_also)
        if key == "rolls by player":  # a log that names the players alone
            agility = sorted(f"{p} {n}" for p, _, n in _agility(events))
            return Fact(", ".join(agility) or "no roll", "BR-AGILITY-ROLL")
        if key in self.roll_keys:
            return Fact(_rolls(events).get(key, "no roll"), "BR-AGILITY-ROLL" if key == "rolls" else "BR-R-FIELD-GOAL")
        if key == "round":
            return Fact(str(v["round"]), "BR-R-LENGTH")
        if key == "score":
            rule = next((e.rule for e in events if e.kind in ("touchdown", "field_goal")), "BR-R-SCORE")
            return Fact(f"home {v['score']['home']}-{v['score']['away']} away", rule)
        if key == "touchdown":
            teams = [str(e.data["offense"]) for e in events if e.kind == "touchdown"]
            return Fact(teams[-1] if teams else "none", "BR-TD")
        if key == "first":  # decided as the game is set up: a fact on every line
            toss = [str(e.data["seat"]) for e in (*events, *getattr(state, "setup_events", ())) if e.kind == "toss"]
            return Fact(toss[0] if toss else "no toss", "BR-R-FIRST")
        if key == "result":
            return self.result_fact(state, "game not over", "BR-R-WIN")
        return None


@lru_cache(maxsize=1)
def _offense() -> frozenset[str]:
    """The default ruleset's offensive players (BR-R-ROSTER)."""
    return frozenset(BrawlRules().offense)


def _first_offense(log: ChanceLog, seats: Sequence[Any]) -> str | None:
    """The side the log's first placements show on offense (its players are the default roster's offense:
    BR-R-ROSTER), when no line states who has the ball first; ``None``: the log does not show it."""
    if any(c.key == "first" for p in log.lines for c in p.claims):
        return None  # (stated: the stated toss is taken)
    offense = _offense()
    for p in log.lines:
        for seat, text in p.moves:
            cards = _cards(text)
            if cards and seat in seats and set(cards) <= offense:
                return seat
        if p.moves:
            return None
    return None


def _played(log: ChanceLog, j: int, seat: str, player: str) -> str | None:
    """The card ``seat``'s ``player`` plays on the log's line ``j``: its code, ``""`` when the placement names
    none, ``None`` when the line has no placement of ``seat`` (or it does not read)."""
    for s, text in log.lines[j].moves:
        if s == seat:
            cards = _cards(text)
            if cards is not None and player in cards:
                return cards[player]
    return None


@lru_cache(maxsize=4096)
def _cards(text: str) -> dict[str, str] | None:
    """Each player's card in a placement's text (``""``: not named); ``None``: the text is no placement.  (What
    the cache saves: the seed search reads the same placements again under every seed it tries.)"""
    try:
        action = parse_action(text)
    except GameError:
        return None
    return {p.player: p.card or "" for p in action.placements} if isinstance(action, Placement) else None


#: an Agility card's roll as the engine reports it: ``QB A2-4@SR rolls 3``
_ROLLED = re.compile(r"([A-Z0-9]+) \S+@([A-Z]{2}) rolls ([0-9]+)")


def _agility(events: Sequence[Event]) -> list[tuple[str, str, str]]:
    """The exchange's Agility rolls (player, zone, roll), by player and zone (one player's rolls in one zone
    in the order rolled: play by play)."""
    rolls = [r for e in events if e.kind == "agility" for r in _ROLLED.findall(str(e.data["rolls"]))]
    return sorted(rolls, key=lambda r: (r[0], r[1]))


def _rolls(events: Sequence[Event]) -> dict[str, str]:
    """The dice of an exchange as the log states them: ``rolls QB@SR 3, WR1@DM 4`` (each Agility card's roll,
    by its player and zone), ``field goal roll 57``."""
    out: dict[str, str] = {}
    agility = _agility(events)
    if agility:
        out["rolls"] = ", ".join(f"{p}@{z} {n}" for p, z, n in agility)
    fg = [str(e.data["roll"]) for e in events if e.kind == "field_goal"]
    if fg:
        out["field goal roll"] = ", ".join(fg)
    return out


@dataclass(frozen=True, slots=True)
class _Series:
    """The series as gm's status line states it: who has the ball, the down and distance (``& goal``
    near the goal line: the yards are true too), and the spot (the line of scrimmage; at the 4th-down
    choice also where the ball now stands, BR-R-SPOT)."""

    offense: str
    down: str
    down_also: tuple[str, ...]
    spot: str
    spot_also: tuple[str, ...]


def _series(state: GameState[Any]) -> _Series | None:
    """The series under way (a play, or the 4th-down choice after the series' plays), ``None`` once the game is over."""
    assert isinstance(state, BrawlState)
    if state.phase not in (PLAY, FOURTH_DOWN):
        return None
    r = state.rules
    togo = min(r.first_down_yards, state.to_goal)
    goal = togo == state.to_goal and togo < r.first_down_yards
    play = state.play_no if state.phase == PLAY else r.series_cards + 1  # going for it is the next play
    down = f"{ordinal(play)} & {'goal' if goal else togo}"
    spot = state.field_text(state.los)
    now = state.field_text(state.fourth_spot) if state.phase == FOURTH_DOWN else spot
    return _Series(str(state.offense), down, (f"{ordinal(play)} & {togo}",) if goal else (), spot, (now,) if now != spot else ())


_ROLLS = re.compile(r"\brolls?\s*:?\s*((?:[a-z]{1,4}[0-9]?(?:\s*@\s*[a-z]{2})?\s*:?\s*[0-9]{1,3}\b[\s,;]*(?:and\s+)?)+)")
_ROLL = re.compile(r"([a-z]{1,4}[0-9]?)(?:\s*@\s*([a-z]{2}))?\s*:?\s*([0-9]{1,3})")
_FG_ROLL = re.compile(r"\bfield\s+goal\s+roll(?:s|ed)?\s*:?\s*([0-9]{1,3})\b")


def _claims(text: str) -> list[Claim]:
    out: list[Claim] = []
    if (m := _ROLLS.search(text)) is not None:
        rolls = _ROLL.findall(m.group(1))
        if all(z for _, z, _ in rolls):
            entries = [f"{p.upper()}@{z.upper()} {int(n)}" for p, z, n in sorted(rolls, key=lambda r: (r[0].upper(), r[1].upper()))]
            out.append(Claim("rolls", ", ".join(entries)))
        else:
            out.append(Claim("rolls by player", ", ".join(sorted(f"{p.upper()} {int(n)}" for p, _, n in rolls))))
    if (m := _FG_ROLL.search(text)) is not None:
        out.append(Claim("field goal roll", str(int(m.group(1)))))
    if (m := _TD.search(text)) is not None:
        out.append(Claim("touchdown", m.group(1)))
    if (m := _OFFENSE.search(text)) is not None:
        out.append(Claim("offense", m.group(1)))
    if (m := _DOWN.search(text)) is not None:
        out.append(Claim("down", f"{ordinal(int(m.group(1)))} & {m.group(2)}"))
    if (m := _SPOT.search(text)) is not None:
        out.append(Claim("spot", re.sub(r"\s+", " ", m.group(1))))
    if (m := _ROUND.search(text)) is not None:
        out.append(Claim("round", str(int(m.group(1)))))
    if (score := score_claim(text, ("home", "away"))) is not None:
        out.append(Claim("score", score))
    if (m := _FIRST.search(text)) is not None:
        out.append(Claim("first", m.group(1)))
    out += result_claims(text, _SEATS, "draw|tied game")
    return out


CHATLOG = BrawlChatLog()
