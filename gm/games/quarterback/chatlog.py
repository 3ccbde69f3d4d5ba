"""Quarter Back's move log for chatbot games (:mod:`gm.core.chatlog`).

One line per turn: the side's actions in order, then what is true after the turn::

    T1 blue: move QB E-2-F-1-G-1-H-2, end | ball H-2 (QB) | blue QB H-2 | game 1 half 1, score red 0-0 blue | blue won the toss
    T2 red: move D2 G1-H1-H0, move T2 H4-H1 | ball H-2 (QB) | red D2 H0, red T2 H1 | game 1 half 1, score red 0-0 blue

Claims the audit checks: ``ball SQUARE`` (or ``ball loose SQUARE``), ``SEAT PIECE SQUARE`` for any
piece, ``game G half H``, ``score red R-B blue`` (the points of the game the turn was played in),
``SEAT scores N``, ``SEAT won the toss`` and ``SEAT wins`` / ``draw``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.chatlog import Claim, Fact, ParsedLine, Stated, ViewChatLog
from gm.core.chatlog_text import move_pattern, read_line, result_claims, score_claim, status_rows
from gm.core.events import Event
from gm.core.state import GameState
from gm.games.quarterback.actions import MovePiece, parse_action

# alike on purpose: the claim patterns of the other games' chatlog.py have this shape, but each reads its
# own game's words for its own claims; what every game words alike (the result, a called toss, a score) is
# read once, in gm.core.chatlog_text
_SEATS = r"red|blue"
_SQ = r"[a-z]-?[0-9]{1,2}"
_MOVE = move_pattern(_SEATS.split("|"))
#: ``ball H-2``, ``ball loose E4``; gm's status line: ``ball: red Quarterback QB on H-2``, ``ball: loose on E4``
_BALL = re.compile(rf"\bball\s*:?\s*(?:is\s+)?(loose\s+)?(?:(?:{_SEATS})\s+[a-z]+\s+(?:qb|[sdt][1-9])\s+)?(?:at\s+|on\s+)?({_SQ})\b")
_PIECE = re.compile(rf"\b({_SEATS})\s+(qb|[sdt][1-9])\s*(?:at|on|:)?\s*({_SQ})\b")
_HALF = re.compile(r"\bgame\s*([0-9])(?:\s*/\s*[0-9])?\s*,?\s*half\s*([0-9])\b")
#: gm's status line: the points of each game so far (``game 1: red 0 - 9 blue``)
_GAME_SCORE = re.compile(rf"\bgame\s*([0-9])\s*:\s*(?:({_SEATS})\s*([0-9]{{1,3}})\s*-\s*([0-9]{{1,3}})\s*({_SEATS}))")
_SCORES = re.compile(rf"\b({_SEATS})\s+scores\s+([0-9]{{1,3}}|nothing)\b")
_TOSS = re.compile(rf"\b({_SEATS})\s+(?:won|wins)\s+the\s+(?:coin\s+)?toss\b|\b({_SEATS})\s+attacks\s+first\b")
_ENDS = frozenset({"end_turn", "turn_done", "score", "half_start", "game_over", "match_over"})


class QuarterbackChatLog(ViewChatLog):
    """The move log of Quarter Back."""

    chance_keys = frozenset({"toss"})
    example_moves = (("blue", "move QB E-2-F-1-G-1-H-2"), ("blue", "end"), ("red", "move D2 G1-H1-H0"), ("red", "move T2 H4-H1"))

    def closes(self, state: GameState[Any], events: Sequence[Event]) -> bool:
        return state.is_terminal or any(e.kind in _ENDS for e in events)

    def stated(self, line: ParsedLine) -> list[Stated]:
        """Who won the toss (and so attacks first)."""
        return [Stated("toss", c.said) for c in line.claims if c.key == "toss"]

    def ends_turn(self, state: GameState[Any], seat: str) -> str | None:
        """``end``: a side whose line is followed by the other side's ended its turn (chatbots leave the
        ``, end`` out)."""
        return "end"

    def format_line(self, state: GameState[Any], moves: Sequence[tuple[str, Action]], events: Sequence[Event], number: int) -> str:
        snap = state.snapshot()
        seat = moves[0][0]
        parts = [f"{seat}: {', '.join(str(a) for _, a in moves)}"]
        ball = snap["ball"]
        scored = any(e.kind == "score" for e in events)  # the pieces are set up again: say only the score
        if ball["square"] and not scored:
            parts.append(f"ball loose {ball['square']}" if ball["loose"] else f"ball {ball['square']} ({ball['carrier']})")
        moved = []
        for s, a in moves:
            if isinstance(a, MovePiece) and a.piece in snap["pieces"][s] and f"{s} {a.piece}" not in moved:
                moved.append(f"{s} {a.piece}")
        if moved and not scored:
            parts.append(", ".join(f"{m} {snap['pieces'][m.split()[0]][m.split()[1]]}" for m in moved))
        for e in events:
            if e.kind == "score":
                parts.append(f"{e.data['attacker']} scores {e.data['points']}")
        game, half = _game_half(snap, events)
        red, blue = _points(snap, events)
        parts.append(f"game {game} half {half}, score red {red}-{blue} blue")
        if number == 1 and state.rules.first_attacker == "toss":
            parts.append(f"{snap['first_attacker']} won the toss")
        if state.outcome is not None:
            parts.append(state.outcome.verdict)
        return f"T{number} " + " | ".join(parts)

    def parse_line(self, text: str) -> ParsedLine | None:
        return read_line(text, parse_action, _claims, _MOVE, separators=",;")

    def final_claims(self, lines: Sequence[tuple[int, str]]) -> list[tuple[int, Claim]]:
        """The session template's ball row (``QB on E-2``, or a loose ball's square)."""
        rows = status_rows(lines)
        if "ball" in rows and (m := re.search(rf"\b({_SQ})$", rows["ball"][1])):
            return [(rows["ball"][0], Claim("ball", m.group(1).upper()))]
        return []

    def view(self, state: GameState[Any]) -> dict[str, Any]:
        return state.snapshot()

    def fact_in(self, key: str, state: GameState[Any], events: Sequence[Event], snap: dict[str, Any]) -> Fact | None:
        rule = next((e.rule for e in reversed(events) if e.kind in ("move", "push", "pass", "tackle", "intercept")), "QB-R-END")
        if key == "ball":
            return Fact(str(snap["ball"]["square"] or "none"), rule)
        if key.startswith("piece "):
            _, seat, pid = key.split()
            return Fact(snap["pieces"][seat].get(pid.upper(), "off the board"), rule)
        if key == "half":  # the half the turn was played in; after a score also the half now begun
            game, half = _game_half(snap, events)
            now = f"game {snap['game']} half {snap['half']}"
            return Fact(f"game {game} half {half}", "QB-HALVES", (now,) if now != f"game {game} half {half}" else ())
        if key.startswith("score game "):
            n = int(key.rsplit(" ", 1)[1])
            pts = snap["points"][n - 1] if 0 < n <= len(snap["points"]) else {"red": 0, "blue": 0}
            return Fact(f"red {pts['red']}-{pts['blue']} blue", next((e.rule for e in events if e.kind == "score"), "QB-SCORE"))
        if key == "score":
            red, blue = _points(snap, events)
            return Fact(f"red {red}-{blue} blue", next((e.rule for e in events if e.kind == "score"), "QB-SCORE"))
        if key == "scores":
            scored = [e for e in events if e.kind == "score"]
            if not scored:
                return Fact("no score", "QB-SCORE")
            return Fact(f"{scored[-1].data['attacker']} {scored[-1].data['points']}", scored[-1].rule)
        if key == "toss":
            return Fact(str(snap["first_attacker"]), "QB-TOSS")
        if key == "result":
            return self.result_fact(state, "not over", "QB-WIN")
        return None


def _game_half(snap: dict[str, Any], events: Sequence[Event]) -> tuple[int, int]:
    """The game and half the turn was played in (the half that just ended, if one did)."""
    if any(e.kind == "score" for e in events) and snap["results"]:
        last = snap["results"][-1]
        return int(last["game"]), int(last["half"])
    return int(snap["game"]), int(snap["half"])


def _points(snap: dict[str, Any], events: Sequence[Event]) -> tuple[int, int]:
    game, _ = _game_half(snap, events)
    pts = snap["points"][game - 1] if len(snap["points"]) >= game else {"red": 0, "blue": 0}
    return int(pts["red"]), int(pts["blue"])


def _claims(text: str) -> list[Claim]:
    out: list[Claim] = []
    if (m := _BALL.search(text)) is not None:
        out.append(Claim("ball", m.group(2).upper()))
    for m in _PIECE.finditer(text):
        out.append(Claim(f"piece {m.group(1)} {m.group(2).upper()}", m.group(3).upper()))
    if (m := _HALF.search(text)) is not None:
        out.append(Claim("half", f"game {m.group(1)} half {m.group(2)}"))
    for m in _GAME_SCORE.finditer(text):
        pairs = {m.group(2): m.group(3), m.group(5): m.group(4)}
        out.append(Claim(f"score game {m.group(1)}", f"red {pairs.get('red', '?')}-{pairs.get('blue', '?')} blue"))
    if (score := score_claim(text, ("red", "blue"), bare=False)) is not None:
        out.append(Claim("score", score))
    if (m := _SCORES.search(text)) is not None:
        out.append(Claim("scores", f"{m.group(1)} {0 if m.group(2) == 'nothing' else int(m.group(2))}"))
    if (m := _TOSS.search(text)) is not None:
        out.append(Claim("toss", m.group(1) or m.group(2)))
    out += result_claims(text, _SEATS, "draw|drawn", toss=True)
    return out


CHATLOG = QuarterbackChatLog()
