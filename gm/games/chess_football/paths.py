"""Path search: the cheapest movement cost to every square a piece can end a move on.

Movement is in king steps, 1 movement each (ruling CF-R-STEP); a restricted piece pays
``direction_change_cost`` more for a step unlike the previous one of the move
(CF-MOVE-RESTRICTED); a step into a square next to a sealing Nickelback costs ``seal_cost``
more (CF-SEAL).  A piece may end on a square with opposing pieces but never pass through
one (CF-R-PASS-THROUGH): ``blocked`` are the squares it may enter but not leave.

:func:`reach` is the one statement of these rules.  It answers from a cache (the same
board is asked about again and again), from path templates for restricted pieces (exact,
checked against the search by a test), or from a bucket-queue search.  The results are
shared: callers must not change them.
"""

from __future__ import annotations

from functools import lru_cache

from gm.games.chess_football.geometry import DIRS, Grid, Square, cheb

INF = 10**9
#: path templates are used up to this much movement (beyond it the search is faster)
TEMPLATE_MAX = 5
_CACHE_MAX = 50_000
# speed seam: reach-memo - the squares a piece reaches, found once per piece, start and blocking squares: default-vs-random
# games 1.1x as fast
_CACHE: dict[tuple[object, ...], dict[Square, int]] = {}
#: keyed by the blocked and sealed squares near the start only
_LOCAL: dict[tuple[object, ...], dict[Square, int]] = {}


@lru_cache(maxsize=64)
def templates(mp: int, dcc: int) -> tuple[tuple[int, int, int, tuple[tuple[int, int], ...]], ...]:
    """Every king-step path a restricted piece can afford with ``mp`` (turns costing ``dcc``), as
    (dx, dy, cost, intermediate squares), cheapest first: a destination is reached at the cost
    of its first path whose intermediate squares are free."""
    out: list[tuple[int, int, int, tuple[tuple[int, int], ...]]] = []

    def walk(x: int, y: int, d: int, cost: int, inter: tuple[tuple[int, int], ...]) -> None:
        for i, (dx, dy) in enumerate(DIRS):
            nc = cost + 1 + (dcc if d >= 0 and i != d else 0)
            if nc > mp:
                continue
            nx, ny = x + dx, y + dy
            if (nx, ny) == (0, 0):
                continue
            out.append((nx, ny, nc, inter))
            walk(nx, ny, i, nc, (*inter, (nx, ny)))

    walk(0, 0, -1, 0, ())
    out.sort(key=lambda t: t[2])
    return tuple(out)


def reach(
    g: Grid,
    start: Square,
    mp: int,
    restricted: bool,
    blocked: frozenset[Square],
    sealed: frozenset[Square],
    dcc: int,
    seal_cost: int,
) -> dict[Square, int]:
    """Square -> cheapest movement cost of ending a move there (the start costs 0).  Shared: do not change it.

    Only the blocked squares a step can leave (fewer than ``mp`` steps from the start, the start itself
    never blocking) and the sealed squares a step can enter (at most ``mp`` steps away) decide the
    answer, so behind the cache of exact questions a second one is keyed by those: a piece's reach is
    not searched again because a piece far from it moved."""
    key = (g, start, mp, restricted, blocked, sealed, dcc, seal_cost)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
        _LOCAL.clear()
    sx, sy = start
    if blocked:
        near = mp - 1
        blocked = frozenset(b for b in blocked if -near <= b[0] - sx <= near and -near <= b[1] - sy <= near and b != start)
    if sealed:
        sealed = frozenset(b for b in sealed if -mp <= b[0] - sx <= mp and -mp <= b[1] - sy <= mp)
    local = (g, start, mp, restricted, blocked, sealed, dcc, seal_cost)
    best = _LOCAL.get(local)
    if best is None:
        if mp <= 0:
            best = {start: 0}
        elif restricted and not sealed and mp <= TEMPLATE_MAX:
            best = from_templates(g, start, mp, blocked, dcc)
        else:
            best = search(g, start, mp, restricted, blocked, sealed, dcc, seal_cost)
        _LOCAL[local] = best
    _CACHE[key] = best
    return best


def from_templates(g: Grid, start: Square, mp: int, blocked: frozenset[Square], dcc: int) -> dict[Square, int]:
    """A restricted piece's reach without seals, from the path templates (equal to :func:`search`)."""
    cols, rows = g.cols, g.rows
    sx, sy = start
    best: dict[Square, int] = {start: 0}
    for dx, dy, cost, inter in templates(mp, dcc):
        dest = (sx + dx, sy + dy)
        if dest in best or not (0 <= dest[0] < cols and 1 <= dest[1] <= rows):
            continue
        for ix, iy in inter:
            q = (sx + ix, sy + iy)
            if q in blocked or not (0 <= q[0] < cols and 1 <= q[1] <= rows):
                break
        else:
            best[dest] = cost
    return best


# alike on purpose: reach's parameters again - the search answers the very question reach caches
def search(
    g: Grid,
    start: Square,
    mp: int,
    restricted: bool,
    blocked: frozenset[Square],
    sealed: frozenset[Square],
    dcc: int,
    seal_cost: int,
) -> dict[Square, int]:
    """The search itself: a king-step BFS, or a bucket-queue Dijkstra over (square, last direction)."""
    nb = g.neighbours
    if mp <= 0:
        return {start: 0}
    if not restricted and not sealed:
        dist: dict[Square, int] = {start: 0}
        frontier = [start]
        for c in range(1, mp + 1):
            nxt = []
            for s in frontier:
                if s in blocked and s != start:
                    continue
                for _, ns in nb[s]:
                    if ns not in dist:
                        dist[ns] = c
                        nxt.append(ns)
            frontier = nxt
        return dist
    buckets: list[list[tuple[Square, int]]] = [[] for _ in range(mp + 1)]
    buckets[0].append((start, -1))
    seen: dict[tuple[Square, int], int] = {(start, -1): 0}
    best: dict[Square, int] = {start: 0}
    for c in range(mp + 1):
        for s, d in buckets[c]:
            if seen[(s, d)] != c or (s != start and s in blocked):
                continue  # a stale entry, or a square one may end on but never pass through
            for i, ns in nb[s]:
                nc = c + 1
                if sealed and ns in sealed:
                    nc += seal_cost
                if restricted and d >= 0 and i != d:
                    nc += dcc
                if nc > mp:
                    continue
                key = (ns, i if restricted else 0)
                if nc < seen.get(key, INF):
                    seen[key] = nc
                    buckets[nc].append(key)
                    if nc < best.get(ns, INF):
                        best[ns] = nc
    return best


def retreat_reach(g: Grid, start: Square, qb: Square, blocked: frozenset[Square], steps: int) -> frozenset[Square]:
    """Squares a Retreat reaches: up to ``steps`` king steps, each one closer to the own QB (CF-RETREAT)."""
    out: set[Square] = set()
    frontier = [start]
    nb = g.neighbours
    for _ in range(steps):
        nxt = []
        for s in frontier:
            if s != start and s in blocked:
                continue
            d0 = cheb(s, qb)
            for _, ns in nb[s]:
                if ns not in out and cheb(ns, qb) < d0:
                    out.add(ns)
                    nxt.append(ns)
        frontier = nxt
    return frozenset(out)


__all__ = ["INF", "from_templates", "reach", "retreat_reach", "search", "templates"]
