"""The pure readers of text-embedded tool calls and reasoning, and the reply parsers and payload
builders around them, on the recorded reply shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gm.referee.llm.providers import (
    anthropic_payload,
    chat_payload,
    parse_anthropic,
    parse_chat,
    parse_responses,
    responses_payload,
)
from gm.referee.llm.textcalls import (
    TextCall,
    alone,
    find_calls,
    framed,
    locate_calls,
    render_call,
    render_outputs,
    split_reasoning,
    tools_unsupported,
)
from gm.referee.llm.types import AssistantTurn, Reply, Request, ToolOutput, ToolOutputs, ToolUse, UserText

FIXTURES = Path(__file__).parent / "fixtures"
PLAY2 = TextCall("call_play", {"play": 2, "colour": "black"})
PLAY4 = TextCall("call_play", {"play": 4, "colour": "red"})


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def content(name: str) -> str:
    return str(fixture(name)["choices"][0]["message"]["content"])


@pytest.mark.parametrize(("name", "rest"), [
    ("lmstudio_json_fence", "Calling your play now."),
    ("llamacpp_json_bare", ""),
    ("vllm_hermes_tool_call", ""),
    ("ollama_json_protocol_call", ""),
])
def test_one_call_written_as_text(name: str, rest: str) -> None:
    assert find_calls(content(name)) == (rest, [PLAY2])


def test_tagged_calls_in_order() -> None:
    assert find_calls(content("ollama_two_tagged_calls")) == ("", [PLAY4, PLAY2])


def test_think_block_is_reasoning_and_never_a_call() -> None:
    answer, reasoning = split_reasoning(content("llamacpp_think_tags"))
    assert reasoning.startswith("The player wants play 2 black. Should I call {")
    assert "<think>" not in answer and "play 4" not in answer
    assert find_calls(answer) == ("", [PLAY2])


def test_unclosed_think_and_lone_closing_tag() -> None:
    assert split_reasoning("<think>still thinking about {\"tool\": \"punt\"}") == ("", "still thinking about {\"tool\": \"punt\"}")
    assert split_reasoning("hmm, play 2?</think>Play 2 black is in.") == ("Play 2 black is in.", "hmm, play 2?")
    assert split_reasoning("No tags here.") == ("No tags here.", "")


def test_truncated_tagged_call_keeps_its_name_and_broken_arguments() -> None:
    rest, calls = find_calls(content("llamacpp_length_truncated_text_call"))
    assert rest == "" and calls == [TextCall("call_play", '{"play": 2, "col')]


@pytest.mark.parametrize("text", [
    "Play 2 black gains 4 rows to E18.",
    'The score is {"home": 0, "away": 0}.',
    'Your name is {"name": "Ann"}.',
    "Choose [1] or [2].",
])
def test_prose_and_json_that_is_not_a_call_stays_text(text: str) -> None:
    assert find_calls(text) == (text, [])


def test_other_call_shapes() -> None:
    openai_shape = '{"type": "function", "function": {"name": "call_play", "arguments": "{\\"play\\": 2, \\"colour\\": \\"black\\"}"}}'
    assert find_calls(openai_shape) == ("", [PLAY2])
    listed = '[{"name": "call_play", "arguments": {"play": 4, "colour": "red"}}, {"tool": "legal_actions"}]'
    assert find_calls(listed) == ("", [PLAY4, TextCall("legal_actions", {})])
    wrapped = 'Sure. {"tool_calls": [{"name": "punt", "arguments": null}]} Done.'
    assert find_calls(wrapped) == ("Sure.  Done.", [TextCall("punt", {})])


@pytest.mark.parametrize(("name", "unsupported"), [
    ("ollama_tools_unsupported_400", True),
    ("llamacpp_tools_need_jinja_500", True),
    ("vllm_auto_tool_choice_400", True),
])
def test_tools_unsupported_errors(name: str, unsupported: bool) -> None:
    assert tools_unsupported(json.dumps(fixture(name))) is unsupported


@pytest.mark.parametrize("message", [
    "Error code: 400 - the request exceeds the available context size",
    "Error code: 400 - invalid tool name 'x'",
    "Error code: 429 - rate limited",
])
def test_other_errors_are_not_read_as_no_tools(message: str) -> None:
    assert tools_unsupported(message) is False


def test_rendered_calls_read_back() -> None:
    text = render_call("call_play", '{"play": 2, "colour": "black"}')
    assert text == '{"tool":"call_play","arguments":{"play":2,"colour":"black"}}'
    assert find_calls(text) == ("", [PLAY2])
    assert render_outputs([("call_play", '{"ok":true}'), ("punt", '{"ok":false}')]) == (
        '[tool results]\ncall_play: {"ok":true}\npunt: {"ok":false}'
    )


@pytest.mark.parametrize("name", ["vllm_mistral_tool_calls_text", "ollama_llama_function_tag"])
def test_mistral_and_llama_text_formats(name: str) -> None:
    assert find_calls(content(name)) == ("", [PLAY2])


# ---------------------------------------------------------- the parsers on the fixtures
def uses(reply: Reply) -> list[tuple[str, Any, bool]]:
    return [(u.name, u.arguments, u.in_text) for u in reply.tool_uses]


def test_parse_chat_text_calls_become_in_text_tool_uses() -> None:
    reply = parse_chat(fixture("lmstudio_json_fence"))
    assert (reply.text, uses(reply), reply.reasoning, reply.truncated) == (
        "Calling your play now.", [("call_play", {"play": 2, "colour": "black"}, True)], "", False)
    assert [u.id for u in parse_chat(fixture("ollama_two_tagged_calls")).tool_uses] == ["text_call_0", "text_call_1"]


def test_parse_chat_reasoning_fields_and_think_tags() -> None:
    vllm = parse_chat(fixture("vllm_reasoning_content_call"))
    assert uses(vllm) == [("call_play", '{"play": 2, "colour": "black"}', False)]
    assert vllm.text == "" and vllm.reasoning.startswith("The player said play 2 black. I could write {")
    ollama = parse_chat(fixture("ollama_reasoning_narration"))
    assert (ollama.text, ollama.tool_uses) == ("Play 2 black is in: you gain 4 rows to E18.", ())
    assert ollama.reasoning.endswith('<tool_call>{"name": "punt", "arguments": {}}</tool_call>')
    think = parse_chat(fixture("llamacpp_think_tags"))
    assert (think.text, uses(think)) == ("", [("call_play", {"play": 2, "colour": "black"}, True)])
    assert think.reasoning.startswith("The player wants play 2 black.")
    only = parse_chat(fixture("deepseek_reasoning_only"))
    assert (only.text, only.tool_uses) == ("", ()) and only.reasoning


def test_structured_calls_win_over_echoes_in_the_text() -> None:
    raw = fixture("vllm_three_tool_calls")
    raw["choices"][0]["message"]["content"] = '<tool_call>{"name": "punt", "arguments": {}}</tool_call>'
    reply = parse_chat(raw)
    assert [u.name for u in reply.tool_uses] == ["call_play", "call_play", "punt"] and reply.text == ""
    assert not any(u.in_text for u in reply.tool_uses)


def test_truncated_replies_per_api() -> None:
    assert parse_chat(fixture("openai_length_truncated_call")).truncated
    assert parse_chat(fixture("llamacpp_length_truncated_text_call")).truncated
    assert parse_anthropic(fixture("anthropic_max_tokens_tool_use")).truncated
    assert parse_responses(fixture("responses_incomplete_max_output_tokens")).truncated
    assert not parse_chat(fixture("vllm_three_tool_calls")).truncated


def test_anthropic_thinking_is_reasoning() -> None:
    reply = parse_anthropic(fixture("anthropic_thinking_tool_use"))
    assert (reply.text, uses(reply)) == ("", [("call_play", {"play": 2, "colour": "black"}, False)])
    assert reply.reasoning == 'Play 2 black. Not {"name": "punt", "arguments": {}}.'


def test_chat_payload_writes_text_calls_back_as_text_and_omits_empty_tools() -> None:
    use = ToolUse("text_call_0", "call_play", {"play": 2, "colour": "black"}, in_text=True)
    out = ToolOutput("text_call_0", "call_play", '{"ok":true}', False, True)
    req = Request("sys", [], [UserText("play 2 black"), AssistantTurn("Sure.", (use,)), ToolOutputs((out,))])
    assert chat_payload("m", req) == {"model": "m", "messages": [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "play 2 black"},
        {"role": "assistant", "content": 'Sure.\n{"tool":"call_play","arguments":{"play":2,"colour":"black"}}'},
        {"role": "user", "content": '[tool results]\ncall_play: {"ok":true}'},
    ]}
    assert "tools" not in anthropic_payload("m", req) and "tools" not in responses_payload("m", req)


# ------------------------------------------------------------------ where a call is written
CALL = '{"name": "call_play", "arguments": {"play": 2, "colour": "black"}}'


@pytest.mark.parametrize(("text", "is_framed", "is_alone"), [
    (CALL, False, True),
    (f"```json\n{CALL}\n```", False, True),
    (f"<tool_call>\n{CALL}\n</tool_call>", False, True),
    (f"[TOOL_CALLS] [{CALL}]", False, True),
    (f"Calling your play now.\n{CALL}", False, False),
    (f"Sure. {CALL} Done.", False, False),
    (f"To make that move you would send {CALL} - but only if you want it", True, False),
    (f"Should I send this?\n{CALL}", True, False),
    (f"For example: {CALL}", True, False),
    (f"Use `{CALL}` to play.", True, False),
    (f"If you want play 2, I'd send {CALL}.", True, False),
    (f"{CALL}\nShall I?", True, False),
])
def test_where_a_call_is_written(text: str, is_framed: bool, is_alone: bool) -> None:
    """A call is run only as the whole reply on a server with tools; without tools, unless it sits
    in explanation (an example, an offer, a question, a condition, inline code)."""
    found = locate_calls(text)
    assert [f.call.name for f in found] == ["call_play"]
    assert framed(text, found[0].start, found[0].end) is is_framed
    assert alone(text, found) is is_alone
