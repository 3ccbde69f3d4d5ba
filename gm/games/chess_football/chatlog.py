"""Chess-Football's move log for chatbot games (:mod:`gm.core.chatlog`).

One line per exchange (a move, or the two secret picks that reveal together: captains, snap
plans), then what is true after it, as a spectator sees it::

    T4 away: plan: DT to L34 C; QB pass to DT | home: plan: SF to K33 C | ball O31 (DT), away 1st & 4 at row 37 | half 1, score home 0-0 away

Claims the audit checks: ``ball SQUARE (PIECE)``, ``[SEAT] 1st & 4``, ``at row N`` (the line of
scrimmage), ``half N`` (or ``overtime``), ``score home H-A away``, ``coin heads``, ``SEAT wins the
toss``, ``touchdown SEAT``, ``SEAT wins`` / ``draw``.  The engine rolls its own dice (passes,
collisions): a chatbot's rolls are not gm's, so results that hang on a roll may differ.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.chatlog import Claim, Fact, ParsedLine, Stated, ViewChatLog, move_segments, stated_coin, toss_fact
from gm.core.chatlog_text import coin_claims, move_pattern, read_line, result_claims, score_claim, score_row
from gm.core.events import Event
from gm.core.state import GameState
from gm.core.wording import ordinal
from gm.games.chess_football.actions import parse_action
from gm.games.chess_football.engine import ChessFootballState

# alike on purpose: the claim patterns of the other games' chatlog.py have this shape, but each reads its
# own game's words for its own claims; what every game words alike (the result, a called toss, a score) is
# read once, in gm.core.chatlog_text
_SEATS = r"home|away"
_MOVE = move_pattern(_SEATS.split("|"))
_BALL = re.compile(r"\bball\s*(?:is\s+)?(?:at\s+|on\s+)?([a-z][0-9]{1,2})\b")
_DOWN = re.compile(rf"(?:\b({_SEATS})\s+)?\b([1-9])(?:st|nd|rd|th)\s*(?:&|and)\s*([0-9]{{1,2}}|goal)\b")
_LOS = re.compile(r"\bat\s+row\s+([0-9]{1,2})\b")
_PERIOD = re.compile(r"\b(half\s*[0-9]|overtime(?:\s*[0-9])?)\b")
_TD = re.compile(rf"\b(?:touchdown|td)\s*:?\s*({_SEATS})\b")


class ChessFootballChatLog(ViewChatLog):
    """The move log of the Chess-Football Hybrid."""

    secret_picks = (
        "captain picks and snap plans are secret and simultaneous, and who holds a hidden ball after play action is "
        "secret; in a chatbot they are on the honour system (the chatbot sees everything)"
    )
    chance_keys = frozenset({"coin", "toss", "pass roll", "collision"})
    roll_keys = frozenset({"pass roll", "collision"})
    example_moves = (("away", "captains deep_threat safety"), ("home", "captains deep_threat safety"), ("away", "tails"))

    def closes(self, state: GameState[Any], events: Sequence[Event]) -> bool:
        """A line ends when no secret pick waits for its pair (a hidden ball may stay hidden longer)."""
        assert isinstance(state, ChessFootballState)
        return not state.pending

    def stated(self, line: ParsedLine) -> list[Stated]:
        """The coin (the flip the line states, or the one its winner and the call give), each pass roll and
        each collision's two dice (the moving piece's first)."""
        said = {c.key: c.said for c in line.claims}
        out = stated_coin(line)
        out += [Stated("pass roll", int(n)) for n in said.get("pass roll", "").replace(",", " ").split()]
        for a, x, b, y in _COLLIDE.findall(said.get("collision", "").lower()):
            out += [Stated("collision roll", int(x), a.upper()), Stated("collision roll", int(y), b.upper())]
        return out

    def ends_turn(self, state: GameState[Any], seat: str) -> str | None:
        """``done``: a side whose reaction-turn line is followed by the other side's is done."""
        return "done"

    def format_line(self, state: GameState[Any], moves: Sequence[tuple[str, Action]], events: Sequence[Event], number: int) -> str:
        parts = move_segments(moves)
        v = state.view(None)
        for e in events:
            if e.kind == "coin_toss":
                parts.append(f"coin {e.data['flip']}, {e.data['winner']} wins the toss")
            elif e.kind == "touchdown":
                parts.append(f"touchdown {e.data['team']}")
        parts += [f"{k} {said}" for k, said in _rolls(events).items()]
        ball = v.get("ball") or {}
        if ball.get("square") and v.get("offense"):
            where = f"ball {ball['square']} ({ball['carrier']})" if ball.get("carrier") else f"ball {ball['square']}"
            parts.append(f"{where}, {_down(v)}")
        if v.get("period"):
            parts.append(f"{v['period']}, score home {v['score']['home']}-{v['score']['away']} away")
        if state.outcome is not None:
            parts.append(state.outcome.verdict)
        return f"T{number} " + " | ".join(parts)

    def parse_line(self, text: str) -> ParsedLine | None:
        return read_line(text, parse_action, _claims, _MOVE)

    def final_claims(self, lines: Sequence[tuple[int, str]]) -> list[tuple[int, Claim]]:
        """The session template's score row."""
        return score_row(lines, ("home", "away"))

    def fact_in(self, key: str, state: GameState[Any], events: Sequence[Event], v: dict[str, Any]) -> Fact | None:
        play = next((e.rule for e in reversed(events) if e.kind not in ("down", "locked")), "CF-MOVEMENT")
        if key == "ball":
            ball = v.get("ball") or {}
            return Fact(str(ball.get("square") or "none"), play)
        if key in ("down", "offense", "los"):
            rule = next((e.rule for e in reversed(events) if e.kind in ("turnover", "down", "drive_start")), "CF-FIRST-DOWN")
            if key == "offense":
                return Fact(str(v.get("offense") or "none"), rule)
            if key == "los":
                return Fact(str(v.get("line_of_scrimmage")), rule)
            return Fact(_down(v, seat=False) if v.get("offense") else "no down", rule)
        if key == "period":
            return Fact(str(v.get("period")), "CF-POSSESSIONS")
        if key == "score":
            rule = next((e.rule for e in events if e.kind in ("touchdown", "safety")), "CF-TOUCHDOWN")
            return Fact(f"home {v['score']['home']}-{v['score']['away']} away", rule)
        if key == "touchdown":
            teams = [str(e.data["team"]) for e in events if e.kind == "touchdown"]
            return Fact(teams[-1] if teams else "none", "CF-TOUCHDOWN")
        if key in ("coin", "toss"):
            return toss_fact(key, state, events, "CF-COIN-TOSS")
        if key in self.roll_keys:
            return Fact(_rolls(events).get(key, "no roll"), "CF-PASS" if key == "pass roll" else "CF-COLLISION")
        if key == "result":
            return self.result_fact(state, "game not over", "CF-WIN")
        return None


def _rolls(events: Sequence[Event]) -> dict[str, str]:
    """The dice of an exchange as the log states them: ``pass roll 5`` (each pass thrown), ``collision DT 4 SF 2``
    (the mover's die, then the other piece's)."""
    out: dict[str, list[str]] = {}
    for e in events:
        if e.kind == "pass":
            out.setdefault("pass roll", []).append(str(e.data["roll"]))
        elif e.kind == "collision" and "a" in e.data:
            out.setdefault("collision", []).append(f"{e.data['mover']} {e.data['a']} {e.data['occ']} {e.data['b']}")
    return {k: ", ".join(v) for k, v in out.items()}


def _down(v: dict[str, Any], seat: bool = True) -> str:
    text = f"{ordinal(int(v['down']))} & {v['to_go']}"
    return f"{v['offense']} {text} at row {v['line_of_scrimmage']}" if seat else text


_PASS_ROLL = re.compile(r"\bpass\s+roll(?:s|ed)?\s*:?\s*((?:[0-9]{1,2}\b[\s,]*(?:and\s+)?)+)")
_COLLISION = re.compile(r"\bcollision\s*:?\s*((?:[a-z]{1,3}[0-9]?\s+[0-9]{1,2}\s+[a-z]{1,3}[0-9]?\s+[0-9]{1,2}[\s,]*)+)")
_COLLIDE = re.compile(r"([a-z]{1,3}[0-9]?)\s+([0-9]{1,2})\s+([a-z]{1,3}[0-9]?)\s+([0-9]{1,2})")


def _claims(text: str) -> list[Claim]:
    out: list[Claim] = []
    if (m := _PASS_ROLL.search(text)) is not None:
        out.append(Claim("pass roll", ", ".join(str(int(n)) for n in re.findall(r"[0-9]+", m.group(1)))))
    if (m := _COLLISION.search(text)) is not None:
        out.append(Claim("collision", ", ".join(f"{a.upper()} {int(x)} {b.upper()} {int(y)}" for a, x, b, y in _COLLIDE.findall(m.group(1)))))
    out += coin_claims(text, _SEATS)
    if (m := _TD.search(text)) is not None:
        out.append(Claim("touchdown", m.group(1)))
    if (m := _BALL.search(text)) is not None:
        out.append(Claim("ball", m.group(1).upper()))
    if (m := _DOWN.search(text)) is not None:
        seat, down, togo = m.groups()
        if seat:
            out.append(Claim("offense", seat))
        out.append(Claim("down", f"{ordinal(int(down))} & {togo}"))
    if (m := _LOS.search(text)) is not None:
        out.append(Claim("los", str(int(m.group(1)))))
    if (m := _PERIOD.search(text)) is not None:
        out.append(Claim("period", re.sub(r"\s+", " ", m.group(1).replace("half", "half "))))
    if (score := score_claim(text, ("home", "away"))) is not None:
        out.append(Claim("score", score))
    out += result_claims(text, _SEATS, "draw|tied game", toss=True)
    return out


CHATLOG = ChessFootballChatLog()
