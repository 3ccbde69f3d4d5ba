"""One down on the field: the pieces and the bookkeeping of the current part of a turn.

A :class:`Field` is the mutable on-field state of the current down; the game state
(:mod:`.engine`) owns it and drives it.  This module holds the state and the questions
about it (who stands where, who may still act, what a piece may spend); the rules that
change it live beside it, one topic a module:

- :mod:`.geometry` - squares and the per-field-size neighbour tables;
- :mod:`.paths` - the path search (what a piece can reach, at what cost);
- :mod:`.checks` - is an action legal now (pure: raises or returns the row's plan);
- :mod:`.resolution` - carrying a checked action out: moves, abilities, tackles, collisions,
  play action, plan rows, the whistle;
- :mod:`.passing` - pass modifiers and the throw when the ball moves;
- :mod:`.options` - listing the legal actions (exact, counted and indexed: the reaction-turn
  and snap-plan action spaces) and the short per-piece summary.

A *simulation* field (``clone(sim=True)``) is a scratch copy for checking plans: moves onto
an opponent's position neither tackle nor collide there, and no dice are rolled.

When the down ends ``result`` is set and the engine does the down bookkeeping.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gm.core.chance import Draw
from gm.core.events import Event
from gm.games.chess_football.geometry import POSITIONS, Grid, Spot, Square, cheb, col_letter, grid, parse_square, sq
from gm.games.chess_football.paths import reach as _reach
from gm.games.chess_football.paths import retreat_reach as _retreat_reach
from gm.games.chess_football.rules import ChessFootballRules


class DownEnd(StrEnum):
    """How a down ended (``Field.result.kind``)."""

    TACKLE = "tackle"
    WHISTLE = "whistle"
    INCOMPLETE = "incomplete"
    INTERCEPTION = "interception"
    TOUCHDOWN = "touchdown"
    SAFETY = "safety"


@dataclass(frozen=True, slots=True)
class DownResult:
    """The end of a down: how, where the ball is spotted (``None``: back to the line) and by whom."""

    kind: DownEnd
    spot: Square | None = None
    by: str | None = None
    sack: bool = False


def ev(kind: str, rule: str, template: str, **data: Any) -> Event:
    """An event; ``also`` (a list of rule ids) names the other rules that decided it."""
    if "also" in data and not data["also"]:
        del data["also"]
    return Event(kind, rule, template, data)


#: (movement, restricted, active abilities -> movement cost, passives)
Spec = tuple[int, bool, dict[str, int], list[str]]


class Piece:
    """One piece on the field.  ``sq`` / ``pos`` change only through :meth:`Field.put`."""

    __slots__ = ("abil_names", "base", "heavy", "id", "pos", "rank", "role", "side", "spec", "sq", "team")

    def __init__(self, id: str, team: str, side: str, base: str, role: str | None, square: Square, pos: str) -> None:
        self.id = id
        self.team = team
        self.side = side  # offense / defense
        self.base = base  # heavy / strong / fast / qb
        self.role = role  # captain role, or None for a standard piece
        self.sq = square
        self.pos = pos
        #: Heavy-type: a Heavy or a Heavy-based captain (ruling CF-R-HEAVY)
        self.heavy = base == "heavy"
        #: movement, restricted, active abilities (-> cost), passives - filled in by the Field
        self.spec: Spec = (0, False, {}, [])
        #: the active abilities' names, sorted - filled in by the Field
        self.abil_names: tuple[str, ...] = ()
        #: place in the movement order - filled in by the Field
        self.rank = 0

    def copy(self) -> Piece:
        p = Piece.__new__(Piece)
        p.id, p.team, p.side, p.base, p.role, p.sq, p.pos = self.id, self.team, self.side, self.base, self.role, self.sq, self.pos
        p.heavy, p.spec, p.rank, p.abil_names = self.heavy, self.spec, self.rank, self.abil_names
        return p

    @property
    def spot(self) -> Spot:
        return self.sq, self.pos

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
        draw: Callable[[Draw[Any]], Any] | None,
    ) -> None:
        self.rules = rules
        self.grid: Grid = grid(rules.columns, rules.rows)
        self.offense = offense
        self.defense = defense
        self.off_dir = off_dir
        self.los = los
        self.fdl = fdl
        self.pieces = pieces
        self.carrier = carrier
        self.snap_no = snap_no
        self.last_used = last_used  # shared with the game state: (team, piece, ability) -> snap number
        self.draw = draw  # the game state's chance draws (GameState.draw); None on a simulation board
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
        self.result: DownResult | None = None
        self.events: list[Event] = []
        #: board facts derived from where the pieces stand (blocked and sealed squares, occupancy);
        #: forgotten whenever a piece moves or a phase starts
        self._bc: dict[Any, Any] = {}
        self._rank = {name: i for i, name in enumerate(rules.movement_order)}
        for p in pieces.values():
            p.spec = self._spec(p)
            p.abil_names = tuple(sorted(p.spec[2]))
            p.rank = self._rank["captain" if p.role else p.base]
        self._teams: dict[Any, tuple[Piece, ...]] = {}
        #: team -> the options listed for its last reaction-turn decision, to keep where unchanged (see options)
        self.options_memo: dict[str, Any] = {}

    # ------------------------------------------------------------ copying
    def clone(self, *, sim: bool) -> Field:
        """An independent copy; ``sim``: a simulation board (no dice, no tackles, no collisions)."""
        f = Field.__new__(Field)
        f.__dict__.update(self.__dict__)
        f.pieces = {k: p.copy() for k, p in self.pieces.items()}
        f.last_used = dict(self.last_used)
        f.wrapped, f.moved, f.finished, f.frozen = set(self.wrapped), set(self.moved), set(self.finished), set(self.frozen)
        f.mp, f.phase_start, f.mod = dict(self.mp), dict(self.phase_start), dict(self.mod)
        f.jam_until, f.seal_until, f.immovable_until = dict(self.jam_until), dict(self.seal_until), dict(self.immovable_until)
        f.used = {k: set(v) for k, v in self.used.items()}
        f.events = []
        f._bc = {}
        f._teams = {}
        f.options_memo = {}
        f.sim = sim
        if sim:
            f.draw = None
        return f

    # ------------------------------------------------------------ who stands where
    def put(self, p: Piece, square: Square, pos: str) -> None:
        """Move ``p`` to ``square`` / ``pos`` (the one way pieces change place)."""
        p.sq = square
        p.pos = pos
        if self._bc:
            self._bc.clear()

    def touch(self) -> None:
        """Forget the board facts derived from the pieces' places (after changing them by hand)."""
        self._bc.clear()

    def dir_of(self, team: str) -> int:
        """+1 if ``team`` attacks toward the high rows, -1 toward row 1."""
        return self.off_dir if team == self.offense else -self.off_dir

    def team_pieces(self, team: str) -> tuple[Piece, ...]:
        """``team``'s pieces in movement order (then by id)."""
        got = self._teams.get(team)
        if got is None:
            got = self._teams[team] = tuple(sorted((p for p in self.pieces.values() if p.team == team), key=lambda q: (q.rank, q.id)))
        return got

    def team_by_id(self, team: str) -> tuple[Piece, ...]:
        """``team``'s pieces by id."""
        key = ("by_id", team)
        got = self._teams.get(key)
        if got is None:
            got = self._teams[key] = tuple(sorted(self.team_pieces(team), key=lambda q: q.id))
        return got

    def spots_of(self, team: str) -> dict[tuple[Square, str], Piece]:
        """The positions ``team``'s pieces hold."""
        key = ("spots", team)
        got = self._bc.get(key)
        if got is None:
            got = self._bc[key] = {q.spot: q for q in self.team_pieces(team)}
        return got

    def occupancy(self) -> dict[Square, list[Piece]]:
        """Square -> the pieces on it."""
        got = self._bc.get("occ")
        if got is None:
            got = {}
            for p in self.pieces.values():
                got.setdefault(p.sq, []).append(p)
            self._bc["occ"] = got
        return got

    def at(self, square: Square) -> list[Piece]:
        return list(self.occupancy().get(square, ()))

    def holder_at(self, square: Square, pos: str, *, besides: str | None = None) -> Piece | None:
        for p in self.occupancy().get(square, ()):
            if p.pos == pos and p.id != besides:
                return p
        return None

    def free_positions(self, square: Square, *, besides: str | None = None) -> list[str]:
        taken = {p.pos for p in self.occupancy().get(square, ()) if p.id != besides}
        return [pos for pos in POSITIONS if pos not in taken]

    def on_field(self, square: Square) -> bool:
        return self.grid.on(square)

    def in_end_zone_of(self, team: str, row: int) -> bool:
        """Is ``row`` in the end zone ``team`` defends?"""
        r = self.rules
        return row <= r.low_goal if self.dir_of(team) > 0 else row >= r.high_goal

    def beyond_los(self, row: int) -> int:
        """Rows past the line of scrimmage in the offense's direction (negative: behind it)."""
        return (row - self.los) * self.off_dir

    def adjacent(self, p: Piece, *, enemy: bool) -> list[Piece]:
        """Pieces next to ``p`` (same or neighbouring square): opponents, or other teammates; by id."""
        key = ("adj", p.id, enemy)
        got = self._bc.get(key)
        if got is None:
            occ = self.occupancy()
            got = [q for s in self.grid.around[p.sq] for q in occ.get(s, ()) if (q.team != p.team) == enemy and q is not p]
            got.sort(key=lambda q: q.id)
            self._bc[key] = got
        return list(got)

    # ------------------------------------------------------------ what pieces are
    def rank(self, p: Piece) -> int:
        return p.rank

    def spec(self, p: Piece) -> Spec:
        """Movement, restricted, active abilities (-> cost), passives."""
        return p.spec

    def _spec(self, p: Piece) -> Spec:
        r = self.rules
        k = r.kinds[p.base]
        if p.role:
            c = r.captains[p.role]
            return c.movement, c.restricted, {**k.abilities, **c.abilities}, list(c.passives)
        return k.movement, k.restricted, dict(k.abilities), []

    def abilities(self, p: Piece) -> dict[str, int]:
        return p.spec[2]

    def has_passive(self, p: Piece, name: str) -> bool:
        return name in p.spec[3]

    def in_list(self, p: Piece, names: list[str]) -> bool:
        return (p.role in names) if p.role else (p.base in names)

    def ineligible(self, p: Piece) -> bool:
        return self.in_list(p, self.rules.ineligible_pieces)

    def limited_row(self, p: Piece) -> bool:
        """Is ``p`` held to ``ineligible_downfield`` rows past the line (an ineligible receiver before the pass)?"""
        return p.team == self.offense and not self.pass_thrown and self.ineligible(p)

    def can_pass(self, p: Piece) -> bool:
        return "pass" in p.spec[2]

    def qb(self, team: str) -> Piece | None:
        """The team's standard QB (the piece ``Retreat`` moves toward)."""
        key = ("qb", team)
        got = self._teams.get(key)
        if got is None:
            got = self._teams[key] = tuple(p for p in self.pieces.values() if p.team == team and p.base == "qb" and not p.role)[:1]
        return got[0] if got else None

    # ------------------------------------------------------------ what pieces may do
    def limit_ok(self, p: Piece, ability: str) -> bool:
        """Not used within the last ``once_per_downs`` downs, if it is a limited ability (CF-R-ONCE-4)."""
        if ability not in self.rules.limited_abilities:
            return True
        last = self.last_used.get((p.team, p.id, ability))
        return last is None or self.snap_no - last >= self.rules.once_per_downs

    def jammed(self, p: Piece) -> bool:
        return self.jam_until.get(p.id, -1) >= self.phase_idx

    def immovable(self, p: Piece) -> bool:
        return self.immovable_until.get(p.id, -1) >= self.phase_idx

    def flags(self, p: Piece) -> list[str]:
        """What holds ``p`` now, as the board and the view name it: ``wrapped``, ``jammed``, ``immovable``,
        ``sealing``."""
        flags = ["wrapped"] if p.id in self.wrapped else []
        if self.jammed(p):
            flags.append("jammed")
        if self.immovable(p):
            flags.append("immovable")
        if self.seal_until.get(p.id, -1) >= self.phase_idx:
            flags.append("sealing")
        return flags

    def sealing(self) -> list[Piece]:
        return [self.pieces[i] for i, until in self.seal_until.items() if until >= self.phase_idx and i in self.pieces]

    def ball_candidates(self) -> tuple[str, ...]:
        """Pieces that may hold the ball as the defense sees it."""
        if self.hidden and self.pair:
            return self.pair
        return (self.carrier,)

    def can_still_act(self, p: Piece) -> bool:
        return p.team == self.acting and p.id not in self.finished and p.id not in self.wrapped and p.rank >= self.floor

    def actors(self, team: str) -> list[Piece]:
        """``team``'s pieces that may still act in this part of the turn (movement order kept)."""
        if self.result is not None:
            return []
        return [p for p in self.team_pieces(team) if self.can_still_act(p)]

    # ------------------------------------------------------------ reach
    def blockers(self, team: str, rush: bool) -> frozenset[Square]:
        """Squares ``team``'s pieces may end on but not pass through: opposing pieces (Heavy-types only when rushing)."""
        key = ("block", team, rush)
        got = self._bc.get(key)
        if got is None:
            got = self._bc[key] = frozenset(q.sq for q in self.pieces.values() if q.team != team and (not rush or q.heavy))
        return got

    def sealed(self, team: str) -> frozenset[Square]:
        """Squares next to an opposing sealing Nickelback (a step into them costs ``seal_cost`` more)."""
        key = ("seal", team)
        got = self._bc.get(key)
        if got is None:
            out: set[Square] = set()
            for nb in self.sealing():
                if nb.team != team:
                    out.update(self.grid.around[nb.sq])
            got = self._bc[key] = frozenset(out)
        return got

    def reach(self, p: Piece, mp: int, *, rush: bool = False, route: bool = False, ghost: bool = False) -> dict[Square, int]:
        """Cheapest movement cost to every square ``p`` can end a move on with ``mp`` (see :mod:`.paths`);
        ``ghost``: as if no piece blocked the way.  Shared: do not change the result."""
        r = self.rules
        blocked = frozenset() if ghost else self.blockers(p.team, rush)
        return _reach(self.grid, p.sq, mp, p.spec[1] and not route, blocked, self.sealed(p.team), r.direction_change_cost, r.seal_cost)

    def retreat_reach(self, p: Piece) -> frozenset[Square]:
        """Squares a retreat can reach: up to ``retreat_squares`` steps, each closer to the own QB."""
        key = ("retreat", p.id)
        got = self._bc.get(key)
        if got is None:
            qb = self.qb(p.team)
            got = self._bc[key] = frozenset() if qb is None else _retreat_reach(
                self.grid, p.sq, qb.sq, self.blockers(p.team, False), self.rules.retreat_squares)
        return got

    # ------------------------------------------------------------ phases and movement allowances
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
            base = p.spec[0]
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

    def give_mp(self, p: Piece, delta: int) -> None:
        """Movement gained or lost: now if ``p`` can still act, else at its next part of a turn (CF-R-EFFECT-TIMING)."""
        if self.can_still_act(p):
            self.mp[p.id] = max(0, self.mp.get(p.id, 0) + delta)
        else:
            self.mod[p.id] = self.mod.get(p.id, 0) + delta

    def freeze(self, p: Piece) -> None:
        """All movement lost: now if ``p`` can still act, else for its next part of a turn (CF-R-CHOP)."""
        if self.can_still_act(p):
            self.mp[p.id] = 0
        else:
            self.frozen.add(p.id)

    def note_rank(self, p: Piece) -> None:
        """``p`` acted: pieces earlier in the movement order can no longer act (CF-MOVE-ORDER)."""
        if p.rank > self.floor:
            self.floor = p.rank

    def use(self, p: Piece, name: str) -> None:
        """``p`` used ability ``name`` (once a turn; a limited one also starts its once-per-downs window)."""
        self.used.setdefault(p.id, set()).add(name)
        if name in self.rules.limited_abilities:
            self.last_used[(p.team, p.id, name)] = self.snap_no


__all__ = [
    "POSITIONS",
    "DownEnd",
    "DownResult",
    "Field",
    "Piece",
    "Spot",
    "Square",
    "cheb",
    "col_letter",
    "ev",
    "parse_square",
    "sq",
]
