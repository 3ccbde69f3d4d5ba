"""ASCII rendering of the GridMaster4 board.

Full board: every cell shows its tile as owner letter + number (``O37``), upper
case for an active tile and lower case for an inactive one (GM4-R-INACTIVE-SHOW),
``.`` for an open cell and ``+`` for a cell the viewing seat can move to.
Compact board (for the LLM): one character per cell, with the numbers of the
active tiles (the only ones that matter for play) listed below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.games.gridmaster4.rules import COLOURS, LETTERS

if TYPE_CHECKING:
    from gm.games.gridmaster4.engine import GridMaster4State

PHASE_WORDS = {"opening": "first tiles", "play": "normal play", "free": "free placements", "over": "game over"}


def _legend(state: GridMaster4State, seat: str | None, marked: bool) -> str:
    who = "  ".join(f"{LETTERS[s]} {COLOURS[s]}" for s in state.order)
    text = f"{who}; upper case = active (O37), lower case = inactive (o37); . open"
    if marked and seat:
        text += f"; + where {seat} can move"
    return text


def _marked_cells(state: GridMaster4State, seat: str | None) -> set[int]:
    """Cells to mark ``+``: the seat's normal-move cells (in the opening and its free placement: none)."""
    if seat is None or seat not in state.in_play or state.outcome is not None:
        return set()
    if state.phase == "opening" or (state.phase == "free" and seat in state.free_queue):
        return set()
    return set(state.move_cells(seat))


def _header(state: GridMaster4State) -> str:
    st = state
    parts = [f"GridMaster4, move {st.moves}", PHASE_WORDS[st.phase]]
    if st.outcome:
        parts.append(f"FINAL: {st.outcome}")
    elif st.current:
        parts.append(f"{st.current} to place {st.next_tile(st.current)}")
    if st.last:
        gone = f"; now inactive: {', '.join(st.last['deactivated'])}" if st.last.get("deactivated") else ""
        parts.append(f"last: {st.last['seat']} {st.last['number']} at {st.last['cell']}{gone}")
    return " | ".join(parts)


def _players(state: GridMaster4State, full: bool) -> list[str]:
    st = state
    names = st.geo.names
    width = max(len(s) for s in st.order)
    out = []
    for s in st.order:
        if s in st.blocked:
            status = f"blocked ({st.blocked.index(s) + 1}. out)"
        elif s == st.current:
            status = "to move"
        else:
            status = "playing"
        act = ", ".join(f"{names[c]} ({LETTERS[s]}{st.number[c]})" for c in sorted(st.actives[s])) or "none"
        line = f"{s:<{width}}  score {st.score[s]:>3}  {status:<16} active: {act}"
        out.append(line.rstrip() if full else line)
    return out


def _moves_line(state: GridMaster4State, seat: str | None) -> str | None:
    st = state
    if seat is None or seat not in st.order or st.outcome is not None:
        return None
    if seat not in st.in_play:
        return f"{seat} is blocked"
    n = st.next_tile(seat)
    if st.phase == "opening" or (st.phase == "free" and seat in st.free_queue):
        return f"{seat} places {n} on any open cell ({st.open_cells} open)"
    cells = st.move_cells(seat)
    when = "now" if seat == st.current else "if it were its turn now"
    shown = ", ".join(st.geo.names[c] for c in cells) or "none (blocked at its turn)"
    return f"{seat} can place {n} ({when}) on {len(cells)} cell(s): {shown}"


def render(state: GridMaster4State, seat: str | None = None, *, full: bool = False) -> str:
    """The board as text; ``full`` shows every tile's number, the compact form one character per cell."""
    st = state
    r = st.rules
    marks = _marked_cells(st, seat)
    letters = [chr(ord("A") + c) for c in range(r.columns)]
    lab = len(str(r.rows))
    lines = [_header(st)]
    if full:
        w = 1 + len(str(r.tiles))
        head = " " * (lab + 2) + " ".join(c.ljust(w) for c in letters)
    else:
        w = 1
        head = " " * (lab + 1) + " ".join(letters)
    lines.append(head.rstrip())
    for row in range(r.rows - 1, -1, -1):
        cells = []
        for col in range(r.columns):
            i = row * r.columns + col
            t = st.tile(i)
            if t is None:
                ch = "+" if i in marks else "."
                cells.append(ch.ljust(w))
            else:
                letter = LETTERS[t[0]] if t[2] else LETTERS[t[0]].lower()
                cells.append(f"{letter}{t[1]}".ljust(w) if full else letter)
        if full:
            lines.append(f"{row + 1:>{lab}}  {' '.join(cells)}  {row + 1:>{lab}}")
        else:
            lines.append(f"{row + 1:>{lab}} {' '.join(cells)}")
    lines.append(head.rstrip())
    lines.extend(_players(st, full))
    moves = _moves_line(st, seat)
    if moves:
        lines.append(moves)
    lines.append(_legend(st, seat, bool(marks)))
    return "\n".join(lines)


def status_line(state: GridMaster4State, seat: str | None = None) -> str:
    """Move count, phase, whose turn and every player's score (blocked players marked)."""
    st = state
    parts = [f"move {st.moves}", PHASE_WORDS[st.phase]]
    if st.outcome:
        parts = [f"FINAL: {st.outcome}", f"move {st.moves}"]
    elif st.current:
        parts.append(f"{st.current} to place {st.next_tile(st.current)}")
    scores = ", ".join(f"{s} {st.score[s]}" + (" (blocked)" if s in st.blocked else "") for s in st.order)
    parts.append(f"scores: {scores}")
    return " | ".join(parts)
