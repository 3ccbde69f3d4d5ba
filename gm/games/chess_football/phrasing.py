"""How players say Chess-Football moves beyond the notation: the offline referee's words for this game.

The parser (:mod:`gm.games.chess_football.actions`) already reads much (role names, "fast 1", "speed
rush", plans typed as rows, "hold"); this reads the rest (:mod:`gm.core.phrasing` does the typos -
"hv3 psh HV1", "captians" - and numbers in words):

- an ability with its target but not its user ("push HV1"): the pieces of the seat that may use it
  on that target now, one made, several asked about;
- a move relative to the piece's square: up and down as the board is printed (north), left and right
  toward columns A and P, forward and back the side's own ("FA3 forward 2", "fa4 up 1 left 1 NW");
- at the snap, every row of a plan read this way (a plan with a row that fits several moves is asked
  about as the plans it could be).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.errors import InvalidActionError
from gm.core.phrasing import Phrasing, read_legs
from gm.core.state import GameState
from gm.games.chess_football.actions import (
    ABILITY_WORDS,
    POSITIONS,
    ROLE_CODES,
    TARGETED,
    WORD_ABILITIES,
    Ability,
    Move,
    PieceAction,
    Plan,
    parse_row,
)
from gm.games.chess_football.geometry import sq

VOCABULARY = frozenset(
    """push chop chip retreat engage react juke jam seal impact anchor rush route pass play action ball done
    hold plan captains captain scrambler safety nickelback rusher lineman deep threat lead blocker heavy strong
    fast quarterback punt heads tails block forward back then and""".split()
)

# alike on purpose: every game's phrasing has a table of this shape (a pattern of loose words -> the game's
# notation); the words are each game's own
SYNONYMS: tuple[tuple[str, str], ...] = (
    (r"\bpsh\b|\bshove\b", "push"),
    (r"\bfast(?: no\.?| number| #)? ?(\d)\b", r"fa\1"),
    (r"\bheavy(?: no\.?| number| #)? ?(\d)\b", r"hv\1"),
    (r"\bstrong(?: no\.?| number| #)? ?(\d)\b", r"st\1"),
    (r"\b(?:blast|hit)\b", "push"),
    (r"\bcentre\b|\bcenter\b|\bmiddle\b", "c"),
    (r"\b(?:north|up)[- ]?west\b|\btop[- ]left\b|\bupper[- ]left\b", "nw"),
    (r"\b(?:north|up)[- ]?east\b|\btop[- ]right\b|\bupper[- ]right\b", "ne"),
    (r"\b(?:south|down)[- ]?west\b|\bbottom[- ]left\b|\blower[- ]left\b", "sw"),
    (r"\b(?:south|down)[- ]?east\b|\bbottom[- ]right\b|\blower[- ]right\b", "se"),
    (r"\bnorth\b", "up"),
    (r"\bsouth\b", "down"),
    (r"\b(?:boot it|kick it away|kick it)\b", "punt"),
    (r"\bfr\b", "for"),
    (r"\bgo for it\b|\bgoing for it\b", "go for it"),
    (r"\bnobody moves\b|\beveryone stays\b|\bstand pat\b", "hold"),
    (r"\bend (?:my |our |the )?turn\b|\bthat's all\b|\bnothing else\b|\bpass (?:my |the )?turn\b", "done"),
)

FILLER = frozenset(
    """the a my our with please piece guy dude let's lets i'll we'll i we want to over square spaces squares
    position spot at move moves send sends run runs take just for snap this time""".split()
)

_DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
_OWN = {"forward": 1, "forwards": 1, "ahead": 1, "back": -1, "backward": -1, "backwards": -1}
_PIECE = re.compile(r"[a-z]{2}[0-9]?")
_UNTARGETED = ("react", "juke", "jam", "seal")


def _rows(text: str) -> list[str]:
    body = re.sub(r"^\s*(?:snap\s+)?plan\s*:?", "", text.strip())
    parts = re.split(r"\s*(?:[,;:\n]|\band then\b|\bthen\b|\band\b|(?:^|\s)\d+[.)]\s)\s*", body)  # "1. NB seal 2. ..."
    return [p.strip() for p in parts if p.strip()]


def _mine(state: Any, seat: str) -> list[Any]:
    return list(state.field.team_pieces(seat)) if state.field is not None else []


def _relative(state: Any, seat: str, words: list[str]) -> list[PieceAction] | None:
    """``FA3 forward 2 [NW]``: the move to the square so many rows and columns from the piece's own."""
    piece = words[0].upper()
    mine = {p.id: p for p in _mine(state, seat)}
    if piece not in mine:
        return None
    rest = [w for w in words[1:] if w not in ("rush", "route")]
    pos = [w.upper() for w in rest if w.upper() in POSITIONS]
    if len(pos) > 1:
        return None
    ahead = state.field.dir_of(seat)
    directions = {**_DIRECTIONS, **{w: (0, f * ahead) for w, f in _OWN.items()}}
    legs = read_legs([w for w in rest if w.upper() not in POSITIONS], directions, skip=("then", "diagonally"))
    if legs is None:
        return None
    col, row = mine[piece].sq
    for dx, dy, n in legs:
        col, row = col + dx * n, row + dy * n
    return [Move(piece, sq((col, row)), pos[0] if pos else "C", rush="rush" in words, route="route" in words)]


def _row(state: Any, seat: str, text: str) -> list[PieceAction] | None:
    """The piece actions one row of words may mean (``None``: it reads as none at all)."""
    try:
        return [parse_row(text)]
    except InvalidActionError:
        pass
    words = text.split()
    abilities = [WORD_ABILITIES[w] for w in words if w in WORD_ABILITIES]
    pieces = [w.upper() for w in words if _PIECE.fullmatch(w) and w not in ABILITY_WORDS.values() and w not in ("to", "go")]
    if len(abilities) == 1 and abilities[0] in TARGETED and len(pieces) == 1:  # "push HV1": who pushes is left out
        return [Ability(p.id, abilities[0], pieces[0]) for p in _mine(state, seat)]
    if len(abilities) == 1 and abilities[0] in _UNTARGETED and not pieces and len(words) == 1:  # "seal": whose?
        return [Ability(p.id, abilities[0]) for p in _mine(state, seat)]
    if words and _PIECE.fullmatch(words[0]) and not abilities:
        return _relative(state, seat, words)
    return None


def _captains(state: Any, seat: str, text: str) -> list[Action] | None:
    """Captains named among other words ("gimme the scrambler on O and the rusher on D"), or one of
    them: the picks that have it."""
    flat = " " + re.sub(r"[_\s]+", " ", text) + " "
    said = {role for role in ROLE_CODES if f" {role.replace('_', ' ')} " in flat or f" {ROLE_CODES[role].lower()} " in flat}
    if not said or len(said) > 2:
        return None
    return [a for a in state.legal_actions(seat) if said <= {a.offense, a.defense}]


def candidates(state: GameState[Any], seat: str, text: str) -> Sequence[Action] | None:
    """The legal moves ``text`` may mean (see the module doc)."""
    st: Any = state
    decision = st.decision(seat)
    if decision == "captains":
        return _captains(st, seat, text)
    if decision not in ("snap_plan", "turn") or st.field is None:
        return None
    rows = _rows(text)
    read = [_row(st, seat, r) for r in rows]
    if not rows or any(r is None for r in read):
        return None
    if decision == "turn":
        return read[0] if len(read) == 1 else None
    options = [[r for r in rs if st.is_legal(seat, Plan((r,)))] for rs in read if rs is not None]
    if any(not o for o in options):
        return []
    plans = itertools.islice(itertools.product(*options), 24)
    return [Plan(tuple(p)) for p in plans]


#: table talk in the game's words
TALK = {"where is the ball": "board", "wheres the ball": "board", "where's the ball": "board", "field": "board",
        "down": "status", "what down is it": "status"}

PHRASING = Phrasing(vocabulary=VOCABULARY, synonyms=SYNONYMS, filler=FILLER, hook=candidates, talk=TALK)
