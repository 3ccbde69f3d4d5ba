"""Two people on two machines in one Grid Football game through ``gm serve``'s JSON API, each with their
own seat token, commit/reveal between them; attacks on secrets and access; the API's limits."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from serve_helpers import ServerProcess, auth

pytestmark = pytest.mark.anyio
SEED = 1  # (away calls heads and wins the toss: the coin shows heads)


async def new_pair(http: httpx2.AsyncClient) -> tuple[str, str, str]:
    """A game between two people: (session, home's token, away's token from the join code)."""
    r = await http.post("/api/games", json={"game": "grid-football", "opponent": "human", "seed": SEED})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["seat"] == "home" and set(made["seats"]) == {"home", "away"}
    code = made["seats"]["away"]["join_code"]
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", code) and made["seats"]["away"]["join_url"].endswith(code)
    # a practice game (the seed is the creator's): joined only with the joiner's yes; the code stays good
    r = await http.post("/api/join", json={"code": code})
    assert r.status_code == 409 and r.json()["error"]["practice"] is True, r.text
    joined = (await http.post("/api/join", json={"code": code.lower().replace("-", " "), "accept_practice": True})).json()
    assert joined["seat"] == "away" and joined["session"] == made["session"]
    assert joined["token"] not in r.text + json.dumps(made) and joined["practice_note"] == "practice game: picks and cards are predictable"
    r = await http.post("/api/join", json={"code": code})
    assert r.status_code == 404 and r.json()["error"]["message"] == "unknown or used join code"
    return made["session"], made["token"], joined["token"]


async def call(http: httpx2.AsyncClient, sid: str, token: str, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    r = await http.post(f"/api/games/{sid}/call", headers=auth(token), json={"tool": tool, "args": args or {}})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


async def to_the_kick(http: httpx2.AsyncClient, sid: str, away: str) -> None:
    assert (await call(http, sid, away, "call_coin_toss", {"call": "heads"}))["ok"]
    assert (await call(http, sid, away, "choose_kick_or_receive", {"choice": "kick"}))["ok"]


class Watcher:
    """Everything one seat can see, collected: API views, tools, query results, SSE events, MCP."""

    def __init__(self, base: str, sid: str, token: str) -> None:
        self.base, self.sid, self.token = base, sid, token
        self.events: list[str] = []

    async def sse(self, http: httpx2.AsyncClient, stop: anyio.Event) -> None:
        async with http.stream("GET", f"/api/games/{self.sid}/events?since=0", headers=auth(self.token)) as r:
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
            async for line in r.aiter_lines():
                self.events.append(line)
                if stop.is_set():
                    return

    async def world(self, http: httpx2.AsyncClient) -> str:
        parts: list[Any] = [(await http.get(f"/api/games/{self.sid}", headers=auth(self.token))).json()]
        parts.append((await http.get(f"/api/games/{self.sid}/tools", headers=auth(self.token))).json())
        for tool in ("get_status", "legal_actions", "get_board"):
            parts.append(await call(http, self.sid, self.token, tool))
        parts.append((await http.post("/api/my-games", json={"tokens": [self.token]})).json())
        async with httpx2.AsyncClient(headers=auth(self.token), timeout=60) as mhttp, Client(streamable_http_client(self.base + "/mcp", http_client=mhttp)) as c:  # type: ignore[arg-type]
            for uri in ("gm://session/state", "gm://session/board"):
                parts.append((await c.read_resource(uri)).contents[0].text)  # type: ignore[union-attr]
            r = await c.call_tool("get_status", {})
            parts.append([r.structured_content, [getattr(x, "text", "") for x in r.content]])
        parts.append([e for e in self.events if not e.startswith(":")])
        # a locked pick's commitment is SHA-256 of a random nonce and the pick: hiding, and different
        # in every game, so it is compared as "some commitment"
        text = json.dumps(parts, sort_keys=True).replace(self.sid, "SID").replace(self.token, "TOKEN")
        return re.sub(r"\b[0-9a-f]{64}\b", "SHA256", text)


async def test_two_people_play_with_commit_and_reveal(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:{tmp_path / 'gm.sqlite'}", tmp_path, "--rate", "0") as server:
        async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
            sid, home, away = await new_pair(http)
            await to_the_kick(http, sid, away)
            watch = Watcher(server.url, sid, away)
            stop = anyio.Event()
            async with anyio.create_task_group() as tg:
                tg.start_soon(watch.sse, http, stop)
                with anyio.fail_after(30):  # the stream has sent what happened so far: home's pick comes live
                    while "event: state" not in watch.events:
                        await anyio.sleep(0.02)
                r = await call(http, sid, home, "pick_kick", {"position": "left", "colour": "yellow"})
                assert r["ok"] and r["expected"] == [{"seat": "away", "decision": "kick_pick", "tools": ["pick_kick"], "player": "human"}]
                mine = (await http.get(f"/api/games/{sid}", headers=auth(home))).json()
                theirs = (await http.get(f"/api/games/{sid}", headers=auth(away))).json()
                assert mine["log"][-1] == ["home", "left yellow"] and theirs["log"][-1] == ["home", "locked"]
                # away may not act for home, nor name a seat
                bad = await call(http, sid, away, "pick_kick", {"position": "right", "colour": "green", "seat": "home"})
                assert not bad["ok"] and bad["error"]["rule"] == "CORE-ARGS"
                r = await call(http, sid, away, "pick_kick", {"position": "right", "colour": "green"})
                assert r["ok"]
                theirs = (await http.get(f"/api/games/{sid}", headers=auth(away))).json()
                assert ["home", "left yellow"] in theirs["log"]  # revealed once both picked
                with anyio.fail_after(30):
                    while not any('"move":"left yellow"' in e for e in watch.events):
                        await anyio.sleep(0.05)
                stop.set()
                await call(http, sid, home, "get_status")  # a last change lets the stream notice the stop
                tg.cancel_scope.cancel()
            events = [e for e in watch.events if e.startswith(("event:", "data:"))]
            locked = next(i for i, e in enumerate(events) if '"seat":"home"' in e and '"move":"locked"' in e)
            revealed = next(i for i, e in enumerate(events) if '"move":"left yellow"' in e)
            assert events[locked - 1] == "event: move" and events[revealed - 1] == "event: reveal" and locked < revealed
    log = "".join(server.lines)
    for secret in (home, away, sid.split("-")[-1] + "x"):
        assert secret not in log  # the access log names games and seats, never a token
    assert '"path":"/api/games/' + sid + '/call"' in log and '"seat":"away"' in log


async def test_a_seat_sees_nothing_of_the_other_seats_locked_pick(tmp_path: Path) -> None:
    """Non-interference: two games alike but for home's secret pick.  Until away has picked, away's
    whole visible world (views, tools, query results, 'my games', SSE events, MCP resources and
    results through its token) is the same in both; after the reveal it is not (the test can fail)."""
    with ServerProcess(f"sqlite:{tmp_path / 'gm.sqlite'}", tmp_path, "--rate", "0") as server:
        async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
            worlds: list[str] = []
            after: list[str] = []
            for pick in ({"position": "left", "colour": "yellow"}, {"position": "right", "colour": "green"}):
                sid, home, away = await new_pair(http)
                await to_the_kick(http, sid, away)
                watch = Watcher(server.url, sid, away)
                stop = anyio.Event()
                async with anyio.create_task_group() as tg:
                    tg.start_soon(watch.sse, http, stop)
                    with anyio.fail_after(30):  # the stream is open and has said where the game stands
                        while not any('"moves":2' in e for e in watch.events):
                            await anyio.sleep(0.02)
                    assert (await call(http, sid, home, "pick_kick", pick))["ok"]
                    with anyio.fail_after(30):
                        while not any('"move":"locked"' in e for e in watch.events):
                            await anyio.sleep(0.05)
                    worlds.append(await watch.world(http))
                    assert (await call(http, sid, away, "pick_kick", {"position": "left", "colour": "red"}))["ok"]
                    after.append(json.dumps((await http.get(f"/api/games/{sid}", headers=auth(away))).json()["log"]))
                    stop.set()
                    await call(http, sid, home, "get_status")
                    tg.cancel_scope.cancel()
            assert worlds[0] == worlds[1]
            assert after[0] != after[1]


async def test_access_errors_admin_and_limits(tmp_path: Path) -> None:
    admin = "adm-" + "z" * 40
    with ServerProcess(f"sqlite:{tmp_path / 'gm.sqlite'}", tmp_path, "--rate", "5", "--max-body", "2048", env={"GM_ADMIN_TOKEN": admin}) as server:
        async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
            assert (await http.get("/api/health")).json()["status"] == "alive"
            assert (await http.get("/api/ready")).json()["status"] == "ready"
            cat = (await http.get("/api/catalog")).json()["games"]
            assert {"grid-football", "brawl"} <= {g["game"] for g in cat}
            made = (await http.post("/api/games", json={"seed": 1})).json()
            sid, token = made["session"], made["token"]
            assert made["seats"]["away"] == {"player": "bot:default"}
            r = await http.get(f"/api/games/{sid}")
            assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")
            assert r.json()["error"]["message"].startswith("missing access token")
            assert (await http.post("/api/games", json={"game": "grid-football", "bogus": 1})).status_code == 400
            r = await http.post("/api/games", json={"game": "tiddlywinks"})
            assert r.status_code == 400 and r.json()["error"]["rule"] == "CORE-GAME"
            # one refusal shape on every surface (gm.core.errors.http_error): reason included
            assert list(r.json()["error"]) == ["status", "message", "kind", "rule", "input", "reason", "legal"]
            assert r.json()["error"]["reason"].startswith("no such game") and r.json()["error"]["input"] == "tiddlywinks"
            page = await http.get("/api/rules/tiddlywinks")  # the page's routes answer in the same shape
            assert page.status_code == 400 and page.json()["error"] == r.json()["error"]
            r = await http.post("/api/games", content=b"{" + b" " * 4000 + b"}", headers={"content-type": "application/json"})
            assert r.status_code == 413
            # the admin lists and ends games; the ended game's token then says so
            assert (await http.get("/api/admin/games")).status_code == 401
            assert (await http.get("/api/admin/games", headers=auth("nope"))).status_code == 403
            listed = (await http.get("/api/admin/games", headers=auth(admin))).json()["games"]
            assert [g["session"] for g in listed] == [sid] and "token" not in json.dumps(listed)
            assert (await http.post(f"/api/admin/games/{sid}/end", headers=auth(admin))).json()["ended"] is True
            r = await http.get(f"/api/games/{sid}", headers=auth(token))
            assert r.status_code == 410 and "was ended" in r.json()["error"]["message"]
            # rate limit: 5/s, bursts of 15
            statuses = [(await http.get("/api/catalog", headers=auth("k" * 20))).status_code for _ in range(25)]
            assert 429 in statuses and statuses[0] == 200
            r = next(iter([await http.get("/api/catalog", headers=auth("k" * 20))]))
            if r.status_code == 429:
                assert int(r.headers["retry-after"]) >= 1
    assert admin not in "".join(server.lines) and token not in "".join(server.lines)
