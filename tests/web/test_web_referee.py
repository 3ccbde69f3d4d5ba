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
