"""Phrasing corpora: how people type each game's moves, and what the offline referee makes of them.

Each game may ship ``<game package>/eval/phrasings.toml`` (package data, read with
:mod:`importlib.resources`): positions, each built by seeded moves, and at each the phrasings people
type there with the move each means::

    [[position]]
    id = "kick-pick"          # unique in the file
    seed = 1                  # the game's seed (and the opponent bot's)
    chance = "mt19937"        # optional: the generator the seed keys (a file-level `chance` too; default mt19937)
    seat = "home"             # optional: the game's first seat
    moves = ["receive"]       # the seat's moves in the game's words (the other seats are `opponent`)
    opponent = "bot:random"   # optional
    say = [
      { text = "left yelow", move = "left yellow", kind = "typo" },
      { text = "left", clarify = ["left yellow", "left red", "left green"], kind = "partial" },
    ]

``move`` is the move meant, in the game's notation; ``clarify`` lists the moves a phrasing may mean
when it cannot be pinned to one (the referee must ask, listing exactly these); ``kind`` says what
makes the phrasing hard (typo, slang, order, words, abbreviation, partial, relative, question, ...).

:func:`score_corpus` reads every phrasing with the game's :class:`~gm.core.phrasing.Phrasing` at
its position and counts: *understood* (the meant move, or for a ``clarify`` entry a question listing
exactly its candidates), *asked* (a question whose candidates include the meant move: not
understood, but nothing wrong done), *wrong* (any other move: a move the player did not mean) and
*missed* (nothing read).  ``bench`` reports these per game, ``tests/play`` holds every game to at
least 95% understood and no wrong move.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from gm.core.errors import GameError

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.game import Game
    from gm.core.phrasing import Reading
    from gm.core.state import GameState
    from gm.session import Session

CORPUS_FILE = ("eval", "phrasings.toml")
KINDS = ("plain", "typo", "slang", "order", "words", "abbreviation", "partial", "relative", "question", "fuzzy", "context")


class CorpusError(GameError):
    """A corpus file that cannot be used (unreadable, a malformed entry, a position that cannot be reached)."""


@dataclass(frozen=True)
class Phrase:
    """One thing a player types at a position, and what it means."""

    text: str
    move: str | None = None
    clarify: tuple[str, ...] = ()
    kind: str = "plain"


@dataclass(frozen=True)
class Position:
    """A position built by seeded moves, and the phrasings typed there."""

    id: str
    # alike on purpose: gm/eval/suite.py's Case declares the same set-up fields; both are read by start_at through SetUp, each file's own TOML record
    seed: int = 1
    seat: str | None = None
    moves: tuple[str, ...] = ()
    opponent: str = "bot:random"
    rules: Mapping[str, Any] = field(default_factory=dict)
    say: tuple[Phrase, ...] = ()
    #: the chance generator the seed keys (the corpora were written under mt19937, before generators had names)
    chance: str = "mt19937"


def _fail(where: str, reason: str, what: object = None) -> CorpusError:
    return CorpusError(f"{where}: {reason}", rule="GM-PHRASINGS", input=None if what is None else str(what))


def _phrase(raw: object, where: str) -> Phrase:
    if not isinstance(raw, Mapping):
        raise _fail(where, "a phrasing is a table { text, move | clarify, kind }")
    extra = set(raw) - {"text", "move", "clarify", "kind"}
    if extra:
        raise _fail(where, f"unknown field {sorted(extra)[0]!r}", sorted(extra)[0])
    text, move, clarify = raw.get("text"), raw.get("move"), raw.get("clarify")
    if not isinstance(text, str) or not text.strip():
        raise _fail(where, "text is required")
    if (move is None) == (clarify is None):
        raise _fail(where, "exactly one of move and clarify", text)
    if clarify is not None and (not isinstance(clarify, list) or len(clarify) < 2 or not all(isinstance(c, str) for c in clarify)):
        raise _fail(where, "clarify lists at least two moves", text)
    kind = str(raw.get("kind", "plain"))
    if kind not in KINDS:
        raise _fail(where, f"kind is one of {', '.join(KINDS)}", kind)
    return Phrase(text=text, move=move, clarify=tuple(clarify or ()), kind=kind)


def load_corpus(game: Game) -> list[Position]:
    """The game's phrasing corpus (``eval/phrasings.toml`` in its package); a game without one has none."""
    from gm.core.game import package_toml

    found = package_toml(game, CORPUS_FILE, CorpusError, "GM-PHRASINGS")
    if found is None:
        return []
    data, where = found
    out: list[Position] = []
    chance = str(data.get("chance", "mt19937"))
    for i, raw in enumerate(data.get("position", [])):
        at = f"{where} position {i + 1}"
        extra = set(raw) - {"id", "seed", "seat", "moves", "opponent", "rules", "say", "chance"}
        if extra:
            raise _fail(at, f"unknown field {sorted(extra)[0]!r}", sorted(extra)[0])
        if not isinstance(raw.get("id"), str):
            raise _fail(at, "id is required")
        say = tuple(_phrase(p, f"{at} ({raw['id']}) phrasing {j + 1}") for j, p in enumerate(raw.get("say", [])))
        out.append(Position(id=raw["id"], seed=int(raw.get("seed", 1)), seat=raw.get("seat"), moves=tuple(raw.get("moves", ())),
                            opponent=str(raw.get("opponent", "bot:random")), rules=dict(raw.get("rules", {})), say=say,
                            chance=str(raw.get("chance", chance))))
    ids = [p.id for p in out]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup:
        raise _fail(where, f"position id {dup!r} is used twice", dup)
    return out


class SetUp(Protocol):
    """A position built by seeded moves (a phrasing corpus's :class:`Position`, an eval suite's case)."""

    @property
    def id(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def seat(self) -> str | None: ...
    @property
    def moves(self) -> tuple[str, ...]: ...
    @property
    def opponent(self) -> str: ...
    @property
    def rules(self) -> Mapping[str, Any]: ...
    @property
    def chance(self) -> str: ...


def start_at(game: Game, at: SetUp, error: type[GameError], rule: str, *, bots: Mapping[str, Any] | None = None) -> Session:
    """A fresh in-memory session at ``at``: its seat (default the first) plays its moves through the tools,
    every other seat is its opponent bot, seeded by its seed (``bots`` puts others in their place).  A set-up
    move no tool makes, or that the game refuses, raises ``error`` (with ``rule``) naming ``at`` and the move."""
    from gm.referee.offline import tool_call_for
    from gm.session import Session

    seat = at.seat or game.seats[0]
    players = {s: at.opponent for s in game.seats if s != seat}
    session = Session.create(game, seed=at.seed, rules=dict(at.rules), players=players, persist=False,
                             bot_seed=at.seed, nonce_seed=0, record=False, chance=at.chance, bots=bots)
    for text in at.moves:
        action = session.state.parse_action(text)
        call = tool_call_for(game, session.state, seat, action)
        if call is None:
            raise error(f"{at.id}: no tool makes the set-up move {text!r}", rule=rule, input=text)
        result = session.call(call[0], call[1], seat)
        if not result.get("ok"):
            err = result.get("error") or {}
            raise error(f"{at.id}: set-up move {text!r} refused: {err.get('reason')}", rule=rule, input=text)
    return session


def start(game: Game, position: Position) -> Session:
    """A fresh in-memory session at ``position`` (:func:`start_at`)."""
    return start_at(game, position, CorpusError, "GM-PHRASINGS")


def same_move(state: GameState[Any], seat: str, a: Action, b: Action) -> bool:
    """Whether ``a`` and ``b`` are the same move for ``seat`` here: equal, or two ways of writing one
    move (a route left out, a default spelt out) that leave the game the same."""
    if a == b:
        return True
    if type(a) is not type(b):
        return False
    try:
        one, two = state.copy(), state.copy()
        one.apply(seat, a)
        two.apply(seat, b)
    except GameError:
        return False
    return one.snapshot() == two.snapshot()


@dataclass
class Outcome:
    """What the offline referee made of one phrasing."""

    position: str
    text: str
    kind: str
    expected: str
    verdict: str  # understood | asked | wrong | missed
    got: str


def _expected(state: GameState[Any], phrase: Phrase) -> tuple[Action | None, tuple[Action, ...]]:
    if phrase.move is not None:
        return state.parse_action(phrase.move), ()
    return None, tuple(state.parse_action(c) for c in phrase.clarify)


def judge(state: GameState[Any], seat: str, phrase: Phrase, reading: Reading) -> str:
    """``understood``, ``asked``, ``wrong`` or ``missed`` (see the module doc)."""
    meant, options = _expected(state, phrase)
    if reading.action is not None and state.is_legal(seat, reading.action):
        if meant is not None and same_move(state, seat, reading.action, meant):
            return "understood"
        return "wrong"
    # nothing read, or a move the engine refuses (nothing changes): judged by the question asked, if any
    if reading.candidates:
        got = list(reading.candidates)
        if meant is None:
            fits = len(got) == len(options) and all(any(same_move(state, seat, g, o) for o in options) for g in got)
            return "understood" if fits else "asked"
        return "asked" if any(same_move(state, seat, g, meant) for g in got) else "missed"
    return "missed"


def check_corpus(game: Game, positions: Sequence[Position]) -> list[str]:
    """What is wrong with a corpus: a position that cannot be reached, a meant move that does not read
    or is not legal at its position, a clarify list with such a move (one line each; empty: nothing)."""
    problems: list[str] = []
    for pos in positions:
        try:
            session = start(game, pos)
        except GameError as exc:
            problems.append(exc.reason)
            continue
        seat = pos.seat or game.seats[0]
        for phrase in pos.say:
            for text in (phrase.move,) if phrase.move else phrase.clarify:
                try:
                    ok = session.state.is_legal(seat, session.state.parse_action(str(text)))
                except GameError as exc:
                    problems.append(f"{pos.id}: {phrase.text!r}: {text!r} does not read: {exc.reason}")
                    continue
                if not ok:
                    problems.append(f"{pos.id}: {phrase.text!r}: {text!r} is not a legal move there")
    return problems


def outcomes(game: Game, positions: Sequence[Position] | None = None) -> Iterator[Outcome]:
    """Every phrasing of the corpus read at its position, with the verdict."""
    phrasing = game.phrasing()
    for pos in load_corpus(game) if positions is None else positions:
        session = start(game, pos)
        state, seat = session.state, pos.seat or game.seats[0]
        for phrase in pos.say:
            reading = phrasing.read(state, seat, phrase.text)
            asked = "ask: " + " | ".join(map(str, reading.candidates)) if reading.candidates else ""
            if reading.action is not None:
                refused = not state.is_legal(seat, reading.action)
                got = f"refused: {reading.action}" + (f"; {asked}" if asked else "") if refused else str(reading.action)
            else:
                got = asked or "nothing"
            expected = phrase.move or "ask: " + " | ".join(phrase.clarify)
            yield Outcome(pos.id, phrase.text, phrase.kind, expected, judge(state, seat, phrase, reading), got)


def score_corpus(results: Sequence[Outcome]) -> dict[str, Any]:
    """Counts and the understood share of a list of outcomes."""
    n = len(results)
    counts = {v: sum(r.verdict == v for r in results) for v in ("understood", "asked", "wrong", "missed")}
    return {"phrasings": n, **counts, "understood_pct": round(100 * counts["understood"] / n, 1) if n else 0.0}
