"""Reading what people type: the game-agnostic half of the offline referee's understanding.

A game's ``parse_action`` reads its own notation (and the looser forms it chooses to).  People type
more loosely still: typos ("left yelow"), numbers in words ("three to the left"), slang, another word
order, part of a move with the rest implied by the position ("left" when only the colour is
missing), a move relative to a piece ("move T2 up 3").  :class:`Phrasing` reads those in four steps,
and never guesses: what it cannot pin to one legal move it asks about, listing the candidates.

1. the game's parser, on the text as typed (a move in the game's notation is that move);
2. the parser again on the text *normalised*: numbers in words as digits (``text2num``), a typo
   corrected to the one game word it is nearest to (``rapidfuzz``, same first letter, no tie), the
   game's own phrase synonyms, and then without the words that carry no meaning;
3. the game's :meth:`Phrasing.candidates` hook: the legal moves the words may mean (a partial move
   filled from the position, a relative move from the piece's square) - one is the move, several are
   a question;
4. else nothing, with the parser's own objection to the text as typed.

A game declares its words (``vocabulary``, ``synonyms``, ``filler``) and its hook in its own package
(``Game.phrasing()``); nothing here knows any game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gm.core.actions import Action
from gm.core.errors import InvalidActionError

if TYPE_CHECKING:
    from gm.core.state import GameState

#: English words that are never taken for a typo of a game word: articles, pronouns, prepositions, the
#: common verbs and nouns of table talk
COMMON = frozenset(
    """a an the i i'm im i'll ill i'd id i've ive me my mine we we'll well our us you your it its it's
    is am are was be been being do does did done doing have has had having will would shall should can
    could may might must let lets let's please pls plz thanks thank ok okay yes yeah yep yup no nope not
    and or but then so now just also too very really quite maybe perhaps think guess like want wanna
    gonna gotta going go goes went gone get got give gave take took make made put say said tell
    to of in on at by for from with into onto over under up down off out about as than that this these
    those there here where when what which who whom whose why how all any some each every one ones
    other another same again more most less least much many few first last next new old own sure
    right left back way time try use using used call called calling pick picking choose chose
    see look show help hmm um uh er ah oh hey hi hello well lol away move moves moving forward forwards
    backward backwards ahead behind side sides ball field game turn turns again last best good bad nice
    send sent keep kept hold holds stay start end stop wait think know mean meant need way ways had hand
    head here near far top bottom middle over under across through round around play plays action actions
    locked lock option options choice choices position set""".split()
)

#: words wrapped around a move ("I'll call heads please") that carry no meaning in any game (a game's
#: ``vocabulary`` keeps its own words among them)
FILLER = frozenset(
    """i we i'll ill we'll well will would like choose chose call calling pick picking go going with want wanna
    to let's lets please the a an my our it is as for take do try select ok okay um uh so and then now gonna
    me us i'm im i'd id just think maybe guess how about what say said they they'll their them pls plz thx
    thanks baby bro dude mate man yo lol hmm nah""".split()
)

#: words that turn a request around ("don't kick"): a message with one is never read loosely
NEGATIONS = frozenset({"not", "don't", "dont", "cancel", "instead", "isn't", "wasn't", "without"})

#: a message that asks rather than tells ("what happens if I go for it?", "can I punt?"): never read as a
#: move, whatever move its words contain ("how about play 2 red" and "what about K12" do propose one)
_QUESTION = re.compile(
    r"^\s*(?:what|why|how|when|which|who|whose|where|does|do|did|is|are|was|were|should|would|could|can|will|"
    r"shall|may|might|am)\b(?!\s+about\b)(?!\s*(?:it|that)\s*$)", re.I)


def is_question(text: str) -> bool:
    """Whether ``text`` asks a question (it starts with a question word) rather than says a move."""
    return bool(_QUESTION.match(text.replace("\u2019", "'")))


def other_seat_named(text: str, seats: Sequence[str], seat: str) -> str | None:
    """The other seat a message says a move is *for* ("place a tile for magenta", "magenta's tile"), if
    any: one seat does not move for another."""
    low = text.lower().replace("\u2019", "'")
    for other in seats:
        if other != seat and re.search(rf"\b(?:for|as)\s+{re.escape(other)}\b|\b{re.escape(other)}'s\b", low):
            return other
    return None


#: at most this many legal readings are offered after a move the rules refuse ("2" at a play call: play 2 red or black?)
SUGGEST = 4

#: a word typed with a typo is corrected only when it is this long (shorter words are too often real)
MIN_TYPO_LENGTH = 3


@dataclass(frozen=True)
class Reading:
    """What a message was read as: one move, several candidate moves to ask about, or nothing.

    ``read_as`` is the move's text when it differs from what was typed (the referee says it back:
    "Read as 'left yellow'."); ``error`` is the parser's objection when nothing was read.  A move the
    rules do not allow now may come with ``candidates`` too: legal moves the words could also mean, to
    offer after the engine's refusal."""

    action: Action | None = None
    candidates: tuple[Action, ...] = ()
    read_as: str | None = None
    error: InvalidActionError | None = None
    #: the words the candidates were read from (for the question)
    words: str = ""

    @property
    def kind(self) -> str:
        """``move`` (possibly one the engine refuses), ``ask`` (candidates to choose from) or ``none``."""
        if self.action is not None:
            return "move"
        return "ask" if self.candidates else "none"

    def question(self, limit: int = 8) -> str:
        """The clarifying question listing the candidates (a question mark, so it reads as one)."""
        shown = [f"'{c}'" for c in self.candidates[:limit]]
        more = len(self.candidates) - len(shown)
        if len(shown) == 1:
            return f"Did you mean {shown[0]}? Say it (or 'yes') to make the move."
        listed = ", ".join(shown[:-1]) + (f", {shown[-1]}" if more else f" or {shown[-1]}")
        tail = f" ... ({len(self.candidates)} moves fit)" if more else ""
        said = f"'{self.words}' could be " if self.words else "That could be "
        return f"{said}{listed}{tail}. Which one do you mean?"


def number_words(text: str) -> str:
    """``text`` with numbers written in words as digits ("three to the left" -> "3 to the left",
    "twenty-four" -> "24", "first" -> "1st")."""
    if not re.search(r"[a-z]{3}", text, re.I):
        return text
    return _alpha2digit(text)


@lru_cache(maxsize=4096)
def _alpha2digit(text: str) -> str:
    from text_to_num import alpha2digit  # a well-kept reader of English number words (and ordinals)

    out: str = alpha2digit(text, "en", threshold=0)
    return out


def _same_start(typed: str, word: str) -> bool:
    # the first letter is rarely the one mistyped: a swap of the first two is the one exception allowed
    return typed[0] == word[0] or (len(typed) > 1 and typed[1] == word[0] and typed[0] == word[1])


@dataclass(frozen=True)
class Vocabulary:
    """The words a typo may be corrected to (a game's words and :data:`COMMON`)."""

    words: frozenset[str]

    def correct(self, word: str) -> str:
        """``word``, or the one known word it is a typo of: nearest by edit distance (a swap of two
        neighbours counts one), at most 1 edit for words up to 5 letters and 2 for longer ones, the
        same first letter, and no other word as near.  Known and short words stay as they are."""
        return _correct(word, self.words)


@lru_cache(maxsize=8192)
def _correct(word: str, words: frozenset[str]) -> str:
    if len(word) < MIN_TYPO_LENGTH or word in words or word in COMMON or not word.isalpha():
        return word
    limit = 1 if len(word) <= 5 else 2
    return _nearest(word, words, limit) or word


def nearest(word: str, words: frozenset[str], limit: int = 1) -> str | None:
    """The one word of ``words`` nearest ``word`` within ``limit`` edits (a swap of two neighbours is
    one), with its first letter (or the first two swapped): a name typed with a typo ("MBL" for MLB,
    "OBL1" for OLB1, "BQ" for QB); ``None`` when there is none or a tie."""
    return word if word in words else _nearest(word, words, limit, shortest=2)


def _nearest(word: str, words: frozenset[str], limit: int, shortest: int = MIN_TYPO_LENGTH) -> str | None:
    """The one word of ``words`` nearest ``word`` within ``limit`` edits, with its first letter; ``None``
    when there is none or a tie."""
    from rapidfuzz.distance import OSA  # optimal string alignment: a swap of two neighbours is one edit
    from rapidfuzz.process import extract

    hits = extract(word, words, scorer=OSA.distance, score_cutoff=limit, limit=None)
    if not hits:
        return None
    best = min(score for _, score, _ in hits)
    nearest = [str(w) for w, score, _ in hits if score == best]
    if len(nearest) != 1 or not _same_start(word, nearest[0]) or len(nearest[0]) < shortest:
        return None
    return nearest[0]


def _typos(text: str, vocabulary: Vocabulary) -> str:
    # a word is a run of letters between spaces, punctuation or "_" ("lead_bloker"), not part of "hv3" or "e-1"
    return re.sub(r"(?<![a-z0-9-])[a-z]+(?![a-z0-9-])", lambda m: vocabulary.correct(m.group(0)), text)


def fitting(state: GameState[Any], seat: str, said: Mapping[str, Any], defaults: Mapping[str, Any] | None = None) -> list[Action]:
    """The legal actions of ``seat`` whose JSON form holds every value ``said`` (a partial move: the rest
    filled from the position).  Where several fit, those that also hold the ``defaults`` for the fields
    not said are kept, if any do (the notation's defaults: no lateral unless one is said).  For a game
    whose moves are listed; a game whose moves form an :class:`ActionSpace` builds its own."""
    acts = state.legal_actions(seat)
    if acts.is_space:
        return []
    found = [a for a in acts if _holds(a.to_json(), said)]
    if len(found) > 1 and defaults:
        rest = {k: v for k, v in defaults.items() if k not in said}
        preferred = [a for a in found if _holds(a.to_json(), rest)]
        found = preferred or found
    return found


def _holds(data: Mapping[str, Any], said: Mapping[str, Any]) -> bool:
    return all(data.get(k) == v for k, v in said.items())


def read_legs(words: Sequence[str], directions: Mapping[str, tuple[int, int]], *, skip: Iterable[str] = ()) -> list[tuple[int, int, int]] | None:
    """The legs ``(dx, dy, squares)`` of a move said in directions ("up 3", "2 left then 1 up",
    "up-left"): ``directions`` maps the game's direction words to a step; a count goes with the
    direction before it ("up 3") or after it ("3 up"), a direction without one is one square, and a
    word joined by ``-`` adds its parts ("up-left").  ``None`` when any word is neither (``skip``
    lists words that add nothing: "then", "diagonally") or a count has no direction."""
    legs: list[list[int]] = []  # [dx, dy, squares or 0 while open]
    pending: int | None = None
    dropped = set(skip)
    for w in words:
        if w in dropped:
            if legs and legs[-1][2] == 0:
                legs[-1][2] = 1  # "up then 2 left": the up is one square
            continue
        if w.isdigit() or w in ("once", "twice"):
            n = {"once": 1, "twice": 2}.get(w) or int(w)
            if n <= 0 or n > 99:
                return None
            if legs and legs[-1][2] == 0:
                legs[-1][2] = n
            elif pending is None:
                pending = n
            else:
                return None
            continue
        parts = w.split("-")
        if not all(p in directions for p in parts):
            return None
        dx = sum(directions[p][0] for p in parts)
        dy = sum(directions[p][1] for p in parts)
        if not (dx or dy):
            return None
        if legs and legs[-1][2] == 0:
            legs[-1][2] = 1
        legs.append([dx, dy, pending or 0])
        pending = None
    if pending is not None or not legs:
        return None
    return [(dx, dy, n or 1) for dx, dy, n in legs]


def _deduped(actions: Iterable[Action]) -> tuple[Action, ...]:
    out: list[Action] = []
    for a in actions:
        if a not in out:
            out.append(a)
    return tuple(out)


@dataclass(frozen=True)
class Phrasing:
    """A game's words for reading loose phrasings, and its hook for partial and relative moves.

    - ``vocabulary``: the game's words a typo may be corrected to ("yellow", "receive", "push");
    - ``synonyms``: ``(pattern, replacement)`` regular expressions applied, in order, to the
      normalised (lower-case, numbers as digits, typos corrected) text: slang and phrases
      ("take the ball" -> "receive");
    - ``filler``: the game's words that carry no meaning in a move (beside :data:`COMMON`'s);
    - ``talk``: the game's own table-talk phrases, each asking for the ``board`` or the ``status``;
    - ``spelling``: ``(state, seat, text) -> text``, spelling the position knows of put right (a
      player's name typed with a typo, "MBL" for the MLB on the field): a fix of spelling, like a typo
      corrected, so a move read after it is made;
    - ``hook``: ``(state, seat, text) -> moves`` (the legal moves the words may mean: ``text`` is
      normalised, its filler left out,
      or ``None`` when it does not read as any move at all).  A subclass may override
      :meth:`candidates` instead.
    """

    vocabulary: frozenset[str] = frozenset()
    synonyms: Sequence[tuple[str, str]] = ()
    filler: frozenset[str] = frozenset()
    hook: Callable[[GameState[Any], str, str], Sequence[Action] | None] | None = None
    spelling: Callable[[GameState[Any], str, str], str] | None = None
    #: the game's own table talk: a phrase (as the referee cleans it) -> ``board`` or ``status``
    #: ("where is the ball", "what down is it"); the generic words ("board", "score") are the referee's
    talk: Mapping[str, str] = field(default_factory=dict)
    _compiled: tuple[tuple[re.Pattern[str], str], ...] = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_compiled", tuple((re.compile(p), r) for p, r in self.synonyms))

    # ------------------------------------------------------------- normalising
    def normalise(self, text: str) -> str:
        """``text`` lower-cased, with typographic dashes and quotes plain, numbers in words as digits,
        typos corrected toward the game's words, the game's synonyms applied, and the spacing and a
        closing ``?``/``!``/``.`` tidied."""
        t = text.strip().lower()
        t = t.replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-").replace("\u2014", "-").replace("\u2212", "-")
        t = number_words(t)
        t = _typos(t, Vocabulary(self.vocabulary))
        for pattern, replacement in self._compiled:
            t = pattern.sub(replacement, t)
        t = re.sub(r"\s+", " ", t).strip()
        return re.sub(r"[\s?!.]+$", "", t)

    def content(self, text: str) -> str:
        """The normalised ``text`` without the words that carry no meaning (:data:`FILLER` and the
        game's ``filler``, but never a word of its ``vocabulary``) and without ``!``, ``?`` and full
        stops; ``,``, ``;`` and ``:`` stay, as words of their own (they separate the parts of a move)."""
        words = re.sub(r"\s*([,;:])(?!\S*@)\s*", r" \1 ", re.sub(r"[!?]|\.(?=\s|$)", " ", text)).split()
        drop = (FILLER | self.filler) - self.vocabulary
        return " ".join(w for w in words if w not in drop)

    # ------------------------------------------------------------------ reading
    def candidates(self, state: GameState[Any], seat: str, text: str) -> Sequence[Action] | None:
        """The legal moves of ``seat`` the words of ``text`` (normalised, filler left out: :meth:`content`) may mean: a partial move with the rest
        filled from the position, a move relative to a piece's square.  ``None``: the words do not
        read as a move at all; ``[]``: they do, but no legal move fits."""
        return self.hook(state, seat, text) if self.hook is not None else None

    def read(self, state: GameState[Any], seat: str, text: str) -> Reading:
        """What ``seat`` means by ``text`` in ``state`` (see the module doc); never raises for any text.

        A move read exactly as typed is that move when the rules allow it (or when it is not the seat's
        turn: the engine says so).  One they do not allow is kept for the engine to refuse with its
        reason, unless a looser reading finds legal moves: those are then asked about, never made."""
        parsed: Action | None = None  # a move read, but not one the rules allow now
        first: InvalidActionError | None = None
        if is_question(text):
            return Reading(error=InvalidActionError("a question, not a move", rule="CORE-ACTION", input=text))
        other = other_seat_named(text, state.seats, seat)
        if other is not None:
            return Reading(error=InvalidActionError(f"{other} makes its own moves; you play {seat}", rule="CORE-SEAT", input=text))
        try:
            action = state.parse_action(text)
        except InvalidActionError as exc:
            first = exc
        else:
            if seat not in state.to_act() or state.is_legal(seat, action):
                return Reading(action)
            parsed = action
        norm = self.normalise(text)
        if self.spelling is not None and norm:
            norm = self.spelling(state, seat, norm)
        if norm and not NEGATIONS & set(re.findall(r"[a-z']+", norm)):
            tried = {text}
            for attempt in (norm, self.content(norm)):
                if not attempt or attempt in tried:
                    continue
                tried.add(attempt)
                try:
                    action = state.parse_action(attempt)
                except InvalidActionError:
                    continue
                if state.is_legal(seat, action):
                    return Reading(action, read_as=str(action))
                parsed = parsed or action
            try:
                found = self.candidates(state, seat, self.content(norm))
            except InvalidActionError:
                found = None
            legal = _deduped(a for a in found or () if state.is_legal(seat, a))
            if parsed is None and len(legal) == 1:
                return Reading(legal[0], read_as=str(legal[0]))
            if parsed is None and legal:
                return Reading(candidates=legal, words=text.strip())
            if parsed is not None:  # the engine refuses it, saying why; a few legal readings are offered after
                said = str(parsed) if str(parsed) != text.strip() else None
                return Reading(parsed, read_as=said, candidates=legal if len(legal) <= SUGGEST else (), words=text.strip())
        if parsed is not None:
            return Reading(parsed, read_as=str(parsed) if str(parsed) != text.strip() else None)
        return Reading(error=first)


#: the reading every game gets without words of its own: its parser, numbers in words, the common words
PLAIN = Phrasing()
