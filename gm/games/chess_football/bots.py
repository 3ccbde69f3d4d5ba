"""Chess-Football bots: ``random`` and ``default``.

``random`` draws uniformly from the legal actions (at the snap: uniformly among every plan the
seat may submit, see :class:`~.options.PlanSpace`).

``default`` plays a simple, sound game from public information only:

* captains: the Scrambler on offense (a QB that may pass after moving), Safety on defense
  (-3 to passes it covers, intercepts at 0 or lower).  The bot took the Deep Threat before, and
  ``gm sim --lines`` flagged the scripted line 'always captains' (the first pair, Scrambler and
  Safety, then this bot's play): it beat that bot in 67 of 80 games (1 loss);
* offense: a quick pass at the snap - the line holds (a wall defenders cannot pass
  through), receivers run downfield (each its lane - outside, straight or inside - and
  depth drawn), the QB throws to a receiver the fewest defenders can reach (drawn among
  the equally open); one snap in ten is a run instead; then the ball carrier runs for
  the end zone, choosing the square with the most gain that no defender can reach, and
  the blockers engage or push the defenders that threaten it; 4th down: punt unless
  close to a first down or deep in the opponent's half;
* defense: at the snap the line rushes the QB's spot (a Strong joins the blitz or not,
  drawn) and the others cover the receivers in an order drawn; in reaction turns any
  defender that can reach the ball carrier tackles it (under play action: wraps both
  candidates if it can), a declared pass is met by a sack or by covering the receiver,
  everybody else pursues toward a square ahead of the carrier, fanned out over the
  columns, so that the carrier runs out of squares out of reach.

Among equally good choices the bot draws from its seed, so different seeds give different
games; the same seed the same game.  Its other tie-breaks read the same from either end of the field
(among equally near squares a defender takes the deepest): the bot plans the mirror image of its snap
at the other end.  (Its defense broke such ties by square name, which runs by row - deep for the home
defense, up at the line for the away one - and home won 106 of 200 default-bot games to away's 66; after
the change 92 to 78, within the 95% intervals: ``gm sim chess-football --games 200 --seed 0``.)

A bot's choice is a function of its seed and what its seat may see: the generator of each
decision is seeded from the bot's seed and the position (how many moves were made, and by whom
to act), so a bot made afresh for every decision plays exactly as one kept for the whole game.
Bots never read hidden information: the defense learns the ball from ``state.ball_view(seat)`` (its part of
``state.view(seat)``: only candidates under play action), never another seat's pending plan; they reason with the engine's
public functions (:mod:`.tactics`, :mod:`.options`, :mod:`.passing`, the checks) and state no rule
themselves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from gm.core.actions import Action
from gm.core.bots import Bot
from gm.core.errors import IllegalActionError
from gm.core.state import GameState
from gm.games.chess_football.actions import Ability, Done, Move, Pass, PieceAction, Plan
from gm.games.chess_football.checks import check, legal
from gm.games.chess_football.engine import ChessFootballState, Decision, other
from gm.games.chess_football.field import Field, Piece
from gm.games.chess_football.geometry import Square, cheb, sq
from gm.games.chess_football.options import PieceOptions, other_options
from gm.games.chess_football.passing import completion_chance
from gm.games.chess_football.resolution import apply
from gm.games.chess_football.tactics import (
    Spot5,
    candidate_squares,
    free_spots,
    pieces_in_lineup_order,
    threat_counts,
    threatened_squares,
    threats_to,
)


def _state(state: Any) -> ChessFootballState:
    assert isinstance(state, ChessFootballState)
    return state


def decision_rng(seed: int, state: ChessFootballState, seat: str) -> random.Random:
    """The generator of one decision: a function of the bot's seed and the position (never of the
    bot's history), so a fresh bot and a kept one choose alike."""
    return random.Random((seed * 1_000_003 + len(state.log)) * 4 + state.seats.index(seat))


class RandomBot:
    """Uniform over the legal actions (seeded per decision); at the snap a random plan built piece by piece."""

    name = "random"

    def __init__(self, seed: int = 0, row_p: float = 0.6) -> None:
        self.seed = seed
        self.row_p = row_p

    def choose(self, state: Any, seat: str) -> Action:
        st = _state(state)
        rng = decision_rng(self.seed, st, seat)
        if st.decision(seat) == Decision.SNAP_PLAN:
            return self._plan(st, seat, rng)
        return st.legal_actions(seat).sample(rng)

    def _plan(self, st: ChessFootballState, seat: str, rng: random.Random) -> Plan:
        """Each piece in movement order plans one row with probability ``row_p``, drawn uniformly from its
        legal rows (a plan drawn uniformly from every plan - ``legal_actions(seat).sample`` - is mostly
        seven rows long and costs a count of all plans)."""
        board = st.plan_board(seat)
        rows: list[PieceAction] = []
        for p in board.actors(seat):
            if len(rows) >= st.rules.plan_rows:
                break
            if rng.random() >= self.row_p:
                continue
            opts = PieceOptions(board, seat, p, plan=True)
            if opts.count:
                rows.append(opts[rng.randrange(opts.count)])
        return Plan(tuple(rows))


# --------------------------------------------------------------------------- default
def _move(p: Piece, spot: Spot5 | None) -> Move | None:
    """The move of ``p`` a candidate spot stands for (see :func:`.tactics.candidate_spots`)."""
    return None if spot is None else Move.trusted(p.id, spot[1], spot[2], spot[3], spot[4])


def _play(sim: Field, team: str, row: PieceAction) -> None:
    """Carry a planned row out on the bot's scratch board, the plan as it will unfold, with the engine's
    one check and resolution (a row that collides there with an earlier row of the plan is left out)."""
    try:
        plan = check(sim, team, row)
    except IllegalActionError:
        return
    apply(sim, team, row, plan)


def _shallow(f: Field, s: Square) -> int:
    """How far ``s`` lies from the defense's own goal, for ties among a defender's squares, so that the bot's
    tie-breaks are the same at either end of the field (a tie broken by square name or listing order, which
    run by row, is downfield for one team and upfield for the other)."""
    return -s[1] * f.off_dir


#: the share of snaps the default offense runs instead of passing
RUN_SHARE = 0.1


class DefaultBot:
    """The stronger heuristic bot (see the module docstring)."""

    name = "default"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ entry
    def choose(self, state: Any, seat: str) -> Action:
        st = _state(state)
        d = st.decision(seat)
        legal = st.legal_actions(seat)
        self.rng = decision_rng(self.seed, st, seat)  # (the draws among equally good choices)
        if d == Decision.CAPTAINS:
            want = st.parse_action("captains scrambler safety")
            return want if want in legal else legal[0]
        if d == Decision.FOURTH_DOWN:
            return self._fourth(st)
        if d == Decision.SNAP_PLAN:
            plan = self._plan(st, seat)
            return plan if plan in legal else Plan(())
        if d == Decision.TURN:
            a = self._turn(st, seat)
            return a if a in legal else Done()
        return legal.sample(decision_rng(self.seed, st, seat))  # the coin toss

    def _fourth(self, st: ChessFootballState) -> Action:
        assert st.offense
        to_go = st.to_go() or 0
        their_square = st.yard_square(other(st.offense), st.los)
        go = to_go <= 1 or their_square <= st.rules.drive_start_square + 2
        return st.parse_action("go for it" if go else "punt")

    # ------------------------------------------------------------------ plans
    def _plan(self, st: ChessFootballState, seat: str) -> Plan:
        board = st.plan_board(seat)
        sim = board.clone(sim=True)  # the plan as it will look (the bot's own view, rows after rows)
        rows = self._offense_plan(st, board, sim, seat) if seat == st.offense else self._defense_plan(st, board, sim, seat)
        return Plan(tuple(rows))

    @staticmethod
    def _fits(board: Field, team: str, row: PieceAction) -> bool:
        """A row of a piece's first (and only) planned action is checked on the board at the snap (CF-R-PLAN-CHECK)."""
        return legal(board, team, row)

    def _forward_move(self, board: Field, sim: Field, p: Piece, steps: int, lane: int = 0) -> Move | None:
        d = sim.off_dir
        found: Spot5 | None = None
        best_key: tuple[int, int] | None = None
        for a in free_spots(sim, sim.offense, p, plain=True):
            s = a[0]
            gain = (s[1] - p.sq[1]) * d
            if gain <= 0 or gain > steps:
                continue
            key = (gain, -abs(s[0] - (p.sq[0] + lane)))
            if best_key is None or key > best_key:
                found, best_key = a, key
        best = _move(p, found)
        return best if best is not None and self._fits(board, sim.offense, best) else None

    def _offense_plan(self, st: ChessFootballState, board: Field, sim: Field, team: str) -> list[PieceAction]:
        """Receivers run downfield - each its lane (outside, straight or inside) and depth drawn - and the QB
        throws to one the fewest defenders can reach (drawn among the equally open); one snap in
        :data:`RUN_SHARE` is a run instead: no pass planned, the carrier runs in the reaction turns."""
        rng = self.rng
        rows: list[PieceAction] = []
        receivers: list[Piece] = []
        for p in sim.actors(team):
            if p.id == sim.carrier or sim.ineligible(p):
                continue
            outside = -1 if p.sq[0] < st.rules.columns // 2 else 1
            lane = outside * rng.choice((1, 1, 0, -1))
            mv = self._forward_move(board, sim, p, rng.choice((2, 3, 3)), lane)
            if mv is not None and len(rows) < st.rules.plan_rows - 1:
                _play(sim, team, mv)
                rows.append(mv)
                receivers.append(p)
        if rng.random() < RUN_SHARE:
            return rows
        qb = sim.pieces[sim.carrier]
        nears = threat_counts(sim, sim.defense, [[(r.sq[0] + dc, r.sq[1] + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)]
                                                 for r in receivers])
        keyed = [((-near, (r.sq[1] - sim.los) * sim.off_dir), r) for r, near in zip(receivers, nears, strict=True)]
        if keyed:
            top = max(k for k, _ in keyed)
            open_ = [r for k, r in keyed if k[0] == top[0]]  # as open as the most open: equally good targets
            a = Pass(open_[rng.randrange(len(open_))].id, qb.id)
            if legal(sim, team, a):
                rows.append(a)
        return rows

    def _defense_plan(self, st: ChessFootballState, board: Field, sim: Field, team: str) -> list[PieceAction]:
        """The line rushes the passer (the Heavies, and a Strong drawn or not), the others cover the receivers,
        taken in an order drawn (equally good assignments)."""
        rng = self.rng
        rows: list[PieceAction] = []
        qb = sim.pieces[sim.carrier]
        eligible = [p for p in pieces_in_lineup_order(sim, sim.offense) if not sim.ineligible(p) and p.id != qb.id]
        rng.shuffle(eligible)
        blitz = rng.random() < 0.5
        covered: set[str] = set()
        for p in sim.actors(team):
            if len(rows) >= st.rules.plan_rows:
                break
            squares = list(candidate_squares(sim, team, p))
            if not squares:
                continue
            target: Square
            if p.heavy or (blitz and p.base == "strong" and p.role is None and p.id.endswith("3")):
                target = qb.sq  # rush the passer
                hit = next((m for m in (Move.trusted(p.id, name, qb.pos, rush, route)
                                        for s, name, spots, rush, route in squares if s == qb.sq and qb.pos in spots)
                            if self._fits(board, team, m)), None)
                if hit is not None:
                    _play(sim, team, hit)
                    rows.append(hit)
                    continue
            else:
                free = [r for r in eligible if r.id not in covered] or eligible
                if not free:
                    continue
                r = min(free, key=lambda q: cheb(q.sq, p.sq))
                covered.add(r.id)
                target = (r.sq[0], r.sq[1] + sim.off_dir * 3)
            # the nearest candidate spot, then the deepest (toward the defense's own goal), then the nearest column,
            # then by square name, then position (a square's spots are alike in every variant)
            _, name, spots, rush, route = min(squares, key=lambda t: (cheb(t[0], target), _shallow(sim, t[0]),
                                                                      abs(t[0][0] - target[0]), t[1]))
            best = Move.trusted(p.id, name, min(spots), rush, route)
            if not self._fits(board, team, best):
                continue
            _play(sim, team, best)
            rows.append(best)
        return rows

    # ------------------------------------------------------------------ turns
    def _turn(self, st: ChessFootballState, seat: str) -> Action:
        f = st.field
        assert f is not None
        if seat == st.offense:
            return self._offense_turn(st, f, seat)
        return self._defense_turn(st, f, seat)

    def _offense_turn(self, st: ChessFootballState, f: Field, team: str) -> Action:
        carrier = f.pieces[f.carrier]
        actors = {p.id for p in f.actors(team)}
        # 1. the ball: pass, or run
        if carrier.id in actors and f.can_pass(carrier) and not f.pass_decl and not f.pass_thrown:
            best: tuple[float, str] | None = None
            for r in pieces_in_lineup_order(f, team):
                if r.id == carrier.id or f.ineligible(r) or r.id in f.wrapped:
                    continue
                p_ok = completion_chance(f, carrier, r)
                val = p_ok * (f.beyond_los(r.sq[1]) + 2) - (1 - p_ok) * 2
                if best is None or val > best[0]:
                    best = (val, r.id)
            if best is not None and best[0] > 1:
                a: Action = Pass(best[1], carrier.id)
                if legal(f, team, a):
                    return a
        if carrier.id in actors and carrier.id not in f.moved and not f.pass_decl:
            mv = self._run(f, team, carrier, threatened_squares(f, f.defense))
            if mv is not None:
                return mv
        # 2. blockers: engage / push defenders that threaten the carrier
        danger = {q.id for q in threats_to(f, f.defense, f.reach(carrier, carrier.spec[0] + 1))}
        for p in f.actors(team):
            if p.id == carrier.id or not any(q.id in danger for q in f.adjacent(p, enemy=True)):
                continue  # (these abilities target a piece next to the user)
            for o in other_options(f, team, p):
                if isinstance(o, Ability) and o.ability in ("engage", "push", "impact", "chop_block") and o.target in danger:
                    return o
        return Done()

    def _run(self, f: Field, team: str, carrier: Piece, threats: set[Square]) -> Move | None:
        best: Spot5 | None = None
        best_key: tuple[int, int, int] | None = None
        here_safe = carrier.sq not in threats
        here = f.beyond_los(carrier.sq[1])
        for a in free_spots(f, team, carrier):  # (no collisions)
            s = a[0]
            td = f.in_end_zone_of(f.defense, s[1])
            safe = s not in threats
            gain = f.beyond_los(s[1]) - here
            key = (1 if td else 0, 1 if safe else 0, gain)
            if best_key is None or key > best_key:
                best, best_key = a, key
        if best is None or best_key is None:
            return None
        if best_key[0] == 0 and best_key[2] <= 0 and here_safe:
            return None
        return _move(carrier, best)

    def _defense_turn(self, st: ChessFootballState, f: Field, team: str) -> Action:
        ball = st.ball_view(team) or {}
        actors = f.actors(team)
        if not actors:
            return Done()
        cands = [f.pieces[c] for c in (ball.get("candidates") or [ball.get("carrier")]) if c in f.pieces]
        cands = [c for c in cands if c.id not in f.wrapped]
        # 1. tackle (or wrap every candidate)
        for c in cands:
            for p in actors:
                a = Move.trusted(p.id, sq(c.sq), c.pos)
                if legal(f, team, a):  # (the field's check: the turn is this seat's)
                    return a
        passing = f.pass_decl  # (public: the view's pass_declared)
        target_sq: Square | None = None
        if passing:
            r = f.pieces[passing[1]]
            target_sq = r.sq
            for p in actors:
                if cheb(p.sq, r.sq) <= 1:
                    continue  # (covers it already)
                # the deepest covering spot (between the receiver and the defense's goal), then the nearest column
                covers = [opt for opt in free_spots(f, team, p) if cheb(opt[0], r.sq) <= 1]
                cover = min(covers, key=lambda o: (_shallow(f, o[0]), abs(o[0][0] - r.sq[0])), default=None)
                if cover is not None:
                    return Move.trusted(p.id, *cover[1:])
        # 2. engage the carrier if next to it
        ids = {c.id for c in cands}
        next_to = {q.id for c in cands for q in f.adjacent(c, enemy=True)}  # (being next to each other is mutual)
        for p in actors:
            if p.id not in next_to:
                continue  # (engage and chop target a piece next to the user)
            for o in other_options(f, team, p):
                if isinstance(o, Ability) and o.ability in ("engage", "chop_block") and o.target in ids:
                    return o
        # 3. pursue: each defender heads for a square ahead of the carrier (the further it is, the further
        # ahead), fanned out over the columns, to leave the carrier no square out of reach
        if not cands:
            return Done()
        c0 = cands[0]
        fan = (0, -2, 2, -4, 4, -1, 1, -3, 3)
        for k, p in enumerate(actors):
            if p.id in f.moved:
                continue
            ahead = min(max(cheb(p.sq, c0.sq) // 2, 1), 4)
            goal = target_sq or (c0.sq[0] + fan[k % len(fan)], c0.sq[1] + ahead * f.off_dir)
            here = cheb(p.sq, goal)
            options = [(cheb(opt[0], goal), opt) for opt in free_spots(f, team, p)]
            if not options:
                continue
            near = min(d for d, _ in options)
            if near < here:
                best = [opt for d, opt in options if d == near]  # as close as the closest: equally good
                return Move.trusted(p.id, *best[self.rng.randrange(len(best))][1:])
        return Done()


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "default": DefaultBot}


def evaluate(state: GameState[Any]) -> dict[str, float]:
    """How a Chess-Football game stands for each seat, for the search bot's rollouts it stops early: the score
    and the offense's field position, on a logistic scale (public facts only)."""
    st = _state(state)
    home, away = st.seats
    margin = float(st.score[home] - st.score[away])
    if st.offense is not None and st.outcome is None:
        field = max(st.rules.rows - 2 * st.rules.end_zone_rows, 1)
        edge = 4.0 * (st.yard_square(st.offense, st.los) / field - 0.5)
        margin += edge if st.offense == home else -edge
    p = 1.0 / (1.0 + math.exp(-margin / 5.0))
    return {home: p, away: 1.0 - p}


def _default_policy(state: GameState[Any], seat: str, rng: random.Random) -> Action:
    """The default bot's choice, seeded from ``rng``: the search's prior for the moves too many to list and its
    model of the other side's locked snap plan."""
    return DefaultBot(seed=rng.getrandbits(32)).choose(state, seat)


def _random_policy(state: GameState[Any], seat: str, rng: random.Random) -> Action:
    """The random bot's choice, seeded from ``rng``: at the snap a plan drawn piece by piece (drawing from the
    space of every plan would count it first)."""
    return RandomBot(seed=rng.getrandbits(32)).choose(state, seat)


def _wide(state: GameState[Any], seat: str) -> bool:
    """The snap: every plan is too many to list (or even to count cheaply): proposed and drawn, never listed."""
    return _state(state).decision(seat) == Decision.SNAP_PLAN


#: the search bot tuned for Chess-Football (:meth:`gm.core.game.Game.search_hints`)
SEARCH: dict[str, Any] = {"evaluate": evaluate, "prior": _default_policy, "model": _default_policy, "wide": _wide,
                          "sampler": _random_policy, "iters": 30, "depth": 8}
