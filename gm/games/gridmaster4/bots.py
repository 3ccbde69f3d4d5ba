"""GridMaster4 bot strategies.

``random``: uniform over the legal placements.  ``default``: a one-move
lookahead that scores every placement by what it leaves behind: its own
mobility (cells to move to next turn), the opponents' mobility, opponents
left with no move (they will be blocked), and its exposure, the cells from
which an opponent's next move would make its active tiles inactive.  Ties are
broken by the bot's seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.core.actions import Action
from gm.core.bots import Bot, RandomBot
from gm.core.outcome import Outcome
from gm.games.gridmaster4.actions import Place
from gm.games.gridmaster4.rules import SEATS

if TYPE_CHECKING:
    from gm.core.state import GameState
    from gm.games.gridmaster4.engine import GridMaster4State


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each feature of a resulting position is worth to the default bot."""

    mobility: float = 4.0  # per cell the bot can move to next turn
    reach2: float = 0.25  # per open cell one move beyond each of the bot's next cells (room to keep going)
    opponent: float = 1.5  # per cell an opponent can move to
    kill: float = 60.0  # per opponent left with no move
    exposed: float = 40.0  # per opponent able to make all the bot's active tiles inactive
    overlap: float = 2.0  # per cell shared with an opponent's moves


class GreedyBot:
    """One-move lookahead on mobility, opponents' mobility and exposure (the ``default`` bot)."""

    name = "default"

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        self.rng = random.Random(seed)
        self.w = weights or Weights()

    def choose(self, state: GameState[Any], seat: str) -> Action:
        from gm.games.gridmaster4.engine import PLAY, GridMaster4State

        assert isinstance(state, GridMaster4State)
        st = state
        n = st.next_tile(seat)
        names = st.geo.names
        if st.phase == PLAY:
            candidates = st.move_cells(seat)
        else:
            candidates = st.open_cell_list()
        if n == st.rules.winning_tile:  # placing the winning tile anywhere ends the game at once
            return Place(names[candidates[0]], n)
        best: list[int] = []
        best_v = float("-inf")
        deactivates = st.phase == PLAY
        base = {s: self._cells(st, self._tiles(st, s, set(), None)) for s in st.in_play}
        degree: dict[int, int] = {}  # open cells one move from a cell, filled in on demand
        for c in candidates:
            v = self.value(st, seat, c, deactivates, base, degree)
            if v > best_v + 1e-9:
                best, best_v = [c], v
            elif abs(v - best_v) <= 1e-9:
                best.append(c)
        return Place(names[self.rng.choice(best)], n)

    @staticmethod
    def _tiles(st: GridMaster4State, seat: str, hit: set[int], new: int | None) -> set[int]:
        """The active tiles ``seat`` builds on after ``hit`` went inactive and ``new`` was placed."""
        if st.rules.build_from == "own":
            tiles = st.actives[seat] - hit if hit else set(st.actives[seat])
        else:
            tiles = {t for s in st.in_play for t in st.actives[s] if t not in hit}
        if new is not None and (st.rules.build_from == "any" or st.owner[new] < 0):
            tiles.add(new)
        return tiles

    @staticmethod
    def _cells(st: GridMaster4State, tiles: Iterable[int], taken: int = -1) -> set[int]:
        """Open cells one move from ``tiles`` (``taken`` counts as occupied)."""
        reach, owner = st.geo.reach, st.owner
        return {u for t in tiles for u in reach[t] if owner[u] < 0 and u != taken}

    def value(
        self,
        st: GridMaster4State,
        seat: str,
        cell: int,
        deactivates: bool,
        base: dict[str, set[int]],
        degree: dict[int, int],
    ) -> float:
        """Score of the position after ``seat`` places on ``cell``.

        ``base``: every seat's move cells now; ``degree``: open cells one move from each cell now."""
        reach, owner, active = st.geo.reach, st.owner, st.active
        w = self.w
        hit: set[int] = set()
        if deactivates:
            any_colour = st.rules.deactivate == "any" or st.rules.build_from == "any"
            me = SEATS.index(seat)
            hit = {u for u in reach[cell] if active[u] and (any_colour or owner[u] == me)}

        def cells_after(s: str) -> set[int]:
            if hit and (st.rules.build_from == "any" or not hit.isdisjoint(st.actives[s])):
                cells = self._cells(st, self._tiles(st, s, hit, None), cell)
            else:
                cells = base[s] - {cell}
            if s == seat or st.rules.build_from == "any":
                cells |= {u for u in reach[cell] if owner[u] < 0}
            return cells

        mine = self._tiles(st, seat, hit, cell)
        my_cells = cells_after(seat)
        if not my_cells:
            return -1e6
        v = w.mobility * len(my_cells)
        if w.reach2:
            room = 0
            for u in my_cells:
                d = degree.get(u)
                if d is None:
                    d = degree[u] = sum(1 for x in reach[u] if owner[x] < 0)
                room += d
            v += w.reach2 * room
        for o in st.in_play:
            if o == seat:
                continue
            o_cells = cells_after(o)
            if not o_cells:
                v += w.kill
                continue
            v -= w.opponent * len(o_cells)
            shared = o_cells & my_cells
            if shared:
                v -= w.overlap * len(shared)
                # can one move of theirs make all my active tiles inactive?
                if any(all(x in reach[t] for t in mine) for x in shared):
                    v -= w.exposed
        return v


def play_out(state: GameState[Any], bots: dict[str, Bot]) -> Outcome:
    """Let ``bots`` (seat -> bot) play ``state`` to the end; return the outcome."""
    while state.outcome is None:
        (seat,) = state.to_act()
        state.apply(seat, bots[seat].choose(state, seat))
    return state.outcome


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "default": GreedyBot}


def evaluate(state: GameState[Any]) -> dict[str, float]:
    """How a GridMaster4 game stands for each seat, for the search bot's rollouts it stops early: each seat's
    share of the room to move (its open cells one move away; none for a blocked seat), weighted by how near
    its tiles are to the winning one."""
    from gm.games.gridmaster4.engine import GridMaster4State

    assert isinstance(state, GridMaster4State)
    st = state
    weights = {}
    for seat in st.seats:
        room = len(st.move_cells(seat)) if seat in st.in_play else 0
        weights[seat] = (room + 0.5 * min(room, 1)) * (1.0 + st.score[seat] / st.rules.winning_tile)
    total = sum(weights.values())
    if total <= 0:
        return dict.fromkeys(st.seats, 1.0 / len(st.seats))
    return {seat: w / total for seat, w in weights.items()}


#: the search bot tuned for GridMaster4 (:meth:`gm.core.game.Game.search_hints`)
SEARCH: dict[str, Any] = {"evaluate": evaluate, "iters": 80, "depth": 12}
