"""The generic command line names no game's seats and no option means two things: players are
``--player SEAT=human|bot[:STRATEGY]`` for any game's seats, the GM_HOME folder is ``--gm-home``;
``gm export prompt`` prints the LLM referee's system prompt from the ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app


@pytest.fixture(autouse=True)
def _gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path))


def gm(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(app, list(args))
    return res.exit_code, res.output


def test_players_are_given_per_seat_for_any_game() -> None:
    code, out = gm("new", "gridmaster4", "--player", "lime=human", "--player", "orange=bot:random", "--json")
    assert code == 0, out
    assert json.loads(out)["players"] == {"orange": "bot:random", "magenta": "bot:default", "lime": "human", "aqua": "bot:default"}
    code, out = gm("new", "gf", "--player", "away=bot", "--json")
    assert json.loads(out)["players"] == {"home": "human", "away": "bot:default"}
    code, out = gm("sim", "gf", "-n", "2", "--player", " home = bot:random ", "--json")
    assert code == 0 and json.loads(out)["players"] == {"home": "bot:random", "away": "bot:default"}


@pytest.mark.parametrize(("args", "line"), [
    (["new", "gf", "--player", "nobody=human"], "gm: error: [CORE-SEAT] 'nobody': grid-football has no such seat; choose from: home, away"),
    (["new", "gf", "--player", "away"], "gm: error: --player takes SEAT=human|bot[:STRATEGY], not 'away'"),
    (["sim", "gf", "-n", "1", "--player", "home=human"], "gm: error: gm sim plays bots only: home is 'human' (use bot:STRATEGY)"),
])
def test_a_bad_player_is_one_line(args: list[str], line: str) -> None:
    code, out = gm(*args)
    assert code == 2 and out.strip().splitlines() == [line]


@pytest.mark.parametrize(("args", "line"), [
    (["new", "gf", "--player", "away="], "--player takes SEAT=human|bot[:STRATEGY], not 'away='"),
    (["new", "gf", "--player", "=bot"], "--player takes SEAT=human|bot[:STRATEGY], not '=bot'"),
    (["balance", "gf", "--player", "away=human"], "--player takes SEAT=bot[:STRATEGY] with a seat of grid-football (home, away), not 'away=human'"),
    (["balance", "gf", "--player", "left=bot"], "--player takes SEAT=bot[:STRATEGY] with a seat of grid-football (home, away), not 'left=bot'"),
    (["record", "--output", "x.jsonl", "--bot", "away"], "--bot takes SEAT=PLAYER with a seat of grid-football (home, away): 'away'"),
    (["record", "--output", "x.jsonl", "--bot", "away="], "--bot takes SEAT=PLAYER with a seat of grid-football (home, away): 'away='"),
    (["import", "-", "--player", "home"], "--player takes SEAT=human|bot:STRATEGY, not 'home'"),
])
def test_every_seat_option_is_read_one_way_in_its_commands_words(args: list[str], line: str) -> None:
    """``SEAT=VALUE`` options are read by one parser (both sides stripped, neither empty, the seat one
    of the game's where the command checks it); each command keeps its own wording of the mistake."""
    code, out = gm(*args)
    assert code == 2 and out.strip().splitlines() == [f"gm: error: {line}"]


def test_the_football_seat_options_are_gone_and_gm_home_is_one_name() -> None:
    for cmd in ("new", "sim"):
        code, out = gm(cmd, "gf", "--away", "human")
        assert code == 2 and "No such option: --away" in out
        assert "--home" not in gm(cmd, "--help")[1]
    for cmd in ("export", "import", "mcp"):
        help_text = gm(cmd, "--help")[1]
        assert "--gm-home" in help_text and "--home " not in help_text.replace("--gm-home ", "")


def test_gm_export_prompt_is_the_referees_system_prompt_for_the_ruleset(tmp_path: Path) -> None:
    rules = tmp_path / "r.toml"
    rules.write_text("kick_distance = 50\n")
    code, out = gm("export", "prompt", "--game", "gf", "--rules", str(rules))
    assert code == 0, out
    assert out.startswith("You referee Turn-Based Grid Football in a terminal for one player, home (opponent: away (bot:default)).\n")
    assert "- Kickoff: 50 rows from the kicker's goal line." in out and out.endswith("\n") and not out.endswith("\n\n")
    code, out = gm("export", "prompt")  # the default game
    assert code == 0 and out.startswith("You referee Turn-Based Grid Football")
