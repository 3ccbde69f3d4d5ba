"""The Quarter Back rules engine.

A match is two games of two halves (``format = "game"``: one game).  Each half the
pieces are set out afresh from the ruleset's set-up, the attacker's Quarterback
holds the ball and the sides alternate turns, attacker first: the attacker has
two actions (move a piece / pass the ball), the defender moves up to two pieces
(ruling QB-R-DEFENSE-TURN).  A half ends when the carrier is tackled (row +
column scored), a pass is intercepted (nothing scored) or at the whistle after
``max_rounds`` rounds (ruling QB-R-WHISTLE).

Squares are ``(column index, row)``: column 0 is ``A`` (the attacker's left) and
rows are as printed, 0..field_rows, with the unnumbered rows behind row 0 as -1,
-2, ...  The attacker always plays up the board, toward the high rows.

One statement of movement: :meth:`QuarterbackState.step` walks a piece one square
and is the single place where movement, blocking, offside, pushing, tackling and
picking up the ball are decided.  Checking an action, applying it, listing the
legal moves (:meth:`~QuarterbackState.reachable`) and the bots all walk through
it, so they cannot disagree.  A :class:`Walk` is a move in progress, computed
without touching the state; carrying out a move commits its walk.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from enum import StrEnum
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from gm.core.actions import Action
from gm.core.chance import Choice
from gm.core.errors import IllegalActionError, InvalidActionError, bad_input
from gm.core.events import Event, make_event
from gm.core.outcome import Outcome
from gm.core.state import GameState, LegalActions
from gm.games.quarterback.actions import FORMS, NOTATION, Directions, EndTurn, MovePiece, PassBall, read_directions
from gm.games.quarterback.rules import KIND_NAMES, QuarterbackRules, parse_square, square_name

if TYPE_CHECKING:
    import random

Square = tuple[int, int]
Piece = tuple[str, str]  # (seat, piece id)
# alike on purpose: every game's engine declares its seats and its phases and decisions as enums of this
# shape; each names its own game's (the tools, the page and the bots read them)
RED, BLUE = "red", "blue"
SEATS = (RED, BLUE)


class Phase(StrEnum):
    """Who is on turn: the attacker, the defender, or nobody (the match is over)."""

    ATTACK = "attack"
    DEFEND = "defend"
    OVER = "over"


class Decision(StrEnum):
    """What the seat on turn decides (the action tools declare which they answer)."""

    ATTACKER_TURN = "attacker_turn"
    DEFENDER_TURN = "defender_turn"


class HalfEnd(StrEnum):
    """How a half ended."""

    TACKLE = "tackle"
    INTERCEPT = "intercept"
    WHISTLE = "whistle"


class Kind(StrEnum):
    """How a piece plays: its letter (a defending Quarterback plays as a Triple, ruling QB-R-DEFENSE-QB)."""

    QUARTERBACK = "Q"
    SINGLE = "S"
    DOUBLE = "D"
    TRIPLE = "T"


ATTACK, DEFEND, OVER = Phase.ATTACK, Phase.DEFEND, Phase.OVER
#: what each phase asks the seat on turn to decide
DECISIONS = {Phase.ATTACK: Decision.ATTACKER_TURN, Phase.DEFEND: Decision.DEFENDER_TURN}
#: step directions, forward first (also the order of generated moves)
DIRS: tuple[Square, ...] = ((0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1), (-1, -1), (1, -1))
#: tackles by moving onto the carrier's square, by the ruleset's reading of QB-TACKLE (ruling QB-R-TACKLE-PAIRS):
#: reading -> tackler kind -> carrier kinds.  "groups" (the default): "Triples and Doubles can tackle each other"
#: lets any two of those kinds tackle, same kinds included; "pairs": only the named kinds tackle each other.
#: The Quarterback carrier counts as a Triple (a defending one plays as a Triple: ruling QB-R-DEFENSE-QB).
TACKLES: dict[str, dict[str, frozenset[str]]] = {
    "groups": {
        Kind.TRIPLE: frozenset("TQD"),
        Kind.DOUBLE: frozenset("TQDS"),
        Kind.SINGLE: frozenset("DS"),
        Kind.QUARTERBACK: frozenset(),
    },
    "pairs": {
        Kind.TRIPLE: frozenset("D"),
        Kind.DOUBLE: frozenset("TQS"),
        Kind.SINGLE: frozenset("D"),
        Kind.QUARTERBACK: frozenset(),
    },
}
MOVE_RULE = {"S": "QB-MOVE-SINGLE", "D": "QB-MOVE-DOUBLE", "T": "QB-MOVE-TRIPLE", "Q": "QB-MOVE-QB"}


def other(seat: str) -> str:
    return BLUE if seat == RED else RED


_OTHER = {RED: BLUE, BLUE: RED}
_TQ = {RED: RED + "/TQ", BLUE: BLUE + "/TQ"}  # the key of a seat's Triples' and Quarterbacks' zone


sq = square_name
_NO_PUSHES: dict[Piece, Square] = {}  # a walk's pushes before it pushes (shared: a walk replaces, never fills, it)


_new = object.__new__
_slot: dict[str, Any] = dict(vars(MovePiece))  # the fields' slot descriptors
_PIECE, _TO, _VIA = (_slot[name].__set__ for name in ("piece", "to", "via"))


_event = make_event


def _ev(kind: str, rule: str, template: str, **data: Any) -> Event:
    return _event(kind, rule, template, data)


class IllegalStep(Exception):
    """A step or an action breaks a rule: ``rule`` and ``reason`` (the engine turns it into an
    :class:`IllegalActionError`; a bot trying steps just tries another)."""

    __slots__ = ("_reason", "rule")

    def __init__(self, rule: str, reason: str | Callable[..., str]) -> None:
        self.rule = rule
        self._reason = reason  # a walk tries many steps that fail: their words are written only when read

    @property
    def reason(self) -> str:
        if not isinstance(self._reason, str):
            self._reason = self._reason()
        return self._reason

    def __str__(self) -> str:
        return self.reason


class Geometry(NamedTuple):
    """The board of a ruleset: its squares, each square's on-board neighbours in :data:`DIRS` order
    (also as a set), the squares' names both ways, and the zones of pieces' squares found so far (:meth:`QuarterbackState._zone`)."""

    squares: frozenset[Square]
    neighbours: dict[Square, tuple[Square, ...]]
    around: dict[Square, frozenset[Square]]
    names: dict[Square, str]
    by_name: dict[str, Square]
    zones: dict[tuple[Square, ...], frozenset[Square]]


@lru_cache(maxsize=64)
def geometry(columns: int, min_row: int, max_row: int) -> Geometry:
    """The board's squares, neighbours and names (computed once per board size)."""
    squares = frozenset((c, r) for c in range(columns) for r in range(min_row, max_row + 1))
    neighbours = {(c, r): tuple((c + dc, r + dr) for dc, dr in DIRS if (c + dc, r + dr) in squares) for c, r in squares}
    names = {s: square_name(s) for s in squares}
    return Geometry(squares, neighbours, {s: frozenset(n) for s, n in neighbours.items()}, names, {n: s for s, n in names.items()}, {})


class Walk:
    """One piece's move in progress, computed without touching the state: the board without the
    mover (``base``), where the mover is (``at``), the squares it went through (``path``), the
    ball (``carrier`` / ``loose``), the pieces it pushed and whether the half ends (``end``).
    Made by :meth:`QuarterbackState.start_walk` and :meth:`QuarterbackState.step`; read-only
    to everyone else."""

    __slots__ = (
        "at", "base", "carrier", "crossed", "end", "end_at", "kind", "log", "loose", "memo", "opp", "past_weaker",
        "path", "piece", "pushed", "shared", "strength",
    )  # fmt: skip

    def __init__(self, piece: Piece, kind: str, strength: int, at: Square, base: dict[Square, Piece],
                 carrier: Piece | None, loose: Square | None) -> None:  # fmt: skip
        self.piece = piece
        self.opp = _OTHER[piece[0]]
        self.kind = kind
        self.strength = strength
        self.at = at
        self.base = base  # every piece but the mover
        self.shared = True  # base is shared with the state / other walks: copy before writing
        self.carrier = carrier
        self.loose = loose
        self.end: HalfEnd | None = None  # a tackle or an interception: the half is over
        self.end_at: Square | None = None
        #: (both replaced, never changed in place: forks share them)
        self.pushed: dict[Piece, Square] = _NO_PUSHES
        #: what happened on the way, as facts (the events are written when the move is carried out)
        self.log: tuple[tuple[Any, ...], ...] = ()
        #: a diagonal step passed a weaker opposition piece (QB-DIAGONAL was checked and allowed it)
        self.past_weaker = False
        #: an attacking Double or Quarterback stepped over the line (QB-OFFSIDE-LINE)
        self.crossed = False
        self.path: tuple[Square, ...] = ()
        #: the walks of the position this walk started in, by canonical action (the engine reuses a walk
        #: only in its own position)
        self.memo: dict[tuple[Piece, MovePiece], Walk] | None = None

    def fork(self) -> Walk:
        """An independent copy to walk on (the board is shared until one of them pushes)."""
        w = Walk.__new__(Walk)
        w.piece = self.piece
        w.opp = self.opp
        w.kind = self.kind
        w.strength = self.strength
        w.at = self.at
        w.base = self.base
        w.shared = True
        w.carrier = self.carrier
        w.loose = self.loose
        w.end = self.end
        w.end_at = self.end_at
        w.past_weaker = self.past_weaker
        w.crossed = self.crossed
        w.path = self.path
        w.pushed = self.pushed
        w.log = self.log
        w.memo = self.memo
        return w

    def write(self) -> dict[Square, Piece]:
        if self.shared:
            self.base = dict(self.base)
            self.shared = False
        return self.base

    def board(self) -> dict[Square, Piece]:
        """The board after the move (every piece, the mover on its square)."""
        b = dict(self.base)
        b[self.at] = self.piece
        return b

    def signature(self) -> tuple[Any, ...]:
        """What the move leaves on the board: where the mover stands, the ball, the pushes, the end."""
        if not self.pushed:
            return (self.at, self.carrier, self.loose, self.end)
        return (self.at, self.carrier, self.loose, self.end, tuple(sorted(self.pushed.items())))


class Layout(NamedTuple):
    """A half's set-up, worked out once a match for each attacker: where the pieces start, how each
    plays (kind, strength), each seat's pieces in order, and the pieces of each :meth:`~QuarterbackState._zone`."""

    pos: dict[Piece, Square]
    kind: dict[Piece, Kind]
    strength: dict[Piece, int]
    order: dict[str, tuple[str, ...]]
    groups: dict[str, tuple[Piece, ...]]


class QuarterbackState(GameState[QuarterbackRules]):
    """State of one Quarter Back match (or game)."""


    # ----------------------------------------------------------------- setup
    def _setup(self) -> None:
        r = self.rules
        first = self.draw(Choice("toss", SEATS)) if r.first_attacker == "toss" else r.first_attacker
        self.first_attacker = first
        second = other(first)
        # QB-HALVES / QB-MATCH: game two's first attacker is game one's first defender
        self.order = [first, second] if r.format == "game" else [first, second, second, first]
        self.games = len(self.order) // 2
        self.points: list[dict[str, int]] = [{RED: 0, BLUE: 0} for _ in range(self.games)]
        self.game_points = {RED: 0, BLUE: 0}
        self.results: list[dict[str, Any]] = []
        self._values = r.values
        # the ruleset's numbers the turn and movement rules read on every action
        self._attack_actions, self._defense_moves, self._qb_extra = r.attack_actions, r.defense_moves, r.quarterback_extra
        self._allow = {"S": r.single_moves, "D": r.double_moves, "T": r.triple_moves, "Q": r.triple_moves}
        #: tackler kind -> the carrier kinds it tackles by moving onto their square (QB-TACKLE, ruling QB-R-TACKLE-PAIRS)
        self.tackles: dict[str, frozenset[str]] = TACKLES[r.tackle_reading]
        self._geo = geometry(r.columns, r.min_row, r.field_rows)
        self._names, self._layouts = _prepared(r)
        #: walks made in this position by their canonical action (:meth:`action_of`): a move a bot or the
        #: legal list walked is not walked again when checked (renewed by every action: walks depend on
        #: the ball, the turn and the defense's release as well as the board)
        # speed seam: walk-memo - a move a bot or the legal list walked (this memo and the last route) is not walked again
        # when checked: random play 1.24x as fast, the search bot 1.05x
        self._routes: dict[tuple[Piece, MovePiece], Walk] = {}
        #: the last of them, kept out of the dict until the next one comes (a bot's one move: never hashed)
        self._last_route: tuple[MovePiece, Walk] | None = None
        self._start_half(0)

    def opening_events(self) -> list[Event]:
        """Who attacks first, said as the match opens: the coin toss (QB-TOSS) or the ruleset."""
        seat = self.first_attacker
        if self.rules.first_attacker == "toss":
            return [_ev("kickoff", "QB-TOSS", "{seat} won the coin toss and attacks first", seat=seat,
                        also=["QB-R-TOSS", "QB-HALVES", "QB-BALL-START"])]
        return [_ev("kickoff", "QB-HALVES", "{seat} attacks first (the ruleset's first_attacker)", seat=seat,
                    also=["QB-BALL-START"])]

    def _start_half(self, half: int) -> None:
        r = self.rules
        self.half = half
        self.attacker = self.order[half]
        self.defender = other(self.attacker)
        self.phase = Phase.ATTACK
        self.round = 1
        layout = self._layouts.get(self.attacker)
        if layout is None:  # the same two set-ups every half: worked out once a ruleset (see _prepared)
            pos: dict[Piece, Square] = {}
            kind: dict[Piece, Kind] = {}
            for seat, setup in ((self.attacker, r.attack), (self.defender, r.defense)):
                for pid, name in setup.pieces().items():
                    piece = (seat, pid)
                    pos[piece] = parse_square(name)
                    # ruling QB-R-DEFENSE-QB: a defending Quarterback plays as a Triple
                    kind[piece] = Kind.TRIPLE if pid == "QB" and seat == self.defender else Kind(pid[0])
            order = {seat: tuple(sorted((p for s, p in pos if s == seat), key=_pid_order)) for seat in SEATS}
            # the pieces whose neighbourhoods make each :meth:`_zone`
            groups = {seat + which: tuple(p for p in pos if p[0] == seat and kind[p] in kinds)
                      for seat in SEATS for which, kinds in (("", "S"), ("/TQ", "TQ"))}  # fmt: skip
            layout = self._layouts[self.attacker] = Layout(pos, kind, {p: r.strength(k) for p, k in kind.items()}, order, groups)
        self.pos = dict(layout.pos)
        self.kind, self.strength, self._order, self._groups = layout.kind, layout.strength, layout.order, layout.groups
        board = {square: piece for piece, square in self.pos.items()}
        self.carrier: Piece | None = (self.attacker, "QB")  # QB-BALL-START
        self.loose: Square | None = None
        self.released = False
        self._set_board(board)
        self._reset_turn()
        self._check_release([])

    def _set_board(self, board: dict[Square, Piece], moved: Iterable[Piece] | None = None) -> None:
        """A new position: the board, and what is derived from it (kept until the next move): the squares
        next to a seat's Singles, or its Triples and Quarterbacks (:meth:`_zone`), change only when one
        of them moves or is pushed (``moved``: the pieces that did; ``None``: a new half)."""
        self.board = board
        if moved is None:
            self._zones: dict[str, frozenset[Square]] = {}
        else:
            zones, kind = self._zones, self.kind
            for p in moved:
                k = kind[p]
                if k != "D":
                    zones.pop(p[0] if k == "S" else _TQ[p[0]], None)
        self._bases: dict[Piece, dict[Square, Piece]] = {}

    def _reset_turn(self) -> None:
        self.moved: list[str] = []
        self.passes = 0
        self.active: str | None = None
        self.active_left = 0

    # --------------------------------------------------------------- helpers
    @property
    def game_no(self) -> int:
        """1-based number of the game in play."""
        return self.half // 2 + 1

    @property
    def half_in_game(self) -> int:
        return self.half % 2 + 1

    def decision(self, seat: str) -> Decision | None:
        """The kind of decision ``seat`` must make now (``None``: nothing)."""
        if seat not in self.to_act():
            return None
        return DECISIONS.get(self.phase)

    def value(self, square: Square) -> int:
        """Points for a carrier tackled on ``square``: row + column (QB-SCORE, QB-R-COLUMNS)."""
        return max(square[1], 0) + self._values[square[0]]

    def on_board(self, square: Square) -> bool:
        return square in self._geo.squares

    def neighbours(self, square: Square) -> tuple[Square, ...]:
        """The on-board squares next to ``square``, in :data:`DIRS` order."""
        return self._geo.neighbours[square]

    def describe(self, piece: Piece) -> str:
        """``"red Triple T1"``."""
        return self._names[piece]

    def pieces(self, seat: str) -> tuple[str, ...]:
        """The seat's piece ids in a fixed order (QB, Singles, Doubles, Triples); pieces never leave the board."""
        return self._order[seat]

    def budget_left(self) -> int:
        """Actions (pieces to start moving, passes) still open this turn."""
        if self.phase == ATTACK:
            return self._attack_actions - len(self.moved) - self.passes
        return self._defense_moves - len(self.moved)

    def allowance(self, piece: Piece) -> int:
        """Squares ``piece`` may move when it starts a move now (QB-MOVE-*)."""
        k = self.kind[piece]
        if k == "Q" and self.pos[piece][1] >= 1:
            return self._allow[k] + self._qb_extra
        return self._allow[k]

    def steps_open(self, seat: str, pid: str) -> int:
        """Squares the seat's piece may still move this turn; raises :class:`IllegalStep` if it may not move."""
        piece = (seat, pid)
        k = self.kind[piece]
        if pid == self.active:
            if self.active_left > 0:
                return self.active_left
            raise IllegalStep(MOVE_RULE[k], f"{pid} has already moved all the squares it may move this turn")
        if pid in self.moved:
            raise IllegalStep(
                "QB-SEQUENCE",
                f"{pid} already moved this turn and another piece has moved since: a piece moves in one uninterrupted sequence",
            )
        attacking = self.phase == ATTACK
        if (self._attack_actions - len(self.moved) - self.passes if attacking else self._defense_moves - len(self.moved)) <= 0:
            if attacking:  # budget_left() <= 0
                raise IllegalStep("QB-TURN", f"this turn's {self.rules.attack_actions} actions are used ({self._turn_text()})")
            raise IllegalStep("QB-R-DEFENSE-TURN", f"the defender moves at most {self.rules.defense_moves} pieces a turn")
        if k == "Q" and self.pos[piece][1] >= 1:  # allowance(piece)
            return self._allow[k] + self._qb_extra
        return self._allow[k]

    def movable(self, seat: str) -> list[str]:
        """The pieces of the seat on turn that may move now (start their move, or go on with it), in
        :meth:`pieces` order: exactly those for which :meth:`steps_open` does not raise."""
        active, moved = self.active, self.moved
        if self.phase == ATTACK:
            fresh = self._attack_actions - len(moved) - self.passes > 0
        else:
            fresh = self._defense_moves - len(moved) > 0
        if not moved:  # nothing moved yet this turn (so no piece is on its way either)
            return list(self._order[seat]) if fresh else []
        if not fresh:  # only the piece on its way, if it has squares left
            return [active] if active is not None and self.active_left > 0 and active in self._order[seat] else []
        out = []
        for pid in self._order[seat]:
            if pid == active:
                if self.active_left > 0:
                    out.append(pid)
            elif fresh and pid not in moved:
                out.append(pid)
        return out

    def may_pass(self, seat: str) -> bool:
        """Whether ``seat`` may pass now (it attacks, a piece holds the ball, an action is left)."""
        if seat != self.attacker or self.carrier is None:
            return False
        if self.phase == ATTACK:  # budget_left(), inlined: asked at every decision
            return self._attack_actions - len(self.moved) - self.passes > 0
        return self.budget_left() > 0

    def _turn_text(self) -> str:
        parts = [f"moved {', '.join(self.moved)}"] if self.moved else []
        if self.passes:
            parts.append(f"{self.passes} pass{'es' if self.passes > 1 else ''}")
        return "; ".join(parts) or "nothing yet"

    def adjacent_single(self, board: dict[Square, Piece], square: Square, seat: str) -> Piece | None:
        """A Single of ``seat`` next to ``square`` (QB-ADJACENT, ruling QB-R-ADJACENT), if any."""
        c, r = square
        kind = self.kind
        for dc, dr in DIRS:
            p = board.get((c + dc, r + dr))
            if p is not None and p[0] == seat and kind[p] == "S":
                return p
        return None

    # ------------------------------------------------------------ one step
    def step(self, w: Walk, to: Square) -> Walk:
        """The one statement of movement: ``w`` one square further, to the adjacent square ``to``, as a
        new walk (``w`` is unchanged).  Raises :class:`IllegalStep` naming the rule the step breaks."""
        w2 = self.try_step(w, to)
        if isinstance(w2, IllegalStep):
            raise w2
        return w2

    def try_step(self, w: Walk, to: Square) -> Walk | IllegalStep:
        """:meth:`step`, with the :class:`IllegalStep` of a refused step returned instead of raised (a
        random walk tries many steps that fail)."""
        if w.end:
            rule = "QB-INTERCEPT" if w.end == HalfEnd.INTERCEPT else "QB-TACKLE"
            return IllegalStep(rule, f"the move ends on {sq(w.at)} (the half is over there); it can't go on to {sq(to)}")
        w2 = w.fork()
        refused = self._step(w2, to, True)
        return w2 if refused is None else refused

    def _step(self, w: Walk, to: Square, last: bool) -> IllegalStep | None:
        """Move the walking piece one square to ``to`` (adjacent); or, if the step breaks a rule, return
        the :class:`IllegalStep` that says so (returned, not raised: a random walk or a move search has
        most of its refused steps refused here, and a raise costs as much as a step; the walk is then of
        no use).  ``last``: the move's last square, which only words the error."""
        c, row = w.at
        tc, tr = to
        dc, dr = tc - c, tr - row
        if to not in self._geo.squares:
            return IllegalStep("QB-R-BOARD", lambda to=to: f"{sq(to)} is off the board")
        base = w.base
        strength = self.strength
        if dc and dr:  # QB-DIAGONAL / ruling QB-R-DIAGONAL
            for side in ((tc, row), (c, tr)):
                p = base.get(side)
                if p is not None and p[0] == w.opp:
                    if strength[p] >= w.strength:
                        return IllegalStep("QB-DIAGONAL", partial(self._diagonal_words, w, to, p, side))
                    w.past_weaker = True
        kind = w.kind
        if w.piece[0] == self.defender:
            if kind == "T" and tr < 1:
                r = self.rules
                return IllegalStep("QB-OFFSIDE-TRIPLE", lambda to=to, r=r: f"a defending Triple stays on rows 1-{r.field_rows}: {sq(to)} is over the line")
            if tr >= 2 and kind in "SD" and not self.released:
                r = self.rules
                return IllegalStep(
                    "QB-OFFSIDE-LINE",
                    lambda to=to, r=r, kind=kind: f"a defending {KIND_NAMES[kind]} may not go to rows 2-{r.field_rows} ({sq(to)}) until an attacking "
                    "Double or the Quarterback has moved over the line",
                )
        elif tr >= 1 and kind in "DQ":
            w.crossed = True  # an attacking Double or Quarterback over the line (QB-OFFSIDE-LINE)
        occ = base.get(to)
        has_ball = w.carrier == w.piece
        push: tuple[Piece, Square] | None = None
        if occ is not None:
            if occ[0] == w.piece[0]:
                if last:
                    return IllegalStep("QB-OCCUPIED", lambda to=to, occ=occ: f"{sq(to)} is occupied by your {occ[1]}")
                return IllegalStep("QB-JUMP", lambda w=w, to=to, occ=occ: f"{w.piece[1]} can't pass through {sq(to)}: a piece can't jump over another piece ({occ[1]})")
            if occ == w.carrier:  # a defender meets the ball carrier: tackle or nothing
                ck = self.kind[occ]
                if ck not in self.tackles[kind]:
                    return IllegalStep(
                        "QB-R-TACKLE-PAIRS",
                        lambda to=to, kind=kind, ck=ck: f"a {KIND_NAMES[kind]} can't tackle a {KIND_NAMES[ck]}: it can't move onto {sq(to)}",
                    )
                w.end, w.end_at = HalfEnd.TACKLE, to  # the tackler stays beside the carrier on the board
                w.path += (to,)
                w.log += (("tackle", w.piece, occ, to),)
                return None
            if has_ball:
                return IllegalStep("QB-PUSH-CARRIER", lambda w=w, to=to, occ=occ: f"the ball carrier can't push: {w.piece[1]} can't move onto {occ[1]} on {sq(to)}")
            if strength[occ] >= w.strength:
                return IllegalStep(
                    "QB-PUSH",
                    lambda self=self, w=w, to=to, occ=occ, strength=strength: f"{w.piece[1]} (strength {w.strength}) can push only a weaker opposition piece; "
                    f"{self.describe(occ)} on {sq(to)} has strength {strength[occ]}",
                )
            target = (tc + dc, tr + dr)
            try:
                self._push_ok(w, occ, target, to)
            except IllegalStep as exc:
                return exc
            push = (occ, target)
        if kind in "TQ" and to in (self._zones.get(w.opp) or self._zone(w.opp)):
            s = self.adjacent_single(base, to, w.opp)
            if s is not None:
                return IllegalStep("QB-ADJACENT", lambda self=self, w=w, to=to, kind=kind, s=s: f"a {KIND_NAMES[kind]} may not stand next to an opposition Single: {sq(to)} is next to {s[1]} on {sq(self._where(w, s))}")
        # --- the step is allowed: carry it out
        w.path += (to,)
        if push is not None:
            self._do_push(w, push[0], to, push[1], "QB-PUSH")
            if w.end:
                w.at = to
                return None
        w.at = to
        if w.loose == to:
            self._pick_up(w, w.piece, to)
            if w.end:
                return None
            has_ball = True
        if kind == "S":
            key = _TQ[w.opp]
            if w.pushed or to in (self._zones.get(key) or self._zone(key)):
                try:
                    self._single_reach(w, to, has_ball)
                except IllegalStep as exc:
                    return exc
            # else no opposition Triple or Quarterback is next to it (and none was pushed on the way)
        return None

    def _diagonal_words(self, w: Walk, to: Square, p: Piece, side: Square) -> str:
        return (f"{w.piece[1]} can't move diagonally {sq(w.at)}-{sq(to)} past {self.describe(p)} on {sq(side)} "
                f"(strength {self.strength[p]} against {w.strength})")  # fmt: skip

    def _where(self, w: Walk, piece: Piece) -> Square:
        return w.pushed.get(piece, self.pos[piece])

    def _push_ok(self, w: Walk, piece: Piece, target: Square, frm: Square) -> None:
        """Raise :class:`IllegalStep` if ``piece`` can't be pushed from ``frm`` to ``target`` (QB-PUSH-LIMIT)."""
        if target not in self._geo.squares:
            raise IllegalStep("QB-PUSH-LIMIT", lambda self=self, piece=piece, frm=frm: f"{self.describe(piece)} can't be pushed off the board (from {sq(frm)})")
        if target in w.base:
            raise IllegalStep("QB-PUSH-LIMIT", lambda self=self, piece=piece, frm=frm, target=target: f"{self.describe(piece)} can't be pushed from {sq(frm)} onto {sq(target)}: it is occupied")
        if self.kind[piece] in "TQ" and target in self._zone(w.piece[0]):
            s = self.adjacent_single(w.base, target, w.piece[0])
            if s is not None:
                raise IllegalStep(
                    "QB-PUSH-LIMIT",
                    lambda self=self, s=s, piece=piece, target=target: f"{self.describe(piece)} can't be pushed onto {sq(target)}: it is next to the opposition Single {s[1]}",
                )

    def _do_push(self, w: Walk, piece: Piece, frm: Square, target: Square, rule: str) -> None:
        base = w.write()
        del base[frm]
        base[target] = piece
        w.pushed = {**w.pushed, piece: target}
        w.log += (("push", w.piece, piece, frm, target, rule, piece[0] == self.defender and self.offside(piece, target)),)
        if w.loose == target:
            self._pick_up(w, piece, target)

    def offside(self, piece: Piece, square: Square) -> bool:
        """Whether a defending ``piece`` on ``square`` stands offside (QB-OFFSIDE-TRIPLE, QB-OFFSIDE-LINE)."""
        k = self.kind[piece]
        return (k == "T" and square[1] < 1) or (k in "SD" and square[1] >= 2 and not self.released)

    def _pick_up(self, w: Walk, piece: Piece, at: Square) -> None:
        """``piece`` reaches the loose ball (QB-PASS-LOOSE, ruling QB-R-PICKUP)."""
        w.loose = None
        if piece[0] == self.defender:
            w.end, w.end_at = HalfEnd.INTERCEPT, at
            w.log += (("intercept", piece, at),)
        else:
            w.carrier = piece
            w.log += (("pick_up", piece, at),)

    def _single_reach(self, w: Walk, at: Square, has_ball: bool) -> None:
        """A Single arrives next to opposition Triples/Quarterbacks (or has pushed on the way): tackle the
        carrier or push them away (:meth:`_step` calls it only then)."""
        base = w.base
        c, r = at
        hits: list[tuple[Piece, Square]] = []
        kind = self.kind
        opp = w.opp
        for dc, dr in DIRS:
            n = (c + dc, r + dr)
            p = base.get(n)
            if p is not None and p[0] == opp and kind[p] in "TQ":
                if p == w.carrier:  # QB-TACKLE-SINGLE
                    w.end, w.end_at = HalfEnd.TACKLE, n
                    w.log += (("tackle_single", w.piece, p, n),)
                    return
                hits.append((p, n))
        if not hits:
            return
        if has_ball:
            near, on = hits[0]
            raise IllegalStep("QB-PUSH-CARRIER", lambda w=w, near=near, on=on: f"the ball carrier can't push, so {w.piece[1]} can't move next to {near[1]} on {sq(on)}")
        moves = []
        for p, n in hits:  # QB-PUSH-SINGLE: one square away along the line from the Single
            target = (2 * n[0] - c, 2 * n[1] - r)
            try:
                self._push_ok(w, p, target, n)
            except IllegalStep as exc:
                raise IllegalStep("QB-R-PUSH-BLOCKED", _blocked_push(w.piece[1], at, p[1], exc)) from None
            moves.append((p, n, target))
        if len({t for _, _, t in moves}) < len(moves):
            raise IllegalStep("QB-R-PUSH-BLOCKED", lambda w=w, at=at: f"{w.piece[1]} can't move to {sq(at)}: two pieces would be pushed onto one square")
        for p, n, target in moves:
            self._do_push(w, p, n, target, "QB-PUSH-SINGLE")
            if w.end:
                return

    def _walk_events(self, w: Walk) -> list[Event]:
        """The events of what happened on the way (pushes, pick-ups, the tackle or interception)."""
        out = []
        for fact in w.log:
            what = fact[0]
            if what == "push":
                _, pusher, piece, frm, target, rule, offside = fact
                also = ["QB-R-PUSH-STEP", "QB-PUSH-LIMIT"]
                # a Double's push is decided by strengths; a Single's by standing next to the piece
                also.append("QB-R-ADJACENT" if rule == "QB-PUSH-SINGLE" else "QB-STRENGTH")
                if offside:
                    also.append("QB-R-OFFSIDE")  # a push may leave a defender offside
                out.append(_ev("push", rule, "{pusher} pushes {pushed} from {frm} to {to}",
                               pusher=pusher[1], pushed=self.describe(piece), frm=sq(frm), to=sq(target), also=also))
            elif what == "intercept":
                out.append(_ev("intercept", "QB-INTERCEPT", "{piece} picks up the ball on {at}: intercepted!",
                               piece=self.describe(fact[1]), at=sq(fact[2]), also=["QB-PASS-LOOSE", "QB-R-PICKUP"]))
            elif what == "pick_up":
                out.append(_ev("pick_up", "QB-PASS-LOOSE", "{piece} picks up the ball on {at}",
                               piece=self.describe(fact[1]), at=sq(fact[2]), also=["QB-R-PICKUP"]))
            elif what == "tackle":
                out.append(_ev("tackle", "QB-TACKLE", "{tackler} moves onto {carrier} on {at}: tackled!",
                               tackler=self.describe(fact[1]), carrier=self.describe(fact[2]), at=sq(fact[3]),
                               also=["QB-R-TACKLE-PAIRS", "QB-OCCUPIED"]))
            else:
                out.append(_ev("tackle", "QB-TACKLE-SINGLE", "{tackler} moves next to {carrier} on {at}: tackled!",
                               tackler=self.describe(fact[1]), carrier=self.describe(fact[2]), at=sq(fact[3]),
                               also=["QB-R-ADJACENT"]))
        return out

    # ------------------------------------------------------------- moves
    def start_walk(self, piece: Piece) -> Walk:
        """``piece``'s move before its first step (the board without it; nothing has happened yet)."""
        base = self._bases.get(piece)
        if base is None:
            base = dict(self.board)
            del base[self.pos[piece]]
            self._bases[piece] = base
        w = Walk(piece, self.kind[piece], self.strength[piece], self.pos[piece], base, self.carrier, self.loose)
        w.memo = self._routes
        return w

    def _zone(self, key: str) -> frozenset[Square]:
        """The squares next to a seat's Singles (``"red"``: what keeps Triples and Quarterbacks away,
        QB-ADJACENT), or next to its Triples and Quarterbacks (``"red/TQ"``: where a Single pushes or
        tackles them); computed when first asked, kept until one of those pieces moves."""
        zone = self._zones.get(key)
        if zone is None:
            squares = tuple(map(self.pos.__getitem__, self._groups[key]))
            known = self._geo.zones  # zones by their pieces' squares, shared by every state on this board
            zone = known.get(squares)
            if zone is None:
                if len(known) >= 50_000:
                    known.clear()
                zone = known[squares] = frozenset().union(*map(self._geo.around.__getitem__, squares))
            self._zones[key] = zone
        return zone

    def next_squares(self, w: Walk) -> list[Square]:
        """The squares ``w`` might step to next: the on-board neighbours of where it stands that its own
        side does not hold (QB-OCCUPIED, QB-JUMP); :meth:`step` decides the rest."""
        if w.end:
            return []
        base, seat = w.base, w.piece[0]
        out = []
        for to in self._geo.neighbours[w.at]:
            occ = base.get(to)
            if occ is None or occ[0] != seat:
                out.append(to)
        return out

    def walk(self, piece: Piece, steps: Iterable[Square]) -> Walk:
        """Walk ``piece`` along unit ``steps``; raise :class:`IllegalStep` at the first broken rule."""
        w = self.start_walk(piece)  # a new walk (its board is shared until it pushes)
        steps = list(steps)
        for i, to in enumerate(steps):
            if w.end:
                rule = "QB-INTERCEPT" if w.end == HalfEnd.INTERCEPT else "QB-TACKLE"
                raise IllegalStep(rule, f"the move ends on {sq(w.at)} (the half is over there); it can't go on to {sq(to)}")
            refused = self._step(w, to, last=i == len(steps) - 1)
            if refused is not None:
                raise refused
        return w

    def reachable(self, piece: Piece, limit: int, *, every_route: bool = False) -> Iterator[Walk]:
        """The moves of ``piece`` of up to ``limit`` squares, breadth first (each walk's ``path`` is its route).

        By default one walk per distinct board outcome (where the pieces and the ball end up), by its
        shortest route.  With ``every_route``, one walk per distinct outcome of the move as a whole: a
        longer route to the same squares leaves the piece fewer squares for later in its sequence, and
        an attacking Double or Quarterback that stepped over the line on the way frees the defense
        (QB-OFFSIDE-LINE), so those are outcomes of their own - exactly the moves a check accepts, up
        to routes that leave everything the same."""
        w0 = self.start_walk(piece)
        seen = set() if every_route else {w0.signature()}
        watch_line = every_route and not self.released and piece[0] == self.attacker and self.kind[piece] in "DQ"
        frontier = [w0]
        step = self._step
        # A step to an empty square that is not the loose ball's (nor, for a Single, next to an opposition
        # Triple or Quarterback) from a walk that has pushed and picked up nothing can only be refused or
        # land the piece there with nothing else changed: if that outcome is already listed, the step is
        # not tried (it would be refused or dropped as a repeat either way).
        zone = (self._zones.get(_TQ[w0.opp]) or self._zone(_TQ[w0.opp])) if w0.kind == "S" else frozenset()
        for _ in range(limit):
            nxt: list[Walk] = []
            level: set[Any] = set()  # every_route: outcomes at this length
            for w in frontier:
                quiet = not w.log and not w.pushed
                base, carrier, loose = w.base, w.carrier, w.loose
                for to in self.next_squares(w):
                    if quiet and to != loose and to not in base and to not in zone:
                        out = (to, carrier, loose, None)  # its signature
                        if not every_route:
                            if out in seen:
                                continue
                        elif not watch_line:
                            if out in level:
                                continue
                        elif (out, True) in level and (w.crossed or (out, False) in level):
                            continue
                    w2 = w.fork()
                    if step(w2, to, True) is not None:
                        continue  # refused
                    sig = (w2.at, w2.carrier, w2.loose, w2.end) if not w2.pushed else w2.signature()  # (signature())
                    if every_route and w2.end is None:
                        key = (sig, w2.crossed) if watch_line else sig
                        if key in level:
                            continue
                        level.add(key)
                    else:
                        if sig in seen:
                            continue
                        seen.add(sig)
                    yield w2
                    if w2.end is None:
                        nxt.append(w2)
            frontier = nxt

    def route(self, seat: str, action: MovePiece) -> Walk:
        """The walk ``action`` makes for ``seat`` now: its named squares resolved into unit steps and
        walked (a bare destination by its straight route, else the first legal one); raises
        :class:`IllegalStep`.  Pure: what checking a move computes, and what carrying it out commits."""
        piece = (seat, action.piece)
        if piece not in self.pos:
            mine = ", ".join(p for s, p in self.pos if s == seat)
            raise IllegalStep("QB-R-NOTATION", f"you have no piece {action.piece}; your pieces are {mine}")
        limit = self.steps_open(seat, action.piece)
        last = self._last_route
        if last is not None and last[1].piece == piece and (last[0] is action or last[0] == action):
            known: Walk | None = last[1]
        else:
            known = self._routes.get((piece, action))
        if known is not None and len(known.path) <= limit:
            return known  # the canonical action of a walk made in this position (by a bot, the legal list)
        start = self.pos[piece]
        by_name = self._geo.by_name
        named: list[Square] = []
        for name in action.path:
            n = by_name.get(name)
            if n is None:
                raise IllegalStep("QB-R-BOARD", f"{sq(parse_square(name))} is off the board")
            named.append(n)
        explicit = len(named) > 1
        if named[0] == start:
            if len(named) == 1:
                raise IllegalStep("QB-R-NOTATION", f"{action.piece} is already on {sq(start)}")
            named = named[1:]
        steps: list[Square] = []
        cur = start
        straight = True
        for n in named:
            dc, dr = n[0] - cur[0], n[1] - cur[1]
            if (dc or dr) == 0 or (dc and dr and abs(dc) != abs(dr)):
                if explicit:
                    raise IllegalStep(
                        "QB-R-NOTATION",
                        f"{sq(cur)}-{sq(n)} is not a straight line along a row, column or diagonal: name the squares between",
                    )
                straight = False
                break
            sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
            for _ in range(max(abs(dc), abs(dr))):
                cur = (cur[0] + sc, cur[1] + sr)
                steps.append(cur)
        rule = MOVE_RULE[self.kind[piece]]
        first_error: IllegalStep | None = None
        if straight and len(steps) <= limit:
            try:
                return self.walk(piece, steps)
            except IllegalStep as exc:
                if explicit:
                    raise
                first_error = exc
        elif straight and explicit:
            raise IllegalStep(rule, f"{action.piece} may move {limit} square{'s' if limit != 1 else ''} now; this path is {len(steps)}")
        # a bare destination: the straight route failed or there is none; take the first legal route (BFS)
        dest = named[-1]
        for w in self.reachable(piece, limit):
            if w.path[-1] == dest:
                return w
        if first_error is not None:
            raise first_error
        raise IllegalStep(rule, f"{action.piece} can't reach {sq(dest)} this move (it may move {limit} square{'s' if limit != 1 else ''} now)")

    def move_action(self, piece: Piece, path: Iterable[Square]) -> MovePiece:
        """The canonical action of a route: ``move T1 C3-C4-D5`` (its start and the squares where it turns)."""
        path = tuple(path)
        return _move(piece[1], sq(path[-1]), _waypoints(self.pos[piece], path))

    def action_of(self, w: Walk) -> MovePiece:
        """The canonical action of a walk; for a walk made in this position, checking the action later
        finds the walk instead of walking it again."""
        piece = w.piece
        names = self._geo.names
        path = w.path
        action = _new(MovePiece)  # as _move: the names are canonical (set through the fields' slots)
        _PIECE(action, piece[1])
        _TO(action, names[path[-1]])
        _VIA(action, _waypoints(self.pos[piece], path, names))
        if w.memo is self._routes:  # not a walk kept from an earlier position
            last = self._last_route
            if last is not None:
                self._routes[(last[1].piece, last[0])] = last[1]
            self._last_route = (action, w)
        return action

    # ------------------------------------------------------------- passes
    def pass_targets(self) -> Iterator[Square]:
        """Squares the carrier may pass to now (ignoring the turn budget)."""
        if self.carrier is None:
            return
        yield from self.pass_lines(self.board, self.pos[self.carrier], self.carrier[1] == "QB")

    def pass_lines(self, board: dict[Square, Piece], at: Square, quarterback: bool) -> Iterator[Square]:
        """Squares a carrier on ``at`` could pass to on ``board`` (a board a walk would leave, say): along a row,
        a column or a diagonal, the line free up to an attacking receiver or an empty square (QB-PASS,
        QB-PASS-LINE); forward only for the Quarterback from behind the line (QB-PASS-FORWARD)."""
        c, r = at
        may_forward = quarterback and r <= 0
        squares = self._geo.squares
        attacker = self.attacker
        for dc, dr in DIRS:
            if dr > 0 and not may_forward:
                continue
            n = (c + dc, r + dr)
            while n in squares:
                p = board.get(n)
                if p is not None:
                    if p[0] == attacker:
                        yield n
                    break
                yield n
                n = (n[0] + dc, n[1] + dr)

    def _check_pass(self, seat: str, action: PassBall) -> Square:
        if seat != self.attacker:
            raise IllegalStep("QB-R-DEFENSE-TURN", "the defender has no ball to pass: it moves pieces or ends its turn")
        if self.carrier is None:
            assert self.loose is not None
            raise IllegalStep("QB-PASS-LOOSE", f"the ball lies loose on {sq(self.loose)}: a piece must reach it before it can be passed")
        if self.budget_left() <= 0:
            raise IllegalStep("QB-TURN", f"this turn's {self.rules.attack_actions} actions are used ({self._turn_text()})")
        to = parse_square(action.to)
        if not self.on_board(to):
            hint = ""
            if (seat, action.to) in self.pos:
                hint = f" (to pass to your {action.to}, name its square: pass to {sq(self.pos[(seat, action.to)])})"
            raise IllegalStep("QB-R-BOARD", f"{sq(to)} is off the board{hint}")
        src = self.pos[self.carrier]
        dc, dr = to[0] - src[0], to[1] - src[1]
        if not (dc or dr):
            raise IllegalStep("QB-PASS", f"the ball is already on {sq(to)}")
        if dc and dr and abs(dc) != abs(dr):
            raise IllegalStep("QB-PASS", f"a pass goes along a row, a column or a diagonal: {sq(src)} to {sq(to)} is none of them")
        if dr > 0:
            if self.carrier[1] != "QB":
                raise IllegalStep("QB-PASS-FORWARD", f"only the Quarterback may pass forward; {self.carrier[1]} has the ball")
            if src[1] >= 1:
                raise IllegalStep(
                    "QB-PASS-FORWARD",
                    f"a forward pass is made only from behind the line of scrimmage; the Quarterback is on row {src[1]}",
                )
        sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
        n = (src[0] + sc, src[1] + sr)
        while n != to:
            p = self.board.get(n)
            if p is not None:
                raise IllegalStep("QB-PASS-LINE", f"the line of the pass is blocked by {self.describe(p)} on {sq(n)}")
            n = (n[0] + sc, n[1] + sr)
        p = self.board.get(to)
        if p is not None and p[0] != seat:
            raise IllegalStep("QB-R-PASS", f"a pass goes to one of your pieces or an empty square; {sq(to)} holds {self.describe(p)}")
        return to

    # ------------------------------------------------------------ turn model
    def _to_act(self) -> tuple[str, ...]:
        if self.phase == ATTACK:
            return (self.attacker,)
        if self.phase == DEFEND:
            return (self.defender,)
        return ()

    def action_kinds(self, seat: str, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
        """The kinds of action open to ``seat`` without listing every route: ending the turn always,
        a move when a piece may move a square, a pass when the carrier has somewhere to throw."""
        if seat not in self.to_act():
            return set()
        kinds = {EndTurn.type}
        # (any order gives the same answer; the last pieces stand furthest from the line, so one of
        # them can almost always step, where the first ones are often hemmed in)
        if any(self.has_move(seat, pid) for pid in reversed(self.movable(seat))):
            kinds.add(MovePiece.type)
        if self.may_pass(seat) and next(self.pass_targets(), None) is not None:
            kinds.add(PassBall.type)
        return kinds

    def _legal(self, seat: str) -> tuple[Action, ...]:
        out: list[Action] = []
        for pid in self.movable(seat):
            out.extend(self.moves_of(seat, pid))
        if self.may_pass(seat):
            out.extend(_pass(sq(t)) for t in self.pass_targets())
        out.append(EndTurn())
        return tuple(out)

    def legal_actions(self, seat: str) -> LegalActions:
        """A lazy view of ``seat``'s legal actions; drawing one (:meth:`draw_legal`) counts them
        without writing each one out."""
        return _QuarterbackLegal(self, seat)

    def draw_legal(self, seat: str, rng: random.Random) -> Action:
        """The legal action ``rng.choice(self._legal(seat))`` draws, found without building the others:
        every piece's moves are walked (:meth:`moves_of`'s walks, in its order) and counted, the passes
        counted, and only the drawn one is made an action (the generator draws exactly as from the list)."""
        walks: list[Walk] = []
        for pid in self.movable(seat):
            walks.extend(self.reachable((seat, pid), self.steps_open(seat, pid), every_route=True))
        targets = list(self.pass_targets()) if self.may_pass(seat) else []
        i = rng.choice(range(len(walks) + len(targets) + 1))
        if i < len(walks):
            return self.action_of(walks[i])
        i -= len(walks)
        return _pass(sq(targets[i])) if i < len(targets) else EndTurn()

    def moves_of(self, seat: str, pid: str) -> Iterator[MovePiece]:
        """Every legal move of the piece now: one per distinct outcome (:meth:`reachable` with
        ``every_route``), each by its first route found, in canonical text."""
        try:
            limit = self.steps_open(seat, pid)
        except IllegalStep:
            return
        for w in self.reachable((seat, pid), limit, every_route=True):
            yield self.action_of(w)

    def has_move(self, seat: str, pid: str) -> bool:
        """Whether :meth:`moves_of` the piece yields anything (found without building the move)."""
        try:
            limit = self.steps_open(seat, pid)
        except IllegalStep:
            return False
        if limit <= 0:
            return False
        # the first level of :meth:`reachable`: its first legal step is always yielded
        w0 = self.start_walk((seat, pid))
        step = self._step
        for to in self.next_squares(w0):
            try:
                step(w0.fork(), to, True)
            except IllegalStep:
                continue
            return True
        return False

    def move_outcomes(self, seat: str, pid: str) -> Iterator[Walk]:
        """The piece's moves now as walks, one per distinct board outcome by its shortest route (what a
        bot weighs: a longer route to the same squares only leaves it fewer squares); the action of
        one is :meth:`action_of` it."""
        try:
            limit = self.steps_open(seat, pid)
        except IllegalStep:
            return
        yield from self.reachable((seat, pid), limit)

    def _turn_error(self, seat: str, action: Action) -> IllegalActionError:
        """A seat out of turn hears why it is the other side's turn, by rule."""
        who = self._to_act()[0]
        if self.phase == DEFEND:
            rule, reason = "QB-R-DEFENSE-TURN", f"{who} (defending) is on turn: {seat} has had its turn; the sides alternate"
        elif not self.log and self.rules.first_attacker == "toss":
            rule, reason = "QB-TOSS", f"{who} won the coin toss and attacks first: {seat} defends and moves after {who}'s turn"
        elif self.round == 1 and not self.moved and not self.passes:
            rule, reason = "QB-HALVES", f"{who} attacks this half and the attacker moves first"
        else:
            rule, reason = "QB-TURN", f"it is {who}'s turn (attacking): {seat} defends and moves after it"
        return IllegalActionError(reason, rule=rule, input=str(action), legal=["wait for " + who])

    def _illegal(self, seat: str, action: Action, bad: IllegalStep) -> IllegalActionError:
        return IllegalActionError(bad.reason, rule=bad.rule, input=str(action), legal=self.legal_summary(seat, action))

    def legal_summary(self, seat: str, action: Action | None = None) -> list[str]:
        """The legal alternatives in short: the named piece's moves (one route to each outcome), the
        pieces that may move, the passes, end."""
        out: list[str] = []
        if seat not in self.to_act():
            return out
        if isinstance(action, MovePiece) and (seat, action.piece) in self.pos:
            out += [str(self.action_of(w)) for w in self.move_outcomes(seat, action.piece)][:40]
        movers = self.movable(seat)
        if movers:
            out.append(f"move <piece> <squares> - pieces that may move now: {', '.join(movers)}")
        if self.may_pass(seat):
            out += [f"pass to {sq(t)}" for t in self.pass_targets()]
        out.append("end")
        return out

    def _check(self, seat: str, action: Action) -> Any:
        """The plan: a move's walk, a pass's target square, nothing for the end of a turn."""
        try:
            if isinstance(action, MovePiece):
                return self.route(seat, action)
            if isinstance(action, PassBall):
                return self._check_pass(seat, action)
            if not isinstance(action, EndTurn):
                raise IllegalStep("QB-R-NOTATION", "not a Quarter Back action")
        except IllegalStep as bad:
            raise self._illegal(seat, action, bad) from None
        return None

    # ------------------------------------------------------------ reading text
    def parse_action(self, text: str) -> Action:
        """The game's parser, in context: a move by directions (``S2 forward``, ``T1 2 forward 1 left``)
        is read from the side on turn, its own forward and left (ruling QB-R-NOTATION), into the squares
        of the piece's route."""
        try:
            return self.game.parse_action(text)
        except InvalidActionError:
            rel = read_directions(text) if isinstance(text, str) else None
            acting = self.to_act()
            if rel is None or len(acting) != 1:
                raise
        return self.move_by_directions(acting[0], rel, text)

    def move_by_directions(self, seat: str, rel: Directions, text: str = "") -> MovePiece:
        """``rel`` (a piece and legs of side-relative directions) as ``seat`` means it: forward is toward
        the other side (up the board for the attacker, down for the defender) and left is the mover's
        own left as it faces forward.  Raises :class:`InvalidActionError` for a piece the seat does not
        have or a route off the board."""
        piece = (seat, rel.piece)
        if piece not in self.pos:
            mine = ", ".join(self._order[seat])
            raise bad_input(f"{seat} has no piece {rel.piece}; its pieces are {mine}", text or rel.piece, rule=NOTATION, legal=FORMS)
        ahead = 1 if seat == self.attacker else -1
        start = cur = self.pos[piece]
        path: list[Square] = []
        for right, forward, count in rel.legs:
            dc, dr = right * ahead, forward * ahead
            for _ in range(count):
                cur = (cur[0] + dc, cur[1] + dr)
                if cur not in self._geo.squares:
                    raise bad_input(
                        f"{rel.piece} on {sq(start)} would leave the board going {rel.words}: name the squares of its route instead",
                        text or rel.words, rule="QB-R-BOARD", legal=FORMS,
                    )  # fmt: skip
                path.append(cur)
        return self.move_action(piece, path)

    # ------------------------------------------------------------------ apply
    def _apply(self, seat: str, action: Action, plan: Any) -> list[Event]:
        events: list[Event] = []
        self._routes = {}  # a new position: the walks of the last one are of no use
        self._last_route = None
        if isinstance(action, MovePiece):
            self._commit_move(plan, events)
        elif isinstance(action, PassBall):
            self._commit_pass(plan, events)
        else:
            events.append(_event("end_turn", "QB-R-END", "{seat} ends the turn", {"seat": seat}))
            self._end_turn(events)
        return events

    def _move_rules(self, piece: Piece, start: Square, w: Walk, continuing: bool) -> list[str]:
        """The rules besides the piece's movement rule that decided this move."""
        also: list[str] = []
        kind = self.kind[piece]
        if continuing:
            also.append("QB-SEQUENCE")  # the piece goes on with its one sequence (a pass may come between)
        if piece[1] == "QB" and piece[0] == self.defender:
            also.append("QB-R-DEFENSE-QB")
        if kind == "Q" and start[1] >= 1 and not continuing:
            also.append("QB-LOS")  # starting over the line earns the extra square
        if len(w.path) > 1:
            also.append("QB-JUMP")  # every square on the way was free: no jumping over a piece
        if w.past_weaker:
            also += ["QB-DIAGONAL", "QB-R-DIAGONAL", "QB-STRENGTH"]
        if piece[0] == self.defender:
            if kind in "SD" and not self.released:
                also.append("QB-OFFSIDE-LINE")  # held at row 1 while it moved
            elif kind == "T":
                for _, row in w.path:
                    if row == 1:
                        also.append("QB-OFFSIDE-TRIPLE")  # on the line: no further back
                        break
        return also

    def _commit_move(self, w: Walk, events: list[Event]) -> None:
        piece = w.piece
        pid = piece[1]
        names = self._geo.names
        pos = self.pos
        start = pos[piece]
        steps = w.path
        continuing = pid == self.active
        also = self._move_rules(piece, start, w, continuing)
        if continuing:
            self.active_left -= len(steps)
        else:
            limit = self.allowance(piece)
            self.moved.append(pid)
            self.active = pid
            self.active_left = limit - len(steps)
        pushed = w.pushed
        # the board after the walk, changed in place as the walk changed its copy (w.board(), same order)
        board = self.board
        del board[start]
        for fact in w.log:
            if fact[0] == "push":
                del board[fact[3]]
                board[fact[4]] = fact[2]
        board[w.at] = piece
        self._set_board(board, (piece, *pushed) if pushed else (piece,))
        pos[piece] = w.at
        if pushed:
            for p, t in pushed.items():
                pos[p] = t
        self.carrier, self.loose = w.carrier, w.loose
        path = names[start] + "-" + names[steps[0]] if len(steps) == 1 else "-".join([names[start], *map(names.__getitem__, steps)])
        events.append(_event("move", MOVE_RULE[self.kind[piece]], "{piece} moves {path}",
                            {"piece": self._names[piece], "path": path, "seat": piece[0], "also": also}))
        if w.log:
            events.extend(self._walk_events(w))
        if w.end:
            assert w.end_at is not None
            self._end_half(w.end, w.end_at, events)
            return
        if w.crossed:
            self._release(piece, events)  # it moved over the line, even if it came back
        elif w.pushed:
            self._check_release(events)  # a defender's push may have put an attacking Double over the line
        if self.active_left <= 0:  # else the piece has squares left (_maybe_end_turn's first test)
            self._maybe_end_turn(events)

    def _commit_pass(self, to: Square, events: list[Event]) -> None:
        assert self.carrier is not None
        frm = self.pos[self.carrier]
        passer = self.carrier
        receiver = self.board.get(to)
        self.passes += 1
        forward = to[1] > frm[1]
        rule = "QB-PASS-FORWARD" if forward else "QB-PASS"
        also = ["QB-R-PASS"]
        if forward:
            also.append("QB-LOS")  # thrown from behind the line
        if max(abs(to[0] - frm[0]), abs(to[1] - frm[1])) > 1:
            also.append("QB-PASS-LINE")  # the squares between were free
        if receiver is not None:
            self.carrier, self.loose = receiver, None
            events.append(_ev("pass", rule, "{passer} passes from {frm} to {receiver} on {to}",
                              passer=self.describe(passer), frm=sq(frm), receiver=receiver[1], to=sq(to), also=also))
        else:
            self.carrier, self.loose = None, to
            events.append(_ev("pass", "QB-PASS-LOOSE", "{passer} passes from {frm} to the empty square {to}: the ball lies loose",
                              passer=self.describe(passer), frm=sq(frm), to=sq(to), also=[rule, *also]))
        self._maybe_end_turn(events)

    def _check_release(self, events: list[Event]) -> None:
        """QB-OFFSIDE-LINE: once an attacking Double or the Quarterback is over the line, the defense is free."""
        if self.released:
            return
        attacker, kind = self.attacker, self.kind
        for piece, (_, row) in self.pos.items():
            if row >= 1 and piece[0] == attacker and kind[piece] in "DQ":
                self._release(piece, events)
                return

    def _release(self, piece: Piece, events: list[Event]) -> None:
        if not self.released:
            self.released = True  # ruling QB-R-OFFSIDE: for the rest of the half
            events.append(_ev("released", "QB-OFFSIDE-LINE",
                              "{piece} has moved over the line: defending Doubles and Singles may now go beyond row 1",
                              piece=self.describe(piece), also=["QB-LOS", "QB-R-OFFSIDE"]))

    def _maybe_end_turn(self, events: list[Event]) -> None:
        """Ruling QB-R-END: the turn ends by itself when no action is left."""
        if self.active is not None and self.active_left > 0:
            return  # the moving piece has squares left
        attacking = self.phase == ATTACK
        # budget_left(), inlined
        if (self._attack_actions - len(self.moved) - self.passes if attacking else self._defense_moves - len(self.moved)) <= 0:
            events.append(_event("turn_done", "QB-R-END", "{seat}'s turn is complete",
                                {"seat": self.attacker if attacking else self.defender,
                                 "also": ["QB-TURN" if attacking else "QB-R-DEFENSE-TURN"]}))  # fmt: skip
            self._end_turn(events)

    def _end_turn(self, events: list[Event]) -> None:
        self._reset_turn()
        if self.phase == ATTACK:
            self.phase = Phase.DEFEND
            return
        if self.round >= self.rules.max_rounds:  # ruling QB-R-WHISTLE
            at = self.pos[self.carrier] if self.carrier is not None else self.loose
            assert at is not None
            self._end_half(HalfEnd.WHISTLE, at, events)
            return
        self.round += 1
        self.phase = Phase.ATTACK

    # ------------------------------------------------------------- halves
    def _end_half(self, how: HalfEnd, at: Square, events: list[Event]) -> None:
        attacker = self.attacker
        points = self.value(at) if how == HalfEnd.TACKLE or (how == HalfEnd.WHISTLE and self.carrier is not None) else 0
        game = self.half // 2
        self.points[game][attacker] += points
        result = {
            "game": game + 1,
            "half": self.half_in_game,
            "attacker": attacker,
            "how": how,
            "square": sq(at),
            "points": points,
            "rounds": self.round,
        }
        self.results.append(result)
        if how == HalfEnd.TACKLE:
            events.append(_ev("score", "QB-SCORE", "tackled on {at}: {attacker} scores {points} (row + column)",
                              at=sq(at), attacker=attacker, points=points, also=["QB-R-COLUMNS"]))
        elif how == HalfEnd.INTERCEPT:
            events.append(_ev("score", "QB-INTERCEPT", "intercepted on {at}: {attacker} scores nothing",
                              at=sq(at), attacker=attacker, points=0))
        elif self.carrier is not None:
            events.append(_ev("score", "QB-R-WHISTLE",
                              "the whistle after {rounds} rounds: the carrier is held on {at}, {attacker} scores {points}",
                              rounds=self.round, at=sq(at), attacker=attacker, points=points,
                              also=["QB-SCORE", "QB-R-COLUMNS"]))
        else:
            events.append(_ev("score", "QB-R-WHISTLE",
                              "the whistle after {rounds} rounds with the ball loose on {at}: {attacker} scores nothing",
                              rounds=self.round, at=sq(at), attacker=attacker, points=0))
        if self.half % 2 == 1:
            self._end_game(game, events)
        if self.half + 1 < len(self.order):
            nxt = self.half + 1
            self._start_half(nxt)
            also = ["QB-R-SETUP", "QB-BALL-START"]
            if nxt % 2 == 0:
                also.append("QB-MATCH")  # game two's first attacker defended first in game one
            events.append(_ev("half_start", "QB-HALVES", "game {game}, half {half}: {attacker} attacks, {defender} defends",
                              game=nxt // 2 + 1, half=nxt % 2 + 1, attacker=self.attacker, defender=self.defender,
                              also=also))
        else:
            self._finish(events)

    def _end_game(self, game: int, events: list[Event]) -> None:
        pts = self.points[game]
        self.game_points = game_points(self.points[: game + 1], self.rules.win_points, self.rules.draw_points)
        winner = None if pts[RED] == pts[BLUE] else (RED if pts[RED] > pts[BLUE] else BLUE)
        events.append(_ev("game_over", "QB-WIN", "game {game}: red {red} - {blue} blue, {result}",
                          game=game + 1, red=pts[RED], blue=pts[BLUE],
                          result="drawn" if winner is None else f"{winner} wins"))

    def _finish(self, events: list[Event]) -> None:
        if self.rules.format == "game":
            pts = self.points[0]
            winner = None if pts[RED] == pts[BLUE] else (RED if pts[RED] > pts[BLUE] else BLUE)
            reason = "more points" if winner else "level on points"
            outcome = Outcome(winner, reason, "QB-WIN", dict(pts))
        else:
            gp = self.game_points
            winner = None if gp[RED] == gp[BLUE] else (RED if gp[RED] > gp[BLUE] else BLUE)
            reason = f"match {gp[RED]}-{gp[BLUE]} on game points"
            outcome = Outcome(winner, reason, "QB-MATCH", dict(gp))
        self.outcome = outcome
        self.phase = Phase.OVER
        self._reset_turn()
        also = ["QB-R-FORMAT"] + (["QB-R-MATCH-LIST"] if self.rules.format == "match" else [])
        events.append(_ev("match_over", outcome.rule, "{what} over: {result}",
                          what="game" if self.rules.format == "game" else "match", result=str(outcome), also=also))

    # --------------------------------------------------------------- views
    def clone(self) -> QuarterbackState:
        """An independent copy (the search bot's): a deep copy without the walks memo of this position
        (:attr:`_routes`, the last route), which a copy makes again when it needs them - copying them cost
        more than the rest of the state together."""
        from gm.core.search import deep_clone

        reset: dict[int, Any] = {id(self._routes): {}}
        if self._last_route is not None:
            reset[id(self._last_route)] = None
        return cast(QuarterbackState, deep_clone(self, reset))

    def snapshot(self) -> dict[str, Any]:
        """Everything (Quarter Back has no secrets: every seat sees the same)."""
        pieces: dict[str, dict[str, str]] = {RED: {}, BLUE: {}}
        for (seat, pid) in sorted(self.pos, key=lambda p: (p[0], _pid_order(p[1]))):
            pieces[seat][pid] = sq(self.pos[(seat, pid)])
        carrier = self.carrier
        return {
            "phase": self.phase,
            "format": self.rules.format,
            "game": self.game_no,
            "half": self.half_in_game,
            "halves_played": len(self.results),
            "attacker": self.attacker if self.phase != OVER else None,
            "defender": self.defender if self.phase != OVER else None,
            "first_attacker": self.first_attacker,
            "round": self.round,
            "max_rounds": self.rules.max_rounds,
            "pieces": pieces,
            "ball": {
                "carrier": carrier[1] if carrier else None,
                "square": sq(self.pos[carrier]) if carrier else (sq(self.loose) if self.loose else None),
                "loose": carrier is None,
            },
            "turn": {
                "moved": list(self.moved),
                "passes": self.passes,
                "active": self.active,
                "steps_left": self.active_left,
                "actions_left": max(self.budget_left(), 0) if self.phase != OVER else 0,
            },
            "offside_released": self.released,
            "points": [dict(p) for p in self.points],
            "game_points": dict(self.game_points),
            "results": [dict(r) for r in self.results],
            "to_act": list(self.to_act()),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see: everything (there are no secret choices in Quarter Back)."""
        return self.snapshot()


def _blocked_push(pid: str, at: Square, pushed: str, why: IllegalStep) -> Callable[[], str]:
    """The words of a Single's move that would push a piece where it can't go (QB-R-PUSH-BLOCKED)."""
    return lambda: f"{pid} can't move to {sq(at)} next to {pushed}: {why.reason}"


class _QuarterbackLegal(LegalActions):
    """The legal-action view, drawing without listing (:meth:`QuarterbackState.draw_legal`) when
    the list is not made yet."""

    __slots__ = ()

    def sample(self, rng: random.Random) -> Action:
        st = self._state
        if self._cache is None and isinstance(st, QuarterbackState) and self._seat in st.to_act():
            return st.draw_legal(self._seat, rng)
        return super().sample(rng)


#: what every state of a ruleset shares (rulesets are frozen): the pieces' names and the two set-ups
#: (:class:`Layout`, by attacker, made when first needed), by the ruleset's id while it lives
# speed seam: ruleset-prepared - the pieces' names and set-ups made once per ruleset object (a weak reference
# tells a live one from a gone one with the same id) and shared by its games, so the search bot's
# clones share them instead of copying them: the search bot 1.09x as fast
_PREPARED: dict[int, tuple[weakref.ref[QuarterbackRules], dict[Piece, str], dict[str, Layout]]] = {}


def _prepared(r: QuarterbackRules) -> tuple[dict[Piece, str], dict[str, Layout]]:
    """The pieces' names (:meth:`QuarterbackState.describe`) and the set-ups of ruleset ``r``, made once for it."""
    known = _PREPARED.get(id(r))
    if known is not None and known[0]() is r:
        return known[1], known[2]
    if len(_PREPARED) >= 64:  # forget the rulesets that are gone
        for key in [key for key, (ref, _, _) in _PREPARED.items() if ref() is None]:
            del _PREPARED[key]
    names = {(seat, pid): f"{seat} {KIND_NAMES[pid[0]]} {pid}" for seat in SEATS for side in (r.attack, r.defense)
             for pid in side.pieces()}  # fmt: skip
    layouts: dict[str, Layout] = {}
    _PREPARED[id(r)] = (weakref.ref(r), names, layouts)
    return names, layouts


def game_points(games: list[dict[str, int]], win: int = 2, draw: int = 1) -> dict[str, int]:
    """Game points of a match (QB-MATCH): ``win`` for winning a game, ``draw`` each for a drawn one."""
    out = {RED: 0, BLUE: 0}
    for pts in games:
        if pts[RED] == pts[BLUE]:
            out[RED] += draw
            out[BLUE] += draw
        else:
            out[RED if pts[RED] > pts[BLUE] else BLUE] += win
    return out


def _move(pid: str, to: str, via: tuple[str, ...]) -> MovePiece:
    """A :class:`MovePiece` from names already canonical (skips re-validation: generated moves are many)."""
    m = object.__new__(MovePiece)
    object.__setattr__(m, "piece", pid)
    object.__setattr__(m, "to", to)
    object.__setattr__(m, "via", via)
    return m


def _pass(to: str) -> PassBall:
    """A :class:`PassBall` to a canonical square name (skips re-validation)."""
    m = object.__new__(PassBall)
    object.__setattr__(m, "to", to)
    return m


def _pid_order(pid: str) -> tuple[int, str]:
    return ("QSDT".index(pid[0]), pid)


def _waypoints(start: Square, path: Sequence[Square], names: dict[Square, str] | None = None) -> tuple[str, ...]:
    """The named squares of a path: its start and every square where it turns (the destination excluded)."""
    if len(path) == 1:  # a one-square move (most moves): no turn
        return (sq(start) if names is None else names[start],)
    name = sq if names is None else names.__getitem__
    out = [name(start)]
    prev = start
    direction: Square | None = None
    for i, s in enumerate(path):
        d = (s[0] - prev[0], s[1] - prev[1])
        if direction is not None and d != direction:
            out.append(name(path[i - 1]))
        direction = d
        prev = s
    return tuple(out)
