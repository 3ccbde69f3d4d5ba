"""What gm tells a client besides answers, over the wire with the real ``mcp`` client: log messages at
the client's level, progress per bot move, ``notifications/resources/updated`` when any seat of its
game moves (its own call, another client's, another process's), the list-changed notices the
capabilities promise, and results that carry the board app's view only for a client that renders it.
Both servers: ``gm mcp`` over stdio (both protocol eras) and ``gm serve`` over HTTP."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.extension import advertise
from mcp_helpers import CALL_TIMEOUT, HttpServer, gm_mcp_args, pick_call, python, server_env, structured

from gm.mcp_server import app as mcp_app
from gm.session import Session

# (logging and resources/subscribe are the handshake era's, deprecated by 2026-07-28: tested on purpose)
pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")]
BOARD, STATE = "gm://session/board", "gm://session/state"
#: a notice gm owes arrives well within this (it polls other processes every second)
NOTICE = 30.0


class Heard:
    """Everything a client was sent besides answers."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.logs: list[types.LoggingMessageNotificationParams] = []
        self.changed = anyio.Event()

    async def message(self, message: Any) -> None:
        self.messages.append(message)
        self.changed.set()
        self.changed = anyio.Event()

    async def log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.logs.append(params)

    def updated(self) -> list[str]:
        return [str(m.params.uri) for m in self.messages if isinstance(m, types.ResourceUpdatedNotification)]

    def count(self, kind: type) -> int:
        return sum(1 for m in self.messages if isinstance(m, kind))

    async def until(self, test: Any, timeout: float = NOTICE) -> None:
        with anyio.fail_after(timeout):
            while not test():
                await self.changed.wait()


def stdio(home: Path, *args: str) -> StdioServerParameters:
    return StdioServerParameters(command=python(), args=gm_mcp_args(*args), env=server_env(home), cwd=str(home))


@asynccontextmanager
async def connect(server: Any, heard: Heard | None = None, *, mode: str = "legacy", apps: bool = False, **kw: Any) -> AsyncIterator[Client]:
    heard = heard or Heard()
    ext = [advertise(mcp_app.EXTENSION_ID, {"mimeTypes": [mcp_app.APP_MIME]})] if apps else None
    async with Client(server, mode=mode, read_timeout_seconds=CALL_TIMEOUT, message_handler=heard.message,
                      logging_callback=heard.log, extensions=ext, **kw) as c:
        yield c


async def move(c: Client, game: str, rng: random.Random, **kw: Any) -> dict[str, Any]:
    legal = structured(await c.call_tool("legal_actions", {}))["legal"]
    name, args = pick_call(game, legal, rng)
    r = await c.call_tool(name, args, **kw)
    assert not r.is_error, r
    return structured(r)


# ------------------------------------------------------------------ logging
@pytest.mark.parametrize("where", ["stdio", "serve"])
async def test_log_messages_at_the_clients_level(tmp_path: Path, where: str) -> None:
    async def session(c: Client, heard: Heard) -> None:
        r = structured(await c.call_tool("new_game", {"seed": 3, "seat": "away"}))
        assert heard.logs == [], "before a level is set: warnings and worse only"
        await c.set_logging_level("info")
        await c.call_tool("call_coin_toss", {"call": "heads"})
        await heard.until(lambda: any(p.level == "info" for p in heard.logs), 10 if where == "serve" else NOTICE)
        info = [p for p in heard.logs if p.level == "info"]
        assert info[0].logger == "gm" and info[0].data["tool"] == "call_coin_toss" and info[0].data["session"] == r["session"]
        assert info[0].data["message"].startswith("call_coin_toss: heads")
        await c.set_logging_level("notice")
        heard.logs.clear()
        await c.call_tool("call_coin_toss", {"call": "sideways"})
        await heard.until(lambda: bool(heard.logs))
        assert [p.level for p in heard.logs] == ["notice"] and "refused [CORE-ARGS]" in heard.logs[0].data["message"]

    heard = Heard()
    if where == "stdio":
        async with connect(stdio(tmp_path), heard) as c:
            await session(c, heard)
    else:
        with HttpServer(tmp_path, "--store", "memory:", "--rate", "0") as server:
            async with connect(server.url, heard) as c:
                await session(c, heard)


async def test_a_2026_client_opts_in_per_request(tmp_path: Path) -> None:
    heard = Heard()
    async with connect(stdio(tmp_path), heard, mode="auto", log_level="notice") as c:
        assert c.protocol_version >= "2026"
        await c.call_tool("new_game", {"seed": 3, "seat": "away"})
        await c.call_tool("call_coin_toss", {"call": "sideways"})
        assert [p.level for p in heard.logs] == ["notice"], heard.logs  # delivered on the request's own stream


# ----------------------------------------------------------------- progress
@pytest.mark.parametrize("where", ["stdio", "serve"])
async def test_progress_per_bot_move(tmp_path: Path, where: str) -> None:
    async def session(c: Client) -> None:
        seen: list[tuple[float, str | None]] = []

        async def progress(done: float, total: float | None, message: str | None) -> None:
            seen.append((done, message))

        async def bot_moves() -> int:
            state = json.loads((await c.read_resource(STATE)).contents[0].text)  # type: ignore[union-attr]
            return sum(1 for seat, _ in state["log"] if seat == "home")

        await c.call_tool("new_game", {"seed": 3, "seat": "away"})
        rng = random.Random(4)
        total = 0
        for _ in range(6):
            seen.clear()
            before = await bot_moves()
            await move(c, "grid-football", rng, progress_callback=progress)
            made = await bot_moves() - before
            await heard_all(seen, made)
            assert [d for d, _ in seen] == [float(i) for i in range(1, made + 1)]
            assert all(m == "home (bot:default) has moved" for _, m in seen), seen
            total += made
        assert total >= 2, "the bot moved in answer to some of the moves"

    if where == "stdio":
        async with connect(stdio(tmp_path)) as c:
            await session(c)
    else:
        with HttpServer(tmp_path, "--store", "memory:", "--rate", "0") as server:
            async with connect(server.url) as c:
                await session(c)


async def heard_all(seen: list[Any], count: int) -> None:
    """Progress sent on the client's standalone stream (gm serve) may land just after the answer."""
    with anyio.fail_after(NOTICE):
        while len(seen) < count:
            await anyio.sleep(0.02)


# ------------------------------------------------------------ subscriptions
async def test_stdio_subscribers_hear_their_moves_and_another_process(tmp_path: Path) -> None:
    s = Session.create("grid-football", seed=3, players={"home": "human", "away": "human"}, home=tmp_path)
    heard = Heard()
    async with connect(stdio(tmp_path, "--session", s.id, "--seat", "home"), heard) as c:
        caps = c.server_capabilities
        assert caps.resources is not None and caps.resources.subscribe and caps.resources.list_changed
        await c.subscribe_resource(BOARD)
        await c.subscribe_resource(STATE)
        # another process moves the other side (gm call, as away): the client hears of it
        p = subprocess.run([python(), "-m", "gm", "call", s.id, "call_coin_toss", '{"call": "heads"}', "--as", "away"],
                           env=server_env(tmp_path), capture_output=True, text=True, timeout=60, check=False)
        assert p.returncode == 0, p.stderr
        await heard.until(lambda: set(heard.updated()) == {BOARD, STATE})
        board = (await c.read_resource(BOARD)).contents[0].text  # type: ignore[union-attr]
        assert "you play home" in board and "heads" in json.loads((await c.read_resource(STATE)).contents[0].text)["log"][0][1]  # type: ignore[union-attr]
        # its own move: heard at once (before the answer), and an unsubscribed resource no more
        await c.unsubscribe_resource(STATE)
        heard.messages.clear()
        status = structured(await c.call_tool("get_status", {}))
        assert heard.updated() == [], "reading is not a move"
        if any(e["seat"] == "home" for e in status["expected"]):
            await move(c, "grid-football", random.Random(1))
            await heard.until(lambda: BOARD in heard.updated())
            assert STATE not in heard.updated()


async def test_a_2026_client_listens(tmp_path: Path) -> None:
    from mcp.client.subscriptions import ResourceUpdated, ToolsListChanged

    async with connect(stdio(tmp_path), mode="auto") as c:
        assert c.protocol_version >= "2026"
        caps = c.server_capabilities  # gm's own server/discover: what it sends, as in the handshake era
        assert caps.prompts is not None and caps.prompts.list_changed is False
        assert caps.resources is not None and caps.resources.subscribe and caps.resources.list_changed
        async with c.listen(resource_subscriptions=[BOARD], tools_list_changed=True) as sub:
            await c.call_tool("new_game", {"game": "brawl", "seed": 2})
            events = []
            with anyio.fail_after(NOTICE):
                while not (any(isinstance(e, ResourceUpdated) for e in events) and any(isinstance(e, ToolsListChanged) for e in events)):
                    events.append(await sub.__anext__())
            assert all(e.uri == BOARD for e in events if isinstance(e, ResourceUpdated))


async def test_serve_subscribers_hear_the_other_player_in_this_process_and_another(tmp_path: Path) -> None:
    store = f"sqlite:{tmp_path / 'gm.sqlite'}"
    with HttpServer(tmp_path, "--store", store, "--rate", "0") as one, HttpServer(tmp_path, "--store", store, "--rate", "0") as two:
        heard = Heard()
        async with connect(one.url, heard) as a:
            made = structured(await a.call_tool("new_game", {"game": "grid-football", "seed": 3, "opponent": "human"}))
            code = made["join_codes"]["away"]
            await a.subscribe_resource(BOARD)
            for url in (one.url, two.url):  # the other player joins through this process, then another one
                async with connect(url) as b:
                    if url == one.url:
                        joined = structured(await b.call_tool("join_game", {"code": code, "accept_practice": True}))  # (seed 3: a practice game)
                        token = joined["token"]
                    else:
                        assert not (await b.call_tool("resume_session", {"token": token})).is_error
                    heard.messages.clear()
                    status = structured(await b.call_tool("get_status", {}))
                    assert status["seat"] == "away"
                    if not any(e["seat"] == "away" for e in status["expected"]):
                        await move(a, "grid-football", random.Random(2))  # home's move, so that away must act
                        await heard.until(lambda: BOARD in heard.updated())
                        heard.messages.clear()
                    await move(b, "grid-football", random.Random(3))
                    await heard.until(lambda: heard.updated() == [BOARD])


# --------------------------------------------------- capabilities that are true
@pytest.mark.parametrize("where", ["stdio", "serve"])
async def test_what_is_advertised_is_sent(tmp_path: Path, where: str) -> None:
    heard = Heard()

    async def session(c: Client) -> None:
        caps = c.server_capabilities
        assert caps.tools is not None and caps.tools.list_changed
        assert caps.resources is not None and caps.resources.subscribe and caps.resources.list_changed
        assert caps.prompts is not None and not caps.prompts.list_changed
        assert caps.logging is not None and caps.completions is not None
        await c.call_tool("new_game", {"game": "quarterback", "seed": 1})
        await heard.until(lambda: heard.count(types.ToolListChangedNotification) == 1 and heard.count(types.ResourceListChangedNotification) == 1)
        titles = [r.title for r in (await c.list_resources()).resources]
        assert titles[2].startswith("Quarter") or "Quarter" in titles[2], titles

    if where == "stdio":
        async with connect(stdio(tmp_path), heard) as c:
            await session(c)
    else:
        with HttpServer(tmp_path, "--store", "memory:", "--rate", "0") as server:
            async with connect(server.url, heard) as c:
                await session(c)
            async with httpx2.AsyncClient() as http:
                r = await http.post(server.url, json={"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {
                    "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}},
                    headers={"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "server/discover"})
            found = r.json()["result"]
            assert found["supportedVersions"] == ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
            assert found["capabilities"] == {"completions": {}, "logging": {}, "prompts": {"listChanged": False},
                                             "resources": {"listChanged": True, "subscribe": True}, "tools": {"listChanged": True}}


# ------------------------------------------------- apps, or not, per client
@pytest.mark.parametrize("where", ["gm-mcp", "serve"])
async def test_a_client_without_the_extension_sees_no_change(tmp_path: Path, where: str) -> None:
    """Two clients play the same practice game; only the one that announced MCP Apps gets _meta (the
    view, the tool links), the app tools and the ui:// resource; content and structure are the same."""

    async def play(c: Client) -> tuple[list[Any], list[Any], list[str], list[str]]:
        results, metas = [], []
        rng = random.Random(9)
        r = await c.call_tool("new_game", {"game": "grid-football", "seed": 11, "seat": "away"})
        for _ in range(8):
            data = structured(r)
            results.append((data | {"session": None, "token": None}, [x.text for x in r.content if hasattr(x, "text")]))  # type: ignore[union-attr]
            metas.append(r.meta)
            if not data.get("expected"):
                break
            legal = structured(await c.call_tool("legal_actions", {}))["legal"]
            name, args = pick_call("grid-football", legal, rng)
            r = await c.call_tool(name, args)
        tools = [t.name for t in (await c.list_tools()).tools]
        uris = [str(x.uri) for x in (await c.list_resources()).resources]
        return results, metas, tools, uris

    async def both(url_or_params: Any, fresh: Any) -> None:
        async with connect(url_or_params) as plain:
            p_results, p_metas, p_tools, p_uris = await play(plain)
        async with connect(fresh, apps=True) as rich:
            a_results, a_metas, a_tools, a_uris = await play(rich)
            tools = {t.name: t for t in (await rich.list_tools()).tools}
        assert [r[0] for r in p_results] == [r[0] for r in a_results]
        assert all(m is None or mcp_app.VIEW_META not in m for m in p_metas)
        assert all(m is not None and m[mcp_app.VIEW_META]["seat"] == "away" for m in a_metas)
        assert mcp_app.VIEW_TOOL not in p_tools and [t for t in a_tools if t not in p_tools] == [mcp_app.VIEW_TOOL, mcp_app.PLAY_TOOL]
        assert mcp_app.APP_URI not in p_uris and [u for u in a_uris if u not in p_uris] == [mcp_app.APP_URI]
        assert tools["call_play"].meta == {"ui": {"resourceUri": mcp_app.APP_URI, "visibility": ["model", "app"]}, "ui/resourceUri": mcp_app.APP_URI}

    if where == "gm-mcp":  # gm mcp's server in process (its stdio wiring is the other tests')
        from gm.mcp_server import GameHost
        from gm.mcp_server.server import build_server

        await both(build_server(GameHost(home=tmp_path / "a")), build_server(GameHost(home=tmp_path / "b")))
    else:
        with HttpServer(tmp_path, "--store", "memory:", "--rate", "0") as server:
            await both(server.url, server.url)
