"""ASCII rendering of the Chess-Football field: the full 48 x 16 field or a window around the ball.

Each square is a 5-character cell: a piece id (offense UPPER case, defense lower case)
and a marker - ``@`` the ball, ``?`` maybe the ball (play action, as the defense sees it),
``+`` more pieces share the square.  Empty squares show ``.`` (field), ``:`` (end zone),
``-`` (line of scrimmage) or ``=`` (first-down line).  Below the board every piece is
listed with its square and position within the square (C, NW, NE, SW, SE).

What a seat sees is what it may know: under play action only the offense sees which
piece holds the ball.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.core.wording import ordinal

if TYPE_CHECKING:
    from gm.games.chess_football.engine import ChessFootballState
    from gm.games.chess_football.field import Field, Piece

LEGEND = ("UPPER offense, lower defense; @ ball, ? maybe the ball (hidden), + more pieces on the square; "
          ". field  : end zone  - line of scrimmage  = first-down line")
#: what the codes of pieces and positions mean (issue #17: the board explains its codes)
CODES = "pieces: {pieces}; positions in a square: C centre, NW NE SW SE its corners (north is up the board)"


def codes_legend(state: ChessFootballState) -> str:
    """The legend line of the piece codes (the kinds, and the captains on the field) and the position codes."""
    r = state.rules
    names = {"heavy": "Heavy", "strong": "Strong", "fast": "Fast", "qb": "QB"}
    parts = [f"{k.code} {names.get(base, k.name)}" if k.code != "QB" else "QB" for base, k in r.kinds.items()]
    f = state.field
    if f is not None:
        parts += [f"{p.id} {r.captains[p.role].name}" for p in sorted(f.pieces.values(), key=lambda q: q.id) if p.role]
    return CODES.format(pieces=", ".join(parts))
WINDOW_BEHIND = 4
WINDOW_AHEAD = 8


def status_line(state: ChessFootballState, seat: str | None = None) -> str:
    """Period, score, down & distance, ball, whose move."""
    from gm.games.chess_football.engine import AWAY, HOME

    parts = []
    if state.outcome:
        parts.append(f"FINAL: {state.outcome}")
    else:
        parts.append(state.period_name)
    parts.append(f"{HOME} {state.score[HOME]} - {state.score[AWAY]} {AWAY}")
    if state.offense and not state.outcome:
        r = state.rules
        goal = f"rows {r.high_goal}-{r.rows}" if state.direction(state.offense) > 0 else f"rows 1-{r.low_goal}"
        togo = "goal" if state.goal_to_go() else str(state.to_go())
        poss = f"possession {state.poss_used[state.offense]}/{state.quota()}"
        parts.append(f"{state.offense} ball ({poss}), {ordinal(state.down)} & {togo} at row {state.los}, attacking {goal}")
        f = state.field
        if f is not None and state.phase in ("snap", "offense_turn", "defense_turn"):
            what = "snap" if state.phase == "snap" else f"turn {f.turn}/{r.max_turns_per_down}"
            parts.append(what)
    elif not state.outcome:
        parts.append(state.phase.replace("_", " "))
    acting = state.to_act()
    if acting:
        parts.append("to act: " + ", ".join(acting))
    return " | ".join(parts)


def _label(state: ChessFootballState, p: Piece) -> str:
    return p.id if p.team == state.offense else p.id.lower()


def _shown_ball(state: ChessFootballState, f: Field, seat: str | None) -> tuple[set[str], set[str]]:
    """(pieces shown with the ball, pieces shown as maybe the ball) for ``seat``."""
    if f.hidden and f.pair and not state.sees_ball(seat):
        return set(), set(f.pair)
    return {f.carrier}, set()


def render(state: ChessFootballState, seat: str | None = None, *, full: bool = False) -> str:
    """The field as text for ``seat``'s eyes: full (48 rows) or a window around the ball."""
    from gm.games.chess_football.field import POSITIONS, col_letter, sq

    r = state.rules
    f = state.field
    off = state.offense
    d = state.direction(off) if off else 1
    los = state.los if off else None
    fdl = state.fdl if off and not state.goal_to_go() else None
    ball_rows: list[int] = []
    at: dict[tuple[int, int], list[Piece]] = {}
    with_ball: set[str] = set()
    maybe: set[str] = set()
    if f is not None:
        for p in f.pieces.values():
            at.setdefault(p.sq, []).append(p)
        with_ball, maybe = _shown_ball(state, f, seat)
        ball_rows = [f.pieces[i].sq[1] for i in sorted(with_ball or maybe) if i in f.pieces]
    if full:
        lo, hi = 1, r.rows
    else:
        centre = ball_rows[0] if ball_rows and not maybe else (los if los is not None else r.rows // 2)
        if maybe and f is not None and f.pair:
            centre = f.pieces[f.pair[0]].sq[1]
        lo, hi = sorted((centre - d * WINDOW_BEHIND, centre + d * WINDOW_AHEAD))
        for extra in (los, fdl):
            if extra is not None and lo - 4 <= extra <= hi + 4:
                lo, hi = min(lo, extra), max(hi, extra)
        lo, hi = max(1, lo), min(r.rows, hi)
    lines: list[str] = []
    if off and f is not None:
        arrow = "^" if d > 0 else "v"
        goal = f"rows {r.high_goal}-{r.rows}" if d > 0 else f"rows 1-{r.low_goal}"
        lines.append(f"{off} (offense, UPPER) attacking {arrow} toward {goal}; {state.defense} (defense, lower)")
    header = "     " + "".join(f"{col_letter(c):<5}" for c in range(r.columns)).rstrip()
    lines.append(header)
    home_ez = "home" if state.direction("home") > 0 else "away"
    for row in range(hi, lo - 1, -1):
        if row >= r.high_goal or row <= r.low_goal:
            fill = ":"
        elif row == los:
            fill = "-"
        elif row == fdl:
            fill = "="
        else:
            fill = "."
        cells = []
        for c in range(r.columns):
            ps = at.get((c, row), [])
            if not ps:
                cells.append(f"{fill}    ")
                continue
            order = sorted(ps, key=lambda p: (p.id not in with_ball, p.id not in maybe, POSITIONS.index(p.pos)))
            top = order[0]
            mark = "@" if top.id in with_ball else "?" if top.id in maybe else "+" if len(ps) > 1 else " "
            cells.append(f"{_label(state, top) + mark:<5}")
        notes = []
        if row == r.high_goal:
            notes.append(f"end zone rows {r.high_goal}-{r.rows} ({'away' if home_ez == 'home' else 'home'} defends)")
        if row == r.low_goal:
            notes.append(f"end zone rows 1-{r.low_goal} ({home_ez} defends)")
        if row == los:
            notes.append("line of scrimmage")
        if row == fdl:
            notes.append("first-down line")
        lines.append(f"{row:>3}  {''.join(cells).rstrip()}" + (f"   {row} {'; '.join(notes)}" if notes else ""))
    lines.append(header)
    if not full:
        lines.append(f"rows {lo}-{hi} of {r.rows}")
    if f is not None:
        for team in (off, state.defense):
            if team is None:
                continue
            side = "offense" if team == off else "defense"
            entries = []
            for p in sorted(f.team_pieces(team), key=lambda q: (f.rank(q), q.id)):
                e = f"{_label(state, p)} {sq(p.sq)} {p.pos}"
                tags = []
                if p.role:
                    tags.append(r.captains[p.role].name)
                if p.id in with_ball:
                    tags.append("ball")
                if p.id in maybe:
                    tags.append("ball?")
                tags += f.flags(p)
                if f.acting == team and state.phase in ("offense_turn", "defense_turn"):
                    tags.append(f"mp {f.mp.get(p.id, 0)}")
                if tags:
                    e += f" ({', '.join(tags)})"
                entries.append(e)
            lines.append(f"{team} {side}: " + "; ".join(entries))
        shared = sorted((s, ps) for s, ps in at.items() if len(ps) > 1)
        if shared:
            lines.append("shared squares: " + "; ".join(
                f"{sq(s)} " + ", ".join(f"{_label(state, p)} {p.pos}" for p in sorted(ps, key=lambda q: POSITIONS.index(q.pos)))
                for s, ps in shared))
        if f.pass_decl:
            lines.append(f"pass declared: {f.pass_decl[0]} to {f.pass_decl[1]} (thrown when the ball moves)")
        if maybe:
            lines.append(f"play action: the ball is hidden - {' or '.join(sorted(maybe))}")
    lines.append(LEGEND)
    lines.append(codes_legend(state))
    return "\n".join(lines)
