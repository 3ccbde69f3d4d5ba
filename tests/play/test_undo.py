"""Undo: only a locked pick nobody has seen can be taken back, and it survives reopening."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session


def _hot_seat_at_first_play(tmp_path: Path) -> Session:
    s = Session.create("grid-football", seed=1, home=tmp_path)
    for seat, tool, args in [
        ("away", "call_coin_toss", {"call": "heads"}),
        ("away", "choose_kick_or_receive", {"choice": "kick"}),
        ("home", "pick_kick", {"position": "left", "colour": "red"}),
        ("away", "pick_kick", {"position": "right", "colour": "green"}),
    ]:
        assert s.call(tool, args, seat)["ok"]
    while s.state.decision("home") == "number_pick":
        s.call("pick_number", {"number": 1}, "home")
        s.call("pick_number", {"number": 2}, "away")
    assert s.state.decision("home") == "play_call"
    return s


def test_a_locked_unseen_pick_can_be_taken_back_and_the_file_agrees(tmp_path: Path) -> None:
    s = _hot_seat_at_first_play(tmp_path)
    before = s.state.snapshot()
    assert s.call("call_play", {"play": 1, "colour": "red"}, "home")["ok"]
    assert s.can_retract("home") is None
    assert s.retract("home") == "Taken back: play 1 red. home, choose again."
    assert s.state.snapshot() == before
    assert s.state.to_act() == ("home", "away")
    reopened = Session.open(s.path)  # type: ignore[arg-type]
    assert reopened.state.snapshot() == before
    assert s.call("call_play", {"play": 2, "colour": "black"}, "home")["ok"]
    assert Session.open(s.path).state.snapshot() == s.state.snapshot()  # type: ignore[arg-type]


@pytest.mark.parametrize("what", ["revealed", "sequential", "not last", "bot"])
def test_nothing_seen_can_be_taken_back(tmp_path: Path, what: str) -> None:
    if what == "bot":
        s = Session.create("grid-football", seed=1, home=tmp_path, players={"away": "bot:random"})
        why = s.can_retract("away")
        assert why is not None and "not a human seat" in why
        return
    s = _hot_seat_at_first_play(tmp_path)
    if what == "revealed":
        s.call("call_play", {"play": 1, "colour": "red"}, "home")
        s.call("call_play", {"play": 2, "colour": "black"}, "away")  # the round is revealed
        seat = "away"
    elif what == "sequential":
        s = Session.create("grid-football", seed=1, home=tmp_path / "x")
        s.call("call_coin_toss", {"call": "heads"}, "away")  # the coin has been flipped and seen
        seat = "away"
    else:
        s.call("call_play", {"play": 1, "colour": "red"}, "home")
        seat = "away"
    snap = s.state.snapshot()
    msg = s.retract(seat)
    assert msg.startswith("Cannot undo:")
    assert s.state.snapshot() == snap


def test_undo_in_the_terminal_hot_seat_never_shows_or_cancels_the_other_seats_pick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Home locks a hidden pick and the keyboard passes; away's 'undo' is refused without naming
    home's pick, and home's pick stands (it is revealed with away's)."""
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    lines = "heads\nkick\nleft red\nright green\n1\n2\nplay 1 red\nundo\nplay 2 black\nquit\n"
    res = CliRunner().invoke(app, ["play", "--seed", "1", "--opponent", "human"], input=lines)
    assert res.exit_code == 0, res.output
    out = res.output
    locked = out.index("home is locked in. Pass the keyboard.")
    refused = out.index("Cannot undo: away has no locked pick to take back.")
    reveal = out.index("home: play 1 red")
    assert locked < refused < reveal
    assert "play 1 red" not in out[locked:reveal] and "Taken back" not in out
    assert "home: play 1 red / away: play 2 black" in out
