"""Grid Football bots: ``random``, ``default``, ``adaptive`` and ``constant`` / ``always-P-COLOUR``.

``default`` - the equilibrium player
------------------------------------
Every down is a simultaneous one-shot game: the offense picks a play and a colour (plus a
lateral intent), the defense a play and a colour.  The bot plays the mixed-strategy
equilibrium of that matrix game, solved with ``scipy.optimize.linprog`` and cached per
situation (plays open, down, rows to go, rows to the goal; bucketed far from the goal and
the line to gain).  A cell's payoff is the offense's *win probability* after the down,
read from a :class:`ValueModel` derived from the ruleset (no hard-coded numbers):

* ``V(x, down, to_go)``: the chance that the team with the ball ``x`` rows from the goal
  scores the first touchdown.  It is the fixed point of the down game itself, computed by
  Shapley value iteration on an open board without a clock.  There the colours are
  symmetric, so each down reduces to a play-guessing game ``a_p - delta_p [p == q]``
  whose value has a closed form (water filling; the tests check it against ``linprog``
  and check that ``V`` is the equilibrium value of the down game priced with ``V``).
* Through ``V`` the payoff values rows gained, first downs (reaching the line to gain
  resets the downs), touchdowns (1), turnovers (play + colour match: one minus the
  opponent's ``V`` from the same spot; a colour match: that with chance ``1/number_max``
  on the number check; a failed 4th down) and punts (one minus the receiver's value after
  the punt and return, including the return number check's touchdown chance).  ``punt``
  is a row of the game on punting downs, so the bot punts when going for it is worth less.

The rows are the play calls going straight ahead; the offense then fits the lateral
intent of the call it drew to the real board (:func:`fit_intent`): every candidate
(columns, left/right, before/after) is resolved with the engine's own pure function
(:func:`gm.games.grid_football.movement.resolve_play`, the one statement of the movement
rules) for the defense-wrong, play-match and colour-match outcomes, weighted by the defense's
equilibrium mix - so blocked squares, red passes overshooting the end zone and the board
edges all count.  The defense plays its side of the same public game.  Kick and number
picks are matching games whose equilibrium is uniform; kick or receive follows the
simulated kickoff value (with the default rules kicking is worth more: a receiver deep in
its own half risks handing over a short field).

``adaptive`` counts the opponent's *revealed* calls, kick picks and numbers, and
best-responds to the estimate once it is worth it, trusting it more as the sample grows
(equilibrium play otherwise).  What it has learned is rebuilt from the game's public log
(:func:`opponent_model`), not kept in the bot.  ``constant`` always calls one play and
colour: a predictable human for the benchmarks.

Every bot's choice is a function of its seed and what its seat may see (:func:`decision_rng`
draws a generator per decision), so a bot made afresh for every decision plays exactly as
one kept for the whole game.  Bots never look at another seat's pending pick: they read
only public fields, the board and the revealed picks.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.core.actions import Action, Move
from gm.core.bots import Bot, RandomBot
from gm.core.events import Event
from gm.core.playout import play_out
from gm.games.grid_football.actions import CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt
from gm.games.grid_football.engine import (
    NUMBER_CHECK,
    PLAY,
    PUNT,
    RETURN_NUMBER,
    SEATS,
    SIMULTANEOUS,
    Decision,
    GridFootballState,
    other,
)
from gm.games.grid_football.movement import Match, Movement, PlayOutcome, Stop, kick_column, kick_return, resolve_play
from gm.games.grid_football.rules import KICK_COLOURS, PLAY_COLOURS, POSITIONS, GridFootballRules

if TYPE_CHECKING:
    from gm.core.state import GameState

Square = tuple[int, int]

#: probability of 2 / 1 / 0 matches on a kick when both sides pick uniformly
_P_POS = 1 / len(POSITIONS)
_P_COL = 1 / len(KICK_COLOURS)
KICK_MATCH_P = {
    2: _P_POS * _P_COL,
    1: _P_POS * (1 - _P_COL) + (1 - _P_POS) * _P_COL,
    0: (1 - _P_POS) * (1 - _P_COL),
}


# =============================================================== the value model
class ValueModel:
    """Win probability of the team in possession, from the ruleset and the plays open.

    ``x`` counts rows to the opponent's goal line (1 = next to it, ``G - 1`` = next to the
    own end zone, where ``G`` is the distance between the goal lines); ``t`` is rows to the
    line to gain.  A turnover at ``x`` gives the opponent the ball at ``G - x``.
    """

    def __init__(self, rules: GridFootballRules, plays: Sequence[int]) -> None:
        r = rules
        self.rules = r
        self.plays = tuple(plays)
        self.G = r.high_goal_line - r.low_goal_line
        self.F, self.D, self.N = r.first_down_rows, r.downs, r.number_max
        self.wrong = {p: r.plays[p].wrong.forward + r.no_match_bonus for p in self.plays}
        self.matched = {p: r.plays[p].matched.forward + r.play_match_bonus for p in self.plays}
        self.cm = r.colour_match_forward
        max_loss = max(0, -min([*self.wrong.values(), *self.matched.values(), self.cm]))
        self.T = max(self.F, self.F + (self.D - 1) * max_loss)
        gains = [*self.wrong.values(), *self.matched.values(), self.cm]
        #: rows a down can move the ball forward / backward at most
        self.reach = (max(0, *gains), max(0, *(-g for g in gains)))
        #: identifies the model in cache keys
        self.key = next(_MODEL_IDS)
        self.V: list[float] = []
        self.sweeps = 0
        self._solve()

    # ------------------------------------------------------------- lookups
    def idx(self, x: int, d: int, t: int) -> int:
        x = max(1, min(x, self.G - 1))
        return (x * (self.D + 2) + d) * (self.T + 1) + max(1, min(t, x, self.T))

    def value(self, x: int, d: int, t: int) -> float:
        """Win probability with the ball at ``x``, ``d``-th down and ``t`` to go."""
        if x <= 0:
            return 1.0
        return self.V[self.idx(x, d, t)]

    def first_and_ten(self, x: int) -> float:
        """Win probability with a fresh series at ``x``."""
        return self.value(x, 1, self.F)

    def turnover(self, x: int) -> float:
        """The offense's win probability after losing the ball at ``x``."""
        return 1.0 - self.first_and_ten(self.G - x)

    def after_down(self, x: int, d: int, t: int, x_new: int) -> float:
        """Win probability after a completed down that moved the ball from ``x`` to ``x_new``."""
        if x_new <= 0:
            return 1.0
        x_new = min(x_new, self.G - 1)
        t_new = t - (x - x_new)
        if t_new <= 0:
            return self.first_and_ten(x_new)
        if d >= self.D:
            return self.turnover(x_new)
        return self.value(x_new, d + 1, t_new)

    def after_colour_match(self, x: int, d: int, t: int, x_new: int) -> float:
        """A colour match moved the ball to ``x_new``; then a number check (1/N turnover)."""
        if x_new <= 0:
            return 1.0
        q = 1.0 / self.N
        return (1 - q) * self.after_down(x, d, t, x_new) + q * self.turnover(min(x_new, self.G - 1))

    def punt_returns(self, x: int) -> list[tuple[float, int, float]]:
        """A punt from ``x`` on an open board, kick picks uniform: ``(probability, receiver's x,
        chance of a return touchdown)`` per number of matches (receiver's x <= 0: touchdown)."""
        r = self.rules
        depth = min(r.rows - r.high_goal_line, r.low_goal_line - 1)  # rows behind the goal line
        landing = self.G - max(x - r.punt_distance, -depth)  # in the receiver's rows-to-goal
        return [
            (p, min(landing - r.return_steps[m], self.G - 1), 1.0 / self.N if m == 0 else 0.0)
            for m, p in KICK_MATCH_P.items()
        ]

    def punt(self, x: int) -> float:
        """The offense's win probability if it punts from ``x`` (open board)."""
        recv = 0.0
        for p, xo, q in self.punt_returns(x):
            recv += p * (1.0 if xo <= 0 else q + (1 - q) * self.first_and_ten(xo))
        return 1.0 - recv

    def bucket(self, x: int, t: int) -> tuple[int, int]:
        """Situation buckets for caching equilibria: exact near the goal and the line to gain,
        in threes (x) and twos (t) further away."""
        near = 2 * self.F
        if x > near:
            x = min(self.G - 1, near + 3 * ((x - near - 1) // 3) + 2)
        t = min(t, x)
        if t > self.F:
            t = min(x, self.F + 2 * ((t - self.F - 1) // 2) + 1)
        return x, t

    # ------------------------------------------------------------- solving
    def _solve(self) -> None:
        """Shapley value iteration: ``V <- value of the down game priced with V`` until it
        stops moving.  Each outcome is an affine form ``c + sum(w * V[i])`` per state."""
        import numpy as np

        G, D, T, F = self.G, self.D, self.T, self.F
        q = 1.0 / self.N
        states = np.array(
            [(x, d, t) for x in range(1, G) for d in range(1, D + 1) for t in range(1, min(x, T) + 1)], dtype=np.int64
        ).reshape(-1, 3)
        X, Dn, Tn = states[:, 0], states[:, 1], states[:, 2]
        S = len(states)

        def idx(x: Any, d: Any, t: Any) -> Any:
            x = np.clip(x, 1, G - 1)
            return (x * (D + 2) + d) * (T + 1) + np.clip(np.minimum(t, np.minimum(x, T)), 1, None)

        Form = tuple[Any, Any, Any]  # c (S,), w (S, terms), i (S, terms)

        def lost(x: Any) -> Form:
            return np.ones(S), -np.ones((S, 1)), idx(G - x, 1, F)[:, None]

        def cont(g: int) -> Form:
            xn = np.minimum(X - g, G - 1)
            td = xn <= 0
            tn = Tn - (X - xn)
            fd = ~td & (tn <= 0)
            lo = ~td & ~fd & (Dn >= D)
            c = (td | lo).astype(float)
            w = np.where(td, 0.0, np.where(lo, -1.0, 1.0))[:, None]
            i = np.where(fd, idx(xn, 1, F), np.where(lo, idx(G - xn, 1, F), idx(xn, Dn + 1, tn)))[:, None]
            return c, w, i

        def colour() -> Form:
            xn = np.minimum(X - self.cm, G - 1)
            td = (xn <= 0)[:, None]
            c1, w1, i1 = cont(self.cm)
            c2, w2, i2 = lost(xn)
            c = np.where(td[:, 0], 1.0, (1 - q) * c1 + q * c2)
            w = np.where(td, 0.0, np.hstack([(1 - q) * w1, q * w2]))
            return c, w, np.hstack([i1, i2])

        def punt() -> Form:
            cs, ws, iss = np.ones(S), [], []
            rets = [self.punt_returns(int(x)) for x in range(1, G)]  # per x, same for every d, t
            for j in range(len(KICK_MATCH_P)):
                pr = np.array([r[j][0] for r in rets])[X - 1]
                xo = np.array([r[j][1] for r in rets])[X - 1]
                qq = np.array([r[j][2] for r in rets])[X - 1]
                td = xo <= 0
                cs = cs - np.where(td, pr, pr * qq)
                ws.append(np.where(td, 0.0, -pr * (1 - qq)))
                iss.append(idx(xo, 1, F))
            return cs, np.stack(ws, 1), np.stack(iss, 1)

        wrong = [cont(self.wrong[p]) for p in self.plays]
        matched = [cont(self.matched[p]) for p in self.plays]
        cm, to, pu = colour(), lost(X), punt()
        puntable = np.isin(Dn, list(self.rules.punt_downs))
        sidx = idx(X, Dn, Tn)
        V = np.full(G * (D + 2) * (T + 1), 0.5)

        def ev(f: Form) -> Any:
            c, w, i = f
            return c + (w * V[i]).sum(axis=1)

        for _ in range(5000):  # converges in a few dozen sweeps
            self.sweeps += 1
            cmv, tov = ev(cm), ev(to)
            a = 0.5 * (cmv[:, None] + np.stack([ev(f) for f in wrong], axis=1))
            b = 0.5 * (tov[:, None] + np.stack([ev(f) for f in matched], axis=1))
            game = guessing_game_values(a, a - b)
            new = np.where(puntable, np.maximum(game, ev(pu)), game)
            delta = float(np.abs(new - V[sidx]).max()) if S else 0.0
            V[sidx] = new
            if delta < 1e-10:
                break
        self.V = V.tolist()


def guessing_game_values(a: Any, delta: Any) -> Any:
    """Values of guessing games, vectorised: the row player picks ``p`` and gets ``a[p]``,
    less ``delta[p]`` if the column player guesses ``p`` too (``delta > 0``).

    The column player spreads ``y_p = (a_p - v) / delta_p`` over the rows worth more than
    the value ``v`` (water filling); the row player mixes ``x_p ~ 1 / delta_p`` over them.
    ``a`` and ``delta`` are ``(states, plays)`` arrays; returns ``(states,)``.
    """
    import numpy as np

    delta = np.maximum(delta, 1e-12)
    order = np.argsort(-a, axis=1)
    a_s = np.take_along_axis(a, order, 1)
    d_s = np.take_along_axis(delta, order, 1)
    v_m = (np.cumsum(a_s / d_s, 1) - 1) / np.cumsum(1 / d_s, 1)
    ok = a_s > v_m
    ok[:, 0] = True
    k = a.shape[1]
    m = k - 1 - np.argmax(ok[:, ::-1], axis=1)
    return v_m[np.arange(a.shape[0]), m]


_MODELS: dict[tuple[str, tuple[int, ...]], ValueModel] = {}
_MODEL_IDS = itertools.count()
# speed seam: ruleset-text - a ruleset's JSON (the value models' key) made once per ruleset object (kept in the
# entry, so its id cannot pass on), not at each decision of the default bot: default-vs-random games 1.5x as fast
_RULES_TEXT: dict[int, tuple[GridFootballRules, str]] = {}


def value_model(rules: GridFootballRules, plays: Sequence[int]) -> ValueModel:
    """The value model of a ruleset with these plays open (cached per ruleset content)."""
    seen = _RULES_TEXT.get(id(rules))
    if seen is None or seen[0] is not rules:
        if len(_RULES_TEXT) > 64:
            _RULES_TEXT.clear()
        seen = _RULES_TEXT[id(rules)] = (rules, json.dumps(rules.model_dump(mode="json"), sort_keys=True))
    key = (seen[1], tuple(plays))
    model = _MODELS.get(key)
    if model is None:
        if len(_MODELS) > 16:
            _MODELS.clear()
            _PLAY_GAMES.clear()
        model = _MODELS[key] = ValueModel(rules, plays)
    return model


# ============================================================== matrix games
@dataclass(frozen=True, slots=True)
class MatrixGame:
    """A zero-sum game: the row player maximises ``payoff``; ``x`` / ``y`` are the
    equilibrium mixes of rows / columns and ``value`` the row player's equilibrium value."""

    rows: tuple[Action, ...]
    cols: tuple[Action, ...]
    payoff: tuple[tuple[float, ...], ...]
    x: tuple[float, ...]
    y: tuple[float, ...]
    value: float


_LP_CACHE: dict[tuple[tuple[float, ...], ...], tuple[tuple[float, ...], tuple[float, ...], float]] = {}


def solve_matrix_game(payoff: Sequence[Sequence[float]]) -> tuple[tuple[float, ...], tuple[float, ...], float]:
    """Equilibrium ``(x, y, value)`` of a zero-sum matrix game (rows maximise), by ``linprog``.

    Identical rows (columns) are merged before solving and share their weight equally
    afterwards, so symmetric options (e.g. red and black on an open board) are mixed evenly.
    Results are cached by the (rounded) matrix.
    """
    key = tuple(tuple(round(v, 12) for v in row) for row in payoff)
    hit = _LP_CACHE.get(key)
    if hit is not None:
        return hit
    col_lines = list(zip(*key, strict=True))
    cols = list(dict.fromkeys(col_lines))
    first = [col_lines.index(c) for c in cols]
    row_lines = [tuple(line[j] for j in first) for line in key]
    rows = list(dict.fromkeys(row_lines))
    m, n = len(rows), len(cols)
    if m == 1:  # one effective row: the column player's best reply
        j = min(range(n), key=lambda j: cols[j][0])
        xs, ys, value = [1.0], [float(k == j) for k in range(n)], cols[j][0]
    elif n == 1:  # one effective column: the row player's best reply
        i = max(range(m), key=lambda i: rows[i][0])
        xs, ys, value = [float(k == i) for k in range(m)], [1.0], rows[i][0]
    else:
        import numpy as np
        from scipy.optimize import linprog

        A = np.array(rows, dtype=float)
        c = np.zeros(m + 1)
        c[-1] = -1.0
        res = linprog(
            c,
            A_ub=np.hstack([-A.T, np.ones((n, 1))]),
            b_ub=np.zeros(n),
            A_eq=np.hstack([np.ones((1, m)), np.zeros((1, 1))]),
            b_eq=[1.0],
            bounds=[(0, None)] * m + [(None, None)],
            method="highs",
        )
        if res.status != 0:  # pragma: no cover - HiGHS solves every bounded game
            raise RuntimeError(f"linprog failed: {res.message}")
        xs = _normalise([max(0.0, float(v)) for v in res.x[:m]])
        ys = _normalise([max(0.0, -float(v)) for v in res.ineqlin.marginals])
        value = float(res.x[-1])
    x_full = _spread(row_lines, rows, xs)
    y_full = _spread(col_lines, cols, ys)
    out = (x_full, y_full, value)
    if len(_LP_CACHE) > 50_000:
        _LP_CACHE.clear()
    _LP_CACHE[key] = out
    return out


def _normalise(p: list[float]) -> list[float]:
    s = sum(p)
    return [v / s for v in p] if s > 0 else [1.0 / len(p)] * len(p)


def _spread(lines: Sequence[tuple[float, ...]], unique: list[tuple[float, ...]], probs: list[float]) -> tuple[float, ...]:
    """Share each unique line's probability equally among its duplicates."""
    count: dict[tuple[float, ...], int] = {}
    for line in lines:
        count[line] = count.get(line, 0) + 1
    weight = dict(zip(unique, probs, strict=True))
    return tuple(weight[line] / count[line] for line in lines)


def sample(rng: random.Random, probs: Sequence[float]) -> int:
    """Index drawn from a probability vector."""
    u, acc = rng.random(), 0.0
    for i, p in enumerate(probs):
        acc += p
        if u < acc:
            return i
    return max(range(len(probs)), key=lambda i: probs[i])


# ============================================================ board reading
def rows_to_goal(state: GridFootballState, row: int, d: int) -> int:
    """Rows from ``row`` to the goal line a team moving in direction ``d`` attacks."""
    r = state.rules
    return r.high_goal_line - row if d > 0 else row - r.low_goal_line


def _intents(play: int, colour: str, cap: int) -> Iterator[PlayCall]:
    yield PlayCall(play, colour)
    if colour == "red":
        yield PlayCall(play, colour, timing="after")
    for n in range(1, cap + 1):
        for side in ("left", "right"):
            for timing in ("before", "after"):
                yield PlayCall(play, colour, n, side, timing)


class Situation:
    """The public facts of a down, and the value model that prices it."""

    def __init__(self, state: GridFootballState) -> None:
        assert state.offense is not None and state.ball is not None
        self.state = state
        self.offense = state.offense
        self.d = state.direction(state.offense)
        self.ball: Square = state.ball
        self.x = rows_to_goal(state, state.ball[1], self.d)
        self.t = min((state.to_gain - state.ball[1]) * self.d, self.x)
        self.down = state.down
        self.plays = tuple(state.plays_open())
        self.model = value_model(state.rules, self.plays)

    def value_at(self, mv: Movement, how: str) -> float:
        """The offense's win probability if the down ends with the move ``mv`` (``how``: ``play``
        or ``colour`` match)."""
        m = self.model
        if mv.stop is Stop.TD:
            return 1.0
        x_new = rows_to_goal(self.state, mv.ball[1], self.d)
        if how == "colour":
            return m.after_colour_match(self.x, self.down, self.t, x_new)
        return m.after_down(self.x, self.down, self.t, x_new)

    def column_free(self) -> bool:
        """No blocked square in the ball's column within reach of any play (going straight is then best)."""
        m, blocked = self.model, self.state.blocked
        if not blocked:
            return True
        c, row = self.ball
        ahead, behind = m.reach
        return not any((c, row + self.d * i) in blocked for i in range(-behind, ahead + 1) if i)


_PLAY_GAMES: dict[tuple[Any, ...], MatrixGame] = {}


def down_game(state: GridFootballState, sit: Situation | None = None) -> MatrixGame:
    """The down's matrix game on an open board: rows = offense calls (plus ``punt`` when
    legal), columns = defense calls, payoff = the offense's win probability.

    Cached per situation (plays open, down, rows to the goal and to go, bucketed far
    from the goal); the offense then fits its lateral intent to the real board
    (:func:`fit_intent`).  ``sit``: the down's :class:`Situation`, if already built."""
    sit = sit or Situation(state)
    m = sit.model
    x, t = m.bucket(sit.x, sit.t)
    key = (m.key, x, sit.down, t)
    game = _PLAY_GAMES.get(key)
    if game is not None:
        return game
    d, r = sit.down, state.rules
    cols = tuple(PlayCall(q, c) for q in sit.plays for c in PLAY_COLOURS)
    turnover = m.turnover(x)
    cm = m.after_colour_match(x, d, t, x - m.cm)
    rows: list[Action] = []
    payoff: list[tuple[float, ...]] = []
    for p in sit.plays:
        wrong, matched = m.after_down(x, d, t, x - m.wrong[p]), m.after_down(x, d, t, x - m.matched[p])
        for c in PLAY_COLOURS:
            rows.append(PlayCall(p, c))
            payoff.append(
                tuple(
                    (turnover if c == dc.colour else matched) if p == dc.play else (cm if c == dc.colour else wrong)
                    for dc in cols
                )
            )
    if d in r.punt_downs:
        rows.append(Punt())
        payoff.append(tuple(m.punt(x) for _ in cols))
    xs, ys, v = solve_matrix_game(payoff)
    game = MatrixGame(tuple(rows), cols, tuple(payoff), xs, ys, v)
    if len(_PLAY_GAMES) > 50_000:
        _PLAY_GAMES.clear()
    _PLAY_GAMES[key] = game
    return game


def fit_intent(state: GridFootballState, call: PlayCall, game: MatrixGame, sit: Situation | None = None) -> PlayCall:
    """The lateral intent for ``call`` that does best on the real board.

    Every candidate (0..cap columns, left/right, before/after) is resolved with the engine's
    own :func:`~gm.games.grid_football.movement.resolve_play` for the defense-wrong,
    play-matched and colour-matched outcomes, weighted by how often the defense's equilibrium
    mix produces each.  On an open column the straight call is best and is returned as is."""
    sit = sit or Situation(state)
    if sit.column_free():
        return call
    st, r = sit.state, state.rules
    spec = r.plays[call.play]
    p_play = sum(y for dc, y in zip(game.cols, game.y, strict=True) if isinstance(dc, PlayCall) and dc.play == call.play)
    p_both = sum(
        y for dc, y in zip(game.cols, game.y, strict=True)
        if isinstance(dc, PlayCall) and dc.play == call.play and dc.colour == call.colour
    )
    p_colour = sum(y for dc, y in zip(game.cols, game.y, strict=True) if isinstance(dc, PlayCall) and dc.colour == call.colour) - p_both
    w_wrong, w_matched = 1.0 - p_play - p_colour, p_play - p_both
    reach = max(spec.wrong.forward + r.no_match_bonus, 1)
    best: tuple[float, PlayCall] | None = None
    cm_cache: dict[bool, float] = {}
    for cand in _intents(call.play, call.colour, spec.wrong.lateral):
        wrong = _movement(resolve_play(r, st.blocked, sit.ball, sit.d, cand, Match.NONE))
        vm = sit.value_at(_movement(resolve_play(r, st.blocked, sit.ball, sit.d, cand, Match.PLAY)), "play")
        air = cand.colour == "red" and cand.timing == "after"
        if air not in cm_cache:
            cm_cache[air] = sit.value_at(_movement(resolve_play(r, st.blocked, sit.ball, sit.d, cand, Match.COLOUR)), "colour")
        score = w_wrong * sit.value_at(wrong, "play") + w_matched * vm + p_colour * cm_cache[air]
        # tie-breaks: a landing column open ahead, then little lateral, then "before"
        if wrong.stop is None:
            score += 1e-6 * _open_ahead(st, wrong.end, sit.d, reach)
        score -= 1e-8 * cand.lateral + (1e-9 if cand.timing == "after" else 0.0)
        if best is None or score > best[0]:
            best = (score, cand)
    assert best is not None
    return best[1]


def _movement(outcome: PlayOutcome) -> Movement:
    assert outcome.movement is not None  # only a play + colour match has none
    return outcome.movement


def _open_ahead(state: GridFootballState, sq: Square, d: int, reach: int) -> int:
    c, row = sq
    n = 0
    for i in range(1, reach + 1):
        if (c, row + d * i) in state.blocked:
            break
        n += 1
    return n


# ================================================================ kicks
KICK_PICKS: tuple[KickPick, ...] = tuple(KickPick(p, c) for p in POSITIONS for c in KICK_COLOURS)


def kick_matrix(state: GridFootballState, kicker: str, punt: bool, model: ValueModel) -> list[list[float]]:
    """Receiver's win probability for every (receiver pick, kicker pick) of a kick."""
    r = state.rules
    dk = state.direction(kicker)
    punt_from = None
    if punt:
        assert state.ball is not None
        punt_from = state.ball[1]
    q = 1.0 / r.number_max
    cache: dict[tuple[str, int], float] = {}
    for pos in POSITIONS:
        for matches in (0, 1, 2):
            ko = kick_return(r, state.blocked, dk, kick_column(r, pos), r.return_steps[matches], punt_from)
            v = 1.0 if ko.touchdown else model.first_and_ten(rows_to_goal(state, ko.end[1], -dk))
            cache[pos, matches] = q + (1 - q) * v if matches == 0 and not ko.touchdown else v
    return [
        [cache[k.position, (rp.position == k.position) + (rp.colour == k.colour)] for k in KICK_PICKS]
        for rp in KICK_PICKS
    ]


def receive_value(state: GridFootballState, kicker: str, punt: bool, model: ValueModel) -> float:
    """The receiver's win probability when both sides pick kicks uniformly (the equilibrium)."""
    mat = kick_matrix(state, kicker, punt, model)
    return sum(map(sum, mat)) / (len(mat) * len(mat[0]))


# ================================================================= the bots
def _gf(state: GameState[Any]) -> GridFootballState:
    if not isinstance(state, GridFootballState):
        raise TypeError("a Grid Football bot needs a Grid Football state")
    return state


def decision_rng(seed: int, state: GridFootballState, seat: str) -> random.Random:
    """The random generator of one decision: a function of the bot's seed, the seat and how far
    the game has got (public), so a bot made afresh for every decision chooses as one kept for
    the whole game."""
    return random.Random(f"grid-football/{seed}/{seat}/{len(state.log)}")


class DefaultBot:
    """Plays the equilibrium of each down's play x colour game (see the module docstring)."""

    name = "default"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        st = _gf(state)
        self.rng = decision_rng(self.seed, st, seat)
        return self._decide(st, seat)

    def _decide(self, st: GridFootballState, seat: str) -> Action:
        decision = st.decision(seat)
        if decision == Decision.COIN_CALL:
            return CoinCall(self.rng.choice(("heads", "tails")))
        if decision == Decision.KICK_CHOICE:
            return self._kick_choice(st, seat)
        if decision == Decision.KICK_PICK:
            return self._kick_pick(st, seat)
        if decision == Decision.NUMBER_PICK:
            return self._number_pick(st, seat)
        if decision == Decision.PLAY_CALL:
            return self._play_call(st, seat)
        raise ValueError(f"{seat} has no decision to make now")

    # ----------------------------------------------------------- decisions
    def _model(self, st: GridFootballState) -> ValueModel:
        return value_model(st.rules, st.plays_open())

    def _kick_choice(self, st: GridFootballState, seat: str) -> Action:
        # receiving = the other side kicks
        recv = receive_value(st, other(seat), False, self._model(st))
        return KickChoice("receive" if recv >= 0.5 else "kick")

    def _kick_pick(self, st: GridFootballState, seat: str) -> Action:
        return KICK_PICKS[self.rng.randrange(len(KICK_PICKS))]

    def _number_pick(self, st: GridFootballState, seat: str) -> Action:
        return NumberPick(self.rng.randint(1, st.rules.number_max))

    def _play_call(self, st: GridFootballState, seat: str) -> Action:
        sit = Situation(st)
        game = down_game(st, sit)
        if seat != st.offense:
            return game.cols[self._pick(st, seat, game, rows=False)]
        call = game.rows[self._pick(st, seat, game, rows=True)]
        return fit_intent(st, call, game, sit) if isinstance(call, PlayCall) else call

    def _pick(self, st: GridFootballState, seat: str, game: MatrixGame, *, rows: bool) -> int:
        return sample(self.rng, game.x if rows else game.y)


def _play_key(action: Action) -> tuple[int, str] | None:
    return (action.play, action.colour) if isinstance(action, PlayCall) else None


class Habits:
    """One kind of opponent decision as seen so far: decayed counts, counts of what followed
    each choice (sequences such as cycling plays), and how much better what-follows has
    lately predicted the actual choices than the counts alone (``follow_skill``, a decayed
    log-likelihood ratio); what-follows is used only while it predicts better."""

    decay = 0.97  # older observations fade (a human may change habits)
    prior = 6.0  # pseudo-observations of equilibrium play in the estimate
    follow_prior = 2.0  # pseudo-observations of the overall habit behind a what-follows estimate
    floor = 0.05  # share of a uniform guess mixed into the prior: any choice stays possible

    def __init__(self) -> None:
        self.counts: dict[Any, float] = {}
        self.after: dict[Any, dict[Any, float]] = {}
        self.prev: Any = None
        self.follow_skill = 0.0

    def _floored(self, prior: Sequence[float]) -> list[float]:
        return [(1 - self.floor) * p + self.floor / len(prior) for p in prior]

    def _estimates(self, keys: Sequence[Any], prior: Sequence[float]) -> tuple[list[float], list[float] | None, float]:
        prior = self._floored(prior)
        obs = [self.counts.get(k, 0.0) for k in keys]
        n = sum(obs)
        est = [(o + self.prior * p) / (n + self.prior) for o, p in zip(obs, prior, strict=True)]
        follow = self.after.get(self.prev)
        if not follow:
            return est, None, n
        f_obs = [follow.get(k, 0.0) for k in keys]
        f_n = sum(f_obs)
        f_est = [(o + self.follow_prior * e) / (f_n + self.follow_prior) for o, e in zip(f_obs, est, strict=True)]
        return est, f_est, n

    def predict(self, keys: Sequence[Any], prior: Sequence[float]) -> tuple[list[float], float]:
        """Estimated chance of each key next (``prior``: the equilibrium mix) and the sample size."""
        est, f_est, n = self._estimates(keys, prior)
        return (f_est if f_est is not None and self.follow_skill > 0 else est), n

    def observe(self, key: Any, keys: Sequence[Any], prior: Sequence[float] | None = None) -> None:
        """Record the opponent's revealed ``key``, one of the ``keys`` it could choose, where
        the equilibrium expected ``prior`` (default: uniform)."""
        keys = list(keys)
        if key in keys:
            i = keys.index(key)
            est, f_est, _ = self._estimates(keys, prior or [1.0 / len(keys)] * len(keys))
            if f_est is not None:
                self.follow_skill = self.decay * self.follow_skill + math.log(f_est[i] / est[i])
        for table in (self.counts, self.after.setdefault(self.prev, {})):
            for k in table:
                table[k] *= self.decay
            table[key] = table.get(key, 0.0) + 1.0
        self.prev = key


Expectation = tuple[str, tuple[Any, ...], tuple[float, ...]]  # context, the opponent's keys, their prior


def play_expectation(game: MatrixGame, *, rows: bool) -> tuple[list[Any], list[float], list[Any], dict[Any, float]]:
    """What the row (``rows``) or column player of a down game expects of its opponent: the
    opponent's (play, colour) keys, their equilibrium prior, every opponent action's key and
    each key's equilibrium mass (the punt row is never a key: it is never revealed as a call)."""
    opp_actions, opp_eq = (game.cols, game.y) if rows else (game.rows, game.x)
    keys = [_play_key(a) for a in opp_actions]
    uniq = [k for k in dict.fromkeys(keys) if k is not None]
    mass = {k: sum(p for k2, p in zip(keys, opp_eq, strict=True) if k2 == k) for k in uniq}
    calls = sum(mass.values())
    prior = [mass[k] / calls if calls > 0 else 1.0 / len(uniq) for k in uniq]
    return uniq, prior, keys, mass


def expectations(state: GridFootballState) -> dict[str, Expectation]:
    """At the start of a simultaneous round: per seat, the context in which it learns its
    opponent's pick (``play:defense``, ``kick:receiver``, ``number:offense``...), the keys the
    opponent may pick and the equilibrium's prior over them (public facts only)."""
    p = state.phase
    out: dict[str, Expectation] = {}
    if p == PLAY:
        game = down_game(state)
        for seat in SEATS:
            rows = seat == state.offense
            uniq, prior, _, _ = play_expectation(game, rows=rows)
            out[seat] = (f"play:{'defense' if rows else 'offense'}", tuple(uniq), tuple(prior))
    elif p in (NUMBER_CHECK, RETURN_NUMBER):
        n = state.rules.number_max
        keys, uniform = tuple(range(1, n + 1)), (1.0 / n,) * n
        for seat in SEATS:
            if p == NUMBER_CHECK:
                role = "defense" if seat == state.offense else "offense"
            else:
                role = "receiver" if seat == state.kicker else "kicker"
            out[seat] = (f"number:{role}", keys, uniform)
    else:  # a kickoff or a punt
        uniform = (1.0 / len(KICK_PICKS),) * len(KICK_PICKS)
        for seat in SEATS:
            out[seat] = (f"kick:{'receiver' if seat == state.kicker else 'kicker'}", KICK_PICKS, uniform)
    return out


def _revealed_key(action: Action) -> Any:
    if isinstance(action, PlayCall):
        return _play_key(action)
    if isinstance(action, NumberPick):
        return action.number
    return action


class _Memory:
    """What each seat has learned of its opponent in one game, rebuilt from the public log: the
    log is replayed on a shadow game (setup + seed + moves), and each simultaneous round's picks
    are used only once the round reveals them (a pick still locked, or voided by a punt, never
    is).  Kept per live game and extended move by move."""

    def __init__(self, state: GridFootballState) -> None:

        self.rules, self.seed, self.generator = state.rules, state.seed, state.generator
        shadow = state.fresh()
        assert isinstance(shadow, type(state))
        self.shadow = shadow
        self.done = 0
        self.last: Move | None = None
        self.held: Move | None = None  # the first pick of the round under way
        self.expect: dict[str, Expectation] = {}
        self.habits: dict[str, dict[str, Habits]] = {seat: {} for seat in state.seats}

    def fits(self, state: GridFootballState) -> bool:
        log = state.log
        return (
            self.rules is state.rules
            and self.seed == state.seed
            and self.generator == state.generator
            and self.done <= len(log)
            and (self.done == 0 or log[self.done - 1] is self.last)
        )

    def update(self, state: GridFootballState) -> None:
        log = state.log
        for move in log[self.done :]:
            self._feed(move)
        self.done = len(log)
        self.last = log[-1] if log else None

    def _feed(self, move: Move) -> None:
        sh = self.shadow
        if sh.phase not in SIMULTANEOUS:
            sh.apply(move.seat, move.action)
            return
        if isinstance(move.action, Punt):  # a punt resolves at once; a defense call locked before it is void
            self.held = None
            sh.apply(move.seat, move.action)
            return
        if self.held is None:
            self.expect = expectations(sh)
            self.held = move
            return
        first, self.held = self.held, None
        sh.apply(first.seat, first.action)
        sh.apply(move.seat, move.action)
        picks = {first.seat: first.action, move.seat: move.action}
        for seat, (context, keys, prior) in self.expect.items():
            opp = other(seat)
            key = _revealed_key(picks[opp])
            self.habits[seat].setdefault(context, Habits()).observe(key, keys, prior)


_MEMORIES: weakref.WeakKeyDictionary[GridFootballState, _Memory] = weakref.WeakKeyDictionary()


def opponent_model(state: GridFootballState, seat: str) -> Mapping[str, Habits]:
    """What ``seat`` has learned of its opponent's revealed picks in this game so far, by
    context: a function of the public log (cached per live game; never mutate it)."""
    mem = _MEMORIES.get(state)
    if mem is None or not mem.fits(state):
        mem = _MEMORIES[state] = _Memory(state)
    mem.update(state)
    return mem.habits[seat]


class AdaptiveBot(DefaultBot):
    """Learns the opponent's revealed habits - play/colour per role, kick picks, numbers,
    including what tends to follow what - and best-responds to them when the estimated gain
    over the equilibrium clears its sampling noise, trusting the estimate more as the sample
    grows; it plays the equilibrium otherwise.

    It keeps no memory of its own: what it has learned is rebuilt from the game's public log
    (:func:`opponent_model`), so a bot made afresh for every decision plays the same.
    """

    name = "adaptive"
    min_gain = 0.002  # exploit only when it gains this much win probability
    z = 1.0  # ... and more than z standard errors of the estimated gain
    trust_prior = 2.0  # a best response is trusted n / (n + trust_prior) of the time after n observations

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.habits: Mapping[str, Habits] = {}

    def choose(self, state: GameState[Any], seat: str) -> Action:
        st = _gf(state)
        return self.choose_with(st, seat, opponent_model(st, seat))

    def choose_with(self, state: GridFootballState, seat: str, habits: Mapping[str, Habits]) -> Action:
        """Choose as if ``habits`` (context -> :class:`Habits`) were what it has learned."""
        self.rng = decision_rng(self.seed, state, seat)
        self.habits = habits
        return self._decide(state, seat)

    # ---------------------------------------------------------- deciding
    def _respond(self, context: str, keys: Sequence[Any], prior: Sequence[float], payoff: Sequence[Sequence[float]],
                 mine_eq: Sequence[float], *, maximise: bool) -> int:
        """Best-respond to the opponent's estimated mix over ``keys`` (``payoff[mine][theirs]``
        from the maximiser's side), or play ``mine_eq``: blend by trust, only if it gains."""
        habits = self.habits.get(context) or Habits()
        est, n = habits.predict(keys, prior)
        trust = n / (n + self.trust_prior)
        vals = [sum(row[j] * est[j] for j in range(len(est))) for row in payoff]
        sign = 1.0 if maximise else -1.0
        best = max(range(len(vals)), key=lambda i: sign * vals[i])
        # gain over the equilibrium mix against each opponent key, and its sampling noise
        eq_line = [sum(p * row[j] for p, row in zip(mine_eq, payoff, strict=True)) for j in range(len(est))]
        diff = [sign * (payoff[best][j] - eq_line[j]) for j in range(len(est))]
        gain = sum(e * g for e, g in zip(est, diff, strict=True))
        spread = max(0.0, sum(e * g * g for e, g in zip(est, diff, strict=True)) - gain * gain)
        noise = math.sqrt(spread / (n + Habits.prior + 1))
        if gain > max(self.min_gain, self.z * noise) and self.rng.random() < trust:
            return best
        return sample(self.rng, mine_eq)

    def _pick(self, st: GridFootballState, seat: str, game: MatrixGame, *, rows: bool) -> int:
        # the opponent plays the other side of the matrix; its punt row is never learned
        uniq, prior, keys, mass = play_expectation(game, rows=rows)
        opp_eq = game.y if rows else game.x
        # payoff of each of my actions against each opponent key (a key's actions share its weight)
        A = game.payoff if rows else [list(col) for col in zip(*game.payoff, strict=True)]
        per_key = []
        for line in A:
            per_key.append([
                sum(line[j] * opp_eq[j] for j, k2 in enumerate(keys) if k2 == k) / mass[k] if mass[k] > 0
                else sum(line[j] for j, k2 in enumerate(keys) if k2 == k) / keys.count(k)
                for k in uniq
            ])
        mine_eq = game.x if rows else game.y
        return self._respond(f"play:{'defense' if rows else 'offense'}", uniq, prior, per_key, mine_eq, maximise=rows)

    def _number_pick(self, st: GridFootballState, seat: str) -> Action:
        nmax = st.rules.number_max
        if st.phase == NUMBER_CHECK:
            want_match, role = seat == st.defense, "offense" if seat == st.defense else "defense"
        else:
            want_match, role = seat != st.kicker, "kicker" if seat != st.kicker else "receiver"
        keys = list(range(1, nmax + 1))
        uniform = [1.0 / nmax] * nmax
        payoff = [[1.0 if a == b else 0.0 for b in keys] for a in keys]  # chance of a match
        i = self._respond(f"number:{role}", keys, uniform, payoff, uniform, maximise=want_match)
        return NumberPick(keys[i])

    def _kick_pick(self, st: GridFootballState, seat: str) -> Action:
        kicker = st.kicker
        assert kicker is not None
        mat = kick_matrix(st, kicker, st.phase == PUNT, self._model(st))  # [receiver pick][kicker pick]
        uniform = [1.0 / len(KICK_PICKS)] * len(KICK_PICKS)
        if seat != kicker:
            return KICK_PICKS[self._respond("kick:kicker", KICK_PICKS, uniform, mat, uniform, maximise=True)]
        by_kicker = [list(col) for col in zip(*mat, strict=True)]
        return KICK_PICKS[self._respond("kick:receiver", KICK_PICKS, uniform, by_kicker, uniform, maximise=False)]


class ConstantBot:
    """A predictable player: always calls the same play and colour (default ``play 1 red``),
    never punts, and picks everything else at random.  Models a predictable human."""

    def __init__(self, seed: int = 0, play: int = 1, colour: str = "red") -> None:
        if colour not in PLAY_COLOURS:
            raise ValueError(f"colour must be one of {', '.join(PLAY_COLOURS)}")
        self.seed = seed
        self.play, self.colour = play, colour
        self.name = f"always-{play}-{colour}"

    def choose(self, state: GameState[Any], seat: str) -> Action:
        st = _gf(state)
        if st.decision(seat) == Decision.PLAY_CALL:
            open_plays = st.plays_open()
            play = self.play if self.play in open_plays else open_plays[0]
            return PlayCall(play, self.colour)
        return st.legal_actions(seat).sample(decision_rng(self.seed, st, seat))


# ============================================================== registry
class BotRegistry(Mapping[str, Callable[..., Bot]]):
    """Bot factories by name.  Besides the listed names it accepts ``always-P-COLOUR``
    (e.g. ``always-4-black``): a :class:`ConstantBot` with that call."""

    def __init__(self, named: Mapping[str, Callable[..., Bot]]) -> None:
        self._named = dict(named)

    def __getitem__(self, key: str) -> Callable[..., Bot]:
        if key in self._named:
            return self._named[key]
        parsed = _parse_always(key)
        if parsed is None:
            raise KeyError(key)
        play, colour = parsed

        def factory(seed: int = 0) -> Bot:
            return ConstantBot(seed=seed, play=play, colour=colour)

        return factory

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (key in self._named or _parse_always(key) is not None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._named)

    def __len__(self) -> int:
        return len(self._named)


def _parse_always(key: str) -> tuple[int, str] | None:
    parts = key.split("-")
    if len(parts) == 3 and parts[0] in ("always", "constant") and parts[1].isdigit() and parts[2] in PLAY_COLOURS:
        return int(parts[1]), parts[2]
    return None


BOTS: Mapping[str, Callable[..., Bot]] = BotRegistry(
    {
        "default": DefaultBot,
        "random": RandomBot,
        "adaptive": AdaptiveBot,
        "constant": ConstantBot,
        "always": ConstantBot,
    }
)


# =========================================================== playing games
@dataclass(frozen=True, slots=True)
class GameResult:
    """How one bot-vs-bot game went: the winner (``None``: draw) and how many downs it took."""

    winner: str | None
    downs: int


def play_bots(bots: Mapping[str, Bot], seed: int = 0, rules: GridFootballRules | None = None) -> GameResult:
    """Play one full game between ``bots`` (seat -> bot) and return the result."""
    state = GridFootballState(GridFootballRules() if rules is None else rules, seed, None)
    downs = 0

    def count(seat: str, action: Action, events: list[Event]) -> None:
        nonlocal downs
        downs += sum(ev.kind in ("play_reveal", "punt_called") for ev in events)

    play_out(state, bots, on_move=count)
    assert state.outcome is not None
    return GameResult(state.outcome.winner, downs)


__all__ = [
    "BOTS",
    "AdaptiveBot",
    "ConstantBot",
    "DefaultBot",
    "GameResult",
    "Habits",
    "MatrixGame",
    "ValueModel",
    "decision_rng",
    "down_game",
    "expectations",
    "fit_intent",
    "guessing_game_values",
    "opponent_model",
    "play_bots",
    "play_expectation",
    "receive_value",
    "solve_matrix_game",
    "value_model",
]


def evaluate(state: GameState[Any]) -> dict[str, float]:
    """How a Grid Football game stands for each seat, for the search bot's rollouts it stops early: the score
    and how far the offense has the ball toward its goal, on a logistic scale (public facts only)."""
    assert isinstance(state, GridFootballState)
    st = state
    r = st.rules
    home, away = st.seats
    margin = float(st.score[home] - st.score[away])
    if st.offense is not None and st.ball is not None:
        goal = r.high_goal_line if st.direction(st.offense) > 0 else r.low_goal_line
        length = max(abs(r.high_goal_line - r.low_goal_line), 1)
        edge = 0.5 * r.touchdown_points * (1.0 - abs(goal - st.ball[1]) / length)
        margin += edge if st.offense == home else -edge
    p = 1.0 / (1.0 + math.exp(-margin / max(r.touchdown_points / 2, 1)))
    return {home: p, away: 1.0 - p}


#: the search bot tuned for Grid Football (:meth:`gm.core.game.Game.search_hints`)
SEARCH: dict[str, Any] = {"evaluate": evaluate, "iters": 150, "depth": 12}
