"""Issue #15, tests 8: session ids are literal names, reading never writes, and deeply nested
tool arguments get a clear CORE-ARGS error through every front end (and leave the session whole)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import cli

from gm.mcp_server.host import GameHost
from gm.session import SeedSecret, Session


def _nest(depth: int, kind: str = "dict") -> Any:
    out: Any = 1
    for _ in range(depth):
        out = {"a": out} if kind == "dict" else [out]
    return out


def _digest(*paths: Path) -> list[str]:
    return [hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else "-" for p in paths]


# ---------------------------------------------------------------- literal ids
def _sessions(home: Path) -> list[str]:
    ids = ["grid-football-b1010000", "grid-football-b1020000", "quarterback-00c0ffee"]
    for sid in ids:
        players = {"away": "bot:random"} if sid.startswith("grid") else {"blue": "bot:random"}
        Session.create(sid.rsplit("-", 1)[0], id=sid, home=home, players=players)
    return ids


@pytest.mark.parametrize("ref", ["*", "grid*b101", "grid-football-b10?0000", "[g]rid-football-b1010000", "../sessions/*",
                                 "grid-football-b1010000/..", "", " ", "~", "grid football", "grid-football-b1010000;ls"])
def test_session_ids_are_literal_names_on_the_command_line(ref: str, tmp_path: Path) -> None:
    _sessions(tmp_path)
    code, out = cli(tmp_path, "show", ref)
    assert code == 2, out
    assert out.startswith("gm: error: [CORE-SESSION]") and out.count("\n") == 1 and "Traceback" not in out, out


def test_an_exact_id_or_a_unique_prefix_opens_an_ambiguous_prefix_lists_the_candidates(tmp_path: Path) -> None:
    ids = _sessions(tmp_path)
    assert cli(tmp_path, "show", ids[0])[0] == 0
    assert cli(tmp_path, "show", "quarterback")[0] == 0  # the one session starting so
    code, out = cli(tmp_path, "show", "grid-football-b10")
    assert code == 2 and out.count("\n") == 1, out
    assert "ambiguous" in out and ids[0] in out and ids[1] in out, out  # the candidates, named
    code, out = cli(tmp_path, "show", "grid-football-b103")
    assert code == 2 and "no session 'grid-football-b103'" in out, out


@pytest.mark.parametrize("ref", ["*", "grid*b101", "grid-football-b10", "../sessions/grid-football-b1010000",
                                 "/etc/passwd", "grid-football-b1010000.jsonl"])
def test_mcp_resume_session_takes_literal_ids_only(ref: str, tmp_path: Path) -> None:
    ids = _sessions(tmp_path)
    host = GameHost(home=tmp_path)
    r = host.call("resume_session", {"session_id": ref}).result
    assert not r["ok"] and r["error"]["rule"] == "CORE-SESSION", r
    if ref == "grid-football-b10":
        assert sorted(r["error"]["legal"]) == ids[:2], r  # the candidates
    assert host.session is None
    assert host.call("resume_session", {"session_id": ids[2]}).result["ok"]


# ------------------------------------------------------------- reading writes nothing
@pytest.mark.parametrize("game", ["grid-football", "brawl", "chess-football", "quarterback", "gridmaster4"])
def test_reading_never_writes_even_when_a_bot_owes_a_move(game: str, tmp_path: Path) -> None:
    """A session left with a bot owing a move (as a token import or an interrupted write leaves it):
    ``gm show`` (all forms), ``gm export``, MCP ``list_sessions``, query tools and resources read it
    without the bot moving and without a byte of the session file changing."""
    from gm.core.registry import find_game

    g = find_game(game)
    bot_first = g.new_state(None, 5).to_act()[0]  # the bot plays the seat that moves first
    players = {s: "bot:random" if s == bot_first else "human" for s in g.seats}
    secret = SeedSecret(seed=5, salt="0f" * 16, bot_seed=1, nonce_seed=None, practice=False)
    s = Session.create(g, players=players, home=tmp_path, id="owes", secret=secret, advance=False)
    assert s.bots_owe_move()
    path = tmp_path / "sessions" / "owes.jsonl"
    before = _digest(path)
    human = next(x for x in g.seats if players[x] == "human")
    for args in (("show", "owes"), ("show", "owes", "--json"), ("show", "owes", "--full"), ("show", "owes", "--as", human),
                 ("export", "token", "--session", "owes"), ("export", "session", "--session", "owes"),
                 ("call", "owes", "get_status", "--as", human), ("call", "owes", "get_board", "--as", human),
                 ("call", "owes", "legal_actions", "--as", human)):
        code, out = cli(tmp_path, *args)
        assert code == 0, (args, out)
        assert _digest(path) == before, f"gm {' '.join(args)} changed the session file"
    host = GameHost(home=tmp_path)
    assert host.call("list_sessions", {}).result["ok"]
    opened = Session.open("owes", home=tmp_path)
    for tool in ("get_status", "get_board", "legal_actions", "get_rules"):
        assert opened.call(tool, {}, human)["ok"]
    assert any(e["player"].startswith("bot") for e in opened.view(human)["expected"])
    assert _digest(path) == before
    assert len(Session.open("owes", home=tmp_path).state.log) == 0  # the bot has still not moved


# ------------------------------------------------------------------ nesting
@pytest.mark.parametrize("depth", [33, 100, 210, 250, 400, 1000])
@pytest.mark.parametrize("kind", ["dict", "list"])
def test_nested_arguments_get_core_args_and_leave_the_session_readable(depth: int, kind: str, tmp_path: Path) -> None:
    """Through the session (as every Python front end calls it: MCP host, HTTP, referees), as a
    dict: a CORE-ARGS refusal, and the call's transcript record does not make the session
    unreadable afterwards."""
    s = Session.create("quarterback", home=tmp_path, players={"blue": "bot:random"}, id="deep")
    deep = _nest(depth, kind)
    for tool, args in (("get_status", {"x": deep}), ("move_piece", {"piece": deep, "to": "A1"}), ("end_turn", deep)):
        r = s.call(tool, args, "red")
        assert not r["ok"] and r["error"]["rule"] == "CORE-ARGS", r["error"]
        assert "nested more than 32 levels deep" in r["error"]["reason"]
    again = Session.open("deep", home=tmp_path)  # with its transcript
    assert again.call("get_status", {}, "red")["ok"]


def test_nested_arguments_through_mcp_host_and_gm_call(tmp_path: Path) -> None:
    host = GameHost(home=tmp_path)
    assert host.call("new_game", {"game": "quarterback"}).result["ok"]
    deep = _nest(1000)
    for tool, args in (("get_status", {"x": deep}), ("move_piece", {"piece": deep, "to": "A1"}), ("new_game", deep),
                       ("new_game", {"rules": deep}), ("resume_session", {"session_id": deep}), ("get_status", "[" * 1000 + "]" * 1000)):
        reply = host.call(tool, args)
        assert reply.is_error and reply.result["error"]["rule"] == "CORE-ARGS", (tool, reply.result["error"])
        assert "CORE-ARGS" in reply.text
    sid = host.session.id if host.session else ""
    for text in ('{"x":' * 1000 + "1" + "}" * 1000, "[" * 1000 + "]" * 1000, '{"piece": ' + "[" * 1000 + "]" * 1000 + "}"):
        code, out = cli(tmp_path, "call", sid, "get_status", text)
        assert code == 1, out
        assert json.loads(out)["error"]["rule"] == "CORE-ARGS"
    code, out = cli(tmp_path, "call", sid, "get_status")
    assert code == 0, out
