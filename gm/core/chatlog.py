"""Move logs a chatbot can keep: the protocol a game implements so that a game played in any
chatbot can come back into gm and be audited (``gm import``).

A game's chat log is one line per *exchange* (a move, or the secret picks that resolve
together) in the game's own notation, followed by what the chatbot believes is true after it::

    D7 home: play 1 red 2 right before | away: play 3 black | ball M26, home 2nd & 4

A game declares its format once, in ``<game package>/chatlog.py`` as ``CHATLOG`` (an instance of
a :class:`ChatLog` subclass); :meth:`gm.core.game.Game.chatlog` finds it there.  The game writes
lines from the engine's events (:meth:`ChatLog.format_line`), reads a cleaned line back into
moves and claims (:meth:`ChatLog.parse_line`), and says what the engine holds for each kind
of claim (:meth:`ChatLog.fact`).  Cleaning the text (markdown, quotes, case) and the audit
itself are generic (:mod:`gm.chatlog`).
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.chance import Draw
    from gm.core.events import Event
    from gm.core.game import Game
    from gm.core.state import GameState


@dataclass(frozen=True, slots=True)
class Claim:
    """One thing the chatbot states after an exchange: ``key`` names what (``ball``, ``down``,
    ``score``, ``blocked K20`` ...), ``said`` is its value in the game's canonical words."""

    key: str
    said: str


@dataclass(frozen=True, slots=True)
class Fact:
    """What the engine holds for a claim's key, in the same canonical words, and the rule id
    that decided it; ``also``: other words that state the same truth (a 4th-down choice's spot is
    the series' line or where the ball now stands), a claim saying any of them is true."""

    value: str
    rule: str
    also: tuple[str, ...] = ()

    def agrees(self, said: str) -> bool:
        """Whether a claim that says ``said`` states this fact."""
        return said == self.value or said in self.also

    @property
    def shown(self) -> str:
        """The value as an audit names it (``own 25 (or own 28)``)."""
        return self.value if not self.also else f"{self.value} (or {', '.join(self.also)})"


@dataclass(frozen=True, slots=True)
class Stated:
    """An outcome of chance as a chat log's line states it: the label of the engine's draw it is
    (:class:`gm.core.chance.Draw`, ``pass roll``), words its ``about`` holds (``QB``: whose roll; empty:
    any), and the outcome as the draw reads it (``5``, ``tails``, ``home``)."""

    label: str
    value: Any
    about: str = ""

    def answers(self, draw: Draw[Any]) -> bool:
        """Whether this is what the chat says of ``draw`` (the same label; every word of :attr:`about` a word of
        the draw's, ``@`` parting words too: ``QB@SR`` answers ``QB A2-4@SR``)."""
        if draw.label != self.label:
            return False
        words = set(re.split(r"[\s@]+", draw.about.lower()))
        return all(w in words for w in re.split(r"[\s@]+", self.about.lower()) if w)


@dataclass(frozen=True, slots=True)
class ParsedLine:
    """A move line read back: the chatbot's own label (``D7``; never trusted), the moves in the
    order they apply (seat, action text) and the claims."""

    label: str
    moves: tuple[tuple[str, str], ...]
    claims: tuple[Claim, ...]


class ChanceLog(Protocol):
    """What :meth:`ChatLog.supply` may read of a log being replayed."""

    @property
    def lines(self) -> Sequence[ParsedLine]:
        """The log's lines, read."""

    #: the index of the line being replayed (-1: the game is being set up, before the first line)
    at: int
    #: the game's own notes while one log is replayed (what its supply has used up)
    notes: dict[str, Any]


class ChatLog(ABC):
    """A game's move-log format (one instance per game, ``CHATLOG`` in its ``chatlog`` module)."""

    #: the heading of the log section in the exported documents (found again on import)
    title: str = "Move log"
    #: what the honour-system note says about the game's secret picks (shown once by the audit
    #: when the log holds simultaneous picks); empty: the game has none
    secret_picks: str = ""
    #: claim keys that state an outcome of chance (a coin toss, a die): the importer picks the seed
    #: under which the engine agrees with them
    chance_keys: frozenset[str] = frozenset()
    #: the claim keys of :attr:`chance_keys` that state dice: an audit says "the chatbot rolled 5;
    #: gm's roll is 2"
    roll_keys: frozenset[str] = frozenset()

    #: a short opening in moves (seat, action text): the documents show its log lines as the example
    example_moves: tuple[tuple[str, str], ...] = ()

    @abstractmethod
    def format_line(self, state: GameState[Any], moves: Sequence[tuple[str, Action]], events: Sequence[Event], number: int) -> str:
        """The log line of one exchange: ``moves`` (seat, action) just applied to reach ``state``,
        with their ``events``; ``number`` counts the exchanges so far (1-based)."""

    @abstractmethod
    def parse_line(self, text: str) -> ParsedLine | None:
        """Read a cleaned line (lower case, plain ASCII quotes, no markdown): its moves and
        claims, or ``None`` when the line holds no move (commentary)."""

    @abstractmethod
    def fact(self, key: str, state: GameState[Any], events: Sequence[Event]) -> Fact | None:
        """The engine's value for claim ``key`` after an exchange that produced ``events``
        (``None``: the key means nothing here, the claim is not checked)."""

    def facts(self, keys: Sequence[str], state: GameState[Any], events: Sequence[Event]) -> list[Fact | None]:
        """:meth:`fact` of each of ``keys`` after one exchange; a game whose facts read one costly view of the
        state computes it once here."""
        return [self.fact(k, state, events) for k in keys]

    def final_claims(self, lines: Sequence[tuple[int, str]]) -> list[tuple[int, Claim]]:
        """Claims about the game as it stands that a session document states outside the log (its
        status table, its list of blocked squares), with their line numbers, from the cleaned
        ``(number, text)`` lines of the whole text (the last statement of each counts).  The audit
        checks them against the end of the replay.  Default: none."""
        return []

    def stated(self, line: ParsedLine) -> list[Stated]:
        """The outcomes of chance ``line`` states (a coin, dice), in the order the engine draws them: the
        importer replays the game with them (``--chance from-log``).  Default: none."""
        return []

    def supply(self, draw: Draw[Any], log: ChanceLog) -> Any:
        """The outcome of ``draw`` that the log says without stating it (the cards a chatbot dealt, seen
        as they are played; a deal may name only some: gm deals the rest), read from ``log`` (the log's
        lines, and the one being replayed); ``None``: none.  Default: none."""
        return None

    def says_chance(self, line: ParsedLine) -> bool:
        """Whether ``line`` says something of chance (the seed search replays the log as far as the last
        line that does).  Default: it states an outcome."""
        return bool(self.stated(line))

    def ends_turn(self, state: GameState[Any], seat: str) -> str | None:
        """The action text with which ``seat`` ends its turn early (Quarter Back's ``end``): the
        importer plays it for a log whose next line is another seat's while ``seat`` still has the
        move (chatbots leave it out).  Default: ``None``, a turn never ends unsaid."""
        return None

    def closes(self, state: GameState[Any], events: Sequence[Event]) -> bool:
        """Whether the exchange ends with these events (no secret pick waits for its pair).
        Default: no seat has a locked pick."""
        return not state.has_locked_picks()

    def result_fact(self, state: GameState[Any], going_on: str, rule: str) -> Fact:
        """The engine's ``result`` fact: the outcome's :attr:`~gm.core.outcome.Outcome.verdict` under its
        rule, or ``going_on`` under ``rule`` while the game is not over."""
        o = state.outcome
        return Fact(going_on, rule) if o is None else Fact(o.verdict, o.rule)

    def line_text(self, state: GameState[Any], moves: Sequence[tuple[str, Action]], events: Sequence[Event], number: int) -> str:
        """:meth:`format_line`, kept to one line."""
        return " ".join(self.format_line(state, moves, events, number).split())


class ViewChatLog(ChatLog):
    """A chat log whose facts all read one view of the state (the spectator view by default; a game may
    read its snapshot instead): :meth:`facts` reads it once for all of a line's claims, and the game
    answers each claim from it in :meth:`fact_in`."""

    def view(self, state: GameState[Any]) -> dict[str, Any]:
        """The view of ``state`` the facts read.  Default: what every seat sees."""
        return state.view(None)

    @abstractmethod
    def fact_in(self, key: str, state: GameState[Any], events: Sequence[Event], view: dict[str, Any]) -> Fact | None:
        """:meth:`ChatLog.fact` of ``key``, with ``view`` the state's :meth:`view`."""

    def fact(self, key: str, state: GameState[Any], events: Sequence[Event]) -> Fact | None:
        return self.fact_in(key, state, events, self.view(state))

    def facts(self, keys: Sequence[str], state: GameState[Any], events: Sequence[Event]) -> list[Fact | None]:
        view = self.view(state)  # (what the batch saves: the view, read once for the line's claims)
        return [self.fact_in(k, state, events, view) for k in keys]


def move_segments(moves: Sequence[tuple[str, Action]]) -> list[str]:
    """A line's moves as ``SEAT: ACTION, ACTION`` segments: one a seat, in the order the seats first moved."""
    by_seat: dict[str, list[str]] = {}
    for seat, action in moves:
        by_seat.setdefault(seat, []).append(str(action))
    return [f"{seat}: {', '.join(acts)}" for seat, acts in by_seat.items()]


_OTHER_SIDE = {"heads": "tails", "tails": "heads"}


def toss_fact(key: str, state: GameState[Any], events: Sequence[Event], rule: str) -> Fact:
    """The engine's ``coin`` (the flip) or ``toss`` (who won it) fact, under ``rule``, for a game whose toss
    is called (:func:`stated_coin`)."""
    flip, winner = _called_toss(state, events)
    return Fact((flip if key == "coin" else winner) or "no toss", rule)


def _called_toss(state: GameState[Any], events: Sequence[Event]) -> tuple[str | None, str | None]:
    """The coin toss of a game whose toss is called (a :class:`~gm.core.actions.CoinCall`, a ``coin_toss``
    event with its ``flip`` and ``winner``, the state's ``toss_winner``): the flip and its winner, from
    this exchange's events or, once played, from the call in the log and its winner; ``(None, None)``
    before the toss."""
    from gm.core.actions import CoinCall

    toss = next((e for e in events if e.kind == "coin_toss"), None)
    if toss is not None:
        return str(toss.data["flip"]), str(toss.data["winner"])
    winner = getattr(state, "toss_winner", None)
    said = next(((m.seat, m.action.call) for m in state.log if isinstance(m.action, CoinCall)), None)
    if said is None or winner is None:
        return None, None
    seat, call = said
    return (call if seat == winner else _OTHER_SIDE[call]), str(winner)


def stated_coin(line: ParsedLine, label: str = "coin toss", flip: str = "coin", winner: str = "toss") -> list[Stated]:
    """The coin toss a line states, for a game whose toss is called (a move ``heads`` or ``tails``): the flip
    its ``flip`` claim says, else the one its ``winner`` claim and the call give (the caller wins on the flip
    it called)."""
    said = {c.key: c.said for c in line.claims}
    if flip in said:
        return [Stated(label, said[flip])]
    call = next(((seat, act) for seat, act in line.moves if act in _OTHER_SIDE), None)
    if winner in said and call is not None:
        seat, act = call
        return [Stated(label, act if said[winner] == seat else _OTHER_SIDE[act])]
    return []


#: the chance generator a chat log's :attr:`ChatLog.example_moves` are played under: the examples were
#: written for seed 0 of the mt19937 generator (a seed and its generator name one game)
EXAMPLES_CHANCE = "mt19937"


def example_lines(game: Game[Any, Any], rules: Any = None, seed: int = 0) -> list[str]:
    """The log lines of the chat log's :attr:`ChatLog.example_moves` played under ``rules`` (as far
    as that ruleset allows them)."""
    chatlog = game.chatlog()
    if chatlog is None:
        return []
    from gm.core.errors import GameError

    state = game.new_state(rules, seed, EXAMPLES_CHANCE)
    for seat, text in chatlog.example_moves:
        try:
            state.apply(seat, text)
        except GameError:
            break
    return exchanges(game, state)


def exchanges(game: Game[Any, Any], state: GameState[Any]) -> list[str]:
    """The move log of ``state``'s game as its chat log writes it: replayed from the start, one
    line per exchange (a trailing exchange still waiting for a secret pick is left out; a turn
    under way is written as far as it went)."""
    chatlog = game.chatlog()
    if chatlog is None:
        return []
    fresh = state.fresh()
    lines: list[str] = []
    group: list[tuple[str, Action]] = []
    events: list[Event] = []
    for move in state.log:
        evs = fresh.apply(move.seat, move.action)
        group.append((move.seat, move.action))
        events.extend(evs)
        if chatlog.closes(fresh, evs):
            lines.append(chatlog.line_text(fresh, group, events, len(lines) + 1))
            group, events = [], []
    if group and not fresh.has_locked_picks():  # a turn under way, all of it public
        lines.append(chatlog.line_text(fresh, group, events, len(lines) + 1))
    return lines
