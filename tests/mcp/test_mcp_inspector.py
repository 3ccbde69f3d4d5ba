"""A second opinion from a third-party MCP client: the MCP Inspector's command line (npm
``@modelcontextprotocol/inspector``, fetched from the npm registry by ``npx``) lists gm's tools and
plays the opening of a game through ``gm mcp`` over stdio, the way a form-filling client does (it
types every argument as text and converts it by the tool's declared schema)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

INSPECTOR = "@modelcontextprotocol/inspector@0.17"
GM = str(Path(sys.executable).with_name("gm"))


def _inspector(home: Path, *args: str) -> Any:
    npx = shutil.which("npx")
    if npx is None:
        if os.environ.get("GM_REQUIRE_BROWSER") == "1":  # CI: node is part of the machine
            pytest.fail("npx (node) is missing")
        pytest.skip("npx (node) is not installed")
    env = {**os.environ, "GM_HOME": str(home), "npm_config_yes": "true", "npm_config_update_notifier": "false"}
    p = subprocess.run([npx, "-y", INSPECTOR, "--cli", GM, "mcp", *args], env=env, capture_output=True, text=True,
                       timeout=240, check=False)
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)


def test_the_inspector_lists_the_tools_and_plays_an_opening(tmp_path: Path) -> None:
    listed = _inspector(tmp_path, "--method", "tools/list")
    names = {t["name"] for t in listed["tools"]}
    assert {"new_game", "resume_session", "get_board", "call_coin_toss", "call_play"} <= names
    made = _inspector(tmp_path, "--method", "tools/call", "--tool-name", "new_game",
                      "--tool-arg", "game=grid-football", "--tool-arg", "seed=3")
    assert made.get("isError") is not True, made
    sid = made["structuredContent"]["session"]
    assert sid.startswith("grid-football-")
    # a new server process: the game is resumed from the gm home, then a move is made
    status = _inspector(tmp_path, "--method", "tools/call", "--tool-name", "resume_session", "--tool-arg", f"session_id={sid}")
    assert status.get("isError") is not True, status
    bad = _inspector(tmp_path, "--method", "tools/call", "--tool-name", "new_game", "--tool-arg", "seed=-4")
    assert bad.get("isError") is True and bad["structuredContent"]["error"]["rule"] == "CORE-ARGS", bad
    assert [p.name for p in (tmp_path / "sessions").iterdir()] == [f"{sid}.jsonl"]  # the refusal made nothing
