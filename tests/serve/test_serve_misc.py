"""The load generator's smoke run, the command line's refusals, and graceful shutdown."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

import httpx2
import pytest
from serve_helpers import ServerProcess, auth
from typer.testing import CliRunner

from gm.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.serve_load import Served, run_load  # noqa: E402


def test_load_generator_smoke(tmp_path: Path) -> None:
    served = Served("memory:", 1, tmp_path)
    try:
        rep = asyncio.run(run_load(served.ports, players=4, seconds=1.5, interval=0.15, kind="mcp", ramp=0.3, warmup=0.2))
        api = asyncio.run(run_load(served.ports, players=2, seconds=1.0, interval=0.15, kind="api", ramp=0.2, warmup=0.2))
    finally:
        served.stop()
    for r in (rep, api):
        assert r["errors"] == 0 and r["crosstalk"] == 0, r
        assert r["calls"] > 5 and r["moves"] > 0 and r["games"] >= r["players"]
        assert r["generator_cpu_s"] >= 0 and r["p99_ms"] >= r["p50_ms"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--host", "0.0.0.0"], "refusing to serve on 0.0.0.0 without authentication"),
        (["serve", "--store", "file:/tmp"], "gm serve keeps its games in a database"),
        (["serve", "--store", "postgresql://gm@/nope?host=/nonexistent"], "needs the server key given explicitly"),
        (["mcp", "--transport", "http", "--session", "x"], "--session is for stdio"),
    ],
)
def test_serve_refusals_are_one_line(args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.delenv("GM_SECRET_KEY", raising=False)
    monkeypatch.delenv("GM_KEY_FILE", raising=False)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output


def test_admin_commands_and_new_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    out = CliRunner().invoke(app, ["admin", "new-key"]).stdout.split()
    assert len(out[0]) == 64 and out[1].startswith("sha256:")
    from gm.server.hub import GameHub
    from gm.session.sql import SqliteStore

    store = f"sqlite:{tmp_path / 'gm.sqlite'}"
    hub = GameHub(SqliteStore(tmp_path / "gm.sqlite"))
    sid = hub.create("brawl", seed=3)["session"]
    listed = CliRunner().invoke(app, ["admin", "games", "--store", store])
    assert listed.exit_code == 0 and sid in listed.stdout and "brawl" in listed.stdout
    assert "ended" in CliRunner().invoke(app, ["admin", "end", sid, "--store", store]).stdout
    assert "ENDED" in CliRunner().invoke(app, ["admin", "games", "--store", store]).stdout


def test_sigterm_closes_event_streams_and_exits(tmp_path: Path) -> None:
    server = ServerProcess("memory:", tmp_path, "--rate", "0")
    try:
        with httpx2.Client(base_url=server.url, timeout=30) as http:
            made = http.post("/api/games", json={"seed": 2}).json()
            with http.stream("GET", f"/api/games/{made['session']}/events", headers=auth(made["token"])) as stream:
                lines = stream.iter_lines()
                assert next(lines).startswith("retry:")
                assert any(x.startswith("event: state") for x in lines)  # the stream is live (read up to its first state)
                t0 = time.monotonic()
                server.proc.send_signal(signal.SIGTERM)
                rest = list(lines)  # the server ends the stream (else this would wait for the 30 s timeout)
                assert time.monotonic() - t0 < 15, rest
        assert server.proc.wait(30) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal once it has shut down
    finally:
        server.stop()
