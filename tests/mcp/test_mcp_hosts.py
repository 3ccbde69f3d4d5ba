"""The one MCP host base, in process, for both of gm's servers: ``gm mcp``'s :class:`GameHost` (sessions
in the gm home) and ``gm serve``'s :class:`ServedHost` (seat tokens in a store).  Every test here runs
against both: tool lists with and without the MCP Apps extension, the board app's view and tools,
completions, the prompt, pinned games, log entries, progress and the stored version that drives
resource notices."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import pick_call

from gm.core.registry import find_game, game_ids
from gm.mcp_server import GameHost, McpHost
from gm.mcp_server import app as mcp_app
from gm.server.hub import GameHub
from gm.server.mcp import SERVED_TOOLS, ServedHost
from gm.session import KeyRing, Session
from gm.session.sql import SqliteStore

HostMaker = Callable[..., McpHost]


@pytest.fixture(params=["gm-mcp", "gm-serve"])
def make(request: pytest.FixtureRequest, tmp_path: Path) -> HostMaker:
    """A host of one of the two servers (``pinned``: a game id), each with a store of its own."""
    hubs: list[GameHub] = []

    def made(pinned: str | None = None) -> McpHost:
        if request.param == "gm-mcp":
            return GameHost(game=pinned, home=tmp_path)
        if not hubs:
            hubs.append(GameHub(SqliteStore(tmp_path / "gm.sqlite", KeyRing.generate())))
        return ServedHost(hubs[0], pinned=find_game(pinned) if pinned else None)

    return made


def session_tools(host: McpHost) -> list[str]:
    return list(SERVED_TOOLS) if isinstance(host, ServedHost) else ["new_game", "list_sessions", "resume_session"]


def step(host: McpHost, rng: random.Random, *, apps: bool = False) -> dict[str, Any]:
    """One random legal move of the client's (the bots answer within the call)."""
    legal = host.call("legal_actions", {}).result["legal"]
    name, args = pick_call(host.game.id, legal, rng)
    reply = host.call(name, args, apps=apps)
    assert reply.result["ok"], reply.text
    return reply.result


# ------------------------------------------------------------------ tools
def test_tool_lists_with_and_without_the_apps_extension(make: HostMaker) -> None:
    host = make()
    game = find_game("grid-football")
    plain = host.mcp_tools()
    assert [t["name"] for t in plain] == [*session_tools(host), *(t.name for t in game.tools())]
    assert all("_meta" not in t for t in plain), "a client without the extension sees no _meta"
    listed = host.mcp_tools(apps=True)
    names = [t["name"] for t in listed]
    assert names == [*session_tools(host), mcp_app.VIEW_TOOL, mcp_app.PLAY_TOOL, *(t.name for t in game.tools())]
    ui = {t["name"]: t.get("_meta", {}).get("ui") for t in listed}
    both = {"resourceUri": "ui://gm/board", "visibility": ["model", "app"]}
    shows = {"new_game", "resume_session", "join_game", "get_status", "get_board",
             *(t.name for t in game.tools() if t.kind == "action")}
    for name, meta in ui.items():
        if name in (mcp_app.VIEW_TOOL, mcp_app.PLAY_TOOL):
            assert meta == {"resourceUri": "ui://gm/board", "visibility": ["app"]}, name
        elif name in shows:
            assert meta == both, name
        else:
            assert meta is None, name  # list_sessions, legal_actions, get_rules, get_square
    flat = {t["name"]: t["_meta"].get("ui/resourceUri") for t in listed if "_meta" in t}
    assert flat["call_play"] == "ui://gm/board" and flat[mcp_app.VIEW_TOOL] is None
    # the same entries otherwise: schemas, descriptions and hints do not depend on the extension
    strip = [{k: v for k, v in t.items() if k != "_meta"} for t in listed if t["name"] not in (mcp_app.VIEW_TOOL, mcp_app.PLAY_TOOL)]
    assert strip == plain


def test_unknown_tools_are_flagged_and_change_nothing(make: HostMaker) -> None:
    host = make()
    for name, apps in [("launch_missiles", False), (mcp_app.VIEW_TOOL, False), (mcp_app.PLAY_TOOL, False), (["no"], True)]:
        reply = host.call(name, {}, apps=apps)
        assert reply.unknown and reply.is_error and reply.result["error"]["rule"] == "CORE-TOOL", name
        assert reply.view is None
    no_game = host.call("call_play", {"play": 1, "colour": "red"})
    assert not no_game.unknown and no_game.result["error"]["rule"] == "CORE-MCP" and "No game in progress" in no_game.text
    assert not host.call(mcp_app.VIEW_TOOL, {}, apps=True).unknown
    host.call("new_game", {"seed": 1})
    assert host.call("no_such_tool", {}).unknown
    assert not host.call("get_square", {"square": "A1"}).unknown


# ---------------------------------------------------------------- the board app
def test_the_view_rides_with_the_tools_that_show_the_game(make: HostMaker) -> None:
    host = make()
    plain = host.call("new_game", {"game": "grid-football", "seed": 3, "seat": "away"})
    assert plain.view is None, "no view for a client without the extension"
    reply = host.call("new_game", {"game": "grid-football", "seed": 3, "seat": "away"}, apps=True)
    view = reply.view
    assert view is not None and view["session"] == reply.result["session"] and view["seat"] == "away"
    assert view["game"] == "grid-football" and view["board"]["kind"] == "grid" and view["ascii"] in host.read_resource("gm://session/board")[0]
    assert view["status"] == reply.result["status"] and view["version"] == host.stored_version()
    assert view["your_turn"] and view["legal"]["moves"] == [
        {"text": "heads", "tool": "call_coin_toss", "args": {"call": "heads"}},
        {"text": "tails", "tool": "call_coin_toss", "args": {"call": "tails"}},
    ]
    for name, args in [("get_status", {}), ("get_board", {}), ("call_coin_toss", {"call": "heads"})]:
        assert host.call(name, args, apps=True).view is not None, name
    for name, args in [("legal_actions", {}), ("get_rules", {}), ("list_sessions", {}), (mcp_app.VIEW_TOOL, {})]:
        assert host.call(name, args, apps=True).view is None, name
    refused = host.call("call_play", {"play": 99}, apps=True)
    assert refused.is_error and refused.view is not None  # the view shows where the game stands


def test_app_play_makes_a_move_written_as_text_through_its_tool(make: HostMaker) -> None:
    host = make()
    host.call("new_game", {"game": "grid-football", "seed": 3, "seat": "away"})
    before = host.stored_version()
    bad = host.call(mcp_app.PLAY_TOOL, {"move": "sideways"}, apps=True)
    assert bad.is_error and bad.result["error"]["rule"].startswith(("GF-", "CORE-")) and host.stored_version() == before
    reply = host.call(mcp_app.PLAY_TOOL, {"move": "heads"}, apps=True)
    assert reply.result["ok"] and reply.result["tool"] == "call_coin_toss" and reply.result["action"] == "heads", reply.text
    assert reply.view is not None and reply.view["version"] == host.stored_version() != before


def test_app_view_answers_the_version_it_holds(make: HostMaker) -> None:
    host = make()
    empty = host.call(mcp_app.VIEW_TOOL, {}, apps=True).result
    assert empty["ok"] and empty["view"] is None and "No game in progress" in empty["note"]
    host.call("new_game", {"game": "quarterback", "seed": 2})
    first = host.call(mcp_app.VIEW_TOOL, {}, apps=True).result
    version = first["view"]["version"]
    again = host.call(mcp_app.VIEW_TOOL, {"since": version}, apps=True).result
    assert again["changed"] is False and again["view"] == first["view"]
    step(host, random.Random(1))
    moved = host.call(mcp_app.VIEW_TOOL, {"since": version}, apps=True).result
    assert moved["changed"] is True and moved["view"]["version"] != version
    for bad in ({"wait": 26}, {"wait": -1}, {"since": "x" * 301}, {"seat": "red"}):
        assert host.call(mcp_app.VIEW_TOOL, bad, apps=True).result["error"]["rule"] == "CORE-ARGS", bad


@pytest.mark.parametrize("gid", game_ids())
def test_every_games_view_shows_its_board_and_moves(make: HostMaker, gid: str) -> None:
    host = make()
    reply = host.call("new_game", {"game": gid, "seed": 4}, apps=True)
    view = reply.view
    assert view is not None and view["game"] == gid
    assert view["board"] is not None and view["board"]["kind"] == "grid" and view["ascii"].strip()
    game = find_game(gid)
    with host.current(fresh=False) as s:
        assert s is not None and view["board"] == game.board_json(s.state, host.seat)
        make = getattr(game, "move_builder", None)  # the page's move-builder hook, where the contract has it
        assert view["builder"] == (make(s.state, host.seat) if callable(make) else None)
    legal = view["legal"]
    assert view["your_turn"] and legal["count"] >= 1 and legal["moves"]
    assert len(legal["moves"]) == min(legal["count"], mcp_app.MAX_MOVES)
    assert ("summary" in legal) == (legal["count"] > len(legal["moves"]))
    # every listed move is a call the client is offered, and makes that very move
    offered = {t["name"] for t in host.mcp_tools(apps=True)}
    for move in legal["moves"][:8]:
        assert move["tool"] in offered
        assert str(game.parse_action(move["text"])) == move["text"]
    first = legal["moves"][0]
    made = host.call(first["tool"], first["args"], apps=True)
    assert made.result["ok"] and made.result["action"] == first["text"], made.text


def _twin(make: HostMaker, pick: int) -> tuple[McpHost, dict[str, Any]]:
    """A hidden-seed Grid Football game at a play call, the bot's locked call being its ``pick``-th legal one."""
    from gm.session.commit import SeedSecret

    host = make()
    secret = SeedSecret.draw(None, bot_seed=7)
    object.__setattr__(secret, "seed", 1234)  # both twins: the same game; only the bot's pick differs

    class Picks:  # the first legal move, but the pick-th while the client still chooses too (a locked pick)
        def choose(self, state: Any, seat: str) -> Any:
            legal = list(state.legal_actions(seat))
            return legal[(pick if "home" in state.to_act() else 0) % len(legal)]

    players = {"home": "human", "away": "bot:default"}
    if isinstance(host, GameHost):
        s = Session.create("grid-football", players=players, home=host.home, secret=secret, bots={"away": Picks()}, referee="mcp")
        host._activate(s, "home")
    else:
        assert isinstance(host, ServedHost)
        s = Session.create("grid-football", players=players, store=host.hub.store, secret=secret, bots={"away": Picks()}, referee="mcp")
        from gm.server.access import SEAT, digest, new_seat_token

        token = new_seat_token()
        host.hub.access.grant(digest(token), SEAT, s.id, "home")
        host.hub._cache[s.id] = s
        host.adopt(token)
    rng = random.Random(5)
    for _ in range(40):
        if s.commitments():
            break
        legal = host.call("legal_actions", {}).result["legal"]
        name, args = pick_call("grid-football", legal, rng)
        assert host.call(name, args).result["ok"]
    assert s.commitments(), "the bot locked a play call"
    view = host.app_view()
    assert view is not None
    return host, view


def test_the_view_of_twin_games_differing_only_in_the_bots_pick_is_the_same(make: HostMaker) -> None:
    a_host, a = _twin(make, 0)
    b_host, b = _twin(make, 5)
    picks = [h.current(fresh=False).__enter__().book.open[-1] for h in (a_host, b_host)]  # type: ignore[union-attr]
    assert picks[0].choice != picks[1].choice, "the twins' secrets differ"
    masked = [{k: v for k, v in view.items() if k not in ("session", "version", "commitments", "seed_commitment")} for view in (a, b)]
    assert masked[0] == masked[1]
    for view, pick in zip((a, b), picks, strict=True):
        assert list(view["commitments"]) == ["away"] and view["commitments"]["away"] == pick.digest
        assert pick.nonce not in json.dumps(view)
        assert ["away", "locked"] in view["log"]


# ------------------------------------------------------------ completions
def test_completions(make: HostMaker) -> None:
    host = make()
    names = sorted({v for g in game_ids() for v in (g, *find_game(g).aliases)}, key=lambda v: (v.lower(), v))
    assert host.complete("referee", "game", "") == names[:100]
    assert host.complete("referee", "game", "GR") == [v for v in names if v.startswith("gr")]
    assert "grid-football" in names and "gridmaster4" in names
    assert host.complete("referee", "seat", "", {"game": "quarterback"}) == ["blue", "red"]
    assert host.complete("referee", "seat", "a", {}) == ["away"]  # the active (default) game's seats
    assert host.complete("referee", "seat", "", {"game": "tiddlywinks"}) == []
    assert host.complete("referee", "session", "") == []
    sid = host.call("new_game", {"game": "brawl", "seed": 1}).result["session"]
    assert host.complete("referee", "session", sid[:8]) == [sid]
    assert host.complete("gm://games/{game}/rules", "game", "CHESS-F") == [v for v in names if v.startswith("chess-f")]
    topics = host.complete("gm://games/{game}/rules/{topic}", "topic", "GF-", {"game": "grid-football"})
    assert topics and all(t.startswith("GF-") for t in topics) and topics == sorted(topics)
    assert set(topics) <= set(find_game("grid-football").rules_text())
    words = find_game("grid-football").rule_words
    if words:
        word = sorted(words)[0]
        assert word in host.complete("gm://games/{game}/rules/{topic}", "topic", word[:2], {"game": "gf"})
    # what gm has no values for: none (the suite's own prompt, an unknown argument)
    assert host.complete("test_prompt_with_arguments", "arg1", "test") == []
    assert host.complete("referee", "colour", "") == []


def test_pinned_hosts_offer_one_game(make: HostMaker) -> None:
    host = make("brawl")
    uris = [r.uri for r in host.resources()]
    assert [u for u in uris if u.startswith("gm://games/")] == ["gm://games/brawl/rules", "gm://games/brawl/quickstart"]
    assert host.complete("referee", "game", "") == ["brawl", *sorted(a for a in find_game("brawl").aliases if a != "brawl")]
    with pytest.raises(Exception, match=r"\[CORE-MCP\].*plays brawl only") as refused:
        host.read_resource("gm://games/grid-football/rules")
    # each server says what pinned it (gm mcp: its --game option)
    how = " (gm mcp --game brawl)" if isinstance(host, GameHost) else ""
    assert str(refused.value) == f"[CORE-MCP] 'grid-football': this server plays brawl only{how}; start another for grid-football"
    from gm.mcp_server import document

    assert host.read_resource("gm://games/brawl/rules")[0] == document(find_game("brawl"), "rules")


def test_the_rules_topic_template(make: HostMaker) -> None:
    host = make()
    rid = next(iter(find_game("grid-football").rules_text()))
    text, mime = host.read_resource(f"gm://games/grid-football/rules/{rid}")
    assert mime == "text/markdown" and text.startswith(f"{rid}: ")
    with pytest.raises(Exception, match="CORE-MCP"):
        host.read_resource("gm://games/grid-football/rules/zzzqqq")
    with pytest.raises(Exception, match="CORE-GAME"):
        host.read_resource("gm://games/chess/rules/kick")


# ----------------------------------------------------------------- prompt
def test_the_prompt_names_the_game_asked_for(make: HostMaker) -> None:
    host = make()
    assert host.prompt_description() == "Referee of Turn-Based Grid Football"
    assert host.prompt_description("brawl") == f"Referee of {find_game('brawl').name}"
    sid = host.call("new_game", {"game": "quarterback", "seed": 1}).result["session"]
    assert host.prompt_description() == f"Referee of {find_game('quarterback').name}"
    assert host.prompt_description("gm4") == f"Referee of {find_game('gridmaster4').name}"
    assert host.prompt_description(session=sid) == f"Referee of {find_game('quarterback').name}"
    text = host.referee_prompt(session=sid)
    assert sid in text and "The user plays red" in text
    with pytest.raises(Exception, match="CORE-"):
        host.referee_prompt(session="nope-0000")


# ------------------------------------------------------------- logs, progress
def test_each_call_logs_what_it_did(make: HostMaker) -> None:
    host = make()
    ok = host.call("new_game", {"seed": 2})
    levels = [e.level for e in ok.logs]
    assert levels == ["info", "debug"] and ok.logs[0].data["tool"] == "new_game"
    refused = host.call("call_coin_toss", {"call": "edge"})
    assert [e.level for e in refused.logs] == ["notice", "debug"] and refused.logs[0].data["rule"] == "CORE-ARGS"
    assert all(e.data["seat"] == "home" and e.data["session"] == ok.result["session"] for e in refused.logs)
    assert host.wants_log("warning") and not host.wants_log("info")
    host.set_log_level("debug")
    assert host.wants_log("debug")
    with pytest.raises(Exception, match="CORE-MCP"):
        host.set_log_level("loud")


def test_progress_hears_every_bot_move_and_no_pick(make: HostMaker) -> None:
    host = make()
    heard: list[tuple[int, str]] = []

    def bot_moves() -> int:
        with host.current(fresh=False) as s:
            assert s is not None
            return sum(1 for seat, _ in s.log("away") if seat == "home")

    host.call("new_game", {"game": "grid-football", "seed": 3, "seat": "away"}, progress=lambda n, m: heard.append((n, m)))
    assert [n for n, _ in heard] == list(range(1, bot_moves() + 1))
    rng = random.Random(2)
    for _ in range(8):
        heard.clear()
        before = bot_moves()
        legal = host.call("legal_actions", {}).result["legal"]
        name, args = pick_call("grid-football", legal, rng)
        assert host.call(name, args, progress=lambda n, m: heard.append((n, m))).result["ok"]
        assert [n for n, _ in heard] == list(range(1, bot_moves() - before + 1))
    assert bot_moves() > 2, "the bot moved meanwhile"
    assert heard == [] or all(m == "home (bot:default) has moved" for _, m in heard)


def test_the_stored_version_follows_every_seat(make: HostMaker, tmp_path: Path) -> None:
    host = make()
    assert host.stored_version() is None
    host.call("new_game", {"seed": 5})
    v1 = host.stored_version()
    assert v1 is not None and v1.startswith(str(host.session_id))
    assert host.call("get_status", {}).result["ok"] and host.stored_version() == v1  # reading is not a move
    step(host, random.Random(5))
    assert host.stored_version() != v1
