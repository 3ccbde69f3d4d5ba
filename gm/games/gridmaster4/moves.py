"""The rules of a move, stated once: pure functions of a position that the engine and the bots
both call.

- :func:`builders`: the active tiles a player builds on (GM4-R-OWN-TILES, or every colour's),
  now or as they would stand after a placement;
- :func:`move_cells`: the open cells exactly one move from those tiles (GM4-MOVE, GM4-EDGE,
  GM4-OPEN);
- :func:`deactivation` (with :func:`any_colour`): the active tiles a normal move onto a cell
  makes inactive (GM4-DEACTIVATE, GM4-R-REACH, GM4-R-DEACT-ANY).

A position is the engine's plain per-cell lists (``owner``: seat index or -1 for an open cell,
``active``) and per-seat sets of active cells; nothing here changes them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from gm.games.gridmaster4.rules import BuildFrom, Deactivate, GridMaster4Rules

_NONE: frozenset[int] = frozenset()


def builders(
    rules: GridMaster4Rules,
    actives: Mapping[str, AbstractSet[int]],
    seat: str,
    *,
    placed: tuple[str, int] | None = None,
    gone: Collection[int] = (),
) -> AbstractSet[int]:
    """The active tiles ``seat`` builds on: its own (GM4-R-OWN-TILES) or, when ``build_from`` is
    ``any``, every colour's.  With ``placed=(mover, cell)`` and ``gone``: as they would stand after
    ``mover`` placed a tile on ``cell`` (it starts active, GM4-ACTIVE) and the tiles ``gone`` went
    inactive (GM4-DEACTIVATE).  The result may be the position's own set: read it, never change it."""
    own = rules.build_from == BuildFrom.OWN
    tiles = actives.get(seat, _NONE) if own else {t for s in actives for t in actives[s]}
    if not gone and placed is None:
        return tiles
    out = set(tiles)
    if gone:
        out.difference_update(gone)
    if placed is not None and (placed[0] == seat or not own):
        out.add(placed[1])
    return out


def move_cells(reach: Sequence[Sequence[int]], owner: Sequence[int], tiles: Iterable[int], taken: int = -1) -> set[int]:
    """The open cells exactly one move from any of ``tiles`` (GM4-MOVE; near an edge fewer,
    and a cell reachable from several tiles is one option, GM4-EDGE); ``taken`` counts as
    occupied (a cell about to be filled)."""
    return {u for t in tiles for u in reach[t] if owner[u] < 0 and u != taken}


def any_colour(rules: GridMaster4Rules) -> bool:
    """Whether a normal move makes active tiles of every colour inactive (GM4-R-DEACT-ANY), not only
    the mover's own: unless the ruleset says ``deactivate = "own"`` - and when players build on any
    colour, any colour's all the same."""
    return rules.deactivate == Deactivate.ANY or rules.build_from == BuildFrom.ANY


def deactivation(
    reach: Sequence[Sequence[int]],
    owner: Sequence[int],
    active: Sequence[bool],
    seat_index: int,
    cell: int,
    every_colour: bool,
) -> tuple[int, ...]:
    """The active tiles a normal move onto ``cell`` by the seat ``seat_index`` makes inactive,
    ascending: every active tile exactly one move from it (GM4-DEACTIVATE, GM4-R-REACH), of any
    colour or only the mover's (``every_colour``: :func:`any_colour` of the ruleset)."""
    if every_colour:
        return tuple([u for u in reach[cell] if active[u]])
    return tuple([u for u in reach[cell] if active[u] and owner[u] == seat_index])
