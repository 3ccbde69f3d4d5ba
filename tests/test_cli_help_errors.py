"""The command line as a well-made tool: every command's help reads cleanly, every wrong argument
gets one error line saying what would be right (never a traceback), and a reader that stops
reading (``| head -1``) is not an error."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session

runner = CliRunner()


@pytest.fixture(autouse=True)
def _gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _commands() -> Iterator[tuple[list[str], Any]]:
    """Every command path (``[]`` the root, ``["sessions", "show"]``) with its click command."""
    root = typer.main.get_command(app)
    todo: list[tuple[list[str], Any]] = [([], root)]
    while todo:
        path, cmd = todo.pop(0)
        yield path, cmd
        for name, sub in getattr(cmd, "commands", {}).items():
            todo.append(([*path, name], sub))


COMMANDS = [path for path, _ in _commands()]


def test_every_command_is_covered() -> None:
    names = {" ".join(p) for p in COMMANDS}
    assert {"", "games", "new", "tools", "call", "show", "sim", "balance", "export", "import", "mcp", "play", "replay", "record",
            "sessions", "sessions show", "sessions delete", "sessions repair", "serve", "admin", "admin games", "admin end",
            "admin repair", "admin new-key", "eval"} == names  # fmt: skip


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "gm")
def test_help_reads_cleanly(path: list[str]) -> None:
    res = runner.invoke(app, [*path, "--help"], terminal_width=80)
    assert res.exit_code == 0, res.output
    out = res.stdout
    # no type tags after flags or values (typer's <bool>, <str>, <int range>; older typers' BOOLEAN, TEXT)
    assert not re.search(r"<(bool|str|int|path|list|float)[^>]*>|\bBOOLEAN\b|\bTEXT\b|\bINTEGER\b|\{\w+\}", out), out
    lines = out.splitlines()
    assert lines[0].startswith(f"Usage: gm {' '.join(path)}".rstrip() + " "), lines[0]
    for line in lines:
        assert len(line) <= 80, line
        # a default, a range or [required] never stands on a line of its own
        assert not re.match(r"^\s*\[(default|required|x|\d)", line), (line, out)
    # a flag takes no value: its help line names the flag and says what it does, nothing between
    _, cmd = next(c for c in _commands() if c[0] == path)
    for param in [*cmd.params, cmd.get_help_option(typer.Context(cmd))]:
        if param is not None and getattr(param, "is_flag", False):
            opts = ", ".join(sorted(param.opts, key=len))
            row = next(line for line in lines if line.strip().startswith(opts))
            assert re.match(rf"^\s+{re.escape(opts)}\s{{2,}}[A-Za-z(]", row), row


def test_the_command_list_is_whole_sentences() -> None:
    out = runner.invoke(app, ["--help"], terminal_width=80).stdout
    listed = out.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == [p[0] for p in COMMANDS if len(p) == 1]
    for line in listed:
        assert line.endswith(".") and not line.endswith("..."), line
    assert "  play      Play a game in the terminal against the bot, or hot seat." in listed
    assert "  sessions  List, show or delete saved games." in listed


def test_play_help_exact_options() -> None:
    out = runner.invoke(app, ["play", "--help"], terminal_width=80).stdout
    assert out.startswith("Usage: gm play [OPTIONS] [GAME]\n\n  Play a game in the terminal against the bot, or hot seat.\n")
    assert "  --seed N               a practice game with this seed: reproducible, but the\n" in out
    assert "  -o, --opponent PLAYER  bot (the default: the game's default bot),\n" in out
    assert "  --help                 Show this message and exit.\n" in out
    bare = runner.invoke(app, [])
    assert bare.exit_code == 0 and bare.stdout.startswith("Usage: gm [OPTIONS] COMMAND [ARGS]...")


# ------------------------------------------------------------------ errors
BAD = {
    "games x": "Got unexpected extra argument(s) (x) (see 'gm games --help')",
    "new": "Missing argument 'GAME'. (see 'gm new --help')",
    "new gf --seed x": "Invalid value for '--seed': ",
    "new gf --seed -1": "Invalid value for '--seed': ",
    "new gf --sede 3": "No such option: --sede (Possible options: --seed) (see 'gm new --help')",
    "new gf --player bad": "--player takes SEAT=human|bot[:STRATEGY], not 'bad'",
    "new gf --player left=human": "[CORE-SEAT] 'left': grid-football has no such seat; choose from: home, away",
    "new gf --player away=bot:nosuch": "[CORE-BOT] 'bot:nosuch': unknown bot strategy for grid-football; "
    "choose from: bot:adaptive, bot:always, bot:constant, bot:default, bot:random",
    "new gf --rules {tmp}/missing.toml": "[CORE-RULES] rules file not found: {tmp}/missing.toml",
    "new gf --rules {tmp}/syntax.toml": "[CORE-RULES] rules file {tmp}/syntax.toml is not valid TOML: ",
    "tools nosuch": "[CORE-GAME] 'nosuch': no such game; installed games: ",
    "tools gf --format yaml": "unknown format 'yaml'; formats: openai, openai-responses, anthropic, mcp, json",
    "call": "Missing argument 'SESSION'. (see 'gm call --help')",
    "call nosuch get_board": "[CORE-SESSION] 'nosuch': no session 'nosuch' in ",
    "show gf-a1 --as left": "[CORE-SEAT] 'left': unknown seat; choose from: home, away",
    "show gf-a1 --as away": "[CORE-SEAT] 'away': away is played by bot:default; its view is private",
    "sim nosuch": "[CORE-GAME] 'nosuch': no such game; installed games: ",
    "sim gf --player home=human": "gm sim plays bots only: home is 'human' (use bot:STRATEGY)",
    "sim gf -n 0": "Invalid value for '--games' / '-n': ",
    "export": "Missing argument 'WHAT'. (see 'gm export --help')",
    "export posters": "[CORE-EXPORT] 'posters': unknown export; choose quickstart, rules, glossary, session, bundle, token, prompt",
    "export rules --session gf-a1 --rules {tmp}/syntax.toml": "--rules cannot be combined with --session: the session has its own ruleset",
    "export rules --session {tmp}/missing.json": "No such file or directory: {tmp}/missing.json",
    "import garbage": "[CORE-TOKEN] 'garbage': not a gm token (expected gm2.<game>.<payload>.<checksum>)",
    "mcp --transport tcp": "unknown transport 'tcp'; choose stdio or http",
    "mcp --seat home": "--seat needs --session (new games choose their side with the new_game tool)",
    "mcp --port 70000": "Invalid value for '--port' / '-p': ",
    "play nosuchgame": "[CORE-GAME] 'nosuchgame': no such game; installed games: "
    "brawl, chess-football, grid-football, gridmaster4, quarterback",
    "play --seat left": "[CORE-SEAT] 'left': grid-football has no such seat; choose from: home, away",
    "play --opponent bot:nosuch": "[CORE-BOT] 'bot:nosuch': unknown bot strategy for grid-football; "
    "choose from: bot:adaptive, bot:always, bot:constant, bot:default, bot:random",
    "play gridmaster4 --opponent bot:nosuch": "[CORE-BOT] 'bot:nosuch': unknown bot strategy for gridmaster4; choose from: bot:",
    "play --opponent robot": "[CORE-BOT] 'bot:robot': unknown bot strategy for grid-football; "
    "choose from: bot:adaptive, bot:always, bot:constant, bot:default, bot:random",
    "play --resume nope": "[CORE-SESSION] 'nope': no session 'nope' in ",
    "play --resume gf-a": "[CORE-SESSION] 'gf-a': session id 'gf-a' is ambiguous: 2 sessions start with it (gf-a1, gf-a2); "
    "give more of the id",
    "play --referee foo": "unknown referee 'foo'; choose: offline, openai, anthropic",
    "play --referee openai --api foo": "--api is chat or responses, not 'foo'",
    "replay {tmp}/missing.jsonl": "no such file: {tmp}/missing.jsonl",
    "record": "Missing option '--output' / '-o'. (see 'gm record --help')",
    "record --output {tmp}/x.jsonl --bot left=bot": "--bot takes SEAT=PLAYER with a seat of grid-football (home, away): 'left=bot'",
    "sessions --game nosuch": "[CORE-GAME] 'nosuch': no such game; installed games: ",
    "sessions show gf-a": "[CORE-SESSION] 'gf-a': session id 'gf-a' is ambiguous: 2 sessions start with it (gf-a1, gf-a2); "
    "give more of the id",
    "sessions delete nosuch": "[CORE-SESSION] 'nosuch': no session 'nosuch' in ",
    "sessions delete gf-a1": "deleting 1 saved game needs --yes when gm cannot ask at a terminal",
    "sessions repair": "name the sessions to repair, or give --all (not both)",
    "sessions repair nosuch": "[CORE-SESSION] 'nosuch': no session 'nosuch' in ",
    "admin repair gf-a1 --store sqlite:{tmp}/none.sqlite": "no database at {tmp}/none.sqlite (give the server's --store)",
    "sessions frobnicate": "No such command 'frobnicate'. (see 'gm sessions --help')",
    "plya": "No such command 'plya'. Did you mean 'play', 'replay'? (see 'gm --help')",
}


@pytest.fixture
def two_sessions(_gm_home: Path, tmp_path: Path) -> Path:
    for sid in ("gf-a1", "gf-a2"):
        Session.create("grid-football", seed=1, players={"away": "bot:default"}, id=sid, record=False)
    (tmp_path / "syntax.toml").write_text("kick_distance = [\n")
    return tmp_path


@pytest.mark.parametrize("line", list(BAD))
def test_a_wrong_argument_gets_one_line_saying_what_is_right(line: str, two_sessions: Path) -> None:
    tmp = str(two_sessions)
    res = runner.invoke(app, shlex.split(line.format(tmp=tmp)))
    assert res.exit_code == 2, (res.exit_code, res.output)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output + res.stderr and res.stdout == ""
    (err,) = res.stderr.splitlines()
    assert err.startswith("gm: error: " + BAD[line].format(tmp=tmp)), err


def test_a_reader_that_stops_reading_is_not_an_error(tmp_path: Path) -> None:
    """``gm new ... | head -1`` through a real shell pipe: the id, no "Broken pipe", exit status 0."""
    env = dict(os.environ, GM_HOME=str(tmp_path / "home"), PYTHONUNBUFFERED="1")
    gm = f"{shlex.quote(sys.executable)} -m gm"
    script = (
        f"{gm} new grid-football --seed 3 | head -1; echo \"status ${{PIPESTATUS[0]}}\"; "
        f"{gm} export rules --game brawl | head -1; echo \"status ${{PIPESTATUS[0]}}\""
    )
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env, timeout=120)
    # piped, gm new's standard output is the id alone: its details go to standard error, and no error does
    assert done.stderr.startswith("path: ") and "rror" not in done.stderr and "Broken pipe" not in done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"grid-football-[0-9a-f]{8}", lines[0]) and lines[1] == "status 0", lines
    assert lines[2].startswith("# ") and lines[3] == "status 0", lines
