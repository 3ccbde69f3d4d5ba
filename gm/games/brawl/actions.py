"""brawl actions: a side's placement for one play, and the offense's 4th-down choice.

Text forms (``str(action)``) parse back exactly:

- a placement, one ``PLAYER:CARD@ZONE`` entry per player, in zone order::

      WR1:F3@DL SLOT:A1-4@DM WR2:F2@DR TE:S2@ML QB:F3@MM RB:A1-4@MR ...

  Zones are region + column (``DL`` Downfield Left ... ``BR`` Backfield Right; ``BM``
  is the X).  The card may be left out (``QB@MM``) when the player holds only one kind
  of card (ruling BR-R-CARD).  :func:`parse_action` also reads looser phrasings:
  ``QB plays focus 3 at midfield middle, RB agility 1-4 to MR``, column-first zones
  (``LD``), ``->`` / ``to`` / ``at`` / ``in`` for ``@``, commas, semicolons, new lines.
- a 4th-down choice: ``punt``, ``field goal`` or ``go for it`` (also ``fg``, ``kick``,
  ``go``, ``let's go for it`` ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from gm.core.actions import Action
from gm.core.errors import InvalidActionError
from gm.games.brawl.rules import PARSER_WORDS, ZONE_INDEX, ZONES, is_card_code, parse_card

SYNTAX_RULE = "BR-SYNTAX"
#: a zone the grid does not have, a card that is not one of the three kinds (tool arguments)
GRID_RULE, CARDS_RULE = "BR-GRID", "BR-CARDS"
FOURTH_OPTIONS = ("punt", "field_goal", "go_for_it")
_FOURTH_TEXT = {"punt": "punt", "field_goal": "field goal", "go_for_it": "go for it"}

KINDS_FORMS = ("S3 (Strength: a flat value)", "A1-4 (Agility: a range, rolled)", "F2 (Focus: a flat value)")
FORMS = (
    "QB:F3@MM RB:A1-4@SM WR1:F2@DL ... (one PLAYER:CARD@ZONE per player; zones DL DM DR ML MM MR SL SM SR BL BR)",
    "punt",
    "field goal",
    "go for it",
)

#: column-first spellings of the zones (``LD`` = ``DL``); only read in the zone slot
_ZONE_ALIASES = {c + r: r + c for r in "DMSB" for c in "LMR"} | {z: z for z in ZONES}
_PLAYER_RE = re.compile(r"^[A-Z][A-Z0-9]{0,9}$")


def _bad(reason: str, text: object, legal: Iterable[str] = FORMS, rule: str = SYNTAX_RULE) -> InvalidActionError:
    return InvalidActionError(reason, rule=rule, input=str(text), legal=tuple(legal))


def norm_zone(text: str) -> str:
    """A zone code in canonical region + column form; raises :class:`InvalidActionError`."""
    z = _ZONE_ALIASES.get(str(text).strip().upper())
    if z is None:
        raise _bad("not a zone; zones are DL DM DR ML MM MR SL SM SR BL BR (BM is the X)", text, ZONES, GRID_RULE)
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
            raise _bad("a player is named like QB, WR1 or CB2", self.player)
        card = self.card
        if card is not None:
            if not isinstance(card, str):
                raise _bad("a card is a code like S3, F2 or A1-4", card)
            try:
                card = parse_card(card).code
            except ValueError as exc:
                raise _bad(str(exc), card, KINDS_FORMS, CARDS_RULE) from None
        if not isinstance(self.zone, str):
            raise _bad("a zone is a code like DL or SM", self.zone, ZONES)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "zone", norm_zone(self.zone))

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "card": self.card, "zone": self.zone}

    def __str__(self) -> str:
        return f"{self.player}:{self.card}@{self.zone}" if self.card else f"{self.player}@{self.zone}"


def _card_play(item: object) -> CardPlay:
    if isinstance(item, CardPlay):
        return item
    if isinstance(item, Mapping):
        extra = set(item) - {"player", "card", "zone"}
        if extra or "player" not in item or "zone" not in item:
            raise _bad("each placement is {player, card, zone}", item)
        return CardPlay(item["player"], item.get("card"), item["zone"])
    if isinstance(item, str):
        plays = _parse_entries(item, item)
        if len(plays) != 1:
            raise _bad("one entry reads PLAYER:CARD@ZONE", item)
        return plays[0]
    if isinstance(item, list | tuple) and len(item) in (2, 3):
        return CardPlay(item[0], item[1] if len(item) == 3 else None, item[-1])
    raise _bad("each placement is {player, card, zone}", item)


@dataclass(frozen=True, slots=True)
class Placement(Action):
    """A side's cards for one play: one card from each player, each into its own zone."""

    placements: tuple[CardPlay, ...]
    type: ClassVar[str] = "placement"

    def __post_init__(self) -> None:
        items = self.placements
        if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
            raise _bad("placements is a list of {player, card, zone}", items)
        plays = tuple(_card_play(i) for i in items)
        if not plays:
            raise _bad("a placement needs one card from each player", "")
        object.__setattr__(self, "placements", tuple(sorted(plays, key=lambda p: (ZONE_INDEX[p.zone], p.player))))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "placements": [p.to_json() for p in self.placements]}

    def by_player(self) -> dict[str, CardPlay]:
        return {p.player: p for p in self.placements}

    def __str__(self) -> str:
        return " ".join(str(p) for p in self.placements)


@dataclass(frozen=True, slots=True)
class FourthDown(Action):
    """The offense's choice when a series ends short of a first down."""

    option: str
    type: ClassVar[str] = "fourth_down"

    def __post_init__(self) -> None:
        opt = str(self.option).strip().lower().replace(" ", "_").replace("-", "_")
        if opt not in FOURTH_OPTIONS:
            raise _bad("the 4th-down choices are punt, field_goal and go_for_it", self.option, FOURTH_OPTIONS)
        object.__setattr__(self, "option", opt)

    def __str__(self) -> str:
        return _FOURTH_TEXT[self.option]


ACTION_TYPES: dict[str, type[Action]] = {c.type: c for c in (Placement, FourthDown)}

# ------------------------------------------------------------------- parsing
_REGION_WORDS = r"DOWNFIELD|DEEP|MIDFIELD|MID|SCRIMMAGE|LINE|BACKFIELD|BACK"
_COLUMN_WORDS = r"LEFT|MIDDLE|CENTER|CENTRE|MID|RIGHT"
_REGION = {"DOWNFIELD": "D", "DEEP": "D", "MIDFIELD": "M", "MID": "M", "SCRIMMAGE": "S", "LINE": "S", "BACKFIELD": "B", "BACK": "B"}
_COLUMN = {"LEFT": "L", "MIDDLE": "M", "CENTER": "M", "CENTRE": "M", "MID": "M", "RIGHT": "R"}
_FILLER = PARSER_WORDS
_PUNT = re.compile(r"\bPUNT(S|ING)?\b")
_FG = re.compile(r"\b(FIELD\s*GOAL|FG|KICK(S|ING)?)\b")
_GO = re.compile(r"\bGO(ING)?(\s+FOR\s+IT)?\b")


def _normalise(text: str) -> str:
    t = text.upper().replace("–", "-").replace("—", "-")
    t = re.sub(r"->|=>|→|@|[:=,;/|()\[\]{}]", " ", t)
    t = re.sub(r"\bSTR(?:ENGTH)?\s*(\d+)", r"S\1", t)
    t = re.sub(r"\bFOC(?:US)?\s*(\d+)", r"F\1", t)
    t = re.sub(r"\bAGI(?:LITY)?\s*(\d+)\s*(?:-|TO)\s*(\d+)", r"A\1-\2", t)
    t = re.sub(r"\bAGI(?:LITY)?\s*(\d+)", r"A\1", t)
    t = re.sub(r"\b([SAF]\d+)\s*-\s*(\d+)\b", r"\1-\2", t)
    t = re.sub(r"(?<!\d)-|-(?!\d)", " ", t)
    t = re.sub(rf"\b({_REGION_WORDS})[\s-]*({_COLUMN_WORDS})\b", lambda m: _REGION[m[1]] + _COLUMN[m[2]], t)
    t = re.sub(rf"\b({_COLUMN_WORDS})[\s-]*({_REGION_WORDS})\b", lambda m: _REGION[m[2]] + _COLUMN[m[1]], t)
    return t


def _parse_entries(norm: str, text: str) -> list[CardPlay]:
    words = [w for w in norm.split() if w not in _FILLER]
    plays: list[CardPlay] = []
    i = 0
    while i < len(words):
        player = words[i]
        if not _PLAYER_RE.match(player) or is_card_code(player):
            raise _bad(f"expected a player name, read {player!r}; entries read PLAYER:CARD@ZONE", text)
        card: str | None = None
        if i + 1 < len(words) and is_card_code(words[i + 1]):
            card = words[i + 1]
            i += 1
        if i + 1 >= len(words):
            raise _bad(f"{player}: no zone given; entries read PLAYER:CARD@ZONE", text)
        zone = words[i + 1]
        if zone not in _ZONE_ALIASES:
            raise _bad(f"{player}: {zone!r} is not a card or a zone (zones: DL DM DR ML MM MR SL SM SR BL BR)", text)
        try:
            plays.append(CardPlay(player, card, zone))
        except InvalidActionError as exc:
            raise _bad(f"{player}: {exc.reason}", text) from None
        i += 2
    return plays


def parse_action(text: str) -> Action:
    """Parse a placement or a 4th-down choice (see the module doc for the forms)."""
    if not isinstance(text, str) or not text.strip():
        raise _bad("empty action", text)
    norm = _normalise(text)
    words = norm.split()
    has_cards = any(is_card_code(w) or w in _ZONE_ALIASES for w in words)
    if not has_cards:
        options = [o for o, rx in (("punt", _PUNT), ("field_goal", _FG), ("go_for_it", _GO)) if rx.search(norm)]
        if len(options) == 1:
            return FourthDown(options[0])
        if len(options) > 1:
            raise _bad("choose one: punt, field goal or go for it", text, FOURTH_OPTIONS)
        raise _bad("not a brawl action", text)
    plays = _parse_entries(norm, text)
    if not plays:
        raise _bad("a placement needs one card from each player", text)
    return Placement(tuple(plays))
