"""Many MCP clients at once on one ``gm serve`` (the official ``mcp`` client over HTTP): each plays its
own whole game, every one of its calls lands in its game and nowhere else, no client sees another's
game or secrets, and no game is reachable without its token."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from serve_helpers import ServerProcess, auth, random_call

from gm.session import KeyRing
from gm.session.sql import SqliteStore

pytestmark = pytest.mark.anyio
CLIENTS = 8
MAX_CALLS = 20


async def play_one(url: str, k: int, out: dict[int, dict[str, Any]]) -> None:
    rng = random.Random(k)
    game = ("grid-football", "gridmaster4", "brawl")[k % 3]
    seen: list[str] = []  # every text this client was shown
    calls: list[tuple[str, dict[str, Any]]] = []
    async with Client(url, read_timeout_seconds=60) as c:
        r = await c.call_tool("new_game", {"game": game, "seed": 100 + k, "opponent": "random"})
        assert not r.is_error, r
        me = r.structured_content
        assert me is not None
        seen.append(json.dumps(me))
        sid, token = me["session"], me["token"]
        for _ in range(MAX_CALLS):
            st = (await c.call_tool("legal_actions", {})).structured_content
            assert st is not None and st["seat"] == me["seat"]
            seen.append(json.dumps(st))
            calls.append(("legal_actions", {}))
            if not st.get("legal") or st.get("outcome"):
                break
            name, args = random_call(game, st["legal"], rng)
            r = await c.call_tool(name, args)
            data = r.structured_content
            assert data is not None and data["ok"], data
            seen.append(json.dumps(data))
            calls.append((name, args))
            if data.get("outcome"):
                break
        for uri in ("gm://session/state", "gm://session/board"):
            seen.append((await c.read_resource(uri)).contents[0].text)  # type: ignore[union-attr]
        listed = (await c.call_tool("list_sessions", {})).structured_content
        assert listed is not None and [g["session"] for g in listed["sessions"]] == [sid]
    out[k] = {"session": sid, "token": token, "seat": me["seat"], "calls": calls, "seen": "\n".join(seen), "game": game}


async def test_many_clients_each_play_their_own_game(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:{tmp_path / 'gm.sqlite'}", tmp_path, "--rate", "0") as server:
        out: dict[int, dict[str, Any]] = {}
        with anyio.fail_after(240):
            async with anyio.create_task_group() as tg:
                for k in range(CLIENTS):
                    tg.start_soon(play_one, server.mcp, k, out)
        sessions = {v["session"] for v in out.values()}
        assert len(sessions) == CLIENTS  # a game each
        for k, mine in out.items():
            for j, other in out.items():
                if j != k:  # another client's game id or token never reaches this one
                    assert other["session"] not in mine["seen"] and other["token"] not in mine["seen"]
        # nothing without its token, nothing with another game's token
        async with httpx2.AsyncClient(base_url=server.url) as http:
            a, b = out[0], out[1]
            assert (await http.get(f"/api/games/{a['session']}")).status_code == 401
            assert (await http.get(f"/api/games/{a['session']}", headers=auth("gms_" + "x" * 43))).status_code == 401
            r = await http.get(f"/api/games/{a['session']}", headers=auth(b["token"]))
            assert r.status_code == 403 and r.json()["error"]["message"] == "this access token does not grant that game"
            r = await http.post(f"/api/games/{a['session']}/call", headers=auth(b["token"]), json={"tool": "get_status"})
            assert r.status_code == 403
        async with Client(server.mcp, read_timeout_seconds=60) as c:
            r = await c.call_tool("resume_session", {"session_id": out[0]["session"]})
            assert r.is_error  # an id alone opens nothing this connection does not hold
            r = await c.call_tool("resume_session", {"token": "gms_nope"})
            assert r.is_error and "unknown or revoked access token" in "".join(getattr(x, "text", "") for x in r.content)
            listed = (await c.call_tool("list_sessions", {})).structured_content
            assert listed is not None and listed["sessions"] == []
    # every client's calls are in its own game's transcript, in order, and in no other
    store = SqliteStore(tmp_path / "gm.sqlite", KeyRing(bytes.fromhex(server.key)))
    try:
        for mine in out.values():
            lines = [json.loads(x) for x in store.transcript_read(mine["session"])]
            recorded = [(e["tool"], e["args"]) for e in lines if e.get("type") == "tool_call" and e["tool"] not in ("new_game",)]
            assert recorded == mine["calls"]
            assert all(e.get("seat") == mine["seat"] for e in lines if e.get("type") == "tool_call")
    finally:
        store.close()
