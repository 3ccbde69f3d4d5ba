"""The Grid Football ruleset: every number and table of the game, validated.

Defaults equal the quick-start document; a TOML file may override any field
(``gm new grid-football --rules my.toml``).  Unknown fields are errors.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializationInfo, field_serializer, model_validator

Position = Literal["left", "center", "right"]
POSITIONS: tuple[Position, ...] = ("left", "center", "right")
KICK_COLOURS = ("yellow", "red", "green")
PLAY_COLOURS = ("red", "black")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: the largest numbers a ruleset may use (chosen so that the largest ruleset still plays a game
#: in a few seconds and little memory: see tests/grid_football/test_ruleset.py)
MAX_COLUMNS, MAX_ROWS = 26, 99
MAX_DOWNS, MAX_QUARTERS, MAX_DOWNS_PER_QUARTER = 10, 12, 100
MAX_PLAYS, MAX_LATERAL, MAX_FORWARD = 9, 10, 20

Row = Annotated[int, Field(ge=1, le=MAX_ROWS)]
Quarter = Annotated[int, Field(ge=1, le=MAX_QUARTERS)]
Down = Annotated[int, Field(ge=1, le=MAX_DOWNS)]
Column = Annotated[str, Field(pattern=r"^[A-Za-z]$")]
Steps = Annotated[int, Field(ge=0, le=MAX_ROWS)]
Matches = Annotated[int, Field(ge=0, le=2)]
PlayNumber = Annotated[int, Field(ge=1, le=MAX_PLAYS)]


class PlayResult(_Strict):
    """One line of the plays table: rows forward (negative = backward) and the lateral cap."""

    forward: int = Field(ge=-MAX_FORWARD, le=MAX_FORWARD, description=f"rows forward, negative backward (-{MAX_FORWARD}..{MAX_FORWARD})")
    lateral: int = Field(ge=0, le=MAX_LATERAL, description=f"at most this many columns of lateral (0-{MAX_LATERAL})")


class PlaySpec(_Strict):
    """A play: its name, the result when the defense is wrong and when it matches."""

    name: str = Field(min_length=1, max_length=40, description="the play's name (1-40 characters)")
    wrong: PlayResult
    matched: PlayResult
    unlock_quarter: Quarter = Field(default=1, description=f"first quarter in which the play may be called (1-{MAX_QUARTERS})")


def _kick_columns(**columns: str) -> dict[Position, str]:
    return {p: columns[p] for p in POSITIONS}


def _default_plays() -> dict[int, PlaySpec]:
    # PlaySpec is frozen: every ruleset may share the same four specs (a new dict each time)
    return dict(_DEFAULT_PLAYS)


def _make_default_plays() -> dict[int, PlaySpec]:
    return {
        1: PlaySpec(name="Power/Sweep", wrong=PlayResult(forward=4, lateral=3), matched=PlayResult(forward=0, lateral=2)),
        2: PlaySpec(name="Interior Run", wrong=PlayResult(forward=2, lateral=0), matched=PlayResult(forward=-2, lateral=0)),
        3: PlaySpec(
            name="Speed/Positioning", wrong=PlayResult(forward=1, lateral=3), matched=PlayResult(forward=-3, lateral=0)
        ),
        4: PlaySpec(
            name="Breakaway",
            wrong=PlayResult(forward=5, lateral=2),
            matched=PlayResult(forward=-4, lateral=1),
            unlock_quarter=2,
        ),
    }


_DEFAULT_PLAYS = _make_default_plays()


class GridFootballRules(_Strict):
    """Ruleset of Turn-Based Grid Football (defaults: the quick-start guide)."""

    columns: int = Field(default=20, ge=5, le=MAX_COLUMNS, description=f"board width (5-{MAX_COLUMNS}); columns are lettered from A")
    rows: int = Field(default=64, ge=20, le=MAX_ROWS, description=f"board length (20-{MAX_ROWS}); rows are numbered from 1")
    low_goal_line: int = Field(
        default=5, ge=1, le=MAX_ROWS - 3, description="goal line of the low end zone, rows 1..low_goal_line (1-96)"
    )
    high_goal_line: int = Field(
        default=59, ge=4, le=MAX_ROWS,
        description="goal line of the high end zone, rows high_goal_line..rows (4-99; at least 3 rows above the low one)",
    )
    kick_distance: int = Field(
        default=55, ge=1, le=MAX_ROWS, description="rows a kickoff travels from the kicking team's goal line (1-99)"
    )
    kick_columns: dict[Position, Column] = Field(
        default_factory=lambda: _kick_columns(left="E", center="K", right="P"),
        max_length=3,
        description="column (one letter on the board) where a kick comes down for the kicking team's left, center and right call (ruling GF-R-KICK-COLUMN)",
    )
    return_steps: dict[Matches, Steps] = Field(
        default_factory=lambda: {2: 5, 1: 10, 0: 15},
        max_length=3,
        description="kick return steps (0-99) for 2, 1 and 0 matches; a kickoff return must stop short of the end zone",
    )
    number_max: int = Field(default=10, ge=2, le=100, description="number checks pick from 1..number_max (2-100)")
    punt_distance: int = Field(default=40, ge=1, le=MAX_ROWS, description="rows a punt travels from the ball (1-99; ruling GF-R-PUNT)")
    punt_downs: list[Down] = Field(
        default_factory=lambda: [4], max_length=MAX_DOWNS, description="downs on which the offense may punt (each 1-downs)"
    )
    plays: dict[PlayNumber, PlaySpec] = Field(
        default_factory=_default_plays, max_length=MAX_PLAYS,
        description="the plays table: play number (1-9) -> name, result when the defense is wrong and when it matches, first quarter",
    )
    no_match_bonus: int = Field(default=2, ge=-MAX_FORWARD, le=MAX_FORWARD, description="bonus rows when nothing matches (-20..20)")
    play_match_bonus: int = Field(default=2, ge=-MAX_FORWARD, le=MAX_FORWARD, description="bonus rows when only the play matches (-20..20)")
    colour_match_forward: int = Field(
        default=3, ge=0, le=MAX_FORWARD, description="exact rows forward when only the colour matches (0-20)"
    )
    first_down_rows: int = Field(default=10, ge=1, le=MAX_ROWS, description="rows to the line to gain for a first down (1-99)")
    downs: int = Field(default=4, ge=1, le=MAX_DOWNS, description="downs to reach the line to gain (1-10)")
    quarters: int = Field(default=4, ge=2, le=MAX_QUARTERS, description="quarters in a game, an even number: two halves (2-12)")
    downs_per_quarter: int = Field(default=15, ge=1, le=MAX_DOWNS_PER_QUARTER, description="downs in a quarter (1-100)")
    switch_after_quarters: list[Quarter] = Field(
        default_factory=lambda: [1, 3], max_length=MAX_QUARTERS, description="the teams switch ends after these quarters (each 1-quarters)"
    )
    warning_quarters: list[Quarter] = Field(
        default_factory=lambda: [2, 4], max_length=MAX_QUARTERS, description="quarters with a warning near their end (each 1-quarters)"
    )
    warning_downs_left: int = Field(
        default=4, ge=0, le=MAX_DOWNS_PER_QUARTER, description="downs left in the quarter when the warning comes (0-100)"
    )
    toss_caller: Literal["home", "away"] = Field(default="away", description="who calls the coin toss")
    win: Literal["first_touchdown", "points"] = Field(
        default="first_touchdown", description="first touchdown wins, or a full game decided on points"
    )
    touchdown_points: int = Field(default=7, ge=1, le=100, description="points for a touchdown in points mode (1-100)")

    @field_serializer("plays")
    def _dump_plays(self, plays: dict[int, PlaySpec], info: SerializationInfo) -> dict[int, Any]:
        """Removed default plays are written as ``false`` so a saved ruleset reads back the same."""
        out: dict[int, Any] = {n: spec.model_dump(mode=info.mode) for n, spec in plays.items()}
        out.update({n: False for n in _default_plays() if n not in plays})
        return out

    @model_validator(mode="before")
    @classmethod
    def _merge_plays(cls, data: Any) -> Any:
        """A rules file names only the plays (and fields) it changes: ``[plays.2]`` with
        ``wrong = {...}`` overrides play 2's 'defense wrong' line and keeps the rest;
        ``4 = false`` under ``[plays]`` removes play 4."""
        if not isinstance(data, dict) or not isinstance(data.get("plays"), dict):
            return data
        merged: dict[Any, Any] = {n: spec.model_dump() for n, spec in _default_plays().items()}
        for key, spec in data["plays"].items():
            n = int(key) if isinstance(key, str) and key.strip().isdigit() else key
            if spec is False:
                merged.pop(n, None)
                continue
            base = merged.get(n)
            merged[n] = {**base, **spec} if isinstance(base, dict) and isinstance(spec, dict) else spec
        return {**data, "plays": merged}

    @model_validator(mode="after")
    def _consistent(self) -> GridFootballRules:
        if not self.low_goal_line < self.high_goal_line <= self.rows:
            raise ValueError("goal lines must satisfy 1 <= low_goal_line < high_goal_line <= rows")
        if self.high_goal_line - self.low_goal_line < 3:
            raise ValueError("goal lines leave no field of play")
        for pos, col in self.kick_columns.items():
            if not 0 <= ord(col.upper()) - ord("A") < self.columns:
                raise ValueError(f"kick_columns.{pos}: column {col!r} is not on a board of {self.columns} columns")
        if set(self.kick_columns) != set(POSITIONS):
            raise ValueError("kick_columns needs left, center and right")
        if set(self.return_steps) != {0, 1, 2}:
            raise ValueError("return_steps needs entries for 0, 1 and 2 matches")
        if not self.plays:
            raise ValueError("plays: at least one play is needed")
        if any(n < 1 or n > 9 for n in self.plays):
            raise ValueError("plays: play numbers are 1..9")
        if 1 not in [s.unlock_quarter for s in self.plays.values()]:
            raise ValueError("plays: at least one play must be open in quarter 1")
        for q in [*self.switch_after_quarters, *self.warning_quarters]:
            if not 1 <= q <= self.quarters:
                raise ValueError(f"quarter {q} is not between 1 and {self.quarters}")
        if self.quarters % 2:
            raise ValueError("quarters must be even (two halves)")
        if any(not 1 <= d <= self.downs for d in self.punt_downs):
            raise ValueError(f"punt_downs must be between 1 and {self.downs}")
        # a kickoff return that always scores would start kickoff after kickoff without end
        up_land = min(self.rows, self.low_goal_line + self.kick_distance)
        down_land = max(1, self.high_goal_line - self.kick_distance)
        room = min(up_land - self.low_goal_line, self.high_goal_line - down_land) - 1
        longest = max(self.return_steps.values())
        if longest > room:
            raise ValueError(
                f"return_steps: a kickoff return of {longest} steps reaches the end zone on an open board; "
                f"with these goal lines and kick distance a return may be at most {room} steps"
            )
        return self

    @property
    def field_rows(self) -> tuple[int, int]:
        """First and last row of the field of play (outside both end zones)."""
        return self.low_goal_line + 1, self.high_goal_line - 1

    @property
    def max_lateral(self) -> int:
        return max(s.wrong.lateral for s in self.plays.values())
