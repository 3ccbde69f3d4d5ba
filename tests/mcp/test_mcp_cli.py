"""``gm mcp`` command-line errors: one line on stderr, never a traceback, and no server started."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path))


def one_line_error(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gm: error: "), result.stderr
    assert "Traceback" not in result.output
    return lines[0]


def test_bad_options_are_one_line() -> None:
    assert "unknown transport" in one_line_error("mcp", "--transport", "carrier-pigeon")
    assert "--seat needs --session" in one_line_error("mcp", "--seat", "home")
    assert "no session 'nope'" in one_line_error("mcp", "--session", "nope")
    assert "CORE-GAME" in one_line_error("mcp", "--game", "tiddlywinks")


def test_a_busy_port_is_one_line() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        assert "cannot listen on 127.0.0.1" in one_line_error("mcp", "--transport", "http", "--port", str(port))


def test_help_names_the_options() -> None:
    out = CliRunner().invoke(app, ["mcp", "--help"]).output
    for opt in ("--game", "--session", "--seat", "--transport", "--port", "--gm-home"):
        assert opt in out


def test_readme_snippet_is_a_working_configuration() -> None:
    import json
    import re

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Play from any MCP client", 1)[1].split("\n## ", 1)[0]
    snippet = json.loads(re.findall(r"```json\n(.*?)```", section, re.S)[0])
    server = snippet["mcpServers"]["gm"]
    assert server["command"] == "gm"
    result = CliRunner().invoke(app, [*server["args"], "--help"])
    assert result.exit_code == 0 and "--transport" in result.output
