"""The game host behind ``gm mcp`` (no SDK, no transport): tools, sessions, seats, secrets, resources, prompt."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import pick_call

from gm.core.registry import all_games, find_game, game_ids
from gm.core.schemas import to_mcp
from gm.core.tools import ToolSpec
from gm.mcp_server import MCP_RULE, SESSION_TOOLS, GameHost
from gm.session import Session, verify


@pytest.fixture
def host(tmp_path: Path) -> GameHost:
    return GameHost(home=tmp_path)


def err(reply: Any) -> dict[str, Any]:
    assert reply.is_error, reply.result
    assert not reply.result["ok"]
    error: dict[str, Any] = reply.result["error"]
    return error


def play_until(host: GameHost, want: str | None, rng: random.Random, max_calls: int = 500) -> dict[str, Any]:
    """Make random legal moves for the client until ``want`` is the expected tool (None: the end)."""
    last: dict[str, Any] = {}
    for _ in range(max_calls):
        s = host.session
        assert s is not None
        exp = s.expected()
        if s.state.is_terminal or (want is not None and any(want in e["tools"] for e in exp)):
            return last
        legal = host.call("legal_actions", {}).result["legal"]
        name, args = pick_call(s.game.id, legal, rng)
        reply = host.call(name, args)
        assert reply.result["ok"], reply.text
        last = reply.result
    raise AssertionError(f"{want} never came")


# ------------------------------------------------------------------- tools
@pytest.mark.parametrize("gid", game_ids())
def test_tools_come_from_the_registry(tmp_path: Path, gid: str) -> None:
    host = GameHost(game=gid, home=tmp_path)
    game = find_game(gid)
    listed = host.mcp_tools()
    assert [t["name"] for t in listed] == [*SESSION_TOOLS, *(t.name for t in game.tools())]
    wire = {t["name"]: t for t in to_mcp(game.tools())}
    for entry in listed[len(SESSION_TOOLS):]:
        assert entry["inputSchema"] == wire[entry["name"]]["inputSchema"]
        assert entry["description"] == wire[entry["name"]]["description"]
        assert "seat" not in entry["inputSchema"]["properties"], "a game tool must not let the client pick a seat"
    kinds = {t.name: t.kind for t in game.tools()}
    assert all(e["annotations"]["readOnlyHint"] == (kinds[e["name"]] == "query") for e in listed[len(SESSION_TOOLS):])


def test_no_game_tool_shadows_a_session_tool() -> None:
    for g in all_games():
        assert not {t.name for t in g.tools()} & set(SESSION_TOOLS), g.id


def test_game_tools_need_a_session(host: GameHost) -> None:
    e = err(host.call("get_board", {}))
    assert e["rule"] == MCP_RULE and e["legal"] == list(SESSION_TOOLS)
    e = err(host.call("no_such_tool", {}))
    assert e["rule"] == "CORE-TOOL" and "new_game" in e["legal"]
    e = err(host.call(["not", "a", "name"], {}))
    assert e["rule"] == "CORE-TOOL"


@pytest.mark.parametrize("gid", game_ids())
def test_new_game_every_game(host: GameHost, gid: str) -> None:
    game = find_game(gid)
    reply = host.call("new_game", {"game": gid, "seed": 5})
    assert reply.result["ok"], reply.text
    r = reply.result
    assert r["game"] == gid and r["seat"] == game.seats[0] and r["seed"] == 5
    assert r["players"][game.seats[0]] == "human"
    assert all(p.startswith("bot:") for seat, p in r["players"].items() if seat != game.seats[0])
    assert reply.tools_changed == (gid != "grid-football")
    assert [t["name"] for t in host.mcp_tools()][len(SESSION_TOOLS):] == [t.name for t in game.tools()]
    assert (host.home / "sessions" / f"{r['session']}.jsonl").is_file()  # type: ignore[operator]
    assert any(e["seat"] == game.seats[0] for e in r["expected"]), "the bots have moved; the client acts next"
    # a game tool acts for the client's seat only
    legal = host.call("legal_actions", {}).result
    assert legal["seat"] == game.seats[0] and legal["legal"]


def test_new_game_choices(host: GameHost) -> None:
    r = host.call("new_game", {"game": "gf", "seat": "away", "opponent": "random", "seed": 2}).result
    assert r["ok"] and r["seat"] == "away" and r["players"] == {"home": "bot:random", "away": "human"}
    r = host.call("new_game", {"game": "grid-football", "rules": {"first_down_rows": 8}}).result
    assert r["ok"] and r["seed"] is None and r["practice"] is False and len(r["seed_commitment"]) == 64  # hidden seed
    assert host.session is not None and host.session.state.rules.first_down_rows == 8


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ({"game": "tiddlywinks"}, "CORE-GAME"),
        ({"seat": "referee"}, "CORE-SEAT"),
        ({"opponent": "human"}, MCP_RULE),
        ({"opponent": "genius"}, "CORE-BOT"),
        ({"rules": {"first_down_rows": "many"}}, "CORE-RULES"),
        ({"rules": "/etc/passwd"}, "CORE-ARGS"),  # never a path: rules are a JSON object
        ({"seed": -1}, "CORE-ARGS"),
        ({"seed": "7"}, "CORE-ARGS"),
        ({"colour": "red"}, "CORE-ARGS"),
    ],
)
def test_new_game_rejections(host: GameHost, args: dict[str, Any], rule: str) -> None:
    e = err(host.call("new_game", args))
    assert e["rule"] == rule, e
    assert host.session is None
    assert not (Path(str(host.home)) / "sessions").exists() or not list((Path(str(host.home)) / "sessions").iterdir())


def test_bad_arguments_are_tool_errors_and_change_nothing(host: GameHost) -> None:
    host.call("new_game", {"seed": 1})
    s = host.session
    assert s is not None
    before = (s.path.read_bytes() if s.path else b"", len(s.state.log))
    for name, args in [
        ("call_play", {"play": "x"}),
        ("call_play", {"play": 1, "colour": "red", "seat": "away"}),  # no seat argument: never act for the bot
        ("choose_kick_or_receive", "not json"),
        ("call_play", {"play": 9, "colour": "red"}),
    ]:
        reply = host.call(name, args)
        e = err(reply)
        assert e["rule"].startswith(("CORE-", "GF-")), e
        assert f"[{e['rule']}]" in reply.text and e["reason"] in reply.text
        assert "Nothing changed." in reply.text
    e = err(host.call("call_play", {"play": 1, "colour": "red", "seat": "away"}))
    assert "seat: unknown argument" in e["reason"]
    assert (s.path.read_bytes() if s.path else b"", len(s.state.log)) == before


def test_internal_errors_do_not_escape(host: GameHost) -> None:
    def boom(args: Any) -> dict[str, Any]:
        raise RuntimeError("kaput")

    spec = host._specs["list_sessions"]
    host._specs["list_sessions"] = ToolSpec(spec.name, spec.description, spec.args, "query", boom)
    e = err(host.call("list_sessions", {}))
    assert e["rule"] == "CORE-INTERNAL" and "kaput" in e["reason"]


# ------------------------------------------------------------ pinned game
def test_pinned_game(tmp_path: Path) -> None:
    host = GameHost(game="qb", home=tmp_path)
    assert host.game.id == "quarterback"
    assert host.call("new_game", {}).result["game"] == "quarterback"
    e = err(host.call("new_game", {"game": "brawl"}))
    assert e["rule"] == MCP_RULE and e["legal"] == ["quarterback"]
    other = Session.create("brawl", seed=1, players={"home": "human", "away": "bot"}, home=tmp_path)
    e = err(host.call("resume_session", {"session_id": other.id}))
    assert e["rule"] == MCP_RULE
    assert {r["game"] for r in host.call("list_sessions", {}).result["sessions"]} == {"quarterback"}
    assert {r["game"] for r in host.call("list_sessions", {"game": "brawl"}).result["sessions"]} == {"brawl"}


# ---------------------------------------------------------------- sessions
def test_resume_and_list(tmp_path: Path) -> None:
    rng = random.Random(3)
    first = GameHost(home=tmp_path)
    sid = first.call("new_game", {"seed": 11}).result["session"]
    play_until(first, "call_play", rng)
    board = first.call("get_board", {"full": True}).result["board"]
    moves = len(first.session.state.log)  # type: ignore[union-attr]

    again = GameHost(home=tmp_path)  # a restarted server
    listed = again.call("list_sessions", {}).result
    assert listed["active"] is None
    row = next(r for r in listed["sessions"] if r["id"] == sid)
    assert row["game"] == "grid-football" and row["you"] == "home" and row["moves"] == moves
    reply = again.call("resume_session", {"session_id": sid[:-2]})  # a unique prefix will do
    assert reply.result["ok"], reply.text
    assert reply.result["moves"] == moves and reply.result["log"]
    assert again.call("get_board", {"full": True}).result["board"] == board
    assert "Resumed" in reply.text and sid in reply.text


def test_resume_refusals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    host = GameHost(home=tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes-in-cwd").write_text("private")  # only the sessions folder is searched
    two = Session.create("grid-football", seed=1, players={"home": "human", "away": "human"}, home=tmp_path)
    bots = Session.create("grid-football", seed=1, players={"home": "bot", "away": "bot"}, home=tmp_path)
    path = str(two.path)
    for sid, rule in [(two.id, "CORE-SEAT"), (bots.id, "CORE-SEAT"), (path, "CORE-SESSION"), ("../x", "CORE-SESSION"),
                      ("nope", "CORE-SESSION"), ("grid-football", "CORE-SESSION"),
                      ("notes-in-cwd", "CORE-SESSION")]:
        assert err(host.call("resume_session", {"session_id": sid}))["rule"] == rule, sid
    assert err(host.call("resume_session", {"session_id": "notes-in-cwd"}))["reason"].startswith("no session")
    assert host.session is None
    # the operator may choose the seat of a session with several human sides
    chosen = GameHost(home=tmp_path, session=two.id, seat="away")
    assert chosen.seat == "away"
    rows = {r["id"]: r for r in host.call("list_sessions", {}).result["sessions"]}
    assert rows[two.id]["you"] is None and rows[bots.id]["you"] is None


def test_list_sessions_skips_nothing_and_survives_junk(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    assert host.call("list_sessions", {}).result["sessions"] == []
    host.call("new_game", {"seed": 1})
    (tmp_path / "sessions" / "junk.jsonl").write_text("not json\n")
    rows = host.call("list_sessions", {"limit": 5}).result["sessions"]
    assert {r["id"] for r in rows} == {"junk", host.session.id}  # type: ignore[union-attr]
    assert next(r for r in rows if r["id"] == "junk")["error"]


# ----------------------------------------------------------------- secrets
def test_bot_commits_before_the_clients_choice(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    host.call("new_game", {"seed": 4})
    play_until(host, "call_play", random.Random(1))
    s = host.session
    assert s is not None
    status = host.call("get_status", {}).result
    digest = status["commitments"]["away"]
    assert len(digest) == 64
    # the client sees the bot's pick only as locked: state view, log, board resource
    view = json.loads(host.read_resource("gm://session/state")[0])
    assert view["log"][-1] == ["away", "locked"]
    assert digest in host.read_resource("gm://session/board")[0]
    sealed = [json.loads(line) for line in s.path.read_text().splitlines()[1:] if "sealed" in line]  # type: ignore[union-attr]
    assert sealed[-1]["commitment"] == digest and sealed[-1]["public"] == "locked"
    pick = s.book.open[-1].choice  # gm's own copy; the file holds it sealed
    assert pick not in json.dumps(status) and pick not in s.path.read_text()  # type: ignore[union-attr]
    reply = host.call("call_play", {"play": 2, "colour": "black"})
    assert reply.result["ok"], reply.text
    reveal = reply.result["reveal"]["away"]
    assert reveal["commitment"] == digest and reveal["choice"] == pick and verify(reveal)
    assert "locked pick was" in reply.text


# --------------------------------------------------------------- resources
def test_resources(host: GameHost) -> None:
    assert "No game in progress" in host.read_resource("gm://session/board")[0]
    assert json.loads(host.read_resource("gm://session/state")[0])["session"] is None
    for res in host.resources():
        text, mime = host.read_resource(res.uri)
        assert text.strip() and mime == res.mime_type, res.uri
    assert "GF-" in host.read_resource("gm://rules")[0]
    assert "Quick Start" in host.read_resource("gm://games/brawl/quickstart")[0]
    assert host.read_resource("gm://games/gf/rules")[0] == host.read_resource("gm://games/grid-football/rules")[0]
    host.call("new_game", {"game": "quarterback", "seed": 1})
    assert host.read_resource("gm://rules")[0] == host.read_resource("gm://games/quarterback/rules")[0]
    board = host.read_resource("gm://session/board")[0]
    assert "you play red" in board and "next: you (red) must" in board
    for bad in ("gm://nothing", "gm://games/chess/rules", "gm://games/brawl/secrets", "file:///etc/passwd"):
        with pytest.raises(Exception, match=r"\[CORE"):
            host.read_resource(bad)


def test_custom_rules_reach_the_rules_resource(host: GameHost) -> None:
    host.call("new_game", {"rules": {"first_down_rows": 8}, "seed": 1})
    assert host.read_resource("gm://rules")[0] != host.read_resource("gm://games/grid-football/rules")[0]
    host.call("new_game", {"game": "brawl", "rules": {}, "seed": 1})
    assert "This session's ruleset" not in host.read_resource("gm://rules")[0]


# ------------------------------------------------------------------ prompt
def test_referee_prompt(host: GameHost) -> None:
    text = host.referee_prompt()
    assert "new_game" in text and "The user plays home" in text and "call_play" in text
    host.call("new_game", {"game": "gridmaster4", "seat": "lime", "seed": 1})
    text = host.referee_prompt()
    assert host.session is not None and host.session.id in text and "The user plays lime" in text and "place_tile" in text
    other = host.referee_prompt("brawl", "away")
    assert "The user plays away" in other and "play_cards" in other and host.session.id not in other
    with pytest.raises(Exception, match="CORE-SEAT"):
        host.referee_prompt("brawl", "middle")


def test_package_imports_no_sdk() -> None:
    code = (
        "import sys\n"
        "import gm.cli.app, gm.cli.mcp_cmds, gm.mcp_server\n"
        "print(sorted(m for m in ('mcp', 'mcp_types', 'uvicorn', 'httpx2', 'starlette') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
