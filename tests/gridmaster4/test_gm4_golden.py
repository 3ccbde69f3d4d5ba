"""Golden ASCII boards: the exact text of the compact and the full board in chosen situations.

Regenerate after a deliberate change with
``GM_UPDATE_GOLDEN=1 pytest tests/gridmaster4/test_gm4_golden.py`` and read the diff before
committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from gm4_helpers import GAME, new, opening, play

from gm.games.gridmaster4.bots import play_out
from gm.games.gridmaster4.engine import GridMaster4State

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GM_UPDATE_GOLDEN") == "1"


def _start() -> GridMaster4State:
    return new()


def _first_moves() -> GridMaster4State:
    s = new()
    opening(s, "K10", "N13", "C3", "R18")
    play(s, "K13")  # deactivates K10 and magenta's N13: magenta is blocked, free placements follow
    return s


def _free_round() -> GridMaster4State:
    s = new()
    opening(s, "A4", "D1", "A1", "C3")
    play(s, "place 2 at A7", "place 2 at G1")  # lime blocked; aqua, orange, magenta place freely
    play(s, "place 2 at K10")
    return s


def _midgame() -> GridMaster4State:
    s = new(7)
    bots = {seat: GAME.make_bot("default" if seat == "aqua" else "random", seed=i) for i, seat in enumerate(GAME.seats)}
    for _ in range(90):
        (seat,) = s.to_act()
        s.apply(seat, bots[seat].choose(s, seat))
    return s


def _final() -> GridMaster4State:
    s = new(3)
    bots = {seat: GAME.make_bot("random", seed=30 + i) for i, seat in enumerate(GAME.seats)}
    play_out(s, bots)
    return s


def _small_custom() -> GridMaster4State:
    s = new(0, columns=8, rows=6, players=3, orthogonal=2, diagonal=1, tiles=30, winning_tile=30)
    opening(s, "B2", "G5", "D6")
    play(s, "B4", "E5", "D4")
    return s


CASES: dict[str, tuple[Callable[[], GridMaster4State], str | None]] = {
    "start": (_start, "orange"),
    "first_moves": (_first_moves, None),
    "free_round": (_free_round, "orange"),
    "midgame": (_midgame, "lime"),
    "final": (_final, None),
    "small_custom": (_small_custom, "orange"),
}


@pytest.mark.rules("GM4-R-INACTIVE-SHOW")
@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("form", ["compact", "full"])
def test_golden_board(name: str, form: str) -> None:
    make, seat = CASES[name]
    s = make()
    text = GAME.render(s, seat, full=form == "full") + "\n" + GAME.status(s, seat) + "\n"
    path = GOLDEN / f"{name}.{form}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with GM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_full_board_lines_line_up() -> None:
    s = _midgame()
    lines = GAME.render(s, "orange", full=True).splitlines()[1:22]
    assert len({len(line) for line in lines[1:]}) == 1  # every row the same width
    assert lines[0].split() == [chr(ord("A") + i) for i in range(20)]
