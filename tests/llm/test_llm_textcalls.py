"""The pure readers of text-embedded tool calls and reasoning, on the recorded reply shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gm.referee.llm.textcalls import (
    TextCall,
    find_calls,
    render_call,
    render_outputs,
    split_reasoning,
    tools_unsupported,
)

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
