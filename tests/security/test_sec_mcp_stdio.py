"""Issue #15 through the real MCP client over stdio (``python -m gm mcp``, the ``mcp`` SDK's
client): a seat's world does not depend on the bot's sealed pick, and arguments nested 1,000
levels deep get a clear CORE-ARGS error (the server lives on)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from sec_helpers import SECRET_KEY, Scripted, assert_same_world, mask

from gm.core.tools import call_for_action
from gm.session import SeedSecret, Session

pytestmark = pytest.mark.anyio
TIMEOUT = 60.0


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _server(home: Path) -> StdioServerParameters:
    env = {"GM_HOME": str(home), "GM_SECRET_KEY": SECRET_KEY, "PATH": os.environ.get("PATH", ""), "HOME": str(home),
           "PYTHONUNBUFFERED": "1"}
    env.update({k: os.environ[k] for k in ("PYTHONPATH", "LANG", "LC_ALL", "VIRTUAL_ENV") if k in os.environ})
    return StdioServerParameters(command=sys.executable, args=["-m", "gm", "mcp"], env=env, cwd=str(home))


def _data(result: Any) -> str:
    texts = "\n".join(getattr(c, "text", "") for c in result.content)
    return json.dumps(result.structured_content, sort_keys=True) + "\n" + texts


def _play_call_locked(home: Path, bot_pick: str) -> str:
    """A hidden-seed Grid Football game whose bot has locked ``bot_pick`` for the first play call."""
    human = {"coin_call": "heads", "kick_choice": "receive", "kick_pick": "left yellow", "number_pick": "number 5"}
    bot = {"coin_call": "heads", "kick_choice": "kick", "kick_pick": "left yellow", "number_pick": "number 1",
           "play_call": bot_pick}
    secret = SeedSecret(seed=99, salt="0f" * 16, bot_seed=1, nonce_seed=None, practice=False)
    s = Session.create("grid-football", secret=secret, players={"away": "bot:default"}, home=home, id="sec-mcp",
                       bots={"away": Scripted(lambda st, seat: bot[st.decision(seat)])})
    while s.state.decision("home") != "play_call":
        tool, args = call_for_action(s.tools, s.state.parse_action(human[s.state.decision("home")]))
        assert s.call(tool, args, "home")["ok"]
    assert s.commitments().get("away")
    return s.id


async def _seen_over_stdio(home: Path, sid: str) -> dict[str, str]:
    seen: dict[str, str] = {}
    async with Client(_server(home), read_timeout_seconds=TIMEOUT) as c:
        with anyio.fail_after(TIMEOUT):
            seen["resume"] = _data(await c.call_tool("resume_session", {"session_id": sid}))
            for uri in ("gm://session/board", "gm://session/state"):
                res = await c.read_resource(uri)
                seen[uri] = "\n".join(getattr(x, "text", "") for x in res.contents)
            for tool, args in (("get_status", {}), ("get_board", {"full": True}), ("legal_actions", {}),
                               ("get_rules", {"topic": "commitment"}), ("call_play", {"play": 9, "colour": "red"})):
                seen[f"{tool} {args}"] = _data(await c.call_tool(tool, args))
    return {k: mask(v, [home]) for k, v in seen.items()}


async def test_the_bots_sealed_pick_is_not_seen_over_stdio(tmp_path: Path) -> None:
    worlds = []
    for i, pick in enumerate(("play 1 red", "play 3 black")):
        home = tmp_path / str(i)
        sid = _play_call_locked(home, pick)
        worlds.append(await _seen_over_stdio(home, sid))
    assert_same_world(worlds[0], worlds[1], "grid-football play call over MCP stdio")


def test_deeply_nested_arguments_over_raw_stdio(tmp_path: Path) -> None:
    """JSON-RPC written by hand (the SDK's client refuses to send such arguments): nesting the SDK
    still parses gets CORE-ARGS from gm and leaves the session readable; deeper messages the SDK's
    transport drops unanswered (outside gm) - either way the server lives on."""
    import subprocess

    p = subprocess.Popen([sys.executable, "-m", "gm", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, env=_server(tmp_path).env, text=True)

    def send(text: str) -> None:
        assert p.stdin is not None
        p.stdin.write(text + "\n")
        p.stdin.flush()

    def answer(want: int) -> dict[str, Any]:
        assert p.stdout is not None
        while True:
            msg = json.loads(p.stdout.readline())
            if msg.get("id") == want:
                return dict(msg)

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "redteam", "version": "1"}}}))
        answer(1)
        send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                         "params": {"name": "new_game", "arguments": {"game": "quarterback"}}}))
        sid = answer(2)["result"]["structuredContent"]["session"]
        for n, (tool, depth) in enumerate([("get_status", 40), ("get_status", 150), ("move_piece", 150),
                                           ("new_game", 150), ("get_status", 1000)], start=10):
            deep = '{"a":' * depth + "1" + "}" * depth
            params = '{"name":"' + tool + '","arguments":{"piece":' + deep + ',"to":"A1"}}'
            send('{"jsonrpc":"2.0","id":' + str(n) + ',"method":"tools/call","params":' + params + "}")
        send(json.dumps({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {"name": "get_status", "arguments": {}}}))
        seen = {}
        while not {10, 11, 12, 13, 99} <= seen.keys():  # answers may come in any order (14, too deep to parse, has none)
            assert p.stdout is not None
            msg = json.loads(p.stdout.readline())
            if "id" in msg:
                seen[msg["id"]] = msg
        for n in (10, 11, 12, 13):
            data = seen[n]["result"]["structuredContent"]
            assert seen[n]["result"]["isError"] and data["error"]["rule"] == "CORE-ARGS", data
        assert not seen[99]["result"]["isError"]
    finally:
        p.kill()
        p.wait()
    Session.open(sid, home=tmp_path)  # the session (and its transcript) still open
