"""Quarter Back bot strategies: ``random`` and ``default`` (greedy, one-ply).

Bots read the state like any seat may (Quarter Back has no secrets) and walk their moves with the
engine's own public movement function (:meth:`QuarterbackState.step`, through
:meth:`~QuarterbackState.move_outcomes` for the default bot), so every action they return is legal
and no rule is stated twice.  Every choice is a function of the bot's seed and the position
(:func:`decision_draws` draws its randomness per decision), so a bot made afresh for every decision
plays exactly as one kept for the whole game.

* ``random`` - a random action: a random piece that may move walks a random number of squares,
  each drawn uniformly from those it may step to next; or a random pass; or the end of the turn.
  It never lists every legal action, so thousands of games stay cheap.
* ``default`` - greedy over one action at a time with a one-ply evaluation.  The
  attacker scores a position by the square the ball is on (row + column) plus a
  bonus when no defender can reach the carrier next turn, and, while the Quarterback
  holds the ball behind the line, counts a receiver moving into its passing lane as
  the pass it sets up; the defender tackles or intercepts at once when it can, else
  brings its tacklers closest to the ball.  Actions valued alike (within
  :data:`EQUAL`) are equally good: the bot draws one, so its seed decides between them.

Simple scripted lines (:data:`LINES`, checked by ``gm balance`` against the default bot):
``triple-walk`` (:class:`TripleWalk`), the line issue #31 found unanswered under the older
reading of ruling QB-R-TACKLE-PAIRS.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from typing import Any

from gm.core.actions import Action
from gm.core.bots import Bot, SeededBot
from gm.core.state import GameState
from gm.games.quarterback.actions import EndTurn, PassBall
from gm.games.quarterback.engine import IllegalStep, Piece, QuarterbackState, Square, Walk, sq

SAFE_BONUS = 2.0
#: the default bot's actions valued within this of the best are equally good: one is drawn (seeded)
EQUAL = 0.25
_END, _PASS = "end", "pass"


def _cheb(a: Square, b: Square) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _action(st: QuarterbackState, choice: Action | Walk) -> Action:
    """The action of a choice: a move's walk becomes its canonical action."""
    return st.action_of(choice) if isinstance(choice, Walk) else choice


class Draws:
    """The random draws of one decision, a function of its key alone (the bot's seed, the seat, how far
    the game has got), so a bot made afresh for every decision chooses as one kept for the whole game.

    The bits are BLAKE2b of the key, read as mixed-radix digits: each draw below ``n`` is the remainder
    of a number uniform on a range at least ``n * 2**64`` wide, so it is uniform within ``2**-64``.
    Seeding a Mersenne Twister (:class:`random.Random`) for every decision would cost as much as a
    random bot's whole move; one hash gives the few dozen draws a decision makes."""

    __slots__ = ("_block", "_key", "_span", "_x")

    def __init__(self, *key: object) -> None:
        self._key = "/".join(map(str, key)).encode()
        self._block = 0
        self._x, self._span = 0, 1  # _x is uniform on range(_span)

    @classmethod
    def of_text(cls, key: str) -> Draws:
        """The draws of a key already joined (``"/".join(map(str, key))``)."""
        d = cls.__new__(cls)
        d._key = raw = key.encode()
        # the first block, as below() would fetch it at the first draw (every decision draws); block 0's
        # salt is sixteen zero bytes, BLAKE2b's default, and 64 bytes its default digest size
        d._x = int.from_bytes(_blake2b(raw).digest(), "little")
        d._span, d._block = _SPAN0, 1
        return d

    def below(self, n: int) -> int:
        """A number drawn uniformly from ``range(n)``."""
        span = self._span
        if span < n << 64:
            digest = hashlib.blake2b(self._key, digest_size=64, salt=self._block.to_bytes(16, "little")).digest()
            self._x = (self._x << 512) | int.from_bytes(digest, "little")
            span <<= 512
            self._block += 1
        self._x, r = divmod(self._x, n)
        self._span = span // n
        return r

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


_blake2b = hashlib.blake2b
_new = object.__new__
_SPAN0 = 1 << 512  # the span of the first block's number


def decision_draws(seed: int, state: GameState[Any], seat: str) -> Draws:
    """The draws of ``seat``'s decision now: a function of the bot's seed, the seat and how far the game
    has got (public), nothing else."""
    # Draws.of_text(f"quarterback/{seed}/{seat}/{len(state.log)}"), inlined: every decision makes one
    d = _new(Draws)
    d._key = raw = f"quarterback/{seed}/{seat}/{len(state.log)}".encode()
    d._x = int.from_bytes(_blake2b(raw).digest(), "little")
    d._span, d._block = _SPAN0, 1
    return d


class QuarterbackRandomBot(SeededBot):
    """A random legal action (seeded): walk a random piece, pass at random, or end the turn."""

    name = "random"

    def choose(self, state: GameState[Any], seat: str) -> Action:
        assert isinstance(state, QuarterbackState)
        st = state
        rng = decision_draws(self.seed, st, seat)
        options: list[str] = st.movable(seat)
        if st.may_pass(seat):
            options.append(_PASS)
        options.append(_END)
        while True:  # draw an option; one that turns out impossible is dropped and another drawn
            i = rng.below(len(options))
            pick = options[i]
            if pick == _END:
                return EndTurn()
            if pick == _PASS:
                targets = list(st.pass_targets())
                if targets:
                    return PassBall(sq(targets[rng.below(len(targets))]))
            else:
                move = self._walk(st, seat, pick, rng)
                if move is not None:
                    return move
            options[i] = options[-1]
            options.pop()

    @staticmethod
    def _walk(st: QuarterbackState, seat: str, pid: str, rng: Draws) -> Action | None:
        below, next_squares, try_step = rng.below, st.next_squares, st.try_step  # (bound once: every decision walks)
        w = st.start_walk((seat, pid))
        for _ in range(below(st.steps_open(seat, pid)) + 1):
            squares = next_squares(w)
            while squares:  # a square drawn uniformly among those the piece may step to
                i = below(len(squares))
                w2 = try_step(w, squares[i])
                if not isinstance(w2, IllegalStep):
                    w = w2
                    break
                squares[i] = squares[-1]  # refused: drawn again among the others
                squares.pop()
            else:
                break
        return st.action_of(w) if w.path else None


class GreedyBot(SeededBot):
    """One action at a time, the best by a one-ply evaluation (see the module docstring)."""

    name = "default"

    def choose(self, state: GameState[Any], seat: str) -> Action:
        assert isinstance(state, QuarterbackState)
        self.rng = decision_draws(self.seed, state, seat)
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
            if carrier_kind in st.tackles[k]:
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
        """The best action by the one-ply evaluation; with the Quarterback carrying behind the line and two
        actions left, a receiver (a Triple or a Double) moving over the line into its passing lane counts as
        the pass it sets up.  Actions within :data:`EQUAL` of the best are equally good: one is drawn."""
        cands: list[tuple[float, Action | Walk]] = [(self._score(st, st.board, st.carrier, st.loose) + 0.01, EndTurn())]
        movers: list[str] = []
        if st.carrier is not None:
            movers.append(st.carrier[1])
        else:  # a loose ball: the pieces that could reach it
            assert st.loose is not None
            movers += [p for (s, p), at in st.pos.items() if s == seat and _cheb(at, st.loose) <= 4]
        if st.active and st.active not in movers:
            movers.append(st.active)
        for pid in movers:
            for w in st.move_outcomes(seat, pid):
                if w.end:  # an interception caused by a push
                    cands.append((-5.0, w))
                    continue
                cands.append((self._score(st, w.board(), w.carrier, w.loose) + w.at[1] * 0.001, w))
        if st.carrier is not None and st.budget_left() > 0:
            for t in st.pass_targets():
                board = st.board
                receiver = board.get(t)
                score = self._score(st, board, receiver, None if receiver else t)
                cands.append((score - 0.5, PassBall(sq(t))))
            if st.carrier[1] == "QB" and st.pos[st.carrier][1] <= 0 and st.budget_left() >= 2:
                cands += self._receivers(st, seat)
        top = max(c[0] for c in cands)
        best = [c for c in cands if c[0] >= top - EQUAL]
        return _action(st, best[self.rng.below(len(best))][1] if len(best) > 1 else best[0][1])

    def _receivers(self, st: QuarterbackState, seat: str) -> list[tuple[float, Action | Walk]]:
        """Receivers moving over the line onto a square of the Quarterback's passing lanes, valued as the pass
        they set up (a Double crossing releases the defense: it weighs a little less)."""
        out: list[tuple[float, Action | Walk]] = []
        qb = st.carrier
        assert qb is not None
        at = st.pos[qb]
        for pid in st.movable(seat):
            piece = (seat, pid)
            kind = st.kind[piece]
            if kind not in "TD" or pid in st.moved:
                continue
            for w in st.move_outcomes(seat, pid):
                if w.end or w.at[1] < 1:
                    continue
                board = w.board()
                if w.at in set(st.pass_lines(board, at, True)):
                    value = self._score(st, board, piece, None) - (1.0 if kind == "D" and not st.released else 0.5)
                    out.append((value + w.at[1] * 0.001, w))
        return out

    # -------------------------------------------------------------- defend
    def _defend(self, st: QuarterbackState, seat: str) -> Action:
        """Tackle or intercept at once if a move can; else the move that most lowers the pressure (the
        defenders' distance from the ball, a sum of each defender's part, so a move changes only the
        mover's part: its pushes move attackers only)."""
        ball = st.pos[st.carrier] if st.carrier is not None else st.loose
        assert ball is not None
        carrier_kind = st.kind[st.carrier] if st.carrier is not None else None
        parts = {p: self._part(st, p, square, ball, carrier_kind) for square, p in st.board.items() if p[0] == seat}
        current = sum(parts.values())
        best: tuple[int, Action | Walk] = (current, EndTurn())  # a move must lower the pressure
        cands: list[tuple[int, Action | Walk]] = []
        for pid in st.pieces(seat):
            piece = (seat, pid)
            rest = current - parts[piece]
            for w in st.move_outcomes(seat, pid):
                if w.end:
                    return _action(st, w)  # a tackle or an interception: take it
                cands.append((rest + self._part(st, piece, w.at, ball, carrier_kind), w))
        self.rng.shuffle(cands)
        for c in cands:
            if c[0] < best[0]:
                best = c
        return _action(st, best[1])

    @staticmethod
    def _part(st: QuarterbackState, piece: Piece, square: Square, ball: Square, carrier_kind: str | None) -> int:
        """A defender's part of the pressure on the ball, in tenths (lower is better for the defense):
        tacklers count by the squares they lack to reach it, the others by their distance; a defender
        ahead of the ball covers the field."""
        d = max(abs(square[0] - ball[0]), abs(square[1] - ball[1]))
        k = st.kind[piece]
        if carrier_kind is None:
            part = max(d - st.allowance(piece), 0) * 20
        elif carrier_kind in st.tackles[k] or (k == "S" and carrier_kind in "TQ"):
            part = max(d - st.allowance(piece), 0) * 30 + d
        else:
            part = d * 5
        return part - 2 if square[1] > ball[1] else part


class TripleWalk(SeededBot):
    """The Triple walk (issue #31), a simple scripted line: attacking, it takes a Triple over the line, has
    the Quarterback pass it the ball from behind the line, walks it as far up the field as it can and ends
    every turn until the half is over; defending, it plays the default bot.  Under the older reading of
    ruling QB-R-TACKLE-PAIRS (``tackle_reading = "pairs"``) nothing answered it: no attacking Double or
    Quarterback crosses, so the defending Doubles and Singles stay at the line, and no Triple tackled a
    Triple."""

    name = "triple-walk"

    def choose(self, state: GameState[Any], seat: str) -> Action:
        assert isinstance(state, QuarterbackState)
        st = state
        if seat != st.attacker:
            return GreedyBot(self.seed).choose(st, seat)
        carrier = st.carrier
        if carrier is None or carrier[0] != seat:
            return EndTurn()
        if st.kind[carrier] == "T":  # walk it: once a turn, to the square furthest up (then worth most)
            if carrier[1] in st.movable(seat) and carrier[1] != st.active:
                here = st.pos[carrier]
                walks = [w for w in st.move_outcomes(seat, carrier[1]) if not w.end and w.carrier == carrier]
                best = max(walks, key=lambda w: (w.at[1], st.value(w.at)), default=None)
                if best is not None and (best.at[1], st.value(best.at)) > (here[1], st.value(here)):
                    return st.action_of(best)
            return EndTurn()
        if carrier[1] != "QB" or st.budget_left() <= 0:
            return EndTurn()
        for t in st.pass_targets():  # a Triple of ours over the line, in reach of a pass: pass
            receiver = st.board.get(t)
            if receiver is not None and receiver[0] == seat and st.kind[receiver] == "T" and t[1] >= 1:
                return PassBall(sq(t))
        move = self._triple_into_a_lane(st, seat)
        if move is not None:
            return move
        if "QB" not in st.moved:  # the Quarterback steps along the back rows to open a lane
            for w in st.move_outcomes(seat, "QB"):
                if w.at[1] <= 0 and not w.end:
                    twin = st.clone()
                    twin.apply(seat, st.action_of(w))
                    if self._triple_into_a_lane(twin, seat) is not None:
                        return st.action_of(w)
        return EndTurn()

    @staticmethod
    def _triple_into_a_lane(st: QuarterbackState, seat: str) -> Action | None:
        """A move of a Triple over the line onto a square the Quarterback may then pass to."""
        for pid in st.movable(seat):
            piece = (seat, pid)
            if st.kind[piece] != "T" or pid in st.moved:
                continue
            for w in st.move_outcomes(seat, pid):
                if w.at[1] < 1 or w.end:
                    continue
                twin = st.clone()
                twin.apply(seat, st.action_of(w))
                if w.at in set(twin.pass_targets()):
                    return st.action_of(w)
        return None


BOTS: dict[str, Callable[..., Bot]] = {"random": QuarterbackRandomBot, "default": GreedyBot}
#: simple scripted lines a designer checks against the default bot (gm balance)
LINES: dict[str, Callable[..., Bot]] = {"triple-walk": TripleWalk}


def evaluate(state: GameState[Any]) -> dict[str, float]:
    """How a Quarter Back match stands for each seat, for the search bot's rollouts it stops early: game
    points, this game's points and what the ball is worth to the attacker where it is (row + column), on a
    logistic scale (from the board: Quarter Back has no secrets)."""
    assert isinstance(state, QuarterbackState)
    st = state
    red, blue = st.seats
    game = min(st.half // 2, st.games - 1)
    margin = 10.0 * (st.game_points[red] - st.game_points[blue]) + st.points[game][red] - st.points[game][blue]
    if st.carrier is not None:
        worth = float(st.value(st.pos[st.carrier]))
        margin += worth if st.attacker == red else -worth
    p = 1.0 / (1.0 + math.exp(-margin / 4.0))
    return {red: p, blue: 1.0 - p}


def _default_policy(state: GameState[Any], seat: str, rng: random.Random) -> Action:
    """The default bot's choice, seeded from ``rng``: the search's prior (its first candidates)."""
    return GreedyBot(seed=rng.getrandbits(32)).choose(state, seat)


def _wide(state: GameState[Any], seat: str) -> bool:
    """Every decision: a turn offers every route of every piece (hundreds of walks), so moves are drawn - the
    default bot's, then uniformly (:meth:`QuarterbackState.sample`, without listing) - never listed."""
    return True


#: the search bot tuned for Quarter Back (:meth:`gm.core.game.Game.search_hints`)
SEARCH: dict[str, Any] = {"evaluate": evaluate, "prior": _default_policy, "wide": _wide, "iters": 60, "depth": 12}
