"""The GridMaster4 ruleset: every number of the game, validated.

Defaults equal the rules document (``shared/seeds/002``): a 20x20 board, four
players with tiles 1-100, moves exactly 3 cells orthogonally or 2 diagonally,
tile 100 wins.  A TOML file may override any field
(``GAME.load_rules_file("my.toml")``); unknown fields are errors.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: seat names in the document's initial player order (1=orange ... 4=aqua)
SEATS: tuple[str, ...] = ("orange", "magenta", "lime", "aqua")
#: the document's colour names
COLOURS: dict[str, str] = {"orange": "orange", "magenta": "magenta", "lime": "lime green", "aqua": "aqua"}
#: one letter per seat on the board: upper case = active tile, lower case = inactive
LETTERS: dict[str, str] = {"orange": "O", "magenta": "M", "lime": "L", "aqua": "A"}
MAX_COLUMNS = 26  # columns are lettered A..Z


# alike on purpose: enums of this shape stand in every game's rules and engine; these are GridMaster4's own ruleset choices
class BuildFrom(StrEnum):
    """Whose active tiles a player builds on (ruleset ``build_from``)."""

    OWN = "own"
    ANY = "any"


class Deactivate(StrEnum):
    """Whose active tiles a normal move makes inactive (ruleset ``deactivate``)."""

    ANY = "any"
    OWN = "own"


#: the bounds of every number of the ruleset: the largest board (26x99), four players and 999
#: tiles still play a whole game in a second or two and a few megabytes
MAX_ROWS = 99  # rows are numbered 1..99 (two digits)
MAX_TILES = 999  # tile numbers have at most three digits
MAX_DISTANCE = MAX_ROWS - 1  # a longer move leaves the largest board


class GridMaster4Rules(BaseModel):
    """Ruleset of GridMaster4 (defaults: the rules document)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    columns: int = Field(
        default=20, ge=1, le=MAX_COLUMNS, description=f"board width, 1 to {MAX_COLUMNS}; columns are lettered from A"
    )
    rows: int = Field(
        default=20, ge=1, le=MAX_ROWS, description=f"board height, 1 to {MAX_ROWS}; rows are numbered from 1 (bottom)"
    )
    players: int = Field(
        default=4,
        ge=1,
        le=len(SEATS),
        description=f"how many players take part, 1 to {len(SEATS)}, in seat order orange, magenta, lime, aqua",
    )
    tiles: int = Field(
        default=100, ge=1, le=MAX_TILES, description=f"each player's tiles are numbered 1..tiles; tiles is 1 to {MAX_TILES}"
    )
    winning_tile: int = Field(
        default=100,
        ge=1,
        le=MAX_TILES,
        description=f"placing this tile wins at once (GM4-WIN-TILE); 1 to {MAX_TILES}, at most tiles",
    )
    orthogonal: int = Field(
        default=3,
        ge=1,
        le=MAX_DISTANCE,
        description=f"a move is exactly this many cells up, down, left or right; 1 to {MAX_DISTANCE}",
    )
    diagonal: int = Field(
        default=2, ge=1, le=MAX_DISTANCE, description=f"... or exactly this many cells diagonally; 1 to {MAX_DISTANCE}"
    )
    build_from: BuildFrom = Field(
        default=BuildFrom.OWN,
        description="whose active tiles a player builds on: own (ruling GM4-R-OWN-TILES) or any colour",
    )
    deactivate: Deactivate = Field(
        default=Deactivate.ANY,
        description="whose active tiles a move makes inactive: any colour (ruling GM4-R-DEACT-ANY) or the mover's own",
    )

    @model_validator(mode="after")
    def _consistent(self) -> GridMaster4Rules:
        if self.winning_tile > self.tiles:
            raise ValueError(f"winning_tile ({self.winning_tile}) must not exceed tiles ({self.tiles})")
        if self.columns * self.rows < self.players:
            raise ValueError(f"a {self.columns}x{self.rows} board has no room for {self.players} first tiles")
        return self

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats taking part, in turn order."""
        return SEATS[: self.players]

    @property
    def cells(self) -> int:
        return self.columns * self.rows
