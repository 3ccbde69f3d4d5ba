"""The Quarter Back ruleset: every number of the game and the set-up, validated.

Defaults equal the rules document (``shared/seeds/001``) where it gives a number
(movement 1/2/3, the Quarterback's extra square, blocking strengths 3/2/1/1,
two actions a turn, rows 0-12, game points 2/1/0) and the rulings in
``rules_md/quarterback.md`` where it does not (board width, unnumbered rows,
the lost set-up diagram, half length).  The set-up is part of the ruleset, so
an owner of the printed board can enter the real one in a TOML file::

    columns = 9
    [attack]
    quarterback = ["E-2"]
    singles = ["D0", "E0", "F0"]
    [defense]
    singles = ["D1", "E1", "F1"]

Squares are a column letter (A = leftmost, seen from the attacker) and a row:
0-12 are the numbered rows (the line of scrimmage lies between 0 and 1), the
unnumbered rows behind row 0 are written -1, -2, ...  Unknown fields are errors.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: piece kinds by their letter (ids are the letter + a number; the Quarterback is "QB")
KIND_NAMES: dict[str, str] = {"Q": "Quarterback", "S": "Single", "D": "Double", "T": "Triple"}
#: set-up list name -> kind letter
SETUP_LISTS: dict[str, str] = {"quarterback": "Q", "singles": "S", "doubles": "D", "triples": "T"}
MAX_PER_KIND = 9
#: the most squares a piece may be given to move, and the most extra squares of a Quarterback over the line: a
#: piece's legal moves grow with the square of its reach, and these keep the largest ruleset's list of every
#: legal action to a few thousand
MAX_MOVES, MAX_EXTRA = 5, 2

_SQUARE = re.compile(r"^([A-Za-z])(-?\d{1,2})$")
#: a square of a set-up list, as written in a rules file
SquareText = Annotated[str, Field(pattern=r"^\s*[A-Za-z]-?\d{1,2}\s*$", max_length=8)]
#: the points of one column
ColumnValue = Annotated[int, Field(ge=0, le=99)]


@lru_cache(maxsize=4096)
def parse_square(text: str) -> tuple[int, int]:
    """``"E-2"`` -> ``(4, -2)`` (column index from 0, printed row); no bounds check."""
    m = _SQUARE.match(text.strip())
    if not m:
        raise ValueError(f"not a square: {text!r} (write a column letter and a row, e.g. E7 or E-1)")
    return ord(m.group(1).upper()) - ord("A"), int(m.group(2))


@lru_cache(maxsize=4096)
def square_name(square: tuple[int, int]) -> str:
    """``(4, -2)`` -> ``"E-2"``."""
    return f"{chr(ord('A') + square[0])}{square[1]}"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SideSetup(_Strict):
    """One side's pieces and their starting squares; ids follow the list order (S1, S2, ...)."""

    quarterback: list[SquareText] = Field(
        default_factory=list, max_length=1, description="the Quarterback's square (at most one), e.g. E-2"
    )
    singles: list[SquareText] = Field(
        default_factory=list, max_length=MAX_PER_KIND, description=f"starting squares of the Singles (at most {MAX_PER_KIND})"
    )
    doubles: list[SquareText] = Field(
        default_factory=list, max_length=MAX_PER_KIND, description=f"starting squares of the Doubles (at most {MAX_PER_KIND})"
    )
    triples: list[SquareText] = Field(
        default_factory=list, max_length=MAX_PER_KIND, description=f"starting squares of the Triples (at most {MAX_PER_KIND})"
    )

    def pieces(self) -> dict[str, str]:
        """Piece id -> square name: ``QB``, ``S1``.., ``D1``.., ``T1``.."""
        return dict(_pieces(tuple(self.quarterback), tuple(self.singles), tuple(self.doubles), tuple(self.triples)))


@lru_cache(maxsize=256)
def _pieces(*lists: tuple[str, ...]) -> dict[str, str]:
    """:meth:`SideSetup.pieces` of a side's lists (in :data:`SETUP_LISTS` order), worked out once
    (every match sets its pieces out four times, and a ruleset is validated for every match)."""
    out: dict[str, str] = {}
    for letter, squares in zip(SETUP_LISTS.values(), lists, strict=True):
        for i, sq in enumerate(squares, start=1):
            pid = "QB" if letter == "Q" else f"{letter}{i}"
            out[pid] = square_name(parse_square(sq))
    return out


def _default_attack() -> SideSetup:
    return SideSetup(
        quarterback=["E-2"], singles=["D0", "E0", "F0"], doubles=["C0", "G0"], triples=["A0", "I0"]
    )


def _default_defense() -> SideSetup:
    return SideSetup(singles=["D1", "E1", "F1"], doubles=["C1", "G1"], triples=["B4", "H4"])


# alike on purpose: every game's ruleset is a frozen pydantic model of bounded fields of this shape; the
# fields, bounds and wording are each game's own
class QuarterbackRules(_Strict):
    """Ruleset of Quarter Back (defaults: the rules document plus the recorded rulings)."""

    #: fields added after rulesets were stored, with the value that plays the game as it was before (a ruleset
    #: stored without the field loads with it, and the ruleset hash leaves the field out at that value)
    legacy: ClassVar[dict[str, Any]] = {"tackle_reading": "pairs"}

    columns: int = Field(
        default=9, ge=3, le=26, description="board width, 3 to 26 columns lettered from A (ruling QB-R-BOARD)"
    )
    column_values: Annotated[list[ColumnValue], Field(max_length=26)] | None = Field(
        default=None,
        description="points of each column, left to right: one value (0 to 99) per column "
        "(default 1, 2, 3, ...; ruling QB-R-COLUMNS)",
    )
    field_rows: int = Field(
        default=12, ge=2, le=30, description="numbered rows over the line of scrimmage: 1..field_rows (2 to 30)"
    )
    back_rows: int = Field(
        default=2, ge=0, le=9, description="unnumbered rows behind row 0, written -1, -2, ... (0 to 9; ruling QB-R-BOARD)"
    )
    single_moves: int = Field(default=1, ge=1, le=MAX_MOVES, description=f"squares a Single may move (1 to {MAX_MOVES})")
    double_moves: int = Field(default=2, ge=1, le=MAX_MOVES, description=f"squares a Double may move (1 to {MAX_MOVES})")
    triple_moves: int = Field(
        default=3, ge=1, le=MAX_MOVES,
        description=f"squares a Triple may move, and a Quarterback behind the line (1 to {MAX_MOVES})",
    )  # fmt: skip
    quarterback_extra: int = Field(
        default=1, ge=0, le=MAX_EXTRA,
        description=f"extra squares for a Quarterback starting its move on rows 1..field_rows (0 to {MAX_EXTRA})",
    )  # fmt: skip
    single_strength: int = Field(default=3, ge=1, le=9, description="blocking strength of a Single (1 to 9)")
    double_strength: int = Field(default=2, ge=1, le=9, description="blocking strength of a Double (1 to 9)")
    triple_strength: int = Field(default=1, ge=1, le=9, description="blocking strength of a Triple (1 to 9)")
    quarterback_strength: int = Field(default=1, ge=1, le=9, description="blocking strength of a Quarterback (1 to 9)")
    attack_actions: int = Field(
        default=2, ge=1, le=9, description="the attacker's turn: this many of (move a piece, pass the ball) (1 to 9)"
    )
    defense_moves: int = Field(
        default=2, ge=1, le=9, description="pieces the defender may move in a turn (1 to 9; ruling QB-R-DEFENSE-TURN)"
    )
    tackle_reading: Literal["groups", "pairs"] = Field(
        default="groups",
        description='who tackles whom by moving onto the carrier (ruling QB-R-TACKLE-PAIRS): "groups" - Triples and '
        'Doubles tackle each other, same kinds included, and so do Singles and Doubles; "pairs" - only a Triple and a '
        "Double, or a Single and a Double, tackle each other",
    )
    max_rounds: int = Field(
        default=15, ge=1, le=200,
        description="attacker+defender turns in a half before the whistle (1 to 200; ruling QB-R-WHISTLE)",
    )  # fmt: skip
    format: Literal["match", "game"] = Field(
        default="match", description="a full match of two games (four halves), or one game of two halves"
    )
    first_attacker: Literal["toss", "red", "blue"] = Field(
        default="toss", description="who attacks first: the coin toss (seeded), or a fixed seat"
    )
    win_points: int = Field(default=2, ge=0, le=99, description="game points for winning a game of a match (0 to 99)")
    draw_points: int = Field(default=1, ge=0, le=99, description="game points for drawing a game of a match (0 to 99)")
    attack: SideSetup = Field(default_factory=_default_attack, description="the attacking side's set-up")
    defense: SideSetup = Field(default_factory=_default_defense, description="the defending side's set-up")

    # ------------------------------------------------------------ geometry
    @property
    def min_row(self) -> int:
        return -self.back_rows

    @property
    def values(self) -> list[int]:
        """Points of each column, left to right."""
        return list(self.column_values) if self.column_values is not None else list(range(1, self.columns + 1))

    def on_board(self, square: tuple[int, int]) -> bool:
        return 0 <= square[0] < self.columns and -self.back_rows <= square[1] <= self.field_rows

    def strength(self, kind: str) -> int:
        return {
            "S": self.single_strength,
            "D": self.double_strength,
            "T": self.triple_strength,
            "Q": self.quarterback_strength,
        }[kind]

    # ------------------------------------------------------------ checks
    @model_validator(mode="after")
    def _consistent(self) -> QuarterbackRules:
        if self.column_values is not None and len(self.column_values) != self.columns:
            raise ValueError(f"column_values needs one value per column ({self.columns})")
        if not self.single_strength > self.double_strength > max(self.triple_strength, self.quarterback_strength):
            raise ValueError("strengths must keep the document's order: Single > Double > Triple and Quarterback")
        placed: dict[tuple[int, int], str] = {}
        kinds: dict[str, dict[tuple[int, int], str]] = {"attack": {}, "defense": {}}
        for side in ("attack", "defense"):
            setup: SideSetup = getattr(self, side)
            if len(setup.quarterback) > 1:
                raise ValueError(f"{side}.quarterback: a side has at most one Quarterback")
            for field, letter in SETUP_LISTS.items():
                squares = getattr(setup, field)
                if len(squares) > MAX_PER_KIND:
                    raise ValueError(f"{side}.{field}: at most {MAX_PER_KIND} pieces of a kind")
                for text in squares:
                    try:
                        sq = parse_square(text)
                    except ValueError as exc:
                        raise ValueError(f"{side}.{field}: {exc}") from None
                    if not self.on_board(sq):
                        raise ValueError(f"{side}.{field}: {text} is off the board")
                    if sq in placed:
                        raise ValueError(f"{side}.{field}: {square_name(sq)} is already taken by {placed[sq]}")
                    placed[sq] = f"{side}.{field}"
                    kinds[side][sq] = letter
        if len(self.attack.quarterback) != 1:
            raise ValueError("attack.quarterback: the attacking side needs exactly one Quarterback (it starts with the ball)")
        for side, opp in (("attack", "defense"), ("defense", "attack")):
            singles = [sq for sq, k in kinds[opp].items() if k == "S"]
            for sq, k in kinds[side].items():
                if k in "TQ" and any(max(abs(sq[0] - s[0]), abs(sq[1] - s[1])) == 1 for s in singles):
                    raise ValueError(
                        f"{side}: the {KIND_NAMES[k]} on {square_name(sq)} is next to an opposition Single (QB-ADJACENT)"
                    )
        released = any(k in "DQ" and sq[1] >= 1 for sq, k in kinds["attack"].items())
        for sq, k in kinds["defense"].items():
            if k in "TQ" and sq[1] < 1:
                raise ValueError(f"defense: the {KIND_NAMES[k]} on {square_name(sq)} is offside (QB-OFFSIDE-TRIPLE)")
            if k in "SD" and sq[1] > 1 and not released:
                raise ValueError(f"defense: the {KIND_NAMES[k]} on {square_name(sq)} is offside (QB-OFFSIDE-LINE)")
        return self
