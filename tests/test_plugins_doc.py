"""docs/plugins.md is enough to write a game: its tic-tac-toe listing, taken out of the page as it
stands, installs with pip as a plugin (the entry point the page declares), keeps gm's contract
(gm.testing, its own tests included) and plays through ``gm`` with no line of gm written for it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt
from plugin_helpers import install_plugin

import gm.testing
from gm.core import GameError

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "plugins.md"
TIMEOUT = 60


def listing() -> dict[str, str]:
    """The files of the page's package: every fenced block whose info string names a ``file=``."""
    out = {}
    for token in MarkdownIt().parse(DOC.read_text(encoding="utf-8")):
        m = re.search(r"\bfile=(\S+)", token.info) if token.type == "fence" else None
        if m:
            out[m.group(1)] = token.content
    return out


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("ttt-src") / "gm-tictactoe"
    for name, text in listing().items():
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        (src / name).write_text(text, encoding="utf-8")
    return install_plugin(tmp_path_factory.mktemp("ttt"), src)


@pytest.fixture
def env(site: Path, tmp_path: Path) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("GM_", "PYTEST", "COV"))}
    out.update(PYTHONPATH=str(site), GM_HOME=str(tmp_path / "gm-home"), NO_COLOR="1", PYTHONUNBUFFERED="1")
    return out


def gm_ok(env: dict[str, str], *args: str, stdin: str = "") -> str:
    p = subprocess.run([sys.executable, "-m", "gm", *args], env=env, input=stdin, capture_output=True, text=True,
                       timeout=TIMEOUT, check=False)
    assert p.returncode == 0, p.stderr + p.stdout
    return p.stdout


def test_the_page_lists_a_whole_package() -> None:
    files = listing()
    assert sorted(files) == [
        "gm_tictactoe/__init__.py", "gm_tictactoe/board_json.py", "gm_tictactoe/game.py",
        "gm_tictactoe/templates/glossary.md.j2", "gm_tictactoe/templates/quickstart.md.j2",
        "gm_tictactoe/templates/rules.md.j2", "gm_tictactoe/templates/session.md.j2",
        "pyproject.toml", "tests/test_contract.py",
    ]
    assert '[project.entry-points."gm.games"]\ntic-tac-toe = "gm_tictactoe:GAME"' in files["pyproject.toml"]


def test_the_listed_game_keeps_the_contract(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """gm.testing on the installed game, on the default board and a larger one; and the game's own tests as listed."""
    monkeypatch.syspath_prepend(str(site))
    from gm_tictactoe import GAME

    report = gm.testing.check_game(GAME, seeds=(0, 1))
    assert report.positions > 10 and report.boards > 0 and report.refusals > 0
    big: Any = gm.testing.check_game(GAME, {"size": 5, "line": 4}, seeds=(3,), plies=20)
    assert big.actions > 100
    with pytest.raises(GameError, match=r"\[CORE-RULES\] \(top level\): Value error, a line of 4 does not fit on a board of 3"):
        GAME.load_rules({"size": 3, "line": 4})


def test_the_listed_tests_pass(site: Path, env: dict[str, str], tmp_path: Path) -> None:
    test = tmp_path / "test_contract.py"
    test.write_text(listing()["tests/test_contract.py"], encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", str(test)], env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=180, check=False)
    assert p.returncode == 0 and "8 passed" in p.stdout, p.stdout[-3000:] + p.stderr[-2000:]


def test_gm_lists_it_and_gm_new_and_call_play_it_on_a_larger_board(env: dict[str, str], tmp_path: Path) -> None:
    assert "tic-tac-toe      Tic-Tac-Toe (aliases: ttt, noughts-and-crosses)" in gm_ok(env, "games").splitlines()
    rules = tmp_path / "five.toml"
    rules.write_text("size = 5\nline = 4\n")
    new = json.loads(gm_ok(env, "new", "ttt", "--seed", "2", "--rules", str(rules), "--player", "o=bot:default", "--json"))
    assert new["game"] == "tic-tac-toe" and new["players"] == {"x": "human", "o": "bot:default"}
    bad = subprocess.run([sys.executable, "-m", "gm", "call", new["id"], "mark", '{"square": "f6"}'], env=env,
                         capture_output=True, text=True, timeout=TIMEOUT, check=False)
    assert bad.returncode == 1 and json.loads(bad.stdout)["error"]["rule"] == "TTT-BOARD"
    res = json.loads(gm_ok(env, "call", new["id"], "mark", '{"square": "c3"}'))
    assert res["ok"] and res["events"][0]["text"] == "x marks c3."
    shown = gm_ok(env, "show", new["id"])
    assert "5 . . . . ." in shown and "  a b c d e" in shown


def test_gm_play_plays_it_to_the_end_offline(env: dict[str, str]) -> None:
    squares = [f"{c}{r}" for r in "123" for c in "abc"]
    out = gm_ok(env, "play", "ttt", "--seed", "1", stdin="what can I do?\n" + "\n".join(squares) + "\n")
    assert out.splitlines()[0].startswith("Tic-Tac-Toe: you play x (o = bot:default). Session tic-tac-toe-")
    assert "You can (9): mark a1, mark b1, mark c1" in out
    assert re.search(r"Game over: (x|o|nobody) wins \((3 in a row|the board is full)\)", out), out[-2000:]
