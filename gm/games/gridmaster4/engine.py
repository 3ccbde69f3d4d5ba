"""The GridMaster4 rules engine.

Phases: ``opening`` (each player places tile 1 anywhere, in seat order) ->
``play`` (normal moves, in seat order) -> after a block, ``free`` (each player
still in play places a tile anywhere) -> ``play`` ... -> ``over``.

A block is not an action: when a player's normal turn starts and they have no
legal move the engine declares them blocked (GM4-R-BLOCK-CHECK), inside the
``_apply`` of the move before, so ``to_act`` always names a seat that can act.
The same step keeps the cells the seat to act may move to (``options``), so checking
and listing its moves costs no search.  What a move does is stated once, in
:mod:`gm.games.gridmaster4.moves`; ``_check`` returns it as a plan that
``_apply`` carries out.  There is no chance in the game: it never draws (``state.draw``).
"""

from __future__ import annotations

from bisect import bisect_left
from enum import StrEnum
from functools import lru_cache
from operator import itemgetter
from typing import Any

from gm.core.actions import Action
from gm.core.errors import IllegalActionError, InvalidActionError
from gm.core.events import Event
from gm.core.outcome import Outcome
from gm.core.state import ActionSpace, GameState
from gm.games.gridmaster4.actions import Place, PlaceRow, PlaceTable
from gm.games.gridmaster4.grid import Geometry, geometry
from gm.games.gridmaster4.moves import any_colour, builders, deactivation, move_cells
from gm.games.gridmaster4.rules import COLOURS, LETTERS, SEATS, BuildFrom, GridMaster4Rules


# alike on purpose: every game's engine declares its seats and its phases and decisions as enums of this
# shape; each names its own game's (the tools, the page and the bots read them)
class Phase(StrEnum):
    """The phases of a game (values are what snapshots and transcripts show)."""

    OPENING = "opening"
    PLAY = "play"
    FREE = "free"
    OVER = "over"


class Decision(StrEnum):
    """The one kind of decision a seat makes (the tool layer maps it to ``place_tile``)."""

    PLACE_TILE = "place_tile"


class EventKind(StrEnum):
    """The kinds of the engine's events."""

    PLACED = "placed"
    DEACTIVATED = "deactivated"
    PLAY_BEGINS = "play_begins"
    PLAY_RESUMES = "play_resumes"
    BLOCKED = "blocked"
    FREE_ROUND = "free_round"
    GAME_OVER = "game_over"


# the phases and the decision by their old names (kept for the board, the bots and the tests)
OPENING, PLAY, FREE, OVER = Phase.OPENING, Phase.PLAY, Phase.FREE, Phase.OVER
DECISION = Decision.PLACE_TILE
#: rejections list the legal moves when there are at most this many, otherwise a summary
LIST_LIMIT = 32

_SEAT_INDEX = {s: i for i, s in enumerate(SEATS)}
_LOWER = tuple(LETTERS[s].lower() for s in SEATS)
_PLACED_RULE = {OPENING: "GM4-FIRST", FREE: "GM4-FREE", PLAY: "GM4-MOVE"}


#: what a checked placement does: the cell (index), the tile number, and the active tiles it makes
#: inactive (GM4-DEACTIVATE; none for a first tile or a free placement) - what ``_check`` returns
#: and ``_apply`` carries out
Plan = tuple[int, int, tuple[int, ...]]


@lru_cache(maxsize=64)
def _places(geo: Geometry) -> PlaceTable:
    return PlaceTable(geo.names)


class OpenPlacements(ActionSpace):
    """A placement of tile ``number`` on any open cell (first tiles and free placements): up to
    the whole board, so counted and drawn from rather than listed; cells in ascending order."""

    __slots__ = ("cells", "row")

    def __init__(self, cells: tuple[int, ...], row: PlaceRow) -> None:
        self.cells = cells
        self.row = row

    def __len__(self) -> int:
        return len(self.cells)

    def __getitem__(self, i: int) -> Action:
        return self.row[self.cells[i]]


def _ev(kind: str, rule: str, template: str, **data: Any) -> Event:
    return Event(kind, rule, template, data)


class GridMaster4State(GameState[GridMaster4Rules]):
    """State of one game of GridMaster4."""


    # ----------------------------------------------------------------- setup
    def _setup(self) -> None:
        r = self.rules
        self.geo: Geometry = geometry(r.columns, r.rows, r.orthogonal, r.diagonal)
        self.places: PlaceTable = _places(self.geo)
        self.every_colour = any_colour(r)  # a normal move makes every colour's tiles inactive (GM4-R-DEACT-ANY)
        n = r.cells
        self.order: tuple[str, ...] = r.seats  # turn order of the seats taking part (GM4-TURN)
        self.owner: list[int] = [-1] * n  # seat index per cell, -1 = open
        self.number: list[int] = [0] * n
        self.active: list[bool] = [False] * n
        self.actives: dict[str, set[int]] = {s: set() for s in self.order}  # active cells per seat
        self.score: dict[str, int] = dict.fromkeys(self.order, 0)  # GM4-SCORE
        self.placed_at: dict[str, int] = dict.fromkeys(self.order, 0)  # move number of each seat's last tile
        self.in_play: list[str] = list(self.order)
        self.after: dict[str, str] = self._successors()  # the next seat in play after each seat
        self.blocked: list[str] = []  # in the order they were blocked
        self.alone_since: int | None = None  # the tile count when only one player was left (GM4-R-LAST)
        self.phase = OPENING
        self.current: str | None = self.order[0]
        self.free_queue: list[str] = []
        self.free_start: str | None = None  # first seat of the current free round; normal play resumes there
        self.moves = 0  # tiles placed so far
        self.open_cells = n
        self.open_list: list[int] = list(range(n))  # the open cells, ascending
        self.options: tuple[int, ...] = ()  # in normal play: the cells the seat to act may move to, ascending
        self.last: dict[str, Any] = {}

    # --------------------------------------------------------------- queries
    def decision(self, seat: str) -> Decision | None:
        """The kind of decision ``seat`` must make now (``None``: nothing)."""
        return DECISION if seat == self.current else None

    def next_tile(self, seat: str) -> int:
        """The number of ``seat``'s next tile (GM4-NEXT)."""
        return self.score[seat] + 1

    def builders(self, seat: str) -> list[int]:
        """Cells of the active tiles ``seat`` builds on (GM4-R-OWN-TILES, or any colour), ascending."""
        return sorted(builders(self.rules, self.actives, seat)) if seat in self.actives else []

    def move_cells(self, seat: str) -> list[int]:
        """Open cells one legal move from ``seat``'s active tiles, ascending (GM4-MOVE, GM4-EDGE)."""
        if seat not in self.actives:
            return []
        return sorted(move_cells(self.geo.reach, self.owner, builders(self.rules, self.actives, seat)))

    def deactivation(self, seat: str, cell: int) -> tuple[int, ...]:
        """The active tiles a normal move by ``seat`` onto ``cell`` would make inactive, ascending."""
        return deactivation(self.geo.reach, self.owner, self.active, _SEAT_INDEX[seat], cell, self.every_colour)

    def open_cell_list(self) -> list[int]:
        """The open cells, ascending."""
        return list(self.open_list)

    def anywhere(self, seat: str) -> bool:
        """Whether ``seat``'s next placement may go on any open cell (its first tile, or its free
        placement), not only one move from its active tiles."""
        return self.phase == OPENING or (self.phase == FREE and seat in self.free_queue)

    def placement_cells(self, seat: str) -> list[int]:
        """Cells ``seat`` may place on if it were their turn now (free in the opening and free rounds)."""
        if seat not in self.in_play:
            return []
        if self.anywhere(seat):
            return self.open_cell_list()
        return self.move_cells(seat)

    def tile(self, cell: int) -> tuple[str, int, bool] | None:
        """``(seat, number, active)`` of the tile on ``cell``, or ``None``."""
        o = self.owner[cell]
        if o < 0:
            return None
        return SEATS[o], self.number[cell], self.active[cell]

    def describe(self, cell: int) -> str:
        """``"orange 37 at K12"``."""
        t = self.tile(cell)
        name = self.geo.names[cell]
        return f"{t[0]} {t[1]} at {name}" if t else f"open {name}"

    # ------------------------------------------------------------ turn model
    def is_out(self, seat: str) -> bool:
        """A blocked colour makes no more moves while the others play on (GM4-BLOCKED)."""
        return seat in self.blocked and self.outcome is None

    def _to_act(self) -> tuple[str, ...]:
        return (self.current,) if self.current is not None else ()

    def _legal(self, seat: str) -> tuple[Action, ...] | ActionSpace:
        row = self.places.row(self.score[seat] + 1)
        if self.phase != PLAY:
            return OpenPlacements(tuple(self.open_list), row)
        options = self.options
        return itemgetter(*options)(row) if len(options) > 1 else (row[options[0]],)

    def legal_summary(self, seat: str) -> list[str]:
        """The seat's options in short: every move when there are at most ``LIST_LIMIT``, else the
        moves from each active tile; a placement on any open cell as one line."""
        if seat != self.current:
            return []
        n = self.next_tile(seat)
        if self.phase != PLAY:
            return [f"place {n} at any open cell ({self.open_cells} open)"]
        names = self.geo.names
        if len(self.options) <= LIST_LIMIT:
            return [f"place {n} at {names[c]}" for c in self.options]
        reach, owner = self.geo.reach, self.owner
        return [
            f"place {n} one move from {names[t]}: {', '.join(names[u] for u in reach[t] if owner[u] < 0)}"
            for t in self.builders(seat)
            if any(owner[u] < 0 for u in reach[t])
        ]

    def _turn_error(self, seat: str, action: Action) -> IllegalActionError:
        """A seat out of turn hears whose turn it is, by colour, and why."""
        who = self.current or "nobody"
        if seat not in self.order:
            playing = ", ".join(self.order)
            return IllegalActionError(
                f"{seat} is not playing: this game has {len(self.order)} player(s): {playing}",
                rule="GM4-PLAYERS",
                input=str(action),
            )
        if seat in self.blocked:
            return IllegalActionError(
                f"{seat} is blocked and out of play; it is {who}'s turn", rule="GM4-BLOCKED", input=str(action)
            )
        return IllegalActionError(f"it is {who}'s turn, not {seat}'s", rule="GM4-TURN", input=str(action))

    def _check(self, seat: str, action: Action) -> Plan:
        if not isinstance(action, Place):
            raise InvalidActionError(
                "the only action is placing a tile", rule="GM4-SYNTAX", input=str(action), legal=self.legal_summary(seat)
            )
        cell = self.geo.index.get(action.cell)
        if cell is None:
            r = self.rules
            raise IllegalActionError(
                f"{action.cell} is not on the {r.columns}x{r.rows} board (A1 to {self.geo.names[-1]})",
                rule="GM4-BOARD",
                input=str(action),
                legal=self.legal_summary(seat),
            )
        n = self.score[seat] + 1
        if action.number is not None and action.number != n:
            raise IllegalActionError(
                f"{seat}'s next tile is {n}, not {action.number}",
                rule="GM4-FIRST" if n == 1 else "GM4-NEXT",
                input=str(action),
                legal=self.legal_summary(seat),
            )
        if self.owner[cell] >= 0:
            raise IllegalActionError(
                f"{action.cell} is taken ({self.describe(cell)})",
                rule="GM4-OPEN",
                input=str(action),
                legal=self.legal_summary(seat),
            )
        if self.phase != PLAY:
            return cell, n, ()
        if cell not in self.options:
            raise self._not_a_move(seat, action, cell)
        return cell, n, deactivation(self.geo.reach, self.owner, self.active, _SEAT_INDEX[seat], cell, self.every_colour)

    def _not_a_move(self, seat: str, action: Place, cell: int) -> IllegalActionError:
        r = self.rules
        tiles = ", ".join(self.geo.names[c] for c in self.builders(seat))
        reason = (
            f"{action.cell} is not exactly {r.orthogonal} cells up/down/left/right or {r.diagonal} diagonally "
            f"from an active tile of {seat} ({tiles})"
        )
        rule = "GM4-MOVE"
        others = self._other_builders(seat, cell)
        if others:  # one move from another colour's active tile: the ruling decides
            reason += f"; it is one move from {others}, but a player builds only on their own active tiles"
            rule = "GM4-R-OWN-TILES"
        return IllegalActionError(reason, rule=rule, input=str(action), legal=self.legal_summary(seat))

    def _other_builders(self, seat: str, cell: int) -> str:
        """Other colours' active tiles one move from ``cell`` (only when players build on their own)."""
        if self.rules.build_from != BuildFrom.OWN:
            return ""
        return ", ".join(
            self.describe(u) for u in self.geo.reach[cell] if self.active[u] and SEATS[self.owner[u]] != seat
        )

    # ------------------------------------------------------------------ apply
    def _apply(self, seat: str, action: Action, plan: Plan) -> list[Event]:
        cell, n, hit = plan
        phase = self.phase
        self.owner[cell], self.number[cell], self.active[cell] = _SEAT_INDEX[seat], n, True
        self.actives[seat].add(cell)
        self.open_cells -= 1
        del self.open_list[bisect_left(self.open_list, cell)]
        self.moves += 1
        self.score[seat] = n
        self.placed_at[seat] = self.moves
        name = self.geo.names[cell]
        also = self._normal_move_rules(seat, cell) if phase == PLAY else self._placed_rules(cell, phase)
        if len(self.in_play) == 1 and len(self.order) > 1:
            also.append("GM4-R-LAST")
        events = [
            Event(EventKind.PLACED, _PLACED_RULE[phase], "{seat} places {number} at {cell}",
                  {"seat": seat, "number": n, "cell": name, "also": also})
        ]
        self.last = {"seat": seat, "number": n, "cell": name, "deactivated": []}
        if hit:
            self._deactivate(seat, hit, events)
        if n == self.rules.winning_tile:
            self._finish(Outcome(seat, f"placed tile {n}", "GM4-WIN-TILE", dict(self.score)), events)
        elif phase == PLAY:  # the turn passes on (GM4-TURN); the next seat is checked for moves
            nxt = self.current = self.after[seat]
            options = move_cells(self.geo.reach, self.owner, builders(self.rules, self.actives, nxt))
            if options:
                self.options = tuple(sorted(options))
            else:
                self._settle(events)
        else:
            self._advance(seat, events)
        return events

    def _normal_move_rules(self, seat: str, cell: int) -> list[str]:
        """The rules besides GM4-MOVE that decided a normal move just made onto ``cell``."""
        also = ["GM4-OPEN", "GM4-ACTIVE", "GM4-SCORE", "GM4-NEXT"]
        if self.rules.build_from == BuildFrom.OWN:
            also.append("GM4-R-OWN-TILES")
        # the edge cut this player's options, or the cell was reachable from two active tiles
        edge, near = self.geo.edge, self.geo.reach_sets
        reached = 0
        for c in builders(self.rules, self.actives, seat):
            if c != cell:
                if edge[c]:
                    break
                reached += cell in near[c]
        else:
            if reached < 2:
                return also
        also.append("GM4-EDGE")
        return also

    def _placed_rules(self, cell: int, phase: Phase) -> list[str]:
        """The rules besides the phase's own that decided a first tile or a free placement on ``cell``."""
        also = ["GM4-OPEN", "GM4-ACTIVE", "GM4-SCORE"] if phase == OPENING else \
            ["GM4-OPEN", "GM4-ACTIVE", "GM4-SCORE", "GM4-NEXT", "GM4-R-FREE-TILE"]
        active = self.active
        if any(active[u] for u in self.geo.reach[cell]):  # a normal move here would have made them inactive
            also.append("GM4-R-NO-DEACT-FREE")
        return also

    def _deactivate(self, seat: str, hit: tuple[int, ...], events: list[Event]) -> None:
        """Make inactive the tiles of the plan (GM4-DEACTIVATE, GM4-R-REACH)."""
        si = _SEAT_INDEX[seat]
        owner, number, active, actives, names = self.owner, self.number, self.active, self.actives, self.geo.names
        tiles, shown = [], []
        foreign = False
        for u in hit:
            active[u] = False
            o = owner[u]
            s = SEATS[o]
            actives[s].discard(u)
            tiles.append(f"{s} {number[u]} at {names[u]}")
            shown.append(f"{_LOWER[o]}{number[u]}")
            foreign = foreign or o != si
        self.last["deactivated"] = tiles
        also = ["GM4-R-REACH", "GM4-R-INACTIVE-SHOW", "GM4-R-DEACT-ANY"] if foreign else ["GM4-R-REACH", "GM4-R-INACTIVE-SHOW"]
        events.append(Event(EventKind.DEACTIVATED, "GM4-DEACTIVATE", "now inactive: {tiles}",
                            {"tiles": ", ".join(tiles), "cells": [names[u] for u in hit], "shown": shown, "also": also}))

    def _next_after(self, seat: str) -> str:
        """The next seat still in play after ``seat`` in turn order (``seat`` may be out already)."""
        return self.after[seat]

    def _successors(self) -> dict[str, str]:
        """Each seat's next seat still in play, in turn order (empty once nobody is in play)."""
        k = len(self.order)
        out = {}
        for i, seat in enumerate(self.order):
            for step in range(1, k + 1):
                s = self.order[(i + step) % k]
                if s in self.in_play:
                    out[seat] = s
                    break
        return out

    def _advance(self, seat: str, events: list[Event]) -> None:
        """Pass the turn after ``seat`` placed a tile, then settle any blocks."""
        if self.phase == OPENING:
            if all(self.score[s] > 0 for s in self.order):
                self.phase = PLAY
                self.current = self.order[0]
                events.append(_ev(EventKind.PLAY_BEGINS, "GM4-TURN", "normal play begins: {seat} to move", seat=self.current,
                                  also=["GM4-PLAYERS", "GM4-R-SEATS"]))
            else:
                self.current = self._next_after(seat)
        elif self.phase == FREE:
            self.free_queue.remove(seat)
            if self.free_queue:
                self.current = self.free_queue[0]
            else:
                self.phase = PLAY
                self.current = self.free_start if self.free_start in self.in_play else self._next_after(seat)
                events.append(_ev(EventKind.PLAY_RESUMES, "GM4-R-FREE-ORDER", "normal play resumes: {seat} to move",
                                  seat=self.current, also=["GM4-FREE"] + (["GM4-R-LAST"] if len(self.in_play) == 1 else [])))
        else:
            self.current = self._next_after(seat)
        self._settle(events)

    def _settle(self, events: list[Event]) -> None:
        """Declare blocks until the seat to act can act or the game is over (GM4-R-BLOCK-CHECK)."""
        while self.current is not None and self.outcome is None:
            seat = self.current
            if self.phase == PLAY:
                options = move_cells(self.geo.reach, self.owner, builders(self.rules, self.actives, seat))
                if options:
                    self.options = tuple(sorted(options))
                    return
                self._block(seat, events, rule="GM4-BLOCKED")
            elif self.phase == FREE and self.open_cells == 0:
                self._block(seat, events, rule="GM4-R-FULL")
            else:
                return

    def _block(self, seat: str, events: list[Event], rule: str) -> None:
        """Remove ``seat`` from play; its tiles stay, all inactive (GM4-R-BLOCKED-TILES); start a free round."""
        self.in_play.remove(seat)
        self.blocked.append(seat)
        self.after = self._successors()
        if len(self.in_play) == 1 and len(self.order) > 1:
            self.alone_since = self.moves
        for c in self.actives[seat]:
            self.active[c] = False
        self.actives[seat].clear()
        why = "no open cell for a free placement" if rule == "GM4-R-FULL" else "no legal move"
        events.append(_ev(EventKind.BLOCKED, rule, "{seat} has {why} and is blocked (score {score})", seat=seat, why=why,
                          score=self.score[seat],
                          also=[r for r in ("GM4-BLOCKED", "GM4-R-BLOCK-CHECK", "GM4-R-BLOCKED-TILES") if r != rule]))
        if not self.in_play:
            self._end_all_blocked(events)
            return
        start = self._next_after(seat)
        i = self.in_play.index(start)
        self.free_queue = self.in_play[i:] + self.in_play[:i]
        self.free_start = start
        self.phase = FREE
        self.current = start
        events.append(_ev(EventKind.FREE_ROUND, "GM4-FREE", "free placements, one tile each in any open cell: {order}",
                          order=", ".join(self.free_queue),
                          also=["GM4-R-FREE-ORDER"] + (["GM4-R-LAST"] if len(self.in_play) == 1 else [])))

    def _end_all_blocked(self, events: list[Event]) -> None:
        """Everybody is blocked: the largest tile on the board wins (GM4-WIN-BLOCKED, GM4-R-TIE)."""
        best = max(self.score.values())
        tied = [s for s in self.order if self.score[s] == best]
        winner = min(tied, key=lambda s: self.placed_at[s])
        if len(tied) > 1:
            reason = f"all players blocked; {', '.join(tied)} tie on {best}, {winner} placed it first"
            rule = "GM4-R-TIE"
        else:
            reason = f"all players blocked; largest tile {best}"
            rule = "GM4-WIN-BLOCKED"
        also = ["GM4-WIN-BLOCKED"] if rule == "GM4-R-TIE" else []
        self._finish(Outcome(winner, reason, rule, dict(self.score)), events, also)

    def _finish(self, outcome: Outcome, events: list[Event], also: list[str] | None = None) -> None:
        also = list(also or [])
        if self.alone_since is not None and self.moves > self.alone_since:
            also.append("GM4-R-LAST")  # the last player left played on alone to the end
        self.outcome = outcome
        self.phase = OVER
        self.current = None
        self.free_queue = []
        events.append(_ev(EventKind.GAME_OVER, outcome.rule, "game over: {result}", result=str(outcome), also=also))

    # --------------------------------------------------------------- views
    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data (nothing in GridMaster4 is secret)."""
        names = self.geo.names
        tiles = [
            {"cell": names[c], "seat": SEATS[o], "number": self.number[c], "active": self.active[c]}
            for c, o in enumerate(self.owner)
            if o >= 0
        ]
        players = [
            {
                "seat": s,
                "colour": COLOURS[s],
                "score": self.score[s],
                "next_tile": self.next_tile(s) if s in self.in_play else None,
                "status": "playing" if s in self.in_play else "blocked",
                "active_tiles": [names[c] for c in sorted(self.actives[s])],
            }
            for s in self.order
        ]
        return {
            "phase": self.phase.value,
            "moves": self.moves,
            "to_act": list(self.to_act()),
            "decision": DECISION.value if self.current and self.outcome is None else None,
            "players": players,
            "blocked": list(self.blocked),
            "free_round": list(self.free_queue),
            "open_cells": self.open_cells,
            "tiles": tiles,
            "last": dict(self.last),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` sees: everything (no hidden information), plus for a player a ``you``
        block with its next tile and the cells it may place on.  A spectator's view is the
        snapshot itself."""
        out = self.snapshot()
        if seat is None or seat not in self.order:
            return out
        anywhere = self.anywhere(seat)
        playing = seat in self.in_play
        out["you"] = {
            "seat": seat,
            "to_act": seat in self.to_act(),
            "next_tile": self.next_tile(seat) if playing else None,
            "cells": "any open cell" if anywhere and playing else [self.geo.names[c] for c in self.placement_cells(seat)],
        }
        return out
