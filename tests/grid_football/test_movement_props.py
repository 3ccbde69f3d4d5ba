"""Hypothesis: movement never breaks the blocked-square, board-edge and distance rules."""

from __future__ import annotations

from gf_helpers import at_down
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.games.grid_football.actions import PlayCall, Punt
from gm.games.grid_football.engine import GridFootballState, sq
from gm.games.grid_football.movement import air, ground

Square = tuple[int, int]


def _line(a: Square, b: Square) -> list[Square]:
    """The squares after ``a`` up to and including ``b`` along a row or a column."""
    (c0, r0), (c1, r1) = a, b
    assert c0 == c1 or r0 == r1
    dc = (c1 > c0) - (c1 < c0)
    dr = (r1 > r0) - (r1 < r0)
    out = []
    c, r = a
    while (c, r) != b:
        c, r = c + dc, r + dr
        out.append((c, r))
    return out


@st.composite
def situations(draw: st.DrawFn) -> tuple[GridFootballState, PlayCall, PlayCall]:
    col = draw(st.integers(0, 19))
    row = draw(st.integers(6, 58))
    offense = draw(st.sampled_from(["home", "away"]))
    quarter = draw(st.sampled_from([1, 2]))
    near = st.tuples(st.integers(max(0, col - 4), min(19, col + 4)), st.integers(max(6, row - 8), min(58, row + 8)))
    blocks = draw(st.sets(near, max_size=25))
    blocks.discard((col, row))
    if draw(st.booleans()):
        blocks.add((col, row))  # the ball usually rests on the square its last down blocked
    s = at_down(sq((col, row)), offense, quarter=quarter, blocked=[sq(b) for b in blocks])
    assert s.offense
    off = draw(st.sampled_from([a for a in s.legal_actions(s.offense) if not isinstance(a, Punt)]))
    de = draw(st.sampled_from(list(s.legal_actions("away" if offense == "home" else "home"))))
    assert isinstance(off, PlayCall) and isinstance(de, PlayCall)
    return s, off, de


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(situations())
def test_movement_obeys_blocks_edges_and_distances(case: tuple[GridFootballState, PlayCall, PlayCall]) -> None:
    s, off, de = case
    assert s.offense and s.ball
    start, blocked, d = s.ball, set(s.blocked), s.direction(s.offense)
    events = s.apply(s.offense, off) + s.apply("away" if s.offense == "home" else "home", de)
    end = s.ball
    assert end is not None
    assert 0 <= end[0] < s.rules.columns and 1 <= end[1] <= s.rules.rows  # never off the board
    assert end == start or end not in blocked  # nothing ever comes to rest on a blocked square
    gained = (end[1] - start[1]) * d
    pm, cm = off.play == de.play, off.colour == de.colour
    if pm and cm:
        assert end == start
        return
    if cm:
        assert end[0] == start[0] and 0 <= gained <= s.rules.colour_match_forward
        if not (off.colour == "red" and off.timing == "after"):  # on the ground
            assert not set(_line(start, end)) & blocked
        clear = not set(_line(start, (start[0], start[1] + 3 * d))) & blocked
        if clear:
            assert gained == 3 or s.outcome is not None
        return
    spec = s.rules.plays[off.play]
    res = spec.matched if pm else spec.wrong
    forward = res.forward + (s.rules.play_match_bonus if pm else s.rules.no_match_bonus)
    lateral = min(off.lateral, res.lateral)
    assert min(0, forward) <= gained <= max(0, forward)
    moved = end[0] - start[0]
    assert abs(moved) <= lateral
    if moved:
        assert (moved < 0) == (off.direction == "left")
    if any(e.kind == "incomplete" for e in events):
        assert end == start
        return
    corner = (end[0], start[1]) if off.timing == "before" else (start[0], end[1])
    first_leg, second_leg = _line(start, corner), _line(corner, end)
    assert corner == start or corner not in blocked  # a first leg in the air lands on an open square
    assert not set(second_leg) & blocked  # the second leg is always on the ground
    if off.colour == "black":
        assert not set(first_leg) & blocked  # a run is all on the ground
    if lateral and not moved and off.colour == "black" and off.timing == "before":
        step = (start[0] + (-1 if off.direction == "left" else 1), start[1])
        assert step in blocked or not 0 <= step[0] < s.rules.columns


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    st.integers(0, 19),
    st.integers(6, 58),
    st.sampled_from([(0, 1), (0, -1), (1, 0), (-1, 0)]),
    st.integers(0, 8),
    st.sampled_from([1, -1]),
    st.sets(st.tuples(st.integers(0, 19), st.integers(1, 64)), max_size=40),
)
def test_ground_and_air_segments(col: int, row: int, vec: tuple[int, int], n: int, d: int, blocks: set[Square]) -> None:
    s = at_down("K30")
    s.blocked = set(blocks)
    start = (col, row)
    end, stop = ground(s.rules, blocks, start, vec, n, d)
    path = _line(start, end)
    assert len(path) <= n and not set(path) & blocks
    assert 0 <= end[0] < 20 and 1 <= end[1] <= 64
    if stop is None:
        assert len(path) == n
    if stop == "blocked":
        assert (end[0] + vec[0], end[1] + vec[1]) in blocks
    end, stop = air(s.rules, blocks, start, vec, n, d)
    assert 0 <= end[0] < 20 and 1 <= end[1] <= 64
    assert end == start or end not in blocks or stop == "td"
    if stop not in ("incomplete",):
        assert abs(end[0] - col) + abs(end[1] - row) <= n
