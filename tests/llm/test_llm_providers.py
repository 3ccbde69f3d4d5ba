"""Each provider's wire format through its real SDK client, retries and timeouts, secrecy
of the bot's pick, and a context that stays bounded."""

from __future__ import annotations

import itertools
import json
import time

import pytest
from llm_fakes import Call, Fail, RulesBrain, Say, Timeout, strict_args
from llm_game import play, table

from gm.referee.llm import MissingKeyError, build_referee
from gm.referee.llm.prompts import session_system_prompt

KINDS = ["openai", "openai-responses", "anthropic"]


def play2(kind: str) -> tuple[str, dict[str, object]]:
    args = {"play": 2, "colour": "black"}
    return "call_play", strict_args("grid-football", "call_play", args) if kind != "anthropic" else args


def test_openai_chat_wire_format() -> None:
    t = table("openai", [Call([play2("openai")]), Say("ok")])
    t.say("play 2 black")
    first, second = t.fake.requests
    assert first["path"] == "/v1/chat/completions" and first["headers"]["authorization"] == "Bearer test-key"
    body = second["body"]
    assert body["model"] == "scripted"
    assert body["messages"][0] == {"role": "system", "content": session_system_prompt(t.session, "home")}
    assert all(tool["type"] == "function" and tool["function"]["strict"] is True for tool in body["tools"])
    call = next(tool["function"] for tool in body["tools"] if tool["function"]["name"] == "call_play")
    assert call["parameters"]["additionalProperties"] is False and set(call["parameters"]["required"]) == set(call["parameters"]["properties"])
    assistant, tool_msg = body["messages"][-2:]
    assert assistant["role"] == "assistant" and assistant["tool_calls"][0]["function"]["name"] == "call_play"
    assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert json.loads(tool_msg["content"])["ok"] is True
    assert "commitments" not in tool_msg["content"] and "board" not in json.loads(tool_msg["content"])


def test_openai_responses_wire_format() -> None:
    t = table("openai-responses", [Call([play2("openai-responses")]), Say("ok")])
    t.say("play 2 black")
    first, second = t.fake.requests
    assert first["path"] == "/v1/responses"
    body = second["body"]
    assert body["store"] is False and body["instructions"] == session_system_prompt(t.session, "home")
    assert all(tool["type"] == "function" and tool["strict"] is True and "name" in tool for tool in body["tools"])
    fc, out = body["input"][-2:]
    assert fc["type"] == "function_call" and fc["name"] == "call_play"
    assert out == {"type": "function_call_output", "call_id": fc["call_id"], "output": out["output"]}


def test_anthropic_wire_format_with_caching_and_is_error() -> None:
    t = table("anthropic", [Call([("call_play", {"play": 4, "colour": "red"})]), Call([play2("anthropic")]), Say("ok")])
    t.say("play 2 black")
    first, _, third = t.fake.requests
    assert first["path"] == "/v1/messages" and "test-key" in first["headers"].get("x-api-key", first["headers"].get("authorization", ""))
    body = third["body"]
    assert body["max_tokens"] > 0
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert all("input_schema" in tool for tool in body["tools"])
    results = [b for m in body["messages"] if m["role"] == "user" and isinstance(m["content"], list)
               for b in m["content"] if b.get("type") == "tool_result"]
    assert [r["is_error"] for r in results] == [True, False]
    assert json.loads(results[0]["content"])["rule"] == "GF-PLAY4-LOCK"
    roles = [m["role"] for m in body["messages"]]
    assert all(a != b for a, b in itertools.pairwise(roles))  # roles alternate
    usage = [e for e in t.recorder.transcript.entries if e.type == "usage"]
    assert usage[1].cache_read_input_tokens and usage[1].input_tokens > usage[1].cache_read_input_tokens


# ----------------------------------------------------------------- failures
@pytest.mark.parametrize("kind", ["openai", "anthropic"])
@pytest.mark.parametrize("status", [429, 500, 503])
def test_retries_then_success(kind: str, status: int) -> None:
    t = table(kind, [Fail(status), Fail(status), Call([play2(kind)]), Say("Locked in.")], max_retries=2)
    turn = t.say("play 2 black")
    assert turn.accepted and turn.narration == "Locked in."
    assert t.fake.attempts == 4  # two failures retried by the SDK, then two requests


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("status", [429, 500])
def test_errors_after_retries_give_a_clear_message_and_leave_the_state_intact(kind: str, status: int) -> None:
    t = table(kind, [Fail(status)] * 3, max_retries=2)
    before = t.session.state.snapshot()
    turn = t.say("play 2 black")
    assert t.fake.attempts == 3
    assert t.session.state.snapshot() == before
    assert not turn.accepted and turn.control is None
    assert turn.narration.startswith("The referee model is not answering")
    assert ("429" if status == 429 else "500") in turn.narration
    assert "Nothing changed in the game" in turn.narration and "--referee offline" in turn.narration
    assert "\n" not in turn.narration and "Traceback" not in turn.narration
    entries = t.recorder.transcript.entries
    assert [e.response.get("gm_error", {}).get("status") for e in entries if e.type == "llm_response"] == [status]
    # the next message works again
    t.fake.queue.extend([Call([play2(kind)]), Say("Locked in.")])
    assert t.say("play 2 black").accepted


@pytest.mark.parametrize("kind", KINDS)
def test_timeouts_are_retried_then_reported(kind: str) -> None:
    t = table(kind, [Timeout(), Timeout()], max_retries=1, timeout=0.5)
    before = t.session.state.snapshot()
    start = time.perf_counter()
    turn = t.say("play 2 black")
    assert time.perf_counter() - start < 5
    assert t.fake.attempts == 2
    assert "timed out" in turn.narration and t.session.state.snapshot() == before
    assert any(f.startswith("llm-error: timeout") for f in turn.flags)


def test_a_failure_after_the_move_keeps_the_move_and_shows_the_engine_version() -> None:
    t = table("openai", [Call([play2("openai")]), Fail(500), Fail(500)], max_retries=1)
    turn = t.say("play 2 black")
    assert turn.accepted
    events = turn.calls[0].result["narration"]
    assert turn.narration.startswith(events[0])
    assert "Your move was made" in turn.narration
    assert turn.board == t.session.game.render(t.session.state, "home")


def test_a_refused_key_is_one_clear_message() -> None:
    t = table("openai", [Fail(401, "invalid api key")])
    turn = t.say("play 2 black")
    assert "API key was refused (401)" in turn.narration


def test_missing_key_says_how_to_set_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(MissingKeyError, match="OPENAI_API_KEY"):
        build_referee("openai")
    with pytest.raises(MissingKeyError, match="ANTHROPIC_API_KEY"):
        build_referee("anthropic")
    # a local OpenAI-compatible server needs no key
    ref = build_referee("openai", base_url="http://localhost:11434/v1", model="llama3.1")
    assert ref.model == "llama3.1" and ref.kind == "openai"


def test_base_url_reaches_the_compatible_server() -> None:
    from llm_fakes import FakeLLM

    fake = FakeLLM(script=[Say("Hello.")])
    ref = build_referee("openai", base_url="http://localhost:8080/v1", model="qwen", api_key="x", http_client=fake.client())
    t = table("openai", [])
    ref.handle(t.session, "home", "hello there")
    assert str(fake.requests[0]["path"]) == "/v1/chat/completions"
    assert fake.requests[0]["body"]["model"] == "qwen"


# ------------------------------------------------------------ hidden choices
def _first_requests(bot_pick: str) -> list[str]:
    """The request bodies of a turn where the bot's committed pick is ``bot_pick``."""
    from gm.referee.llm.referee import state_block

    t = table("openai", [Call([("get_status", {}), ("legal_actions", {}), ("get_square", {"square": "P14"}), ("get_board", {"full": True})]),
                         Say("Blocked squares stop runs.")])
    s = t.session
    # replace the bot's sealed pick by another one (same seat, same round): a counterfactual
    assert s.commitments(), "the bot must be committed before the player speaks"
    st = s.state
    away = st.pending["away"]
    st.pending["away"] = st.game.parse_action(bot_pick)
    for sec in s.book.open:
        sec.choice = bot_pick
    assert "locked" in state_block(s, "home")
    t.say("what happens on blocked squares?")
    st.pending["away"] = away
    return [json.dumps(r["body"], sort_keys=True) for r in t.fake.requests]


def test_the_bots_secret_pick_never_reaches_the_model_before_the_reveal() -> None:
    a = _first_requests("play 1 red")
    b = _first_requests("play 3 black")
    assert a == b  # nothing the model was sent depends on the bot's pick
    t = table("openai", [Call([play2("openai")]), Say("ok")])
    nonce_secret = t.session.book.open[0].nonce
    digest = t.session.commitments()["away"]
    t.say("play 2 black")
    first = json.dumps(t.fake.requests[0]["body"])
    assert nonce_secret not in first and digest not in first
    # after the reveal the model may see it: the result of the call carries the revealed pick
    second = json.dumps(t.fake.requests[1]["body"])
    assert "revealed" in second


# ------------------------------------------------------------ bounded context
def test_the_request_stays_the_same_size_all_game() -> None:
    played = play("openai", seed=15, rules={"win": "points"}, max_turns=70)
    firsts = []
    for r in played.fake.requests:
        msgs = r["body"]["messages"]
        if msgs[-1]["role"] == "user" and msgs[-1]["content"].startswith("[state"):
            firsts.append(len(json.dumps(r["body"])))
    assert len(firsts) >= 60
    assert firsts[59] <= 1.2 * firsts[4], (firsts[4], firsts[59])
    assert max(firsts) <= 1.3 * min(firsts[3:])
    history = [m for m in played.fake.requests[-1]["body"]["messages"] if m["role"] == "user"]
    assert len(history) <= 4 + 1


def test_prompt_and_tools_fit_the_budget() -> None:
    t = table("openai", [Say("Hi.")])
    t.say("hello")
    body = t.fake.requests[0]["body"]
    system = body["messages"][0]["content"]
    tools = json.dumps(body["tools"], separators=(",", ":"))
    assert len(system) + len(tools) < 6000


def test_custom_rules_reach_the_prompt() -> None:
    t = table("openai", [Say("Hi.")], rules={"kick_distance": 50, "win": "points", "touchdown_points": 6})
    t.say("hello")
    system = t.fake.requests[0]["body"]["messages"][0]["content"]
    assert "Kickoff: 50 rows" in system and "A touchdown is 6 points" in system
    default = table("openai", [Say("Hi.")])
    default.say("hello")
    assert "Kickoff: 55 rows" in default.fake.requests[0]["body"]["messages"][0]["content"]


def test_other_games_get_the_default_summary() -> None:
    from gm.session import Session

    for game in ("gridmaster4", "quarterback"):
        s = Session.create(game, persist=False)
        prompt = session_system_prompt(s, s.game.seats[0])
        assert s.game.name in prompt and next(iter(s.game.rules_index)) in prompt


def test_brain_is_well_behaved() -> None:
    t = table("openai", brain=RulesBrain())
    assert t.say("play 1 red").accepted
