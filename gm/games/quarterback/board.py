"""ASCII rendering of the Quarter Back board, always seen from the attacker's side.

Pieces are ``Q`` Quarterback, ``S`` Single, ``D`` Double, ``T`` Triple: UPPER
case for the attacker, lower case for the defender; ``*`` marks the ball carrier
and ``o`` a loose ball on an empty square.  The line of scrimmage is the ``=``
line between rows 0 and 1; the numbered rows and the column points (what a
tackle there scores: row + column) are printed beside the board.  The full board
names every piece (``T1``, ``s2``); the compact one (for the LLM) uses one
letter a square and lists the pieces below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.games.quarterback.rules import KIND_NAMES, QuarterbackRules

if TYPE_CHECKING:
    from collections.abc import Callable

    from gm.games.quarterback.engine import Piece, QuarterbackState, Square

LEGEND = "Q quarterback  S single  D double  T triple; UPPER = attacker, lower = defender; * has the ball; o loose ball"


def _col(c: int) -> str:
    return chr(ord("A") + c)


def _name(square: Square) -> str:
    return f"{_col(square[0])}{square[1]}"


def _label(state: QuarterbackState, pid: str, seat: str) -> str:
    return pid if seat == state.attacker else pid.lower()


def _ball_text(state: QuarterbackState) -> str:
    if state.carrier is not None:
        at = state.pos[state.carrier]
        seat, pid = state.carrier
        return f"{seat} {KIND_NAMES[pid[0]]} {pid} on {_name(at)}, worth {state.value(at)} if tackled there"
    if state.loose is not None:
        return f"loose on {_name(state.loose)} (the first piece to reach it picks it up)"
    return "none"


def status_line(state: QuarterbackState, seat: str | None = None) -> str:
    """Game, half, round, who attacks, the ball, the score, whose move."""
    r = state.rules
    games = len(state.order) // 2
    score = " | ".join(
        f"game {g + 1}: red {p['red']} - {p['blue']} blue" for g, p in enumerate(state.points) if g < state.game_no
    )
    if state.outcome:
        parts = [f"FINAL: {state.outcome}", score]
        if r.format == "match":
            parts.append(f"game points red {state.game_points['red']} - {state.game_points['blue']} blue")
        return " | ".join(parts)
    parts = [
        f"game {state.game_no}/{games}, half {state.half_in_game}/2, round {state.round}/{r.max_rounds}",
        f"{state.attacker} attacks, {state.defender} defends",
        f"ball: {_ball_text(state)}",
        score,
    ]
    acting = state.to_act()
    if acting:
        turn = f"to act: {acting[0]} ({state.budget_left()} action{'s' if state.budget_left() != 1 else ''} left"
        if state.active and state.active_left > 0:
            turn += f"; {state.active} may move {state.active_left} more"
        parts.append(turn + ")")
    return " | ".join(parts)


def _cells(state: QuarterbackState) -> dict[Square, tuple[Piece, bool]]:
    return {sq: (p, p == state.carrier) for sq, p in state.board.items()}


def offside_text(rules: QuarterbackRules) -> str:
    """Where defending Doubles and Singles may not stand until the defense is released (QB-OFFSIDE-LINE):
    the rows over the line but the first, from the ruleset (the engine's ``offside`` is the rule)."""
    return f"kept off rows 2-{rules.field_rows} (row 1 and behind allowed) until an attacking Double or the QB crosses"


def _header(state: QuarterbackState, seat: str | None) -> list[str]:
    r = state.rules
    if state.outcome:
        return [f"Quarter Back - {'match' if r.format == 'match' else 'game'} over: {state.outcome}"]
    games = len(state.order) // 2
    you = f" - you are {seat}" if seat in state.seats else ""
    held = "released" if state.released else offside_text(r)
    return [
        f"Quarter Back - game {state.game_no} of {games}, half {state.half_in_game} of 2, round {state.round} of {r.max_rounds}{you}",
        f"{state.attacker} attacks ^ toward row {r.field_rows} (UPPER CASE); {state.defender} defends (lower case)",
        f"defending Doubles and Singles: {held}",
    ]


def render(state: QuarterbackState, seat: str | None = None, *, full: bool = False) -> str:
    """The board as text: ``full`` names every piece; otherwise one letter a square plus a piece list."""
    return _render_full(state, seat) if full else _render_compact(state, seat)


def _row(state: QuarterbackState, cells: dict[Square, tuple[Piece, bool]], row: int, piece: Callable[[str, str, bool], str],
         loose: str, empty: str) -> list[str]:
    """One row of the board as text, a cell a column: a piece as ``piece(seat, id, carries the ball)`` writes
    it, the loose ball as ``loose``, an empty square as ``empty``."""
    out = []
    for c in range(state.rules.columns):
        got = cells.get((c, row))
        if got is not None:
            (pseat, pid), carrier = got
            out.append(piece(pseat, pid, carrier))
        elif state.loose == (c, row):
            out.append(loose)
        else:
            out.append(empty)
    return out


def _render_full(state: QuarterbackState, seat: str | None) -> str:
    r = state.rules
    cells = _cells(state)
    values = r.values
    lines = _header(state, seat)
    lines.append("      " + "".join(f" {_col(c):<3}" for c in range(r.columns)) + "   row points")
    for row in range(r.field_rows, r.min_row - 1, -1):
        out = _row(state, cells, row, lambda s, pid, carrier: f" {_label(state, pid, s) + ('*' if carrier else ''):<3}", " o  ", " .  ")
        note = f"{row:>4}" if row >= 0 else "   0  (unnumbered row)"
        lines.append(f"{row:>4}  {''.join(out)}  {note}")
        if row == 1:
            lines.append("      " + "=" * (4 * r.columns) + "  line of scrimmage")
    lines.append("pts   " + "".join(f" {v:<3}" for v in values) + "   column points (a tackle scores row + column)")
    lines.append(f"ball: {_ball_text(state)}")
    lines.append(LEGEND)
    return "\n".join(lines)


def _render_compact(state: QuarterbackState, seat: str | None) -> str:
    r = state.rules
    cells = _cells(state)
    lines = _header(state, seat)
    lines.append("     " + " ".join(_col(c) for c in range(r.columns)))
    for row in range(r.field_rows, r.min_row - 1, -1):
        out = _row(state, cells, row, lambda s, pid, carrier: (pid[0] if s == state.attacker else pid[0].lower()) + ("*" if carrier else " "), "o ", ". ")
        lines.append(f"{row:>3}  {''.join(out).rstrip()}" + ("  (unnumbered: 0)" if row < 0 else ""))
        if row == 1:
            lines.append("     " + "=" * (2 * r.columns - 1) + "  line of scrimmage")
    lines.append("pts  " + " ".join(str(v) for v in r.values) + "  (column points; a tackle scores row + column)")
    for s in (state.attacker, state.defender):
        if True:
            mine = sorted((p for p in state.pos if p[0] == s), key=lambda p: ("QSDT".index(p[1][0]), p[1]))
            role = "attack" if s == state.attacker else "defense"
            listed = ", ".join(
                f"{_label(state, p[1], s)}{'*' if p == state.carrier else ''} {_name(state.pos[p])}" for p in mine
            )
            lines.append(f"{s} ({role}): {listed}")
    lines.append(f"ball: {_ball_text(state)}")
    return "\n".join(lines)
