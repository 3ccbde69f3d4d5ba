"""Grid Football's move log for chatbot games (:mod:`gm.core.chatlog`).

One line per exchange, the seats' moves first, then what is true after it::

    Toss | home: heads | coin tails, away wins the toss
    Choice | away: receive
    Kickoff | home: left yellow | away: center red | ball F20, away 1st & 10 | Q1, 16 downs left | score home 0-0 away
    D1 away: play 1 red 2 right before | home: play 3 black | ball H26, away 2nd & 4 | blocked H26 | Q1, 15 downs left | score home 0-0 away
    D4 away: punt, left red | home: center yellow | ball E40, home 1st & 10 | ...

A down's number check or a kick's return number check stays on its line
(``home: play 2 red, number 3 | away: play 1 red, number 8``).  Claims the audit checks:
``ball K20``, ``[home] 2nd & 4`` / ``1st & goal``, ``blocked K20`` (any squares after the word),
``Q2``, ``9 downs left``, ``score home 7-0 away``, ``touchdown home``, ``coin heads``,
``home wins the toss``, ``home wins`` / ``draw``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.chatlog import ChatLog, Claim, Fact, ParsedLine, Stated, move_segments, stated_coin, toss_fact
from gm.core.chatlog_text import coin_claims, move_pattern, read_line, result_claims, score_claim, squares, table_score
from gm.core.events import Event
from gm.core.state import GameState
from gm.core.wording import ordinal
from gm.games.grid_football.actions import parse_action
from gm.games.grid_football.engine import (
    AWAY,
    HOME,
    KICKOFF,
    NUMBER_CHECK,
    PLAY,
    PUNT,
    RETURN_NUMBER,
    GridFootballState,
    parse_square,
    plural,
    sq,
)

# alike on purpose: the claim patterns of the other games' chatlog.py have this shape, but each reads its
# own game's words for its own claims; what every game words alike (the result, a called toss, a score) is
# read once, in gm.core.chatlog_text
_SEATS = r"home|away"
_MOVE = move_pattern(_SEATS.split("|"))
_BALL = re.compile(r"\bball\s*(?:is\s+)?(?:at\s+|on\s+)?([a-z][0-9]{1,2})\b")
_DOWN = re.compile(rf"(?:\b({_SEATS})\s+(?:ball\s*,?\s*)?)?\b([1-9])(?:st|nd|rd|th)\s*(?:&|and)\s*([0-9]{{1,2}}|goal)\b")
_OFFENSE = re.compile(rf"\b({_SEATS})\s+ball\b|\boffense\s*:?\s*({_SEATS})\b")
_BLOCKED = re.compile(r"\bblocked\b\s*(?:squares?)?\s*:?\s*((?:[a-z][0-9]{1,2}\b[\s,and]*)+)")
_NOW_BLOCKED = re.compile(r"\b([a-z][0-9]{1,2})\s+(?:is\s+)?(?:now\s+)?blocked\b")
_QUARTER = re.compile(r"\b(?:q|quarter\s*)([1-9])\b")
_DOWNS_LEFT = re.compile(r"\b([0-9]{1,3})\s+downs?\s+left\b")
_TD = re.compile(rf"\b(?:touchdown|td)\s*:?\s*({_SEATS})\b|\b({_SEATS})\s+(?:scores|touchdown)\b")
_ROW = re.compile(r"^([a-z][a-z ]{2,30}) \| (.+)$")  # a status table row, cleaned: "ball | k37"
_BLOCKED_LIST = re.compile(r"^[0-9]{1,4} blocked\s*:\s*(.+)$")


class GridFootballChatLog(ChatLog):
    """The move log of Turn-Based Grid Football."""

    secret_picks = (
        "play calls, kick and punt picks and number picks are secret and simultaneous; in a chatbot they are on "
        "the honour system (the chatbot sees both, and whoever answers second may have read the first)"
    )
    chance_keys = frozenset({"coin", "toss"})
    example_moves = (
        ("away", "heads"), ("home", "receive"), ("away", "left red"), ("home", "left yellow"),
        ("home", "play 1 red 2 right before"), ("away", "play 3 black"), ("home", "play 2 black"), ("away", "play 1 red"),
    )  # fmt: skip

    # ------------------------------------------------------------ writing
    def stated(self, line: ParsedLine) -> list[Stated]:
        """The coin: the flip the line states, or the one its winner and the call give."""
        return stated_coin(line)

    def closes(self, state: GameState[Any], events: Sequence[Event]) -> bool:
        assert isinstance(state, GridFootballState)
        return not state.pending and state.phase not in (PUNT, NUMBER_CHECK, RETURN_NUMBER)

    def format_line(self, state: GameState[Any], moves: Sequence[tuple[str, Action]], events: Sequence[Event], number: int) -> str:
        assert isinstance(state, GridFootballState)
        kinds = {e.kind for e in events}
        parts = move_segments(moves)
        if "coin_toss" in kinds:
            label = "Toss"
        elif "kick_choice" in kinds:
            label = "Half" if any(e.rule == "GF-TOSS-2H" for e in events) else "Choice"
        elif "kick" in kinds and "play_reveal" not in kinds and "punt_called" not in kinds:
            label = "Kickoff"
        else:
            label = f"D{(state.quarter - 1) * state.rules.downs_per_quarter + state.quarter_downs + _last_down(state, events)}"
        claims: list[str] = []
        for e in events:
            if e.kind == "coin_toss":
                claims.append(f"coin {e.data['flip']}, {e.data['winner']} wins the toss")
            elif e.kind == "touchdown":
                claims.append(f"touchdown {e.data['team']}")
        if state.outcome is not None:
            claims.append(state.outcome.verdict)
        if "coin_toss" not in kinds and "kick_choice" not in kinds:
            where = f"ball {sq(state.ball)}" if state.ball else "no ball"
            if state.offense and state.phase == PLAY:
                where += f", {state.offense} {state.down_and_distance()}"
            elif state.phase == KICKOFF:
                where += f", {state.kicker} kicks off"
            claims.append(where)
            new = _new_blocks(events)
            if new:
                claims.append("blocked " + " ".join(new))
            left = state.downs_left_in_quarter - _last_down(state, events)
            claims.append(f"Q{state.quarter}, {left} {plural(left, 'down')} left")
            claims.append(f"score home {state.score[HOME]}-{state.score[AWAY]} away")
        return f"{label} " + " | ".join(parts + claims)

    # ------------------------------------------------------------ reading
    def parse_line(self, text: str) -> ParsedLine | None:
        return read_line(text, parse_action, _claims, _MOVE)

    def final_claims(self, lines: Sequence[tuple[int, str]]) -> list[tuple[int, Claim]]:
        """The session template's status table (ball, down and distance, score, quarter) and its list
        of blocked squares."""
        found: dict[str, tuple[int, Claim]] = {}
        for number, text in lines:
            row = _ROW.match(text)
            if row is not None:
                item, value = row.group(1).strip(), row.group(2).strip()
                if item == "ball" and (sq_ := re.fullmatch(r"[a-z][0-9]{1,2}", value)):
                    found["ball"] = (number, Claim("ball", sq_.group(0).upper()))
                elif item == "down and distance" and (d := _DOWN.search(value)) is not None:
                    found["down"] = (number, Claim("down", _down_text(d.group(2), d.group(3))))
                elif item == "score" and (score := table_score(value, (HOME, AWAY))):
                    found["score"] = (number, Claim("score", score))
                elif item == "quarter" and (q := re.match(r"([0-9])\b", value)):
                    found["quarter"] = (number, Claim("quarter", q.group(1)))
            elif (b := _BLOCKED_LIST.match(text)) is not None:
                found["blocked list"] = (number, Claim("blocked list", " ".join(sorted(squares(b.group(1))))))
            elif text == "no blocked squares yet.":
                found["blocked list"] = (number, Claim("blocked list", "none"))
        return sorted(found.values(), key=lambda nc: nc[0])

    def fact(self, key: str, state: GameState[Any], events: Sequence[Event]) -> Fact | None:
        assert isinstance(state, GridFootballState)
        rule_of = {e.kind: e.rule for e in events}
        if key == "ball":
            stops = [e.rule for e in events if e.kind == "stopped"]
            rule = stops[-1] if stops else next(
                (rule_of[k] for k in ("touchdown", "incomplete", "play_result", "colour_match", "turnover", "kick_return", "kick")
                 if k in rule_of), "GF-DIRECTION")  # fmt: skip
            return Fact(sq(state.ball) if state.ball else "none", rule)
        if key in ("down", "offense"):
            rule = next((rule_of[k] for k in ("turnover", "first_down", "first_and_ten", "down") if k in rule_of), "GF-DOWNS")
            if key == "offense":
                return Fact(state.offense or "none", rule)
            return Fact(str(state.down_and_distance()) if state.offense is not None else "no down", rule)
        if key == "blocked list":
            return Fact(" ".join(sorted(sq(b) for b in state.blocked)) or "none", "GF-BLOCK")
        if key.startswith("blocked "):
            at = key.split()[1]
            return Fact("blocked" if at in {sq(b) for b in state.blocked} else "not blocked", "GF-BLOCK")
        if key == "quarter":
            return Fact(str(state.quarter), "GF-QUARTERS")
        if key == "downs left":
            return Fact(str(state.downs_left_in_quarter - _last_down(state, events)), "GF-R-DOWN-COUNT")
        if key == "score":
            return Fact(f"home {state.score[HOME]}-{state.score[AWAY]} away", "GF-TD")
        if key == "touchdown":
            teams = [str(e.data["team"]) for e in events if e.kind == "touchdown"]
            return Fact(teams[-1] if teams else "none", "GF-TD")
        if key in ("coin", "toss"):
            return toss_fact(key, state, events, "GF-TOSS")
        if key == "result":
            return self.result_fact(state, "game not over", "GF-QUARTERS")
        return None


def _last_down(state: GridFootballState, events: Sequence[Event]) -> int:
    """1 when the exchange's play or punt ended the game with a touchdown (first touchdown wins): that down
    is one of the quarter's (GF-R-DOWN-COUNT) though the finished game counts no more downs; else 0."""
    if state.outcome is None or state.rules.win != "first_touchdown":
        return 0
    kinds = {e.kind for e in events}
    return int("touchdown" in kinds and bool(kinds & {"play_reveal", "punt_called"}))


def _new_blocks(events: Sequence[Event]) -> list[str]:
    """The squares the exchange blocked, where they are after it (a switch of ends mirrors them)."""
    out: list[str] = []
    for i, e in enumerate(events):
        if e.kind != "blocked":
            continue
        col, row = parse_square(str(e.data["at"]))
        for later in events[i + 1 :]:
            if later.kind == "switch_ends":
                row = int(later.data["m"]) - row
        out.append(sq((col, row)))
    return out


def _down_text(down: str, togo: str) -> str:
    """``2nd & 4`` (down and distance as the engine words them)."""
    return f"{ordinal(int(down))} & {togo}"


def _claims(text: str) -> list[Claim]:
    """Every claim in the non-move part of a line, in a fixed order of keys."""
    out: list[Claim] = []
    out += coin_claims(text, _SEATS)
    if (m := _TD.search(text)) is not None:
        out.append(Claim("touchdown", m.group(1) or m.group(2)))
    if (m := _BALL.search(text)) is not None:
        out.append(Claim("ball", m.group(1).upper()))
    elif re.search(r"\bno ball\b", text):
        out.append(Claim("ball", "none"))
    if (m := _DOWN.search(text)) is not None:
        seat, down, togo = m.groups()
        if seat:
            out.append(Claim("offense", seat))
        out.append(Claim("down", _down_text(down, togo)))
    elif (m := _OFFENSE.search(text)) is not None:
        out.append(Claim("offense", m.group(1) or m.group(2)))
    seen: set[str] = set()
    for m in [*_BLOCKED.finditer(text), *_NOW_BLOCKED.finditer(text)]:
        for at in squares(m.group(1)):
            if at not in seen:
                seen.add(at)
                out.append(Claim(f"blocked {at}", "blocked"))
    if (m := _QUARTER.search(text)) is not None:
        out.append(Claim("quarter", m.group(1)))
    if (m := _DOWNS_LEFT.search(text)) is not None:
        out.append(Claim("downs left", str(int(m.group(1)))))
    if (score := score_claim(text, ("home", "away"))) is not None:
        out.append(Claim("score", score))
    out += result_claims(text, _SEATS, "draw|tied game|game tied", toss=True)
    return out


CHATLOG = GridFootballChatLog()
