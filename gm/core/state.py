"""The state base class: bookkeeping shared by every game.

A game subclasses :class:`GameState` and implements the declared hooks:

- ``_setup`` – initialise the game-specific fields;
- ``_to_act`` – the seats that must act now, and ``decision(seat)`` – the kind of
  decision each faces (tools declare which decisions they answer);
- ``_legal`` – every legal action of a seat: an iterable (listed once per position), or
  an :class:`ActionSpace` for a space too large to list (enumerated lazily, counted and
  sampled without listing);
- ``_check`` – **pure**: raise :class:`IllegalActionError` with a rule id, or return a
  *plan* (any value; ``None`` is fine) that ``_apply`` carries out.  Checking never
  changes the state: whatever a check computes that the move needs is in its plan;
- ``_apply`` – carry out a checked action with its plan, return the events; never raises;
- optionally ``_turn_error`` (what a seat acting out of turn is told), ``legal_summary``
  (a short, structured list of the options for help texts), ``opening_events`` (what the
  set-up decided, said as the game opens), ``secret_moves`` and ``has_locked_picks`` (what
  of the log is still secret).

The base class validates, keeps the action log and guarantees that a rejected action
leaves the state unchanged.

State = setup (ruleset) + seed + chance generator + action log: :meth:`to_json` stores
exactly that (and any chance outcomes a source supplied) and :meth:`from_json` replays it.
Every chance result is a named draw, ``self.draw(Die("pass roll", 1, 6))``
(:mod:`gm.core.chance`): drawn from ``self.rng``, the generator the setup names seeded from
``seed``, unless a :class:`~gm.core.chance.ChanceSource` supplies it.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, cast

from gm.core.actions import Action, Move
from gm.core.chance import Chance, ChanceError, ChanceSource, Deal, Die, Draw, DrawRecord, make_generator, take
from gm.core.errors import GameError, IllegalActionError, InvalidActionError, StateError
from gm.core.events import Event
from gm.core.outcome import Outcome

if TYPE_CHECKING:
    from gm.core.game import Game

R = TypeVar("R")
T = TypeVar("T")


class ActionSpace(ABC):
    """A set of legal actions too large to list (every card of a hand into every zone): a
    game's ``_legal`` returns one instead of an iterable.  It enumerates lazily, in a fixed
    order, exactly the actions that ``_check`` accepts, counts them without listing them,
    and draws one uniformly from a seeded generator."""

    @abstractmethod
    def __len__(self) -> int:
        """How many actions the space holds (computed, not listed)."""

    @abstractmethod
    def __getitem__(self, i: int) -> Action:
        """The ``i``-th action of the enumeration order (``0 <= i < len``)."""

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]

    def page(self, offset: int, limit: int) -> tuple[Action, ...]:
        """Actions ``offset`` .. ``offset + limit - 1`` of the enumeration order."""
        n = len(self)
        return tuple(self[i] for i in range(max(0, offset), min(n, max(0, offset) + max(0, limit))))

    def sample(self, rng: random.Random) -> Action:
        """One action drawn uniformly."""
        return self[rng.randrange(len(self))]


class LegalActions:
    """A lazy view of one seat's legal actions: iterate, test membership, count, page, sample.

    Nothing is generated until it is used; ``in`` asks the rules directly, and iteration
    lists exactly the actions ``in`` accepts (a game whose space is too large to list gives
    an :class:`ActionSpace`, which the view pages through instead of listing)."""

    __slots__ = ("_at", "_cache", "_seat", "_state")

    def __init__(self, state: GameState[Any], seat: str) -> None:
        self._state = state
        self._seat = seat
        self._cache: tuple[Action, ...] | ActionSpace | None = None
        self._at = -1

    def _actions(self) -> tuple[Action, ...] | ActionSpace:
        # generated on first use and again only if the state has moved on since
        at = len(self._state.log)
        if self._cache is None or self._at != at:
            st = self._state
            if self._seat not in st.to_act():
                self._cache = ()
            else:
                legal = st._legal(self._seat)
                self._cache = legal if isinstance(legal, ActionSpace | tuple) else tuple(legal)
            self._at = at
        return self._cache

    @property
    def is_space(self) -> bool:
        """Whether the actions form an :class:`ActionSpace` (counted and paged, not listed)."""
        return isinstance(self._actions(), ActionSpace)

    def all(self) -> tuple[Action, ...]:
        """Every legal action, as a tuple (built once per position; a game's cached tuple is shared).
        For an :class:`ActionSpace` this lists the whole space: prefer :meth:`page` or :meth:`sample`."""
        acts = self._actions()
        return acts if isinstance(acts, tuple) else tuple(acts)

    def page(self, offset: int = 0, limit: int = 50) -> tuple[Action, ...]:
        """A page of the legal actions, in their enumeration order."""
        acts = self._actions()
        if isinstance(acts, ActionSpace):
            return acts.page(offset, limit)
        offset = max(0, offset)
        return acts[offset : offset + max(0, limit)]

    def sample(self, rng: random.Random) -> Action:
        """One legal action drawn uniformly with ``rng`` (``IndexError`` when there is none)."""
        acts = self._actions()
        if isinstance(acts, ActionSpace):
            return acts.sample(rng)
        return rng.choice(acts)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions())

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._state.is_legal(self._seat, action)

    def __len__(self) -> int:
        return len(self._actions())

    def __bool__(self) -> bool:
        return len(self._actions()) > 0

    def __getitem__(self, i: int) -> Action:
        return self._actions()[i]

    def __repr__(self) -> str:
        n = len(self)
        shown = ", ".join(map(str, self.page(0, 10)))
        return f"<LegalActions {self._seat} ({n}): {shown}{', ...' if n > 10 else ''}>"


class GameState(ABC, Generic[R]):
    """Base of every game's state.  ``R`` is the game's ruleset model."""

    game: ClassVar[Game[Any, Any]]
    seats: ClassVar[tuple[str, ...]]

    @classmethod
    def bind(cls, game: Game[Any, Any]) -> None:
        """Make ``game`` the game of this state class: the state's ``game`` and ``seats`` come from it
        (the seats are declared once, on the :class:`~gm.core.game.Game`, as OpenSpiel's states get
        theirs from their game).  A game package calls it once, right after making its ``GAME``."""
        cls.game = game
        cls.seats = tuple(game.seats)

    if not TYPE_CHECKING:  # (hidden from mypy, which would read every attribute as Any)

        def __getattr__(self, name: str) -> Any:
            """Only reached when normal lookup fails: a state class never bound to its game says so."""
            if name in ("game", "seats"):
                cls = type(self).__name__
                raise AttributeError(
                    f"{cls} has no game, so no {name}: its game package must call {cls}.bind(GAME) once it makes its Game"
                )
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __init__(self, rules: R, seed: int = 0, chance: Chance | str | None = None) -> None:
        self.rules = rules
        self.seed = seed
        setup = Chance.of(chance)
        #: the id of the chance generator (:data:`gm.core.chance.GENERATORS`)
        self.generator = setup.generator
        #: the seeded generator every draw comes from (a game draws through :meth:`draw`, not from it)
        self.rng: random.Random = make_generator(setup.generator, seed)
        #: how many draws the game has made
        self.draws = 0
        #: draw number -> the outcome (JSON form) a source supplied for it: part of the game's record
        self.supplied: dict[int, Any] = {}
        #: every draw made, when the setup asked for a log (``Chance(record=True)``)
        self.draw_log: list[DrawRecord] | None = [] if setup.record else None
        self._replaying = dict(setup.supplied)  # outcomes of an earlier record, supplied again by number
        self._source: ChanceSource | None = setup.source
        self._watched = bool(self._replaying) or self._source is not None or self.draw_log is not None
        self.log: list[Move] = []
        self.outcome: Outcome | None = None
        self._setup()

    # ------------------------------------------------------------------ hooks
    @abstractmethod
    def _setup(self) -> None:
        """Initialise the game-specific fields."""

    @abstractmethod
    def _to_act(self) -> tuple[str, ...]:
        """Seats that must act now (several at once for simultaneous choices)."""

    @abstractmethod
    def decision(self, seat: str) -> str | None:
        """The kind of decision ``seat`` faces now (``None`` when it has none); action tools
        declare the decisions they answer (``ToolSpec.decisions``)."""

    @abstractmethod
    def _legal(self, seat: str) -> Iterable[Action] | ActionSpace:
        """Every legal action of ``seat`` (only called when the seat must act): an iterable,
        or an :class:`ActionSpace` when the space is too large to list."""

    @abstractmethod
    def _check(self, seat: str, action: Action) -> Any:
        """Raise :class:`IllegalActionError` if ``action`` is not legal for ``seat`` now; else
        return the plan ``_apply`` carries out (any value).  Must not change the state."""

    @abstractmethod
    def _apply(self, seat: str, action: Action, plan: Any) -> list[Event]:
        """Carry out a checked action with the plan its check returned; return what happened."""

    def _turn_error(self, seat: str, action: Action) -> GameError:
        """What a seat of the game that has nothing to do now is told (override to say why, by rule)."""
        waiting = ", ".join(self._to_act())
        return IllegalActionError(
            f"{seat} has nothing to do now; waiting for {waiting}", rule="CORE-TURN", input=str(action)
        )

    def action_kinds(self, seat: str, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
        """The types (``Action.type``) of the actions ``seat`` may take now; ``wanted``: only these
        matter (the answer may stop at them).  Default: read off the legal actions (a space is walked
        lazily), stopping as soon as every wanted type was seen; a game whose legal list is costly
        answers directly."""
        if seat not in self.to_act():
            return set()
        legal = self._legal(seat)
        found: set[str] = set()
        for a in legal:
            found.add(a.type)
            if wanted is not None and wanted <= found:
                break
        return found

    def action_kinds_seen(self, seat: str, viewer: str | None, wanted: set[str] | frozenset[str] | None = None) -> set[str]:
        """The kinds of action ``viewer`` (another seat; ``None``: a spectator) is told ``seat`` may
        take now, as the tools of who-acts-next (``expected``) list them: what ``viewer`` may know,
        never more.  Default: the kinds ``seat`` has (:meth:`action_kinds`), right for a game whose
        options follow from what every seat sees; a game in which something hidden changes a seat's
        options answers from what ``viewer`` sees (the Chess-Football offense's options under either
        possible holder of a hidden ball), and its answer must not depend on the hidden thing."""
        return self.action_kinds(seat, wanted)

    def legal_summary(self, seat: str) -> list[str]:
        """The seat's options in short, for help texts and error messages: the whole list when it is
        short, else a structured summary (a game with many options overrides this)."""
        legal = self.legal_actions(seat)
        shown = [str(a) for a in legal.page(0, 20)]
        more = len(legal) - len(shown)
        return shown + ([f"... and {more} more"] if more > 0 else [])

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The full derived state as JSON-ready data (includes secret pending choices)."""

    def view(self, seat: str | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator).  Games redact secrets here."""
        return self.snapshot()

    def has_locked_picks(self) -> bool:
        """Whether a pick is locked in but not yet revealed (a token or an exported session leaves
        it out).  Default: the spectator view hides something of the snapshot; a game with secrets
        that outlast a round (hands, draw piles) says it directly."""
        return self.snapshot() != self.view(None)

    def is_out(self, seat: str) -> bool:
        """Whether ``seat`` has no more moves this game while the others play on (a blocked
        GridMaster4 colour): a front end showing a human their game can pause there and offer to
        watch or skip the rest.  Default: never."""
        return False

    def opening_events(self) -> list[Event]:
        """What the set-up decided that the players are told as the game opens (who won a coin
        toss): a session shows them before the first move.  Default: nothing."""
        return []

    def secret_moves(self) -> set[int]:
        """Log indices of moves that are public but still carry a secret (who secretly holds a
        hidden ball): until it is out, the other seats read them as ``Action.public_text()`` and a
        transcript does not record them for a bot.  Default: none."""
        return set()

    # ----------------------------------------------------------------- chance
    def draw(self, draw: Draw[T]) -> T:
        """The outcome of a chance result the rules call for (:mod:`gm.core.chance`): drawn from the
        generator, unless the chance source supplies another (checked: an impossible one raises
        :class:`~gm.core.chance.ChanceError`, and :meth:`apply` undoes the move that drew it)."""
        out = draw.generate(self.rng)
        n = self.draws
        self.draws = n + 1
        if self._watched:  # (a source, outcomes to supply again or a log: the plain game pays nothing)
            return self._watched_draw(draw, n, out)
        return out

    def roll(self, label: str, lo: int, hi: int, *, about: str = "") -> int:
        """A :class:`~gm.core.chance.Die` from ``lo`` to ``hi``: ``draw(Die(label, lo, hi, about=about))``."""
        if not self._watched:
            # speed seam: dice - nobody supplies or watches, so the draw need not be made: the
            # generator rolls as Die.generate does (brawl rolls a few dice an action: making each
            # draw cost it about 4% of its random-play speed)
            self.draws += 1
            return Die.roll(self.rng, lo, hi)
        return self.draw(Die(label, lo, hi, about=about))

    def deal(self, pile: list[T], n: int, *, about: str = "", seen_by: tuple[str, ...] = (), label: str = "deal") -> list[T]:
        """Deal ``n`` items off ``pile`` (its top is its end), top first, and take them off it: a
        :class:`~gm.core.chance.Deal` draw, so a chance source may deal others of the pile."""
        if not self._watched:
            # speed seam: deals - nobody supplies or watches, so the outcome is the pile's top
            # (Deal.top, what the draw gives, consuming no generator): the draw is counted, not made -
            # brawl deals about five times an action, and making each draw cost it a fifth of its
            # random-play speed
            self.draws += 1
            out = Deal.top(pile, n)
            if n > 0:
                del pile[-n:]
            return out
        dealt = self.draw(Deal(label, tuple(pile), n, about=about, seen_by=seen_by))
        take(pile, dealt)
        return list(dealt)

    def _watched_draw(self, draw: Draw[T], n: int, drawn: T) -> T:
        value, supplied = drawn, False
        given = self._replaying.pop(n, None) if self._replaying else None
        if given is None and self._source is not None:
            given = self._source.outcome(draw, n, drawn)
        if given is not None:
            value, supplied = draw.check(given), True
            self.supplied[n] = draw.to_json(value)
        if self.draw_log is not None:  # (a shuffle's outcome becomes the pile the game deals from: kept as it came out)
            self.draw_log.append(DrawRecord(n, draw, tuple(drawn) if isinstance(drawn, list) else drawn,
                                            tuple(value) if isinstance(value, list) else value, supplied))
        return value

    @property
    def chance_source(self) -> ChanceSource | None:
        """Where outcomes may come from instead of the generator (``None``: the generator alone)."""
        return self._source

    @chance_source.setter
    def chance_source(self, source: ChanceSource | None) -> None:
        self._source = source
        self._watched = bool(self._replaying) or source is not None or self.draw_log is not None

    def chance_setup(self) -> Chance:
        """The chance setup that makes this game again: its generator and the outcomes supplied so far."""
        return Chance(self.generator, dict(self.supplied)) if self.supplied else Chance.of(self.generator)

    def fresh(self) -> GameState[R]:
        """A new game with this one's setup: ruleset, seed, generator (and the outcomes supplied so
        far, supplied again)."""
        state: GameState[R] = self.game.new_state(self.rules, self.seed, self.chance_setup())
        return state

    def rebuilt(self, moves: int | None = None) -> GameState[R]:
        """This game as it was after its first ``moves`` moves (``None``: all of them), rebuilt by
        replaying them on :meth:`fresh` (outcomes supplied for later draws are not kept)."""
        state = self.fresh()
        for m in self.log if moves is None else self.log[:moves]:
            state.apply(m.seat, m.action)
        state._forget_replay()
        return state

    def _forget_replay(self) -> None:
        """The replay of a record is over: outcomes it supplied for draws not made are dropped."""
        if self._replaying:
            self._replaying.clear()
            self._watched = self._source is not None or self.draw_log is not None

    # ------------------------------------------------------------- public API
    @property
    def is_terminal(self) -> bool:
        return self.outcome is not None

    def to_act(self) -> tuple[str, ...]:
        """Seats that must act now; empty once the game is over."""
        if self.outcome is not None:
            return ()
        return self._to_act()

    def legal_actions(self, seat: str) -> LegalActions:
        """A lazy view of ``seat``'s legal actions (empty if it need not act)."""
        return LegalActions(self, seat)

    def parse_action(self, text: str) -> Action:
        """Parse an action's text form (raises :class:`InvalidActionError`).  A game may read text
        in the context of the state (a lone move typed at a planning step as a one-row plan); the
        game's own ``parse_action`` stays context-free."""
        return self.game.parse_action(text)

    def validate(self, seat: str, action: Action | str) -> Action:
        """Return the parsed action if it is legal for ``seat`` now, else raise (the state is not changed
        either way: asking never writes, and :meth:`apply` checks for itself)."""
        return self._validate(seat, action)[0]

    def _validate(self, seat: str, action: Action | str) -> tuple[Action, Any]:
        """The parsed action and its plan, or raise (the state is not changed either way)."""
        if seat not in self.seats:
            raise InvalidActionError(
                f"unknown seat; this game's seats are {', '.join(self.seats)}",
                rule="CORE-SEAT",
                input=seat,
                legal=self.seats,
            )
        if isinstance(action, str):
            action = self.parse_action(action)
        if self.outcome is not None:
            raise IllegalActionError("the game is over", rule="CORE-OVER", input=str(action))
        if seat not in self._to_act():
            raise self._turn_error(seat, action)
        return action, self._check(seat, action)

    def is_legal(self, seat: str, action: Action | str) -> bool:
        try:
            self.validate(seat, action)
        except GameError:
            return False
        return True

    def apply(self, seat: str, action: Action | str) -> list[Event]:
        """Validate and carry out ``action`` for ``seat``; return the events.

        Raises :class:`InvalidActionError` / :class:`IllegalActionError`; a rejected
        action changes nothing.
        """
        checked, plan = self._validate(seat, action)
        try:
            events = self._apply(seat, checked, plan)
        except ChanceError:  # a supplied outcome the draw cannot have: the game is as it was before the move
            self._undo_partial()
            raise
        self.log.append(Move(seat, checked))
        return events

    def _undo_partial(self) -> None:
        """Back to the state after the last logged move (a move refused half-way by its chance)."""
        source, log = self._source, self.draw_log
        back = self.rebuilt()
        self.__dict__.clear()
        self.__dict__.update(back.__dict__)
        self.chance_source = source
        if log is not None:
            self.draw_log = log[: self.draws]
            self._watched = True

    # ---------------------------------------------------------- serialization
    def to_json(self) -> dict[str, Any]:
        """Setup + seed + action log: everything needed to rebuild the state."""
        rules = self.rules.model_dump(mode="json") if hasattr(self.rules, "model_dump") else self.rules
        return {
            "game": self.game.id,
            "rules": rules,
            "seed": self.seed,
            **self.chance_setup().record_fields(),
            "log": [m.to_json() for m in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState[Any]:
        """Rebuild a state by replaying its log (raises :class:`StateError`)."""
        from gm.core.registry import find_game

        try:
            game = find_game(str(data["game"]))
            rules = game.load_rules(data.get("rules") or {})
            state: GameState[Any] = game.new_state(rules, int(data["seed"]), Chance.from_record(data))
            for i, entry in enumerate(data["log"]):
                seat, text = entry
                try:
                    state.apply(str(seat), str(text))
                except (IllegalActionError, InvalidActionError) as exc:
                    raise StateError(f"log entry {i} ({seat}: {text!r}) does not replay: {exc.message}") from exc
        except StateError:
            raise
        except ChanceError as exc:
            raise StateError(f"the state's chance does not replay: {exc.message}") from exc
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"not a gm state: {exc!r}") from exc
        state._forget_replay()
        return state

    def replay(self) -> GameState[Any]:
        """A fresh state rebuilt from setup + seed + log (for checking)."""
        return type(self).from_json(self.to_json())

    def copy(self) -> GameState[R]:
        """An independent copy (rebuilt by replay)."""
        return self.replay()

    # ----------------------------------------------------------------- search
    def clone(self) -> Self:
        """An independent copy of the game as it stands, made fast (a search plays on thousands of them).
        Default: a deep copy sharing what no move changes (:func:`gm.core.search.deep_clone`); a game whose
        state copies faster by hand overrides it (a test plays every game's clones on against the original)."""
        from gm.core.search import deep_clone

        return cast(Self, deep_clone(self))

    def reseed(self, seed: int) -> None:
        """Draw this game's chance to come from ``seed`` (a search's imagined futures must not follow the
        real dice).  Reseeds the generator in place, so whatever holds it follows."""
        self.rng.seed(seed)

    def determinizer(self, seat: str, model: Callable[[GameState[Any], str, random.Random], Action] | None = None) -> Callable[[random.Random], GameState[R]]:
        """A sampler of the worlds ``seat`` may believe it is in: each call (with a generator) returns an
        independent copy of the game in which everything the seat cannot see is drawn afresh, consistently
        with everything it has seen, and chance to come is reseeded (optional hook; the search bot's).

        Default (:func:`gm.core.search.log_determinizer`): other seats' picks still locked, and public moves
        still carrying a secret (:meth:`secret_moves`), are redrawn among the moves that read the same to the
        seat (a locked pick by ``model``, a policy standing in for its seat, when one is given), and the log is
        played on from there.  A game with hidden information outside its log - hands dealt from a shuffled
        deck - overrides this, drawing the unseen cards afresh."""
        from gm.core.search import log_determinizer

        return log_determinizer(self, seat, model)

    def run(self, moves: list[tuple[str, str]], on_event: Callable[[Event], None] | None = None) -> None:
        """Apply several ``(seat, action text)`` moves in order."""
        for seat, text in moves:
            for ev in self.apply(seat, text):
                if on_event:
                    on_event(ev)
