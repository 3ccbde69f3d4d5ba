"""The Chess-Football ruleset: every number, table and line-up of the game, validated.

Defaults equal the rules document (``shared/seeds/004``) plus the rulings recorded in
``rules_md/chess_football.md``; a TOML file may override any field
(``gm new chess-football --rules my.toml``).  Unknown fields are errors.

Ability *effects* live in the engine; which piece has which ability, what it costs and
how often it may be used are data here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

POSITIONS = ("C", "NW", "NE", "SW", "SE")  # "first free position" order
BASES = ("heavy", "strong", "fast", "qb")
Base = Literal["heavy", "strong", "fast", "qb"]
Side = Literal["offense", "defense"]

#: every ability the engine knows (active ones are used as actions)
ACTIVE_ABILITIES = (
    "push", "chop_block", "chip_block", "retreat", "engage", "speed_rush", "pass", "play_action",
    "react", "jam", "seal", "juke", "route_running", "impact", "anchor",
)
PASSIVE_ABILITIES = ("intercept", "swim", "pressure", "scramble", "catching", "escort", "check_down")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: bounded building blocks: a name (an ability, kind or role), a movement cost or bonus, a list of names
Name = Annotated[str, Field(min_length=1, max_length=24)]
Cost = Annotated[int, Field(ge=0, le=9)]
Names = Annotated[list[Name], Field(max_length=24)]
#: abilities of a piece type: ability -> movement cost (at most one entry per ability the engine knows)
AbilityCosts = Annotated[dict[Name, Cost], Field(max_length=16)]


class KindSpec(_Strict):
    """A standard piece type: movement per turn, restricted or not, abilities with their movement cost."""

    name: str = Field(min_length=1, max_length=40)
    code: str = Field(min_length=2, max_length=2, description="two-letter id prefix (HV1, ST3 ...)")
    movement: int = Field(ge=0, le=9, description="movement per turn, 0 to 9")
    restricted: bool = Field(description="a change of direction costs 1 movement")
    abilities: AbilityCosts = Field(description="ability -> movement cost (0 to 9), at most 16 abilities")


class CaptainSpec(_Strict):
    """A captain role: its base piece type (whose abilities it inherits), side, movement and own abilities."""

    name: str = Field(min_length=1, max_length=40)
    code: str = Field(min_length=2, max_length=2, description="the captain's id on the field (SF, DT ...)")
    base: Base
    side: Side
    movement: int = Field(ge=0, le=9, description="movement per turn, 0 to 9")
    restricted: bool
    abilities: AbilityCosts = Field(default_factory=dict, description="own active abilities -> movement cost (0 to 9)")
    passives: Names = Field(default_factory=list, description="passive abilities (pass modifiers, escort ...), at most 24")


class Slot(_Strict):
    """Where a piece lines up: column letter, depth from the line of scrimmage, position in the square.

    Offense depth 0 is on the line of scrimmage row, 1 one row behind it; defense depth 1
    is the first row beyond the line of scrimmage (ruling CF-R-LINEUP)."""

    column: str = Field(pattern=r"^[A-Za-z]$")
    depth: int = Field(ge=0, le=10)
    position: Literal["C", "NW", "NE", "SW", "SE"] = "C"


class PieceSlot(Slot):
    """A standard piece of a line-up."""

    id: str = Field(pattern=r"^[A-Z]{2}[0-9]?$")
    kind: Base


def _kinds() -> dict[str, KindSpec]:
    return {
        "heavy": KindSpec(name="The Heavy", code="HV", movement=1, restricted=False,
                          abilities={"push": 1, "chop_block": 0, "chip_block": 1, "retreat": 1}),
        "strong": KindSpec(name="Strong", code="ST", movement=2, restricted=False,
                           abilities={"push": 2, "engage": 1, "chip_block": 1}),
        "fast": KindSpec(name="The Fast", code="FA", movement=3, restricted=True,
                         abilities={"engage": 2, "speed_rush": 1}),
        "qb": KindSpec(name="QB", code="QB", movement=1, restricted=False, abilities={"pass": 0, "play_action": 0}),
    }


def _captains() -> dict[str, CaptainSpec]:
    return {
        "safety": CaptainSpec(name="Safety", code="SF", base="fast", side="defense", movement=3, restricted=True,
                              abilities={"react": 0}, passives=["intercept"]),
        "nickelback": CaptainSpec(name="Nickelback", code="NB", base="strong", side="defense", movement=2,
                                  restricted=False, abilities={"jam": 1, "seal": 1}),
        "rusher": CaptainSpec(name="Rusher", code="RU", base="heavy", side="defense", movement=2, restricted=False,
                              passives=["swim", "pressure"]),
        "scrambler": CaptainSpec(name="Scrambler", code="SC", base="qb", side="offense", movement=3, restricted=True,
                                 abilities={"juke": 0, "engage": 1}, passives=["scramble"]),
        "deep_threat": CaptainSpec(name="Deep Threat", code="DT", base="fast", side="offense", movement=3,
                                   restricted=True, abilities={"route_running": 0}, passives=["catching"]),
        "lead_blocker": CaptainSpec(name="Lead Blocker", code="LB", base="strong", side="offense", movement=2,
                                    restricted=False, abilities={"impact": 1}, passives=["escort", "check_down"]),
        "lineman": CaptainSpec(name="Lineman", code="LM", base="heavy", side="offense", movement=2, restricted=False,
                               abilities={"impact": 1, "anchor": 2}),
    }


# alike on purpose: the offense's and the defense's lineups are two tables of data of one shape (CF-R-LINEUP's
# starting squares), not logic: one function building both would only hide the squares the document lists
def _offense_lineup() -> list[PieceSlot]:
    return [
        PieceSlot(id="HV1", kind="heavy", column="G", depth=0),
        PieceSlot(id="HV2", kind="heavy", column="I", depth=0),
        PieceSlot(id="ST1", kind="strong", column="H", depth=0),
        PieceSlot(id="QB", kind="qb", column="H", depth=1),
        PieceSlot(id="FA1", kind="fast", column="C", depth=0),
        PieceSlot(id="FA2", kind="fast", column="N", depth=0),
    ]


def _defense_lineup() -> list[PieceSlot]:
    return [
        PieceSlot(id="HV3", kind="heavy", column="G", depth=1),
        PieceSlot(id="HV4", kind="heavy", column="I", depth=1),
        PieceSlot(id="ST3", kind="strong", column="F", depth=2),
        PieceSlot(id="ST4", kind="strong", column="K", depth=2),
        PieceSlot(id="FA3", kind="fast", column="C", depth=2),
        PieceSlot(id="FA4", kind="fast", column="N", depth=2),
    ]


def _captain_slots() -> dict[str, Slot]:
    return {
        "safety": Slot(column="H", depth=4),
        "nickelback": Slot(column="J", depth=2),
        "rusher": Slot(column="H", depth=1),
        "scrambler": Slot(column="I", depth=2),
        "deep_threat": Slot(column="L", depth=0),
        "lead_blocker": Slot(column="H", depth=2),
        "lineman": Slot(column="J", depth=0),
    }


class PassRules(_Strict):
    """Passing: 1d6 + modifiers against the outcome table (CF-PASS, CF-PASS-TABLE, CF-PASS-MOD-*)."""

    die: int = Field(default=6, ge=2, le=20)
    complete_min: int = Field(default=3, ge=-40, le=40, description="total at or above: complete (-40 to 40)")
    incomplete_min: int = Field(default=1, ge=-40, le=40, description="total from here up to complete_min - 1: incomplete (-40 to 40)")
    interception_max: int = Field(default=-1, ge=-40, le=40,
                                  description="total at or below: intercepted by a defender next to the receiver (-40 to 40)")
    safety_interception_max: int = Field(default=0, ge=-40, le=40,
                                         description="total at or below: intercepted by the Safety next to the receiver (-40 to 40)")
    adjacent_defender: int = Field(default=-1, ge=-10, le=10, description="per defender adjacent to the receiver (-10 to 10)")
    safety_adjacent: int = Field(default=-2, ge=-10, le=10, description="if the Safety is adjacent to the receiver (-10 to 10)")
    rusher_adjacent_passer: int = Field(default=-1, ge=-10, le=10, description="if the Rusher is adjacent to the passer (-10 to 10)")
    deep_threat_receiver: int = Field(default=1, ge=-10, le=10, description="if the receiver is the Deep Threat (-10 to 10)")
    lead_blocker_near_passer: int = Field(default=1, ge=-10, le=10,
                                          description="if the Lead Blocker is within lead_blocker_range of the passer (-10 to 10)")
    lead_blocker_range: int = Field(default=2, ge=0, le=10, description="squares, 0 to 10")

    @model_validator(mode="after")
    def _table(self) -> PassRules:
        if not self.interception_max < self.incomplete_min <= self.complete_min:
            raise ValueError("need interception_max < incomplete_min <= complete_min")
        if not self.interception_max <= self.safety_interception_max < self.incomplete_min:
            raise ValueError("need interception_max <= safety_interception_max < incomplete_min")
        return self


class ChessFootballRules(_Strict):
    """Ruleset of the Chess-Football Hybrid (defaults: the rules document v2.0 and the rulings)."""

    rows: int = Field(default=48, ge=16, le=99, description="field length, 16 to 99; rows are numbered from 1")
    columns: int = Field(default=16, ge=8, le=26, description="field width, 8 to 26; columns are lettered from A")
    end_zone_rows: int = Field(default=4, ge=1, le=10, description="rows of each end zone (1-4 and 45-48), 1 to 10")
    drive_start_square: int = Field(default=8, ge=1, le=90,
                                    description="drives start on this square from the own goal line (CF-R-SQUARE8), 1 to 90")
    first_down_squares: int = Field(default=4, ge=1, le=40, description="first down line = LOS + this, 1 to 40")
    downs: int = Field(default=4, ge=1, le=8, description="downs to reach the first down line, 1 to 8")
    punt_downs: list[Annotated[int, Field(ge=1, le=8)]] = Field(
        default_factory=lambda: [4], max_length=8, description="downs on which the offense declares punt or go for it (1 to 8 each)")
    touchdown_points: int = Field(default=7, ge=1, le=99, description="1 to 99")
    safety_points: int = Field(default=2, ge=1, le=99, description="1 to 99")
    possessions_per_half: int = Field(default=4, ge=1, le=8, description="possessions per team per half, 1 to 8")
    overtime_possessions: int = Field(default=1, ge=1, le=4, description="possessions per team in an overtime period, 1 to 4")
    overtime_periods: int = Field(default=1, ge=0, le=4, description="overtime periods played while tied (CF-R-OT-TIE), 0 to 4")
    max_turns_per_down: int = Field(default=4, ge=1, le=12,
                                    description="turns (snap + reaction turns) before the whistle (CF-R-DOWN-LIMIT), 1 to 12")
    plan_rows: int = Field(default=7, ge=1, le=12, description="rows of the snap planning board, 1 to 12")
    snap_burst: int = Field(default=1, ge=0, le=5, description="extra movement at the snap, 0 to 5")
    snap_burst_pieces: Names = Field(default_factory=lambda: ["heavy", "strong", "lineman"],
                                     description="kinds / captain roles that get the snap burst (at most 24)")
    ineligible_pieces: Names = Field(
        default_factory=lambda: ["heavy", "strong", "lead_blocker", "lineman", "nickelback", "rusher"],
        description="kinds / captain roles that are ineligible receivers (CF-R-BLOCKING-CAPTAINS; at most 24)")
    ineligible_downfield: int = Field(default=1, ge=0, le=20,
                                      description="rows past the LOS an ineligible piece may end before the pass, 0 to 20")
    movement_order: Names = Field(default_factory=lambda: ["captain", "heavy", "strong", "fast", "qb"],
                                  description="captain, heavy, strong, fast and qb, each once, in the order they move")
    retreat_squares: int = Field(default=2, ge=1, le=5, description="squares a Retreat covers, 1 to 5")
    once_per_downs: int = Field(default=4, ge=1, le=20, description="'once per 4 downs' window, 1 to 20 downs")
    limited_abilities: Names = Field(
        default_factory=lambda: ["chop_block", "speed_rush", "react", "juke", "route_running", "anchor"],
        description="abilities usable once per once_per_downs downs (per piece; at most 24)")
    move_bonus: Annotated[dict[Name, Cost], Field(max_length=8)] = Field(
        default_factory=lambda: {"react": 1, "juke": 1, "escort": 1, "chip_block": 1, "anchor": 1},
        description="movement given by React, Juke, Escort, Chip Block and Anchor (0 to 9 each)")
    engage_drain: int = Field(default=1, ge=0, le=9, description="movement removed by Engage and Impact, 0 to 9")
    swim_cost: int = Field(default=1, ge=0, le=9, description="0 to 9")
    seal_cost: int = Field(default=1, ge=0, le=9, description="extra cost of a step into a square next to a sealing Nickelback, 0 to 9")
    direction_change_cost: int = Field(default=1, ge=0, le=9, description="0 to 9")
    collision_die: int = Field(default=6, ge=2, le=20, description="sides of the collision die, 2 to 20")
    passing: PassRules = Field(default_factory=PassRules)
    kinds: Annotated[dict[Name, KindSpec], Field(max_length=4)] = Field(
        default_factory=_kinds, description="heavy, strong, fast and qb")
    captains: Annotated[dict[Name, CaptainSpec], Field(max_length=12)] = Field(
        default_factory=_captains, description="captain roles by name, at most 12")
    offense_lineup: list[PieceSlot] = Field(default_factory=_offense_lineup, max_length=10,
                                            description="the offense's standard pieces, at most 10")
    defense_lineup: list[PieceSlot] = Field(default_factory=_defense_lineup, max_length=10,
                                            description="the defense's standard pieces, at most 10")
    captain_slots: Annotated[dict[Name, Slot], Field(max_length=12)] = Field(
        default_factory=_captain_slots, description="where each captain role lines up, at most 12")
    toss_caller: Literal["home", "away"] = Field(default="away", description="who calls the coin toss (CF-R-TOSS)")

    @model_validator(mode="after")
    def _consistent(self) -> ChessFootballRules:
        if 2 * self.end_zone_rows + 4 > self.rows:
            raise ValueError("end zones leave no field of play")
        field = self.rows - 2 * self.end_zone_rows
        if self.drive_start_square > field - 1:
            raise ValueError(f"drive_start_square must be inside the field of play (1..{field - 1})")
        if set(self.kinds) != set(BASES):
            raise ValueError(f"kinds needs exactly {', '.join(BASES)}")
        known = set(ACTIVE_ABILITIES)
        for name, k in self.kinds.items():
            bad = set(k.abilities) - known
            if bad:
                raise ValueError(f"kinds.{name}: unknown abilities {sorted(bad)}")
        for name, c in self.captains.items():
            bad = set(c.abilities) - known
            if bad:
                raise ValueError(f"captains.{name}: unknown abilities {sorted(bad)}")
            badp = set(c.passives) - set(PASSIVE_ABILITIES)
            if badp:
                raise ValueError(f"captains.{name}: unknown passives {sorted(badp)}")
            if name not in self.captain_slots:
                raise ValueError(f"captain_slots: no slot for {name}")
        for side in ("offense", "defense"):
            if not any(c.side == side for c in self.captains.values()):
                raise ValueError(f"captains: no {side} captain")
        names = set(self.kinds) | set(self.captains)
        for fld in ("snap_burst_pieces", "ineligible_pieces"):
            bad = set(getattr(self, fld)) - names
            if bad:
                raise ValueError(f"{fld}: unknown kinds or roles {sorted(bad)}")
        if sorted(self.movement_order) != sorted(["captain", *BASES]):
            raise ValueError("movement_order must list captain, heavy, strong, fast and qb once each")
        if set(self.limited_abilities) - known:
            raise ValueError("limited_abilities: unknown abilities")
        letters = {chr(ord("A") + i) for i in range(self.columns)}
        ids: list[str] = []
        for side, lineup, max_depth in (("offense", self.offense_lineup, self.end_zone_rows),
                                        ("defense", self.defense_lineup, self.end_zone_rows)):
            if not lineup:
                raise ValueError(f"{side}_lineup is empty")
            for p in lineup:
                if p.column.upper() not in letters:
                    raise ValueError(f"{side}_lineup {p.id}: column {p.column} is off the field")
                if side == "offense" and p.depth > max_depth:
                    raise ValueError(f"{side}_lineup {p.id}: depth {p.depth} > {max_depth}")
                if side == "defense" and not 1 <= p.depth <= max_depth:
                    raise ValueError(f"{side}_lineup {p.id}: depth must be 1..{max_depth}")
                ids.append(p.id)
            spots = [(p.column.upper(), p.depth, p.position) for p in lineup]
            if len(set(spots)) != len(spots):
                raise ValueError(f"{side}_lineup: two pieces on one position")
        if not any(p.kind == "qb" for p in self.offense_lineup):
            raise ValueError("offense_lineup needs a qb (the ball starts with it)")
        for name, s in self.captain_slots.items():
            if s.column.upper() not in letters:
                raise ValueError(f"captain_slots.{name}: column off the field")
            cap = self.captains.get(name)
            if cap is not None:
                c = cap
                lineup = self.offense_lineup if c.side == "offense" else self.defense_lineup
                if (s.column.upper(), s.depth, s.position) in {(p.column.upper(), p.depth, p.position) for p in lineup}:
                    raise ValueError(f"captain_slots.{name}: the position is taken by a standard piece")
                if c.side == "defense" and not 1 <= s.depth <= self.end_zone_rows:
                    raise ValueError(f"captain_slots.{name}: depth must be 1..{self.end_zone_rows}")
                if c.side == "offense" and s.depth > self.end_zone_rows:
                    raise ValueError(f"captain_slots.{name}: depth > {self.end_zone_rows}")
        ids += [c.code for c in self.captains.values()]
        if len(set(ids)) != len(ids):
            raise ValueError("piece ids and captain codes must all differ")
        if any(not 1 <= d <= self.downs for d in self.punt_downs):
            raise ValueError(f"punt_downs must be between 1 and {self.downs}")
        return self

    # ------------------------------------------------------------- helpers
    @property
    def low_goal(self) -> int:
        """Last row of the low end zone."""
        return self.end_zone_rows

    @property
    def high_goal(self) -> int:
        """First row of the high end zone."""
        return self.rows - self.end_zone_rows + 1

    def captain_roles(self, side: str) -> list[str]:
        return [n for n, c in self.captains.items() if c.side == side]
