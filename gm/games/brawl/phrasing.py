"""How players say brawl placements beyond the notation: the offline referee's words for this game.

The parser (:mod:`gm.games.brawl.actions`) already reads entries in any order and many spellings
("MLB strength 2 to line middle", "QB F3 MM", "deep left"); this reads the rest
(:mod:`gm.core.phrasing` does the typos in words and numbers in words):

- a player's name typed with a typo ("MBL", "OBL1", "SLTO"): the one player of the unit on the field
  it is nearest to (one edit, no tie);
- a placement with one player left out, or one player's zone left out: the last player takes the one
  zone still free; its card is the one it may play there (several: asked about);
- the zone and card words of the game ("midfeild", "stength") as its vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.errors import InvalidActionError
from gm.core.phrasing import COMMON, Phrasing, nearest
from gm.core.state import GameState
from gm.games.brawl.actions import CardPlay, Placement, parse_action
from gm.games.brawl.legal import card_choices
from gm.games.brawl.rules import PARSER_WORDS, PLAYABLE

VOCABULARY = frozenset(
    """strength agility focus deep downfield midfield mid scrimmage line backfield back left middle center centre
    right punt field goal kick""".split()
)

# alike on purpose: every game's phrasing has a table of this shape (a pattern of loose words -> the game's
# notation); the words are each game's own
SYNONYMS: tuple[tuple[str, str], ...] = (
    (r"\bstr\b|\bstrenght\b|\bstrenth\b", "strength"),
    (r"\bagil\b|\bagi\b", "agility"),
    (r"\bfoc\b", "focus"),
    (r"\bfg\b", "field goal"),
    (r"\bgof or it\b|\bgo fo rit\b|\bgoo for it\b", "go for it"),
    (r"\bkick it away\b|\bboot it\b", "punt"),
)

FILLER = frozenset("""ok okay here's heres my defense offense lineup formation lock it in send please same as idea 1st
    first last time""".split())

_NAME = re.compile(r"(?<![\w-])([a-z]{2,5}[0-9]?)(?![\w-])")


def spelling(state: GameState[Any], seat: str, text: str) -> str:
    """``text`` with each word that is not a name of the unit on the field, but one edit from exactly one,
    replaced by it ("mbl" -> "MLB"); card codes, zones and words stay as they are."""
    if state.decision(seat) != "placement":
        return text
    roster = frozenset(n.lower() for n in state.roster(seat))  # type: ignore[attr-defined]
    # only words that may be names: no word of the game, of its notation or of plain English
    known = {z.lower() for z in PLAYABLE} | {"bm", "x"} | VOCABULARY | COMMON | FILLER | {w.lower() for w in PARSER_WORDS}

    def fix(m: re.Match[str]) -> str:
        w = m.group(1)
        if w in roster or w in known or re.fullmatch(r"[saf][0-9]", w):
            return w
        hit = nearest(w, roster, 1)
        return hit if hit is not None else w

    return re.sub(r"\ba([0-9])([0-9])\b", r"a\1-\2", _NAME.sub(fix, text))  # "A14": the agility card A1-4


def candidates(state: GameState[Any], seat: str, text: str) -> Sequence[Action] | None:
    """The legal placements ``text`` may mean (see the module doc)."""
    st: Any = state
    if st.decision(seat) != "placement":
        return None
    try:
        action = parse_action(text)
    except InvalidActionError:
        return _zone_left_out(st, seat, text)
    if not isinstance(action, Placement):
        return None
    roster = list(st.roster(seat))
    named = {p.player for p in action.placements}
    missing = [p for p in roster if p not in named]
    if not missing:
        return [action]
    if len(missing) != 1 or named - set(roster):
        return None
    used = {p.zone for p in action.placements}
    free = [z for z in PLAYABLE if z not in used]
    if len(free) != 1:
        return None
    who = missing[0]
    return [Placement((*action.placements, CardPlay(who, card, free[0]))) for card in card_choices(st.hands[seat][who])]


def _zone_left_out(state: Any, seat: str, text: str) -> list[Action] | None:
    """A placement whose last entry names its player (and card) but no zone: the zone still free."""
    parts = [p for p in re.split(r"[,;\n]|\band\b", text) if p.strip()]
    if len(parts) < 2:
        return None
    last = parts[-1].split()
    roster = {n.lower(): n for n in state.roster(seat)}
    if not last or last[0] not in roster or len(last) > 2:
        return None
    try:
        head = parse_action(",".join(parts[:-1]))
    except InvalidActionError:
        return None
    if not isinstance(head, Placement):
        return None
    used = {p.zone for p in head.placements}
    free = [z for z in PLAYABLE if z not in used]
    if len(free) != 1:
        return None
    try:
        entry = CardPlay(roster[last[0]], last[1] if len(last) == 2 else None, free[0])
    except InvalidActionError:
        return None
    return [Placement((*head.placements, entry))]


#: table talk in the game's words
TALK = {"where is the ball": "board", "wheres the ball": "board", "where's the ball": "board", "field": "board",
        "down": "status", "what down is it": "status"}

PHRASING = Phrasing(vocabulary=VOCABULARY, synonyms=SYNONYMS, filler=FILLER, hook=candidates, talk=TALK, spelling=spelling)
