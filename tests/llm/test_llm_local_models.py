"""What local models and OpenAI-compatible servers (Ollama, vLLM, llama.cpp, LM Studio) really
send, from recorded response bodies (``fixtures/``) through the real SDK clients: what the
engine received, what went back to the model, what the player read, and the state unchanged
where nothing legal was asked."""

from __future__ import annotations

import json
from typing import Any

import pytest
from llm_fakes import Call, Raw, Say, fixture, strict_args
from llm_game import CORPUS, Table, table
from local_models import CASES, events, run_case

from gm.referee.base import RefereeTurn
from gm.referee.llm.prompts import session_system_prompt, text_tools_prompt
from gm.referee.llm.referee import CUT_NUDGE, EMPTY_NUDGE, NO_TOOLS_FLAG, for_model, model_tools, reminder
from gm.transcript.format import Transcript
from gm.transcript.replay import replay

CASE = {c.name: c for c in CASES}
PLAY2 = {"play": 2, "colour": "black"}
PLAY2_EVENT = "Play 2 (Interior Run), defense wrong: +2 forward +2 bonus = +4; lateral none."
AFTER_PLAY2 = "Q1 | 14 downs left | home ball, 2nd & 6 at E18, attacking ^ row 59 | home 0 - 0 away | to act: home"
PLAY2_TEXT = '{"tool":"call_play","arguments":{"play":2,"colour":"black"}}'


def engine_got(turn: RefereeTurn) -> list[tuple[str, Any, str, bool, str | None]]:
    return [(c.tool, c.args, c.seat, c.ok, (c.result.get("error") or {}).get("rule")) for c in turn.calls]


def state(t: Table) -> tuple[Any, ...]:
    return t.session.state.snapshot(), list(t.session.log(None)), t.session.game.status(t.session.state, "home")


def gave_up(why: str, hint: str = "Type your message again, or say it differently.") -> str:
    return f"The referee model did not answer properly: {why}. Nothing changed in the game. {hint}"


# ------------------------------------------------------------ 1, 2: calls written as text
@pytest.mark.parametrize(("name", "said"), [
    ("llamacpp_json_bare", PLAY2_TEXT),
    ("vllm_hermes_tool_call", PLAY2_TEXT),
    ("vllm_mistral_tool_calls_text", PLAY2_TEXT),
    ("ollama_llama_function_tag", PLAY2_TEXT),
])
def test_a_call_written_in_the_text_runs_and_its_result_goes_back_as_text(name: str, said: str) -> None:
    t = table("openai", [Raw(fixture(name)), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]
    assert t.session.game.status(t.session.state, "home") == AFTER_PLAY2
    assert turn.narration == PLAY2_EVENT and turn.flags == []
    assert turn.board == t.session.game.render(t.session.state, "home")
    back = t.bodies()[1]["messages"][-2:]
    assert back == [
        {"role": "assistant", "content": said},
        {"role": "user", "content": f"[tool results]\ncall_play: {for_model(turn.calls[0].result)}"},
    ]


@pytest.mark.parametrize("kind", ["openai-responses", "anthropic"])
def test_a_json_call_in_text_through_the_other_apis(kind: str) -> None:
    t = table(kind, [Say(f"```json\n{PLAY2_TEXT}\n```"), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]
    assert turn.narration == PLAY2_EVENT and turn.flags == []
    results = f"[tool results]\ncall_play: {for_model(turn.calls[0].result)}"
    body = t.bodies()[1]
    if kind == "anthropic":
        assert body["messages"][-2:] == [
            {"role": "assistant", "content": [{"type": "text", "text": PLAY2_TEXT}]},
            {"role": "user", "content": [{"type": "text", "text": results}]},
        ]
    else:
        assert body["input"][-2:] == [{"role": "assistant", "content": PLAY2_TEXT}, {"role": "user", "content": results}]


def test_a_call_in_text_beside_words_is_not_run_on_a_server_with_tools_and_the_model_is_reminded() -> None:
    """LM Studio's "Calling your play now." and a fenced call: on a server that takes tool
    definitions a call in text runs only when it is the whole reply; the model is told, once."""
    t = table("openai", [Raw(fixture("lmstudio_json_fence")), Raw(fixture("llamacpp_json_bare")), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]  # once, from the reply that is the call alone
    assert t.bodies()[1]["messages"][-2:] == [
        {"role": "assistant", "content": fixture("lmstudio_json_fence")["choices"][0]["message"]["content"]},
        {"role": "user", "content": reminder("play 2 black", text_call=True)},
    ]
    assert turn.flags == [
        "text-call-not-run: call_play was written in the reply's text beside other words (this server takes tools: a call "
        "in text is run only when it is the whole reply)",
        "no-tool-call: reminded the model that nothing happened",
    ]
    assert turn.narration == PLAY2_EVENT


def test_a_call_in_text_beside_words_runs_on_a_server_without_tools() -> None:
    """Without tool definitions, text is the model's way of calling: "Calling your play now." and the
    call run (its words beside the call are no narration)."""
    t = table("openai", [Raw(fixture("ollama_tools_unsupported_400"), 400), Raw(fixture("lmstudio_json_fence")), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]
    assert turn.flags == [NO_TOOLS_FLAG] and turn.narration == PLAY2_EVENT


def test_a_truncated_tag_reaches_the_engine_as_broken_arguments_and_changes_nothing() -> None:
    text = '<tool_call>\n{"name": "call_play", "arguments": {"play": 2, "col'
    t = table("openai", [Say(text), Say("Sorry, that call was broken.")])
    before = state(t)
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", {"_raw": '{"play": 2, "col'}, "home", False, "CORE-ARGS")]
    assert state(t) == before
    assert turn.narration == (
        "Sorry, that call was broken.\n(Nothing happened in the game: the engine refused the move. [CORE-ARGS] "
        "arguments must be a JSON object: Unterminated string starting at: line 1 column 13 (char 12).)"
    )


# ------------------------------------------------------------ 3: several calls in one reply
def test_several_structured_calls_run_in_order_each_validated() -> None:
    t, (turn,) = run_case(CASE["several_calls"])
    assert engine_got(turn) == [
        ("call_play", {"play": 4, "colour": "red"}, "home", False, "GF-PLAY4-LOCK"),
        ("call_play", PLAY2, "home", True, None),
        ("punt", {}, "home", False, "GF-R-PUNT"),
    ]
    assert t.session.game.status(t.session.state, "home") == AFTER_PLAY2  # one move made, the refused ones nothing
    tool_msgs = [m for m in t.bodies()[1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_msgs] == ["chatcmpl-tool-a1", "chatcmpl-tool-a2", "chatcmpl-tool-a3"]
    back = [json.loads(m["content"]) for m in tool_msgs]
    assert [(b["ok"], b.get("rule")) for b in back] == [(False, "GF-PLAY4-LOCK"), (True, None), (False, "GF-R-PUNT")]
    assert back[2]["reason"] == "a punt is allowed only on 4th down; it is 2nd down"
    assert turn.narration == PLAY2_EVENT and turn.flags == []


def test_several_tagged_calls_run_in_order_and_come_back_in_one_message() -> None:
    t = table("openai", [Raw(fixture("ollama_two_tagged_calls")), events(1, 1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [
        ("call_play", {"play": 4, "colour": "red"}, "home", False, "GF-PLAY4-LOCK"),
        ("call_play", PLAY2, "home", True, None),
    ]
    lines = t.bodies()[1]["messages"][-1]["content"].splitlines()
    assert lines[0] == "[tool results]" and [json.loads(x.split(": ", 1)[1])["ok"] for x in lines[1:]] == [False, True]
    assert turn.narration == PLAY2_EVENT


def test_several_anthropic_tool_uses_each_get_their_result() -> None:
    t = table("anthropic", [Call([("call_play", {"play": 4, "colour": "red"}), ("call_play", PLAY2), ("punt", {})]), events(1, 1)])
    turn = t.say("play 2 black")
    assert [c.ok for c in turn.calls] == [False, True, False]
    results = [b for b in t.bodies()[1]["messages"][-1]["content"] if b["type"] == "tool_result"]
    assert [r["is_error"] for r in results] == [True, False, True]
    assert [r["tool_use_id"] for r in results] == ["toolu_1_0", "toolu_1_1", "toolu_1_2"]


# ------------------------------------------------------------ 4: reasoning beside the answer
def test_reasoning_is_never_narrated_nor_run() -> None:
    t, (first, second) = run_case(CASE["reasoning"])
    # vLLM reasoning_content names play 4 and a touchdown; Ollama reasoning holds a <tool_call> for a punt
    assert engine_got(first) == [("call_play", PLAY2, "home", True, None)]
    assert first.narration == "Play 2 black is in: you gain 4 rows to E18." and first.flags == []
    # llama.cpp: <think> in the content names play 4; only the tagged call after it runs
    assert engine_got(second) == [("call_play", PLAY2, "home", True, None)]
    assert second.narration == PLAY2_EVENT and second.flags == []
    bodies = json.dumps(t.bodies())
    assert "K60" not in bodies and "locked in quarter 1" not in bodies and "<think>" not in bodies
    assert t.bodies()[1]["messages"][-2]["content"] is None  # the assistant's call, no reasoning echoed
    assert t.bodies()[3]["messages"][-2]["content"] == PLAY2_TEXT
    # the transcript keeps the model's reasoning as it came (the player never sees it)
    raw = [e.response for e in t.recorder.transcript.entries if e.type == "llm_response"]
    assert raw[0]["choices"][0]["message"]["reasoning_content"].startswith("The player said play 2 black.")
    assert raw[1]["choices"][0]["message"]["reasoning"].startswith("Events say ball E14 -> E18.")


def test_reasoning_only_is_an_empty_reply_and_its_call_is_not_run() -> None:
    t = table("openai", [Raw(fixture("deepseek_reasoning_only")), Raw(fixture("llamacpp_json_bare")), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]  # once, from the second reply
    assert t.bodies()[1]["messages"][-1] == {"role": "user", "content": EMPTY_NUDGE}
    assert turn.flags == ["empty-reply: the model answered nothing; asked again"]


def test_anthropic_thinking_blocks_are_not_narration() -> None:
    t = table("anthropic", [Raw(fixture("anthropic_thinking_tool_use")), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]
    assert t.bodies()[1]["messages"][-2] == {
        "role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01A", "name": "call_play", "input": PLAY2}],
    }
    assert turn.narration == PLAY2_EVENT


# ------------------------------------------------------------ 5: a server that takes no tools
@pytest.mark.parametrize(("name", "status"), [
    ("ollama_tools_unsupported_400", 400),
    ("llamacpp_tools_need_jinja_500", 500),
    ("vllm_auto_tool_choice_400", 400),
])
def test_no_tools_falls_back_to_json_in_the_prompt_for_the_rest_of_the_session(name: str, status: int) -> None:
    t = table("openai", [Raw(fixture(name), status), Raw(fixture("ollama_json_protocol_call")),
                         Raw(fixture("ollama_json_protocol_narration")), Say(PLAY2_TEXT), events(1)])
    turn = t.say("play 2 black")
    first, second, third = t.bodies()
    assert "tools" in first and "tools" not in second and "tools" not in third
    system = f"{session_system_prompt(t.session, 'home')}\n\n{text_tools_prompt(model_tools(t.session))}"
    assert second["messages"][0] == {"role": "system", "content": system}
    assert second["messages"][1:] == first["messages"][1:]  # the same conversation, asked again
    assert '- call_play(play* integer 1-4, colour* red|black, lateral integer 0-3|null' in system
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]
    assert third["messages"][-1]["content"].startswith("[tool results]\ncall_play: {\"ok\":true")
    assert turn.narration == "Play 2 black: you gain 4 rows to E18. 2nd & 6." and turn.flags == [NO_TOOLS_FLAG]
    err = next(e.response for e in t.recorder.transcript.entries if e.type == "llm_response")["gm_error"]
    assert (err["kind"], err["status"]) == ("status", status)
    # remembered: the next message goes out without tools at once
    turn = t.say("play 2 black")
    assert "tools" not in t.bodies()[3] and t.bodies()[3]["messages"][0]["content"] == system
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)] and turn.flags == []


def test_another_400_is_an_error_not_a_fallback() -> None:
    t = table("openai", [Raw({"error": {"message": "the request exceeds the available context size", "type": "invalid_request_error"}}, 400)])
    before = state(t)
    turn = t.say("play 2 black")
    assert len(t.fake.requests) == 1 and not t.referee.text_tools
    assert turn.flags == ["llm-error: status: the model server answered 400 (Error code: 400 - the request exceeds the available context size)"]
    assert turn.narration.startswith("The referee model is not answering: the model server answered 400") and state(t) == before


# ------------------------------------------------------------ 6: an empty reply
def test_an_empty_reply_twice_is_told_plainly_and_changes_nothing() -> None:
    t = table("openai", CASE["empty_reply"].script())
    before = state(t)
    turn = t.say("play 2 black")
    assert len(t.fake.requests) == 2 and turn.calls == [] and state(t) == before
    assert t.bodies()[1]["messages"][-2:] == [{"role": "assistant", "content": "(no reply)"}, {"role": "user", "content": EMPTY_NUDGE}]
    assert turn.narration == gave_up("it gave no answer (an empty reply, twice)")
    assert turn.flags == ["empty-reply: the model answered nothing; asked again", "empty-reply: the model answered nothing again"]


@pytest.mark.parametrize("kind", ["openai-responses", "anthropic"])
def test_an_empty_reply_through_the_other_apis(kind: str) -> None:
    t = table(kind, [Say(""), Say("")])
    before = state(t)
    turn = t.say("play 2 black")
    assert len(t.fake.requests) == 2 and state(t) == before
    assert turn.narration == gave_up("it gave no answer (an empty reply, twice)")


def test_an_empty_reply_then_a_call() -> None:
    name, args = "call_play", strict_args("grid-football", "call_play", PLAY2)
    t = table("openai", [Raw(fixture("ollama_empty_reply")), Call([(name, args)]), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", args, "home", True, None)]
    assert turn.narration == PLAY2_EVENT and turn.flags == ["empty-reply: the model answered nothing; asked again"]


# ------------------------------------------------------------ 7: cut off at the token limit
CUT_FLAG = "cut-off: the reply hit the output token limit ({}); nothing in it was run"
CUT_TEXT = gave_up("its reply was cut off at its output token limit, twice",
                   "Try a shorter message, or raise the server's output token limit (--max-tokens).")


@pytest.mark.parametrize(("kind", "name", "stop"), [
    ("openai", "openai_length_truncated_call", "length"),
    ("openai", "llamacpp_length_truncated_text_call", "length"),
    ("anthropic", "anthropic_max_tokens_tool_use", "max_tokens"),
    ("openai-responses", "responses_incomplete_max_output_tokens", "incomplete"),
])
def test_a_cut_off_reply_is_never_run_asked_again_once_then_told(kind: str, name: str, stop: str) -> None:
    t = table(kind, [Raw(fixture(name)), Raw(fixture(name))])
    before = state(t)
    turn = t.say("play 2 black")
    assert turn.calls == [] and state(t) == before and len(t.fake.requests) == 2
    second = t.bodies()[1]
    if kind == "openai":
        assert second["messages"][-1] == {"role": "user", "content": CUT_NUDGE}
        assert not any(m.get("tool_calls") for m in second["messages"])  # the half call is not sent back
    elif kind == "anthropic":
        assert second["messages"][-1]["content"][-1] == {"type": "text", "text": CUT_NUDGE}
        assert not any(b.get("type") == "tool_use" for m in second["messages"] for b in m["content"])
    else:
        assert second["input"][-1] == {"role": "user", "content": CUT_NUDGE}
    assert turn.narration == CUT_TEXT
    assert turn.flags == [CUT_FLAG.format(stop) + "; asked again", CUT_FLAG.format(stop)]


def test_a_cut_off_reply_then_a_whole_call() -> None:
    t = table("openai", [Raw(fixture("openai_length_truncated_call")), Raw(fixture("vllm_hermes_tool_call")), events(1)])
    turn = t.say("play 2 black")
    assert engine_got(turn) == [("call_play", PLAY2, "home", True, None)]
    assert turn.narration == PLAY2_EVENT and turn.flags == [CUT_FLAG.format("length") + "; asked again"]


# ------------------------------------------------------------ 8: a query tool called forever
def test_a_model_looking_things_up_forever_is_stopped_at_the_cap() -> None:
    t = table("openai", CASE["query_loop"].script())
    before = state(t)
    turn = t.say("what can I do?")
    assert engine_got(turn) == [("legal_actions", {}, "home", True, None)] * 6
    assert len(t.fake.requests) == 7 and state(t) == before
    assert turn.narration == gave_up("it kept calling tools (6 in one message) without answering",
                                     "Ask a more direct question, or say your move.")
    assert turn.flags == ["tool-cap: more than 6 tool calls asked for"]


def test_a_move_then_endless_look_ups_keeps_the_move_and_says_so() -> None:
    name, args = "call_play", strict_args("grid-football", "call_play", PLAY2)
    t = table("openai", [Call([(name, args)]), *[Raw(fixture("ollama_legal_actions_call"))] * 8], max_tool_calls=3)
    turn = t.say("play 2 black")
    assert [c.tool for c in turn.calls] == ["call_play", "legal_actions", "legal_actions"]
    assert t.session.game.status(t.session.state, "home") == AFTER_PLAY2
    assert turn.narration.endswith("\n(gm stopped the referee model: it kept calling tools (3 in one message) without answering.)")
    assert turn.narration.startswith("home: play 2 black / away: play 1 red - no match\n" + PLAY2_EVENT[:-1])


# ------------------------------------------------------------ the corpus
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_case_replays_and_is_in_the_corpus(case: Any) -> None:
    t, _ = run_case(case)
    t.recorder.sync_bot_moves(t.session)
    fresh = t.recorder.transcript
    res = replay(fresh)
    assert res.ok, res.report()
    corpus = Transcript.load(CORPUS / case.file)
    assert [e.model_dump(mode="json") for e in corpus.entries] == [e.model_dump(mode="json") for e in fresh.entries]
    assert corpus.header.title == case.title and corpus.header.referee.kind == case.kind


def test_tools_refused_in_the_middle_of_a_turn_turns_the_calls_so_far_into_text() -> None:
    t = table("openai", [Raw(fixture("ollama_legal_actions_call")), Raw(fixture("ollama_tools_unsupported_400"), 400),
                         Raw(fixture("ollama_json_protocol_call")), events(1)])
    turn = t.say("play 2 black")
    assert [c.tool for c in turn.calls] == ["legal_actions", "call_play"] and turn.flags == [NO_TOOLS_FLAG]
    third = t.bodies()[2]
    assert "tools" not in third and not any(m["role"] == "tool" or m.get("tool_calls") for m in third["messages"])
    assert third["messages"][-2:] == [
        {"role": "assistant", "content": '{"tool":"legal_actions","arguments":{}}'},
        {"role": "user", "content": f"[tool results]\nlegal_actions: {for_model(turn.calls[0].result)}"},
    ]
    assert turn.narration == PLAY2_EVENT
