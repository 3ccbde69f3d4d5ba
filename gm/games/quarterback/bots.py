"""Quarter Back bot strategies: ``random`` and ``default`` (greedy, one-ply).

Bots read the state like any seat may (Quarter Back has no secrets) and use the
engine's own move walker, so every action they return is legal.

* ``random`` - a random action: a random piece walks a random number of random
  legal squares, or a random pass, or the end of the turn.  It never lists every
  legal action, so thousands of games stay cheap.
* ``default`` - greedy over one action at a time with a one-ply evaluation.  The
  attacker scores a position by the square the ball is on (row + column) plus a
  bonus when no defender can reach the carrier next turn; the defender tackles
  or intercepts at once when it can, else brings its tacklers closest to the ball.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gm.core.actions import Action
from gm.core.bots import Bot
from gm.core.state import GameState
from gm.games.quarterback.actions import EndTurn, PassBall
from gm.games.quarterback.engine import DIRS, TACKLES_ONTO, IllegalStep, Piece, QuarterbackState, Square, sq

SAFE_BONUS = 2.0


def _cheb(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class QuarterbackRandomBot:
    """A random legal action (seeded): walk a random piece, pass at random, or end the turn."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        assert isinstance(state, QuarterbackState)
        st, rng = state, self.rng
        options: list[str] = st.movable(seat)
        if st.may_pass(seat):
            options.append("pass")
        options.append("end")
        while True:
            pick = rng.choice(options)
            if pick == "end":
                return EndTurn()
            if pick == "pass":
                targets = list(st.pass_targets())
                if targets:
                    return PassBall(sq(rng.choice(targets)))
            else:
                move = self._walk(st, seat, pick)
                if move is not None:
                    return move
            options.remove(pick)

    def _walk(self, st: QuarterbackState, seat: str, pid: str) -> Action | None:
        piece = (seat, pid)
        limit = st.steps_open(seat, pid)
        w = st.start_walk(piece)
        path: list[Square] = []
        for _ in range(self.rng.randint(1, limit)):
            dirs = list(DIRS)
            self.rng.shuffle(dirs)
            for dc, dr in dirs:
                to = (w.at[0] + dc, w.at[1] + dr)
                try:
                    w = st.step(w, to)
                except IllegalStep:
                    continue
                path.append(to)
                break
            else:
                break
            if w.end:
                break
        if not path:
            return None
        return st.move_action(piece, path)


class GreedyBot:
    """One action at a time, the best by a one-ply evaluation (see the module docstring)."""

    name = "default"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        assert isinstance(state, QuarterbackState)
        if seat == state.attacker:
            return self._attack(state, seat)
        return self._defend(state, seat)

    # ----------------------------------------------------------- evaluation
    def _threatened(self, st: QuarterbackState, board: dict[Square, Piece], at: Square, carrier_kind: str) -> bool:
        """Could a defender tackle a carrier of ``carrier_kind`` on ``at`` next turn (blocking ignored)?"""
        r = st.rules
        for s, p in board.items():
            if p[0] != st.defender:
                continue
            k = st.kind[p]
            d = _cheb(s, at)
            if carrier_kind in TACKLES_ONTO[k]:
                if st.offside(p, at):
                    continue
                if d <= st.allowance(p):
                    return True
            if k == "S" and carrier_kind in "TQ" and d <= r.single_moves + 1 and (st.released or at[1] <= 2):
                return True
        return False

    def _can_reach(self, st: QuarterbackState, board: dict[Square, Piece], at: Square, seat: str) -> bool:
        """Could one of ``seat``'s pieces reach the loose ball on its next turn (blocking ignored)?"""
        for s, p in board.items():
            if p[0] == seat and _cheb(s, at) <= st.allowance(p):
                return True
        return False

    def _score(self, st: QuarterbackState, board: dict[Square, Piece], carrier: Piece | None, loose: Square | None) -> float:
        rounds_left = st.rules.max_rounds - st.round
        bonus = SAFE_BONUS if rounds_left > 0 else 0.0
        if carrier is not None:
            at = next(s for s, p in board.items() if p == carrier)
            v = float(st.value(at))
            if not self._threatened(st, board, at, st.kind[carrier]):
                v += bonus
            return v
        assert loose is not None
        if self._can_reach(st, board, loose, st.defender):
            return -1.0
        if not self._can_reach(st, board, loose, st.attacker):
            return st.value(loose) * 0.25
        return float(st.value(loose))

    # -------------------------------------------------------------- attack
    def _attack(self, st: QuarterbackState, seat: str) -> Action:
        best: tuple[float, Action] = (self._score(st, st.board, st.carrier, st.loose) + 0.01, EndTurn())
        cands: list[tuple[float, Action]] = []
        movers: list[str] = []
        if st.carrier is not None:
            movers.append(st.carrier[1])
        else:  # a loose ball: the pieces that could reach it
            assert st.loose is not None
            movers += [p for (s, p), at in st.pos.items() if s == seat and _cheb(at, st.loose) <= 4]
        if st.active and st.active not in movers:
            movers.append(st.active)
        for pid in movers:
            for action, w in st.move_outcomes(seat, pid):
                if w.end:  # an interception caused by a push
                    cands.append((-5.0, action))
                    continue
                cands.append((self._score(st, w.board(), w.carrier, w.loose) + w.at[1] * 0.001, action))
        if st.carrier is not None and st.budget_left() > 0:
            for t in st.pass_targets():
                board = st.board
                receiver = board.get(t)
                score = self._score(st, board, receiver, None if receiver else t)
                cands.append((score - 0.5, PassBall(sq(t))))
        self.rng.shuffle(cands)
        for c in cands:
            if c[0] > best[0]:
                best = c
        return best[1]

    # -------------------------------------------------------------- defend
    def _defend(self, st: QuarterbackState, seat: str) -> Action:
        ball = st.pos[st.carrier] if st.carrier is not None else st.loose
        assert ball is not None
        carrier_kind = st.kind[st.carrier] if st.carrier is not None else None
        current = self._pressure(st, st.board, ball, carrier_kind)
        best: tuple[float, Action] = (current - 0.01, EndTurn())
        cands: list[tuple[float, Action]] = []
        for pid in st.pieces(seat):
            for action, w in st.move_outcomes(seat, pid):
                if w.end:
                    return action  # a tackle or an interception: take it
                cands.append((self._pressure(st, w.board(), ball, carrier_kind), action))
        self.rng.shuffle(cands)
        for c in cands:
            if c[0] < best[0]:
                best = c
        return best[1]

    def _pressure(self, st: QuarterbackState, board: dict[Square, Piece], ball: Square, carrier_kind: str | None) -> float:
        """How far the defenders are from the ball, tacklers counting most (lower is better for the defense)."""
        total = 0.0
        for s, p in board.items():
            if p[0] != st.defender:
                continue
            k = st.kind[p]
            d = _cheb(s, ball)
            if carrier_kind is None:
                total += max(d - st.allowance(p), 0) * 2
            elif carrier_kind in TACKLES_ONTO[k] or (k == "S" and carrier_kind in "TQ"):
                total += max(d - st.allowance(p), 0) * 3 + d * 0.1
            else:
                total += d * 0.5
            # cover the field ahead of the ball
            if s[1] > ball[1]:
                total -= 0.2
        return total


BOTS: dict[str, Callable[..., Bot]] = {"random": QuarterbackRandomBot, "default": GreedyBot}
