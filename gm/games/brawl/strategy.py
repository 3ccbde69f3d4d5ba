"""The ``default`` brawl bot: a one-play lookahead over projected zone totals.

For a placement it projects every zone's final totals (cards already revealed, plus the
average card each side is expected to add in the plays left), measures how much one more
point in each zone is worth to it (a finite difference of the series score: yards capped
at the end zone, a turnover as a large loss, a sack as no gain), and then assigns its
players to zones and picks their cards by solving the assignment problem (scipy's
``linear_sum_assignment``) on ``weight(zone) x card value (with the position's effect)``
plus bonuses for keeping a zone's cards of one kind (completions for the offense,
interceptions and fumbles for the defense).

It sees what its seat may see: revealed cards, its own hand, the public ruleset (deck
lists), never the other side's hand or locked placement.

Speed (issue #22) never changes a choice: the projection's values are kept per process by
the projection itself (a pure function; every series' first play recurs), and the array
steps take their products and sums in the same order as the plain loops they replaced.
"""

from __future__ import annotations

import random
from functools import cache, lru_cache
from math import sqrt
from typing import Any

import numpy as np

from gm.core.actions import Action
from gm.core.bots import SeededBot
from gm.core.state import GameState
from gm.games.brawl.actions import CardPlay, FourthDown, FourthOption, Placement, card_play
from gm.games.brawl.decisions import decision_rng
from gm.games.brawl.engine import BrawlState, Decision
from gm.games.brawl.rules import ADJACENT, BACKFIELD, PLAYABLE, X_ZONE, BrawlRules, Card, parse_card
from gm.games.brawl.scoring import EMPTY, purity

_N = len(PLAYABLE)
_IDX = {z: i for i, z in enumerate(PLAYABLE)}
_ADJ = [tuple(_IDX[n] for n in ADJACENT[z] if n != X_ZONE) for z in PLAYABLE]
_START = tuple(_IDX[z] for z in ADJACENT[X_ZONE])
_BACK = tuple(_IDX[z] for z in BACKFIELD)

_START_MASK = np.array([i in _START for i in range(_N)])
_NBR = np.array([list(a) + [_N] * (4 - len(a)) for a in _ADJ])  # padded with a zero column
_NBR_T = np.ascontiguousarray(_NBR.T)  # neighbour slot x zone: the max over slots is an outer-axis reduce
_SWEEPS = 4
_EYE = np.eye(_N)
_EYE_BOOL = np.eye(_N, dtype=bool)
_BACK_LIST = np.array(_BACK)
_INV_SQRT_2PI = 1.0 / sqrt(2.0 * 3.141592653589793)

TURNOVER_YARDS = 45.0  # what losing the ball is worth, in yards
DELTA = 1.5  # finite-difference step, in card points
#: one more point (``DELTA``) in each zone, for the offense (sign +1.0) and the defense (-1.0)
_STEP = {sign: _EYE * (sign * DELTA) for sign in (1.0, -1.0)}
BASE_WEIGHT = 0.05  # every zone is worth a little
CARD_VAR = 2.5  # spread of one unseen card's value


@cache
def _ndtr() -> Any:
    """scipy's normal CDF (imported on first use: scipy is heavy)."""
    from scipy.special import ndtr

    return ndtr


@cache
def _lsa() -> Any:
    """scipy's assignment solver (imported on first use)."""
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment


@lru_cache(maxsize=4096)
def _expected(card: Card, effect: str, strong: int, weak: int) -> float:
    """Expected value of ``card`` under ``effect`` (Agility: mean over the roll)."""
    vals = range(card.lo, card.hi + 1)
    if effect == "S":
        return sum(v * strong for v in vals) / len(vals)
    if effect == "W":
        return sum(v // weak for v in vals) / len(vals)
    return sum(vals) / len(vals)


#: the region (index into a position's effects as D, M, S, B) of each playable zone
_REGION_AT = np.array(["DMSB".index(z[0]) for z in PLAYABLE])
#: a card kind's row of the kind bonuses (S, A, F)
_KIND_ROW = {"S": 0, "A": 1, "F": 2}


@lru_cache(maxsize=8192)
def _by_region(card: Card, effects: tuple[str, str, str, str], strong: int, weak: int) -> tuple[float, ...]:
    """Expected value of ``card`` in each region (D, M, S, B) under a position's ``effects`` there."""
    return tuple(_expected(card, e, strong, weak) for e in effects)


_REGION_VALUES: dict[tuple[str, tuple[str, str, str, str], int, int], tuple[float, ...]] = {}


def _region_values(code: str, card: Card, effects: tuple[str, str, str, str], strong: int, weak: int) -> tuple[float, ...]:
    """:func:`_by_region` of ``card`` (whose code is ``code``), looked up by code."""
    key = (code, effects, strong, weak)
    hit = _REGION_VALUES.get(key)
    if hit is None:
        if len(_REGION_VALUES) >= 8192:
            _REGION_VALUES.clear()
        hit = _REGION_VALUES[key] = _by_region(card, effects, strong, weak)
    return hit


_HAND_OPTIONS: dict[tuple[Any, ...], tuple[list[str], list[tuple[float, ...]], list[int]]] = {}


def _hand_options(
    held: list[Card], effects: tuple[str, str, str, str], strong: int, weak: int
) -> tuple[list[str], list[tuple[float, ...]], list[int]]:
    """A player's distinct cards (codes, in hand order), each one's :func:`_by_region` values and kind row,
    looked up by the hand's codes and the position's effects."""
    key = (*[c.code for c in held], effects, strong, weak)
    hit = _HAND_OPTIONS.get(key)
    if hit is None:
        cards = {c.code: c for c in held}
        hit = (list(cards), [_region_values(code, c, effects, strong, weak) for code, c in cards.items()],
               [_KIND_ROW[c.kind] for c in cards.values()])
        if len(_HAND_OPTIONS) >= 8192:
            _HAND_OPTIONS.clear()
        _HAND_OPTIONS[key] = hit
    return hit


#: a missing card's values: minus infinity, whatever the weight and bonus
_NO_CARD = (-np.inf,) * 4
_MULTIPLIERS: dict[int, tuple[BrawlRules, list[int]]] = {}


def _zone_multipliers(rules: BrawlRules) -> list[int]:
    """Every playable zone's yard multiplier (per ruleset, looked up once)."""
    hit = _MULTIPLIERS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_MULTIPLIERS) > 256:
            _MULTIPLIERS.clear()
        hit = _MULTIPLIERS[id(rules)] = (rules, [rules.multipliers[z[0]] for z in PLAYABLE])
    return hit[1]


_EFFECTS: dict[int, tuple[BrawlRules, dict[str, tuple[str, str, str, str]]]] = {}


def _region_effects(rules: BrawlRules) -> dict[str, tuple[str, str, str, str]]:
    """Every position's effects in the regions D, M, S, B (per ruleset, looked up once)."""
    hit = _EFFECTS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_EFFECTS) > 256:
            _EFFECTS.clear()
        table: dict[str, tuple[str, str, str, str]] = {
            name: (p.effects["D"], p.effects["M"], p.effects["S"], p.effects["B"]) for name, p in rules.positions.items()
        }
        hit = _EFFECTS[id(rules)] = (rules, table)
    return hit[1]


@lru_cache(maxsize=4096)
def _variance(card: Card, effect: str, strong: int, weak: int) -> float:
    mean = _expected(card, effect, strong, weak)
    vals = range(card.lo, card.hi + 1)
    f = (lambda v: v * strong) if effect == "S" else (lambda v: v // weak) if effect == "W" else (lambda v: v)
    return sum((f(v) - mean) ** 2 for v in vals) / len(vals)


_STATS: dict[tuple[str, str, int, int], tuple[float, float]] = {}


def _stats(code: str, card: Card, effect: str, strong: int, weak: int) -> tuple[float, float]:
    """:func:`_expected` and :func:`_variance` of ``card`` (whose code is ``code``), looked up by code."""
    key = (code, effect, strong, weak)
    hit = _STATS.get(key)
    if hit is None:
        if len(_STATS) >= 4096:
            _STATS.clear()
        hit = _STATS[key] = (_expected(card, effect, strong, weak), _variance(card, effect, strong, weak))
    return hit


def card_value(rules: BrawlRules, card: Card, position: str, zone: str) -> float:
    return _expected(card, rules.effect(position, zone), rules.strong_factor, rules.weak_divisor)


def average_card(rules: BrawlRules, roster: dict[str, str]) -> list[float]:
    """Average expected value one card of a random player of ``roster`` adds to each zone."""
    out = []
    for z in PLAYABLE:
        total = 0.0
        for pos in roster.values():
            deck = [parse_card(c) for c in rules.positions[pos].deck]
            total += sum(card_value(rules, c, pos, z) for c in deck) / len(deck)
        out.append(total / len(roster) * min(1.0, len(roster) / _N))
    return out


@lru_cache(maxsize=64)
def _regions_key(key: tuple[tuple[str, int], ...]) -> tuple[tuple[Any, int], ...]:
    by_mult = sorted(key, key=lambda rm: -rm[1])
    return tuple((np.array([i for i, z in enumerate(PLAYABLE) if z[0] == reg]), m) for reg, m in by_mult)


def _regions(multipliers: dict[str, int]) -> tuple[tuple[Any, int], ...]:
    """Zone rows of each region, highest multiplier first."""
    return _regions_key(tuple(sorted(multipliers.items())))


@lru_cache(maxsize=64)
def _region_table(key: tuple[tuple[str, int], ...]) -> tuple[Any, Any]:
    """:func:`_regions` as arrays: each region's zone columns (padded with column ``_N``, which holds
    ones) and its multiplier, highest multiplier first."""
    regions = _regions_key(key)
    width = max(len(members) for members, _ in regions)
    columns = np.array([[*members.tolist(), *[_N] * (width - len(members))] for members, _ in regions])
    return columns, np.array([float(m) for _, m in regions])


def soft_values(mu: Any, sigma: Any, comp: Any, risk: Any, multipliers: dict[str, int], cap: float) -> tuple[Any, Any, Any]:
    """Expected series value to the offense, in yards, for a batch of projections.

    Each row gives every zone's projected margin ``mu`` (offense - defense; ``sigma`` its
    uncertainty), whether the offense's cards there are all Focus (``comp``) and whether
    both sides' cards are of one kind (``risk``).  Value = connected leads (through the X
    or completions) x the expected best multiplier, less sacks, less the turnover risk.
    Returns the values, the gain before turnovers (``A``) and each zone's chance that the
    offense leads (``p``): a zone's turnover risk is worth ``(A + T) x keep x (1 - p)``."""
    ndtr = _ndtr()
    z = mu / sigma
    p = ndtr(z)
    eplus = mu * p + sigma * np.exp(-0.5 * z * z) * _INV_SQRT_2PI
    cond = eplus / np.maximum(p, 1e-9)
    padded = np.zeros((mu.shape[0], _N + 1))
    conn = p * (comp | _START_MASK)
    for _ in range(_SWEEPS):
        padded[:, :_N] = conn
        conn = np.maximum(conn, p * np.maximum.reduce(padded[:, _NBR_T], axis=1))  # (max is exact: any order)
    # the expected best multiplier: region by region (highest first), the chance that no zone of a higher
    # region connected x that one of this region's did x its multiplier (one array operation per step, the
    # products and sums taken in the same order as region by region)
    columns, mults = _region_table(tuple(sorted(multipliers.items())))
    padded[:, :_N] = 1.0 - conn
    padded[:, _N] = 1.0
    miss = np.multiply.reduce(padded[:, columns], axis=2)  # rows x regions: no zone of the region connects
    regions = miss.shape[1]
    before = np.empty((mu.shape[0], regions))
    before[:, 0] = 1.0
    before[:, 1:] = miss[:, :-1]
    terms = np.multiply.accumulate(before, axis=1) * (1.0 - miss) * mults
    expected_mult = terms[:, 0].copy()
    for j in range(1, regions):
        expected_mult += terms[:, j]
    yards = np.minimum(np.add.reduce(conn * cond, axis=1) * expected_mult, cap)
    gain = yards * (1.0 - np.multiply.reduce(1.0 - p[:, _BACK_LIST], axis=1))
    keep = np.multiply.reduce(np.where(risk, p, 1.0), axis=1)
    return gain * keep - TURNOVER_YARDS * (1.0 - keep), gain, p


#: the values a placement reads off :func:`soft_values` (each row's value to this side, the base row's chance of
#: leading each zone, its gain before turnovers), by the projection they came from
_SOFT: dict[tuple[Any, ...], tuple[list[float], list[float], float]] = {}
_SOFT_MAX = 4096


class DefaultBot(SeededBot):
    """Projected-totals lookahead with an assignment solve (see the module doc)."""

    name = "default"

    def choose(self, state: GameState[Any], seat: str) -> Action:
        assert isinstance(state, BrawlState)
        if state.decision(seat) == Decision.FOURTH_DOWN:
            return self.fourth_down(state, seat)
        return self.place(state, seat, decision_rng(self.seed, state, seat))

    # ------------------------------------------------------------ 4th down
    def fourth_down(self, state: Any, seat: str) -> FourthDown:
        r = state.rules
        options = state.fourth_options()
        yards = state.series_score.yards if state.series_score else 0
        spot = state.fourth_spot
        chance = r.field_goal_chance(state.field_goal_distance()) if FourthOption.FIELD_GOAL in options else None
        behind = state.score[state.defense] - state.score[seat]
        if state.round >= r.rounds:
            if behind > 0 and (chance is None or behind > r.field_goal_points):
                return FourthDown(FourthOption.GO_FOR_IT)
            if chance is not None and behind >= 0:
                return FourthDown(FourthOption.FIELD_GOAL)
        if chance is not None and chance >= 65:
            return FourthDown(FourthOption.FIELD_GOAL)
        if yards >= r.first_down_yards // 2 or (2 * spot >= r.field_length and yards >= 3):
            return FourthDown(FourthOption.GO_FOR_IT)
        if chance is not None and chance >= 40:
            return FourthDown(FourthOption.FIELD_GOAL)
        return FourthDown(FourthOption.PUNT)

    # ------------------------------------------------------------ placement
    def place(self, state: Any, seat: str, rng: random.Random) -> Placement:
        r: BrawlRules = state.rules
        unit = state.unit(seat)
        offense = unit == "offense"
        mine_roster = state.roster(seat)
        their_roster = r.roster("defense" if offense else "offense")
        left = state.plays_in_series - state.play_no + 1  # plays still to come, this one included
        mine_avg = average_card_cached(r, tuple(mine_roster.items()))
        their_avg = average_card_cached(r, tuple(their_roster.items()))
        # revealed totals (unrolled Agility at its expectation), spread and card kinds
        cur = {"offense": [0.0] * _N, "defense": [0.0] * _N}
        var = [CARD_VAR * (2 * left - 1)] * _N
        kinds: dict[str, list[list[str]]] = {"offense": [[] for _ in range(_N)], "defense": [[] for _ in range(_N)]}
        strong, weak = r.strong_factor, r.weak_divisor
        zones = state.zones
        for i, z in enumerate(PLAYABLE):
            for u in ("offense", "defense"):
                cu, ku = cur[u], kinds[u][i]
                for pc in zones[z][u]:
                    card = pc.card
                    if pc.value is not None:
                        cu[i] += pc.value
                    else:
                        mean, spread = _stats(card.code, card, pc.effect, strong, weak)
                        cu[i] += mean
                        var[i] += spread
                    ku.append(card.kind)
        sign = 1.0 if offense else -1.0
        mu = []
        for i in range(_N):
            me = cur[unit][i] + mine_avg[i] * left  # my card this play at its average, for the weights
            them = cur["defense" if offense else "offense"][i] + their_avg[i] * left
            mu.append(sign * (me - them))
        opur = [purity(k) for k in kinds["offense"]]
        dpur = [purity(k) for k in kinds["defense"]]
        comp_l = [p == "F" for p in opur]
        risk_l = [p in ("F", "S") and p == d for p, d in zip(opur, dpur, strict=True)]
        mult = _zone_multipliers(r)
        cap = float(state.to_goal + 10)
        # a pure function of these (the same projection recurs: every series' first play, say)
        key = (sign, tuple(mu), tuple(var), tuple(comp_l), tuple(risk_l), tuple(mult), cap)
        hit = _SOFT.get(key)
        if hit is None:
            # rows: 0 base; 1..N one more point in zone i; N+1..2N completion flag toggled
            mu_rows = np.empty((2 * _N + 1, _N))
            mu_rows[:] = mu
            mu_rows[1 : _N + 1] += _STEP[sign]
            comp_rows = np.empty((2 * _N + 1, _N), dtype=bool)
            comp_rows[:] = comp_l
            comp_rows[_N + 1 :] ^= _EYE_BOOL
            risk_rows = np.empty((2 * _N + 1, _N), dtype=bool)
            risk_rows[:] = risk_l
            sigma = np.sqrt(np.array(var)) + 0.5
            raw, gain, p_lead = soft_values(mu_rows, sigma, comp_rows, risk_rows, r.multipliers, cap)
            if len(_SOFT) >= _SOFT_MAX:
                _SOFT.clear()
            hit = _SOFT[key] = ((raw * sign).tolist(), p_lead[0].tolist(), float(gain[0]))
        vals, lead, gain0 = hit
        base = vals[0]
        keep = 1.0
        for i in range(_N):
            if risk_l[i]:
                keep *= lead[i]
        keep_others = [keep / lead[i] if risk_l[i] and lead[i] > 1e-9 else keep for i in range(_N)]
        noise = [rng.random() * 1e-3 for _ in range(_N)]
        weights = [
            max(vals[1 + i] - base, 0.0) / DELTA + BASE_WEIGHT * (mult[i] + 1) + noise[i] for i in range(_N)
        ]
        # what a zone's completion chance and turnover chance are worth (to this side)
        comp_gain = [abs(vals[_N + 1 + i] - base) if offense and opur[i] in (EMPTY, "F") else 0.0 for i in range(_N)]
        risk_gain = [(gain0 + TURNOVER_YARDS) * keep_others[i] * (1.0 - lead[i]) for i in range(_N)]
        commit = 1.0 if left == 1 else 0.4
        bonus = self._kind_bonuses(offense, opur, dpur, comp_l, risk_l, comp_gain, risk_gain, commit)
        players = list(mine_roster)
        hand = state.hands[seat]
        region_effects = _region_effects(r)
        # every player's distinct cards (hand order), each one's value by region and kind; then per zone the
        # score of each: weight x value + the kind's bonus, and each player's best card per zone
        options = [_hand_options(hand[name], region_effects[mine_roster[name]], strong, weak) for name in players]
        option_codes = [codes for codes, _, _ in options]
        width = max([1, *map(len, option_codes)])
        values: list[tuple[float, ...]] = []
        kind_rows: list[int] = []
        for codes, vals_, kinds_ in options:
            values += vals_
            kind_rows += kinds_
            for _ in range(width - len(codes)):  # no such card: never the best (a weight is always > 0)
                values.append(_NO_CARD)
                kind_rows.append(0)
        bonus_rows = np.array([bonus["S"], bonus["A"], bonus["F"]])
        flat = np.array(values)
        scores = (flat[:, _REGION_AT] * np.array(weights) + bonus_rows[kind_rows]).reshape(len(players), width, _N)
        matrix = scores.max(axis=1)
        choice = scores.argmax(axis=1).tolist()
        rows, cols = _lsa()(matrix, maximize=True)
        slots: list[CardPlay | None] = [None] * _N
        for pi, zi in zip(rows.tolist(), cols.tolist(), strict=True):
            slots[zi] = card_play(players[pi], option_codes[pi][choice[pi][zi]], PLAYABLE[zi])  # its best card there
        return Placement.in_zone_order(tuple([cp for cp in slots if cp is not None]))


    @staticmethod
    def _kind_bonuses(
        offense: bool, opur: list[str], dpur: list[str], comp: list[bool], risk: list[bool],
        comp_gain: list[float], risk_gain: list[float], commit: float,
    ) -> dict[str, list[float]]:
        """Per card kind (S, A, F), per zone: what playing a card of that kind there adds beyond its value -
        keeping or breaking an all-Focus zone (completions) and an all-one-kind standoff (turnovers)."""
        out: dict[str, list[float]] = {"S": [], "A": [], "F": []}
        mine, theirs = (opur, dpur) if offense else (dpur, opur)
        low = commit * 0.3
        for i in range(_N):
            m, t, rg, r = mine[i], theirs[i], risk_gain[i], risk[i]
            for kind, bonuses in out.items():
                keeps = m == EMPTY or m == kind
                exposed = (kind == "F" or kind == "S") and keeps and (t == EMPTY or t == kind)
                share = commit if t == kind else low
                b = 0.0
                if offense:
                    if kind == "F":
                        b += comp_gain[i] * commit if keeps else 0.0
                    elif comp[i]:
                        b -= comp_gain[i]
                    if exposed:
                        b -= rg * share
                    elif r:
                        b += rg
                elif exposed:
                    b += rg * share
                elif r:
                    b -= rg
                bonuses.append(b)
        return out


_AVG_CACHE: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[BrawlRules, list[float]]] = {}


def average_card_cached(rules: BrawlRules, roster: tuple[tuple[str, str], ...]) -> list[float]:
    key = (id(rules), roster)
    hit = _AVG_CACHE.get(key)
    if hit is None or hit[0] is not rules:
        if len(_AVG_CACHE) > 256:
            _AVG_CACHE.clear()
        hit = _AVG_CACHE[key] = (rules, average_card(rules, dict(roster)))
    return hit[1]
