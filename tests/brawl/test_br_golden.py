"""Golden ASCII boards: the exact text of the full grid and the compact form in chosen situations.

Regenerate after a deliberate change with ``GM_UPDATE_GOLDEN=1 pytest tests/brawl/test_br_golden.py``
and read the diff before committing it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from br_helpers import G, deal, new, placement, series

from gm.core.chance import MT19937
from gm.games.brawl.bots import RandomBot
from gm.games.brawl.engine import BrawlState

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("GM_UPDATE_GOLDEN") == "1"


def _kickoff() -> BrawlState:
    return new(seed=1)


def _locked_mid_series() -> BrawlState:
    """Two random plays revealed (Agility unrolled), then home locks its third."""
    st = new(seed=2)
    bots = {"home": RandomBot(11), "away": RandomBot(12)}
    for _ in range(2):
        for seat in ("home", "away"):
            st.apply(seat, bots[seat].choose(st, seat))
    st.apply("home", bots["home"].choose(st, "home"))
    return st


def _fourth_down() -> BrawlState:
    """A scored series 9 yards short: SM and BL won, MM tied (so MR is cut off), DL and BR lost."""
    st = new(seed=3)
    st.los = 40
    first = (
        {"QB": "F2@DL", "RB": "S1@SM", "TE": "S1@MM", "WR1": "F2@MR", "OT1": "S2@BL"},
        {"CB1": "F3@DL", "MLB": "S1@SM", "OLB1": "S1@MM", "DT1": "S1@MR", "DE1": "S1@BL", "DE2": "S3@BR"},
    )
    second = (
        {"QB": "S1@DL", "RB": "S1@SM", "TE": "S1@MM", "WR1": "A1-4@MR", "OT1": "S2@BL"},
        {"CB1": "F3@DL", "MLB": "S1@SM", "OLB1": "S1@MM", "DT1": "S1@MR", "DE1": "S1@BL", "DE2": "S3@BR"},
    )
    series(st, first, second, first)
    assert st.phase == "fourth_down"
    return st


def _going_for_it() -> BrawlState:
    """The offense went for it and has locked its 4th-down cards."""
    st = _fourth_down()
    st.apply("home", "go for it")
    text = placement(st, "home", {"QB": "F1@DL"})
    deal(st, "home", {e.split(":")[0]: [e.split(":")[1].split("@")[0]] for e in text.split()})
    st.apply("home", text)
    return st


def _final() -> BrawlState:
    st = G.new_state({"rounds": 3}, 5, MT19937)
    assert isinstance(st, BrawlState)
    bots = {"home": G.make_bot("default", seed=1), "away": RandomBot(2)}
    while not st.is_terminal:
        for seat in st.to_act():
            st.apply(seat, bots[seat].choose(st, seat))
    return st


CASES: dict[str, tuple[Callable[[], BrawlState], str | None]] = {
    "kickoff_home": (_kickoff, "home"),
    "locked_away": (_locked_mid_series, "away"),
    "locked_home": (_locked_mid_series, "home"),
    "fourth_down_home": (_fourth_down, "home"),
    "going_for_it_away": (_going_for_it, "away"),
    "final_spectator": (_final, None),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("full", [True, False], ids=["full", "compact"])
def test_golden_board(name: str, full: bool) -> None:
    make, seat = CASES[name]
    text = G.render(make(), seat, full=full) + "\n"
    path = GOLDEN / f"{name}_{'full' if full else 'compact'}.txt"
    if UPDATE:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path.name}; run with GM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_the_boards_explain_their_codes() -> None:
    """Issue #17: the compact board's zone entries (``DL 4 v 4-8 ?``) have a key line, the lead before the
    series is scored and the results after; the full board's legend states the ruleset's factors."""
    st = new(seed=1)
    lines = G.render(st, "home").splitlines()
    assert lines[1].startswith("zones (offense v defense, then who leads): DL - | DM - |")
    assert lines[2] == (
        "key: DL 4 v 4-8 ? = zone (region D/M/S/B + column L/M/R), offense v defense total (lo-hi until Agility is "
        "rolled), then who leads: O, D, = (tied) or ? (the rolls decide)"
    )
    scored = CASES["fourth_down_home"][0]()
    assert G.render(scored, "home").splitlines()[2].endswith(
        "then the result: won/comp +margin, cut +margin (led, not connected), INT, FUM, lost, tie"
    )
    full = G.render(G.new_state({"strong_factor": 3, "weak_divisor": 4}, 1, MT19937), "home", full=True).splitlines()
    assert full[-1].startswith("O offense, D defense; ^ strong (x3), v weak (/4 down); A1-4=n Agility rolled to n;")
