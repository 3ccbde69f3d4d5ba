"""The core commands through typer's CliRunner: games, new, tools, call, show, sim, errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm import __version__
from gm.cli.app import app
from gm.core.registry import find_game
from gm.core.tools import call_for_action

runner = CliRunner()
GAME = find_game("grid-football")


@pytest.fixture(autouse=True)
def _gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path / "gmhome"))
    return tmp_path / "gmhome"


def gm(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def assert_one_line_error(code: int, out: str, err: str) -> None:
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gm: error: "), err
    assert "Traceback" not in out + err


def test_help_version_games() -> None:
    code, out, _ = gm("--help")
    assert code == 0
    for cmd in ("games", "new", "tools", "call", "show", "sim"):
        assert cmd in out
    assert gm("--version")[:2] == (0, f"gm {__version__}\n")
    code, out, _ = gm("games")
    assert code == 0 and "grid-football" in out


def test_new_prints_id_and_path(_gm_home: Path) -> None:
    code, out, err = gm("new", "grid-football", "--seed", "3")  # captured, as SID=$(gm new ...) is: the id alone
    assert code == 0, out
    sid = out.strip()
    assert out == f"{sid}\n" and (_gm_home / "sessions" / f"{sid}.jsonl").is_file()
    assert f"path: {_gm_home / 'sessions' / sid}.jsonl" in err
    assert "players: home human, away bot:" in err and "next: home (human) must" in err
    code, out, _ = gm("new", "gf", "--player", "away=human", "--json")
    data = json.loads(out)
    assert code == 0 and data["players"] == {"home": "human", "away": "human"} and Path(data["path"]).is_file()


@pytest.mark.parametrize("fmt", ["openai", "openai-responses", "anthropic", "mcp", "json"])
def test_tools_in_every_format(fmt: str) -> None:
    code, out, _ = gm("tools", "grid-football", "--format", fmt)
    assert code == 0
    tools = json.loads(out)
    names = [t.get("name") or t["function"]["name"] for t in tools]
    assert {"call_play", "pick_kick", "pick_number", "punt", "call_coin_toss", "choose_kick_or_receive", "get_board"} <= set(names)


def test_call_and_show_against_the_bot() -> None:
    code, out, _ = gm("new", "gf", "--seed", "1", "--player", "away=bot:random")
    sid = out.splitlines()[0]
    code, out, _ = gm("show", sid, "--json")
    view = json.loads(out)
    assert code == 0 and view["seat"] == "home" and view["expected"][0]["seat"] == "home"
    tool = view["expected"][0]["tools"][0]
    # a rejected call: JSON on stdout, exit status 1, nothing changed
    code, out, _ = gm("call", sid, "call_play", '{"play": 4, "colour": "red"}')
    rejected = json.loads(out)
    assert code == 1 and rejected["ok"] is False and rejected["error"]["rule"]
    assert json.loads(gm("show", sid, "--json")[1]) == view
    # a legal call for the only human seat (no --as needed)
    legal = json.loads(gm("call", sid, "legal_actions")[1])["legal"]
    name, args = call_for_action(GAME.tools(), GAME.parse_action(legal[0]))
    assert name == tool
    code, out, _ = gm("call", sid, name, json.dumps(args))
    assert code == 0 and json.loads(out)["ok"] is True
    code, out, _ = gm("show", sid)
    assert code == 0 and "Q1 |" in out and "next: " in out
    code, out, _ = gm("show", sid, "--full")
    assert code == 0 and " 64 " in out and "  1 " in out
    assert_one_line_error(*gm("show", sid, "--as", "away"))  # the bot's view is private
    assert_one_line_error(*gm("call", "no-such-session", "get_board"))


def test_complete_hot_seat_game_through_gm_call(tmp_path: Path) -> None:
    """Two humans play a whole (short-clock) game with nothing but ``gm call``."""
    rules = tmp_path / "short.toml"
    rules.write_text("downs_per_quarter = 3\n")
    code, out, _ = gm("new", "grid-football", "--seed", "4", "--player", "away=human", "--rules", str(rules))
    assert code == 0, out
    sid = out.splitlines()[0]
    rng = random.Random(4)
    moves = 0
    while True:
        view = json.loads(gm("show", sid, "--json")[1])
        if not view["expected"]:
            break
        seat = rng.choice([e["seat"] for e in view["expected"]])
        code, out, _ = gm("call", sid, "legal_actions", "--as", seat)
        assert code == 0
        legal = json.loads(out)["legal"]
        tool, args = call_for_action(GAME.tools(), GAME.parse_action(rng.choice(legal)))
        code, out, _ = gm("call", sid, tool, json.dumps(args), "--as", seat)
        result = json.loads(out)
        assert code == 0 and result["ok"], result
        assert result["narration"] and result["board"] and result["status"]
        moves += 1
        assert moves < 500
    assert view["outcome"] is not None and moves > 10
    code, out, _ = gm("show", sid)
    assert code == 0 and "FINAL" in out
    code, out, _ = gm("call", sid, "call_play", '{"play": 1, "colour": "red"}', "--as", "home")
    assert code == 1 and json.loads(out)["error"]["rule"] == "CORE-OVER"


def test_hot_seat_needs_a_side_when_both_must_choose(tmp_path: Path) -> None:
    sid = gm("new", "gf", "--player", "away=human", "--seed", "2")[1].splitlines()[0]
    code, out, _ = gm("call", sid, "call_coin_toss", '{"call": "heads"}')  # only away may call: defaulted
    assert code == 0 and json.loads(out)["seat"] == "away"


def test_sim_reports_rates() -> None:
    code, out, _ = gm("sim", "grid-football", "--games", "6", "--seed", "1", "--player", "home=bot:random", "--player", "away=bot:random", "--json")
    assert code == 0, out
    rep = json.loads(out)
    assert rep["games"] == 6 and sum(rep["wins"].values()) + rep["draws"] + rep["unfinished"] == 6
    assert set(rep["rates"]) == {"touchdown", "turnover", "first_down"} == set(rep["headlines"]) and rep["avg_length"] > 0
    assert rep["events_per_game"]["coin_toss"] == 1.0
    code, out, _ = gm("sim", "gf", "-n", "3", "--player", "home=bot:random", "--player", "away=bot:random")
    assert code == 0 and "home wins" in out and "average length" in out and "touchdown" in out
    assert_one_line_error(*gm("sim", "gf", "-n", "2", "--player", "home=human"))


@pytest.mark.parametrize("game", ["grid-football", "quarterback"])
def test_sim_gives_the_same_report_with_any_number_of_workers(game: str) -> None:
    reports = []
    for workers in ("1", "2", "3"):
        code, out, _ = gm("sim", game, "--games", "7", "--seed", "4", "--workers", workers, "--json")
        assert code == 0, out
        reports.append(json.loads(out))
    assert reports[0] == reports[1] == reports[2] and reports[0]["games"] == 7


def test_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("kick_distance = 'far'\n")
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not a session\n")
    assert_one_line_error(*gm("new", "no-such-game"))
    assert_one_line_error(*gm("new", "gf", "--rules", str(bad)))
    assert_one_line_error(*gm("new", "gf", "--rules", str(tmp_path / "missing.toml")))
    assert_one_line_error(*gm("new", "gf", "--player", "away=bot:nope"))
    assert_one_line_error(*gm("new", "gf", "--player", "nonsense"))
    assert_one_line_error(*gm("tools", "gf", "--format", "yaml"))
    assert_one_line_error(*gm("show", str(junk)))
    assert_one_line_error(*gm("call", str(junk), "get_board"))
    assert_one_line_error(*gm("show", str(tmp_path)))


def test_cli_import_stays_light() -> None:
    """``gm --help`` must not import the LLM SDKs or scipy."""
    code = (
        "import sys\n"
        "import gm.cli.app\n"
        "sys.argv = ['gm', '--help']\n"
        "try:\n    gm.cli.app.main()\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in ('openai', 'anthropic', 'scipy', 'mcp', 'httpx2') if m in sys.modules)\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "HEAVY []", out
