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
