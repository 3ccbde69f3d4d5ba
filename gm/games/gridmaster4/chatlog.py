"""GridMaster4's move log for chatbot games (:mod:`gm.core.chatlog`).

One line per placement, then what is true after it::

    M5 orange: place 2 at K13 | orange active K13 | scores orange 2, magenta 1, lime 1, aqua 1

Claims the audit checks: ``SEAT active CELL CELL`` (the seat's active tiles), ``scores SEAT N,
...``, ``SEAT is blocked``, ``SEAT wins`` / ``draw``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.chatlog import Claim, Fact, ParsedLine, ViewChatLog
from gm.core.chatlog_text import move_pattern, read_line, result_claims
from gm.core.events import Event
from gm.core.state import GameState
from gm.games.gridmaster4.actions import parse_action
from gm.games.gridmaster4.rules import SEATS

# alike on purpose: the claim patterns of the other games' chatlog.py have this shape, but each reads its
# own game's words for its own claims; what every game words alike (the result, a called toss, a score) is
# read once, in gm.core.chatlog_text
_SEATS = "|".join(SEATS)
_CELL = r"[a-z][0-9]{1,2}"
_MOVE = move_pattern(_SEATS.split("|"))
_ACTIVE = re.compile(rf"\b({_SEATS})\s+active\s*:?\s*((?:{_CELL}\b[\s,]*)*|none)")
_SCORES = re.compile(r"\bscores?\b\s*:?\s*(.*)")
_SEAT_SCORE = re.compile(rf"\b({_SEATS})\s*:?\s*([0-9]{{1,4}})\b")
_BLOCKED = re.compile(rf"\b({_SEATS})\s+(?:is\s+)?(?:now\s+)?blocked\b")
#: a row of the session template's players table, cleaned: seat | colour | score | next tile | status | active tiles
_PLAYER_ROW = re.compile(rf"^({_SEATS}) \| [a-z ]+ \| ([0-9]{{1,4}}) \| [0-9-]{{1,4}} \| (playing|blocked) \| ?(.*)$")


class GridMaster4ChatLog(ViewChatLog):
    """The move log of GridMaster4."""

    example_moves = (
        ("orange", "place 1 at H13"), ("magenta", "place 1 at H8"), ("lime", "place 1 at L7"), ("aqua", "place 1 at I9"),
        ("orange", "place 2 at K13"),
    )  # fmt: skip

    def closes(self, state: GameState[Any], events: Sequence[Event]) -> bool:
        return True  # every placement is a line of its own

    def format_line(self, state: GameState[Any], moves: Sequence[tuple[str, Action]], events: Sequence[Event], number: int) -> str:
        snap = state.snapshot()
        seat = moves[0][0]
        players = {p["seat"]: p for p in snap["players"]}
        parts = [f"{seat}: {', '.join(str(a) for _, a in moves)}"]
        active = players[seat]["active_tiles"]
        parts.append(f"{seat} active {' '.join(active) if active else 'none'}")
        for e in events:
            if e.kind == "blocked":
                parts.append(f"{e.data['seat']} is blocked")
        parts.append("scores " + ", ".join(f"{s} {p['score']}" for s, p in players.items()))
        if state.outcome is not None:
            parts.append(state.outcome.verdict)
        return f"M{number} " + " | ".join(parts)

    def parse_line(self, text: str) -> ParsedLine | None:
        return read_line(text.replace("lime green", "lime"), parse_action, _claims, _MOVE, separators=",;")

    def final_claims(self, lines: Sequence[tuple[int, str]]) -> list[tuple[int, Claim]]:
        """The session template's players table: each player's score, status and active tiles."""
        found: dict[str, tuple[int, Claim]] = {}
        for number, text in lines:
            m = _PLAYER_ROW.match(text)
            if m is None:
                continue
            seat, score, status, active = m.group(1), m.group(2), m.group(3), m.group(4)
            cells = sorted(c.upper() for c in re.findall(_CELL, active))
            found[f"score {seat}"] = (number, Claim(f"score {seat}", str(int(score))))
            found[f"status {seat}"] = (number, Claim(f"status {seat}", status))
            found[f"active {seat}"] = (number, Claim(f"active {seat}", " ".join(cells) or "none"))
        return sorted(found.values(), key=lambda nc: nc[0])

    def view(self, state: GameState[Any]) -> dict[str, Any]:
        return state.snapshot()

    def fact_in(self, key: str, state: GameState[Any], events: Sequence[Event], snap: dict[str, Any]) -> Fact | None:
        players = {p["seat"]: p for p in snap["players"]}
        placed = next((e.rule for e in events if e.kind == "placed"), "GM4-MOVE")
        kind, _, seat = key.partition(" ")
        if seat not in players and kind != "result":
            return Fact("not playing", "GM4-TURN")
        if kind == "active":
            active = players[seat]["active_tiles"]
            rule = "GM4-DEACTIVATE" if any(e.kind == "deactivated" for e in events) else placed
            return Fact(" ".join(sorted(active)) or "none", rule)
        if kind == "score":
            return Fact(str(players[seat]["score"]), "GM4-SCORE")
        if kind == "status":
            blocked = next((e.rule for e in events if e.kind == "blocked" and e.data["seat"] == seat), "GM4-BLOCKED")
            return Fact(str(players[seat]["status"]), blocked)
        if kind == "result":
            return self.result_fact(state, "not over", "GM4-WIN-BLOCKED")
        return None


def _claims(text: str) -> list[Claim]:
    out: list[Claim] = []
    for m in _ACTIVE.finditer(text):
        cells = sorted(c.upper() for c in re.findall(_CELL, m.group(2)))
        out.append(Claim(f"active {m.group(1)}", " ".join(cells) or "none"))
    for seg in text.split("|"):
        if (sm := _SCORES.search(seg)) is not None:
            for s in _SEAT_SCORE.finditer(sm.group(1)):
                out.append(Claim(f"score {s.group(1)}", str(int(s.group(2)))))
    for b in _BLOCKED.finditer(text):
        out.append(Claim(f"status {b.group(1)}", "blocked"))
    out += result_claims(text, _SEATS, "draw|tie")
    return out


CHATLOG = GridMaster4ChatLog()
