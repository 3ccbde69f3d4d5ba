"""One down on the field: pieces, movement, abilities, tackles, collisions, passes and play action.

A :class:`Field` is the mutable on-field state of the current down.  The game state
(:mod:`.engine`) owns it and drives its phases: ``start_phase(team)`` then piece actions
(``check`` raises :class:`IllegalActionError` with a rule id and changes nothing,
``apply`` carries a checked action out), ``ball_step`` at the end of each turn.  When the
down ends ``result`` is set (``tackle``, ``whistle``, ``incomplete``, ``interception``,
``touchdown``, ``safety``) and the engine does the down bookkeeping.

Plans are checked on a ``clone(sim=True)``: a simulation of the team's own rows, each
assumed to succeed (no dice, collisions won, no tackles) - see ruling CF-R-PLAN-CHECK.

Squares are ``(column index, row)``, column 0 = ``A``, rows 1..48.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from gm.core.errors import IllegalActionError
from gm.core.events import Event
from gm.games.chess_football.actions import (
    ABILITY_WORDS,
    Ability,
    BallChoice,
    Done,
    Move,
    Pass,
    PieceAction,
    PlayAction,
)
from gm.games.chess_football.rules import POSITIONS, ChessFootballRules

Square = tuple[int, int]
Spot = tuple[Square, str]
DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
INF = 10**9
_REACH_CACHE: dict[tuple[Any, ...], dict[Square, int]] = {}
_NEIGHBOURS: dict[tuple[int, int], dict[Square, tuple[tuple[int, Square], ...]]] = {}


@lru_cache(maxsize=32)
def _paths(mp: int, dcc: int) -> tuple[tuple[int, int, int, tuple[tuple[int, int], ...]], ...]:
    """Every king-step path a restricted piece can afford with ``mp``, as (dx, dy, cost,
    intermediate squares), cheapest first: a destination is reached at the cost of its first
    path whose intermediate squares are free."""
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


def _neighbours(cols: int, rows: int) -> dict[Square, tuple[tuple[int, Square], ...]]:
    got = _NEIGHBOURS.get((cols, rows))
    if got is None:
        got = _NEIGHBOURS[(cols, rows)] = {
            (c, r): tuple((i, (c + dc, r + dr)) for i, (dc, dr) in enumerate(DIRS)
                          if 0 <= c + dc < cols and 1 <= r + dr <= rows)
            for c in range(cols) for r in range(1, rows + 1)
        }
    return got




def col_letter(col: int) -> str:
    return chr(ord("A") + col)


@lru_cache(maxsize=4096)
def _sq(square: Square) -> str:
    return f"{col_letter(square[0])}{square[1]}"


def sq(square: Square | None) -> str:
    """``(7, 12)`` -> ``"H12"``."""
    if square is None:
        return "-"
    return _sq(square)


@lru_cache(maxsize=4096)
def parse_square(text: str) -> Square:
    """``"H12"`` -> ``(7, 12)`` (no bounds check)."""
    t = text.strip().upper()
    return ord(t[0]) - ord("A"), int(t[1:])


def cheb(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def ev(kind: str, rule: str, template: str, **data: Any) -> Event:
    """An event; ``also`` (a list of rule ids) names the other rules that decided it."""
    if "also" in data and not data["also"]:
        del data["also"]
    return Event(kind, rule, template, data)


#: the captains' abilities behind the pass modifier rows (ruling CF-R-PASS-MODS)
_MOD_ALSO = {
    "CF-PASS-MOD-SAFETY": ("CF-INTERCEPT", "CF-R-PASS-MODS"),
    "CF-PASS-MOD-RUSHER": ("CF-PRESSURE", "CF-R-PASS-MODS"),
    "CF-PASS-MOD-DEEP": ("CF-CATCHING", "CF-R-PASS-MODS"),
    "CF-PASS-MOD-LEAD": ("CF-CHECK-DOWN", "CF-R-PASS-MODS"),
}


class Piece:
    """One piece on the field."""

    __slots__ = ("base", "id", "pos", "role", "side", "spec", "sq", "team")

    def __init__(self, id: str, team: str, side: str, base: str, role: str | None, square: Square, pos: str) -> None:
        self.id = id
        self.team = team
        self.side = side  # offense / defense
        self.base = base  # heavy / strong / fast / qb
        self.role = role  # captain role, or None for a standard piece
        self.sq = square
        self.pos = pos
        #: movement, restricted, active abilities (-> cost), passives - filled in by the Field
        self.spec: tuple[int, bool, dict[str, int], list[str]] = (0, False, {}, [])

    def copy(self) -> Piece:
        p = Piece(self.id, self.team, self.side, self.base, self.role, self.sq, self.pos)
        p.spec = self.spec
        return p

    @property
    def spot(self) -> Spot:
        return self.sq, self.pos

    @property
    def heavy(self) -> bool:
        """Heavy-type: a Heavy or a Heavy-based captain (ruling CF-R-HEAVY)."""
        return self.base == "heavy"

    @property
    def kind_name(self) -> str:
        return self.role or self.base

    def __repr__(self) -> str:
        return f"<{self.id} {sq(self.sq)} {self.pos}>"


class Field:
    """The state of one down (see the module docstring)."""

    def __init__(
        self,
        rules: ChessFootballRules,
        *,
        offense: str,
        defense: str,
        off_dir: int,
        los: int,
        fdl: int,
        pieces: dict[str, Piece],
        carrier: str,
        snap_no: int,
        last_used: dict[tuple[str, str, str], int],
        rng: random.Random | None,
    ) -> None:
        self.rules = rules
        self.offense = offense
        self.defense = defense
        self.off_dir = off_dir
        self.los = los
        self.fdl = fdl
        self.pieces = pieces
        self.carrier = carrier
        self.snap_no = snap_no
        self.last_used = last_used  # shared with the game state: (team, piece, ability) -> snap number
        self.rng = rng
        self.sim = False
        self.hidden = False
        self.pair: tuple[str, str] | None = None  # (play-action carrier, partner)
        self.wrapped: set[str] = set()
        self.pa_used = False
        self.pass_decl: tuple[str, str] | None = None
        self.pass_thrown = False
        self.turn = 1
        self.phase_idx = 0
        self.acting: str | None = None
        self.mp: dict[str, int] = {}
        self.moved: set[str] = set()
        self.used: dict[str, set[str]] = {}
        self.finished: set[str] = set()
        self.floor = 0
        self.ball_choice_used = False
        self.phase_start: dict[str, Spot] = {}
        self.mod: dict[str, int] = {}
        self.frozen: set[str] = set()
        self.jam_until: dict[str, int] = {}
        self.seal_until: dict[str, int] = {}
        self.immovable_until: dict[str, int] = {}
        self.result: dict[str, Any] | None = None
        self.events: list[Event] = []
        self._bc: dict[tuple[str, bool, bool], tuple[frozenset[Square], frozenset[Square]]] = {}
        r = rules
        self._rank = {name: i for i, name in enumerate(r.movement_order)}
        for p in pieces.values():
            p.spec = self._spec(p)

    # ------------------------------------------------------------ copying
    def clone(self, *, sim: bool) -> Field:
        f = Field.__new__(Field)
        f.__dict__.update(self.__dict__)
        f.pieces = {k: p.copy() for k, p in self.pieces.items()}
        f.last_used = dict(self.last_used)
        for name in ("wrapped", "moved", "finished", "frozen"):
            setattr(f, name, set(getattr(self, name)))
        for name in ("mp", "phase_start", "mod", "jam_until", "seal_until", "immovable_until"):
            setattr(f, name, dict(getattr(self, name)))
        f.used = {k: set(v) for k, v in self.used.items()}
        f.result = dict(self.result) if self.result else None
        f.events = []
        f._bc = {}
        f.sim = sim
        if sim:
            f.rng = None
        return f

    # ------------------------------------------------------------ queries
    def team_of(self, side: str) -> str:
        return self.offense if side == "offense" else self.defense

    def dir_of(self, team: str) -> int:
        return self.off_dir if team == self.offense else -self.off_dir

    def team_pieces(self, team: str) -> list[Piece]:
        return [p for p in self.pieces.values() if p.team == team]

    def enemy(self, a: Piece, b: Piece) -> bool:
        return a.team != b.team

    def holder_at(self, square: Square, pos: str, *, besides: str | None = None) -> Piece | None:
        for p in self.pieces.values():
            if p.sq == square and p.pos == pos and p.id != besides:
                return p
        return None

    def at(self, square: Square) -> list[Piece]:
        return [p for p in self.pieces.values() if p.sq == square]

    def free_positions(self, square: Square, *, besides: str | None = None) -> list[str]:
        taken = {p.pos for p in self.pieces.values() if p.sq == square and p.id != besides}
        return [pos for pos in POSITIONS if pos not in taken]

    def on_field(self, square: Square) -> bool:
        return 0 <= square[0] < self.rules.columns and 1 <= square[1] <= self.rules.rows

    def in_end_zone_of(self, team: str, row: int) -> bool:
        """Is ``row`` in the end zone ``team`` defends?"""
        r = self.rules
        return row <= r.low_goal if self.dir_of(team) > 0 else row >= r.high_goal

    def beyond_los(self, row: int) -> int:
        """Rows past the line of scrimmage in the offense's direction (negative: behind it)."""
        return (row - self.los) * self.off_dir

    def rank(self, p: Piece) -> int:
        return self._rank["captain" if p.role else p.base]

    def spec(self, p: Piece) -> tuple[int, bool, dict[str, int], list[str]]:
        """Movement, restricted, active abilities (-> cost), passives."""
        return p.spec

    def _spec(self, p: Piece) -> tuple[int, bool, dict[str, int], list[str]]:
        r = self.rules
        k = r.kinds[p.base]
        if p.role:
            c = r.captains[p.role]
            return c.movement, c.restricted, {**k.abilities, **c.abilities}, list(c.passives)
        return k.movement, k.restricted, dict(k.abilities), []

    def abilities(self, p: Piece) -> dict[str, int]:
        return self.spec(p)[2]

    def has_passive(self, p: Piece, name: str) -> bool:
        return p.role is not None and name in self.rules.captains[p.role].passives

    def in_list(self, p: Piece, names: list[str]) -> bool:
        return (p.role in names) if p.role else (p.base in names)

    def ineligible(self, p: Piece) -> bool:
        return self.in_list(p, self.rules.ineligible_pieces)

    def can_pass(self, p: Piece) -> bool:
        return "pass" in self.abilities(p)

    def qb(self, team: str) -> Piece | None:
        """The team's standard QB (the piece ``Retreat`` moves toward)."""
        for p in self.pieces.values():
            if p.team == team and p.base == "qb" and not p.role:
                return p
        return None

    def limit_ok(self, p: Piece, ability: str) -> bool:
        if ability not in self.rules.limited_abilities:
            return True
        last = self.last_used.get((p.team, p.id, ability))
        return last is None or self.snap_no - last >= self.rules.once_per_downs

    def jammed(self, p: Piece) -> bool:
        return self.jam_until.get(p.id, -1) >= self.phase_idx

    def immovable(self, p: Piece) -> bool:
        return self.immovable_until.get(p.id, -1) >= self.phase_idx

    def sealing(self) -> list[Piece]:
        return [self.pieces[i] for i, until in self.seal_until.items() if until >= self.phase_idx and i in self.pieces]

    def ball_candidates(self) -> tuple[str, ...]:
        """Pieces that may hold the ball as the defense sees it."""
        if self.hidden and self.pair:
            return self.pair
        return (self.carrier,)

    # ------------------------------------------------------------ phases
    def touch(self) -> None:
        """Forget cached board facts (call after moving pieces by hand)."""
        self._bc.clear()

    def start_phase(self, team: str) -> None:
        """Begin ``team``'s part of the current turn: movement allowances for its pieces."""
        self._bc.clear()
        self.phase_idx += 1
        self.acting = team
        self.moved = set()
        self.used = {}
        self.finished = set()
        self.floor = 0
        self.ball_choice_used = False
        self.phase_start = {p.id: p.spot for p in self.pieces.values()}
        self.mp = {}
        r = self.rules
        cands = [self.pieces[c] for c in self.ball_candidates() if c in self.pieces]
        for p in self.team_pieces(team):
            base = self.spec(p)[0]
            if self.turn == 1 and self.in_list(p, r.snap_burst_pieces):
                base += r.snap_burst
            if self.has_passive(p, "escort") and any(cheb(p.sq, c.sq) <= 1 for c in cands if c.id != p.id):
                base += r.move_bonus.get("escort", 1)
                self.events.append(ev("escort", "CF-ESCORT", "{piece} starts next to the ball: +{n} movement",
                                      piece=p.id, n=r.move_bonus.get("escort", 1), also=["CF-R-ESCORT"]))
            base += self.mod.pop(p.id, 0)
            if p.id in self.frozen:
                self.frozen.discard(p.id)
                base = 0
            self.mp[p.id] = max(0, base)

    def can_still_act(self, p: Piece) -> bool:
        return (p.team == self.acting and p.id not in self.finished and p.id not in self.wrapped
                and self.rank(p) >= self.floor)

    def _give_mp(self, p: Piece, delta: int) -> None:
        if self.can_still_act(p):
            self.mp[p.id] = max(0, self.mp.get(p.id, 0) + delta)
        else:
            self.mod[p.id] = self.mod.get(p.id, 0) + delta

    def _freeze(self, p: Piece) -> None:
        if self.can_still_act(p):
            self.mp[p.id] = 0
        else:
            self.frozen.add(p.id)

    # ------------------------------------------------------------ reach
    def reach(self, p: Piece, mp: int, *, rush: bool = False, route: bool = False, ghost: bool = False) -> dict[Square, int]:
        """Cheapest movement cost to every square ``p`` can end a move on (CF-R-STEP, CF-R-PASS-THROUGH);
        ``ghost``: as if no piece blocked the way."""
        r = self.rules
        restricted = p.spec[1] and not route
        ck = (p.team, rush, ghost)
        got = self._bc.get(ck)
        if got is None:
            blocked = frozenset(q.sq for q in self.pieces.values() if q.team != p.team and (not rush or q.heavy) and not ghost)
            seals: set[Square] = set()
            for nb in self.sealing():
                if nb.team != p.team:
                    c0, r0 = nb.sq
                    seals.update((c0 + dc, r0 + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1))
            got = self._bc[ck] = (blocked, frozenset(seals))
        block, sealed = got
        key = (p.sq, mp, restricted, frozenset(block), frozenset(sealed), r.columns, r.rows, r.direction_change_cost, r.seal_cost)
        hit = _REACH_CACHE.get(key)
        if hit is not None:
            return hit
        if len(_REACH_CACHE) > 20000:
            _REACH_CACHE.clear()
        best = _REACH_CACHE[key] = self._reach(p.sq, mp, restricted, block, sealed)
        return best

    def _reach(self, start: Square, mp: int, restricted: bool, block: frozenset[Square], sealed: frozenset[Square]) -> dict[Square, int]:
        """Cheapest costs: path templates for restricted pieces (exact, see :func:`_paths`), else the search."""
        r = self.rules
        if restricted and not sealed and 0 < mp <= 5:
            cols, rows = r.columns, r.rows
            sx, sy = start
            best: dict[Square, int] = {start: 0}
            for dx, dy, cost, inter in _paths(mp, r.direction_change_cost):
                dest = (sx + dx, sy + dy)
                if dest in best or not (0 <= dest[0] < cols and 1 <= dest[1] <= rows):
                    continue
                for ix, iy in inter:
                    q = (sx + ix, sy + iy)
                    if q in block or not (0 <= q[0] < cols and 1 <= q[1] <= rows):
                        break
                else:
                    best[dest] = cost
            return best
        return self._search(start, mp, restricted, block, sealed)

    def _search(self, start: Square, mp: int, restricted: bool, block: frozenset[Square], sealed: frozenset[Square]) -> dict[Square, int]:
        """Bucket-queue Dijkstra over squares (and the last direction, for restricted pieces)."""
        r = self.rules
        nb = _neighbours(r.columns, r.rows)
        dcc, seal_cost = r.direction_change_cost, r.seal_cost
        if mp <= 0:
            return {start: 0}
        if not restricted and not sealed:  # plain king-step BFS
            dist: dict[Square, int] = {start: 0}
            frontier = [start]
            for c in range(1, mp + 1):
                nxt = []
                for s in frontier:
                    if s in block and s != start:
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
                if seen[(s, d)] != c or (s != start and s in block):
                    continue  # stale entry, or a square one may end on but never pass through
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

    def retreat_reach(self, p: Piece) -> set[Square]:
        """Squares a retreat can reach: up to ``retreat_squares`` steps, each closer to the own QB."""
        qb = self.qb(p.team)
        if qb is None:
            return set()
        block = {q.sq for q in self.pieces.values() if q.team != p.team}
        out: set[Square] = set()
        frontier = [p.sq]
        for _ in range(self.rules.retreat_squares):
            nxt = []
            for s in frontier:
                if s != p.sq and s in block:
                    continue
                d0 = cheb(s, qb.sq)
                for dc, dr in DIRS:
                    ns = (s[0] + dc, s[1] + dr)
                    if self.on_field(ns) and cheb(ns, qb.sq) < d0 and ns not in out:
                        out.add(ns)
                        nxt.append(ns)
            frontier = nxt
        return out

    # ------------------------------------------------------------ checking
    def _err(self, rule: str, reason: str, action: object) -> IllegalActionError:
        # the engine adds the legal alternatives (computing them here would recurse)
        return IllegalActionError(reason, rule=rule, input=str(action))

    def _own_piece(self, team: str, pid: str | None, action: object) -> Piece:
        p = self.pieces.get(pid or "")
        if p is None or p.team != team:
            mine = ", ".join(sorted(q.id for q in self.team_pieces(team)))
            raise self._err("CF-TEAM", f"you have no piece {pid} on the field (yours: {mine})", action)
        if p.id in self.wrapped:
            raise self._err("CF-R-PA-TACKLE", f"{p.id} was wrapped up and is out of the down", action)
        if p.id in self.finished:
            raise self._err("CF-R-ONE-MOVE", f"{p.id} is done for this turn", action)
        if self.rank(p) < self.floor:
            order = " -> ".join(self.rules.movement_order)
            # the QB's place (last) and a captain's (first, whatever its base) are a ruling
            ruled = self.floor == self._rank["qb"] or (p.role is not None and self._rank[p.base] >= self.floor)
            rule = "CF-R-QB-ORDER" if ruled else "CF-MOVE-ORDER"
            raise self._err(rule, f"movement order is {order}; {p.id} ({p.kind_name}) can no longer act this turn", action)
        return p

    def _enemy_piece(self, me: Piece, pid: str | None, action: object, *, adjacent: bool = True) -> Piece:
        t = self.pieces.get(pid or "")
        if t is None or t.team == me.team:
            raise self._err("CF-TEAM", f"{pid} is not an opposing piece on the field", action)
        if adjacent and cheb(me.sq, t.sq) > 1:
            raise self._err("CF-R-ADJACENT", f"{t.id} is not adjacent to {me.id}", action)
        return t

    def _ally_piece(self, me: Piece, pid: str | None, action: object) -> Piece:
        t = self.pieces.get(pid or "")
        if t is None or t.team != me.team or t.id == me.id:
            raise self._err("CF-TEAM", f"{pid} is not another piece of your team", action)
        if cheb(me.sq, t.sq) > 1:
            raise self._err("CF-R-ADJACENT", f"{t.id} is not adjacent to {me.id}", action)
        return t

    def _ability_ok(self, p: Piece, name: str, action: object) -> int:
        abil = self.abilities(p)
        if name not in abil:
            rule = "CF-CAPTAIN-INHERIT" if p.role else "CF-ABILITIES"
            have = ", ".join(sorted(abil)) or "none"
            raise self._err(rule, f"{p.id} ({p.kind_name}) has no {name.replace('_', ' ')} (abilities: {have})", action)
        if self.jammed(p):
            raise self._err("CF-JAM", f"{p.id} is jammed: no abilities this turn", action)
        if name in self.used.get(p.id, set()):
            raise self._err("CF-R-ONE-MOVE", f"{p.id} already used {name.replace('_', ' ')} this turn", action)
        if not self.limit_ok(p, name):
            raise self._err("CF-R-ONCE-4", f"{p.id} used {name.replace('_', ' ')} within the last "
                            f"{self.rules.once_per_downs} downs", action)
        cost = abil[name]
        if cost > self.mp.get(p.id, 0):
            raise self._err("CF-MOVEMENT", f"{name.replace('_', ' ')} costs {cost}; {p.id} has {self.mp.get(p.id, 0)} movement left", action)
        return cost

    def _push_target(self, pusher: Piece, t: Piece, action: object) -> Square | None:
        """Where a push sends ``t`` (``None`` for a Swim swap); raise if it cannot be pushed."""
        if self.immovable(t):
            raise self._err("CF-R-ANCHOR", f"{t.id} is anchored and cannot be pushed", action)
        if self.has_passive(t, "swim") and pusher.heavy:
            return None
        back = (t.sq[0], t.sq[1] - self.dir_of(t.team))
        if not self.on_field(back):
            raise self._err("CF-R-PUSH", f"{t.id} cannot be pushed off the field", action)
        if not self.free_positions(back, besides=t.id):
            raise self._err("CF-R-PUSH", f"{sq(back)} is full: {t.id} cannot be pushed there", action)
        return back

    def _check_ineligible(self, p: Piece, row: int, action: object) -> None:
        if (p.team == self.offense and self.ineligible(p) and not self.pass_thrown
                and self.beyond_los(row) > self.rules.ineligible_downfield):
            rule = "CF-R-BLOCKING-CAPTAINS" if p.role else "CF-INELIGIBLE"
            raise self._err(rule, f"{p.id} is an ineligible receiver: before the pass it may go at most "
                            f"{self.rules.ineligible_downfield} row past the line of scrimmage", action)

    def _check_end_spot(self, p: Piece, square: Square, pos: str, action: object) -> None:
        # (a plan simulation lets pieces share a position: look for a teammate among all of them)
        for other in self.pieces.values():
            if other.sq == square and other.pos == pos and other.team == p.team and other.id != p.id:
                raise self._err("CF-R-TEAMMATE-POS", f"{other.id} already stands on {sq(square)} {pos}", action)

    def check(self, team: str, a: object) -> None:
        """Raise :class:`IllegalActionError` unless ``a`` is legal for ``team`` now."""
        if self.result is not None:
            raise IllegalActionError("the down is over", rule="CF-TACKLE", input=str(a))
        if isinstance(a, Done):
            return
        if isinstance(a, BallChoice):
            if team != self.offense or not self.hidden or not self.pair:
                raise self._err("CF-PA-RETURN", "the ball is not hidden: there is no holder to choose", a)
            if a.holder not in self.pair:
                raise self._err("CF-PA-RETURN", f"the ball can only be with {' or '.join(self.pair)}", a)
            if self.ball_choice_used:
                raise self._err("CF-R-PA", "the holder may be chosen once per turn", a)
            return
        if isinstance(a, Move):
            self._check_move(team, a)
        elif isinstance(a, Ability):
            self._check_ability(team, a)
        elif isinstance(a, Pass):
            self._check_pass(team, a)
        elif isinstance(a, PlayAction):
            self._check_play_action(team, a)
        else:
            raise self._err("CF-REACTION", "not a move, ability, pass, play action, ball choice or 'done'", a)

    def _check_move(self, team: str, a: Move) -> None:
        p = self._own_piece(team, a.piece, a)
        if p.id in self.moved:
            raise self._err("CF-R-ONE-MOVE", f"{p.id} has already moved this turn", a)
        target = parse_square(a.to)
        if not self.on_field(target):
            raise self._err("CF-BOARD", f"{a.to} is off the field (columns A-{col_letter(self.rules.columns - 1)}, "
                            f"rows 1-{self.rules.rows})", a)
        if target == p.sq and a.position == p.pos:
            raise self._err("CF-R-POSITION", f"{p.id} already stands on {a.to} {a.position}", a)
        mp = self.mp.get(p.id, 0)
        for flag, name in ((a.rush, "speed_rush"), (a.route, "route_running")):
            if flag:
                mp -= self._ability_ok(p, name, a)
        reach = self.reach(p, mp, rush=a.rush, route=a.route)
        if target not in reach:
            if target in self.reach(p, mp, rush=a.rush, route=a.route, ghost=True):
                if a.rush:
                    raise self._err("CF-R-SPEED-RUSH", f"{p.id} cannot rush through to {a.to}: an opposing Heavy blocks the way", a)
                raise self._err("CF-R-PASS-THROUGH", f"{p.id} cannot get through to {a.to}: opposing pieces block the way", a)
            rule = "CF-MOVE-RESTRICTED" if self.spec(p)[1] and not a.route else "CF-MOVEMENT"
            raise self._err(rule, f"{a.to} is out of reach for {p.id} ({mp} movement left)", a)
        self._check_end_spot(p, target, a.position, a)
        self._check_ineligible(p, target[1], a)

    def _check_ability(self, team: str, a: Ability) -> None:
        p = self._own_piece(team, a.piece, a)
        name = a.ability
        self._ability_ok(p, name, a)
        if name in ("push", "impact"):
            t = self._enemy_piece(p, a.target, a)
            self._push_target(p, t, a)
            if name == "push":
                self._check_ineligible(p, t.sq[1], a)
        elif name in ("engage", "chop_block"):
            self._enemy_piece(p, a.target, a)
        elif name in ("chip_block", "anchor"):
            t = self._ally_piece(p, a.target, a)
            if not t.heavy:
                raise self._err("CF-CHIP" if name == "chip_block" else "CF-ANCHOR", f"{t.id} is not a Heavy", a)
        elif name == "retreat":
            if self.qb(team) is None:
                raise self._err("CF-R-RETREAT", "retreat moves toward your own QB; your team has none on the field", a)
            if p.id in self.moved:
                raise self._err("CF-R-ONE-MOVE", f"{p.id} has already moved this turn", a)
            assert a.to and a.position
            target = parse_square(a.to)
            if target not in self.retreat_reach(p):
                raise self._err("CF-RETREAT", f"{a.to} is not up to {self.rules.retreat_squares} squares toward your QB", a)
            self._check_end_spot(p, target, a.position, a)
        elif name == "jam":
            if not any(q.team != p.team and cheb(q.sq, p.sq) <= 1 for q in self.pieces.values()):
                raise self._err("CF-JAM", f"no opposing piece is adjacent to {p.id}", a)
        elif name == "react" and team != self.defense:
            raise self._err("CF-R-REACT", "React works in the defense's part of the turn", a)
        elif name in ("speed_rush", "route_running", "pass", "play_action"):
            raise self._err("CF-REACTION", f"{name.replace('_', ' ')} is not used on its own", a)

    def _check_pass(self, team: str, a: Pass) -> None:
        pid = a.passer or self.carrier
        if team != self.offense:
            raise self._err("CF-PASS", "only the offense passes", a)
        p = self._own_piece(team, pid, a)
        if not self.can_pass(p):
            raise self._err("CF-PASS", f"only the QB or the Scrambler may pass; {p.id} is a {p.kind_name}", a)
        if self.pass_decl or self.pass_thrown:
            raise self._err("CF-R-PASS-TIMING", "one pass per down", a)
        if p.id != self.carrier:
            raise self._err("CF-PASS", f"{p.id} does not have the ball", a)
        if self.jammed(p):
            raise self._err("CF-JAM", f"{p.id} is jammed: no abilities this turn", a)
        if p.id in self.moved and not self.has_passive(p, "scramble"):
            raise self._err("CF-SCRAMBLE", f"{p.id} has moved this turn; only the Scrambler may pass after moving", a)
        r = self.pieces.get(a.receiver)
        if r is None or r.team != team or r.id == p.id:
            raise self._err("CF-R-RECEIVER", f"{a.receiver} is not a teammate who can catch", a)
        if self.ineligible(r):
            rule = "CF-R-BLOCKING-CAPTAINS" if r.role else "CF-INELIGIBLE"
            raise self._err(rule, f"{r.id} ({r.kind_name}) is an ineligible receiver", a)
        if r.id in self.wrapped:
            raise self._err("CF-R-PA-TACKLE", f"{r.id} was wrapped up", a)

    def _check_play_action(self, team: str, a: PlayAction) -> None:
        if team != self.offense:
            raise self._err("CF-PLAY-ACTION", "only the offense runs play action", a)
        if self.hidden or self.pa_used:
            raise self._err("CF-R-PA", "play action once per down", a)
        if self.pass_decl or self.pass_thrown:
            raise self._err("CF-R-PA", "play action comes before the pass", a)
        p = self._own_piece(team, self.carrier, a)
        if "play_action" not in self.abilities(p):
            raise self._err("CF-PLAY-ACTION", f"the ball carrier {p.id} is not a QB: no play action", a)
        if self.jammed(p):
            raise self._err("CF-JAM", f"{p.id} is jammed: no abilities this turn", a)
        t = self._ally_piece(p, a.partner, a)
        if t.heavy:
            rule = "CF-R-HEAVY" if t.role else "CF-PLAY-ACTION"  # a Heavy-based captain counts as a Heavy
            raise self._err(rule, f"play action needs a non-Heavy ally; {t.id} is a Heavy", a)
        if t.id in self.wrapped:
            raise self._err("CF-R-PA-TACKLE", f"{t.id} was wrapped up", a)
        if a.holder is not None and a.holder not in (p.id, t.id):
            raise self._err("CF-PA-RETURN", f"the ball stays with {p.id} or goes to {t.id}", a)

    # ------------------------------------------------------------ applying
    def apply(self, team: str, a: object) -> None:
        """Carry out a checked action (events go to ``self.events``)."""
        try:
            self._apply(team, a)
        finally:
            self._bc.clear()

    def _apply(self, team: str, a: object) -> None:
        if isinstance(a, Done):
            return
        if isinstance(a, BallChoice):
            self.ball_choice_used = True
            self.carrier = a.holder
            self.events.append(ev("ball_choice", "CF-PA-RETURN", "{team} decides who holds the hidden ball", team=team,
                                  also=["CF-R-PA"]))
            return
        if isinstance(a, Move):
            p = self.pieces[a.piece]
            mp = self.mp.get(p.id, 0)
            abil = self.abilities(p)
            for flag, name in ((a.rush, "speed_rush"), (a.route, "route_running")):
                if flag:
                    mp -= abil[name]
                    self._use(p, name)
            target = parse_square(a.to)
            cost = self.reach(p, mp, rush=a.rush, route=a.route)[target]
            also = self._move_notes(p, a, mp, target, cost)
            self.mp[p.id] = mp - cost
            self.moved.add(p.id)
            self._note_rank(p)
            how = " (speed rush)" if a.rush else " (route running)" if a.route else ""
            self._move_to(p, target, a.position, f"{{piece}} moves {{frm}} -> {{to}} {{pos}}{how}", cost,
                          also=also + self._burst_note(p))
        elif isinstance(a, Ability):
            self._apply_ability(team, a)
        elif isinstance(a, Pass):
            pid = a.passer or self.carrier
            p = self.pieces[pid]
            self._note_rank(p)
            self.finished.add(p.id)
            if self.hidden:
                self.reveal("the pass")
            self.pass_decl = (p.id, a.receiver)
            also = ["CF-PASS"] + (["CF-SCRAMBLE"] if p.id in self.moved else [])
            self.events.append(ev("pass_declared", "CF-R-PASS-TIMING",
                                  "{passer} will pass to {receiver} when the ball moves", passer=p.id, receiver=a.receiver,
                                  also=also))
        elif isinstance(a, PlayAction):
            p = self.pieces[self.carrier]
            self._note_rank(p)
            self.pa_used = True
            self.hidden = True
            self.pair = (p.id, a.partner)
            self.carrier = a.holder or p.id
            self.events.append(ev("play_action", "CF-PLAY-ACTION",
                                  "play action: {qb} fakes with {partner} - the ball is hidden ({qb} or {partner})",
                                  qb=p.id, partner=a.partner, also=["CF-R-PA"]))
        self._after_change()

    def _note_rank(self, p: Piece) -> None:
        self.floor = max(self.floor, self.rank(p))

    def _use(self, p: Piece, name: str) -> None:
        self.used.setdefault(p.id, set()).add(name)
        if name in self.rules.limited_abilities:
            self.last_used[(p.team, p.id, name)] = self.snap_no

    def _apply_ability(self, team: str, a: Ability) -> None:
        p = self.pieces[a.piece]
        name = a.ability
        cost = self.abilities(p)[name]
        self.mp[p.id] = self.mp.get(p.id, 0) - cost
        self._use(p, name)
        self._note_rank(p)
        r = self.rules
        word = ABILITY_WORDS[name]
        rule = {"push": "CF-PUSH", "chop_block": "CF-CHOP", "chip_block": "CF-CHIP", "retreat": "CF-RETREAT",
                "engage": "CF-ENGAGE", "react": "CF-REACT", "juke": "CF-JUKE", "jam": "CF-JAM", "seal": "CF-SEAL",
                "impact": "CF-IMPACT", "anchor": "CF-ANCHOR"}[name]
        # the rules besides the ability's own that decided this use (the event's ``also``)
        also = self._inherited(p, name) + (self._burst_note(p) if cost > 0 else [])
        if name in r.limited_abilities:
            also += ["CF-ONCE-4", "CF-R-ONCE-4"]
        t = self.pieces[a.target] if a.target else None
        if t is not None and t.sq == p.sq:
            also.append("CF-R-ADJACENT")  # the same square counts as adjacent
        if name in ("push", "impact"):
            assert t is not None
            if name == "impact":
                self._give_mp(t, -r.engage_drain)
            back = self._push_target(p, t, a)
            if back is None:  # Swim: the Rusher swaps places with the Heavy pushing it
                p_spot, t_spot = p.spot, t.spot
                p.sq, p.pos = t_spot
                t.sq, t.pos = p_spot
                self._give_mp(t, -r.swim_cost)
                also += [rule, "CF-R-SWIM", "CF-R-EFFECT-TIMING"] + (["CF-R-HEAVY"] if p.role else [])
                self.events.append(ev("swim", "CF-SWIM", "{piece} {word} {target} - {target} swims: they swap places "
                                      "({target} now on {at})", piece=p.id, word="pushes" if name == "push" else "hits",
                                      target=t.id, at=sq(t.sq), also=also))
            else:
                old = t.spot
                pos = t.pos if t.pos in self.free_positions(back, besides=t.id) else self.free_positions(back, besides=t.id)[0]
                t.sq, t.pos = back, pos
                if name == "push":
                    p.sq, p.pos = old
                    self.events.append(ev("push", rule, "{piece} pushes {target} back to {at} and takes {frm}",
                                          piece=p.id, target=t.id, at=sq(back), frm=f"{sq(old[0])} {old[1]}",
                                          also=[*also, "CF-R-PUSH"]))
                else:
                    self.events.append(ev("impact", rule, "{piece} hits {target}: -{n} movement and pushed back to {at}",
                                          piece=p.id, target=t.id, n=r.engage_drain, at=sq(back),
                                          also=[*also, "CF-R-IMPACT", "CF-R-PUSH", "CF-R-EFFECT-TIMING"]))
        elif name == "engage":
            assert t is not None
            self._give_mp(t, -r.engage_drain)
            self.events.append(ev("engage", rule, "{piece} engages {target}: -{n} movement", piece=p.id, target=t.id,
                                  n=r.engage_drain, also=[*also, "CF-R-EFFECT-TIMING"]))
        elif name == "chop_block":
            assert t is not None
            self.mp[p.id] = 0
            self.finished.add(p.id)
            self._freeze(t)
            self.events.append(ev("chop_block", rule, "{piece} chop-blocks {target}: both lose all movement", piece=p.id,
                                  target=t.id, also=[*also, "CF-R-CHOP", "CF-R-EFFECT-TIMING"]))
        elif name in ("chip_block", "anchor"):
            assert t is not None
            n = r.move_bonus.get(name, 1)
            self._give_mp(t, n)
            also += ["CF-R-EFFECT-TIMING"] + (["CF-R-HEAVY"] if t.role else [])
            if name == "anchor":
                self.immovable_until[p.id] = self.phase_idx + 1
                self.events.append(ev("anchor", rule, "{piece} anchors: {target} +{n} movement, {piece} is immovable",
                                      piece=p.id, target=t.id, n=n, also=[*also, "CF-R-ANCHOR"]))
            else:
                self.events.append(ev("chip_block", rule, "{piece} chip-blocks for {target}: +{n} movement",
                                      piece=p.id, target=t.id, n=n, also=also))
        elif name == "retreat":
            assert a.to and a.position
            self.moved.add(p.id)
            also += ["CF-R-RETREAT"] + (["CF-R-HEAVY"] if p.role else [])
            self._move_to(p, parse_square(a.to), a.position, "{piece} retreats {frm} -> {to} {pos}", cost,
                          kind="retreat", rule=rule, also=also)
        elif name in ("react", "juke"):
            n = r.move_bonus.get(name, 1)
            self.mp[p.id] = self.mp.get(p.id, 0) + n
            if name == "react":
                also.append("CF-R-REACT")
            self.events.append(ev(name, rule, "{piece} uses {word}: +{n} movement", piece=p.id, word=word, n=n, also=also))
        elif name == "jam":
            hit = sorted(q.id for q in self.pieces.values() if q.team != p.team and cheb(q.sq, p.sq) <= 1)
            for qid in hit:
                self.jam_until[qid] = self.phase_idx + 1
            self.events.append(ev("jam", rule, "{piece} jams {targets}: no abilities next turn", piece=p.id,
                                  targets=", ".join(hit), also=[*also, "CF-R-JAM", "CF-R-EFFECT-TIMING"]))
        elif name == "seal":
            self.seal_until[p.id] = self.phase_idx + 1
            self.events.append(ev("seal", rule, "{piece} seals: squares next to it cost +{n} movement", piece=p.id,
                                  n=r.seal_cost, also=[*also, "CF-R-SEAL", "CF-R-EFFECT-TIMING"]))

    # ------------------------------------------------------------ citations
    def _inherited(self, p: Piece, name: str) -> list[str]:
        """``CF-CAPTAIN-INHERIT`` when a captain uses an ability of its base piece."""
        if p.role and name not in self.rules.captains[p.role].abilities:
            return ["CF-CAPTAIN-INHERIT"]
        return []

    def _burst_note(self, p: Piece) -> list[str]:
        """``CF-SNAP-BURST`` when ``p`` has just spent movement only the snap burst gave it (its movement
        left is below the burst); the Lineman's burst is also ruling CF-R-BLOCKING-CAPTAINS."""
        r = self.rules
        if self.turn != 1 or r.snap_burst <= 0 or not self.in_list(p, r.snap_burst_pieces):
            return []
        if self.mp.get(p.id, 0) >= r.snap_burst:
            return []
        return ["CF-SNAP-BURST", *(["CF-R-BLOCKING-CAPTAINS"] if p.role else [])]

    def _move_notes(self, p: Piece, a: Move, mp: int, target: Square, cost: int) -> list[str]:
        """The rules besides ``CF-MOVEMENT`` that decided a move (its event's ``also``)."""
        restricted = p.spec[1]
        out = ["CF-R-STEP"]
        if not restricted:
            out.append("CF-MOVE-UNRESTRICTED")
        elif not a.route:
            out.append("CF-MOVE-RESTRICTED")
        if target == p.sq or a.position != "C":
            out.append("CF-R-POSITION")  # the position in the square is chosen for free
        if a.rush:
            out += ["CF-SPEED-RUSH", "CF-R-SPEED-RUSH", *self._inherited(p, "speed_rush")]
        if a.route:
            out.append("CF-ROUTE")
        if a.rush or a.route:
            out += ["CF-ONCE-4", "CF-R-ONCE-4"]
        if any(q.team != p.team for q in self.sealing()):
            got = self._bc.get((p.team, a.rush, False))
            if got is not None:
                plain = self._reach(p.sq, mp, restricted and not a.route, got[0], frozenset())
                if plain.get(target, INF) < cost:
                    out += ["CF-SEAL", "CF-R-SEAL"]
        return out

    # ------------------------------------------------------------ moving pieces
    def _move_to(self, p: Piece, target: Square, pos: str, template: str, cost: int, *, kind: str = "move",
                 rule: str = "CF-MOVEMENT", also: list[str] | None = None) -> None:
        """Put ``p`` on ``target``/``pos``: a tackle, a wrap, a collision or a plain move."""
        frm = p.sq
        other = self.holder_at(target, pos, besides=p.id)
        self.events.append(ev(kind, rule, template, piece=p.id, frm=sq(frm), to=sq(target), pos=pos, cost=cost,
                              also=also or []))
        if other is None or other.team == p.team:
            p.sq, p.pos = target, pos
            return
        if self.sim:
            p.sq, p.pos = target, pos  # plan check: assume the move succeeds
            return
        defender = p.team == self.defense
        if defender and not self.hidden and other.id == self.carrier:
            p.sq, p.pos = target, pos
            self._tackle(p, other)
            return
        if defender and self.hidden and self.pair and other.id in self.pair:
            self._wrap(p, other, target)
            return
        self._collide(p, other, target, pos)

    def _place_free(self, p: Piece, square: Square, prefer: str) -> bool:
        free = self.free_positions(square, besides=p.id)
        if not free:
            return False
        p.sq, p.pos = square, (prefer if prefer in free else free[0])
        return True

    def _return(self, p: Piece) -> None:
        """Send a collision loser back to where it started the phase (CF-R-COLLISION-RETURN)."""
        square, pos = self.phase_start.get(p.id, p.spot)
        if self._place_free(p, square, pos):
            return
        for dist in range(1, 6):
            ring = sorted(
                ((square[0] + dc, square[1] + dr) for dc in range(-dist, dist + 1) for dr in range(-dist, dist + 1)
                 if max(abs(dc), abs(dr)) == dist),
                key=lambda s: (-(s[1] - square[1]) * self.dir_of(p.team), abs(s[0] - square[0]), s[0]),
            )
            for s in ring:
                if self.on_field(s) and self._place_free(p, s, "C"):
                    return

    def _collide(self, mover: Piece, occ: Piece, target: Square, pos: str) -> None:
        r = self.rules
        if self.immovable(occ):
            self._return(mover)
            self.events.append(ev("collision", "CF-R-ANCHOR", "{mover} runs into the anchored {occ} and goes back to {at}",
                                  mover=mover.id, occ=occ.id, at=sq(mover.sq),
                                  also=["CF-ANCHOR", "CF-POSITIONS", "CF-R-COLLISION-RETURN"]))
            return
        assert self.rng is not None
        a = self.rng.randint(1, r.collision_die)
        b = self.rng.randint(1, r.collision_die)
        if a > b:
            mover.sq, mover.pos = target, pos
            self._return(occ)
            result = f"{mover.id} wins; {occ.id} goes back to {sq(occ.sq)} {occ.pos}"
        elif b > a:
            self._return(mover)
            result = f"{occ.id} wins; {mover.id} goes back to {sq(mover.sq)} {mover.pos}"
        else:
            self._return(mover)
            occ_start = self.phase_start.get(occ.id, occ.spot)
            if occ.spot != occ_start:
                self._return(occ)
            result = f"tie: both go back ({mover.id} {sq(mover.sq)}, {occ.id} {sq(occ.sq)})"
        also = ["CF-POSITIONS", "CF-R-COLLISION-RETURN"]
        if mover.id == self.carrier and not self.hidden:
            also.append("CF-R-COLLISION-TACKLE")  # the carrier onto a defender's position collides
        self.events.append(ev("collision", "CF-COLLISION", "collision on {at} {pos}: {mover} rolls {a}, {occ} rolls {b} - {result}",
                              at=sq(target), pos=pos, mover=mover.id, occ=occ.id, a=a, b=b, result=result, also=also))

    def _tackle(self, defender: Piece, carrier: Piece) -> None:
        spot = carrier.sq
        own_ez = self.in_end_zone_of(self.offense, spot[1])
        sack = self.beyond_los(spot[1]) < 0
        how = ["CF-POSITIONS", "CF-R-COLLISION-TACKLE"] if defender.id != carrier.id else []
        if own_ez:
            self.events.append(ev("tackle", "CF-TACKLE", "{defender} tackles {carrier} on {at} {pos}",
                                  defender=defender.id, carrier=carrier.id, at=sq(spot), pos=carrier.pos, also=how))
            self.events.append(ev("safety", "CF-SAFETY", "tackled in the own end zone: SAFETY, {points} points to {team}",
                                  points=self.rules.safety_points, team=self.defense, also=["CF-END-ZONES"]))
            self.result = {"kind": "safety", "spot": spot, "by": defender.id}
            return
        kind = "sack" if sack else "tackle"
        self.events.append(ev(kind, "CF-SACK" if sack else "CF-TACKLE",
                              "{defender} {what} {carrier} on {at} {pos}" + (" - a sack, behind the line" if sack else ""),
                              defender=defender.id, what="sacks" if sack else "tackles", carrier=carrier.id,
                              at=sq(spot), pos=carrier.pos, also=(["CF-TACKLE", *how] if sack else how)))
        self.result = {"kind": "tackle", "spot": spot, "by": defender.id, "sack": sack}

    def _wrap(self, defender: Piece, member: Piece, target: Square) -> None:
        """Hidden ball: a defender ending on the QB's or the fake's position wraps it up (CF-R-PA-TACKLE)."""
        self.wrapped.add(member.id)
        if not self._place_free(defender, target, "C"):
            self._return(defender)
        self.events.append(ev("wrap", "CF-R-PA-TACKLE", "{defender} wraps up {member} - the ball stays hidden",
                              defender=defender.id, member=member.id, also=["CF-POSITIONS"]))
        assert self.pair
        if all(m in self.wrapped for m in self.pair):
            qb = self.pieces[self.pair[0]]
            self.hidden = False
            self.pair = None
            self.carrier = qb.id
            self.events.append(ev("reveal", "CF-PA-COUNTER", "QB and fake both tackled: the ball defaults to {qb}", qb=qb.id,
                                  also=["CF-R-PA-TACKLE"]))
            self._tackle(defender, qb)

    def _after_change(self) -> None:
        """Touchdown and play-action checks after anything moved."""
        if self.result is not None or self.sim:
            return
        if self.hidden and self.pair:
            a, b = (self.pieces[i] for i in self.pair)
            if cheb(a.sq, b.sq) > 1:
                self.reveal("they are no longer adjacent")
                if self.result is not None:
                    return
        c = self.pieces.get(self.carrier)
        if c is None:
            return
        if self.in_end_zone_of(self.defense, c.sq[1]):
            if self.hidden:
                self.reveal("it crosses the goal line")
                if self.result is not None:
                    return
            self.events.append(ev("touchdown", "CF-TOUCHDOWN", "TOUCHDOWN {team}! {piece} carries the ball into the end zone at {at}",
                                  team=self.offense, piece=c.id, at=sq(c.sq), also=["CF-END-ZONES", "CF-R-TD"]))
            self.result = {"kind": "touchdown", "spot": c.sq, "by": c.id}

    def reveal(self, why: str) -> None:
        """The hidden ball marker returns to the board on its holder (CF-PA-RETURN)."""
        if not self.hidden:
            return
        self.hidden = False
        self.pair = None
        c = self.pieces[self.carrier]
        self.events.append(ev("reveal", "CF-PA-RETURN", "the ball is revealed ({why}): {piece} has it on {at} {pos}",
                              why=why, piece=c.id, at=sq(c.sq), pos=c.pos, also=["CF-R-PA"]))
        if c.id in self.wrapped:
            self.events.append(ev("reveal_tackle", "CF-R-PA-TACKLE", "{piece} was wrapped up with the ball", piece=c.id))
            tackler = next((q for q in self.pieces.values() if q.team == self.defense and q.sq == c.sq), None)
            self._tackle(tackler or c, c)

    # ------------------------------------------------------------ plan rows
    def exec_row(self, team: str, row: PieceAction, n: int) -> None:
        """Execute one revealed plan row: as planned if still legal, else cut short or skipped (CF-R-PLAN-CHECK)."""
        try:
            self.check(team, row)
        except IllegalActionError as exc:
            if isinstance(row, Move) and self._truncated_move(team, row, exc):
                return
            self.events.append(ev("row_skipped", "CF-R-PLAN-CHECK", "{team} row {n} ({row}) cannot be carried out: {why}",
                                  team=team, n=n, row=row.public_text(), why=exc.reason, also=[exc.rule]))
            return
        self.apply(team, row)

    def _truncated_move(self, team: str, a: Move, exc: IllegalActionError) -> bool:
        p = self.pieces.get(a.piece)
        if p is None or p.team != team or p.id in self.moved or p.id in self.wrapped or p.id in self.finished:
            return False
        if self.rank(p) < self.floor:
            return False
        rush = a.rush and "speed_rush" in self.abilities(p) and self.limit_ok(p, "speed_rush") and not self.jammed(p)
        route = a.route and "route_running" in self.abilities(p) and self.limit_ok(p, "route_running") and not self.jammed(p)
        abil = self.abilities(p)
        mp = self.mp.get(p.id, 0) - (abil.get("speed_rush", 0) if rush else 0)
        if mp < 0:
            rush, mp = False, self.mp.get(p.id, 0)
        target = parse_square(a.to)
        reach = self.reach(p, mp, rush=rush, route=route)
        best: tuple[int, int, int, int] | None = None
        spot: tuple[Square, str] | None = None
        for s, cost in reach.items():
            free = self.free_positions(s, besides=p.id)
            if not free:
                continue
            if p.team == self.offense and self.ineligible(p) and not self.pass_thrown and \
                    self.beyond_los(s[1]) > self.rules.ineligible_downfield:
                continue
            key = (cheb(s, target), cost, s[1], s[0])
            if best is None or key < best:
                best, spot = key, (s, a.position if a.position in free else free[0])
        if spot is None or spot[0] == p.sq:
            self.events.append(ev("row_cut", "CF-R-PLAN-CHECK", "{piece} cannot reach {to} ({why}) and holds",
                                  piece=p.id, to=a.to, why=exc.reason, also=[exc.rule]))
            self.moved.add(p.id)
            self._note_rank(p)
            return True
        self.events.append(ev("row_cut", "CF-R-PLAN-CHECK", "{piece} cannot reach {to} {pos} ({why}): it goes as near as it can",
                              piece=p.id, to=a.to, pos=a.position, why=exc.reason, also=[exc.rule]))
        self.apply(team, Move(p.id, sq(spot[0]), spot[1], rush=rush, route=route))
        return True

    # ------------------------------------------------------------ the ball moves
    def pass_modifiers(self, passer: Piece, receiver: Piece) -> list[tuple[str, int, str]]:
        """The pass modifiers in force: (what, value, rule id)."""
        pr = self.rules.passing
        out: list[tuple[str, int, str]] = []
        defenders = [q for q in self.pieces.values() if q.team == self.defense]
        near = [q for q in defenders if cheb(q.sq, receiver.sq) <= 1]
        for q in near:
            out.append((f"{q.id} next to the receiver", pr.adjacent_defender, "CF-PASS-MOD-DEFENDER"))
        if any(self.has_passive(q, "intercept") for q in near):
            out.append(("Safety next to the receiver", pr.safety_adjacent, "CF-PASS-MOD-SAFETY"))
        if any(self.has_passive(q, "pressure") and cheb(q.sq, passer.sq) <= 1 for q in defenders):
            out.append(("Rusher next to the passer", pr.rusher_adjacent_passer, "CF-PASS-MOD-RUSHER"))
        if self.has_passive(receiver, "catching"):
            out.append(("receiver is the Deep Threat", pr.deep_threat_receiver, "CF-PASS-MOD-DEEP"))
        if any(q.team == self.offense and self.has_passive(q, "check_down") and cheb(q.sq, passer.sq) <= pr.lead_blocker_range
               for q in self.pieces.values()):
            out.append(("Lead Blocker near the passer", pr.lead_blocker_near_passer, "CF-PASS-MOD-LEAD"))
        return out

    def ball_step(self) -> None:
        """End of a turn: the ball moves - a declared pass is thrown (CF-REACTION, CF-PASS)."""
        if self.result is not None or self.pass_decl is None:
            return
        pid, rid = self.pass_decl
        self.pass_decl = None
        passer, receiver = self.pieces[pid], self.pieces[rid]
        if self.carrier != passer.id:
            return
        self.pass_thrown = True
        pr = self.rules.passing
        assert self.rng is not None
        roll = self.rng.randint(1, pr.die)
        mods = self.pass_modifiers(passer, receiver)
        total = roll + sum(m[1] for m in mods)
        mod_text = ", ".join(f"{m[0]} {m[1]:+d}" for m in mods) or "no modifiers"
        near = sorted((q for q in self.pieces.values() if q.team == self.defense and cheb(q.sq, receiver.sq) <= 1),
                      key=lambda q: (q.sq != receiver.sq, q.id))
        safety = next((q for q in near if self.has_passive(q, "intercept")), None)
        if total >= pr.complete_min:
            outcome = "complete"
        elif total >= pr.incomplete_min:
            outcome = "incomplete"
        elif safety is not None and total <= pr.safety_interception_max:
            outcome = "interception"
        elif near and total <= pr.interception_max:
            outcome = "interception"
        else:
            outcome = "incomplete"
        also = ["CF-PASS-TABLE"]
        for m in mods:
            also += [m[2], *_MOD_ALSO.get(m[2], ())]
        if total <= 0:
            also.append("CF-R-PASS-TABLE")  # where the table's interception rows overlap
        if mods:
            also.append("CF-R-ABILITY-ORDER")  # modifiers are read when the ball moves
        self.events.append(ev("pass", "CF-PASS", "{passer} passes to {receiver}: rolls {roll} ({mods}) = {total}: {outcome}",
                              passer=pid, receiver=rid, roll=roll, mods=mod_text, total=total, outcome=outcome,
                              also=list(dict.fromkeys(also))))
        if outcome == "complete":
            self.carrier = rid
            self.events.append(ev("complete", "CF-R-TELEPORT", "complete: the ball is with {receiver} on {at} {pos}",
                                  receiver=rid, at=sq(receiver.sq), pos=receiver.pos))
            self._after_change()
        elif outcome == "incomplete":
            self.events.append(ev("incomplete", "CF-R-INCOMPLETE", "incomplete: the ball goes back to the line of scrimmage",
                                  also=["CF-PASS-TABLE"]))
            self.result = {"kind": "incomplete", "spot": None}
        else:
            by = safety if safety is not None and total <= pr.safety_interception_max else near[0]
            rule = "CF-R-PASS-TABLE"
            also = ["CF-PASS-TABLE", "CF-TURNOVERS"] + (["CF-INTERCEPT"] if by is safety else [])
            self.events.append(ev("interception", rule, "INTERCEPTED by {by} on {at}", by=by.id, at=sq(receiver.sq), also=also))
            self.result = {"kind": "interception", "spot": receiver.sq, "by": by.id}

    def whistle(self) -> None:
        """The down's last turn is over (CF-R-DOWN-LIMIT): the ball carrier is down where it stands."""
        if self.result is not None:
            return
        self.reveal("the whistle")
        if self.result is not None:
            return
        c = self.pieces[self.carrier]
        if self.in_end_zone_of(self.offense, c.sq[1]):
            self.events.append(ev("whistle", "CF-R-DOWN-LIMIT", "whistle: {piece} is down in its own end zone", piece=c.id))
            self.events.append(ev("safety", "CF-SAFETY", "SAFETY, {points} points to {team}",
                                  points=self.rules.safety_points, team=self.defense, also=["CF-END-ZONES"]))
            self.result = {"kind": "safety", "spot": c.sq, "by": None}
            return
        self.events.append(ev("whistle", "CF-R-DOWN-LIMIT", "whistle after {n} turns: {piece} is down on {at}",
                              n=self.turn, piece=c.id, at=sq(c.sq)))
        self.result = {"kind": "whistle", "spot": c.sq}

    # ------------------------------------------------------------ legal actions
    def legal_rows(self, team: str, limit: int | None = None) -> list[PieceAction]:
        """Piece actions (bounded: one free position per square plus tackle/collision spots)."""
        out: list[PieceAction] = []
        if limit is not None and limit <= 0:
            return out
        for a in self._piece_actions(team):
            out.append(a)
            if limit is not None and len(out) >= limit:
                break
        return out

    def legal_actions(self, team: str, limit: int | None = None) -> list[Any]:
        out: list[Any] = [Done()]
        if self.hidden and self.pair and team == self.offense and not self.ball_choice_used:
            out += [BallChoice(h) for h in self.pair if h != self.carrier]
        out += self.legal_rows(team, None if limit is None else max(0, limit - len(out)))
        return out

    def _try(self, team: str, a: PieceAction) -> bool:
        try:
            self.check(team, a)
        except IllegalActionError:
            return False
        return True

    def _piece_actions(self, team: str) -> Iterator[PieceAction]:
        if self.result is not None:
            return
        pieces = sorted(self.team_pieces(team), key=lambda q: (self.rank(q), q.id))
        for p in pieces:
            yield from self._options_for(team, p)

    def legal_summary(self, team: str) -> list[str]:
        """What ``team`` may do now, in a few lines (for error messages; ``legal_actions`` lists it all)."""
        out: list[str] = []
        for p in self.actors(team):
            parts = []
            if p.id not in self.moved:
                n = len(self.reach(p, self.mp.get(p.id, 0))) - 1
                if n > 0:
                    parts.append(f"move to one of {n} squares (movement {self.mp.get(p.id, 0)})")
            others = [str(a).removeprefix(f"{p.id} ") for a in self._options_for(team, p, moves=False)]
            parts += others[:6] + ([f"... {len(others) - 6} more"] if len(others) > 6 else [])
            if parts:
                out.append(f"{p.id}: " + "; ".join(parts))
        return out

    def actors(self, team: str) -> list[Piece]:
        """``team``'s pieces that may still act in this part of the turn (movement order kept)."""
        if self.result is not None:
            return []
        return [p for p in sorted(self.team_pieces(team), key=lambda q: (self.rank(q), q.id)) if self.can_still_act(p)]

    def piece_options(self, team: str, pid: str, *, moves: bool = True) -> list[PieceAction]:
        """The (bounded) legal actions of one piece (``moves=False``: everything but moves)."""
        p = self.pieces.get(pid)
        if p is None or p.team != team or self.result is not None:
            return []
        return list(self._options_for(team, p, moves=moves))

    def random_move(self, team: str, pid: str, rng: random.Random, tries: int = 6) -> Move | None:
        """A random legal move of one piece, sampled without listing them all (for bots)."""
        p = self.pieces.get(pid)
        if p is None or p.team != team or p.id in self.moved or not self.can_still_act(p):
            return None
        reach = [s for s in self.reach(p, self.mp.get(p.id, 0)) if s != p.sq]
        if not reach:
            return None
        for _ in range(tries):
            s = rng.choice(reach)
            a = Move.trusted(p.id, sq(s), rng.choice(POSITIONS))
            if self._try(team, a):
                return a
        return None

    def _options_for(self, team: str, p: Piece, *, moves: bool = True) -> Iterator[PieceAction]:
        if not self.can_still_act(p):
            return
        abil = self.abilities(p)
        mp = self.mp.get(p.id, 0)
        if moves and p.id not in self.moved:
            yield from self._move_options(team, p, mp)
        for name, cost in sorted(abil.items()):
            if cost > mp or name in ("speed_rush", "route_running", "pass", "play_action"):
                continue
            if not self.limit_ok(p, name) or name in self.used.get(p.id, set()) or self.jammed(p):
                continue
            if name in ("push", "impact", "engage", "chop_block"):
                for t in sorted(self.pieces.values(), key=lambda q: q.id):
                    if t.team != team and cheb(t.sq, p.sq) <= 1:
                        a = Ability(p.id, name, t.id)
                        if self._try(team, a):
                            yield a
            elif name in ("chip_block", "anchor"):
                for t in sorted(self.pieces.values(), key=lambda q: q.id):
                    if t.team == team and t.id != p.id and t.heavy and cheb(t.sq, p.sq) <= 1:
                        a = Ability(p.id, name, t.id)
                        if self._try(team, a):
                            yield a
            elif name == "retreat":
                if p.id in self.moved or self.qb(team) is None:
                    continue
                for s in sorted(self.retreat_reach(p), key=lambda s: (s[1], s[0])):
                    free = self.free_positions(s, besides=p.id)
                    if free:
                        yield Ability(p.id, "retreat", to=sq(s), position=free[0])
            else:
                a = Ability(p.id, name)
                if self._try(team, a):
                    yield a
        if team == self.offense and self.can_pass(p) and p.id == self.carrier:
            for r in sorted(self.team_pieces(team), key=lambda q: q.id):
                a2 = Pass(r.id, p.id)
                if r.id != p.id and self._try(team, a2):
                    yield a2
            for t in sorted(self.team_pieces(team), key=lambda q: q.id):
                if t.id != p.id and not t.heavy and cheb(t.sq, p.sq) <= 1:
                    for h in ((None,) if self.sim else (t.id, p.id)):
                        a3 = PlayAction(t.id, h)
                        if self._try(team, a3):
                            yield a3

    def _move_options(self, team: str, p: Piece, mp: int) -> Iterator[Move]:
        abil = self.abilities(p)
        variants = [(False, False, mp)]
        if not self.jammed(p):
            if "speed_rush" in abil and self.limit_ok(p, "speed_rush") and abil["speed_rush"] <= mp:
                variants.append((True, False, mp - abil["speed_rush"]))
            if "route_running" in abil and self.limit_ok(p, "route_running") and abil["route_running"] <= mp:
                variants.append((False, True, mp - abil["route_running"]))
        plain: set[Square] = set()
        occ: dict[Square, list[Piece]] = {}
        for q in self.pieces.values():
            if q.id != p.id:
                occ.setdefault(q.sq, []).append(q)
        limited = p.team == self.offense and self.ineligible(p) and not self.pass_thrown
        for rush, route, m in variants:
            reach = self.reach(p, m, rush=rush, route=route)
            for s in sorted(reach, key=lambda s: (s[1], s[0])):
                if rush or route:
                    if s in plain:
                        continue
                else:
                    plain.add(s)
                if limited and self.beyond_los(s[1]) > self.rules.ineligible_downfield:
                    continue
                occupants = occ.get(s, ())
                spots: list[str] = []
                if s != p.sq:
                    taken = {q.pos for q in occupants}
                    free = next((x for x in POSITIONS if x not in taken), None)
                    if free:
                        spots.append(free)
                for q in occupants:
                    if q.team != team:
                        spots.append(q.pos)
                name = sq(s)
                for pos in spots:
                    yield Move.trusted(p.id, name, pos, rush, route)
