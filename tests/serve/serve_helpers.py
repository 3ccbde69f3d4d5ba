"""Helpers of the server tests: start a real ``gm serve`` process, talk to it over HTTP."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from gm.core.registry import find_game
from gm.core.tools import call_for_action

#: generous bounds for a loaded 2-core machine (never used as synchronisation)
START_TIMEOUT = 60.0


class ServerProcess:
    """``gm serve`` in a child process; :attr:`url` once it listens; its stderr kept in :attr:`lines`."""

    def __init__(self, store: str, home: Path, *args: str, key: str | None = None, env: dict[str, str] | None = None, wait: bool = True) -> None:
        self.home = home
        self.key = key or "11" * 32
        full = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(home),
            "GM_HOME": str(home),
            "GM_SECRET_KEY": self.key,
            "PYTHONUNBUFFERED": "1",
            **(env or {}),
        }
        for name in ("PYTHONPATH", "LANG", "LC_ALL", "VIRTUAL_ENV"):
            if name in os.environ:
                full[name] = os.environ[name]
        cmd = [sys.executable, "-m", "gm", "serve", "--port", "0", "--store", store, *args]
        self.proc = subprocess.Popen(cmd, env=full, cwd=str(home), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self.url = ""
        self._found = found = threading.Event()

        def read() -> None:
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.lines.append(line)
                if " MCP at http://" in line and not self.url:
                    self.url = line.split(" MCP at ", 1)[1].split(";", 1)[0].strip().removesuffix("/mcp")
                    found.set()
            found.set()

        threading.Thread(target=read, daemon=True).start()
        if wait:
            self.wait_ready()

    def wait_ready(self) -> ServerProcess:
        self._found.wait(START_TIMEOUT)
        if not self.url:
            self.stop()
            raise AssertionError("gm serve did not start: " + "".join(self.lines))
        return self

    @property
    def mcp(self) -> str:
        return self.url + "/mcp"

    def access_log(self) -> list[dict[str, Any]]:
        out = []
        for line in self.lines:
            if line.startswith("{"):
                out.append(json.loads(line))
        return out

    def kill(self) -> None:
        """kill -9: no cleanup at all."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)
        return self.proc.returncode

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def random_call(game_id: str, legal: list[str], rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal action (its text from legal_actions) as a tool call."""
    game = find_game(game_id)
    return call_for_action(game.tools(), game.parse_action(rng.choice(legal)))


def wait_until(pred: Any, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError("timed out")
