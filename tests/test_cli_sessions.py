"""``gm sessions``: list, show and delete saved games; reading writes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session

runner = CliRunner()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three saved games: Grid Football against the bot with the bot's kick pick locked (saved 90
    s ago), a GridMaster4 game of four humans (3 hours ago) and an unreadable file (5 days ago)."""
    home = tmp_path / "home"
    monkeypatch.setenv("GM_HOME", str(home))
    live = Session.create("grid-football", seed=3, players={"away": "bot:default"}, id="gf-live")
    assert live.commitments().get("away")  # (seed 3: the toss is said as the match opens; the bot kicks)
    Session.create("gridmaster4", seed=2, id="gm4-hot")
    (home / "sessions" / "broken.jsonl").write_text('{"format": "gm-session", "version": 2}\n')
    (home / "sessions" / "broken.jsonl").chmod(0o600)  # (owner-only, as gm makes them: else it is refused for that)
    now = time.time()
    for sid, ago in (("gf-live", 90), ("gm4-hot", 3 * 3600), ("broken", 5 * 86400)):
        for folder in ("sessions", "transcripts"):
            path = home / folder / f"{sid}.jsonl"
            if path.exists():
                os.utime(path, (now - ago, now - ago))
    return home


def snapshot(home: Path) -> dict[str, tuple[str, int]]:
    """Every file under ``home``: its content hash and modification time."""
    return {str(p.relative_to(home)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
            for p in sorted(home.rglob("*")) if p.is_file()}  # fmt: skip


def gm(*args: str, input: str | None = None) -> tuple[int, str, str]:
    res = runner.invoke(app, list(args), input=input)
    return res.exit_code, res.stdout, res.stderr


def test_list_shows_game_players_moves_age_last_move_and_status(home: Path) -> None:
    before = snapshot(home)
    code, out, err = gm("sessions")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[:7] == [
        "gf-live  grid-football  home human, away bot:default  3 moves  1 min ago",
        "    last move: away: locked",  # the bot's kick pick, not yet revealed: never shown
        "    Q1 | 15 downs left | kickoff | home 0 - 0 away | to act: home",
        "gm4-hot  gridmaster4  orange human, magenta human, lime human, aqua human  0 moves  3 hours ago",
        "    last move: none yet",
        "    move 0 | first tiles | orange to place 1 | scores: orange 0, magenta 0, lime 0, aqua 0",
        "broken  5 days ago",
    ]
    assert lines[7].startswith("    unreadable: [CORE-SESSION] ")
    assert lines[8:] == ["3 saved games. Continue one with: gm play --resume ID"]
    code, out, _ = gm("sessions", "--limit", "1")
    assert out.splitlines()[-1] == "1 saved game (the newest 1 of 3; --limit 0 lists all). Continue one with: gm play --resume ID"
    code, out, _ = gm("sessions", "--game", "gf", "--json")
    (row,) = json.loads(out)["sessions"]
    assert {k: row[k] for k in ("id", "game", "moves", "last_move", "over", "age")} == {
        "id": "gf-live", "game": "grid-football", "moves": 3, "last_move": "away: locked", "over": False, "age": "1 min ago"}  # fmt: skip
    gm("sessions", "show", "gf-l")
    gm("sessions", "show", "gm4")
    assert snapshot(home) == before, "listing and showing saved games wrote nothing"


def test_an_empty_home_says_how_to_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path / "empty"))
    code, out, _ = gm("sessions")
    assert code == 0 and out == f"No saved games in {tmp_path / 'empty' / 'sessions'}. Start one with: gm play\n"
    assert not (tmp_path / "empty").exists()


def test_show_a_saved_game(home: Path) -> None:
    code, out, _ = gm("sessions", "show", "gf-l", "--moves", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("gf-live: Turn-Based Grid Football (grid-football), 3 moves, created ")
    assert lines[1:7] == [
        "players: home human, away bot:default",
        "seed: 3 (a practice game)",
        f"file: {home / 'sessions' / 'gf-live.jsonl'}",
        "last 2 moves:",
        "     2. away: kick",
        "     3. away: locked",
    ]
    assert lines[7] == "kickoff: away kicks from row 59 toward row 5"
    assert lines[-2:] == ["Q1 | 15 downs left | kickoff | home 0 - 0 away | to act: home", "Continue with: gm play --resume gf-live"]


def test_delete_asks_and_removes_the_game_and_its_transcript(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gm.cli.session_cmds.can_ask", lambda: True)
    code, out, _ = gm("sessions", "delete", "gf-live", input="n\n")
    assert code == 1 and out.endswith("Delete gf-live (grid-football, saved 1 min ago)? [y/N]: n\nNothing deleted.\n")
    assert (home / "sessions" / "gf-live.jsonl").exists()
    code, out, _ = gm("sessions", "delete", "gf-live", "gm4", "--yes")
    assert code == 0 and out == "deleted gf-live (grid-football, saved 1 min ago)\ndeleted gm4-hot (gridmaster4, saved 3 hours ago)\n"
    assert not (home / "sessions" / "gf-live.jsonl").exists() and not (home / "transcripts" / "gf-live.jsonl").exists()
    code, _, err = gm("play", "--resume", "gf-live")
    assert code == 2 and "no session 'gf-live'" in err
