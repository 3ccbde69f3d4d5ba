"""The GridMaster4 ruleset: every number of the game, validated.

Defaults equal the rules document (``shared/seeds/002``): a 20x20 board, four
players with tiles 1-100, moves exactly 3 cells orthogonally or 2 diagonally,
tile 100 wins.  A TOML file may override any field
(``GAME.load_rules_file("my.toml")``); unknown fields are errors.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: seat names in the document's initial player order (1=orange ... 4=aqua)
SEATS: tuple[str, ...] = ("orange", "magenta", "lime", "aqua")
#: the document's colour names
COLOURS: dict[str, str] = {"orange": "orange", "magenta": "magenta", "lime": "lime green", "aqua": "aqua"}
#: one letter per seat on the board: upper case = active tile, lower case = inactive
LETTERS: dict[str, str] = {"orange": "O", "magenta": "M", "lime": "L", "aqua": "A"}
MAX_COLUMNS = 26  # columns are lettered A..Z


class GridMaster4Rules(BaseModel):
    """Ruleset of GridMaster4 (defaults: the rules document)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    columns: int = Field(default=20, ge=1, le=MAX_COLUMNS, description="board width; columns are lettered from A")
    rows: int = Field(default=20, ge=1, le=99, description="board height; rows are numbered from 1 (bottom)")
    players: int = Field(
        default=4, ge=1, le=len(SEATS), description="how many players take part, in seat order orange, magenta, lime, aqua"
    )
    tiles: int = Field(default=100, ge=1, le=999, description="each player's tiles are numbered 1..tiles")
    winning_tile: int = Field(default=100, ge=1, description="placing this tile wins at once (GM4-WIN-TILE)")
    orthogonal: int = Field(default=3, ge=1, le=98, description="a move is exactly this many cells up, down, left or right")
    diagonal: int = Field(default=2, ge=1, le=98, description="... or exactly this many cells diagonally")
    build_from: Literal["own", "any"] = Field(
        default="own", description="whose active tiles a player builds on: own (ruling GM4-R-OWN-TILES) or any colour"
    )
    deactivate: Literal["any", "own"] = Field(
        default="any",
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
