"""The brawl ruleset: the field of zones, the position table, the rosters and every deck.

Defaults equal the rule document (``shared/seeds/003``) where it gives numbers and the
rulings of ``rules_md/brawl.md`` where it does not (deck contents, Agility ranges, the
field, punts, field goals, game length).  A TOML file may override any field
(``Game.load_rules_file``); unknown fields are errors.  The decks live here: building a
deck *is* editing the ruleset (ruling BR-R-DECKBUILD).

Cards are written ``S3`` (Strength 3), ``F2`` (Focus 2) and ``A1-4`` (Agility, rolled
1..4 at the end of the series; ``A2`` is a fixed Agility 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

# --------------------------------------------------------------------- the grid
#: regions from the far end (Downfield) to the offense's own (Backfield)
REGIONS = ("D", "M", "S", "B")
REGION_NAMES = {"D": "Downfield", "M": "Midfield", "S": "Scrimmage", "B": "Backfield"}
COLUMNS = ("L", "M", "R")
COLUMN_NAMES = {"L": "Left", "M": "Middle", "R": "Right"}
#: zone codes are region + column: ``DL`` is Downfield Left, ``SM`` Scrimmage Middle
ZONES = tuple(r + c for r in REGIONS for c in COLUMNS)
#: the X: where the play starts; no cards are played there (BR-X)
X_ZONE = "BM"
PLAYABLE = tuple(z for z in ZONES if z != X_ZONE)
ZONE_INDEX = {z: i for i, z in enumerate(ZONES)}


def _neighbours(zone: str) -> tuple[str, ...]:
    r, c = REGIONS.index(zone[0]), COLUMNS.index(zone[1])
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < len(REGIONS) and 0 <= nc < len(COLUMNS):
            out.append(REGIONS[nr] + COLUMNS[nc])
    return tuple(out)


#: orthogonal neighbours of every zone (the X included)
ADJACENT: dict[str, tuple[str, ...]] = {z: _neighbours(z) for z in ZONES}
BACKFIELD = tuple(z for z in PLAYABLE if z[0] == "B")

# --------------------------------------------------------------------- cards
# alike on purpose: enums of this shape stand in every game's rules and engine; these are brawl's own kinds of card, effects and units
class Kind(StrEnum):
    """The three kinds of card (BR-CARDS); the value is the letter of a card code."""

    STRENGTH = "S"
    AGILITY = "A"
    FOCUS = "F"


class Effect(StrEnum):
    """A position's effect in a region (BR-POSITION): strong, weak or none."""

    STRONG = "S"
    WEAK = "W"
    NONE = "-"


class Unit(StrEnum):
    """The unit of a team on the field: its offense or its defense."""

    OFFENSE = "offense"
    DEFENSE = "defense"


_STRONG, _WEAK = Effect.STRONG, Effect.WEAK  # (an enum member read through its class is slow in 3.11)
KINDS = {Kind.STRENGTH: "Strength", Kind.AGILITY: "Agility", Kind.FOCUS: "Focus"}
_CARD_RE = re.compile(r"^([SAF])(\d{1,2})(?:-(\d{1,2}))?$")


@dataclass(frozen=True, slots=True)
class Card:
    """A card: its kind (``S`` Strength, ``A`` Agility, ``F`` Focus) and value range.

    Strength and Focus are flat (``lo == hi``); Agility is rolled in ``lo..hi``."""

    kind: Kind
    lo: int
    hi: int
    code: str = field(init=False, compare=False, repr=False)
    #: whether the value is rolled at the end of the series (an Agility range; only Agility has one)
    rolled: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", f"{self.kind}{self.lo}" if self.lo == self.hi else f"{self.kind}{self.lo}-{self.hi}")
        object.__setattr__(self, "rolled", self.lo != self.hi)

    @property
    def mean(self) -> float:
        return (self.lo + self.hi) / 2

    def __str__(self) -> str:
        return self.code


@lru_cache(maxsize=512)
def parse_card(text: str) -> Card:
    """``"S3"`` / ``"F2"`` / ``"A1-4"`` -> :class:`Card`; raises ``ValueError``."""
    m = _CARD_RE.match(text.strip().upper())
    if not m:
        raise ValueError(f"not a card: {text!r} (cards read S3, F2, A1-4)")
    kind, lo, hi = m.group(1), int(m.group(2)), int(m.group(3) or m.group(2))
    if hi < lo:
        raise ValueError(f"card {text!r}: the range runs low-high")
    if kind != Kind.AGILITY and lo != hi:
        raise ValueError(f"card {text!r}: only Agility has a range")
    return Card(Kind(kind), lo, hi)


def is_card_code(text: str) -> bool:
    return bool(_CARD_RE.match(text.upper()))


# --------------------------------------------------------------------- ruleset
#: a region's letter, as a key of the multipliers and of a position's effects
Region = Annotated[str, StringConstraints(pattern=r"^[DMSB]$")]
#: the bounds of a ruleset (issue #15): the largest ruleset these allow still plays a game in
#: well under a second and a few megabytes (``tests/brawl/test_br_ruleset.py``)
MAX_POSITIONS = 32
MAX_DECK = 40
MAX_MULTIPLIER = 20
#: a position's name (``QB``, ``KR``): what a roster names
PositionName = Annotated[str, StringConstraints(min_length=1, max_length=12, pattern=r"^[A-Za-z][A-Za-z0-9_]*$")]
#: a player's name on a roster (``WR1``); the model validator checks the finer form
PlayerName = Annotated[str, StringConstraints(min_length=1, max_length=6)]
#: a card code (``S3``, ``A1-4``): a kind letter and values 0-99
CardCode = Annotated[str, StringConstraints(min_length=2, max_length=6)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PositionSpec(_Strict):
    """A position: its side, its strong/weak regions (the position table) and its deck."""

    side: Unit = Field(description="offense or defense: the unit the position plays in")
    effects: dict[Region, Effect] = Field(
        max_length=len(REGIONS),
        description="region (B, S, M, D) -> S strong (values x strong_factor), W weak (/ weak_divisor, rounded down) "
        "or - none; exactly the four regions",
    )
    deck: list[CardCode] = Field(
        min_length=1, max_length=MAX_DECK, description=f"the deck, as card codes (S3, F2, A1-4; values 0-99), 1 to {MAX_DECK} cards"
    )

    @field_validator("effects")
    @classmethod
    def _regions(cls, v: dict[str, str]) -> dict[str, str]:
        if set(v) != set(REGIONS):
            raise ValueError("effects needs exactly the regions B, S, M and D")
        return v

    @field_validator("deck")
    @classmethod
    def _cards(cls, v: list[str]) -> list[str]:
        out = []
        for code in v:
            out.append(parse_card(code).code)  # raises ValueError naming the card
        return out


def _pos(side: str, b: str, s: str, m: str, d: str, deck: str) -> PositionSpec:
    return PositionSpec(
        side=Unit(side), effects={"B": Effect(b), "S": Effect(s), "M": Effect(m), "D": Effect(d)}, deck=deck.split()
    )


def _default_positions() -> dict[str, PositionSpec]:
    """The document's position table (BR-TABLE) with the decks of ruling BR-R-DECKS."""
    return {
        # offense
        "QB": _pos("offense", "-", "-", "-", "-", "F3 F3 F2 F2 F4 S1 A1-3 A2-4"),
        "RB": _pos("offense", "-", "S", "-", "W", "S3 S2 S2 A1-4 A1-4 A2-5 F1 S1"),
        "WR": _pos("offense", "W", "W", "S", "S", "A1-4 A1-4 A2-4 F2 F2 F3 S1 A1-5"),
        "SLOT": _pos("offense", "W", "-", "-", "S", "A1-3 A1-4 F2 F2 F3 S1 A2-4 F1"),
        "TE": _pos("offense", "-", "-", "S", "W", "S2 S3 F2 F2 S2 A1-3 F1 S1"),
        "OT": _pos("offense", "S", "-", "-", "W", "S3 S3 S2 S2 S4 S2 A0-2 F1"),
        # defense
        "MLB": _pos("defense", "-", "-", "-", "-", "F3 F2 S3 S2 F2 S2 A1-3 F1"),
        "DT": _pos("defense", "-", "S", "-", "W", "S3 S3 S2 S4 S2 S2 A0-2 F1"),
        "CB": _pos("defense", "W", "W", "S", "S", "A1-4 A1-4 F2 F3 F2 A2-4 S1 A1-3"),
        "S": _pos("defense", "W", "-", "-", "S", "F2 F3 A1-4 F2 S2 A1-3 F1 S1"),
        "OLB": _pos("defense", "-", "-", "S", "W", "S3 S2 A1-4 F2 S2 A2-3 F1 S1"),
        "DE": _pos("defense", "S", "-", "-", "W", "S3 S3 S2 A1-4 S2 S4 A0-3 F1"),
    }


def _default_offense() -> dict[str, str]:
    """Ruling BR-R-ROSTER: QB, RB, 2 WR, SLOT, TE and five linemen on the OT row."""
    return {
        "QB": "QB", "RB": "RB", "WR1": "WR", "WR2": "WR", "SLOT": "SLOT", "TE": "TE",
        "OT1": "OT", "OT2": "OT", "OT3": "OT", "OT4": "OT", "OT5": "OT",
    }  # fmt: skip


def _default_defense() -> dict[str, str]:
    """Ruling BR-R-ROSTER: MLB, 2 DT, 2 DE, 2 OLB, 2 CB and two safeties (FS, SS on the S row)."""
    return {
        "MLB": "MLB", "DT1": "DT", "DT2": "DT", "DE1": "DE", "DE2": "DE",
        "OLB1": "OLB", "OLB2": "OLB", "CB1": "CB", "CB2": "CB", "FS": "S", "SS": "S",
    }  # fmt: skip


_NAME_RE = re.compile(r"^[A-Z][A-Z0-9]{0,5}$")
#: words the action parser skips (``QB plays F3 at MM``); no player may be called one of them
PARSER_WORDS = frozenset(
    "PLAY PLAYS PLAYING PLACE PLACES PLACEMENT PUT PUTS CARD CARDS THE HIS HER THEIR ITS MY A AN AND WITH "
    "TO AT IN INTO ON ZONE THEN GOES GO USE USES USING THROW THROWS RUN RUNS SEND SENDS DROP DROPS OF FOR "
    "OUR I WE".split()
)


def _reads_as_zone(name: str) -> bool:
    """``DL`` or ``X``: what the action parser always reads as a zone (``RB``, column first, only
    where a zone is due)."""
    return name in ZONES or name == "X"


# alike on purpose: every game's ruleset is a frozen pydantic model of bounded fields of this shape; the
# fields, bounds and wording are each game's own
class BrawlRules(_Strict):
    """Ruleset of brawl (defaults: the document plus the rulings of ``rules_md/brawl.md``)."""

    multipliers: dict[Region, Annotated[int, Field(ge=0, le=MAX_MULTIPLIER)]] = Field(
        default_factory=lambda: {"D": 4, "M": 2, "S": 1, "B": 0},
        max_length=len(REGIONS),
        description=f"yard multiplier of each region (BR-YARDS): exactly D, M, S and B, each 0 to {MAX_MULTIPLIER}",
    )
    strong_factor: int = Field(default=2, ge=1, le=10, description="a strong (S) region multiplies card values by this (1 to 10)")
    weak_divisor: int = Field(default=2, ge=1, le=10, description="a weak (W) region divides card values by this, rounded down (1 to 10)")
    positions: dict[PositionName, PositionSpec] = Field(
        default_factory=_default_positions,
        max_length=MAX_POSITIONS,
        description=f"position -> side, strong/weak regions and deck; a rules file names only what it changes "
        f"(at most {MAX_POSITIONS} positions, the defaults included; names of 1-12 letters/digits)",
    )
    offense: dict[PlayerName, PositionName] = Field(
        default_factory=_default_offense,
        max_length=len(PLAYABLE),
        description=f"offensive players: name -> position; 1 to {len(PLAYABLE)} players (one per playable zone)",
    )
    defense: dict[PlayerName, PositionName] = Field(
        default_factory=_default_defense,
        max_length=len(PLAYABLE),
        description=f"defensive players: name -> position; 1 to {len(PLAYABLE)} players (one per playable zone)",
    )
    series_cards: int = Field(default=3, ge=1, le=6, description="cards each player draws per series = plays per series (BR-DRAW; 1 to 6)")
    go_cards: int = Field(default=1, ge=1, le=3, description="cards each player draws when going for it = extra plays (BR-GO; 1 to 3)")
    first_down_yards: int = Field(default=10, ge=1, le=99, description="yards a series needs for a first down (BR-FIRST-DOWN; 1 to 99)")
    field_length: int = Field(default=100, ge=20, le=200, description="yards from goal line to goal line (BR-R-FIELD; 20 to 200)")
    drive_start: int = Field(
        default=25, ge=1, le=199, description="a drive after a score or at the start begins this far from the own goal line (on the field)"
    )
    punt_distance: int = Field(default=40, ge=1, le=200, description="yards a punt travels (BR-R-PUNT; 1 to 200)")
    punt_touchback: int = Field(
        default=20, ge=1, le=199, description="a punt into the end zone is taken over this far from the goal line (on the field)"
    )
    field_goal_extra: int = Field(default=17, ge=0, le=100, description="kick distance = yards to the goal line + this (BR-R-FIELD-GOAL; 0 to 100)")
    field_goal_odds: dict[Annotated[int, Field(ge=1, le=300)], Annotated[int, Field(ge=0, le=100)]] = Field(
        default_factory=lambda: {30: 95, 40: 85, 50: 70, 60: 40},
        min_length=1,
        max_length=20,
        description="kick distance up to N yards (1 to 300) -> percent chance (0 to 100); longer kicks may not be tried; 1 to 20 entries",
    )
    touchdown_points: int = Field(default=7, ge=1, le=99, description="points for a touchdown, conversion included (BR-R-SCORE; 1 to 99)")
    field_goal_points: int = Field(default=3, ge=1, le=99, description="points for a good field goal (BR-R-SCORE; 1 to 99)")
    turnovers: Literal["pure", "kind", "reach", "any"] = Field(
        default="pure",
        description="where a defensive win on Focus/Strength alone is a turnover (BR-R-TURNOVER-ZONE): "
        "pure = where the offense's cards are all of that kind too; kind = where the offense has a card of that kind; "
        "reach = next to the X or a won zone; any = wherever the offense has cards (the literal reading)",
    )
    rounds: int = Field(default=20, ge=1, le=500, description="series in a game (BR-R-LENGTH; 1 to 500)")
    first_offense: Literal["toss", "home", "away"] = Field(
        default="toss", description="who has the ball first: a seeded coin toss, home or away (BR-R-FIRST)"
    )

    @field_validator("positions", mode="before")
    @classmethod
    def _merge_positions(cls, v: object) -> object:
        """A rules file names only the positions (and fields) it changes; the rest keep the defaults."""
        if not isinstance(v, dict):
            return v
        out: dict[str, object] = {k: p.model_dump() for k, p in _default_positions().items()}
        for name, spec in v.items():
            if isinstance(spec, dict) and name in out:
                base = out[name]
                assert isinstance(base, dict)
                out[name] = {**base, **spec}
            else:
                out[name] = spec
        return out

    @model_validator(mode="after")
    def _consistent(self) -> BrawlRules:
        if set(self.multipliers) != set(REGIONS):
            raise ValueError("multipliers needs exactly the regions D, M, S and B")
        for unit, roster in ((Unit.OFFENSE, self.offense), (Unit.DEFENSE, self.defense)):
            if not 1 <= len(roster) <= len(PLAYABLE):
                raise ValueError(f"{unit}: between 1 and {len(PLAYABLE)} players (one per playable zone)")
            for name, pos in roster.items():
                if not _NAME_RE.match(name):
                    raise ValueError(f"{unit}.{name}: a player name is 1-6 capital letters/digits starting with a letter")
                if is_card_code(name) or name in PARSER_WORDS or _reads_as_zone(name):
                    raise ValueError(f"{unit}.{name}: a player name must not read as a card code, a zone or a filler word")
                spec = self.positions.get(pos)
                if spec is None:
                    raise ValueError(f"{unit}.{name}: unknown position {pos!r}")
                if spec.side != unit:
                    raise ValueError(f"{unit}.{name}: position {pos} is a {spec.side} position")
                if len(spec.deck) < self.series_cards + self.go_cards:
                    raise ValueError(f"positions.{pos}.deck: at least {self.series_cards + self.go_cards} cards needed")
        if set(self.offense) & set(self.defense):
            raise ValueError("offense and defense player names must differ")
        if not self.drive_start < self.field_length or not self.punt_touchback < self.field_length:
            raise ValueError("drive_start and punt_touchback must lie on the field")
        return self

    # ------------------------------------------------------------- helpers
    def effect(self, position: str, zone: str) -> Effect:
        """``S``, ``W`` or ``-``: the position's effect in the zone's region."""
        return self.positions[position].effects[zone[0]]

    def modify(self, value: int, effect: str) -> int:
        """A card value after the position's effect (BR-STRONG / BR-WEAK)."""
        if effect == _STRONG:
            return value * self.strong_factor
        if effect == _WEAK:
            return value // self.weak_divisor
        return value

    def roster(self, unit: str) -> dict[str, str]:
        return self.offense if unit == Unit.OFFENSE else self.defense

    def field_goal_chance(self, distance: int) -> int | None:
        """Percent chance of a kick of ``distance`` yards; ``None`` if out of range."""
        for limit in sorted(self.field_goal_odds):
            if distance <= limit:
                return self.field_goal_odds[limit]
        return None
