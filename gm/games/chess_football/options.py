"""Legal actions, listed exactly: what a piece may do, the reaction-turn action space, the snap-plan
action space and the short per-piece summary for help texts.

Every action listed here is one :func:`.checks.check` accepts, and every action it accepts is
listed (tests check both ways, by brute force on many positions).  Moves are counted without
being built: the reachable squares come from the one path search (:mod:`.paths`) and a square
offers every position but the piece's own and its teammates' (CF-R-POSITION, CF-R-TEAMMATE-POS);
the other actions are candidates put through the check itself.

**Why the spaces are counted, not listed.**  A reaction turn offers a few thousand actions (every
position of every reachable square, with and without Speed Rush or Route Running, every
ability with every target); :class:`TurnSpace` counts them and builds only the ones asked for.
A snap plan is up to ``plan_rows`` rows in movement order, so the plans are beyond listing
(about 10**15 with the default line-ups).  Counting them is tractable because of ruling
CF-R-PLAN-CHECK: each row is checked against the board at the snap with the earlier rows *of
the same piece* carried out (not the other pieces' rows).  The plans are then interleavings, in
movement order, of each piece's own row sequences, and :class:`PlanSpace` counts them by dynamic
programming: per piece, over its simulated rows (a move's subtree depends on its square, not on
which of the square's free positions it takes, and not even on the square when no piece stands
next to it); then the pieces of one rank interleave (multinomial counts) and the ranks follow
each other.  The same numbers index the space, so a plan is drawn uniformly, or the ``i``-th plan
built, without listing any other.  (Building a plan one row at a time as separate decisions would
have kept the spaces small but changed every transcript.)
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from math import comb
from operator import itemgetter
from random import Random
from typing import Any

from gm.core.actions import Action
from gm.core.errors import IllegalActionError
from gm.core.state import ActionSpace
from gm.games.chess_football.actions import Ability, BallChoice, Done, Move, Pass, PieceAction, Plan, PlayAction
from gm.games.chess_football.checks import (
    NOT_ON_THEIR_OWN,
    RowPlan,
    ability_refusal,
    ability_target,
    check,
    move_allowance_or_none,
    passer_refusal,
    play_action_refusal,
    receiver_refusal,
    row_limit,
    teammate_spots,
)
from gm.games.chess_football.field import Field, Piece
from gm.games.chess_football.geometry import POSITIONS, Square, sq
from gm.games.chess_football.paths import INF
from gm.games.chess_football.resolution import apply

#: squares in listing order: by row, then column
ROW_COL = itemgetter(1, 0)
#: the move variants in listing order: (speed rush, route running)
VARIANTS = ((False, False), (True, False), (False, True), (True, True))
#: abilities that name an opposing piece next to the user / a teammate next to it
ENEMY_TARGETED = ("push", "impact", "engage", "chop_block")
ALLY_TARGETED = ("chip_block", "anchor")


def _index(i: int, count: int) -> int:
    """``i`` as a position among ``count`` listed options (a negative one counts from the end); an
    :class:`IndexError` when there is none."""
    if i < 0:
        i += count
    if not 0 <= i < count:
        raise IndexError(i)
    return i


class SpotGroup:
    """Actions of one piece that end on a square and a position: every position of each square but
    the ``excluded`` spots.  Counted without being built; squares listed by row, then column."""

    __slots__ = ("_order", "count", "excluded", "pid", "squares")

    def __init__(self, pid: str, squares: Collection[Square], excluded: set[tuple[Square, str]]) -> None:
        self.pid = pid
        self.squares = squares
        self.excluded = excluded
        self.count = len(POSITIONS) * len(squares) - len(excluded)
        self._order: list[Square] | None = None

    def make(self, square: str, pos: str) -> PieceAction:
        raise NotImplementedError

    def order(self) -> list[Square]:
        if self._order is None:
            self._order = sorted(self.squares, key=ROW_COL)
        return self._order

    def table(self) -> list[tuple[str, tuple[str, ...]]]:
        """(square, its positions) in listing order."""
        ex = self.excluded
        return [(sq(s), tuple(pos for pos in POSITIONS if (s, pos) not in ex)) for s in self.order()]

    def __getitem__(self, i: int) -> PieceAction:
        ex = self.excluded
        per = len(POSITIONS)
        if not ex:
            s = self.order()[i // per]
            return self.make(sq(s), POSITIONS[i % per])
        taken: dict[Square, int] = {}
        for s, _ in ex:
            taken[s] = taken.get(s, 0) + 1
        for s in self.order():
            n = per - taken.get(s, 0)
            if i < n:
                return self.make(sq(s), [pos for pos in POSITIONS if (s, pos) not in ex][i])
            i -= n
        raise IndexError(i)

    def __iter__(self) -> Iterator[PieceAction]:
        for name, spots in self.table():
            for pos in spots:
                yield self.make(name, pos)


class MoveGroup(SpotGroup):
    """The moves of one piece with one variant (plain, Speed Rush, Route Running or both): every
    position of every square it can end on but its own position and its teammates'."""

    __slots__ = ("mp", "reach", "route", "rush")

    def __init__(self, f: Field, p: Piece, rush: bool, route: bool, mp: int) -> None:
        self.rush = rush
        self.route = route
        #: the movement the steps may use, and the cost of each square
        self.mp = mp
        self.reach = reach = f.reach(p, mp, rush=rush, route=route)
        limit = row_limit(f, p)
        squares: Collection[Square]
        if limit is not None:
            beyond = f.beyond_los
            squares = {s for s in reach if beyond(s[1]) <= limit}
        else:
            squares = reach  # (shared: read only)
        inside = squares
        # its own position and its teammates' (none on a plan's board: see checks.teammate_spots)
        excluded = {spot for spot in teammate_spots(f, p) if spot[0] in inside} if f.sim else \
            {spot for spot in f.spots_of(p.team) if spot[0] in inside}
        if p.sq in inside:
            excluded.add(p.spot)
        super().__init__(p.id, squares, excluded)

    def make(self, square: str, pos: str) -> Move:
        return Move.trusted(self.pid, square, pos, self.rush, self.route)


class RetreatGroup(SpotGroup):
    """The retreats of one Heavy-type: every position but its teammates' of each square up to
    ``retreat_squares`` steps toward its QB."""

    __slots__ = ()

    def __init__(self, f: Field, p: Piece) -> None:
        squares = f.retreat_reach(p)
        spots = teammate_spots(f, p) if f.sim else f.spots_of(p.team)  # (its own spot is no retreat square)
        super().__init__(p.id, squares, {spot for spot in spots if spot[0] in squares})

    def make(self, square: str, pos: str) -> Ability:
        return Ability.trusted(self.pid, "retreat", to=square, position=pos)


def move_groups(f: Field, team: str, p: Piece, variants: Sequence[tuple[bool, bool]] = VARIANTS) -> list[MoveGroup]:
    """``p``'s moves now, one group per variant it may use (none once it has moved); ``variants``: only
    these (a subsequence of :data:`VARIANTS`, listing order kept)."""
    if p.id in f.moved or not f.can_still_act(p) or p.team != team:
        return []
    out = []
    abil = p.spec[2]
    left = f.mp.get(p.id, 0)
    for rush, route in variants:
        if (rush and ("speed_rush" not in abil or abil["speed_rush"] > left)) or (
            route and ("route_running" not in abil or abil["route_running"] > left)
        ):
            continue
        mp = move_allowance_or_none(f, p, rush, route)
        if mp is None:
            continue
        out.append(MoveGroup(f, p, rush, route, mp))
    return out


def option_segments(f: Field, team: str, p: Piece, *, plan: bool = False) -> list[list[PieceAction] | SpotGroup]:
    """Everything but moves that ``p`` may do now, in a fixed order: abilities by name (targets by id;
    retreats as a group), passes (to each receiver, passer named and not), play action (with each
    partner and holder; in a snap ``plan`` no holder is named)."""
    out: list[list[PieceAction] | SpotGroup] = []
    if not f.can_still_act(p) or p.team != team or f.result is not None:
        return out
    singles: list[PieceAction] = []
    abil = p.spec[2]
    left = f.mp.get(p.id, 0)
    for name in p.abil_names:
        if name in NOT_ON_THEIR_OWN or abil[name] > left:  # (the cost alone rules it out: no need to ask)
            continue
        if ability_refusal(f, p, name) is not None:
            continue
        if name in ENEMY_TARGETED or name in ALLY_TARGETED:
            for t in f.adjacent(p, enemy=name in ENEMY_TARGETED):
                a = Ability.trusted(p.id, name, t.id)
                if _ok(ability_target, f, team, p, a):
                    singles.append(a)
        elif name == "retreat":
            if p.id in f.moved or f.qb(team) is None:
                continue
            group = RetreatGroup(f, p)
            if group.count:
                out += [singles, group]
                singles = []
        else:
            a = Ability.trusted(p.id, name)
            if _ok(ability_target, f, team, p, a):
                singles.append(a)
    if team == f.offense and p.id == f.carrier:
        if "pass" in abil and passer_refusal(f, p) is None:
            for r in f.team_by_id(team):
                if r is not p and receiver_refusal(f, team, p, r.id) is None:
                    singles += [Pass.trusted(r.id, p.id), Pass.trusted(r.id)]
        if "play_action" in abil:
            for t in f.adjacent(p, enemy=False):
                for h in ((None,) if plan else (None, t.id, p.id)):
                    a3 = PlayAction.trusted(t.id, h)
                    if play_action_refusal(f, team, a3) is None:
                        singles.append(a3)
    out.append(singles)
    return out


def _ok(fn: Any, *args: Any) -> bool:
    try:
        fn(*args)
    except IllegalActionError:
        return False
    return True


def other_options(f: Field, team: str, p: Piece, *, plan: bool = False) -> list[PieceAction]:
    """Everything but moves that ``p`` may do now (see :func:`option_segments`), as a list."""
    out: list[PieceAction] = []
    for seg in option_segments(f, team, p, plan=plan):
        out += seg
    return out


class PieceOptions:
    """Every legal action of one piece now: its moves (by variant, square, position), then the rest."""

    __slots__ = ("count", "groups", "piece", "segments")

    def __init__(self, f: Field, team: str, p: Piece, *, plan: bool = False,
                 others: list[list[PieceAction] | SpotGroup] | None = None, groups: list[MoveGroup] | None = None) -> None:
        """``others``, ``groups``: :func:`option_segments` ``(f, team, p, plan=plan)`` and :func:`move_groups`
        ``(f, team, p)`` if already known."""
        self.piece = p.id
        self.groups = move_groups(f, team, p) if groups is None else groups
        if others is None:
            others = option_segments(f, team, p, plan=plan)
        self.segments: list[list[PieceAction] | SpotGroup] = [*self.groups, *others]
        self.count = sum(seg.count if isinstance(seg, SpotGroup) else len(seg) for seg in self.segments)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> PieceAction:
        for seg in self.segments:
            n = seg.count if isinstance(seg, SpotGroup) else len(seg)
            if i < n:
                return seg[i]
            i -= n
        raise IndexError(i)

    def __iter__(self) -> Iterator[PieceAction]:
        for seg in self.segments:
            yield from seg


def piece_options(f: Field, team: str, pid: str, *, moves: bool = True, plan: bool = False) -> list[PieceAction]:
    """Every legal action of one piece (``moves=False``: everything but moves)."""
    p = f.pieces.get(pid)
    if p is None or p.team != team or f.result is not None:
        return []
    if not moves:
        return other_options(f, team, p, plan=plan)
    return list(PieceOptions(f, team, p, plan=plan))


# ---------------------------------------------------------------- a reaction turn
class TurnSpace(ActionSpace):
    """Every legal action of ``team`` in its part of a reaction turn, in a fixed order: ``done``, the
    hidden ball's holder choices, then each piece that may still act (movement order) with its options."""

    def __init__(self, f: Field, team: str) -> None:
        self.head: list[Action] = [Done()]
        if f.result is not None:
            self.head = []
        elif team == f.offense and f.hidden and f.pair and not f.ball_choice_used:
            self.head += [BallChoice(h) for h in f.pair]
        self.pieces = [o for o in _turn_options(f, team) if o.count]
        self.count = len(self.head) + sum(o.count for o in self.pieces)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> Action:
        i = _index(i, self.count)
        if i < len(self.head):
            return self.head[i]
        i -= len(self.head)
        for o in self.pieces:
            if i < o.count:
                return o[i]
            i -= o.count
        raise IndexError(i)

    def __iter__(self) -> Iterator[Action]:
        yield from self.head
        for o in self.pieces:
            yield from o


def _turn_options(f: Field, team: str) -> list[PieceOptions]:
    """The options of every piece of ``team`` that may act, found again only where they may have changed.

    From one decision to the next of a part of a turn most pieces stand where they stood, away from the
    piece that acted.  A piece's options other than moves depend on the field's flags (the ball, the
    pass, who is wrapped, jammed, sealing or anchored), on its own state (place, movement left,
    abilities used, moved or done) and on the pieces up to ``max(2, retreat_squares)`` squares from it
    (the pieces next to it, where a pushed piece goes, its retreat squares).  So those listed for the
    last decision that listed them are kept for a piece whose flags and own state are unchanged when no
    piece has since left or entered a square that near it; the ball carrier's (passes, play action) are always
    listed afresh, and a piece's that can retreat after its QB moved (retreats head for it).  Its moves are
    kept likewise while no piece has left or entered a square within its movement + 1 (its reach, with
    the pieces that block or seal it and the teammates' positions it may not end on)."""
    spots = tuple(p.spot for p in f.pieces.values())
    now = f.phase_idx
    flags = (f.result, f.acting, f.snap_no, f.sim, f.offense, f.carrier, f.hidden, f.pair, f.pa_used, f.pass_decl,
             f.pass_thrown, f.ball_choice_used, frozenset(f.wrapped), tuple(f.last_used.items()),
             *(tuple(k for k, until in d.items() if until >= now) if d else () for d in (f.jam_until, f.seal_until,
                                                                                         f.immovable_until)))
    prev = f.options_memo.get(team)
    memo: dict[str, tuple[Any, Any, Any]] = {}
    if prev is not None and prev[0] == flags and len(prev[1]) == len(spots):
        changed = [s for was, is_ in zip(prev[1], spots, strict=True) if was != is_ for s in (was[0], is_[0])]
        qb = f.qb(team)
        qb_moved = qb is not None and qb.sq in changed
        near = max(2, f.rules.retreat_squares)
        for pid, (mine, others, groups) in prev[2].items():
            x, y = mine[0]
            far = min((max(abs(s[0] - x), abs(s[1] - y)) for s in changed), default=INF)
            if far <= near or (qb_moved and "retreat" in f.pieces[pid].spec[2]):
                others = None
            if far <= mine[2] + 1:  # its reach: blocked squares, seals, teammates' spots
                groups = None
            if others is not None or groups is not None:
                memo[pid] = (mine, others, groups)
    out: list[PieceOptions] = []
    for p in f.actors(team):
        mine = (p.sq, p.pos, f.mp.get(p.id, 0), frozenset(f.used.get(p.id, ())), p.id in f.moved, p.id in f.finished)
        hit = memo.get(p.id)
        others = groups = None
        if hit is not None and hit[0] == mine and p.id != f.carrier:
            others, groups = hit[1], hit[2]
        if others is None:
            others = option_segments(f, team, p)
        if groups is None:
            groups = move_groups(f, team, p)
        memo[p.id] = (mine, others, groups)
        out.append(PieceOptions(f, team, p, others=others, groups=groups))
    f.options_memo[team] = (flags, spots, memo)
    return out


def turn_kinds(f: Field, team: str, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
    """The types of the actions :class:`TurnSpace` ``(f, team)`` holds, found without listing them: a
    piece's moves are counted per group, and only the ball carrier may pass or fake, so once a move and
    an ability are found the other pieces need not be looked at.  ``wanted``: stop once these are found."""
    found: set[str] = set()
    if f.result is not None:
        return found
    found.add(Done.type)
    if team == f.offense and f.hidden and f.pair and not f.ball_choice_used:
        found.add(BallChoice.type)
    for p in f.actors(team):
        if wanted is not None and wanted <= found:
            break
        if Move.type not in found and any(g.count for g in move_groups(f, team, p)):
            found.add(Move.type)
        if Ability.type not in found or p.id == f.carrier:  # only the carrier passes or fakes
            for seg in option_segments(f, team, p):
                if isinstance(seg, SpotGroup):
                    if seg.count:
                        found.add(Ability.type)  # a retreat group
                else:
                    found.update(a.type for a in seg)
    return found


# ---------------------------------------------------------------- the snap plan
class _Node:
    """One piece's simulated state in the plan tree: its own rows carried out on a copy of the board at
    the snap.  ``counts[l]``: how many row sequences of exactly ``l`` more rows start here."""

    __slots__ = ("branches", "counts", "field")

    def __init__(self, field: Field) -> None:
        self.field = field
        self.counts: list[int] = [1]
        #: (how many actions, child, the action by its number among them)
        self.branches: list[tuple[int, _Node, Any]] = []


class _PieceTree:
    """Every sequence of rows one piece may plan (each row checked after the piece's earlier rows)."""

    def __init__(self, board: Field, team: str, pid: str, depth: int) -> None:
        self.team = team
        self.pid = pid
        self._iso: dict[tuple[Any, ...], _Node] = {}
        self.root = self._node(board, depth)

    def _child(self, f: Field, row: PieceAction, depth: int, plan: RowPlan | None = None) -> _Node:
        sim = f.clone(sim=True)
        apply(sim, self.team, row, plan if plan is not None else check(sim, self.team, row))
        return self._node(sim, depth)

    def _node(self, f: Field, depth: int) -> _Node:
        node = _Node(f)
        if depth <= 0:
            return node
        p = f.pieces[self.pid]
        team = self.team
        counts = [1] + [0] * depth
        branches = node.branches
        mp = f.mp.get(p.id, 0)
        for g in move_groups(f, team, p):
            idle = self._idle_after(f, p, g.mp, {"speed_rush"} if g.rush else set(), {"route_running"} if g.route else set())
            for name, spots in g.table():
                s = _square(name)
                steps = g.reach[s]
                for cls, child_of in self._classes(f, p, s, spots, idle, ("move", g.rush, g.route, g.mp - steps, depth - 1)):
                    child = child_of(lambda pos, name=name, g=g, s=s, steps=steps: self._child(
                        f, Move.trusted(p.id, name, pos, g.rush, g.route), depth - 1, RowPlan(p.id, mp - g.mp, s, steps)))
                    branches.append((len(cls), child, ("move", p.id, name, cls, g.rush, g.route)))
        retreats: dict[str, list[str]] = {}
        for row in other_options(f, team, p, plan=True):
            if isinstance(row, Ability) and row.ability == "retreat":
                assert row.to and row.position
                retreats.setdefault(row.to, []).append(row.position)
                continue
            branches.append((1, self._child(f, row, depth - 1), row))
        if retreats:
            cost = p.spec[2]["retreat"]
            idle = self._idle_after(f, p, mp - cost, {"retreat"})
            for name, rspots in retreats.items():
                s = _square(name)
                for cls, child_of in self._classes(f, p, s, rspots, idle, ("retreat", mp - cost, depth - 1)):
                    child = child_of(lambda pos, name=name: self._child(
                        f, Ability.trusted(p.id, "retreat", to=name, position=pos), depth - 1))
                    branches.append((len(cls), child, ("retreat", p.id, name, cls)))
        for mult, child, _ in branches:
            cc = child.counts
            for k in range(len(cc)):
                counts[k + 1] += mult * cc[k]
        node.counts = counts
        return node

    def _classes(self, f: Field, p: Piece, s: Square, spots: Sequence[str], idle: bool, key: tuple[Any, ...]) -> Iterator[Any]:
        """The positions of square ``s`` split where the rows after ending there can differ: a free position
        or one an opponent holds (only how many positions are taken there matters); each with a way to
        get the child node.  Where no piece stands next to ``s`` (or the piece can do nothing more) the
        rows after do not depend on ``s`` at all, and the child is shared."""
        occ = f.occupancy()
        held = {q.pos for q in occ.get(s, ()) if q is not p}
        lonely = idle or not any(q is not p for t in f.grid.around[s] for q in occ.get(t, ()))
        for cls in ([x for x in spots if x not in held], [x for x in spots if x in held]):
            if not cls:
                continue
            if lonely:
                def shared(make: Any, cls: list[str] = cls) -> _Node:
                    child = self._iso.get(key)
                    if child is None:
                        child = self._iso[key] = make(cls[0])
                    return child
                yield cls, shared
            else:
                yield cls, (lambda make, cls=cls: make(cls[0]))

    def _idle_after(self, f: Field, p: Piece, most: int, *spent: set[str]) -> bool:
        """Can ``p`` do nothing more once it has moved with at most ``most`` movement left, having spent
        ``spent``?  (No ability it could still afford and use, and it is no ball carrier with a pass or
        play action to make.)"""
        if p.id == f.carrier:
            return False
        used = f.used.get(p.id, set()).union(*spent)
        for name, cost in p.spec[2].items():
            if name in NOT_ON_THEIR_OWN or name == "retreat" or name in used:
                continue
            if cost <= most and f.limit_ok(p, name) and not f.jammed(p):
                return False
        return True

    def counts(self) -> list[int]:
        return self.root.counts

    def rows(self, length: int, index: int) -> list[PieceAction]:
        """The ``index``-th sequence of exactly ``length`` rows."""
        out: list[PieceAction] = []
        node = self.root
        while length > 0:
            for mult, child, what in node.branches:
                per = child.counts[length - 1] if length - 1 < len(child.counts) else 0
                if index < mult * per:
                    k, index = divmod(index, per)
                    if isinstance(what, tuple) and what[0] == "move":
                        _, pid, name, cls, rush, route = what
                        out.append(Move.trusted(pid, name, cls[k], rush, route))
                    elif isinstance(what, tuple):
                        _, pid, name, cls = what
                        out.append(Ability.trusted(pid, "retreat", to=name, position=cls[k]))
                    else:
                        out.append(what)
                    node = child
                    length -= 1
                    break
                index -= mult * per
            else:
                raise IndexError(index)
        return out


def _square(name: str) -> Square:
    return ord(name[0]) - ord("A"), int(name[1:])


class PlanSpace(ActionSpace):
    """Every snap plan ``team`` may submit on ``board`` (its planning board: the board at the snap
    with ``team`` to act), counted and indexed by dynamic programming (see the module docstring).
    Plans are ordered by length, then by how the rows fall to the ranks and pieces, then by the
    interleaving, then by each piece's rows."""

    def __init__(self, board: Field, team: str, plan_rows: int) -> None:
        self.rows_max = plan_rows
        ranks: dict[int, list[_PieceTree]] = {}
        for p in board.actors(team):
            ranks.setdefault(p.rank, []).append(_PieceTree(board, team, p.id, plan_rows))
        self.groups = [ranks[k] for k in sorted(ranks)]
        # per group: suffix tables over its pieces, S[i][L] = ways pieces i.. fill L rows (interleaved)
        self.group_suffix = [self._group_suffix(g) for g in self.groups]
        # across groups: T[j][L] = ways groups j.. fill L rows
        R = plan_rows
        tails = [[1] + [0] * R]
        for j in range(len(self.groups) - 1, -1, -1):
            gj = self.group_suffix[j][0]
            nxt = tails[0]
            tails.insert(0, [sum(gj[a] * nxt[L - a] for a in range(L + 1)) for L in range(R + 1)])
        self.tails = tails
        self.by_length = tails[0]
        self.count = sum(self.by_length)

    def _group_suffix(self, trees: list[_PieceTree]) -> list[list[int]]:
        R = self.rows_max
        suffix = [[1] + [0] * R]
        for tree in reversed(trees):
            c = tree.counts() + [0] * (R + 1 - len(tree.counts()))
            nxt = suffix[0]
            suffix.insert(0, [sum(comb(L, a) * c[a] * nxt[L - a] for a in range(L + 1)) for L in range(R + 1)])
        return suffix

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, i: int) -> Plan:
        i = _index(i, self.count)
        length = 0
        while i >= self.by_length[length]:
            i -= self.by_length[length]
            length += 1
        rows: list[PieceAction] = []
        left = length
        for j, trees in enumerate(self.groups):
            nxt = self.tails[j + 1]
            gj = self.group_suffix[j][0]
            for a in range(left + 1):
                w = gj[a] * nxt[left - a]
                if i < w:
                    i, rest = divmod(i, nxt[left - a])
                    rows += self._group_rows(j, trees, a, i)
                    i, left = rest, left - a
                    break
                i -= w
        return Plan(tuple(rows))

    def _group_rows(self, j: int, trees: list[_PieceTree], total: int, i: int) -> list[PieceAction]:
        """Rows of group ``j`` (its pieces interleaved), ``total`` of them, the ``i``-th such arrangement."""
        suffix = self.group_suffix[j]
        lengths: list[int] = []
        left = total
        for k, tree in enumerate(trees):
            c = tree.counts()
            for a in range(left + 1):
                ca = c[a] if a < len(c) else 0
                w = comb(left, a) * ca * suffix[k + 1][left - a]
                if i < w:
                    # this piece's share: which of its positions in the interleaving, which sequence
                    i, rest = divmod(i, suffix[k + 1][left - a])
                    lengths.append(a)
                    i, seq = divmod(i, ca)
                    lengths.append(seq)
                    lengths.append(i)  # which subset of the slots (combination index)
                    i, left = rest, left - a
                    break
                i -= w
        # place the rows: each piece takes a subset of the remaining slots (combination unranking)
        slots = list(range(total))
        placed: list[PieceAction | None] = [None] * total
        for k, tree in enumerate(trees):
            a, seq, which = lengths[3 * k], lengths[3 * k + 1], lengths[3 * k + 2]
            chosen = _unrank_combination(len(slots), a, which)
            mine = [slots[x] for x in chosen]
            slots = [s for x, s in enumerate(slots) if x not in set(chosen)]
            for slot, row in zip(mine, tree.rows(a, seq), strict=True):
                placed[slot] = row
        return [r for r in placed if r is not None]

    # a space beyond sys.maxsize still samples and pages (len() itself cannot say so many)
    def sample(self, rng: Random) -> Plan:
        return self[rng.randrange(self.count)]

    def page(self, offset: int, limit: int) -> tuple[Action, ...]:
        start = max(0, offset)
        return tuple(self[i] for i in range(start, min(self.count, start + max(0, limit))))

    def __iter__(self) -> Iterator[Action]:
        i = 0
        while i < self.count:
            yield self[i]
            i += 1


def _unrank_combination(n: int, k: int, index: int) -> list[int]:
    """The ``index``-th ``k``-subset of ``range(n)`` in lexicographic order."""
    out: list[int] = []
    x = 0
    while k > 0:
        w = comb(n - x - 1, k - 1)
        if index < w:
            out.append(x)
            k -= 1
        else:
            index -= w
        x += 1
    return out


# ---------------------------------------------------------------- the summary
def legal_summary(f: Field, team: str) -> list[str]:
    """What ``team`` may do now, one line per piece that may act (for help texts and error messages):
    how many squares it can move to with its movement, and its other options (the first six)."""
    out: list[str] = []
    for p in f.actors(team):
        parts = []
        if p.id not in f.moved:
            n = len(f.reach(p, f.mp.get(p.id, 0))) - 1
            if n > 0:
                parts.append(f"move to one of {n} squares (movement {f.mp.get(p.id, 0)})")
        others = [str(a).removeprefix(f"{p.id} ") for a in _summary_options(f, team, p)]
        parts += others[:6] + ([f"... {len(others) - 6} more"] if len(others) > 6 else [])
        if parts:
            out.append(f"{p.id}: " + "; ".join(parts))
    return out


def _summary_options(f: Field, team: str, p: Piece) -> list[PieceAction]:
    """The options a summary names: one retreat per square (its first free position), passes with the
    passer named, play action with each holder (in a plan: none)."""
    out: list[PieceAction] = []
    seen: set[str] = set()
    for a in other_options(f, team, p, plan=f.sim):
        if isinstance(a, Ability) and a.ability == "retreat":
            assert a.to
            free = f.free_positions(_square(a.to), besides=p.id)
            if a.to in seen or not free or a.position != free[0]:
                continue
            seen.add(a.to)
        elif isinstance(a, Pass) and a.passer is None:
            continue
        elif isinstance(a, PlayAction) and a.holder is None and not f.sim:
            continue
        out.append(a)
    return out


__all__ = [
    "VARIANTS",
    "MoveGroup",
    "PieceOptions",
    "PlanSpace",
    "TurnSpace",
    "legal_summary",
    "move_groups",
    "other_options",
    "piece_options",
]
