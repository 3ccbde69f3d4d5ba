"""The MCP wiring through the SDK's own client, in process: tools, results, errors, resources, prompt."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client, MCPError
from mcp_helpers import structured, text

from gm.mcp_server import SESSION_TOOLS, GameHost
from gm.mcp_server.server import build_server

pytestmark = pytest.mark.anyio


async def test_tools_results_and_errors(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    async with Client(build_server(host)) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        assert list(tools) == [t["name"] for t in host.mcp_tools()]
        assert tools["get_board"].annotations is not None and tools["get_board"].annotations.read_only_hint
        assert tools["call_play"].input_schema == host.input_schema("call_play")

        r = await c.call_tool("get_board", {})
        assert r.is_error and "new_game" in text(r) and structured(r)["error"]["rule"] == "CORE-MCP"

        r = await c.call_tool("new_game", {"seed": 7})
        assert not r.is_error, text(r)
        data = structured(r)
        assert data["ok"] and data["seat"] == "home" and data["session"] in text(r)
        assert data["board"].splitlines()[0] in text(r)

        r = await c.call_tool("call_play", {"play": "one", "colour": "red"})
        assert r.is_error
        err = structured(r)["error"]
        assert err["rule"] == "CORE-ARGS" and err["legal"]
        assert text(r).startswith("Rejected [CORE-ARGS]: play:") and "legal:" in text(r)

        r = await c.call_tool("legal_actions", {})
        assert not r.is_error and structured(r)["legal"]


async def test_switching_game_announces_the_new_tools(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    notes: list[Any] = []

    async def on_message(message: Any) -> None:
        notes.append(message)

    async with Client(build_server(host), mode="legacy", message_handler=on_message) as c:
        assert c.server_capabilities.tools is not None and c.server_capabilities.tools.list_changed
        r = await c.call_tool("new_game", {"game": "brawl", "seed": 1})
        assert not r.is_error, text(r)
        with anyio.fail_after(30):
            while not any(isinstance(n, types.ToolListChangedNotification) for n in notes):
                await anyio.sleep(0.01)
        names = [t.name for t in (await c.list_tools()).tools]
        assert names[: len(SESSION_TOOLS)] == list(SESSION_TOOLS) and "play_cards" in names and "call_play" not in names
        assert not (await c.call_tool("legal_actions", {})).is_error


async def test_switching_game_reaches_listen_streams(tmp_path: Path) -> None:
    """2026-era clients hear of list changes on a ``subscriptions/listen`` stream."""
    from mcp.client.subscriptions import ToolsListChanged

    host = GameHost(home=tmp_path)
    async with Client(build_server(host)) as c:
        assert c.protocol_version >= "2026"
        async with c.listen(tools_list_changed=True) as sub:
            r = await c.call_tool("new_game", {"game": "quarterback", "seed": 1})
            assert not r.is_error, text(r)
            with anyio.fail_after(30):
                event = await sub.__anext__()
            assert isinstance(event, ToolsListChanged)
        assert "pass_ball" in [t.name for t in (await c.list_tools()).tools]


async def test_resources_and_prompt(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    async with Client(build_server(host)) as c:
        uris = [r.uri for r in (await c.list_resources()).resources]
        assert uris[:4] == ["gm://session/board", "gm://session/state", "gm://rules", "gm://quickstart"]
        templates = [t.uri_template for t in (await c.list_resource_templates()).resource_templates]
        assert templates == ["gm://games/{game}/rules", "gm://games/{game}/quickstart", "gm://games/{game}/rules/{topic}"]
        rules = await c.read_resource("gm://rules")
        assert "GF-" in rules.contents[0].text  # type: ignore[union-attr]
        await c.call_tool("new_game", {"seed": 3})
        board = await c.read_resource("gm://session/board")
        assert "you play home" in board.contents[0].text  # type: ignore[union-attr]
        with pytest.raises(MCPError, match="no such resource"):
            await c.read_resource("gm://nothing")

        prompts = (await c.list_prompts()).prompts
        assert [p.name for p in prompts] == ["referee"]
        assert {a.name for a in prompts[0].arguments or []} == {"game", "seat", "session"}
        got = await c.get_prompt("referee", {})
        body = got.messages[0].content.text  # type: ignore[union-attr]
        assert host.session is not None and host.session.id in body and "referee" in body
        other = await c.get_prompt("referee", {"game": "quarterback", "seat": "blue"})
        assert "The user plays blue" in other.messages[0].content.text  # type: ignore[union-attr]
        with pytest.raises(MCPError):
            await c.get_prompt("referee", {"game": "quarterback", "seat": "green"})
        with pytest.raises(MCPError):
            await c.get_prompt("narrator", {})
