"""`gm play gridmaster4`: whole games of four seats through the terminal, with scripted input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session
from gm.transcript import Transcript
from gm.transcript.replay import replay

SEATS = ("orange", "magenta", "lime", "aqua")
#: the ways people name a cell, cycled over every cell of a 7x7 board: whatever the position,
#: a legal one comes up within a board's worth of lines
FORMS = ("{c}", "place at {c}", "tile on {l}", "put it on {c}", "I'll place my tile on {c}", "{r} {col}", "row {r} column {col}",
         "how about {l}?")  # fmt: skip
CELLS = [f"{col}{row}" for row in range(1, 8) for col in "ABCDEFG"]


def script(rounds: int = 30) -> str:
    lines = [FORMS[i % len(FORMS)].format(c=c, l=c.lower(), r=c[1:], col=c[0]) for i, c in enumerate(CELLS * rounds)]
    return "\n".join(lines) + "\n"


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


@pytest.fixture
def small(tmp_path: Path) -> Path:
    rules = tmp_path / "small.toml"
    rules.write_text("columns = 7\nrows = 7\n")
    return rules


def _session_id(output: str) -> str:
    m = re.search(r"Session (\S+)\.", output)
    assert m, output[:500]
    return m.group(1)


def _accepted(tr: Transcript) -> int:
    return sum(1 for e in tr.entries if e.type == "tool_result" and e.result.get("ok") and e.result.get("kind") == "action")


@pytest.mark.parametrize("seed", [1, 7])
def test_a_whole_game_against_three_bots(seed: int, gm_home: Path, small: Path) -> None:
    res = CliRunner().invoke(app, ["play", "gridmaster4", "--seed", str(seed), "--rules", str(small)], input=script())
    assert res.exit_code == 0, res.output
    assert "you play orange (magenta = bot:default, lime = bot:default, aqua = bot:default)" in res.output
    assert "Game over:" in res.output and "Traceback" not in res.output
    sid = _session_id(res.output)
    session = Session.open(sid)
    assert session.state.is_terminal
    assert session.players == {"orange": "human", "magenta": "bot:default", "lime": "bot:default", "aqua": "bot:default"}
    tr = Transcript.load(gm_home / "transcripts" / f"{sid}.jsonl")
    assert {"player", "tool_call", "tool_result", "narration", "board"} <= {e.type for e in tr.entries}
    assert _accepted(tr) == sum(1 for m in session.state.log if m.seat == "orange")
    assert {e.seat for e in tr.entries if e.type == "bot_move"} == {"magenta", "lime", "aqua"}
    assert replay(tr).ok  # the recording replays at the tool and the referee level


def test_a_table_of_four_humans(gm_home: Path, tmp_path: Path) -> None:
    tiny = tmp_path / "tiny.toml"
    tiny.write_text("columns = 5\nrows = 5\n")
    cells = [f"{col}{row}" for row in range(1, 6) for col in "ABCDE"]
    lines = "\n".join(FORMS[i % len(FORMS)].format(c=c, l=c.lower(), r=c[1:], col=c[0]) for i, c in enumerate(cells * 20))
    res = CliRunner().invoke(app, ["play", "gm4", "--seed", "3", "--opponent", "human", "--rules", str(tiny)], input=lines)
    assert res.exit_code == 0, res.output
    assert "Game over:" in res.output
    session = Session.open(_session_id(res.output))
    assert session.players == dict.fromkeys(SEATS, "human")
    assert {m.seat for m in session.state.log} == set(SEATS)
    # every seat is prompted by name; nothing is secret in GridMaster4, so nothing is hidden
    for seat in SEATS:
        assert f"{seat} (place tile)> " in res.output
    assert "(hidden)" not in res.output and "Pass the keyboard" not in res.output


def test_the_default_board_help_rejections_and_a_resume(gm_home: Path) -> None:
    runner = CliRunner()
    lines = "help\nK10\nwhat can I do?\npass\nplace 2 at K11\nK13\nboard\nquit\n"
    first = runner.invoke(app, ["play", "gridmaster4", "--seed", "1", "--seat", "lime"], input=lines)
    assert first.exit_code == 0, first.output
    out = first.output
    assert "you play lime (orange = bot:default, magenta = bot:default, aqua = bot:default)" in out
    assert "'place 37 at K12'" in out and "Play 1, Red" not in out  # the game's own examples
    assert "I couldn't read 'pass' as a move: there is no passing" in out
    assert "lime places 1 at K10" in out
    assert "Game paused (quit)" in out
    sid = _session_id(out)
    moves = len(Session.open(sid).state.log)
    second = runner.invoke(app, ["play", "--resume", sid], input="score\nquit\n")
    assert second.exit_code == 0 and "scores: orange" in second.output
    assert len(Session.open(sid).state.log) == moves
