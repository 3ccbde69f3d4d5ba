"""The state base class: bookkeeping shared by every game.

A game subclasses :class:`GameState` and implements the hooks
``_to_act``, ``_legal`` (a generator of legal actions), ``_check`` (raise
:class:`IllegalActionError` with a rule id) and ``_apply`` (mutate, return
events; never raises).  The base class validates, keeps the action log and
guarantees that a rejected action leaves the state unchanged.

State = setup (ruleset) + seed + action log: :meth:`to_json` stores exactly
that and :meth:`from_json` replays it.  The only source of chance is
``self.rng``, a :class:`random.Random` seeded from ``seed``.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from gm.core.actions import Action, Move
from gm.core.errors import IllegalActionError, InvalidActionError, StateError
from gm.core.events import Event
from gm.core.outcome import Outcome

if TYPE_CHECKING:
    from gm.core.game import Game

R = TypeVar("R")


class LegalActions:
    """A lazy view of one seat's legal actions: iterate, test membership, count.

    Nothing is generated until it is iterated; ``in`` asks the rules directly.
    """

    __slots__ = ("_at", "_cache", "_seat", "_state")

    def __init__(self, state: GameState[Any], seat: str) -> None:
        self._state = state
        self._seat = seat
        self._cache: tuple[Action, ...] | None = None
        self._at = -1

    def _actions(self) -> tuple[Action, ...]:
        # generated on first use and again only if the state has moved on since
        at = len(self._state.log)
        if self._cache is None or self._at != at:
            st = self._state
            self._cache = tuple(st._legal(self._seat)) if self._seat in st.to_act() else ()
            self._at = at
        return self._cache

    def all(self) -> tuple[Action, ...]:
        """Every legal action, as a tuple (built once per position; a game's cached tuple is shared)."""
        return self._actions()

    def __iter__(self) -> Iterator[Action]:
        return iter(self._actions())

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._state.is_legal(self._seat, action)

    def __len__(self) -> int:
        return len(self._actions())

    def __bool__(self) -> bool:
        return bool(self._actions())

    def __getitem__(self, i: int) -> Action:
        return self._actions()[i]

    def __repr__(self) -> str:
        return f"<LegalActions {self._seat}: {', '.join(map(str, self))}>"


class GameState(ABC, Generic[R]):
    """Base of every game's state.  ``R`` is the game's ruleset model."""

    game: ClassVar[Game]
    seats: ClassVar[tuple[str, ...]]

    def __init__(self, rules: R, seed: int = 0) -> None:
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
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
    def _legal(self, seat: str) -> Iterable[Action]:
        """Generate the seat's legal actions (only called when the seat must act)."""

    @abstractmethod
    def _check(self, seat: str, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal for ``seat`` now."""

    @abstractmethod
    def _apply(self, seat: str, action: Action) -> list[Event]:
        """Carry out a checked action; return what happened."""

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

    def secret_moves(self) -> set[int]:
        """Log indices of moves that are public but still carry a secret (who secretly holds a
        hidden ball): until it is out, the other seats read them as ``Action.public_text()`` and a
        transcript does not record them for a bot.  Default: none."""
        return set()

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
        """Return the parsed action if it is legal for ``seat`` now, else raise."""
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
        acting = self._to_act()
        if seat not in acting:
            waiting = ", ".join(acting)
            raise IllegalActionError(
                f"{seat} has nothing to do now; waiting for {waiting}",
                rule="CORE-TURN",
                input=str(action),
            )
        self._check(seat, action)
        return action

    def is_legal(self, seat: str, action: Action | str) -> bool:
        try:
            self.validate(seat, action)
        except (IllegalActionError, InvalidActionError):
            return False
        return True

    def apply(self, seat: str, action: Action | str) -> list[Event]:
        """Validate and carry out ``action`` for ``seat``; return the events.

        Raises :class:`InvalidActionError` / :class:`IllegalActionError`; a rejected
        action changes nothing.
        """
        checked = self.validate(seat, action)
        events = self._apply(seat, checked)
        self.log.append(Move(seat, checked))
        return events

    # ---------------------------------------------------------- serialization
    def to_json(self) -> dict[str, Any]:
        """Setup + seed + action log: everything needed to rebuild the state."""
        rules = self.rules.model_dump(mode="json") if hasattr(self.rules, "model_dump") else self.rules
        return {
            "game": self.game.id,
            "rules": rules,
            "seed": self.seed,
            "log": [m.to_json() for m in self.log],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState[Any]:
        """Rebuild a state by replaying its log (raises :class:`StateError`)."""
        from gm.core.registry import find_game

        try:
            game = find_game(str(data["game"]))
            rules = game.load_rules(data.get("rules") or {})
            state = game.new_state(rules, int(data["seed"]))
            for i, entry in enumerate(data["log"]):
                seat, text = entry
                try:
                    state.apply(str(seat), str(text))
                except (IllegalActionError, InvalidActionError) as exc:
                    raise StateError(f"log entry {i} ({seat}: {text!r}) does not replay: {exc.message}") from exc
        except StateError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"not a gm state: {exc!r}") from exc
        return state

    def replay(self) -> GameState[Any]:
        """A fresh state rebuilt from setup + seed + log (for checking)."""
        return type(self).from_json(self.to_json())

    def copy(self) -> GameState[R]:
        """An independent copy (rebuilt by replay)."""
        return self.replay()

    def run(self, moves: list[tuple[str, str]], on_event: Callable[[Event], None] | None = None) -> None:
        """Apply several ``(seat, action text)`` moves in order."""
        for seat, text in moves:
            for ev in self.apply(seat, text):
                if on_event:
                    on_event(ev)
