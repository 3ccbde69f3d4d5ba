"""Issue #36 item 1: a seat belongs to whoever holds it.

Each test plays the creator of a two-person game against a real ``gm serve`` and tries to act for,
or read, the person who joined: with everything the creator was shown (the create response, its
views, its list of games, its MCP results), through the JSON API, the MCP endpoint and the page (a
real headless Chromium).  On gm before this work the create response held the joiner's token (the
join code later handed the joiner that very token), so every one of these attacks succeeded.

Also: a practice game (a seed the creator chose) is joined only with the joiner's explicit yes, and
every seat of one is told so everywhere; a seat's holder can replace its token, and the old one is
void at once for the API, an open event stream and MCP.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from serve_attack import ServerProcess, auth, call, mcp_client, seat_tokens, structured

pytestmark = pytest.mark.anyio
NOTE = "practice game: picks and cards are predictable"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    home = tmp_path_factory.mktemp("seats")
    with ServerProcess(f"sqlite:{home / 'gm.sqlite'}", home, "--rate", "0", "--quiet") as srv:
        yield srv


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _away_locks_a_pick(http: httpx2.AsyncClient, sid: str, home: str, away: str) -> None:
    """Away calls the toss, the winner kicks, and away locks its kick pick (home has not picked: it
    is secret)."""
    r = await call(http, sid, away, "call_coin_toss", {"call": "heads"})
    assert r["ok"]
    winner = {"home": home, "away": away}[r["expected"][0]["seat"]]
    assert (await call(http, sid, winner, "choose_kick_or_receive", {"choice": "kick"}))["ok"]
    r = await call(http, sid, away, "pick_kick", {"position": "right", "colour": "green"})
    assert r["ok"] and r["expected"][0]["seat"] == "home", r


async def test_the_creator_cannot_act_for_or_read_the_joiner_over_the_api_and_mcp(server: ServerProcess) -> None:
    async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
        r = await http.post("/api/games", json={"game": "grid-football", "opponent": "human"})
        assert r.status_code == 201, r.text
        made = r.json()
        sid, mine = made["session"], made["token"]
        seen: list[Any] = [r.text]  # everything the creator is shown, from here on
        code = made["seats"]["away"]["join_code"]
        seen.append((await http.get(f"/api/games/{sid}", headers=auth(mine))).text)
        # the game waits for its joiner: nobody can move for away meanwhile (the creator holds no way to)
        joined = (await http.post("/api/join", json={"code": code})).json()
        away = joined["token"]
        assert joined["seat"] == "away" and away != mine
        await _away_locks_a_pick(http, sid, mine, away)
        # the creator looks at everything it can reach
        seen.append((await http.get(f"/api/games/{sid}", headers=auth(mine))).text)
        seen.append((await http.post("/api/my-games", json={"tokens": [mine]})).text)
        for tool in ("get_status", "legal_actions", "get_board"):
            seen.append(await call(http, sid, mine, tool))
        again = await http.post("/api/join", json={"code": code})  # the code, a second time
        assert again.status_code == 404 and again.json()["error"]["message"] == "unknown or used join code"
        seen.append(again.text)
        async with mcp_client(server.url, mine) as c:
            for uri in ("gm://session/state", "gm://session/board"):
                seen.append((await c.read_resource(uri)).contents[0].text)  # type: ignore[union-attr]
            seen.append(structured(await c.call_tool("list_sessions", {})))
        # the attack: every token the creator was shown, tried for away's seat
        for found in seat_tokens(*seen) - {mine}:
            r = await http.get(f"/api/games/{sid}", headers=auth(found))
            assert r.status_code == 401, f"the creator read {r.json().get('seat')}'s view with a token it was shown: {r.text[:300]}"
            r = await http.post(f"/api/games/{sid}/call", headers=auth(found), json={"tool": "pick_kick", "args": {"position": "left", "colour": "red"}})
            assert r.status_code == 401, f"the creator moved with a token it was shown: {r.text[:300]}"
            async with mcp_client(server.url) as c:
                assert structured(await c.call_tool("resume_session", {"token": found}))["is_error"]
        # the joiner's token is nowhere in it, and every token the creator saw is the creator's own
        text = json.dumps(seen, default=str)
        assert away not in text
        assert seat_tokens(*seen) == {mine}
        assert made["seats"]["away"] == {"player": "human", "join_code": code, "join_url": made["seats"]["away"]["join_url"]}
        assert made["seats"]["home"] == {"player": "human", "you": True}
        assert made["practice"] is False and "practice_note" not in made  # no seed: a hidden one
        assert json.loads(seen[1])["awaiting_join"] == ["away"] and json.loads(seen[2])["awaiting_join"] == []
        # the creator's own token reads home's view: away's pick is "locked" there, never its value
        view = (await http.get(f"/api/games/{sid}", headers=auth(mine))).json()
        assert view["seat"] == "home" and view["log"][-1] == ["away", "locked"]
        logs = [d["log"] for x in seen if isinstance(x, str) and x.startswith("{") and isinstance(d := json.loads(x), dict) and "log" in d]
        assert len(logs) >= 2 and all(log[-1] == ["away", "locked"] for log in logs[1:]), logs
        # ... and acts for home only: naming a seat is refused, away's view is not the creator's
        bad = await call(http, sid, mine, "pick_kick", {"position": "left", "colour": "red", "seat": "away"})
        assert not bad["ok"] and bad["error"]["rule"] == "CORE-ARGS"
        r = await http.get(f"/api/games/{sid}", headers=auth(away))
        assert r.json()["log"][-1] == ["away", "right green"]  # (the joiner sees its own pick: the test can see it)
        # over MCP the creator gets no further: a used code, and no token but its own
        async with mcp_client(server.url) as c:
            r2 = structured(await c.call_tool("join_game", {"code": code}))
            assert r2["is_error"] and "unknown or used join code" in r2["text"]
            r2 = structured(await c.call_tool("resume_session", {"token": mine}))
            assert r2["seat"] == "home"
            state = json.loads((await c.read_resource("gm://session/state")).contents[0].text)  # type: ignore[union-attr]
            assert state["log"][-1] == ["away", "locked"]


async def test_a_game_made_over_mcp_hands_out_join_codes_only(server: ServerProcess) -> None:
    async with mcp_client(server.url) as creator, mcp_client(server.url) as friend:
        made = structured(await creator.call_tool("new_game", {"game": "brawl", "opponent": "human"}))
        assert not made["is_error"], made
        mine, codes = made["token"], made["join_codes"]
        assert set(codes) == {"away"} and made["practice"] is False
        joined = structured(await friend.call_tool("join_game", {"code": codes["away"]}))
        assert not joined["is_error"] and joined["seat"] == "away", joined
        theirs = joined["token"]
        seen = [made, structured(await creator.call_tool("list_sessions", {})), structured(await creator.call_tool("get_status", {}))]
        seen.append((await creator.read_resource("gm://session/state")).contents[0].text)  # type: ignore[union-attr]
        assert theirs not in json.dumps(seen, default=str) and seat_tokens(*seen) == {mine}
        # the creator's code is spent: it cannot take the seat over, nor hold it alongside
        r = structured(await creator.call_tool("join_game", {"code": codes["away"]}))
        assert r["is_error"] and "unknown or used join code" in r["text"]


async def test_a_practice_game_is_joined_only_with_a_yes_and_every_seat_is_told(server: ServerProcess) -> None:
    async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
        made = (await http.post("/api/games", json={"game": "brawl", "opponent": "human", "seed": 77})).json()
        assert made["practice"] is True and made["practice_note"] == NOTE
        assert made["seats"]["away"]["practice_consent"] is True
        sid, mine, code = made["session"], made["token"], made["seats"]["away"]["join_code"]
        for body in ({"code": code}, {"code": code, "accept_practice": False}):
            r = await http.post("/api/join", json=body)
            assert r.status_code == 409, r.text
            err = r.json()["error"]
            assert err["practice"] is True and err["seat"] == "away" and err["game"] == "brawl"
            assert err["message"].startswith("this is a practice game: picks and cards are predictable") and "accept_practice" in err["message"]
            assert "gms_" not in r.text
        assert (await http.post("/api/join", json={"code": code, "accept_practice": "yes"})).status_code == 400
        r = await http.post("/api/join", json={"code": code, "accept_practice": True})  # the code is still good
        assert r.status_code == 200, r.text
        away = r.json()["token"]
        assert r.json()["practice_note"] == NOTE and r.json()["view"]["practice_note"] == NOTE
        for token in (mine, away):  # every seat, every surface of the API
            view = (await http.get(f"/api/games/{sid}", headers=auth(token))).json()
            assert view["practice"] is True and view["practice_note"] == NOTE and view["seed"] == 77
            assert (await call(http, sid, token, "get_status"))["practice_note"] == NOTE
            bad = await call(http, sid, token, "play_cards", {"placements": []})
            assert not bad["ok"] and bad["practice_note"] == NOTE
            assert (await http.post("/api/my-games", json={"tokens": [token]})).json()["games"][0]["practice"] is True
            async with mcp_client(server.url, token) as c:
                board = (await c.read_resource("gm://session/board")).contents[0].text  # type: ignore[union-attr]
                assert board.splitlines()[0] == NOTE
                r2 = structured(await c.call_tool("get_status", {}))
                assert r2["practice_note"] == NOTE and NOTE in r2["text"]
                r2 = structured(await c.call_tool("resume_session", {"token": token}))
                assert r2["practice_note"] == NOTE and NOTE in r2["text"]
        # a hidden-seed game says nothing of the kind
        plain = (await http.post("/api/games", json={"game": "brawl", "opponent": "human"})).json()
        view = (await http.get(f"/api/games/{plain['session']}", headers=auth(plain["token"]))).json()
        assert view["practice"] is False and "practice_note" not in view and NOTE not in json.dumps(view)
    # over MCP: join_game refuses a practice game without accept_practice, with its own rule id
    async with mcp_client(server.url) as creator, mcp_client(server.url) as friend:
        made = structured(await creator.call_tool("new_game", {"game": "gridmaster4", "opponent": "human", "seed": 5}))
        assert made["practice_note"] == NOTE and NOTE in made["text"]
        r2 = structured(await friend.call_tool("join_game", {"code": made["join_codes"]["away"] if "away" in made["join_codes"] else next(iter(made["join_codes"].values()))}))
        assert r2["is_error"] and r2["error"]["rule"] == "CORE-PRACTICE" and "practice game" in r2["text"], r2
        code = next(iter(made["join_codes"].values()))
        r2 = structured(await friend.call_tool("join_game", {"code": code, "accept_practice": True}))
        assert not r2["is_error"] and r2["practice_note"] == NOTE, r2


async def _events_until(http: httpx2.AsyncClient, sid: str, token: str, lines: list[str], opened: anyio.Event) -> None:
    async with http.stream("GET", f"/api/games/{sid}/events?since=0", headers=auth(token)) as r:
        assert r.status_code == 200
        async for line in r.aiter_lines():
            lines.append(line)
            if line == "event: state":
                opened.set()
    lines.append("<closed>")


async def test_rotating_a_token_voids_the_old_one_at_once(server: ServerProcess) -> None:
    async with httpx2.AsyncClient(base_url=server.url, timeout=60) as http:
        made = (await http.post("/api/games", json={"game": "grid-football", "opponent": "human"})).json()
        sid, home = made["session"], made["token"]
        away = (await http.post("/api/join", json={"code": made["seats"]["away"]["join_code"]})).json()["token"]
        lines: list[str] = []
        opened = anyio.Event()
        async with anyio.create_task_group() as tg:
            tg.start_soon(_events_until, http, sid, away, lines, opened)
            with anyio.fail_after(30):
                await opened.wait()
            assert (await http.post(f"/api/games/{sid}/rotate", headers=auth(away), json={"x": 1})).status_code == 400
            r = await http.post(f"/api/games/{sid}/rotate", headers=auth(away))
            assert r.status_code == 200, r.text
            new = r.json()["token"]
            assert r.json()["seat"] == "away" and r.json()["session"] == sid and new != away
            # the old token: refused everywhere at once
            assert (await http.get(f"/api/games/{sid}", headers=auth(away))).status_code == 401
            r = await http.post(f"/api/games/{sid}/call", headers=auth(away), json={"tool": "get_status"})
            assert r.status_code == 401 and r.json()["error"]["message"] == "unknown or revoked access token"
            assert (await http.post(f"/api/games/{sid}/rotate", headers=auth(away))).status_code == 401
            assert (await http.post("/api/my-games", json={"tokens": [away]})).json()["games"][0]["ok"] is False
            assert (await http.get(f"/api/games/{sid}/events", headers=auth(away))).status_code == 401
            # the stream opened with it ends at the next change (home's move wakes it)
            assert (await call(http, sid, new, "call_coin_toss", {"call": "tails"}))["ok"]
            with anyio.fail_after(30):
                while "<closed>" not in lines:
                    await anyio.sleep(0.02)
            tg.cancel_scope.cancel()
        assert "event: error" in lines and any('"status":401' in x for x in lines), lines
        assert not any('"move":"tails"' in x for x in lines)  # nothing more reached the old token
        # the new token plays on
        assert (await call(http, sid, new, "get_status"))["seat"] == "away"
        async with mcp_client(server.url) as c:
            assert structured(await c.call_tool("resume_session", {"token": away}))["is_error"]
        # over MCP: rotate_token swaps the connection's token; the old one is void for every client
        async with mcp_client(server.url) as c:
            assert not structured(await c.call_tool("resume_session", {"token": home}))["is_error"]
            rot = structured(await c.call_tool("rotate_token", {}))
            assert not rot["is_error"] and rot["token"] != home and rot["seat"] == "home", rot
            assert not structured(await c.call_tool("get_status", {}))["is_error"]  # this connection goes on
            assert (await http.get(f"/api/games/{sid}", headers=auth(home))).status_code == 401
            assert (await http.get(f"/api/games/{sid}", headers=auth(rot["token"]))).json()["seat"] == "home"
        async with mcp_client(server.url) as c:
            r2 = structured(await c.call_tool("rotate_token", {}))
            assert r2["is_error"] and "No game in progress" in r2["text"]


async def test_the_page_never_hands_the_creator_the_joiners_token(server: ServerProcess) -> None:
    """Two browser contexts (headless Chromium): the creator's page makes a friend game, the friend
    opens the link.  No response the creator's page received, and nothing it stored, holds the
    friend's token; the creator's page cannot act for the friend.  Then a practice game: the friend
    is asked, says no (not joined, the code still good), opens the link again and says yes; both
    pages show the practice banner."""
    from browser_attack import browser

    async with browser() as b:
        a_ctx, b_ctx = await b.new_context(), await b.new_context()
        a, f = await a_ctx.new_page(), await b_ctx.new_page()
        wire: list[str] = []

        async def record(resp: Any) -> None:
            if "/api/" in resp.url and "/events" not in resp.url:
                wire.append(await resp.text())

        a.on("response", record)
        sid = await _page_new_game(a, server.url, "grid-football", "friend")
        link = await a.input_value("#invite-link")
        assert "#join=" in link and "gms_" not in link
        await f.goto(link)
        await f.wait_for_selector("#game:not([hidden]) svg.gm-board", timeout=30_000)
        held = await _held(f, sid)
        assert [e["seat"] for e in held] == ["away"]
        friend = held[0]["token"]
        await a.reload()
        await a.wait_for_selector("#game:not([hidden]) svg.gm-board", timeout=30_000)
        stored = await a.evaluate("() => localStorage.getItem('gm.games')")
        assert wire and friend not in "".join(wire) and friend not in stored
        assert seat_tokens(*wire, stored) == {e["token"] for e in await _held(a, sid)}
        # what the creator's page can do with what it holds: act as home, never as away
        acted = await a.evaluate(
            """async (sid) => Promise.all(JSON.parse(localStorage.getItem('gm.games')).map(async (e) => {
                 const r = await fetch(`/api/games/${sid}`, {headers: {Authorization: `Bearer ${e.token}`}});
                 return (await r.json()).seat; }))""", sid)
        assert acted == ["home"]
        # a practice game: asked, no, then yes
        await _page_new_game(a, server.url, "brawl", "friend", seed=12)
        link = await a.input_value("#invite-link")
        asked: list[str] = []

        async def answer(d: Any) -> None:
            asked.append(d.message)
            await (d.dismiss() if len(asked) == 1 else d.accept())

        f.on("dialog", answer)
        await f.goto(link)
        await f.wait_for_selector("#ng-error:not(:empty)", timeout=30_000)
        assert await f.text_content("#ng-error") == "not joined: the game is a practice game"
        await f.goto(link)
        await f.wait_for_selector("#game:not([hidden]) svg.gm-board", timeout=30_000)
        assert len(asked) == 2 and all(m.startswith("this is a practice game: picks and cards are predictable") for m in asked)
        await a.reload()
        await a.wait_for_selector("#game:not([hidden]) svg.gm-board", timeout=30_000)
        for page in (a, f):
            assert await page.is_visible("#practice") and await page.text_content("#practice") == NOTE
        await a_ctx.close()
        await b_ctx.close()


async def _page_new_game(page: Any, url: str, game: str, mode: str, seed: int | None = None) -> str:
    """A new game made on the page's start form, as a player makes it; its session id (from the address)."""
    await page.goto(url + "/")
    await page.wait_for_selector("#start:not([hidden]) #ng-games input", timeout=30_000)
    await page.check(f"#ng-games input[value='{game}']")
    await page.wait_for_selector(f"#ng-rules[data-game='{game}']", state="attached", timeout=30_000)
    await page.check(f"input[name=mode][value={mode}]")
    if not await page.is_visible("#ng-seed"):
        await page.click("#ng-more summary")
    await page.fill("#ng-seed", "" if seed is None else str(seed))
    await page.click("#ng-start")
    await page.wait_for_selector("#game:not([hidden]) svg.gm-board", timeout=30_000)
    return str(await page.evaluate("() => decodeURIComponent(location.hash.split('game=')[1] || '')"))


async def _held(page: Any, sid: str) -> list[dict[str, Any]]:
    """The seat tokens the page keeps in this browser for game ``sid``."""
    entries = json.loads(await page.evaluate("() => localStorage.getItem('gm.games') || '[]'"))
    return [e for e in entries if e["session"] == sid]

