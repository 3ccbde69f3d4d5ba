"""The session's dispatch collaborator (:class:`gm.session.dispatch.Dispatcher`): one call in, one
JSON-ready answer out, never an exception.

A refused call answers in one shape (rule id, reason, the status and who acts next as the caller may
see them) and changes neither the game nor the store; a failure inside a tool, or of the store
itself, is answered the same way; a move written as text goes through the structured tool it stands
for, so its result and its record are those of the structured call.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gm.core.errors import GameError
from gm.core.tools import call_for_action
from gm.session import MemoryStore, Session
from gm.session.dispatch import Dispatcher


def _hot_seat(game: str = "grid-football", **rules: Any) -> Session:
    return Session.create(game, seed=3, rules=rules or None, players={}, persist=False, record=False)


def _store_state(s: Session) -> tuple[str, int]:
    return json.dumps(s.state.to_json(), sort_keys=True), s.ledger.stored_count()


def test_the_session_calls_through_its_dispatcher() -> None:
    via_session, via_dispatcher = _hot_seat(), _hot_seat()
    a = via_session.call("call_coin_toss", {"call": "heads"}, "away", board=True)
    b = via_dispatcher.dispatch.call("call_coin_toss", {"call": "heads"}, "away", True)
    assert isinstance(via_dispatcher.dispatch, Dispatcher)
    assert b["ok"] is True and "board" in b and json.dumps(a) == json.dumps(b)
    assert len(via_dispatcher.state.log) == 1 and via_dispatcher.ledger.stored_count() == 1
    assert via_dispatcher.dispatch.tools is via_dispatcher.tools and via_dispatcher.model_tools is via_dispatcher.dispatch.model_tools


@pytest.mark.parametrize(
    ("tool", "args", "seat", "rule", "reason"),
    [
        ("fly_away", {}, "away", "CORE-TOOL", "no such tool"),
        (["call_coin_toss"], {}, "away", "CORE-TOOL", "no such tool"),
        ("call_coin_toss", {"call": "heads"}, "left", "CORE-SEAT", "unknown seat; grid-football has home, away"),
        ("call_coin_toss", {"call": "heads"}, None, "CORE-SEAT", "an action needs the calling side (seat)"),
        ("call_coin_toss", {"call": "edge"}, "away", "CORE-ARGS", "call: Input should be 'heads' or 'tails'"),
        ("call_coin_toss", {"call": "heads", "bogus": 1}, "away", "CORE-ARGS", "bogus: unknown argument"),
    ],
)
def test_a_refused_call_answers_in_one_shape_and_changes_nothing(tool: Any, args: Any, seat: Any, rule: str, reason: str) -> None:
    s = _hot_seat()
    before = _store_state(s)
    r = s.dispatch.call(tool, args, seat)
    assert r["ok"] is False and r["error"]["rule"] == rule and r["error"]["reason"].startswith(reason)
    assert list(r) == ["ok", "tool", "seat", "error", "status", "expected", "commitments"]
    assert r["tool"] == (tool if isinstance(tool, str) else repr(tool)) and r["seat"] == seat
    assert r["status"] == s.game.status(s.state, seat if seat in s.game.seats else None) and r["expected"] == s.expected()
    assert _store_state(s) == before


def test_a_bot_seat_cannot_be_called_for_and_is_told_nothing_private() -> None:
    s = Session.create("brawl", seed=7, players={"away": "bot:random"}, persist=False, record=False)
    r = s.dispatch.call("get_status", {}, "away")
    assert r["ok"] is False and r["error"]["rule"] == "CORE-SEAT"
    assert r["error"]["reason"] == "away is played by bot:random; a call can only be made for a human seat"
    assert r["error"]["legal"] == ["home"]
    assert r["status"] == s.game.status(s.state, None) and r["expected"] == s.expected(None)  # a spectator's view


def test_a_failure_inside_a_tool_is_an_internal_error_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    s = _hot_seat()

    def broken(state: Any, seat: str | None = None) -> str:
        raise RuntimeError("the status line broke")

    monkeypatch.setattr(s.game, "status", broken)
    r = s.dispatch.call("legal_actions", {}, "away")
    assert r["ok"] is False and r["error"]["rule"] == "CORE-INTERNAL"
    assert r["error"]["reason"] == "internal error: RuntimeError: the status line broke"
    assert r["status"] == "" and r["expected"] == []  # (the error's own view failed too: it says nothing)
    assert s.state.log == []


def test_a_session_deleted_under_a_call_is_answered_not_raised() -> None:
    store = MemoryStore()
    s = Session.create("grid-football", seed=3, players={}, store=store, record=False)
    store.delete(s.id)
    r = s.dispatch.call("call_coin_toss", {"call": "heads"}, "away")
    assert r["ok"] is False and r["error"]["rule"] == "CORE-SESSION" and s.state.log == []


def test_spec_finds_the_session_tools_and_the_models_move_as_text_tool() -> None:
    s = _hot_seat("chess-football", possessions_per_half=1, max_turns_per_down=2)
    d = s.dispatch
    assert d.spec("get_status") is d.index["get_status"]
    text_tool = d.spec("turn_action")
    assert text_tool is not None and text_tool.covers and text_tool in d.model_tools and text_tool not in d.tools
    assert d.spec("fly_away") is None and d.spec(3) is None


def _to_turn(s: Session, rng: random.Random) -> str:
    """Play seeded random moves until a seat must make a reaction turn; that seat."""
    while not s.state.is_terminal:
        seat = s.state.to_act()[0]
        if s.state.decision(seat) == "turn":
            return seat
        assert s.call(*call_for_action(s.tools, s.state.legal_actions(seat).sample(rng)), seat)["ok"]
    raise AssertionError("the game ended before a reaction turn")


def test_a_move_written_as_text_is_made_through_the_tool_it_stands_for() -> None:
    rules = {"possessions_per_half": 1, "max_turns_per_down": 2}
    by_text, structured = _hot_seat("chess-football", **rules), _hot_seat("chess-football", **rules)
    seat = _to_turn(by_text, random.Random(4))
    assert _to_turn(structured, random.Random(4)) == seat
    action = by_text.state.legal_actions(seat).sample(random.Random(9))
    got = by_text.dispatch.call("turn_action", {"action": str(action)}, seat)
    want = structured.dispatch.call(*call_for_action(structured.tools, action), seat)
    assert got["ok"] is True and json.dumps(got) == json.dumps(want)  # the structured tool's result, byte for byte
    assert by_text.store.read(by_text.id).records[-1]["action"] == structured.store.read(structured.id).records[-1]["action"]
    refused = by_text.dispatch.call("turn_action", {"action": "resign politely"}, by_text.state.to_act()[0])
    assert refused["ok"] is False and refused["error"]["rule"] == "CF-SYNTAX" and refused["error"]["input"] == "resign politely"


def test_the_error_shape_names_what_the_caller_may_see() -> None:
    s = _hot_seat()
    r = s.dispatch.error("get_status", "away", GameError("no", rule="X-1", input="in", legal=["a"]))
    assert r == {
        "ok": False, "tool": "get_status", "seat": "away",
        "error": {"kind": "error", "rule": "X-1", "input": "in", "reason": "no", "legal": ["a"]},
        "status": s.game.status(s.state, "away"), "expected": s.expected("away"), "commitments": {},
    }
