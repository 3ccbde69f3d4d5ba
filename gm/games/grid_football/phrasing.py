"""How players say Grid Football moves beyond the notation: the offline referee's words for this game.

The parser (:mod:`gm.games.grid_football.actions`) reads the quick start's notation; this reads the
rest (:mod:`gm.core.phrasing` does the typos and numbers in words): slang for kick and receive, a
play named by its name ("the power play" is play 1 as the ruleset names it), a colour as pass or
run, "three to the left", "straight ahead" (no lateral), any word order ("I'll defend with a black
2"), and a partial move ("left" at a kick pick, "play 2" at a play call) filled in from the legal
moves, or asked about when several fit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from gm.core.actions import Action
from gm.core.phrasing import Phrasing, fitting
from gm.core.state import GameState
from gm.games.grid_football.rules import KICK_COLOURS, POSITIONS

#: the game's own words (a typo is corrected to one of these)
VOCABULARY = frozenset(
    """heads tails kick kicks receive receiving left center right yellow red green black number punt play plays
    pass run before after lateral straight ahead power sweep interior speed positioning breakaway""".split()
)

# alike on purpose: every game's phrasing has a table of this shape (a pattern of loose words -> the game's
# notation); the words are each game's own
SYNONYMS: tuple[tuple[str, str], ...] = (
    (r"\b(?:centre|middle|mid)\b", "center"),
    (r"\b(?:head|heds)\b", "heads"),
    (r"\btail\b", "tails"),
    (r"\bkick(?:ing)? (?:it )?off\b|\bkickoff\b|\bwe kick\b|\bkick first\b", "kick"),
    (r"\b(?:take|get|have|want|receive|gimme|give me|give us) (?:the )?ball(?: first)?\b|\breceive (?:the )?kick(?:off)?\b"
     r"|\breturn it\b|\breceiving\b|\breceivers?\b", "receive"),
    (r"\b(?:boot|kick) it away\b|\bpunt it(?: away)?\b", "punt"),
    (r"\bblk\b", "black"),
    (r"\brd\b", "red"),
    (r"\brun(?= (?:play|the|it|a|an|with)\b)", " "),  # "run play 2", "run the power play": run is the verb
    (r"\b(after|before) the forward(?: move(?:ment)?)?\b", r"\1"),
    (r"\b(?:1st|first) then forward\b|\bthen forward\b", "before"),
    (r"\bforward (?:1st|first)(?: then)?\b", "after"),
    (r"\bas an? (pass|run)\b", r"\1"),
    (r"\b(?:in|on) the air\b|\bthrow(?:ing)?\b|\bairborne\b", "pass"),
    (r"\bon the ground\b|\bground\b|\brush(?:ing)?\b", "run"),
    (r"\bno lateral\b|\bno sideways\b|\bstraight(?: ahead| up| forward)?\b|\bno side step\b", "straight"),
    (r"\b(?:to|on) the (left|right)(?: side)?\b", r"\1"),
    (r"\b(left|right)[- ]?(?:hand )?side\b", r"\1"),
    (r"\b(left|right)ward(?:s)?\b", r"\1"),
    (r"\b(\d+) (?:columns?|cols?|steps?|squares?|spaces?|over) (left|right)\b", r"\1 \2"),
    (r"\b(?:columns?|cols?|steps?|squares?|spaces?)\b", " "),
    (r"\b(?:first|1st)\b(?= .*\b(?:then|and)\b)", "before"),
    (r"\bafterwards?\b|\blater\b", "after"),
    (r"\b(\d+)(l|r)\b", r"\1 \2"),
    (r"\bp(\d)\b", r"play \1"),
    (r"\bplay(\d)\b", r"play \1"),
    (r"#(\d)", r"\1"),
)

FILLER = frozenset(
    """defend defending defense offense colour color call calls calling called lock locking locked in on side team
    choice option guess lucky let's lets gimme give us hmm yeah yes sure okay alright ok yo dude mate ref referee
    time this down way move moving movement cover covering using use play's coach against at of from by
    think they'll i'll we'll i'd my our your it's that's position spot pick picks choose""".split()
)
#: words around a kick pick that add nothing to it ("send it down the right side, red")
_KICK_WORDS = frozenset("kick kicks kicking send aim boot put side down deep there".split())

_COLOUR = {"red": "red", "pass": "red", "black": "black", "run": "black"}
_SIDE = {"left": "left", "l": "left", "right": "right", "r": "right"}


def _play_names(state: GameState[Any]) -> list[tuple[re.Pattern[str], int]]:
    """The plays by name as the ruleset names them ("Power/Sweep": "power", "sweep", "power sweep")."""
    out: list[tuple[re.Pattern[str], int]] = []
    for n, spec in state.rules.plays.items():
        parts = [p for p in re.split(r"[^a-z]+", spec.name.lower()) if len(p) > 2]
        names = [" ".join(parts), *parts] if len(parts) > 1 else parts
        for name in names:
            out.append((re.compile(rf"\b{re.escape(name)}(?: play)?\b"), int(n)))
    return out


def _slots(state: GameState[Any], text: str) -> dict[str, Any] | None:
    """The parts of a play call said in ``text``: play, colour, lateral, direction, timing (``None``
    when a word is left that is no part of a play call)."""
    t = text
    said: dict[str, Any] = {}
    for pattern, n in _play_names(state):
        if pattern.search(t):
            if said.get("play", n) != n:
                return None
            said["play"] = n
            t = pattern.sub(" ", t)
    words = re.sub(r"[,;:!?.()]", " ", t).split()
    explicit = {w for w in words if w in ("red", "black")}
    if len(explicit) > 1:
        return None
    if explicit:
        said["colour"] = explicit.pop()
    i = 0
    numbers: list[int] = []
    while i < len(words):
        w = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        if w == "play" and nxt.isdigit():
            if said.get("play", int(nxt)) != int(nxt):
                return None
            said["play"] = int(nxt)
            i += 2
            continue
        if w.isdigit() and nxt in _SIDE:
            if "lateral" in said:
                return None
            said["lateral"], said["direction"] = int(w), _SIDE[nxt]
            i += 2
            continue
        if w in ("left", "right") and nxt.isdigit() and "lateral" not in said and said.get("play") is not None:
            said["lateral"], said["direction"] = int(nxt), w  # "left 2"
            i += 2
            continue
        if w in ("left", "right"):
            if said.get("direction", w) != w:
                return None
            said["direction"] = w
        elif w.isdigit():
            numbers.append(int(w))
        elif w in ("before", "after"):
            if said.get("timing", w) != w:
                return None
            said["timing"] = w
        elif w == "straight":
            said["lateral"] = 0
        elif w in _COLOUR:
            if "colour" not in said:
                said["colour"] = _COLOUR[w]
            elif explicit == set() and said["colour"] != _COLOUR[w]:
                return None
        elif w in ("play", "plays", "lateral"):
            pass
        else:
            return None
        i += 1
    if numbers:
        if "play" in said or len(numbers) > 1:
            return None
        said["play"] = numbers[0]
    if said.get("lateral") == 0 and "direction" in said:
        return None
    return said


def candidates(state: GameState[Any], seat: str, text: str) -> Sequence[Action] | None:
    """The legal moves ``text`` may mean at this decision (see the module doc)."""
    decision = state.decision(seat)
    content = re.sub(r"[,;:!?.()]", " ", text).split()
    if decision == "kick_pick":
        pos: set[str] = {w for w in content if w in POSITIONS}
        col: set[str] = {w for w in content if w in KICK_COLOURS}
        if not pos | col or len(pos) > 1 or len(col) > 1 or set(content) - pos - col - _KICK_WORDS:
            return None
        kick: dict[str, Any] = {"type": "kick_pick"}
        if pos:
            kick["position"] = pos.pop()
        if col:
            kick["colour"] = col.pop()
        return fitting(state, seat, kick)
    if decision == "number_pick":
        nums = [w for w in content if w.isdigit()]
        if len(nums) == 1 and all(w.isdigit() or w in ("number", "pick", "#") for w in content):
            return fitting(state, seat, {"type": "number_pick", "number": int(nums[0])})
        return None
    if decision == "kick_choice":
        picked = {w for w in content if w in ("kick", "receive")}
        return fitting(state, seat, {"type": "kick_choice", "choice": picked.pop()}) if len(picked) == 1 else None
    if decision == "coin_call":
        picked = {w for w in content if w in ("heads", "tails")}
        return fitting(state, seat, {"type": "coin_call", "call": picked.pop()}) if len(picked) == 1 else None
    if decision == "play_call":
        if content == ["punt"]:
            return fitting(state, seat, {"type": "punt"})
        said = _slots(state, " ".join(content))
        if not said:
            return None
        if "direction" in said and "lateral" not in said:  # "left", no count: each count the play allows
            return [a for a in fitting(state, seat, {"type": "play_call", **said}) if a.to_json()["lateral"]]
        return fitting(state, seat, {"type": "play_call", **said}, defaults={"lateral": 0, "timing": "before"})
    return None


#: table talk in the game's words
TALK = {"where is the ball": "board", "wheres the ball": "board", "where's the ball": "board", "field": "board",
        "down": "status", "what down is it": "status"}

PHRASING = Phrasing(vocabulary=VOCABULARY, synonyms=SYNONYMS, filler=FILLER, hook=candidates, talk=TALK)
