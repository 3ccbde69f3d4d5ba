"""Quarter Back actions: move a piece, pass the ball, end the turn.

Text forms (``str(action)``) parse back exactly: ``move T1 C3-C5`` (the piece,
then its path: optionally its own square first, then waypoints, each leg along a
row, column or diagonal), ``move D1 C2-C4-D5``, ``move QB E1`` (a bare
destination), ``pass to E7``, ``end``.  The JSON forms carry the same fields
(``{"type": "move", "piece": "T1", "to": "C5", "via": ["C3"]}``), which are also
the argument names of the action tools.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from gm.core.actions import Action
from gm.core.errors import bad_input
from gm.games.quarterback.rules import parse_square, square_name

NOTATION = "QB-R-NOTATION"
FORMS = ("move T1 C3-C5", "move D1 C0-C1-D2", "move QB E1", "S2 forward", "pass to E7", "end")
_PIECE = re.compile(r"^(QB|[SDT][1-9])$")


def _square(text: object) -> str:
    if not isinstance(text, str):
        raise bad_input("a square is a text like E7 or E-1", text, rule=NOTATION, legal=FORMS)
    try:
        return square_name(parse_square(text))
    except ValueError as exc:
        raise bad_input(str(exc), text, rule=NOTATION, legal=FORMS) from None


# alike on purpose: every game's actions are frozen dataclasses of this shape (fields, a type tag, checks in
# __post_init__, a text form: gm.core.actions.Action), each holding its own game's move in its own words
@dataclass(frozen=True, slots=True)
class MovePiece(Action):
    """Move one of your pieces: ``piece`` (QB, S1, D2, T1 ...) to ``to`` through the ``via`` squares."""

    piece: str
    to: str
    via: tuple[str, ...] = ()
    type: ClassVar[str] = "move"

    def __post_init__(self) -> None:
        if not isinstance(self.piece, str) or not _PIECE.match(self.piece.strip().upper()):
            raise bad_input("a piece is QB (the Quarterback) or S, D or T with a number (S1, D2, T1)", self.piece, rule=NOTATION, legal=FORMS)
        object.__setattr__(self, "piece", self.piece.strip().upper())
        object.__setattr__(self, "to", _square(self.to))
        if isinstance(self.via, str) or not isinstance(self.via, list | tuple):
            raise bad_input("via is a list of squares", self.via, rule=NOTATION, legal=FORMS)
        object.__setattr__(self, "via", tuple(_square(v) for v in self.via))

    @property
    def path(self) -> tuple[str, ...]:
        """The named squares in order: ``via`` then ``to``."""
        return (*self.via, self.to)

    def __str__(self) -> str:
        return f"move {self.piece} {'-'.join(self.path)}"


# alike on purpose: every game's actions are frozen dataclasses of this shape (fields, a type tag, checks in
# __post_init__, a text form: gm.core.actions.Action), each holding its own game's move in its own words
@dataclass(frozen=True, slots=True)
class PassBall(Action):
    """Pass the ball from the carrier to a square (a receiver's, or an empty one)."""

    to: str
    type: ClassVar[str] = "pass"

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", _square(self.to))

    def __str__(self) -> str:
        return f"pass to {self.to}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End your turn (you may do less than the full turn)."""

    type: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end"


ACTION_TYPES: dict[str, type[Action]] = {c.type: c for c in (MovePiece, PassBall, EndTurn)}

_NUMBERS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_ORDINALS = {"first": "1", "1st": "1", "second": "2", "2nd": "2", "third": "3", "3rd": "3", "fourth": "4", "4th": "4"}
_KINDS = {"single": "S", "double": "D", "triple": "T"}
_QB_WORDS = {"qb", "quarterback", "quarter-back", "q"}
_END_WORDS = {"end", "done", "finish", "finished", "skip", "stop", "over", "pass-turn", "ends"}
#: whole messages that end the turn ("I'm done", "that's it", "no more moves")
_END_PHRASE = re.compile(
    r"^(?:(?:i|we)(?: am| m| are| re)? )?(?:done|finished|through)(?: now| for now| here)?$"
    r"|^(?:that s|thats|that is) (?:it|all)$|^no more(?: moves| actions)?$|^nothing (?:more|else)$"
)
_PASS_WORDS = {"pass", "passes", "throw", "throws", "lob", "lobs", "toss", "tosses", "handoff", "hands"}
_MOVE_WORDS = {
    "move", "moves", "go", "goes", "run", "runs", "step", "steps", "walk", "walks", "rush", "rushes", "push", "pushes",
    "tackle", "tackles", "take", "takes", "advance", "advances", "charge", "charges", "block", "blocks", "drop", "drops",
    "retreat", "retreats", "send", "sends", "bring", "brings",
}  # fmt: skip
_FILLER = {
    "the", "a", "my", "your", "ball", "turn", "please", "to", "from", "via", "then", "and", "through", "with", "it",
    "square", "on", "onto", "into", "up", "i", "will", "ll", "now", "piece", "of", "that's", "all", "is", "at",
    "let", "lets", "let's", "want", "like", "would", "d", "off", "toward", "towards", "receiver", "by",
}  # fmt: skip
_VIA = {"via", "through", "by"}
#: how a move or a pass goes, said beside the square it goes to: adds nothing to the square
_MANNER = {"back", "backward", "backwards", "sideways", "forward", "forwards", "across", "long", "short", "deep", "ahead", "down"}
_SQ_TOKEN = re.compile(r"[a-z]-?\d{1,2}")
_PATH_TOKEN = re.compile(r"[a-z]-?\d{1,2}(?:-?[a-z]-?\d{1,2})*")


def _words(text: str) -> list[str]:
    t = text.strip().lower().replace("\u2212", "-")  # a typographic minus
    for arrow in ("->", "=>", "→", "—", "–", ">"):
        t = t.replace(arrow, " ")
    t = t.replace("pass turn", "pass-turn").replace("quarter back", "quarterback").replace("hand off", "handoff")
    t = re.sub(r"\b([a-z])\s*minus\s*(\d)", r"\1-\2", t)  # "E minus 1"
    t = re.sub(r"[,;:!?()\[\]{}\"'`]", " ", t)
    t = re.sub(r"\.(\s|$)", r" ", t)
    t = re.sub(r"\s-\s", " ", t)
    return [_NUMBERS.get(w, w) for w in t.split()]


def _squares(tokens: list[str], text: str) -> list[str]:
    out: list[str] = []
    for tok in tokens:
        if not _PATH_TOKEN.fullmatch(tok):
            raise bad_input(f"cannot read {tok!r} as a square (write a column letter and a row, e.g. E7 or E-1)", text, rule=NOTATION, legal=FORMS)
        out.extend(_SQ_TOKEN.findall(tok))
    return [_square(s) for s in out]


def _piece(words: list[str]) -> tuple[str | None, list[str]]:
    """The piece named at the front of ``words`` and the words after it."""
    if not words:
        return None, words
    w = words[0]
    if w in _QB_WORDS:
        return "QB", words[1:]
    if w in _ORDINALS and len(words) > 1 and words[1].rstrip("s") in _KINDS:  # "the first double"
        return _KINDS[words[1].rstrip("s")] + _ORDINALS[w], words[2:]
    if re.fullmatch(r"[sdt][1-9]", w):
        return w.upper(), words[1:]
    kind = _KINDS.get(w.rstrip("s"))
    if kind is None and w[:-1] in _KINDS and w[-1].isdigit():
        return _KINDS[w[:-1]] + w[-1], words[1:]
    m = re.fullmatch(r"(single|double|triple)([1-9])", w)
    if m:
        return _KINDS[m.group(1)] + m.group(2), words[1:]
    if kind is not None and len(words) > 1 and re.fullmatch(r"#?[1-9]", words[1]):
        return kind + words[1].lstrip("#"), words[2:]
    return None, words


#: the canonical text forms (what ``str(action)`` writes and a log stores), read without the natural-language pass
_CANONICAL = re.compile(r"^(?:move (QB|[SDT][1-9]) ([A-Z]-?\d{1,2}(?:-[A-Z]-?\d{1,2})*)|pass to ([A-Z]-?\d{1,2})|end)$")
_CANONICAL_SQUARE = re.compile(r"[A-Z]-?\d{1,2}")


def parse_action(text: str) -> Action:
    """Parse any Quarter Back action, tolerant of natural phrasings (see ``FORMS``)."""
    if not isinstance(text, str) or not text.strip():
        raise bad_input("empty action", text, rule=NOTATION, legal=FORMS)
    m = _CANONICAL.match(text)
    if m is not None:  # str(action) of any action: a log replays without the phrasing pass
        if m.group(1):
            squares = _CANONICAL_SQUARE.findall(m.group(2))
            return MovePiece(m.group(1), squares[-1], tuple(squares[:-1]))
        return PassBall(m.group(3)) if m.group(3) else EndTurn()
    words = _words(text)
    if _END_PHRASE.match(" ".join(words)):
        return EndTurn()
    core = [w for w in words if (w not in _FILLER and w not in _MANNER) or w in _VIA]
    if core and all(w in _END_WORDS for w in core):
        return EndTurn()
    # "pass to E7", "QB passes to E7", "throw the ball to E7"
    pass_at = next((i for i, w in enumerate(core) if w in _PASS_WORDS), None)
    if pass_at is not None:
        # "pass to D2 (the double)": words naming the receiver's kind add nothing to its square
        rest = [w for w in core[pass_at + 1 :] if w not in _VIA and w.rstrip("s") not in _KINDS and w not in _QB_WORDS]
        if not rest:
            raise bad_input("a pass names the square it goes to: pass to E7 (or 'end' to end the turn)", text, rule=NOTATION, legal=FORMS)
        squares = _squares(rest, text)
        if len(squares) != 1:
            raise bad_input("a pass goes to one square: pass to E7", text, rule=NOTATION, legal=FORMS)
        return PassBall(squares[0])
    if core and core[0] in _MOVE_WORDS:
        core = core[1:]
    piece, rest = _piece(core)
    if piece is None:
        raise bad_input("name the piece first: move T1 C3-C5, move QB E1", text, rule=NOTATION, legal=FORMS)
    rest = [w for w in rest if w not in _MOVE_WORDS]
    # "D1 to D2 via C1": the squares after "via" come before the destination named ahead of them
    cut = next((i for i, w in enumerate(rest) if w in _VIA), None)
    if cut is not None:
        before, after = rest[:cut], [w for w in rest[cut + 1 :] if w not in _VIA]
        rest = [*before[:-1], *after, *before[-1:]] if before and after else before + after
    if not rest:
        rel = read_directions(text)
        if rel is not None:
            raise bad_input(
                f"'{rel.words}' is the moving side's own direction (forward is up the board for the attacker, down "
                f"for the defender): say it on your turn, or name the square (move {piece} E1)",
                text, rule=NOTATION, legal=FORMS,
            )  # fmt: skip
        raise bad_input(f"say where {piece} goes: move {piece} E1", text, rule=NOTATION, legal=FORMS)
    squares = _squares(rest, text)
    return MovePiece(piece, squares[-1], tuple(squares[:-1]))


# ------------------------------------------------------------------ directions
#: side-relative directions: (to the mover's right, forward)
_DIRECTION: dict[str, tuple[int, int]] = {
    "forward": (0, 1), "forwards": (0, 1), "ahead": (0, 1), "back": (0, -1), "backward": (0, -1), "backwards": (0, -1),
    "left": (-1, 0), "right": (1, 0),
}  # fmt: skip
#: words between directions that add nothing ("T1 two squares diagonally forward left")
_DIRECTION_NOISE = {"diagonally", "diagonal", "square", "squares", "step", "steps", "space", "spaces", "times"}
_SEPARATORS = {"then", "and"}
_COUNT_WORDS = {"once": 1, "twice": 2}


class Directions(NamedTuple):
    """A move said in directions relative to the side that moves (``S2 forward``, ``T1 2 forward 1 left``):
    the piece and its legs ``(right, forward, squares)`` - ``right`` -1 is the mover's left, ``forward``
    -1 is back.  Only the state knows which way the side faces (``QuarterbackState.parse_action``)."""

    piece: str
    legs: tuple[tuple[int, int, int], ...]
    words: str


def read_directions(text: str) -> Directions | None:
    """The piece and side-relative legs of a move said in directions, or ``None`` when ``text`` is not
    such a move (it names a square, passes, or has words that are not directions)."""
    words: list[str] = []
    for w in _words(text.replace(",", " then ")):
        parts = w.split("-")
        words.extend(parts if len(parts) > 1 and all(p in _DIRECTION for p in parts) else [w])  # "forward-left"
    toks = [w for w in words if (w not in _FILLER or w in _SEPARATORS)]
    if toks and toks[0] in _MOVE_WORDS:
        toks = toks[1:]
    piece, rest = _piece(toks)
    if piece is None or not any(w in _DIRECTION for w in rest):
        return None
    legs: list[list[int]] = []  # [right, forward, squares or 0, closed]
    pending = 0
    said: list[str] = []
    for w in rest:
        if w in _MOVE_WORDS or w in _DIRECTION_NOISE:
            continue
        if w in _SEPARATORS:
            if legs:
                legs[-1][3] = 1
            continue
        count = _COUNT_WORDS.get(w) or (int(w) if re.fullmatch(r"[1-9]", w) else 0)
        if count:
            if pending:
                return None
            if legs and not legs[-1][3]:
                legs[-1][3] = 1  # a count closes the leg before it: "forward 2 left", "2 forward 1 left"
                if not legs[-1][2]:
                    legs[-1][2] = count
                    continue
            pending = count
            continue
        if w not in _DIRECTION:
            return None  # not a move by directions: the ordinary parser explains
        right, forward = _DIRECTION[w]
        said.append(w)
        cur = legs[-1] if legs else None
        if cur is None or cur[3] or (right and cur[0]) or (forward and cur[1]):
            cur = [0, 0, pending, 0]
            legs.append(cur)
            pending = 0
        cur[0] += right
        cur[1] += forward
    if pending or not legs:
        return None
    return Directions(piece, tuple((r, f, n or 1) for r, f, n, _ in legs), " ".join(said))
