"""One JSON shape for a refusal on every surface (:func:`gm.core.errors.error_json`): a session's
tool result, ``gm call``, ``gm mcp``'s tools, the API and the page (``http_error``: the same fields
with ``status`` and ``message``), ``reason`` included everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.errors import GameError, IllegalActionError, error_json, http_error
from gm.mcp_server.host import GameHost
from gm.session import MemoryStore, Session

FIELDS = ["kind", "rule", "input", "reason", "legal"]


def test_the_shape_from_an_error() -> None:
    exc = IllegalActionError("not now", rule="XX-1", input="'go'", legal=("a", "b"))
    assert error_json(exc) == {"kind": "illegal_action", "rule": "XX-1", "input": "'go'", "reason": "not now", "legal": ["a", "b"]}
    assert http_error(exc) == {"status": 400, "message": "[XX-1] \"'go'\": not now", **error_json(exc)}
    assert list(http_error(GameError("no", rule="R"), 404))[:2] == ["status", "message"]


def test_a_sessions_tool_result_and_gm_call_carry_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = Session.create("grid-football", seed=3, players={"home": "human", "away": "bot"}, store=MemoryStore())
    res = s.call("call_play", {"play": 99}, "home")
    assert not res["ok"] and list(res["error"]) == FIELDS and res["error"]["reason"]

    monkeypatch.setenv("GM_HOME", str(tmp_path))
    runner = CliRunner()
    sid = runner.invoke(app, ["new", "grid-football", "--seed", "3"]).stdout.strip()
    out = runner.invoke(app, ["call", sid, "call_play", '{"play": 99}'])
    assert out.exit_code == 1, out.output
    called = json.loads(out.stdout)
    assert called["error"] == res["error"]
    # a --json command refused: the same shape on stdout, the one error line on stderr
    shown = runner.invoke(app, ["show", sid, "--as", "left", "--json"])
    assert shown.exit_code == 2 and shown.stderr.startswith("gm: error: [CORE-SEAT] 'left': ")
    refusal = json.loads(shown.stdout)
    assert refusal["ok"] is False and list(refusal["error"]) == FIELDS and refusal["error"]["legal"] == ["home", "away"]


def test_gm_mcp_tools_carry_it(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    reply = host.call("new_game", {"game": "grid-football", "seat": "left"})
    assert reply.is_error and list(reply.result["error"]) == FIELDS
    assert reply.result["error"]["rule"] == "CORE-SEAT" and reply.result["error"]["reason"] == "grid-football has no such seat"
