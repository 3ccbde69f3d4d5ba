"""Golden ASCII boards: the exact text of the window and the full board in chosen situations.

Regenerate after a deliberate change with ``GM_UPDATE_GOLDEN=1 pytest tests/grid_football/test_golden.py``
and read the diff before committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from gf_helpers import G, at_down, down, kick, to_kickoff

from gm.games.grid_football.engine import GridFootballState

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GM_UPDATE_GOLDEN") == "1"


def _kickoff() -> GridFootballState:
    return to_kickoff("home")


def _return_number() -> GridFootballState:
    s = to_kickoff("away")
    kick(s, "right red", "left yellow")
    return s


def _worked_example() -> GridFootballState:
    s = at_down("K20")
    down(s, "play 1 red 2 right before", "play 3 black")
    return s


def _blocked_window() -> GridFootballState:
    s = at_down("K30", blocked=["A30", "J31", "K36", "T45", "C26", "D24", "E50", "F10"])
    down(s, "play 1 black 2 left after", "play 2 red")  # K30 -> K35 (K36 blocked) -> I35
    return s


def _away_attacking_down() -> GridFootballState:
    s = at_down("K40", "away", blocked=["K33", "M29"])
    down(s, "play 3 black 2 right", "play 3 red")  # matched: -1 back, no lateral -> K41
    return s


def _and_goal() -> GridFootballState:
    s = at_down("K52", blocked=["J56", "L57"])
    down(s, "play 1 black", "play 2 red")  # K58, 1st & goal
    return s


def _switched_ends() -> GridFootballState:
    s = at_down("K30", quarter_downs=14, blocked=["C10", "T58", "K25"], down=2, to_gain=38)
    down(s, "play 2 black", "play 1 red")  # K34, then the quarter ends: mirrored to K30, attacking down
    return s


def _number_check() -> GridFootballState:
    s = at_down("K30", blocked=["K32"])
    down(s, "play 1 red after", "play 2 red")
    return s


def _game_over() -> GridFootballState:
    s = at_down("K55", blocked=["K40"])
    down(s, "play 1 red 3 right after", "play 2 black")  # touchdown at K61
    return s


SITUATIONS: dict[str, Callable[[], GridFootballState]] = {
    "kickoff": _kickoff,
    "return_number": _return_number,
    "worked_example": _worked_example,
    "blocked_window": _blocked_window,
    "away_attacking_down": _away_attacking_down,
    "and_goal": _and_goal,
    "switched_ends": _switched_ends,
    "number_check": _number_check,
    "game_over": _game_over,
}


def _text(s: GridFootballState, full: bool) -> str:
    return f"{G.status(s, 'home')}\n{G.render(s, 'home', full=full)}\n"


@pytest.mark.rules("GF-BOARD")
@pytest.mark.parametrize("full", [False, True], ids=["window", "full"])
@pytest.mark.parametrize("name", list(SITUATIONS))
def test_golden_board(name: str, full: bool) -> None:
    text = _text(SITUATIONS[name](), full)
    path = GOLDEN / f"{name}.{'full' if full else 'window'}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with GM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.rules("GF-BOARD", "GF-R-END-ZONE")
def test_the_full_board_shape() -> None:
    s = _worked_example()
    lines = G.render(s, full=True).splitlines()
    rows = [line for line in lines if line[:3].strip().isdigit()]
    assert [int(line[:3]) for line in rows] == list(range(64, 0, -1))
    assert lines[1].split() == [chr(c) for c in range(ord("A"), ord("T") + 1)]
    fills = {int(line[:3]): set(line[5:44].split()) for line in rows}
    assert fills[59] == fills[5] == {"="}
    assert all(fills[r] == {":"} for r in [*range(1, 5), *range(60, 65)])
    assert s.rules.field_rows == (6, 58)


@pytest.mark.rules("GF-BOARD", "GF-BLOCK")
def test_the_window_shows_every_blocked_square_in_its_rows_and_both_lines() -> None:
    for make in SITUATIONS.values():
        s = make()
        text = G.render(s)
        rows = {int(line[:3]): line for line in text.splitlines() if line[:3].strip().isdigit()}
        for col, row in s.blocked:
            if row in rows and s.ball != (col, row):
                assert rows[row][5 + 2 * col] == "#"
        if s.offense and s.outcome is None:
            assert s.los in rows
            first, last = s.rules.field_rows
            if first <= s.to_gain <= last:
                assert s.to_gain in rows and "line to gain" in rows[s.to_gain]
            d = "^" if s.direction(s.offense) > 0 else "v"
            assert f"{s.offense} attacking {d}" in text
