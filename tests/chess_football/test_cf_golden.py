"""Golden ASCII boards: the exact text of the window and the full field in chosen situations,
for a given seat.  Regenerate after a deliberate change with
``GM_UPDATE_GOLDEN=1 pytest tests/chess_football/test_cf_golden.py`` and read the diff."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from cf_helpers import G, defense_turn, field, new, reaction, snap, start

from gm.games.chess_football.engine import ChessFootballState

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GM_UPDATE_GOLDEN") == "1"


def _pregame() -> tuple[ChessFootballState, str]:
    s = new()
    s.apply("home", "captains deep_threat safety")
    return s, "away"


def _first_snap() -> tuple[ChessFootballState, str]:
    return start(), "home"


def _away_offense() -> tuple[ChessFootballState, str]:
    return start("away", away=("lineman", "nickelback"), home=("scrambler", "safety")), "away"


def _mid_down() -> tuple[ChessFootballState, str]:
    s = start()
    snap(s, "plan: DT to L15 C; HV1 push HV3; FA1 to F15 C", "plan: RU to I12 NE; FA3 to C13 NW")
    s.apply("home", "ST1 to J12 C")
    return s, "home"


def _pass_declared() -> tuple[ChessFootballState, str]:
    s = reaction(start(), FA2="N16 SE")
    s.apply("home", "QB pass to FA2")
    s.apply("home", "done")
    return s, "away"


def _play_action(seat: str) -> Callable[[], tuple[ChessFootballState, str]]:
    def build() -> tuple[ChessFootballState, str]:
        s = reaction(start())
        s.apply("home", "play action ST1 ball ST1")
        defense_turn(s)
        return s, seat

    return build


def _goal_to_go() -> tuple[ChessFootballState, str]:
    s = defense_turn(reaction(start(), FA1="C42"), FA3="C40")
    field(s).carrier = "FA1"
    s.apply("away", "FA3 to C42 C")
    return s, "away"


def _game_over() -> tuple[ChessFootballState, str]:
    s = start("home", rules={"downs": 1, "punt_downs": [1], "possessions_per_half": 1, "overtime_periods": 0})
    while not s.is_terminal:
        assert s.offense
        s.apply(s.offense, "punt")
    return s, "home"


SITUATIONS: dict[str, Callable[[], tuple[ChessFootballState, str]]] = {
    "pregame": _pregame,
    "first_snap": _first_snap,
    "away_offense": _away_offense,
    "mid_down": _mid_down,
    "pass_declared": _pass_declared,
    "play_action_offense": _play_action("home"),
    "play_action_defense": _play_action("away"),
    "goal_to_go": _goal_to_go,
    "game_over": _game_over,
}


def _text(s: ChessFootballState, seat: str, full: bool) -> str:
    return f"{G.status(s, seat)}\n{G.render(s, seat, full=full)}\n"


@pytest.mark.rules("CF-BOARD", "CF-POSITIONS", "CF-END-ZONES", "CF-LOS", "CF-FIRST-DOWN")
@pytest.mark.parametrize("full", [False, True], ids=["window", "full"])
@pytest.mark.parametrize("name", list(SITUATIONS))
def test_golden_board(name: str, full: bool) -> None:
    s, seat = SITUATIONS[name]()
    text = _text(s, seat, full)
    path = GOLDEN / f"{name}.{'full' if full else 'window'}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with GM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.rules("CF-PLAY-ACTION")
def test_the_defenses_board_hides_the_ball_under_play_action() -> None:
    off = (GOLDEN / "play_action_offense.window.txt").read_text(encoding="utf-8")
    de = (GOLDEN / "play_action_defense.window.txt").read_text(encoding="utf-8")
    assert "ST1@" in off and "QB " in off
    assert "ST1?" in de and "QB?" in de and "@" not in de.split("UPPER offense")[0]


@pytest.mark.rules("CF-POSITIONS", "CF-TEAM")
def test_the_board_explains_its_codes() -> None:
    """Issue #17: under the board a legend says what the piece codes (the captains on the field among them)
    and the position codes mean."""
    lines = G.render(start(), "home").splitlines()
    assert lines[-2] == ("UPPER offense, lower defense; @ ball, ? maybe the ball (hidden), + more pieces on the square; "
                         ". field  : end zone  - line of scrimmage  = first-down line")
    assert lines[-1] == ("pieces: HV Heavy, ST Strong, FA Fast, QB, DT Deep Threat, RU Rusher; positions in a square: "
                         "C centre, NW NE SW SE its corners (north is up the board)")
    assert G.render(new(), "home").splitlines()[-1].startswith("pieces: HV Heavy, ST Strong, FA Fast, QB; positions")
