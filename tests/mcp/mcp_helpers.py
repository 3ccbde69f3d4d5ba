"""Helpers of the MCP tests: start the real server, pick legal moves, read results."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

from gm.core.registry import find_game
from gm.core.tools import call_for_action

#: generous bounds for a loaded 2-core machine (never used as synchronisation)
CALL_TIMEOUT = 60.0
TEST_TIMEOUT = 150.0


def server_env(home: Path) -> dict[str, str]:
    """The child's whole environment, explicitly (the SDK passes only a safe subset otherwise)."""
    env = {"GM_HOME": str(home), "PATH": os.environ.get("PATH", ""), "HOME": str(home), "PYTHONUNBUFFERED": "1"}
    for key in ("PYTHONPATH", "SYSTEMROOT", "LANG", "LC_ALL", "VIRTUAL_ENV"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def gm_mcp_args(*args: str, pidfile: Path | None = None) -> list[str]:
    """``python -m gm mcp ARGS`` (with ``pidfile``: the server process writes its pid there first)."""
    if pidfile is None:
        return ["-m", "gm", "mcp", *args]
    code = (
        "import os, sys\n"
        f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
        f"sys.argv = ['gm', 'mcp', *{list(args)!r}]\n"
        "from gm.cli.app import main\n"
        "main()\n"
    )
    return ["-c", code]


def python() -> str:
    return sys.executable


def structured(result: Any) -> dict[str, Any]:
    data = result.structured_content
    assert isinstance(data, dict), result
    return data


def text(result: Any) -> str:
    return "\n".join(getattr(c, "text", "") for c in result.content)


def pick_call(game_id: str, legal: list[str], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal action (its text form from legal_actions) as a tool call."""
    game = find_game(game_id)
    action = game.parse_action(rng.choice(legal))
    return call_for_action(game.tools(), action)


class HttpServer:
    """A real ``gm serve ARGS`` or ``gm mcp --transport http ARGS`` child process on a free loopback
    port (``with``: stopped at the end); :attr:`url` is its MCP endpoint, :attr:`lines` its stderr."""

    def __init__(self, home: Path, *args: str, serve: bool = True, env: dict[str, str] | None = None, key: str = "22" * 32) -> None:
        import subprocess
        import threading

        self.home = home
        self.key = key
        full = {**server_env(home), "GM_SECRET_KEY": key, **(env or {})}
        cmd = [python(), "-m", "gm", *(["serve", "--quiet"] if serve else ["mcp", "--transport", "http"]), "--port", "0", *args]
        self.proc = subprocess.Popen(cmd, env=full, cwd=str(home), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.url = ""
        found = threading.Event()

        def read() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.lines.append(line)
                if " MCP at http://" in line and not self.url:
                    self.url = line.split(" MCP at ", 1)[1].split(";", 1)[0].strip()
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        found.wait(60)
        if not self.url:
            self.stop()
            raise AssertionError("the server did not start: " + "".join(self.lines))

    @property
    def base(self) -> str:
        return self.url.removesuffix("/mcp")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except Exception:
                self.proc.kill()
                self.proc.wait(30)

    def __enter__(self) -> HttpServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
