"""Optional tool arguments in a form generic MCP clients can fill (issue #17).

A client that builds a form from ``inputSchema`` (the MCP Inspector, chat apps) picks each
property's input by its top-level ``type``; a property without one (pydantic's ``anyOf [T, null]``)
becomes a text box and its value arrives as a string, which gm rightly rejects.  The MCP export
declares an optional argument by its own type, so ``seed=3`` arrives as the integer 3.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_helpers import structured, text

from gm.core.registry import all_games, find_game
from gm.core.schemas import json_schema, to_mcp, to_openai
from gm.core.tools import call_for_action
from gm.mcp_server import GameHost
from gm.mcp_server.server import build_server
from gm.session import Session

pytestmark = pytest.mark.anyio


def fill(schema: dict[str, Any], typed: dict[str, str]) -> dict[str, Any]:
    """What a form-building client sends for text typed into its form: each value converted by its
    property's top-level ``type`` (no type: the text as it is)."""
    out: dict[str, Any] = {}
    for name, raw in typed.items():
        kind = schema["properties"][name].get("type")
        kind = next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind
        if kind == "integer":
            out[name] = int(raw)
        elif kind == "number":
            out[name] = float(raw)
        elif kind == "boolean":
            out[name] = raw == "true"
        elif kind in ("object", "array"):
            out[name] = json.loads(raw)
        else:
            out[name] = raw
    return out


def _nodes(node: Any) -> Any:
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _nodes(v)
    elif isinstance(node, list):
        for v in node:
            yield from _nodes(v)


def test_every_property_of_every_tool_has_a_type() -> None:
    host = GameHost()
    entries = host.mcp_tools() + [e for g in all_games() for e in to_mcp(g.tools())]
    for entry in entries:
        schema = entry["inputSchema"]
        assert "$defs" not in schema and not any("$ref" in n for n in _nodes(schema)), entry["name"]
        for node in _nodes(schema):
            for name, prop in (node.get("properties") or {}).items():
                assert "type" in prop, (entry["name"], name, prop)
                assert prop.get("default", 0) is not None, (entry["name"], name)
    wire = {e["name"]: e["inputSchema"] for e in host.mcp_tools()}
    assert wire["new_game"]["properties"]["seed"] == {
        "type": "integer", "minimum": 0, "maximum": 2**53,
        "description": "a practice game with this seed: reproducible, but the bot's picks are predictable; "
        "empty: a hidden random seed, revealed when the game ends",
    }  # fmt: skip
    assert wire["new_game"]["properties"]["rules"]["type"] == "object"
    assert wire["new_game"].get("required", []) == []
    assert wire["list_sessions"]["properties"]["limit"]["type"] == "integer"
    gf = {e["name"]: e["inputSchema"] for e in to_mcp(find_game("grid-football").tools())}
    assert gf["call_play"]["properties"]["lateral"]["type"] == "integer" and gf["call_play"]["required"] == ["play", "colour"]
    qb = {e["name"]: e["inputSchema"] for e in to_mcp(find_game("quarterback").tools())}
    assert qb["move_piece"]["properties"]["via"] == {
        "type": "array", "items": {"type": "string"},
        "description": "optional squares on the way, in order (each leg a straight line); without it the engine "
        "takes the straight route, or else the first legal one",
    }  # fmt: skip
    # the pydantic form a client cannot fill (what the export used to send), and OpenAI strict mode's
    # nullable form, which it keeps (strict mode needs every property required, optional ones nullable)
    spec = next(t for t in find_game("grid-football").tools() if t.name == "call_play")
    assert "type" not in json_schema(spec)["properties"]["lateral"]
    strict = next(e for e in to_openai([spec]))["function"]["parameters"]
    assert strict["properties"]["lateral"]["anyOf"][1] == {"type": "null"} and "lateral" in strict["required"]


async def test_optional_arguments_typed_into_a_form_arrive_typed(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    async with Client(build_server(host)) as c:
        schemas = {t.name: t.input_schema for t in (await c.list_tools()).tools}
        args = fill(schemas["new_game"], {"seed": "3", "rules": '{"kick_distance": 50}'})
        assert args == {"seed": 3, "rules": {"kick_distance": 50}}
        r = await c.call_tool("new_game", args)
        assert not r.is_error, text(r)
        data = structured(r)
        assert data["seed"] == 3
        session = Session.open(data["session"], home=tmp_path, record=False)
        assert session.public_seed == 3 and session.state.rules.kick_distance == 50

        r = await c.call_tool("list_sessions", fill(schemas["list_sessions"], {"limit": "1"}))
        assert not r.is_error and len(structured(r)["sessions"]) == 1

        game = find_game("grid-football")
        answers = {"coin_call": "heads", "kick_choice": "receive", "kick_pick": "left red", "number_pick": "number 1"}  # (5 matches the bot: a return touchdown ends the game)
        expected = data["expected"]
        for _ in range(6):  # to home's first play call, answering what the engine expects of home
            decision = next(e["decision"] for e in expected if e["seat"] == "home")
            if decision == "play_call":
                break
            name, call_args = call_for_action(game.tools(), game.parse_action(answers[decision]))
            r = await c.call_tool(name, call_args)
            assert not r.is_error, text(r)
            expected = structured(r)["expected"]
        typed = {"play": "1", "colour": "red", "lateral": "2", "direction": "right"}
        r = await c.call_tool("call_play", fill(schemas["call_play"], typed))
        assert not r.is_error, text(r)
        assert structured(r)["action"] == "play 1 red 2 right before"
