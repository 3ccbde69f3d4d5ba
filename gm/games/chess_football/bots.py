"""Chess-Football bots: ``random`` and ``default``.

``random`` samples legal actions: a random snap plan (each piece, in movement order, acts
with probability 0.6 with a random legal row), and in reaction turns a random acting
piece's random legal action, or ``done`` with probability 0.3 - so games stay short.

``default`` plays a simple, sound game from public information only:

* captains: Deep Threat on offense (a fast receiver with +1 catching), Safety on
  defense (-3 to passes it covers, intercepts at 0 or lower);
* offense: a quick pass at the snap - the line holds (a wall defenders cannot pass
  through), receivers run straight downfield, the QB throws to the receiver the fewest
  defenders can reach; then the ball carrier runs for the end zone, choosing the square
  with the most gain that no defender can reach, and the blockers engage or push the
  defenders that threaten it; 4th down: punt unless close to a first down or deep in
  the opponent's half;
* defense: at the snap the line rushes the QB's spot and the others cover the
  receivers; in reaction turns any defender that can reach the ball carrier tackles it
  (under play action: wraps both candidates if it can), a declared pass is met by a sack
  or by covering the receiver, everybody else pursues.

Bots never read hidden information: the defense learns the ball from
``state.view(seat)`` (only candidates under play action), never another seat's pending
plan.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gm.core.actions import Action
from gm.core.bots import Bot
from gm.games.chess_football.actions import Ability, BallChoice, Done, Move, Pass, PieceAction, Plan
from gm.games.chess_football.engine import ChessFootballState, other
from gm.games.chess_football.field import Field, Piece, Square, cheb, parse_square, sq


def _state(state: Any) -> ChessFootballState:
    assert isinstance(state, ChessFootballState)
    return state


class RandomBot:
    """Random legal play, sampled piece by piece (see the module docstring)."""

    name = "random"

    def __init__(self, seed: int = 0, done_p: float = 0.3, row_p: float = 0.6) -> None:
        self.rng = random.Random(seed)
        self.done_p = done_p
        self.row_p = row_p

    def choose(self, state: Any, seat: str) -> Action:
        st = _state(state)
        d = st.decision(seat)
        if d == "snap_plan":
            return self._plan(st, seat)
        if d == "turn":
            return self._turn(st, seat)
        return self.rng.choice(list(st.legal_actions(seat)))

    def _piece_action(self, f: Field, team: str, p: Piece) -> PieceAction | None:
        """A random legal action of ``p``: a move (sampled) or one of its other options."""
        opts: list[PieceAction] = list(f.piece_options(team, p.id, moves=False))
        mv = f.random_move(team, p.id, self.rng)
        if mv is not None:
            opts += [mv] * max(1, len(opts))  # moves are most of what pieces do
        return self.rng.choice(opts) if opts else None

    def _plan(self, st: ChessFootballState, seat: str) -> Plan:
        sim = st.plan_board(seat)
        rows: list[PieceAction] = []
        for p in sim.actors(seat):
            if len(rows) >= st.rules.plan_rows:
                break
            if self.rng.random() >= self.row_p:
                continue
            a = self._piece_action(sim, seat, p)
            if a is not None:
                sim.apply(seat, a)
                rows.append(a)
        return Plan(tuple(rows))

    def _turn(self, st: ChessFootballState, seat: str) -> Action:
        f = st.field
        assert f is not None
        if self.rng.random() < self.done_p:
            return Done()
        if f.hidden and seat == f.offense and not f.ball_choice_used and self.rng.random() < 0.2:
            assert f.pair
            return BallChoice(self.rng.choice(f.pair))
        actors = f.actors(seat)
        self.rng.shuffle(actors)
        for p in actors:
            a = self._piece_action(f, seat, p)
            if a is not None:
                return a
        return Done()


# --------------------------------------------------------------------------- default
def _threat_map(f: Field, team: str) -> dict[Square, list[Piece]]:
    """Squares each piece of ``team`` can reach next turn with its full movement."""
    out: dict[Square, list[Piece]] = {}
    for p in f.team_pieces(team):
        if p.id in f.wrapped:
            continue
        for s in f.reach(p, f.spec(p)[0]):
            out.setdefault(s, []).append(p)
    return out


class DefaultBot:
    """The stronger heuristic bot (see the module docstring)."""

    name = "default"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    # ------------------------------------------------------------------ entry
    def choose(self, state: Any, seat: str) -> Action:
        st = _state(state)
        d = st.decision(seat)
        legal = st.legal_actions(seat)
        if d == "captains":
            return self._captains(st, seat, list(legal))
        if d == "coin_call":
            return self.rng.choice(list(legal))
        if d == "fourth_down":
            return self._fourth(st, seat)
        if d == "snap_plan":
            plan = self._plan(st, seat)
            return plan if plan in legal else Plan(())
        if d == "turn":
            a = self._turn(st, seat)
            return a if a in legal else Done()
        return self.rng.choice(list(legal))

    def _captains(self, st: ChessFootballState, seat: str, legal: list[Action]) -> Action:
        want = st.parse_action("captains deep_threat safety")
        return want if want in legal else legal[0]

    def _fourth(self, st: ChessFootballState, seat: str) -> Action:
        assert st.offense
        to_go = st.to_go() or 0
        their_square = st.yard_square(other(st.offense), st.los)
        go = to_go <= 1 or their_square <= st.rules.drive_start_square + 2
        return st.parse_action("go for it" if go else "punt")

    # ------------------------------------------------------------------ plans
    def _plan(self, st: ChessFootballState, seat: str) -> Plan:
        sim = st.plan_board(seat)
        if seat == st.offense:
            return self._offense_plan(st, sim, seat)
        return self._defense_plan(st, sim, seat)

    def _forward_move(self, sim: Field, p: Piece, steps: int, lane: int = 0) -> Move | None:
        d = sim.off_dir
        best: Move | None = None
        best_key: tuple[int, int] | None = None
        for a in sim.piece_options(sim.offense, p.id):
            if not isinstance(a, Move) or a.rush or a.route:
                continue
            s = parse_square(a.to)
            gain = (s[1] - p.sq[1]) * d
            if gain <= 0 or gain > steps:
                continue
            if sim.holder_at(s, a.position) is not None:
                continue
            key = (gain, -abs(s[0] - (p.sq[0] + lane)))
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    def _offense_plan(self, st: ChessFootballState, sim: Field, team: str) -> Plan:
        rows: list[PieceAction] = []
        receivers: list[Piece] = []
        for p in sim.actors(team):
            if p.id == sim.carrier or sim.ineligible(p):
                continue
            lane = -1 if p.sq[0] < st.rules.columns // 2 else 1
            mv = self._forward_move(sim, p, 3, lane)
            if mv is not None and len(rows) < st.rules.plan_rows - 1:
                sim.apply(team, mv)
                rows.append(mv)
                receivers.append(p)
        qb = sim.pieces[sim.carrier]
        threats = _threat_map(sim, sim.defense)
        best: Piece | None = None
        best_key: tuple[int, int] | None = None
        for r in receivers:
            near = sum(1 for s in ((r.sq[0] + dc, r.sq[1] + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1))
                       for _ in threats.get(s, ()))
            key = (-near, (r.sq[1] - sim.los) * sim.off_dir)
            if best_key is None or key > best_key:
                best, best_key = r, key
        if best is not None:
            a = Pass(best.id, qb.id)
            try:
                sim.check(team, a)
                rows.append(a)
            except Exception:
                pass
        return Plan(tuple(rows))

    def _defense_plan(self, st: ChessFootballState, sim: Field, team: str) -> Plan:
        rows: list[PieceAction] = []
        qb = sim.pieces[sim.carrier]
        eligible = [p for p in sim.team_pieces(sim.offense) if not sim.ineligible(p) and p.id != qb.id]
        covered: set[str] = set()
        for p in sim.actors(team):
            if len(rows) >= st.rules.plan_rows:
                break
            opts = [a for a in sim.piece_options(team, p.id) if isinstance(a, Move)]
            if not opts:
                continue
            target: Square
            if p.heavy or (p.base == "strong" and p.role is None and p.id.endswith("3")):
                target = qb.sq  # rush the passer
                hit = [a for a in opts if parse_square(a.to) == qb.sq and a.position == qb.pos]
                if hit:
                    sim.apply(team, hit[0])
                    rows.append(hit[0])
                    continue
            else:
                free = [r for r in eligible if r.id not in covered] or eligible
                if not free:
                    continue
                r = min(free, key=lambda q: cheb(q.sq, p.sq))
                covered.add(r.id)
                target = (r.sq[0], r.sq[1] + sim.off_dir * 3)
            best = min(opts, key=lambda a: (cheb(parse_square(a.to), target), a.to, a.position))
            sim.apply(team, best)
            rows.append(best)
        return Plan(tuple(rows))

    # ------------------------------------------------------------------ turns
    def _turn(self, st: ChessFootballState, seat: str) -> Action:
        f = st.field
        assert f is not None
        if seat == st.offense:
            return self._offense_turn(st, f, seat)
        return self._defense_turn(st, f, seat)

    def _offense_turn(self, st: ChessFootballState, f: Field, team: str) -> Action:
        carrier = f.pieces[f.carrier]
        threats = _threat_map(f, f.defense)
        actors = {p.id for p in f.actors(team)}
        # 1. the ball: pass, or run
        if carrier.id in actors and f.can_pass(carrier) and not f.pass_decl and not f.pass_thrown:
            best: tuple[float, str] | None = None
            for r in f.team_pieces(team):
                if r.id == carrier.id or f.ineligible(r) or r.id in f.wrapped:
                    continue
                mods = sum(m[1] for m in f.pass_modifiers(carrier, r))
                p_ok = sum(1 for roll in range(1, 7) if roll + mods >= f.rules.passing.complete_min) / 6
                gain = f.beyond_los(r.sq[1])
                val = p_ok * (gain + 2) - (1 - p_ok) * 2
                if best is None or val > best[0]:
                    best = (val, r.id)
            if best is not None and best[0] > 1:
                a: Action = Pass(best[1], carrier.id)
                if a in st.legal_actions(team):
                    return a
        if carrier.id in actors and carrier.id not in f.moved and not f.pass_decl:
            mv = self._run(f, team, carrier, threats)
            if mv is not None:
                return mv
        # 2. blockers: engage / push defenders that threaten the carrier
        danger = {q.id for s in f.reach(carrier, f.spec(carrier)[0] + 1) for q in threats.get(s, ())}
        for p in f.actors(team):
            if p.id == carrier.id:
                continue
            for a in f.piece_options(team, p.id):
                if isinstance(a, Ability) and a.ability in ("engage", "push", "impact", "chop_block") and a.target in danger:
                    return a
        return Done()

    def _run(self, f: Field, team: str, carrier: Piece, threats: dict[Square, list[Piece]]) -> Move | None:
        best: Move | None = None
        best_key: tuple[int, int, int] | None = None
        here_safe = carrier.sq not in threats
        for a in f.piece_options(team, carrier.id):
            if not isinstance(a, Move):
                continue
            s = parse_square(a.to)
            occupant = f.holder_at(s, a.position)
            if occupant is not None:
                continue  # no collisions
            td = f.in_end_zone_of(f.defense, s[1])
            safe = s not in threats
            gain = f.beyond_los(s[1]) - f.beyond_los(carrier.sq[1])
            key = (1 if td else 0, 1 if safe else 0, gain)
            if best_key is None or key > best_key:
                best, best_key = a, key
        if best is None or best_key is None:
            return None
        if best_key[0] == 0 and best_key[2] <= 0 and here_safe:
            return None
        return best

    def _defense_turn(self, st: ChessFootballState, f: Field, team: str) -> Action:
        view = st.view(team)
        ball = view.get("ball") or {}
        actors = f.actors(team)
        if not actors:
            return Done()
        cands = [f.pieces[c] for c in (ball.get("candidates") or [ball.get("carrier")]) if c in f.pieces]
        cands = [c for c in cands if c.id not in f.wrapped]
        # 1. tackle (or wrap every candidate)
        for c in cands:
            for p in actors:
                a = Move.trusted(p.id, sq(c.sq), c.pos)
                if a in st.legal_actions(team):
                    return a
        passing = view.get("pass_declared")
        target_sq: Square | None = None
        if passing:
            r = f.pieces[passing["receiver"]]
            target_sq = r.sq
            for p in actors:
                cover: Move | None = None
                for opt in f.piece_options(team, p.id):
                    if isinstance(opt, Move) and cheb(parse_square(opt.to), r.sq) <= 1 and f.holder_at(parse_square(opt.to), opt.position) is None:
                        cover = opt
                        break
                if cover is not None and cheb(p.sq, r.sq) > 1:
                    return cover
        # 2. engage the carrier if next to it
        for p in actors:
            for opt in f.piece_options(team, p.id):
                if isinstance(opt, Ability) and opt.ability in ("engage", "chop_block") and any(opt.target == c.id for c in cands):
                    return opt
        # 3. pursue
        if not cands:
            return Done()
        c0 = cands[0]
        goal = target_sq or (c0.sq[0], c0.sq[1] + 2 * f.off_dir)
        for p in actors:
            if p.id in f.moved:
                continue
            here = cheb(p.sq, goal)
            best_m: Move | None = None
            best_k: tuple[int, str] | None = None
            for opt in f.piece_options(team, p.id):
                if not isinstance(opt, Move):
                    continue
                s = parse_square(opt.to)
                if f.holder_at(s, opt.position) is not None:
                    continue
                k = (cheb(s, goal), opt.to + opt.position)
                if best_k is None or k < best_k:
                    best_m, best_k = opt, k
            if best_m is not None and best_k is not None and best_k[0] < here:
                return best_m
        return Done()


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot, "default": DefaultBot}
