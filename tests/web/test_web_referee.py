"""The page's chat to a referee, in process: the offline referee by default, an LLM referee (the real
SDK client over a mock transport, never a real API) when the server has one - one per game and seat."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "llm"))

from llm_fakes import FakeLLM, RulesBrain

from gm.referee.llm import build_referee
from gm.server.hub import GameHub
from gm.session import KeyRing
from gm.session.sql import SqliteStore
from gm.web.routes import LLMReferees, say


def _hub(tmp_path: Path) -> GameHub:
    return GameHub(SqliteStore(tmp_path / "gm.sqlite", KeyRing.generate()))


def test_the_offline_referee_reads_the_players_words(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    made = hub.create("grid-football", seat="away", opponent="bot:random", seed=3)
    grant = hub.authorize(made["token"])
    r = say(hub, grant, "what can I do?")
    assert r["referee"] == "offline" and r["narration"] == "You can (2): heads, tails" and not r["accepted"]
    r = say(hub, grant, "I'll call heads please")
    assert r["accepted"] and r["calls"][0]["tool"] == "call_coin_toss" and r["calls"][0]["args"] == {"call": "heads"}
    assert "away calls heads" in r["narration"]


def test_an_llm_referee_per_game_and_seat(tmp_path: Path) -> None:
    hub = _hub(tmp_path)
    fake = FakeLLM(brain=RulesBrain("grid-football"))
    made: list[object] = []

    def factory() -> object:
        ref = build_referee("openai", model="scripted", api_key="test", http_client=fake.client())
        made.append(ref)
        return ref

    refs = LLMReferees(factory)  # type: ignore[arg-type]
    assert refs.describe()["llm"] is True and LLMReferees().describe() == {"llm": False, "kind": None}
    a = hub.create("grid-football", seat="away", opponent="bot:random", seed=3)
    b = hub.create("grid-football", seat="away", opponent="bot:random", seed=4)
    ga, gb = hub.authorize(a["token"]), hub.authorize(b["token"])
    r = say(hub, ga, "heads, please", refs.get(ga))
    assert r["referee"] == "openai" and r["accepted"] and r["calls"][0]["tool"] == "call_coin_toss"
    assert fake.requests, "the referee asked the (mock) model"
    assert refs.get(ga) is refs.get(ga) and refs.get(gb) is not refs.get(ga) and len(made) == 2
    view = hub.view(ga)
    assert view["log"][0] == ["away", "heads"]


def test_the_narration_streams_as_server_sent_events(server: Any) -> None:
    """``Accept: text/event-stream`` on /say: ``delta`` events that add up to the narration, then one
    ``result`` with the plain answer's JSON (the reply and the table)."""
    made = _post(server.url + "/api/games", {"game": "grid-football", "seat": "away", "opponent": "bot:random", "seed": 3})
    req = urllib.request.Request(f"{server.url}/api/games/{made['session']}/say", data=json.dumps({"text": "what can I do?", "since": 0}).encode(),
                                 headers={"Content-Type": "application/json", "Accept": "text/event-stream",
                                          "Authorization": f"Bearer {made['token']}"}, method="POST")
    with urllib.request.urlopen(req) as r:
        assert r.headers["Content-Type"].startswith("text/event-stream")
        body = r.read().decode()
    events = []
    for block in body.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((lines["event"], json.loads(lines["data"])))
    assert [name for name, _ in events][-1] == "result" and {name for name, _ in events[:-1]} == {"delta"}
    result = events[-1][1]
    assert "".join(d["text"] for _, d in events[:-1]) == result["narration"] == "You can (2): heads, tails"
    assert result["reply"] == {"kind": "answer", "text": "You can (2): heads, tails"} and result["table"]["builder"]["decision"] == "coin_call"


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req) as r:
        return dict(json.loads(r.read()))


# ------------------------------------------------------------------ the narration as it streams
def _asgi_post(app: object, path: str, body: dict[str, object], headers: dict[str, str]) -> tuple[int, dict[str, str], list[bytes]]:
    """One request through the ASGI app, in process: its status, headers and each body chunk as sent."""
    import asyncio
    import threading

    sent: list[dict[str, object]] = []
    raw = json.dumps(body).encode()
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http", "path": path,
             "raw_path": path.encode(), "query_string": b"", "root_path": "", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80),
             "headers": [(k.lower().encode(), v.encode()) for k, v in {**headers, "content-type": "application/json",
                                                                        "content-length": str(len(raw))}.items()]}
    messages = [{"type": "http.request", "body": raw, "more_body": False}]

    async def run() -> None:
        done = asyncio.Event()

        async def receive() -> dict[str, object]:
            if messages:
                return messages.pop(0)
            await done.wait()  # a client that stays until the response is over
            return {"type": "http.disconnect"}

        async def send(message: dict[str, object]) -> None:
            sent.append(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                done.set()

        await app(scope, receive, send)  # type: ignore[operator]

    # a thread of its own: its own event loop (the browser tests of the same worker keep one running here)
    failed: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(run())
        except BaseException as exc:  # raised again in the test's thread
            failed.append(exc)

    worker = threading.Thread(target=main)
    worker.start()
    worker.join(timeout=60)
    if failed:
        raise failed[0]
    start = next(m for m in sent if m["type"] == "http.response.start")
    head = {k.decode(): v.decode() for k, v in start["headers"]}  # type: ignore[union-attr]
    return int(start["status"]), head, [m["body"] for m in sent if m["type"] == "http.response.body" and m.get("body")]  # type: ignore[misc]


def _events(chunks: list[bytes]) -> list[tuple[str, dict[str, object]]]:
    out = []
    for block in b"".join(chunks).decode().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in lines:
            out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_say_streams_the_narration_then_the_same_result(tmp_path: Path) -> None:
    """``Accept: text/event-stream``: ``delta`` events as the model writes (adding up to the
    narration), then one ``result`` event holding what the plain request returns."""
    from starlette.applications import Starlette

    from gm.server.app import ServeConfig, ServerState
    from gm.web.routes import page_routes

    hub = _hub(tmp_path)
    fake = FakeLLM(brain=RulesBrain("grid-football"))
    refs = LLMReferees(lambda: build_referee("openai", model="scripted", api_key="test", http_client=fake.client()))  # type: ignore[arg-type,return-value]
    app = Starlette(routes=page_routes(ServerState(hub, ServeConfig()), refs))
    made = hub.create("grid-football", seat="away", opponent="bot:random", seed=3)
    path = f"/api/games/{made['session']}/say"
    status, head, chunks = _asgi_post(app, path, {"text": "heads, please"}, {"authorization": f"Bearer {made['token']}",
                                                                         "accept": "text/event-stream"})
    assert status == 200 and head["content-type"].startswith("text/event-stream") and head["cache-control"] == "no-cache"
    events = _events(chunks)
    assert [e for e, _ in events[:-1]] == ["delta"] * (len(events) - 1) and events[-1][0] == "result"
    result = events[-1][1]
    assert "".join(str(d["text"]) for _, d in events[:-1]) == result["narration"]
    assert result["ok"] and result["accepted"] and result["calls"][0]["tool"] == "call_coin_toss"  # type: ignore[index]
    assert len(chunks) >= len(events)  # each event went out as it came, not one body at the end
    # the plain request still answers JSON, and refusals come before any stream, as JSON
    status, head, chunks = _asgi_post(app, path, {"text": "what can I do?"}, {"authorization": f"Bearer {made['token']}"})
    assert status == 200 and head["content-type"] == "application/json" and json.loads(b"".join(chunks))["ok"]
    status, head, chunks = _asgi_post(app, path, {"text": "heads"}, {"authorization": "Bearer nope", "accept": "text/event-stream"})
    assert status in (401, 403) and head["content-type"] == "application/json" and not json.loads(b"".join(chunks))["ok"]
    status, head, chunks = _asgi_post(app, path, {"text": ""}, {"authorization": f"Bearer {made['token']}", "accept": "text/event-stream"})
    assert status == 400 and json.loads(b"".join(chunks))["error"]["message"] == 'say something: {"text": "..."}'


def test_the_offline_referee_streams_its_narration_in_one_piece(tmp_path: Path) -> None:
    from starlette.applications import Starlette

    from gm.server.app import ServeConfig, ServerState
    from gm.web.routes import page_routes

    hub = _hub(tmp_path)
    app = Starlette(routes=page_routes(ServerState(hub, ServeConfig()), LLMReferees()))
    made = hub.create("grid-football", seat="away", opponent="bot:random", seed=3)
    _, _, chunks = _asgi_post(app, f"/api/games/{made['session']}/say", {"text": "tails"},
                         {"authorization": f"Bearer {made['token']}", "accept": "text/event-stream"})
    events = _events(chunks)
    assert [e for e, _ in events] == ["delta", "result"] and events[0][1]["text"] == events[1][1]["narration"]
    assert events[1][1]["referee"] == "offline" and events[1][1]["accepted"]
