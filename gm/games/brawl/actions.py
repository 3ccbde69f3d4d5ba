"""brawl actions: a side's placement for one play, and the offense's 4th-down choice.

Text forms (``str(action)``) parse back exactly:

- a placement, one ``PLAYER:CARD@ZONE`` entry per player, in zone order::

      WR1:F3@DL SLOT:A1-4@DM WR2:F2@DR TE:S2@ML QB:F3@MM RB:A1-4@MR ...

  Zones are region + column (``DL`` Downfield Left ... ``BR`` Backfield Right; ``BM``
  is the X).  The card may be left out (``QB@MM``) when the player holds only one kind
  of card (ruling BR-R-CARD).  :func:`parse_action` also reads looser phrasings:
  ``QB plays focus 3 at midfield middle, RB agility 1-4 to MR``, column-first zones
  (``LD``), ``the middle of the midfield``, ``->`` / ``to`` / ``at`` / ``in`` for ``@``,
  commas, semicolons, ``and``, new lines; an entry's name, card and zone in any order
  (``F3 QB MM``, ``QB to MM with F3``), ``WR 1`` / ``F 3`` typed apart, ``the X`` (``BM``).
- a 4th-down choice: ``punt``, ``field goal`` or ``go for it`` (also ``fg``, ``kick``,
  ``go``, ``let's go for it`` ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Any, ClassVar

from gm.core.actions import Action
from gm.core.errors import InvalidActionError, bad_input
from gm.games.brawl.rules import PARSER_WORDS, PLAYABLE, X_ZONE, ZONE_INDEX, ZONES, is_card_code, parse_card

SYNTAX_RULE = "BR-SYNTAX"
#: a zone the grid does not have, a card that is not one of the three kinds (tool arguments)
GRID_RULE, CARDS_RULE = "BR-GRID", "BR-CARDS"


class FourthOption(StrEnum):
    """The offense's choices on 4th down (BR-FOURTH)."""

    PUNT = "punt"
    FIELD_GOAL = "field_goal"
    GO_FOR_IT = "go_for_it"


FOURTH_OPTIONS = tuple(FourthOption)
_FOURTH_TEXT: dict[str, str] = {FourthOption.PUNT: "punt", FourthOption.FIELD_GOAL: "field goal", FourthOption.GO_FOR_IT: "go for it"}

KINDS_FORMS = ("S3 (Strength: a flat value)", "A1-4 (Agility: a range, rolled)", "F2 (Focus: a flat value)")
FORMS = (
    "QB:F3@MM RB:A1-4@SM WR1:F2@DL ... (one PLAYER:CARD@ZONE per player; zones DL DM DR ML MM MR SL SM SR BL BR)",
    "punt",
    "field goal",
    "go for it",
)

#: column-first spellings of the zones (``LD`` = ``DL``); only read in the zone slot
_ZONE_ALIASES = {c + r: r + c for r in "DMSB" for c in "LMR"} | {z: z for z in ZONES} | {"X": X_ZONE}
_PLAYER_RE = re.compile(r"^[A-Z][A-Z0-9]{0,9}$")


def norm_zone(text: str) -> str:
    """A zone code (``DL``, column-first ``LD``, or in words: ``deep left``) in canonical region + column
    form; raises :class:`InvalidActionError` (rule BR-GRID)."""
    z = _ZONE_ALIASES.get(str(text).strip().upper())
    if z is None:  # in words: "deep left", "the middle of the midfield"
        words = _words(_normalise(str(text)))
        z = _ZONE_ALIASES.get(words[0]) if len(words) == 1 else None
    if z is None:
        raise bad_input("not a zone; zones are DL DM DR ML MM MR SL SM SR BL BR (BM is the X)", text, rule=GRID_RULE, legal=ZONES)
    return z


@dataclass(frozen=True, slots=True)
class CardPlay:
    """One player's card for one play: who, which card (``None``: the only kind held), where."""

    player: str
    card: str | None
    zone: str

    def __post_init__(self) -> None:
        player = str(self.player).strip().upper() if isinstance(self.player, str) else ""
        if not _PLAYER_RE.match(player):
            raise bad_input("a player is named like QB, WR1 or CB2", self.player, rule=SYNTAX_RULE, legal=FORMS)
        card = self.card
        if card is not None:
            if not isinstance(card, str):
                raise bad_input("a card is a code like S3, F2 or A1-4", card, rule=SYNTAX_RULE, legal=FORMS)
            try:
                card = parse_card(card).code
            except ValueError as exc:
                raise bad_input(str(exc), card, rule=CARDS_RULE, legal=KINDS_FORMS) from None
        if not isinstance(self.zone, str):
            raise bad_input("a zone is a code like DL or SM", self.zone, rule=SYNTAX_RULE, legal=ZONES)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "zone", norm_zone(self.zone))

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card, "zone": self.zone}

    def __str__(self) -> str:
        return f"{self.player}:{self.card}@{self.zone}" if self.card else f"{self.player}@{self.zone}"


_INTERNED: dict[tuple[str, str | None, str], CardPlay] = {}
_INTERNED_MAX = 100_000


def card_play(player: str, card: str | None, zone: str) -> CardPlay:
    """The :class:`CardPlay` of a canonical player name, card code (or ``None``) and zone code, shared:
    the legal placements of a position are built from these without parsing anything again."""
    key = (player, card, zone)
    cp = _INTERNED.get(key)
    if cp is None:
        if len(_INTERNED) >= _INTERNED_MAX:
            _INTERNED.clear()
        cp = _INTERNED[key] = CardPlay(player, card, zone)
    return cp


_READ: dict[tuple[object, object, object], CardPlay] = {}


def read_card_play(player: str, card: str | None, zone: str) -> CardPlay:
    """``CardPlay(player, card, zone)`` for the words as given (``qb``, ``s3``, ``deep left``), read once
    and shared after (a play is a pure function of the words; what does not read raises, and is not kept)."""
    key = (player, card, zone)
    cp = _READ.get(key)
    if cp is None:
        cp = CardPlay(player, card, zone)
        if len(_READ) >= _INTERNED_MAX:
            _READ.clear()
        _READ[key] = cp
    return cp


def _card_play(item: object) -> CardPlay:
    if isinstance(item, CardPlay):
        return item
    if isinstance(item, Mapping):
        extra = set(item) - {"player", "card", "zone"}
        if extra or "player" not in item or "zone" not in item:
            raise bad_input("each placement is {player, card, zone}", item, rule=SYNTAX_RULE, legal=FORMS)
        return CardPlay(item["player"], item.get("card"), item["zone"])
    if isinstance(item, str):
        plays = _parse_entries(item)
        if len(plays) != 1:
            raise bad_input("one entry reads PLAYER:CARD@ZONE", item, rule=SYNTAX_RULE, legal=FORMS)
        return plays[0]
    if isinstance(item, list | tuple) and len(item) in (2, 3):
        return CardPlay(item[0], item[1] if len(item) == 3 else None, item[-1])
    raise bad_input("each placement is {player, card, zone}", item, rule=SYNTAX_RULE, legal=FORMS)


@dataclass(frozen=True, slots=True)
class Placement(Action):
    """A side's cards for one play: one card from each player, each into its own zone."""

    placements: tuple[CardPlay, ...]
    type: ClassVar[str] = "placement"

    def __post_init__(self) -> None:
        items = self.placements
        if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
            raise bad_input("placements is a list of {player, card, zone}", items, rule=SYNTAX_RULE, legal=FORMS)
        plays = tuple(_card_play(i) for i in items)
        if not plays:
            raise bad_input("a placement needs one card from each player", "", rule=SYNTAX_RULE, legal=FORMS)
        object.__setattr__(self, "placements", tuple(sorted(plays, key=lambda p: (ZONE_INDEX[p.zone], p.player))))

    @classmethod
    def in_zone_order(cls, plays: tuple[CardPlay, ...]) -> Placement:
        """A placement of well-formed plays already in its canonical order (by zone, then player: what
        ``Placement(plays)`` sorts them into), built without checking them again."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "placements", plays)
        return obj

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "placements": [p.to_json() for p in self.placements]}

    def by_player(self) -> dict[str, CardPlay]:
        return {p.player: p for p in self.placements}

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.placements)


@dataclass(frozen=True, slots=True)
class FourthDown(Action):
    """The offense's choice when a series ends short of a first down."""

    #: a :class:`FourthOption` once built (any spelling the constructor reads before)
    option: str
    type: ClassVar[str] = "fourth_down"

    def __post_init__(self) -> None:
        opt = str(self.option).strip().lower().replace(" ", "_").replace("-", "_")
        if opt not in FOURTH_OPTIONS:
            raise bad_input("the 4th-down choices are punt, field_goal and go_for_it", self.option, rule=SYNTAX_RULE, legal=FOURTH_OPTIONS)
        object.__setattr__(self, "option", FourthOption(opt))

    def __str__(self) -> str:
        return _FOURTH_TEXT[self.option]


ACTION_TYPES: dict[str, type[Action]] = {c.type: c for c in (Placement, FourthDown)}

# ------------------------------------------------------------------- parsing
_REGION_WORDS = r"DOWNFIELD|DEEP|MIDFIELD|MID|SCRIMMAGE|LINE|BACKFIELD|BACK"
_COLUMN_WORDS = r"LEFT|MIDDLE|CENTER|CENTRE|MID|RIGHT"
_REGION = {"DOWNFIELD": "D", "DEEP": "D", "MIDFIELD": "M", "MID": "M", "SCRIMMAGE": "S", "LINE": "S", "BACKFIELD": "B", "BACK": "B"}
_COLUMN = {"LEFT": "L", "MIDDLE": "M", "CENTER": "M", "CENTRE": "M", "MID": "M", "RIGHT": "R"}
_PLACE_WORDS = set(_REGION) | set(_COLUMN)
_FILLER = PARSER_WORDS
_PUNT = re.compile(r"\bPUNT(S|ING)?\b")
_FG = re.compile(r"\b(FIELD\s*GOAL|FG|KICK(S|ING)?)\b")
_GO = re.compile(r"\bGO(ING)?(\s+FOR\s+IT)?\b")
#: what separates the entries of a placement when a player writes them one by one
_SEPARATORS = re.compile(r"[,;\n]|\band\b|\bthen\b", re.IGNORECASE)


def _join_name(m: re.Match[str]) -> str:
    """``WR 1`` -> ``WR1`` (a name and its number typed apart); anything else stays as it was."""
    word = m[1]
    if word in _ZONE_ALIASES or word in _PLACE_WORDS or word in _FILLER or is_card_code(word):
        return m[0]
    return word + m[2]


def _normalise(text: str) -> str:
    t = text.upper().replace("–", "-").replace("—", "-").replace("’", "'")
    t = re.sub(r"'S\b", "", t)  # the QB's F3
    t = re.sub(r"->|=>|→|@|[:=,;/|()\[\]{}.!?'\"]", " ", t)
    t = re.sub(r"\bSTR(?:ENGTH)?\s*(\d+)", r"S\1", t)
    t = re.sub(r"\bFOC(?:US)?\s*(\d+)", r"F\1", t)
    t = re.sub(r"\bAGI(?:LITY)?\s*(\d+)\s*(?:-|TO)\s*(\d+)", r"A\1-\2", t)
    t = re.sub(r"\bAGI(?:LITY)?\s*(\d+)", r"A\1", t)
    t = re.sub(r"\b([SAF])\s+(\d+)\b", r"\1\2", t)  # F 3
    t = re.sub(r"\b([SAF]\d+)\s*-\s*(\d+)\b", r"\1-\2", t)
    t = re.sub(r"(?<!\d)-|-(?!\d)", " ", t)
    t = re.sub(r"\b([A-Z]{2,5})\s+(\d)\b(?!-)", _join_name, t)  # WR 1
    of = r"(?:\s+OF)?(?:\s+THE)?"  # the middle of the midfield
    t = re.sub(rf"\b({_REGION_WORDS})[\s-]*({_COLUMN_WORDS})\b", lambda m: _REGION[m[1]] + _COLUMN[m[2]], t)
    t = re.sub(rf"\b({_COLUMN_WORDS}){of}[\s-]*({_REGION_WORDS})\b", lambda m: _REGION[m[2]] + _COLUMN[m[1]], t)
    return t


def _words(norm: str) -> list[str]:
    return [w for w in norm.split() if w not in _FILLER]


def _group(words: list[str]) -> list[list[tuple[str, str]]]:
    """Words -> one group per player (``player`` / ``card`` / ``zone``, in any order).  An entry starts at each
    player's name; a card or zone typed before the first name belongs to it.  A column-first zone (``RB`` is
    ``BR``) is a zone only where the entry has none yet, else a name (``RB`` the running back)."""
    groups: list[list[tuple[str, str]]] = []
    lead: list[tuple[str, str]] = []
    for w in words:
        current = groups[-1] if groups else None
        if is_card_code(w):
            kind = "card"
        elif w in ZONES or w == "X":
            kind = "zone"
        elif w in _ZONE_ALIASES and current is not None and not any(k == "zone" for k, _ in current):
            kind = "zone"
        else:
            groups.append([*lead, ("player", w)])
            lead = []
            continue
        (current if current is not None else lead).append((kind, w))
    if lead:
        groups.append(lead)  # no name at all
    return groups


def _entry(group: list[tuple[str, str]], text: str) -> CardPlay:
    """One player's entry: its name, at most one card and one zone, in any order (``QB F3 MM``, ``F3 QB MM``,
    ``QB MM F3``)."""
    players = [w for k, w in group if k == "player"]
    cards = [w for k, w in group if k == "card"]
    zones = [w for k, w in group if k == "zone"]
    if not players:
        raise bad_input(f"no player named for {' '.join(w for _, w in group)}; entries read PLAYER:CARD@ZONE", text, rule=SYNTAX_RULE, legal=FORMS)
    who = players[0]
    if not _PLAYER_RE.match(who) or _words(_normalise(who)) != [who]:  # FOCUS0 would be read back as card F0
        raise bad_input(f"expected a player name, read {who!r}; entries read PLAYER:CARD@ZONE", text, rule=SYNTAX_RULE, legal=FORMS)
    if len(cards) > 1:
        raise bad_input(f"{who}: one card per player, read {' '.join(cards)}", text, rule=SYNTAX_RULE, legal=FORMS)
    if not zones:
        raise bad_input(f"{who}: no zone given; entries read PLAYER:CARD@ZONE", text, rule=SYNTAX_RULE, legal=FORMS)
    if len(zones) > 1:
        raise bad_input(f"{who}: one zone per player, read {' '.join(zones)}", text, rule=SYNTAX_RULE, legal=FORMS)
    try:
        return CardPlay(who, cards[0] if cards else None, zones[0])
    except InvalidActionError as exc:
        raise bad_input(f"{who}: {exc.reason}", text, rule=SYNTAX_RULE, legal=FORMS) from None


def _parse_entries(text: str) -> list[CardPlay]:
    """The entries of a placement.  Written one by one (commas, semicolons, new lines, 'and') each part is one
    player's entry in any order; otherwise an entry starts at each player's name."""
    parts = [g for g in (_group(_words(_normalise(p))) for p in _SEPARATORS.split(text)) if g]
    if len(parts) > 1 and all(len(g) == 1 for g in parts):
        return [_entry(g[0], text) for g in parts]
    groups = _group(_words(_normalise(text)))
    for g, after in pairwise(groups):
        names = [w for k, w in g if k == "player"]
        if names and not any(k == "zone" for k, _ in g) and len(after) == 1:  # QB F3 ZZ: ZZ is a bad zone
            raise bad_input(f"{names[0]}: {after[0][1]!r} is not a card or a zone (zones: {' '.join(PLAYABLE)})", text, rule=SYNTAX_RULE, legal=FORMS)
    return [_entry(g, text) for g in groups]


def parse_action(text: str) -> Action:
    """Parse a placement or a 4th-down choice (see the module doc for the forms)."""
    if not isinstance(text, str) or not text.strip():
        raise bad_input("empty action", text, rule=SYNTAX_RULE, legal=FORMS)
    norm = _normalise(text)
    words = norm.split()
    has_cards = any(is_card_code(w) or w in _ZONE_ALIASES for w in words)
    if not has_cards:
        options = [o for o, rx in (("punt", _PUNT), ("field_goal", _FG), ("go_for_it", _GO)) if rx.search(norm)]
        if len(options) == 1:
            return FourthDown(options[0])
        if len(options) > 1:
            raise bad_input("choose one: punt, field goal or go for it", text, rule=SYNTAX_RULE, legal=FOURTH_OPTIONS)
        raise bad_input("not a brawl action", text, rule=SYNTAX_RULE, legal=FORMS)
    plays = _parse_entries(text)
    if not plays:
        raise bad_input("a placement needs one card from each player", text, rule=SYNTAX_RULE, legal=FORMS)
    return Placement(tuple(plays))
