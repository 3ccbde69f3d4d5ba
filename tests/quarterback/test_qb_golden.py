"""Golden ASCII boards: the exact text of the compact and the full board in chosen situations.

Regenerate after a deliberate change with ``GM_UPDATE_GOLDEN=1 pytest tests/quarterback/test_qb_golden.py``
and read the diff before committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from qb_helpers import G, game, side

from gm.games.quarterback.engine import QuarterbackState

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GM_UPDATE_GOLDEN") == "1"


def _opening() -> QuarterbackState:
    s = G.new_state({"first_attacker": "red"})
    assert isinstance(s, QuarterbackState)
    return s


def _loose_ball() -> QuarterbackState:
    s = _opening()
    s.apply("red", "move T2 I0-I3")
    s.apply("red", "move QB E-2-F-2")  # the ball is still on the Quarterback
    s.apply("red", "end")
    s.apply("blue", "move T2 H4-H5")
    s.apply("blue", "end")
    s.apply("red", "pass to H0")  # a diagonal to an empty square: the ball lies loose
    return s


def _triple_carrier_released() -> QuarterbackState:
    s = _opening()
    s.apply("red", "move D2 G0-H0-H1")  # over the line: the defense is released
    s.apply("red", "end")
    s.apply("blue", "move D2 G1-G3")
    s.apply("blue", "end")
    s.apply("red", "move QB E-2-G-2-H-1")
    s.apply("red", "pass to I0")  # to T2: the turn is complete
    return s


def _second_half() -> QuarterbackState:
    s = game(side("E-2", d=("E2",)), side(t=("E5",)))
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    s.apply("blue", "move T1 E5-E2")  # tackled on E2: 7 points, blue attacks now
    return s


def _final() -> QuarterbackState:
    s = game(side("E-2", d=("E2",)), side(t=("E5",)), max_rounds=1)
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    s.apply("blue", "move T1 E5-E2")
    s.apply("blue", "move QB E-2-E1")
    s.apply("blue", "end")
    s.apply("red", "end")  # the whistle: blue's Quarterback held on E1, 6 points
    assert s.is_terminal
    return s


SITUATIONS: dict[str, Callable[[], QuarterbackState]] = {
    "opening": _opening,
    "loose_ball": _loose_ball,
    "triple_carrier_released": _triple_carrier_released,
    "second_half": _second_half,
    "final": _final,
}


@pytest.mark.parametrize("name", sorted(SITUATIONS))
@pytest.mark.parametrize("form", ["compact", "full"])
def test_golden_board(name: str, form: str) -> None:
    s = SITUATIONS[name]()
    seat = s.attacker if form == "compact" and not s.is_terminal else None
    text = G.render(s, seat, full=form == "full") + "\n" + G.status(s, seat) + "\n"
    path = GOLDEN / f"{name}.{form}.txt"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}: run with GM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_board_marks_what_the_issue_asks_for() -> None:
    s = _loose_ball()
    full = G.render(s, full=True)
    assert "line of scrimmage" in full and "QB " in full and "t2" in full and " o  " in full
    compact = G.render(s, "red")
    assert "o " in compact and "Q " in compact and "s " in compact and "=" in compact
    s = _triple_carrier_released()
    assert "T2*" in G.render(s, full=True) and "T*" in G.render(s)
