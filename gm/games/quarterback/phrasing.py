"""How players say Quarter Back moves beyond the notation: the offline referee's words for this game.

The parser (:mod:`gm.games.quarterback.actions`) reads squares and routes, and the state reads moves
said in the mover's own directions (``S2 forward``); this reads the rest (:mod:`gm.core.phrasing`
does the typos and numbers in words):

- moves relative to the piece's square with the board's ``up`` and ``down`` (ruling QB-R-NOTATION:
  up is toward row 12 as the board is printed, whoever moves; in a move said with up or down, left and
  right are the board's too), any word order, counts before or after the direction ("move T2 up 3",
  "three up", "up 2 then left 1", "diagonally up-left");
- a piece named by its kind alone when the words leave one piece of that kind that can do it ("move
  my triple to H6"), or by an ordinal ("the second double");
- a pass to a piece instead of a square ("throw it to S2", "pass to the double"): the receiver's square;
- a piece named with nothing else: the moves it has, to choose from.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.phrasing import Phrasing, read_legs
from gm.core.state import GameState
from gm.games.quarterback.actions import EndTurn, MovePiece, PassBall
from gm.games.quarterback.rules import parse_square, square_name

VOCABULARY = frozenset(
    """move pass throw end done single double triple quarterback singles doubles triples forward back
    backward left right up down diagonally diagonal square squares turn finished through thats from""".split()
)

# alike on purpose: every game's phrasing has a table of this shape (a pattern of loose words -> the game's
# notation); the words are each game's own
SYNONYMS: tuple[tuple[str, str], ...] = (
    (r"\bquarter ?back\b|\bq-?b\b|\bq\.b\.?", "qb"),
    (r"\b(?:trip|tripple|tripel)\b", "triple"),
    (r"\b(?:dbl|dubble|duble)\b", "double"),
    (r"\bsngl\b", "single"),
    (r"\b(up|down|forward|back)[- ]?(?:and[- ])?(left|right)\b", r"\1-\2"),
    (r"\b(left|right)[- ](up|down|forward|back)\b", r"\2-\1"),
    (r"\bnorth\b", "up"),
    (r"\bsouth\b", "down"),
    (r"\b(?:upward|upwards|upfield)\b", "up"),
    (r"\b(?:downward|downwards)\b", "down"),
    (r"\b(?:hand it|hand the ball|handoff|hand off|lateral|chuck|lob|toss|fling|hit)\b", "pass"),
    (r"\b(?:end (?:of )?(?:my |the |our )?turn|end turn|pass the turn|that's it|thats it|i'm done|im done|all done|no more)\b", "end"),
)

FILLER = frozenset(
    """the a an my our your it ball please then and with piece pieces square squares space spaces step steps
    along go goes going move moves moving shift slide walk run runs push take bring send get let's lets
    want i'll i we will would like to toward towards by over of own one row rows column columns times keep
    keeps continue continues carry carries more again further on scoot scoots hop hops nudge nudges step""".split()
)

_KINDS = {"single": "S", "singles": "S", "double": "D", "doubles": "D", "triple": "T", "triples": "T"}
_ORDINALS = {"1st": 1, "2nd": 2, "3rd": 3, "first": 1, "second": 2, "third": 3}
_PASS = {"pass", "throw", "throws", "passes", "passing"}
_END = {"end", "done", "finished", "finish", "stop", "over"}
#: (right, up) of a direction word: board words (up/down) or the mover's own (forward/back/left/right)
_BOARD_DIR = {"up": (0, 1), "down": (0, -1)}
_OWN_DIR = {"forward": (0, 1), "forwards": (0, 1), "ahead": (0, 1), "back": (0, -1), "backward": (0, -1), "backwards": (0, -1),
            "left": (-1, 0), "right": (1, 0)}
_DIAGONAL = ("diagonally", "diagonal")
_AHEAD = {"forward", "forwards", "ahead", "back", "backward", "backwards"}
_SQUARE = re.compile(r"[a-z]-?\d{1,2}")


def _pieces(state: Any, seat: str, words: list[str]) -> tuple[list[str], list[str]] | None:
    """The seat's pieces the words name (an id, a kind with a number or an ordinal, or a kind alone:
    every piece of it) and the words left; ``None`` when no piece is named."""
    mine = list(state.pieces(seat))
    for i, w in enumerate(words):
        if w in ("qb", "q"):
            return (["QB"] if "QB" in mine else []), words[:i] + words[i + 1 :]
        m = re.fullmatch(r"([sdt])([1-9])", w)
        if m:
            pid = w.upper()
            return ([pid] if pid in mine else []), words[:i] + words[i + 1 :]
        if w in _KINDS:
            letter = _KINDS[w]
            nxt = words[i + 1] if i + 1 < len(words) else ""
            before = words[i - 1] if i else ""
            if re.fullmatch(r"#?[1-9]", nxt):
                pid = letter + nxt.lstrip("#")
                return ([pid] if pid in mine else []), words[:i] + words[i + 2 :]
            if before in _ORDINALS:
                pid = f"{letter}{_ORDINALS[before]}"
                return ([pid] if pid in mine else []), words[: i - 1] + words[i + 1 :]
            return [p for p in mine if p.startswith(letter)], words[:i] + words[i + 1 :]
    return None


def _legs(state: Any, seat: str, words: list[str]) -> list[tuple[int, int, int]] | None:
    """The legs ``(dc, dr, squares)`` on the board of a move said in directions, or ``None``."""
    said = {p for w in words for p in w.split("-")}
    board_words, own_words = bool(said & _BOARD_DIR.keys()), bool(said & _AHEAD)
    if board_words and own_words:
        return None  # up and forward in one move: which frame? (name the square instead)
    if board_words:  # up/down said: left and right are the board's too
        directions = {**_BOARD_DIR, "left": (-1, 0), "right": (1, 0)}
    else:  # the mover's own: forward toward the other side, left as it faces forward (QB-R-NOTATION)
        ahead = 1 if seat == state.attacker else -1
        directions = {w: (r * ahead, f * ahead) for w, (r, f) in _OWN_DIR.items()}
    return read_legs(words, directions, skip=(*_DIAGONAL, "then", "and"))


def candidates(state: GameState[Any], seat: str, text: str) -> Sequence[Action] | None:
    """The legal moves ``text`` may mean (see the module doc)."""
    st: Any = state
    words = [w for w in re.sub(r"[,;:!?()]|\.(?=\s|$)", " ", text).split() if w not in FILLER]
    if not words:
        return None
    if all(w in _END for w in words):
        return [EndTurn()]
    if any(w in _PASS for w in words):
        rest = [w for w in words if w not in _PASS]
        found = _pieces(st, seat, rest)
        if found is not None and not found[1]:
            return [PassBall(square_name(st.pos[(seat, p)])) for p in found[0] if (seat, p) != st.carrier]
        if len(rest) == 1 and _SQUARE.fullmatch(rest[0]):
            return [PassBall(rest[0].upper())]
        return None
    found = _pieces(st, seat, words)
    if found is None:
        return None
    pids, rest = found
    squares = [w for w in rest if _SQUARE.fullmatch(w)]
    if squares:
        if len(squares) != len(rest):
            return None
        try:
            named = [square_name(parse_square(s)) for s in squares]
        except ValueError:
            return None
        start = [square_name(st.pos[(seat, p)]) for p in pids]
        return [MovePiece(p, named[-1], tuple(v for v in named[:-1] if v != s0)) for p, s0 in zip(pids, start, strict=True)]
    if not rest:  # a piece named alone: where it can go
        return [MovePiece(a.piece, a.to) for a in state.legal_actions(seat) if isinstance(a, MovePiece) and a.piece in pids]
    legs = _legs(st, seat, rest)
    if legs is None:
        return None
    out: list[Action] = []
    for pid in pids:
        col, row = st.pos[(seat, pid)]
        path: list[tuple[int, int]] = []
        for dc, dr, n in legs:
            for _ in range(n):
                col, row = col + dc, row + dr
                path.append((col, row))
        if col < 0:
            continue
        out.append(st.move_action((seat, pid), path))
    return out


#: table talk in the game's words
TALK = {"where is the ball": "board", "wheres the ball": "board", "where's the ball": "board"}

PHRASING = Phrasing(vocabulary=VOCABULARY, synonyms=SYNONYMS, filler=FILLER, hook=candidates, talk=TALK)
