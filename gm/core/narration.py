"""Narration claims: what a referee's narration states, checked against what the engine did.

The referee's narration is a model's words; the engine's events are the truth.  :func:`check`
pulls the checkable claims out of a narration and compares each with the turn's :class:`Facts`
(the events and results of this turn's tool calls, the statuses and seat views before and after,
the rules summary the model may quote).  The player's own words are not facts: "put the ball on
row 64" does not make row 64 true.  Sentences quoted from the engine (event texts, statuses,
rejection reasons) are never contradictions.

What can be claimed is the game's business: each game declares its :class:`Claims`
(:meth:`gm.core.game.Game.narration_claims`) - *event claims* (words saying something happened:
"tackled!", "first down") true only when an event of the named kinds happened this turn or just
before, *value claims* (a square, a tile number, a down and distance) true only when the engine's
account states the same value (the values of the events it narrates, for a value bound to event
kinds), *move claims* (the game's words for "your move was made": "your tile is down"), the seats'
*scores* as its views hold them, and any *custom* check.  Here live the claims every game shares:

- a move was made ("Done!", "I've made your move", "moved", "placed", "your pick is locked in"):
  true only when the engine accepted a move this turn (:func:`move_claim`);
- nothing happened ("could you rephrase?", "no move was made") while the engine accepted one;
- scores: "home 7 - 0 away", "7-0" (two seats), "orange leads 12 - 9", "orange has 12 points",
  "magenta 3, lime 5", "orange leads", "tied";
- "game over", a draw, and who won ("home wins", "you win").

Claims in a negated or hypothetical phrase ("no touchdown", "a match would be a turnover") are not
claims of fact and pass: an event claim is excused by a hedge word just before it or a conditional
anywhere earlier in its sentence, a value claim by the conditional only; a move claim also by a
question ("Shall I lock in play 2?") or by talk of an earlier turn ("you moved there last turn").
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gm.core.wording import seat_pattern

GAME_OVER = re.compile(r"\bgame\s+over\b|\bgame(?:\s+is|'s)\s+(?:now\s+)?(?:over|finished|done)\b|\b(?:wins?|won)\s+the\s+(?:game|match)\b"
                       r"|\bvictory\b", re.I)
DRAW = re.compile(r"\b(?:ends?|ended|finish(?:es|ed)?)\s+(?:in\s+)?(?:a\s+)?(?:draw|tie)\b|\b(?:a|the)\s+(?:draw|tie)\s+game\b"
                  r"|\bit'?s\s+a\s+(?:draw|tie)\b|\bgame\s+is\s+drawn\b", re.I)
SCORE_WORDS = re.compile(r"\b(?:score|scores|scoreboard|points?|leads?|leading|trails?|trailing|tied|level|wins?|won|final|halftime"
                         r"|touchdown|field\s+goal)\b", re.I)
PAIR = re.compile(r"\b([0-9]{1,3})\s*(?:-|–|:|to)\s*([0-9]{1,3})\b")
SEAT_SCORE = re.compile(r"\b([a-z]+)\s+([0-9]{1,3})\s*(?:-|–|:)\s*([0-9]{1,3})\s+([a-z]+)\b", re.I)
#: words just before a claim that make it negated or hypothetical
HEDGES = frozenset(
    "no not never without would could might may can cannot need needs needed chance almost nearly "
    "before until avoid avoids avoided risk risks or possible possibly any next".split()
)
#: two words just before a claim that make it a purpose or a distance, not a result: "to score a
#: touchdown", "one row away from a first down", "short of a first down"
PURPOSE = frozenset("score get reach make earn gain force avoid win".split())
NEAR = frozenset(tuple(pair.split()) for pair in "away from|short of|shy of".split("|"))
#: words anywhere earlier in the sentence that make the rest of it conditional
CONDITIONALS = frozenset("if when whenever unless whether should once".split())
#: words anywhere earlier in the sentence that make an event in it a requirement, not a result
#: ("you need row 30 for a first down")
REQUIREMENTS = frozenset("need needs must require requires required".split())
#: words just before a move claim that offer, ask about or deny the move rather than say it was made
MOVE_OFFERS = frozenset(
    "shall should want wanna like let's lets ready going gonna will i'll we'll you'll can could would might may "
    "not never to until till before after".split()
)
#: words anywhere in a move claim's sentence saying it is about another time than this message
MOVE_OTHER_TIME = frozenset("last earlier previous previously ago yet".split())
#: for :attr:`ValueClaim.events`: the events of every kind
ANY_EVENT: frozenset[str] = frozenset({"*"})
ORDINALS = {"first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th"}

# ------------------------------------------------------------------ move claims every game shares
_I_MADE = (r"made|played|submitted|entered|placed|moved|locked(?:\s+in)?|called|sent|put|taken|chosen|picked|confirmed|"
           r"registered|recorded|handled|executed|done")
_YOU_MADE = r"made|played|submitted|placed|moved|locked(?:\s+in)?|called|picked|chosen|confirmed|done|all\s+set"
_THING = r"(?:move|pick|call|play|choice|selection|decision|turn|action|order|plan|tile|cards?|piece|answer)s?"
#: generic words saying this message's move was made ("done", "I've made your move", "moved", "placed")
MOVE_WORDS: tuple[re.Pattern[str], ...] = (
    re.compile(r"(?:^|(?<=[.!?:;\n]))\s*(?:all\s+|it'?s\s+|that'?s\s+|and\s+)?done\b", re.I),
    re.compile(rf"\b(?:i|we)(?:'ve|\s+have|'ve\s+just|\s+just|\s+now)?\s+(?:just\s+|now\s+|already\s+)?(?:{_I_MADE})\b", re.I),
    re.compile(rf"\b(?:your|the)\s+(?:\w+\s+)?{_THING}\s+(?:is|are|has\s+been|have\s+been|was|were)\s+(?:now\s+)?"
               rf"(?:in|down|made|done|set|locked|placed|played|submitted|entered|registered|confirmed|complete|recorded|through)\b", re.I),
    re.compile(rf"\byou(?:'ve|\s+have|'re|\s+are)?\s+(?:just\s+|now\s+)?(?:{_YOU_MADE})\b", re.I),
    re.compile(r"\byour\s+(?:\w+\s+){0,3}?(?:moved|placed|advanced|stepped|went)\b", re.I),
    re.compile(r"(?:^|(?<=[.!?:;\n]))\s*(?:moved|placed|played|submitted|locked\s+in|called|sent|confirmed)\b", re.I),
    re.compile(r"(?:^|(?<=[.!?:;\n]))\s*all\s+set\b", re.I),
)
#: words saying that nothing happened in the game (false when the engine made a move this turn)
NOTHING_WORDS = re.compile(
    r"\bcould\s+you\s+rephrase\b|\bplease\s+rephrase\b|\bnothing\s+(?:has\s+)?(?:happened|changed)\b|\bno\s+move\s+(?:was|has\s+been)\s+made\b"
    r"|\bcould\s*n[o']t\s+(?:turn|make|do|read|process|understand)\s+(?:that|this|it|your|the|any)\b"
    r"|\b(?:was|were)\s*n[o']t\s+able\s+to\s+(?:make|do|play|place|move|submit)\b|\bnothing\s+was\s+(?:done|made|played)\b",
    re.I,
)


@dataclass
class Facts:
    """What the engine says about the turn (and just before it)."""

    corpus: str  # event texts, statuses, results, views, rules summary
    kinds: set[str] = field(default_factory=set)  # event kinds of this turn
    recent_kinds: set[str] = field(default_factory=set)  # event kinds of the last turns
    scores: list[dict[str, int]] = field(default_factory=list)  # every scoreboard the views hold, before / after
    seats: tuple[str, ...] = ()
    over: bool = False
    quotes: list[str] = field(default_factory=list)  # engine sentences: quoting them is never a contradiction
    statuses: tuple[str, ...] = ()  # before / after
    views: tuple[Mapping[str, Any], ...] = ()  # the seat's views before / after
    claims: Claims | None = None  # what this game's narrations can claim
    events: tuple[Mapping[str, Any], ...] = ()  # this turn's events (kind, text and the event's fields)
    recent_events: tuple[Mapping[str, Any], ...] = ()  # the events of the last turns
    moves: tuple[str, ...] = ()  # the moves the engine accepted this turn (the referee's calls)
    seat: str | None = None  # whose turn is narrated ("you")
    due: bool = True  # that seat still has a decision to make after the turn
    winners: frozenset[str] = frozenset()  # seats the engine says won (the game, or a game of a match)
    drawn: bool = False  # the engine says the game (or a game of a match) is drawn
    boards: tuple[dict[str, int], ...] = ()  # the main scoreboard of each view, before / after
    scores_now: tuple[dict[str, int], ...] = ()  # every scoreboard of the view after the turn (who leads now)
    #: what :func:`check` works out once per turn (the quotes' pattern, the values each claim knows):
    #: a streamed narration is checked again and again as it grows
    # speed seam: narration-memo - each value claim's known values (and the quotes' pattern) worked
    # out once per turn, not at every check of a growing narration: a check of a turn's narrations
    # takes 1.2-2.9x as long without it
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def quotes_pattern(self) -> re.Pattern[str] | None:
        """One pattern for every engine sentence worth matching (the longest first)."""
        if "quotes" not in self.memo:
            quotes = sorted({q for q in self.quotes if len(q) >= 12}, key=len, reverse=True)
            self.memo["quotes"] = re.compile("|".join(re.escape(q) for q in quotes), re.I) if quotes else None
        found: re.Pattern[str] | None = self.memo["quotes"]
        return found

    def texts(self, kinds: Iterable[str] | None = None, *, recent: bool = True) -> list[str]:
        """The texts of this turn's events (and the last turns', ``recent``) of ``kinds`` (all:
        ``None`` or :data:`ANY_EVENT`)."""
        wanted = None if kinds is None or kinds == ANY_EVENT else frozenset(kinds)
        pool = (*self.events, *self.recent_events) if recent else self.events
        return [str(ev.get("text", "")) for ev in pool if wanted is None or str(ev.get("kind")) in wanted]

    def of(self, kinds: Iterable[str], *, recent: bool = True) -> list[Mapping[str, Any]]:
        """This turn's events (and the last turns', ``recent``) of ``kinds``."""
        wanted = frozenset(kinds)
        pool = (*self.events, *self.recent_events) if recent else self.events
        return [ev for ev in pool if str(ev.get("kind")) in wanted]


@dataclass(frozen=True, slots=True)
class EventClaim:
    """Words saying an event happened (``what``: "a touchdown"): true only when an event of one of
    ``kinds`` happened this turn or just before, or when ``unless(facts)`` says the state shows it."""

    what: str
    pattern: re.Pattern[str]
    kinds: frozenset[str]
    unless: Callable[[Facts], bool] | None = None
    #: the seat named with the claim ("TOUCHDOWN away!", "home scores a touchdown") must be the one
    #: the engine's event names
    by_seat: bool = False


def _same(m: re.Match[str]) -> str:
    return m.group(0)


@dataclass(frozen=True, slots=True)
class ValueClaim:
    """A value the narration states (a square, a tile number, a down and distance): true only when
    the engine's account states the same value.  ``value`` normalises a match ("second and 4" ->
    "2nd & 4"); the values known are ``known(facts)``, else - with ``events`` - the pattern's matches
    in the texts of the events of those kinds (this turn or just before: the event the claim
    narrates), else its matches anywhere in the engine's account, normalised alike.  A finding reads
    ``label.format(what=..., value=...)`` then ``message``."""

    what: str
    pattern: re.Pattern[str]
    value: Callable[[re.Match[str]], str] = _same
    known: Callable[[Facts], set[str]] | None = None
    label: str = "{what} {value}"
    message: str = "not in the engine's account of this turn"
    conditional_only: bool = True  # only a conditional excuses it (a value is never "nearly" stated)
    events: frozenset[str] | None = None
    #: with ``events``: names what a claim is about (a piece, a seat; "you"/"your" is the narrated
    #: seat), found last in the claim's sentence before the value; only events naming it count
    subject: re.Pattern[str] | None = None
    #: with ``events``: how the values are read out of the engine's texts (each match's text is a
    #: value), when they are written otherwise than the claim ("S2 moves E0-E-1" for "S2 moves to E-1")
    extract: re.Pattern[str] | None = None

    def values_known(self, facts: Facts, about: str | None = None) -> set[str]:
        if self.known is not None:
            return self.known(facts)
        texts = facts.texts(self.events) if self.events is not None else [facts.corpus]
        if about:  # the parts of the engine's texts that name it (one event may list several pieces: "HV2 to J37; QB to H38")
            named = re.compile(rf"(?<![\w-]){re.escape(about)}(?![\w-])", re.I)
            texts = [part for t in texts for part in re.split(r"[;|]", t) if named.search(part)]
        if self.extract is not None:
            return {m.group(0) for text in texts for m in self.extract.finditer(text)}
        return {self.value(m) for text in texts for m in self.pattern.finditer(text)}

    def about(self, text: str, start: int, facts: Facts) -> str | None:
        """What the claim at ``start`` is about (see :attr:`subject`), or ``None``."""
        if self.subject is None:
            return None
        head = max(text.rfind(c, 0, start) for c in ".!?;\n") + 1
        found = list(self.subject.finditer(text, head, start))
        if not found:
            return None
        name = found[-1].group(0)
        return facts.seat if name.lower() in ("you", "your") else name


#: a custom check: the findings in a narration (quotes of the engine already removed)
Custom = Callable[[str, Facts], list[str]]
#: the scoreboards (seat -> points) a view of the game holds; the first is the main one
Scoreboards = Callable[[Mapping[str, Any]], list[dict[str, int]]]


@dataclass(frozen=True, slots=True)
class Claims:
    """What a game's narrations can claim (:meth:`gm.core.game.Game.narration_claims`).

    ``moves``: the game's own words saying the player's move was made ("your tile is down", "the
    ball is snapped"), added to the generic ones (:data:`MOVE_WORDS`).  ``scores``: the seats'
    points as a view holds them (default: the view's ``score`` mapping)."""

    events: tuple[EventClaim, ...] = ()
    values: tuple[ValueClaim, ...] = ()
    custom: tuple[Custom, ...] = ()
    moves: tuple[re.Pattern[str], ...] = ()
    scores: Scoreboards | None = None


def ordinal_pair(what: str, noun: str, tail: str | None = None) -> ValueClaim:
    """A claim like "2nd & 6" / "third down and 4" (``noun`` "down", ``tail`` "goal"), normalised to
    ``2nd & 6``: for games that count attempts with a distance.  True only when a status before or
    after the turn, or one of this turn's events, states the same (never the rules text)."""
    words = "|".join([*ORDINALS.values(), *ORDINALS])
    end = rf"[0-9]{{1,2}}|{re.escape(tail)}" if tail else r"[0-9]{1,2}"
    pattern = re.compile(rf"\b({words})(?:\s+{re.escape(noun)})?\s*(?:&|and)\s*({end})\b", re.I)

    def value(m: re.Match[str]) -> str:
        o = m.group(1).lower()
        return f"{ORDINALS.get(o, o)} & {m.group(2).lower()}"

    def known(facts: Facts) -> set[str]:
        return {value(m) for text in (*facts.statuses, *facts.texts()) for m in pattern.finditer(text)}

    return ValueClaim(what, pattern, value, known=known, label="{value}", message=f"the engine's {what} differ",
                      conditional_only=False)


def status_shows(text: str) -> Callable[[Facts], bool]:
    """For :attr:`EventClaim.unless`: the status after the turn shows ``text``."""
    return lambda facts: bool(facts.statuses) and text in facts.statuses[-1]


def new_series(mark: str = "1st &") -> Callable[[Facts], bool]:
    """For :attr:`EventClaim.unless`: a new series began this turn - the status after the turn shows
    ``mark`` ("1st & 10 at E14") and the status before did not show that same down and spot (a move
    inside a first down is no new first down)."""
    spot = re.compile(rf"{re.escape(mark)}[^|]*")

    def shows(facts: Facts) -> bool:
        if not facts.statuses:
            return False
        after = spot.search(facts.statuses[-1])
        if after is None:
            return False
        before = spot.search(facts.statuses[0]) if len(facts.statuses) > 1 else None
        return before is None or before.group(0).strip() != after.group(0).strip()

    return shows


def hedged(text: str, start: int, *, conditional_only: bool = False) -> bool:
    """Whether the claim at ``start`` sits in a negated or hypothetical phrase: a conditional anywhere
    earlier in its sentence; for an event claim (not ``conditional_only``) also a requirement earlier
    in the sentence, or a hedge, a purpose or a distance among the four words just before it in its
    clause; for a value claim a negation right before it ("not 3rd & 2")."""
    sentence_start = max(text.rfind(c, 0, start) for c in ".!?;\n") + 1
    words = re.findall(r"[a-z']+", text[sentence_start:start].lower())
    if any(w in CONDITIONALS for w in words):
        return True
    clause_start = max(sentence_start, *(text.rfind(c, 0, start) + 1 for c in ",:"), text.rfind(" - ", 0, start) + 1)
    last = re.findall(r"[a-z']+", text[clause_start:start].lower())[-4:]
    if conditional_only:
        return bool(last) and (last[-1] in ("not", "no", "never") or last[-1].endswith("n't"))
    if any(w in REQUIREMENTS for w in words):
        return True
    pairs = list(itertools.pairwise(last))
    if any((a == "to" and b in PURPOSE) or (a, b) in NEAR for a, b in pairs):
        return True
    return any(w in HEDGES or w.endswith("n't") for w in last)


_RULE_VERB = re.compile(
    r"\s*(?:is|are|means|needs|requires|counts|scores|ends|gives|earns|wins|happens|occurs|lets|stops|costs|takes|has|can|may"
    r"|must|would|will|only|always|never|does|gets)\b", re.I)
_DEMONSTRATIVE = frozenset("that this it that's it's what here there".split())


def generic(text: str, m: re.Match[str]) -> bool:
    """Whether an event claim's words name the event in general - a rules statement ("a touchdown is
    worth 7", "winning the backfield is a sack", "an interception ends the drive") - rather than say
    one happened ("A touchdown!", "That is a sack!")."""
    before, after, mark = _sentence(text, m.start(), m.end())
    if mark == "!":
        return False
    words = re.findall(r"[a-z']+", before.lower())
    if words and words[-1] in ("a", "an", "each", "every", "any") and (_RULE_VERB.match(after) or " is " in m.group(0).lower()):
        return True
    return (len(words) >= 3 and words[-1] in ("a", "an") and words[-2] in ("is", "are", "means", "as", "be", "gives", "causes")
            and words[0] not in _DEMONSTRATIVE)


def _seat_named(text: str, m: re.Match[str], facts: Facts) -> str | None:
    """The seat a claim names right beside it: "TOUCHDOWN away!", "a touchdown for home", "home
    scores a touchdown", "your touchdown" (the narrated seat)."""
    seats = {s.lower(): s for s in facts.seats}
    after = re.match(r"\s*(?:for|by)?\s*([a-z]+)\b", text[m.end():m.end() + 24], re.I)
    if after and after.group(1).lower() in seats:
        return seats[after.group(1).lower()]
    before = re.findall(r"[a-z']+", text[max(0, m.start() - 40):m.start()].lower())[-4:]
    for w in reversed(before):
        base = w.removesuffix("'s")
        if base in seats:
            return seats[base]
        if w in ("your", "you") and facts.seat:
            return facts.seat
    return None


def _sentence(text: str, start: int, end: int) -> tuple[str, str, str]:
    """The sentence around ``text[start:end]``: what comes before the match in it, the match's
    tail to the sentence's end, and the mark that ends it (``?``, ``.``, ... or ``""``)."""
    head = max(text.rfind(c, 0, start) for c in ".!?;\n") + 1
    ends = [i for i in (text.find(c, end) for c in ".!?;\n") if i >= 0]
    stop = min(ends) if ends else len(text)
    return text[head:start], text[end:stop], text[stop:stop + 1]


def _offered(before: str, after: str, mark: str) -> bool:
    """A move claim's sentence asks, offers, denies or talks of another time rather than saying it was done."""
    if mark == "?":
        return True
    words = re.findall(r"[a-z']+", before.lower())
    if any(w in CONDITIONALS for w in words) or any(w in MOVE_OFFERS or w.endswith("n't") for w in words[-3:]):
        return True
    return any(w in MOVE_OTHER_TIME for w in re.findall(r"[a-z']+", f"{before} {after}".lower()))


def move_claim(text: str, claims: Claims | None = None, *, seats: Iterable[str] = (), seat: str | None = None) -> str | None:
    """The first phrase of ``text`` saying a move was made this message ("Done!", "I've placed your
    tile", the game's own :attr:`Claims.moves`), or ``None``.  A phrase in a question, an offer, a
    conditional, a negation or talk of another turn is none; so is one about another seat ("away has
    locked in", "the bot moved")."""
    others = {s.lower() for s in seats if s != seat} | {"bot", "bots", "opponent", "opponents", "they", "they've", "he", "she",
                                                         "computer", "cpu", "ai", "rival"}
    for pattern in (*MOVE_WORDS, *(claims.moves if claims else ())):
        for m in pattern.finditer(text):
            before, after, mark = _sentence(text, m.start(), m.end())
            if _offered(before, after, mark):
                continue
            near = re.findall(r"[a-z']+", before.lower())[-3:] + re.findall(r"[a-z']+", m.group(0).lower())
            if others & set(near) or any(w.endswith("'s") and w[:-2] in others for w in near):
                continue
            return " ".join(m.group(0).split())
    return None


# ------------------------------------------------------------------ facts
def state_of(view: Mapping[str, Any]) -> Mapping[str, Any]:
    """The game's own part of a seat's view: a session's view holds it under ``state``; a state's view is it."""
    inner = view.get("state") if isinstance(view, Mapping) else None
    return inner if isinstance(inner, Mapping) else view


def _scoreboards(view: Mapping[str, Any], claims: Claims | None) -> list[dict[str, int]]:
    if claims is not None and claims.scores is not None:
        return [dict(b) for b in claims.scores(state_of(view))]
    score = state_of(view).get("score") if isinstance(view, Mapping) else None
    if isinstance(score, Mapping) and score and all(isinstance(v, int) and not isinstance(v, bool) for v in score.values()):
        return [{str(k): int(v) for k, v in score.items()}]
    return []


_WINS = r"\b({seat})\s+(?:wins|won)\b"


def _kind(kind: Any) -> str:
    """An event's kind as its JSON has it (an enum's value)."""
    return str(getattr(kind, "value", kind))


def build_facts(
    *,
    results: Iterable[Mapping[str, Any]],
    statuses: Sequence[str],
    views: Iterable[Mapping[str, Any]],
    rules_text: str,
    recent_kinds: Iterable[str] = (),
    seats: Iterable[str] = (),
    over: bool = False,
    claims: Claims | None = None,
    seat: str | None = None,
    outcome: str | None = None,
    recent_events: Iterable[Mapping[str, Any]] = (),
    due: bool | None = None,
) -> Facts:
    """Facts from this turn's tool results, the statuses and seat views before and after (``seat``:
    whose turn it is; ``outcome``: the game's result once it is over; ``recent_events``: the events
    of the last turns; ``due``: whether ``seat`` still has a decision to make)."""
    parts = [rules_text, *statuses]
    quotes: list[str] = [*statuses]
    kinds: set[str] = set()
    events: list[Mapping[str, Any]] = []
    moves: list[str] = []
    for res in results:
        if res.get("ok") and res.get("kind") == "action":
            moves.append(str(res.get("action", "")))
            for ev in res.get("events") or []:
                if isinstance(ev, Mapping):
                    ev = {**ev, "kind": _kind(ev.get("kind"))}
                    events.append(ev)
                    kinds.add(ev["kind"])
                    parts.append(str(ev.get("text", "")))
                    quotes.append(str(ev.get("text", "")))
        err = res.get("error")
        if isinstance(err, Mapping) and err.get("reason"):
            quotes.append(str(err["reason"]))
        # the options the engine listed (a refusal's, a look-up's): naming one is quoting the engine
        options = [*(err.get("legal") or [] if isinstance(err, Mapping) else []), *(res.get("legal") or []), *(res.get("summary") or [])]
        quotes.extend(str(o) for o in options if isinstance(o, str))
        parts.append(json.dumps({k: v for k, v in res.items() if k not in ("board", "events")}, default=str))
    views = tuple(views)
    scores: list[dict[str, int]] = []
    boards: list[dict[str, int]] = []
    now: list[dict[str, int]] = []
    for view in views:
        parts.append(json.dumps(view, default=str))
        now = _scoreboards(view, claims)
        scores.extend(now)
        boards.extend(now[:1])
    recent = tuple({**e, "kind": _kind(e.get("kind"))} for e in recent_events if isinstance(e, Mapping))
    seat_list = tuple(seats)
    ended = [str(ev.get("text", "")) for ev in (*events, *recent) if str(ev.get("kind")) in ("game_over", "match_over")]
    if outcome:
        ended.append(str(outcome))
    winners = frozenset(s for s in seat_list for text in ended if re.search(_WINS.format(seat=re.escape(s)), text, re.I))
    drawn = any(re.search(r"\b(?:draw|drawn|tie|tied)\b", text, re.I) for text in ended)
    return Facts("\n".join(parts), kinds, {_kind(k) for k in recent_kinds} | {str(e["kind"]) for e in recent}, scores, seat_list, over,
                 quotes, tuple(statuses), views, claims, tuple(events), recent, tuple(moves), seat,
                 True if due is None else due, winners, drawn, tuple(boards), tuple(now))


# ------------------------------------------------------------------ the check
def check(narration: str, facts: Facts) -> list[str]:
    """Contradictions between ``narration`` and ``facts`` (empty: consistent)."""
    out: list[str] = []
    quotes = facts.quotes_pattern()
    if quotes is not None:
        narration = quotes.sub(" ", narration)
    claims = facts.claims or Claims()
    for n, vc in enumerate(claims.values):
        for m in vc.pattern.finditer(narration):
            value = vc.value(m)
            about = vc.about(narration, m.start(), facts)
            key = ("values", n, about)  # speed seam: narration-memo - the claim by its place among the turn's claims
            if key not in facts.memo:
                facts.memo[key] = vc.values_known(facts, about)
            if value not in facts.memo[key] and not hedged(narration, m.start(), conditional_only=vc.conditional_only):
                whose = f" ({about})" if about else ""
                out.append(f"{vc.label.format(what=vc.what, value=value)}{whose}: {vc.message}")
    happened = facts.kinds | facts.recent_kinds
    for ec in claims.events:
        for m in ec.pattern.finditer(narration):
            if hedged(narration, m.start()) or generic(narration, m):
                continue
            if ec.kinds & happened:
                who = _seat_named(narration, m, facts) if ec.by_seat else None
                if who and not any(re.search(rf"\b{re.escape(who)}\b", t, re.I) for t in facts.texts(ec.kinds)):
                    out.append(f"{ec.what} for {who}: the engine gives it to another side")
                    break
                continue
            if ec.unless is not None and ec.unless(facts):
                continue
            out.append(f"{ec.what}: the engine reports none this turn")
            break
    for custom in claims.custom:
        out.extend(custom(narration, facts))
    out.extend(_check_moves(narration, facts))
    for m in GAME_OVER.finditer(narration):
        if not facts.over and not ({"game_over", "match_over"} & facts.kinds) and not hedged(narration, m.start()):
            out.append("the game is not over")
            break
    for m in DRAW.finditer(narration):
        if not facts.drawn and not hedged(narration, m.start()):
            out.append("a draw: the engine reports no draw")
            break
    out.extend(_check_scores(narration, facts))
    out.extend(_check_winners(narration, facts))
    return list(dict.fromkeys(out))


def _check_moves(narration: str, facts: Facts) -> list[str]:
    """A move claimed while the engine accepted none this turn; "nothing happened" while it accepted one."""
    out = []
    if not facts.moves and facts.due:
        said = move_claim(narration, facts.claims, seats=facts.seats, seat=facts.seat)
        if said is not None:
            out.append(f"a move made ({said!r}): the engine accepted no move this turn")
    if facts.moves:
        for m in NOTHING_WORDS.finditer(narration):
            if not hedged(narration, m.start(), conditional_only=True):
                out.append(f"nothing happened ({m.group(0)!r}): the engine made {'; '.join(facts.moves)}")
                break
    return out


def _check_scores(narration: str, facts: Facts) -> list[str]:
    if not facts.scores or not facts.seats:
        return []
    out: list[str] = []
    seats = {s.lower(): s for s in facts.seats}
    names = seat_pattern(facts.seats)
    pairs = [sorted(s.values()) for s in facts.scores]
    two = len(facts.seats) == 2
    for sentence in re.split(r"(?<=[.!?])\s+|\n", narration):
        if hedged(sentence, len(sentence), conditional_only=True):
            continue
        named = [m for m in SEAT_SCORE.finditer(sentence) if m.group(1).lower() in seats and m.group(4).lower() in seats]
        for m in named:
            a, x, y, b = seats[m.group(1).lower()], int(m.group(2)), int(m.group(3)), seats[m.group(4).lower()]
            if not any(s.get(a) == x and s.get(b) == y for s in facts.scores):
                out.append(f"score {a} {x} - {y} {b}: the engine's score differs")
        leads = list(re.finditer(
            rf"\b({names})\s+(?:now\s+|still\s+)?(leads?|is\s+leading|is\s+ahead|is\s+in\s+the\s+lead|trails?|is\s+trailing|is\s+behind)"
            rf"(?:\s+\w+){{0,2}}?(?:\s+by)?\s+([0-9]{{1,3}})\s*(?:-|–|:|to)\s*([0-9]{{1,3}})\b", sentence, re.I))
        for m in leads:
            seat, x, y = seats[m.group(1).lower()], int(m.group(3)), int(m.group(4))
            ahead = not m.group(2).lower().startswith(("trail", "is trailing", "is behind"))
            if not any(_leader_claim(s, seat, x, y, ahead) for s in facts.scores_now or facts.scores):
                out.append(f"score {seat} {m.group(2).lower()} {x}-{y}: the engine's score differs")
        if not leads:
            for m in re.finditer(rf"\b({names})\s+(?:now\s+|still\s+)?(?:leads?|is\s+leading|is\s+ahead|is\s+in\s+the\s+lead)\b", sentence, re.I):
                seat = seats[m.group(1).lower()]
                if facts.boards and _strict_leader(facts.boards[-1]) != seat:
                    out.append(f"{seat} leads: the engine's score says otherwise")
        out.extend(_check_points(sentence, facts, seats, names))
        if re.search(r"\b(?:tied|level|all\s+square)\b", sentence, re.I) and not PAIR.search(sentence) and facts.boards and len(
            set(facts.boards[-1].values())
        ) > 1 and not hedged(sentence, len(sentence)):
            out.append("a tied score: the engine's score is not level")
        if named or leads or not two or not SCORE_WORDS.search(sentence):
            continue
        for m in PAIR.finditer(sentence):
            claim = sorted((int(m.group(1)), int(m.group(2))))
            if claim not in pairs:
                out.append(f"score {m.group(1)}-{m.group(2)}: the engine's score differs")
    return out


def _leader_claim(board: Mapping[str, int], seat: str, x: int, y: int, ahead: bool) -> bool:
    mine = board.get(seat)
    others = [v for s, v in board.items() if s != seat]
    if mine is None or not others:
        return False
    if ahead:
        return mine == x and x > y and max(others) == y
    return (mine == x and max(others) == y and x < y) or (mine == y and max(others) == x and y < x)


def _strict_leader(board: Mapping[str, int]) -> str | None:
    best = max(board.values(), default=None)
    top = [s for s, v in board.items() if v == best]
    return top[0] if len(top) == 1 else None


def _check_points(sentence: str, facts: Facts, seats: Mapping[str, str], names: str) -> list[str]:
    """Per-seat points: "orange has 12 points", "12 points for orange", "magenta 3, lime 5"."""
    out: list[str] = []
    claimed: list[tuple[str, int, str]] = []
    for m in re.finditer(rf"\b({names})(?:'s\s+score|\s+score)?\s+(?:now\s+)?(?:has|have|is\s+on|is\s+at|on|at|with|is|:)?\s*(?:now\s+)?"
                         rf"([0-9]{{1,3}})\s*(?:points?|pts)\b", sentence, re.I):
        claimed.append((seats[m.group(1).lower()], int(m.group(2)), m.group(0)))
    for m in re.finditer(rf"\b([0-9]{{1,3}})\s*(?:points?|pts)\s+(?:for|to)\s+({names})\b", sentence, re.I):
        claimed.append((seats[m.group(2).lower()], int(m.group(1)), m.group(0)))
    listed = list(re.finditer(rf"\b({names})\s*:?\s+([0-9]{{1,3}})\b(?!\s*(?:-|–|:|to)\s*[0-9])", sentence, re.I))
    if len(listed) >= 2 and SCORE_WORDS.search(sentence):
        claimed.extend((seats[m.group(1).lower()], int(m.group(2)), m.group(0)) for m in listed)
    for seat, n, said in claimed:
        if not any(b.get(seat) == n for b in facts.scores) and not _gained(facts, seat, n):
            out.append(f"{seat} {n} points ({said.strip()!r}): the engine's score differs")
    return out


def _gained(facts: Facts, seat: str, n: int) -> bool:
    """Whether ``seat`` gained ``n`` points between the scoreboards before and after the turn."""
    if len(facts.boards) < 2:
        return False
    before, after = facts.boards[0].get(seat), facts.boards[-1].get(seat)
    return before is not None and after is not None and after - before == n and n > 0


def _check_winners(narration: str, facts: Facts) -> list[str]:
    """"SEAT wins" / "you win": true only when the engine names that seat the winner (the toss, a
    zone or a collision won are no game won)."""
    if not facts.seats:
        return []
    out: list[str] = []
    names = seat_pattern(facts.seats)
    seats = {s.lower(): s for s in facts.seats}
    not_game = r"(?!\s+(?:the\s+)?(?:coin|toss|zone|collision|roll|race|battle|ball|possession|kick|flip|[A-Z]{2}\b|[A-Z][a-z]+field|backfield))"
    claims: list[tuple[str, int]] = [
        (seats[m.group(1).lower()], m.start())
        for m in re.finditer(rf"\b({names})\s+(?:wins|won|has\s+won|is\s+the\s+winner|takes\s+the\s+(?:game|match|win)){not_game}\b", narration, re.I)
    ]
    if facts.seat:
        claims += [(facts.seat, m.start()) for m in re.finditer(rf"\byou\s+(?:win|won|have\s+won|are\s+the\s+winner){not_game}\b", narration, re.I)]
        others = [s for s in facts.seats if s != facts.seat]
        if len(others) == 1:
            claims += [(others[0], m.start()) for m in re.finditer(r"\byou\s+(?:lose|lost|have\s+lost)\b", narration, re.I)]
    for seat, at in claims:
        if seat in facts.winners or hedged(narration, at):
            continue
        out.append(f"{seat} wins: the engine does not say so")
    return out
