"""The real server (``python -m gm mcp``) over stdio, driven by the ``mcp`` SDK's client."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, MCPError, StdioServerParameters
from mcp_helpers import (
    CALL_TIMEOUT,
    TEST_TIMEOUT,
    gm_mcp_args,
    pick_call,
    python,
    server_env,
    structured,
    text,
)

from gm.core.registry import find_game
from gm.mcp_server import SESSION_TOOLS
from gm.session import verify

pytestmark = pytest.mark.anyio


def params(home: Path, *args: str, pidfile: Path | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=python(), args=gm_mcp_args(*args, pidfile=pidfile), env=server_env(home), cwd=str(home))


async def call(c: Client, name: str, args: dict[str, Any] | None = None) -> Any:
    with anyio.fail_after(CALL_TIMEOUT):
        return await c.call_tool(name, args or {})


async def play(c: Client, game_id: str, rng: random.Random, *, moves: int | None = None) -> dict[str, Any]:
    """Random legal moves through the server until the game ends (or ``moves`` were made).
    Every secret pick the bot locked before a move must be revealed by it, unchanged."""
    last: dict[str, Any] = structured(await call(c, "get_status"))
    made = 0
    while last.get("expected") and (moves is None or made < moves):
        locked = dict(last.get("commitments") or {})
        legal = structured(await call(c, "legal_actions"))["legal"]
        name, args = pick_call(game_id, legal, rng)
        r = await call(c, name, args)
        assert not r.is_error, text(r)
        last = structured(r)
        made += 1
        for seat, digest in locked.items():
            if seat in last["reveal"]:
                reveal = last["reveal"][seat]
                assert reveal["commitment"] == digest and verify(reveal), reveal
            elif not any(seat in e.get("void", ()) for e in last["events"]):  # (a pick the engine voided stays unseen)
                assert last["commitments"].get(seat) == digest, "a locked pick must not change before its reveal"
        assert made < 2000, "the game does not end"
    return last


async def test_stdio_tools_bad_arguments_and_a_full_game(tmp_path: Path) -> None:
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(params(tmp_path), read_timeout_seconds=CALL_TIMEOUT) as c:
            await full_game(c, tmp_path)


async def full_game(c: Client, home: Path) -> None:
    names = [t.name for t in (await c.list_tools()).tools]
    game = find_game("grid-football")
    assert names == [*SESSION_TOOLS, *(t.name for t in game.tools())]
    assert "referee" in [p.name for p in (await c.list_prompts()).prompts]
    assert "gm://session/board" in [str(r.uri) for r in (await c.list_resources()).resources]

    # bad arguments: tool errors the model can read; an unknown tool: a protocol error (-32602) naming
    # the tools there are; the server lives on
    r = await call(c, "new_game", {"game": "tiddlywinks"})
    assert r.is_error and "[CORE-GAME]" in text(r) and "grid-football" in text(r)
    with pytest.raises(MCPError) as caught:
        await call(c, "launch_missiles", {"now": True})
    assert caught.value.error.code == -32602 and "unknown tool 'launch_missiles'" in caught.value.error.message
    assert "new_game" in caught.value.error.message and "call_play" in caught.value.error.message

    r = await call(c, "new_game", {"seed": 12})
    assert not r.is_error, text(r)
    sid = structured(r)["session"]
    r = await call(c, "call_play", {"play": 1, "colour": "red", "seat": "away"})
    assert r.is_error and "seat: unknown argument" in text(r)
    r = await call(c, "choose_kick_or_receive", {"choice": 42})
    assert r.is_error and structured(r)["error"]["rule"] == "CORE-ARGS"

    last = await play(c, "grid-football", random.Random(12))
    assert last["outcome"] is not None and not last["expected"]
    r = await call(c, "legal_actions")
    assert not r.is_error and structured(r)["legal"] == []
    saved = (home / "sessions" / f"{sid}.jsonl").read_text().splitlines()
    assert len(saved) > 2


async def test_killed_server_resumes_the_session(tmp_path: Path) -> None:
    pidfile = tmp_path / "server.pid"
    rng = random.Random(5)
    killed = False
    with anyio.fail_after(TEST_TIMEOUT):
        try:
            async with Client(params(tmp_path, pidfile=pidfile), read_timeout_seconds=CALL_TIMEOUT) as client:
                sid, row, digest, board = await until_secret_pick(client, rng)
                killed = True
                os.kill(int(pidfile.read_text()), signal.SIGKILL)
        except Exception:
            if not killed:
                raise  # (after the kill, closing the dead connection may complain)
        assert killed
        async with Client(params(tmp_path), read_timeout_seconds=CALL_TIMEOUT) as c:
            await resume_after_kill(c, sid, row, digest, board, rng)


async def until_secret_pick(c: Client, rng: random.Random) -> tuple[str, dict[str, Any], str, str]:
    """A new game played until the bot has locked a secret pick and the client must still choose."""
    sid = structured(await call(c, "new_game", {"seed": 21}))["session"]
    status = structured(await call(c, "get_status"))
    while not status["commitments"]:
        status = await play(c, "grid-football", rng, moves=1)
        assert status["expected"], "the game ended before a secret pick"
    board = structured(await call(c, "get_board", {"full": True}))["board"]
    (row,) = structured(await call(c, "list_sessions"))["sessions"]
    return sid, row, status["commitments"]["away"], board


async def resume_after_kill(c: Client, sid: str, row: dict[str, Any], digest: str, board: str, rng: random.Random) -> None:
    listed = structured(await call(c, "list_sessions"))
    assert listed["sessions"] == [row] and listed["active"] is None
    r = await call(c, "resume_session", {"session_id": sid})
    assert not r.is_error, text(r)
    data = structured(r)
    assert data["commitments"] == {"away": digest}, "the bot's locked pick survived the crash unchanged"
    assert data["moves"] == row["moves"]
    assert structured(await call(c, "get_board", {"full": True}))["board"] == board
    last = await play(c, "grid-football", rng)  # checks the reveal of the pre-crash commitment
    assert last["outcome"] is not None
