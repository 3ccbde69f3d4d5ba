"""The real server over streamable HTTP on 127.0.0.1 (``gm mcp --transport http --port 0``: the
``gm serve`` server, each client its own games)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import anyio
import anyio.abc
import httpx2
import pytest
from anyio.streams.text import TextReceiveStream
from mcp import Client
from mcp_helpers import CALL_TIMEOUT, TEST_TIMEOUT, gm_mcp_args, python, server_env, structured, text

pytestmark = pytest.mark.anyio


async def read_url(stream: anyio.abc.ByteReceiveStream, seen: list[str]) -> str:
    """The URL from the server's start-up line on stderr."""
    buf = ""
    async for chunk in TextReceiveStream(stream):
        buf += chunk
        seen.append(chunk)
        for line in buf.splitlines():
            if " MCP at http://" in line:
                return line.split(" MCP at ", 1)[1].split(";", 1)[0].strip()
    raise AssertionError("the server exited without serving: " + "".join(seen))


async def drain(stream: anyio.abc.ByteReceiveStream, seen: list[str]) -> None:
    async for chunk in TextReceiveStream(stream):
        seen.append(chunk)


async def test_http_on_loopback(tmp_path: Path) -> None:
    cmd = [python(), *gm_mcp_args("--transport", "http", "--port", "0")]
    seen: list[str] = []
    with anyio.fail_after(TEST_TIMEOUT):
        proc = await anyio.open_process(
            cmd, env=server_env(tmp_path), cwd=str(tmp_path), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
        )
        try:
            assert proc.stderr is not None
            url = await read_url(proc.stderr, seen)
            assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), url
            async with anyio.create_task_group() as tg:
                tg.start_soon(drain, proc.stderr, seen)
                async with Client(url, read_timeout_seconds=CALL_TIMEOUT) as c:
                    names = [t.name for t in (await c.list_tools()).tools]
                    assert "new_game" in names and "resume_session" in names
                    r = await c.call_tool("get_status", {})
                    assert r.is_error and "No game in progress" in text(r)
                    r = await c.call_tool("new_game", {"seed": 3})
                    assert not r.is_error and structured(r)["seat"] == "home" and structured(r)["token"].startswith("gms_")
                    sid = structured(r)["session"]
                    r = await c.call_tool("call_play", {"play": "seven", "colour": "red"})
                    assert r.is_error and "[CORE-ARGS]" in text(r)
                    legal = structured(await c.call_tool("legal_actions", {}))["legal"]
                    assert legal
                    board = await c.read_resource("gm://session/board")
                    assert sid in board.contents[0].text  # type: ignore[union-attr]
                # DNS-rebinding protection: a request naming another host is refused
                async with httpx2.AsyncClient() as http:
                    resp = await http.post(url, headers={"Host": "attacker.example"}, json={})
                    assert resp.status_code in (400, 403, 421), resp.status_code
                tg.cancel_scope.cancel()
        finally:
            proc.terminate()
            with anyio.move_on_after(30):
                await proc.wait()
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
            await proc.aclose()
