"""`gm play`: whole games driven through the terminal interface with scripted input."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session
from gm.transcript import Transcript

# One line of each kind, cycled: whatever the game asks for, one of them fits soon.
CYCLE = [
    "heads",
    "receive",
    "left red",
    "4",
    "play 1 red 2 right before",
    "center green",
    "play 2 black",
    "9",
    "punt",
    "play 3 red 1 left after",
    "play 4 black 1 right",
    "kick",
]


def script(lines: int = 1500) -> str:
    return "\n".join(itertools.islice(itertools.cycle(CYCLE), lines)) + "\n"


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def _session_id(output: str) -> str:
    m = re.search(r"Session (\S+)\.", output)
    assert m, output[:500]
    return m.group(1)


@pytest.mark.parametrize("seed", [1, 7])
def test_a_whole_game_against_the_bot(seed: int, gm_home: Path) -> None:
    res = CliRunner().invoke(app, ["play", "--seed", str(seed)], input=script())
    assert res.exit_code == 0, res.output
    assert "Game over:" in res.output
    sid = _session_id(res.output)
    session = Session.open(sid)
    assert session.state.is_terminal
    assert session.players == {"home": "human", "away": "bot:default"}
    # the recorded transcript holds every typed line, call, result and narration
    tr = Transcript.load(gm_home / "transcripts" / f"{sid}.jsonl")
    kinds = {e.type for e in tr.entries}
    assert {"player", "tool_call", "tool_result", "narration", "board"} <= kinds
    assert tr.header.seed == seed and tr.header.referee.kind == "offline"
    accepted = [e for e in tr.entries if e.type == "tool_result" and e.result.get("ok") and e.result.get("kind") == "action"]
    humans = [m for m in session.state.log if m.seat == "home"]
    assert len(accepted) == len(humans)


def test_hot_seat_game_never_echoes_a_secret_pick(gm_home: Path) -> None:
    res = CliRunner().invoke(app, ["play", "--seed", "4", "--opponent", "human"], input=script())
    assert res.exit_code == 0, res.output
    assert "Game over:" in res.output
    session = Session.open(_session_id(res.output))
    assert session.players == {"home": "human", "away": "human"}
    # in a simultaneous round the first player's line is shown as (hidden), never echoed
    for block in res.output.split("(play call)> ")[1:]:
        first = block.splitlines()[0]
        assert first == "(hidden)" or not first.startswith("play"), first
    assert "is locked in. Pass the keyboard." in res.output


def test_input_ending_mid_game_saves_and_resumes(gm_home: Path) -> None:
    runner = CliRunner()
    first = runner.invoke(app, ["play", "--seed", "2"], input="heads\nkick\nreceive\n")
    assert first.exit_code == 0, first.output
    assert "Game paused (input ended)" in first.output
    sid = _session_id(first.output)
    moves = len(Session.open(sid).state.log)
    second = runner.invoke(app, ["play", "--resume", sid], input=script())
    assert second.exit_code == 0, second.output
    assert "Game over:" in second.output
    assert len(Session.open(sid).state.log) > moves
    # the transcript continues in the same file
    tr = Transcript.load(gm_home / "transcripts" / f"{sid}.jsonl")
    assert sum(1 for e in tr.entries if e.type == "player") > 3


def test_quit_and_bad_arguments_are_one_line(gm_home: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["play", "--seed", "1"], input="quit\n")
    assert res.exit_code == 0 and "Game saved. Goodbye!" in res.output
    for args in (["play", "nosuchgame"], ["play", "--resume", "nope"], ["play", "--opponent", "bot:nobody"], ["play", "--seat", "left"]):
        bad = runner.invoke(app, args)
        assert bad.exit_code != 0
        assert "Traceback" not in bad.output
        assert len([ln for ln in bad.output.splitlines() if ln.strip()]) == 1, bad.output


def test_rules_file_reaches_the_game(gm_home: Path, tmp_path: Path) -> None:
    rules = tmp_path / "r.toml"
    rules.write_text("kick_distance = 50\n")
    res = CliRunner().invoke(app, ["play", "--seed", "1", "--rules", str(rules)], input="quit\n")
    assert res.exit_code == 0, res.output
    session = Session.open(_session_id(res.output))
    assert session.state.rules.kick_distance == 50
    broken = tmp_path / "bad.toml"
    broken.write_text("kick_distance = 'far'\n")
    bad = CliRunner().invoke(app, ["play", "--rules", str(broken)])
    assert bad.exit_code != 0 and "kick_distance" in bad.output and "Traceback" not in bad.output


def test_transcript_lines_are_valid_json(gm_home: Path) -> None:
    res = CliRunner().invoke(app, ["play", "--seed", "3"], input="board\nscore\nquit\n")
    sid = _session_id(res.output)
    for line in (gm_home / "transcripts" / f"{sid}.jsonl").read_text().splitlines():
        json.loads(line)


def test_hot_seat_shows_each_round_once_both_have_picked(gm_home: Path) -> None:
    lines = "heads\nkick\nleft red\nright green\n1\n2\nplay 1 red\nplay 2 black\nquit\n"
    res = CliRunner().invoke(app, ["play", "--seed", "1", "--opponent", "human"], input=lines)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Kick picks: away right green, home left red - 0 match(es)" in out
    assert "Numbers:" in out
    assert "home: play 1 red / away: play 2 black" in out
    assert out.count("is locked in. Pass the keyboard.") == 3  # only the first pick of each round
