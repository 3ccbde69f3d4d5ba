"""``gm mcp`` over stdio reads each message (line) within :data:`~gm.core.files.MESSAGE_LIMIT` bytes
(issue #36: ``gm mcp < /dev/zero`` grew until MemoryError): a longer line is dropped with a JSON-RPC
parse error and the server goes on serving the messages after it."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp_helpers import CALL_TIMEOUT, TEST_TIMEOUT, gm_mcp_args, python, server_env, structured

from gm.core.files import MESSAGE_LIMIT, FileTooLarge, read_line_bytes

HUGE = MESSAGE_LIMIT * 2 + 1
REFUSED = f"Parse error: [CORE-FILE] a message of {HUGE} bytes is longer than 1 MiB, the most gm reads: not read"


def test_a_line_over_the_limit_is_read_to_its_end_and_dropped_in_bounded_reads() -> None:
    asked: list[int] = []

    class Stream(io.BytesIO):
        def readline(self, size: int | None = -1, /) -> bytes:
            asked.append(-1 if size is None else size)
            return super().readline(size)

    s = Stream(b"a" * 10 + b"\n" + b"b" * 11 + b"\n" + b"c" * 25 + b"\n" + b"d" * 11)
    assert read_line_bytes(s, 10) == b"a" * 10 + b"\n"  # exactly the limit: read
    with pytest.raises(FileTooLarge, match=r"^\[CORE-FILE\] a line of 11 bytes is longer than 10 bytes, the most gm reads: not read$"):
        read_line_bytes(s, 10)
    with pytest.raises(FileTooLarge, match="a message of 25 bytes"):
        read_line_bytes(s, 10, "a message")
    with pytest.raises(FileTooLarge, match="of 11 bytes"):  # a too-long last line without its newline
        read_line_bytes(s, 10)
    assert read_line_bytes(s, 10) == b""
    assert all(0 < n <= 1024 * 1024 for n in asked), "every read is bounded"


def _request(id_: int, method: str, params: dict[str, Any] | None = None) -> bytes:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if id_:
        msg["id"] = id_
    if params is not None:
        msg["params"] = params
    return json.dumps(msg).encode() + b"\n"


def test_a_huge_line_gets_a_parse_error_and_the_messages_after_it_are_served(tmp_path: Path) -> None:
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    feed = b"x" * HUGE + b"\n" + _request(1, "initialize", init) + _request(0, "notifications/initialized") + _request(2, "tools/list")
    # stdin stays open until the last answer is in (at end of input the SDK may end the session before
    # answering what it has read: that race is not what this test is about)
    err = (tmp_path / "stderr").open("wb")
    proc = subprocess.Popen([python(), *gm_mcp_args()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                            env=server_env(tmp_path), cwd=tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    guard = threading.Timer(TEST_TIMEOUT, proc.kill)  # a server that never answers fails the test, never hangs it
    guard.start()
    raw: list[bytes] = []
    try:
        proc.stdin.write(feed)
        proc.stdin.flush()
        while len(raw) < 3:
            line = proc.stdout.readline()
            if not line:
                break
            raw.append(line)
    finally:
        guard.cancel()
        proc.stdin.close()
        try:
            proc.wait(timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        err.close()
    out = [json.loads(line) for line in raw]
    assert out[0] == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": REFUSED}}, raw[:1]
    assert [m.get("id") for m in out[1:]] == [1, 2] and "error" not in out[1] and "error" not in out[2]
    assert "new_game" in [t["name"] for t in out[2]["result"]["tools"]]
    assert sum(len(line) for line in raw) < 200_000, "the huge line is not echoed"
    stderr = (tmp_path / "stderr").read_text(errors="replace")
    assert proc.returncode == 0 and "Traceback" not in stderr, stderr[-2000:]


@pytest.mark.anyio
async def test_the_real_client_plays_after_a_huge_line(tmp_path: Path) -> None:
    """The real ``mcp`` client over stdio, on a server whose stdin first carried a line over the limit."""
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"{" * HUGE + b"\n")
    server = " ".join(shlex.quote(a) for a in [python(), *gm_mcp_args()])
    params = StdioServerParameters(command="sh", args=["-c", f"cat {shlex.quote(str(huge))} - | exec {server}"],
                                   env=server_env(tmp_path), cwd=str(tmp_path))
    with anyio.fail_after(TEST_TIMEOUT):
        async with Client(params, read_timeout_seconds=CALL_TIMEOUT) as c:
            r = await c.call_tool("new_game", {"game": "brawl"})
            assert not r.is_error and structured(r)["game"] == "brawl"
            r = await c.call_tool("legal_actions", {})
            assert not r.is_error and structured(r)["legal"]
