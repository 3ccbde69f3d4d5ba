"""How the ball moves: the one statement of Grid Football's movement and resolution rules.

Pure functions of a ruleset, a set of blocked squares and the ball: the engine resolves every
down and every kick with them, and the bots simulate candidate calls with the very same
functions (so no rule is written twice).

- :func:`ground` / :func:`air` - one leg of movement (GF-BLOCK, GF-R-AIR-LANDING, GF-R-EDGE,
  GF-R-OWN-END-ZONE, GF-R-TD-STOP, GF-INCOMPLETE);
- :func:`move` - legs in order, stopping at a touchdown or an incomplete pass;
- :func:`resolve_play` - a down's result for an offense call and the kind of match: the
  plays table, bonuses, the lateral cap, the order and air/ground mode of the legs
  (GF-MATCH-*, GF-R-NET, GF-R-LATERAL-CAP, GF-MOVE-RED/BLACK, GF-R-COLOUR-MOVE);
- :func:`kick_return` - where a kickoff or punt comes down and where its return ends
  (GF-KICK-DIST, GF-R-PUNT, GF-R-KICK-COLUMN, GF-R-KICK-GROUND, GF-R-TOUCHBACK).

Squares are ``(column index, row)``: column 0 is ``A``, rows count from 1.  ``d`` is the
direction of the team moving the ball: +1 toward the high rows, -1 toward the low rows.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from gm.games.grid_football.actions import PlayCall
    from gm.games.grid_football.rules import GridFootballRules

Square = tuple[int, int]
Vector = tuple[int, int]


class Stop(StrEnum):
    """Why a leg of movement ended before its full length (or how the move ended)."""

    TD = "td"  # entered the opponent's end zone: touchdown, the rest is dropped
    INCOMPLETE = "incomplete"  # a pass past the back of the end zone: the ball stays at the start
    BLOCKED = "blocked"  # ground movement stopped before a blocked square
    EDGE = "edge"  # stopped at the side (or end) of the board
    OWN_END_ZONE = "own_end_zone"  # backward movement stopped before the own end zone
    SHORT = "short"  # air movement came down short of a blocked target


#: stops that end the whole move (nothing after them happens)
FINAL = frozenset({Stop.TD, Stop.INCOMPLETE})
# the members as plain globals: an enum class attribute costs several times a global lookup
_TD, _INCOMPLETE, _BLOCKED, _EDGE, _OWN_END_ZONE, _SHORT = (
    Stop.TD, Stop.INCOMPLETE, Stop.BLOCKED, Stop.EDGE, Stop.OWN_END_ZONE, Stop.SHORT
)
_LEFT, _RIGHT = (-1, 0), (1, 0)
_new = tuple.__new__  # makes a NamedTuple from a tuple without its Python-level __new__


class Match(StrEnum):
    """How the defense's call compares with the offense's (the value is the text events use)."""

    NONE = "no match"
    PLAY = "play match"
    COLOUR = "colour match"
    BOTH = "play and colour match"


_NONE, _PLAY, _COLOUR, _BOTH = Match.NONE, Match.PLAY, Match.COLOUR, Match.BOTH


def match_of(offense: PlayCall, defense: PlayCall) -> Match:
    """The match between two play calls (GF-MATCH-NONE/PLAY/COLOUR/BOTH)."""
    pm, cm = offense.play == defense.play, offense.colour == defense.colour
    return (_BOTH if cm else _PLAY) if pm else (_COLOUR if cm else _NONE)


# ------------------------------------------------------------------- one leg
def ground(
    rules: GridFootballRules, blocked: Container[Square], start: Square, vec: Vector, n: int, d: int
) -> tuple[Square, Stop | None]:
    """Step square by square; stop before a blocked square, at an edge, before the own end zone
    (backward), or on entering the opponent's end zone (touchdown)."""
    c, row = start
    dc, dr = vec
    cols, rows, low, high = rules.columns, rules.rows, rules.low_goal_line, rules.high_goal_line
    if dr == 0 and 1 <= row <= rows:  # lateral: only edges and blocks can stop it
        for _ in range(n):
            nc = c + dc
            if not 0 <= nc < cols:
                return (c, row), _EDGE
            if (nc, row) in blocked:
                return (c, row), _BLOCKED
            c = nc
        return (c, row), None
    backward = dr == -d
    forward = dr == d
    for _ in range(n):
        nc, nr = c + dc, row + dr
        if not (0 <= nc < cols and 1 <= nr <= rows):
            return (c, row), _EDGE
        if backward and (nr <= low if d > 0 else nr >= high):  # the own end zone
            return (c, row), _OWN_END_ZONE
        if (nc, nr) in blocked:
            return (c, row), _BLOCKED
        c, row = nc, nr
        if forward and (row >= high if d > 0 else row <= low):  # the opponent's end zone
            return (c, row), _TD
    return (c, row), None


def air(
    rules: GridFootballRules, blocked: Container[Square], start: Square, vec: Vector, n: int, d: int
) -> tuple[Square, Stop | None]:
    """Fly over blocked squares to the target; a forward pass past the board is incomplete;
    a blocked landing square comes down short (GF-R-AIR-LANDING)."""
    c, row = start
    dc, dr = vec
    tc, tr = c + dc * n, row + dr * n
    stop: Stop | None = None
    low, high = rules.low_goal_line, rules.high_goal_line
    if dc:
        clamped = max(0, min(rules.columns - 1, tc))
        if clamped != tc:
            tc, stop = clamped, _EDGE
    if dr == d and not 1 <= tr <= rules.rows:
        return start, _INCOMPLETE
    if dr == -d and (tr <= low if d > 0 else tr >= high):  # into the own end zone
        tr = low + 1 if d > 0 else high - 1
        stop = _OWN_END_ZONE
    if dr == d and (tr >= high if d > 0 else tr <= low):
        return (tc, tr), _TD
    while (tc, tr) in blocked and (tc, tr) != start:
        tc, tr = tc - dc, tr - dr
        stop = _SHORT
    return (tc, tr), stop


class Leg(NamedTuple):
    """One leg of a move: from ``start`` along ``vec`` for up to ``n`` squares, in the air or on
    the ground, ending at ``end`` (``stop``: why it ended early, if it did)."""

    start: Square
    vec: Vector
    n: int
    air: bool
    end: Square
    stop: Stop | None

    @property
    def hit(self) -> Square:
        """The square that stopped a ground leg (``stop == BLOCKED``): one step past ``end``."""
        return self.end[0] + self.vec[0], self.end[1] + self.vec[1]


class Movement(NamedTuple):
    """A whole move: its legs in order (the path), how it ended and where the ball is after it."""

    start: Square
    legs: tuple[Leg, ...]

    @property
    def end(self) -> Square:
        """Where the last leg ended (for an incomplete pass: the start)."""
        return self.legs[-1].end if self.legs else self.start

    @property
    def stop(self) -> Stop | None:
        """``TD`` or ``INCOMPLETE`` if the move ended so, else ``None``."""
        last = self.legs[-1].stop if self.legs else None
        return last if last in FINAL else None

    @property
    def ball(self) -> Square:
        """The ball's square after the move (an incomplete pass leaves it at the start)."""
        return self.start if self.stop == _INCOMPLETE else self.end


def move(
    rules: GridFootballRules,
    blocked: Container[Square],
    start: Square,
    d: int,
    legs: Sequence[tuple[Vector, int, bool]],
) -> Movement:
    """Move the ball along ``legs`` (vector, squares, in the air?) in order; legs of no length
    are skipped, and a touchdown or an incomplete pass ends the move."""
    done: list[Leg] = []
    at = start
    for vec, n, by_air in legs:
        if n <= 0:
            continue
        end, stop = (air if by_air else ground)(rules, blocked, at, vec, n, d)
        done.append(_new(Leg, (at, vec, n, by_air, end, stop)))  # = Leg(...), without the Python-level __new__
        if stop is _TD or stop is _INCOMPLETE:
            break
        at = end
    return _new(Movement, (start, tuple(done)))


# ------------------------------------------------------------------ a down
class PlayOutcome(NamedTuple):
    """What a down does to the ball (before the down's bookkeeping): the match, the plays-table
    arithmetic and the move.  ``movement`` is ``None`` on a play + colour match (the ball stays)."""

    match: Match
    base: int  # the play's forward value (the colour-match rows on a colour match)
    bonus: int
    forward: int  # net rows forward (negative: backward)
    lateral: int  # lateral columns the ball may move (the declaration cut to the cap)
    cut_rule: str | None  # the rule that cut the declared lateral, if it was cut
    movement: Movement | None


def play_legs(call: PlayCall, d: int, forward: int, lateral: int) -> tuple[tuple[Vector, int, bool], ...]:
    """The two legs of a play, lateral and forward, in the declared order; a Red pass flies the
    first leg (GF-LATERAL, GF-MOVE-RED, GF-MOVE-BLACK)."""
    red = call.colour == "red"
    lat = _LEFT if call.direction == "left" else _RIGHT
    fwd = (0, d if forward >= 0 else -d)
    if call.timing == "after":
        return (fwd, abs(forward), red), (lat, lateral, False)
    return (lat, lateral, red), (fwd, abs(forward), False)


def resolve_play(
    rules: GridFootballRules, blocked: Container[Square], ball: Square, d: int, call: PlayCall, match: Match
) -> PlayOutcome:
    """The result of the offense's ``call`` from ``ball`` (attacking in direction ``d``) when the
    defense's call makes ``match``: the plays table, the bonus, the lateral cap and the move."""
    if match is _BOTH:  # immediate turnover, the ball stays (GF-MATCH-BOTH)
        return _new(PlayOutcome, (match, 0, 0, 0, 0, None, None))
    if match is _COLOUR:  # exactly n forward, no lateral, in the forward mode (GF-R-COLOUR-MOVE)
        n = rules.colour_match_forward
        by_air = call.colour == "red" and call.timing == "after"
        return _new(PlayOutcome, (match, n, 0, n, 0, None, move(rules, blocked, ball, d, (((0, d), n, by_air),))))
    pm = match is _PLAY
    hit = _LINES.get(id(rules))
    lines = hit[1] if hit is not None and hit[0] is rules else _lines(rules)
    base, bonus, cap = lines[call.play][pm]
    forward = base + bonus  # GF-R-NET: one net move
    lateral = call.lateral
    cut = None
    if lateral > cap:
        lateral = cap
        cut = "GF-LATERAL-MATCH" if pm and cap else "GF-R-LATERAL-TABLE" if pm else "GF-R-LATERAL-CAP"
    movement = move(rules, blocked, ball, d, play_legs(call, d, forward, lateral))
    return _new(PlayOutcome, (match, base, bonus, forward, lateral, cut, movement))


_LINES: dict[int, tuple[GridFootballRules, dict[int, tuple[tuple[int, int, int], tuple[int, int, int]]]]] = {}


def _lines(rules: GridFootballRules) -> dict[int, tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """Per play, the (forward, bonus, lateral cap) of its 'defense wrong' and 'defense matches'
    lines: the plays table read once per ruleset (rulesets are immutable)."""
    hit = _LINES.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    lines = {
        n: (
            (spec.wrong.forward, rules.no_match_bonus, spec.wrong.lateral),
            (spec.matched.forward, rules.play_match_bonus, spec.matched.lateral),
        )
        for n, spec in rules.plays.items()
    }
    if len(_LINES) >= 256:
        _LINES.clear()
    _LINES[id(rules)] = (rules, lines)
    return lines


# ------------------------------------------------------------------ kicks
class KickOutcome(NamedTuple):
    """A kickoff or punt: where it comes down and where the return ends."""

    start_row: int  # the row it is kicked from
    spot: Square  # where it comes down
    steps: int  # return steps
    end: Square  # where the return ends (after a touchback: the square the ball is placed on)
    touchdown: bool  # the return entered the opponent's end zone
    blocked_at: Square | None  # the blocked square that stopped the return, if one did
    touchback: bool  # the return ended in the receiving team's own end zone: placed outside it


def kick_column(rules: GridFootballRules, position: str) -> int:
    """The column a kick comes down in for the kicking team's position call (GF-R-KICK-COLUMN)."""
    return ord(rules.kick_columns[position].upper()) - ord("A")  # type: ignore[index]


def kick_row(rules: GridFootballRules, dk: int, punt_from: int | None = None) -> tuple[int, int]:
    """The row a kick is kicked from and the row it comes down on, for a kicking team moving in
    direction ``dk``: a kickoff from its own goal line, a punt from the ball's row (GF-KICK-DIST,
    GF-R-PUNT), at most to the end of the board."""
    if punt_from is None:
        start = rules.low_goal_line if dk > 0 else rules.high_goal_line
        land = start + dk * rules.kick_distance
    else:
        start = punt_from
        land = start + dk * rules.punt_distance
    return start, max(1, min(rules.rows, land))


def kick_return(
    rules: GridFootballRules, blocked: Container[Square], dk: int, column: int, steps: int, punt_from: int | None = None
) -> KickOutcome:
    """A kick by the team moving in direction ``dk`` (from its goal line, or a punt from row
    ``punt_from``) coming down in ``column`` and returned ``steps`` squares straight back along
    it on the ground (GF-R-KICK-GROUND); a return that ends in the receiving team's own end zone
    is placed on the first row outside it (GF-R-TOUCHBACK)."""
    start, land = kick_row(rules, dk, punt_from)
    spot = (column, land)
    dr = -dk
    end, stop = ground(rules, blocked, spot, (0, dr), steps, dr)
    if stop is _TD:
        return KickOutcome(start, spot, steps, end, True, None, False)
    hit = (end[0], end[1] + dr) if stop is _BLOCKED else None
    if end[1] >= rules.high_goal_line if dr < 0 else end[1] <= rules.low_goal_line:
        return KickOutcome(start, spot, steps, (end[0], rules.high_goal_line - 1 if dr < 0 else rules.low_goal_line + 1), False, hit, True)
    return KickOutcome(start, spot, steps, end, False, hit, False)


__all__ = [
    "FINAL",
    "KickOutcome",
    "Leg",
    "Match",
    "Movement",
    "PlayOutcome",
    "Stop",
    "air",
    "ground",
    "kick_column",
    "kick_return",
    "kick_row",
    "match_of",
    "move",
    "play_legs",
    "resolve_play",
]
