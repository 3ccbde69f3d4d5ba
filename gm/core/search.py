"""Monte-Carlo tree search over the game contract: the ``search`` bot every game gets (``bot:search``).

Information-set MCTS with determinization (Cowling, Powley and Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 2012, its single-observer form).  Each iteration draws one world the searching
seat may believe in (:meth:`GameState.determinizer <gm.core.state.GameState.determinizer>`: what the seat
cannot see is drawn afresh, consistently with what it has seen, and the dice to come are reseeded, so the
search never knows them), walks the one tree down that world by UCB1 - counting, for every move, the
iterations in which it was available, since worlds differ in what is legal - grows the tree by one node,
plays on with the rollout policy and backs up what each seat got.  The move played is the root's most
visited one (ties drawn from the bot's seed).

Simultaneous picks are handled as the engine handles them: the seats of a round choose one after the
other, each from statistics of its own kept at the round's node and unaffected by what the others picked
before it (decoupled UCT: a pick made in a round is locked, so the next seat of the round must not see
it); the child is keyed by the round's picks together.

Large or unlisted action spaces (an :class:`~gm.core.state.ActionSpace`, a long list) are searched by
progressive widening: a node considers ``ceil(WIDEN * visits ** ALPHA)`` moves, drawn as it grows - the
game's proposal first (a ``prior``, e.g. its default bot), then uniformly (or by the game's ``sampler``).

Budget per decision: ``iters`` iterations and/or ``ms`` milliseconds (``bot:search?iters=200``,
``bot:search?ms=200``).  With an iteration budget the choice is a function of the bot's seed and what its
seat may see; a time budget trades that for a steady pace.  A game may tune its search by naming its own
``search`` bot made with :func:`search_factory` (an evaluation that cuts rollouts short, a better rollout
policy, a prior); a game that names none - a plugin included - gets the plain one for free.

This module also holds the contract's defaults for copying a game (:func:`deep_clone`) and for drawing the
worlds a seat may believe in from the log (:func:`log_determinizer`).
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
import time
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.actions import Action, Move
from gm.core.errors import GameError

if TYPE_CHECKING:
    from gm.core.state import GameState

#: what an evaluation says of a position: seat -> its expected result, 0 (loss) to 1 (win)
Values = Mapping[str, float]
#: an evaluation of a position that is not over (from what is on the board: no secret is read)
Evaluate = Callable[["GameState[Any]"], Values]
#: a policy: the move ``seat`` makes in ``state``, drawn with ``rng``
Policy = Callable[["GameState[Any]", str, random.Random], Action]

#: progressive widening: a node with ``n`` visits considers ``ceil(WIDEN * (n + 1) ** ALPHA)`` moves
WIDEN, ALPHA = 2.0, 0.5
#: a seat's listed moves up to this many are all considered at once; more are widened into
LIST_MAX = 48
#: the UCB1 exploration constant (results are 0..1)
EXPLORE = 1.0
#: rollouts without an evaluation play to the end, but no further than this (then scored as a draw)
ROLLOUT_CAP = 3000
#: attempts at drawing a world consistent with what the seat has seen, before hidden moves are enumerated
DRAW_TRIES = 64


class SearchError(GameError):
    """The search could not make a choice (no world consistent with the seat's view was found)."""


# ----------------------------------------------------------------------------- copying a game
_SHARED: dict[tuple[type, int], tuple[Any, dict[int, Any]]] = {}
_SHARED_MAX = 32
_ATOMIC = (int, float, str, bool, bytes, type(None))


def _shared_objects(a: Any, b: Any, depth: int, out: dict[int, Any]) -> None:
    """Objects ``a`` and ``b`` (two fresh games) both hold, down to ``depth`` levels of attributes."""
    da, db = getattr(a, "__dict__", None), getattr(b, "__dict__", None)
    if not isinstance(da, dict) or not isinstance(db, dict):
        return
    for name, va in da.items():
        vb = db.get(name, _ATOMIC)
        if va is vb and not isinstance(va, _ATOMIC):
            out[id(va)] = va
        elif depth > 1 and type(va) is type(vb) and hasattr(va, "__dict__"):
            _shared_objects(va, vb, depth - 1, out)


def _shared_by_fresh_games(state: GameState[Any]) -> dict[int, Any]:
    """What two fresh games of ``state``'s ruleset share: tables built once per ruleset.  No move can change
    one (it would change every game played with that ruleset), so a copy may share it."""
    # speed seam: shared-tables - found once per ruleset (two fresh games made and compared) and kept by
    # the ruleset object's identity (the entry holds the ruleset, so its id cannot be reused while kept),
    # not again for each of the thousands of clones a search makes: 5-15% of a search decision's time
    key = (type(state), id(state.rules))
    found = _SHARED.get(key)
    if found is not None and found[0] is state.rules:
        return found[1]
    game = state.game
    a, b = game.new_state(state.rules, 0), game.new_state(state.rules, 1)
    out: dict[int, Any] = {id(state.rules): state.rules}
    _shared_objects(a, b, 3, out)
    if len(_SHARED) >= _SHARED_MAX:
        _SHARED.clear()
    _SHARED[key] = (state.rules, out)
    return out


def deep_clone(state: GameState[Any], copied: Mapping[int, Any] | None = None) -> GameState[Any]:
    """An independent copy of ``state`` (the default :meth:`GameState.clone`): a deep copy that shares what
    no move changes - the ruleset, the log's moves (frozen values) and the tables two fresh games of the
    same ruleset share.  ``copied``: parts the game has already copied its own faster way
    (``id(original) -> copy``).  (The ``id()`` keys are :func:`copy.deepcopy`'s own memo, its documented
    way to be told what is copied already: no cache, it lives for this one copy.)"""
    memo = dict(_shared_by_fresh_games(state))
    if copied:
        memo.update(copied)
    for move in state.log:
        memo[id(move)] = move
    return copy.deepcopy(state, memo)


# ----------------------------------------------------------------------------- worlds a seat may believe in
def reseed_from(state: GameState[Any], rng: random.Random) -> GameState[Any]:
    """``state`` with its chance to come drawn from ``rng`` (a searched future must not know the real dice)."""
    state.reseed(rng.getrandbits(63))
    return state


def _hidden_from(state: GameState[Any], seat: str) -> bool:
    """Whether anything of the game as it stands is hidden from ``seat`` (its view redacts the snapshot)."""
    return bool(state.view(seat) != state.snapshot())


@dataclass(frozen=True)
class _Hidden:
    """A move of the log ``seat`` cannot see: a pick still locked (drawn among all the mover's moves then),
    or a public move that still carries a secret (drawn among the moves that read the same)."""

    index: int
    public: str | None  # None: a locked pick


def hidden_moves(state: GameState[Any], seat: str) -> tuple[GameState[Any], list[Move | _Hidden]]:
    """The game up to the first move of the log ``seat`` cannot see, and the log from there on: the moves
    it sees as they are, the others as :class:`_Hidden`.  A pick is locked from ``seat`` while it is still
    to choose in the same round (the engine reveals a round when every seat of it has chosen); a move
    listed by :meth:`GameState.secret_moves` is seen only as its public text."""
    log = state.log
    secret = {i for i in state.secret_moves() if log[i].seat != seat}
    mine = max((i for i, m in enumerate(log) if m.seat == seat), default=-1)
    first = min([*secret, mine + 1])
    prefix = state.game.new_state(state.rules, state.seed)
    for move in log[:first]:
        prefix.apply(move.seat, move.action)
    rest: list[Move | _Hidden] = []
    walk = deep_clone(prefix)
    for i in range(first, len(log)):
        move = log[i]
        if i in secret:
            rest.append(_Hidden(i, move.action.public_text()))
        elif move.seat != seat and seat in walk.to_act():
            rest.append(_Hidden(i, None))  # chosen while the seat still had to choose: locked from it
        else:
            rest.append(move)
        walk.apply(move.seat, move.action)
    return prefix, rest


#: the most moves listed to find those that read as a move carrying a secret does
SAME_READING_MAX = 5000


def _draw_hidden(state: GameState[Any], mover: str, hidden: _Hidden, rng: random.Random, model: Policy | None) -> Action | None:
    """A move ``mover`` could have made in ``state`` that reads as ``hidden`` does to the other seats: a
    locked pick drawn by ``model`` (default: uniformly among the mover's legal moves); a move carrying a
    secret drawn uniformly among the legal moves that read the same."""
    legal = state.legal_actions(mover)
    if hidden.public is None:
        if model is not None:
            return model(state, mover, rng)
        return legal.sample(rng) if legal else None
    same = [a for _, a in zip(range(SAME_READING_MAX), legal, strict=False) if a.public_text() == hidden.public]
    return same[rng.randrange(len(same))] if same else None


def log_determinizer(state: GameState[Any], seat: str, model: Policy | None = None) -> Callable[[random.Random], GameState[Any]]:
    """The default :meth:`GameState.determinizer`: worlds ``seat`` may believe in, drawn from the log.

    What the seat cannot see of the log is drawn afresh: another seat's pick still locked by ``model`` (a
    policy standing in for that seat; default: uniformly among its legal moves then), a public move still
    carrying a secret uniformly among the moves that read the same; the log is played on from there (with
    the game's own generator: the draws it makes there are the ones the seat saw made), and a world in which
    a later move the seat saw would be illegal is drawn again.  Chance to come is then reseeded from the
    caller's generator.  A game with hidden information outside its log (cards dealt from a shuffled deck)
    overrides the hook."""
    if not _hidden_from(state, seat):
        base = state.clone()
        return lambda rng: reseed_from(base.clone(), rng)
    prefix, rest = hidden_moves(state, seat)
    if not any(isinstance(m, _Hidden) for m in rest):
        base = state.clone()
        return lambda rng: reseed_from(base.clone(), rng)
    movers = [state.log[m.index].seat if isinstance(m, _Hidden) else m.seat for m in rest]

    def draw(rng: random.Random) -> GameState[Any]:
        for attempt in range(DRAW_TRIES):
            world = prefix.clone()
            for move, mover in zip(rest, movers, strict=True):
                if isinstance(move, _Hidden):
                    act = _draw_hidden(world, mover, move, rng, model if attempt < DRAW_TRIES // 2 else None)
                    if act is None:
                        break
                else:
                    act = move.action
                try:
                    world.apply(mover, act)
                except GameError:
                    break
            else:
                return reseed_from(world, rng)
        raise SearchError(f"no game consistent with what {seat} has seen was drawn", rule="CORE-BOT")

    return draw


# ----------------------------------------------------------------------------- the tree
@dataclass(slots=True)
class _Edge:
    """One seat's move at a node: visits, total result, and iterations in which it was available."""

    visits: int = 0
    total: float = 0.0
    avail: int = 0


@dataclass(slots=True)
class _Node:
    """A position of the tree (one per sequence of rounds' picks): each seat's moves tried here, and the
    children by the round's picks."""

    edges: dict[str, dict[Hashable, _Edge]] = field(default_factory=dict)
    moves: dict[str, dict[Hashable, Action]] = field(default_factory=dict)
    children: dict[tuple[Hashable, ...], _Node] = field(default_factory=dict)
    visits: int = 0


def _key(action: Action) -> Hashable:
    try:
        hash(action)
    except TypeError:  # (an action that is not a hashable value: keyed by its text)
        return str(action)
    return action


def outcome_values(state: GameState[Any]) -> dict[str, float]:
    """What each seat got from a finished game: 1 the winner, 0 the others; a draw ``1 / seats`` each."""
    seats = state.seats
    out = state.outcome
    if out is None or out.winner is None:
        return dict.fromkeys(seats, 1.0 / len(seats))
    return {s: 1.0 if s == out.winner else 0.0 for s in seats}


def uniform_policy(state: GameState[Any], seat: str, rng: random.Random) -> Action:
    """A move drawn uniformly from ``seat``'s legal moves (a space is drawn from without listing it)."""
    return state.legal_actions(seat).sample(rng)


def random_bot_policy(game: Any) -> Policy:
    """The game's ``random`` bot as a policy (a fresh one seeded from the generator for every move), or a
    uniform draw from the legal moves when the game has none."""
    factory = game.bots().get("random")
    if factory is None:
        return uniform_policy

    def policy(state: GameState[Any], seat: str, rng: random.Random) -> Action:
        action: Action = factory(seed=rng.getrandbits(32)).choose(state, seat)
        return action

    return policy


def _derived_seed(*parts: object) -> int:
    return int.from_bytes(hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class SearchTuning:
    """How a game tunes the search bot (its ``SEARCH``, :meth:`gm.core.game.Game.search_hints`): an evaluation
    that scores a rollout after ``depth`` moves, a rollout policy, a prior proposing moves where there are too
    many to list, which decisions are never listed (``wide``: their moves are proposed and drawn), a model
    of the other seats drawing their locked picks, a cheap sampler of a legal move (instead of a uniform
    draw from a space that is costly to build), and the iterations of a decision when the spec names no
    budget."""

    evaluate: Evaluate | None = None
    rollout: Policy | None = None
    prior: Policy | None = None
    wide: Callable[[GameState[Any], str], bool] | None = None
    model: Policy | None = None
    sampler: Policy | None = None
    iters: int = 200
    depth: int = 30


class SearchBot:
    """Information-set Monte-Carlo tree search (see the module docstring).  ``iters``: iterations per
    decision; ``ms``: milliseconds per decision (either or both; default: the game's iterations); ``depth``:
    moves a rollout plays before ``evaluate`` scores it (an unfinished game without an evaluation scores as
    a draw; default: the game's depth with an evaluation, else to the end); ``c``: the exploration
    constant; ``tuning``: the game's (:class:`SearchTuning`)."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        *,
        iters: int | None = None,
        ms: float | None = None,
        depth: int | None = None,
        c: float = EXPLORE,
        tuning: SearchTuning = SearchTuning(),
    ) -> None:
        self.seed = seed
        self.tuning = tuning
        self.iters = iters if iters is not None or ms is not None else tuning.iters
        self.ms = ms
        # a rollout's length: as asked; else the game's depth when it has an evaluation, else to the end
        self.depth = depth if depth is not None else tuning.depth if tuning.evaluate is not None else ROLLOUT_CAP
        self.c = c
        #: the rollout policy: the game's, else (from the first decision) the game's own random bot
        self.rollout = tuning.rollout
        #: what the last decision did: iterations made, the root's moves with their visits and mean results
        self.last: dict[str, Any] = {}

    # ------------------------------------------------------------------ the decision
    def choose(self, state: GameState[Any], seat: str) -> Action:
        legal = state.legal_actions(seat)
        if not legal.is_space and len(legal) == 1:
            return legal[0]
        rng = random.Random(_derived_seed("search", self.seed, seat, len(state.log)))
        try:
            sample = state.determinizer(seat, self.tuning.model)
        except SearchError:  # (no consistent world: a uniform move, from what the seat sees)
            return legal.sample(rng)
        if self.rollout is None:  # the game's own random bot plays rollouts (it knows the cheap way to draw a move)
            self.rollout = random_bot_policy(state.game)
        root = _Node()
        start = time.perf_counter()
        deadline = None if self.ms is None else start + self.ms / 1000.0
        made = 0
        while True:
            if self.iters is not None and made >= self.iters:
                break
            if deadline is not None and made > 0 and time.perf_counter() >= deadline:
                break
            try:
                world = sample(rng)
            except SearchError:
                if made == 0:
                    return legal.sample(rng)
                break
            self._iterate(root, world, rng)
            made += 1
        return self._best(root, seat, state, rng, made)

    def _best(self, root: _Node, seat: str, state: GameState[Any], rng: random.Random, made: int) -> Action:
        edges = root.edges.get(seat, {})
        moves = root.moves.get(seat, {})
        ranked = sorted(edges.items(), key=lambda kv: kv[1].visits, reverse=True)
        self.last = {
            "iterations": made,
            "moves": [(str(moves[k]), e.visits, e.total / e.visits if e.visits else 0.0) for k, e in ranked[:10]],
        }
        legal = state.legal_actions(seat)
        ranked = [(k, e) for k, e in ranked if moves[k] in legal]  # (a move of an imagined world only: never)
        if not ranked:
            return legal.sample(rng)
        top = ranked[0][1].visits
        best = [k for k, e in ranked if e.visits == top]
        # ties: the better mean, then a draw from the bot's generator
        means = {k: edges[k].total / max(edges[k].visits, 1) for k in best}
        hi = max(means.values())
        pick = [k for k in best if means[k] == hi]
        return moves[pick[rng.randrange(len(pick))] if len(pick) > 1 else pick[0]]

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, root: _Node, world: GameState[Any], rng: random.Random) -> None:
        """Down the tree by the rounds' picks until a pick or a round not tried before (a new node), then a
        rollout; what each seat got is added to every pick on the way."""
        path: list[tuple[_Node, str, Hashable]] = []
        node = root
        while not world.is_terminal:
            picks: list[Hashable] = []
            for seat in world.to_act():  # (the round: each seat from its own statistics, as the engine takes them)
                if world.is_terminal or seat not in world.to_act():
                    continue
                key, action = self._select(node, world, seat, rng)
                world.apply(seat, action)
                path.append((node, seat, key))
                picks.append(key)
            node.visits += 1
            child = node.children.get(tuple(picks))
            if child is None:
                node.children[tuple(picks)] = _Node()
                break
            node = child
        values = self._playout(world, rng)
        for n, seat, key in path:
            e = n.edges[seat][key]
            e.visits += 1
            e.total += values.get(seat, 0.0)

    def _select(self, node: _Node, world: GameState[Any], seat: str, rng: random.Random) -> tuple[Hashable, Action]:
        """``seat``'s move at ``node`` in this world: an untried available move (drawn), else the best by UCB1
        over the moves available here (each counts the iterations it was available in)."""
        edges = node.edges.setdefault(seat, {})
        moves = node.moves.setdefault(seat, {})
        if self.tuning.wide is not None and self.tuning.wide(world, seat):  # (too many to list: never listed)
            legal, listed = None, None
        else:
            legal = world.legal_actions(seat)
            listed = None if legal.is_space else legal.all()
        if listed is not None and len(listed) <= LIST_MAX:
            available = []
            for a in listed:
                k = _key(a)
                if k not in edges:
                    edges[k] = _Edge()
                    moves[k] = a
                available.append(k)
        else:
            available = self._widen(node, world, seat, legal, listed, edges, moves, rng)
        for k in available:
            edges[k].avail += 1
        untried = [k for k in available if edges[k].visits == 0]
        if untried:
            k = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            return k, moves[k]
        c = self.c
        best_k: Hashable = available[0]
        best_v = -math.inf
        for k in available:
            e = edges[k]
            v = e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
            if v > best_v:
                best_k, best_v = k, v
        return best_k, moves[best_k]

    def _widen(
        self,
        node: _Node,
        world: GameState[Any],
        seat: str,
        legal: Any,
        listed: tuple[Action, ...] | None,
        edges: dict[Hashable, _Edge],
        moves: dict[Hashable, Action],
        rng: random.Random,
    ) -> list[Hashable]:
        """The moves considered at a node whose seat has too many to list (progressive widening): those drawn
        so far that are legal in this world, and one more while the node's visits allow - the prior's
        proposal first, then draws (the game's sampler, else a uniform draw from the legal moves)."""
        if listed is not None:
            keys = {_key(a) for a in listed}
            available = [k for k in edges if k in keys]
        else:
            available = [k for k in edges if world.is_legal(seat, moves[k])]
        if len(edges) < math.ceil(WIDEN * (node.visits + 1) ** ALPHA) or not available:
            for attempt in range(4):
                if self.tuning.prior is not None and attempt == 0 and not edges:
                    act = self.tuning.prior(world, seat, rng)
                elif self.tuning.sampler is not None:
                    act = self.tuning.sampler(world, seat, rng)
                else:
                    if legal is None:
                        legal = world.legal_actions(seat)
                    act = legal.sample(rng)
                k = _key(act)
                if k not in edges:
                    edges[k] = _Edge()
                    moves[k] = act
                    available.append(k)
                    break
                if k not in available and (listed is not None or world.is_legal(seat, moves[k])):
                    available.append(k)
                    break
        return available

    # ------------------------------------------------------------------ rollout
    def _playout(self, world: GameState[Any], rng: random.Random) -> Mapping[str, float]:
        policy = self.rollout or uniform_policy
        limit = self.depth
        made = 0
        while not world.is_terminal and made < limit:
            seat = world.to_act()[0]
            world.apply(seat, policy(world, seat, rng))
            made += 1
        if world.is_terminal:
            return outcome_values(world)
        if self.tuning.evaluate is not None:
            return self.tuning.evaluate(world)
        return dict.fromkeys(world.seats, 1.0 / len(world.seats))


# ----------------------------------------------------------------------------- making the bot from a spec
PARAMS: dict[str, Callable[[str], Any]] = {"iters": int, "ms": float, "depth": int, "c": float}
_BOUNDS: dict[str, tuple[float, float]] = {"iters": (1, 1_000_000), "ms": (1, 600_000), "depth": (0, 100_000), "c": (0, 100)}


def read_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """The search bot's parameters from a spec (``iters``, ``ms``, ``depth``, ``c``): numbers in their bounds,
    or :class:`GameError` (``CORE-BOT``) naming what would be right."""
    out: dict[str, Any] = {}
    for name, raw in params.items():
        conv = PARAMS.get(name)
        if conv is None:
            raise GameError("the search bot takes iters, ms, depth and c", rule="CORE-BOT", input=f"{name}={raw}",
                            legal=[f"{p}=N" for p in PARAMS])
        try:
            value = conv(str(raw))
        except ValueError:
            raise GameError(f"{name} is a number", rule="CORE-BOT", input=f"{name}={raw}", legal=[f"{name}=N"]) from None
        lo, hi = _BOUNDS[name]
        if not lo <= value <= hi or (isinstance(value, float) and math.isnan(value)):
            raise GameError(f"{name} is from {lo:g} to {hi:g}", rule="CORE-BOT", input=f"{name}={raw}", legal=[f"{name}=N"])
        out[name] = value
    return out


def search_factory(**hints: Any) -> Callable[..., SearchBot]:
    """A ``search`` bot factory tuned for one game (its ``bots()`` names it ``search``): ``hints`` are the
    fields of :class:`SearchTuning` (a game's ``SEARCH``)."""
    tuning = SearchTuning(**hints)

    def make(seed: int = 0, **params: Any) -> SearchBot:
        return SearchBot(seed, tuning=tuning, **read_params(params))

    make.params = tuple(PARAMS)  # type: ignore[attr-defined]
    return make


#: the plain search bot, for a game that names none of its own
make_search_bot = search_factory()


def policy_of(factory: Callable[..., Any], seed: int = 0) -> Policy:
    """A bot made by ``factory`` as a policy (its ``choose``), e.g. a game's default bot as a search's prior."""

    def policy(state: GameState[Any], seat: str, rng: random.Random) -> Action:
        bot = factory(seed=rng.getrandbits(32))
        action: Action = bot.choose(state, seat)
        return action

    return policy


__all__ = [
    "SearchBot",
    "SearchError",
    "SearchTuning",
    "deep_clone",
    "hidden_moves",
    "log_determinizer",
    "make_search_bot",
    "outcome_values",
    "policy_of",
    "read_params",
    "reseed_from",
    "search_factory",
    "uniform_policy",
]

