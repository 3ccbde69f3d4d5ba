"""The validated ruleset: the document's numbers as defaults, TOML files, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from gm4_helpers import GAME, cells, new, opening, play

from gm.core.errors import RulesetError
from gm.games.gridmaster4.rules import GridMaster4Rules


@pytest.mark.rules("GM4-BOARD", "GM4-PLAYERS", "GM4-MOVE", "GM4-WIN-TILE")
def test_defaults_are_the_documents_numbers() -> None:
    r = GAME.default_rules()
    assert isinstance(r, GridMaster4Rules)
    assert (r.columns, r.rows, r.players, r.tiles, r.winning_tile) == (20, 20, 4, 100, 100)
    assert (r.orthogonal, r.diagonal) == (3, 2)
    assert (r.build_from, r.deactivate) == ("own", "any")


def test_a_toml_file_overrides_any_field(tmp_path: Path) -> None:
    f = tmp_path / "solo.toml"
    f.write_text('columns = 10\nrows = 10\nplayers = 1\northogonal = 2\ndiagonal = 1\nwinning_tile = 50\ndeactivate = "own"\n')
    r = GAME.load_rules_file(f)
    assert (r.columns, r.rows, r.players, r.winning_tile, r.deactivate) == (10, 10, 1, 50, "own")
    s = GAME.new_state(r, 0)
    assert s.order == ("orange",)
    opening(s, "E5")  # type: ignore[arg-type]
    assert cells(s, "orange") == ["E3", "D4", "F4", "C5", "G5", "D6", "F6", "E7"]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("colour = 'red'\n", "colour"),
        ("columns = 27\n", "columns"),
        ("rows = 0\n", "rows"),
        ("players = 5\n", "players"),
        ("winning_tile = 101\n", "winning_tile"),
        ("columns = 1\nrows = 3\n", "no room"),
        ("build_from = 'mine'\n", "build_from"),
        ("orthogonal = 'three'\n", "orthogonal"),
        ("columns = [\n", "not valid TOML"),
    ],
)
def test_a_bad_rules_file_is_one_clear_error(tmp_path: Path, text: str, field: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(RulesetError) as info:
        GAME.load_rules_file(f)
    assert field in info.value.reason and info.value.rule == "CORE-RULES"


def test_a_ruleset_round_trips_through_the_state_json() -> None:
    s = new(3, columns=12, rows=9, players=3, tiles=40, winning_tile=30, orthogonal=2, diagonal=1, build_from="any")
    opening(s, "A1", "L9", "F5")
    play(s, str(s.legal_actions("orange")[0]))
    again = type(s).from_json(s.to_json())
    assert again.rules == s.rules and again.snapshot() == s.snapshot()
