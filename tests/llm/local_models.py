"""The reply shapes of local models and OpenAI-compatible servers (``fixtures/``), each as a short
scripted game: the tests assert what the engine got and what the player read, and
``python tests/llm/llm_game.py`` records each one into the corpus (``transcripts/grid_football/llm_local_*.jsonl``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from llm_fakes import Conv, Raw, Say, Step, fixture
from llm_game import Table, table

from gm.referee.base import RefereeTurn


def events(n: int, i: int = 0) -> Callable[[Conv], Step]:
    """A narration quoting the engine: event ``n`` of tool output ``i`` of the last round."""
    return lambda conv: Say(str((conv.tool_outputs or [{}])[i]["events"][n]) + ".")


@dataclass(frozen=True)
class Case:
    name: str
    kind: str
    script: Callable[[], list[Any]]
    says: tuple[str, ...]
    title: str

    @property
    def file(self) -> str:
        return f"llm_local_{self.name}.jsonl"


CASES: list[Case] = [
    Case("json_in_text", "openai", lambda: [Raw(fixture("lmstudio_json_fence")), Raw(fixture("llamacpp_json_bare")), events(1)],
         ("play 2 black",),
         "LM Studio: a tool call written as JSON in a ```json fence after a sentence is not run on a server that takes tools; "
         "reminded, the model sends the call alone"),
    Case("tool_call_tags", "openai", lambda: [Raw(fixture("vllm_hermes_tool_call")), events(1)], ("play 2 black",),
         "vLLM without a tool parser: a Hermes/Qwen <tool_call> tag in the content"),
    Case("several_calls", "openai", lambda: [Raw(fixture("vllm_three_tool_calls")), events(1, 1)], ("play 2 black",),
         "vLLM: three tool calls in one reply, the first and last refused by the engine"),
    Case("reasoning", "openai", lambda: [
        Raw(fixture("vllm_reasoning_content_call")), Raw(fixture("ollama_reasoning_narration")),
        Raw(fixture("llamacpp_think_tags")), events(1),
    ], ("play 2 black", "play 2 black"),
         "Reasoning beside the answer (vLLM reasoning_content, Ollama reasoning, <think> in llama.cpp content): never narrated, never run"),
    Case("no_tools", "openai", lambda: [
        Raw(fixture("ollama_tools_unsupported_400"), 400), Raw(fixture("ollama_json_protocol_call")),
        Raw(fixture("ollama_json_protocol_narration")), Say('{"tool": "call_play", "arguments": {"play": 2, "colour": "black"}}'),
        events(1),
    ], ("play 2 black", "play 2 black"),
         "Ollama model without tool support (HTTP 400): the tools go into the prompt, JSON calls, for the rest of the session"),
    Case("empty_reply", "openai", lambda: [Raw(fixture("ollama_empty_reply")), Raw(fixture("ollama_empty_reply"))],
         ("play 2 black",), "Ollama: an empty reply, twice: one nudge, then the player is told"),
    Case("cut_off", "openai", lambda: [Raw(fixture("openai_length_truncated_call")), Raw(fixture("openai_length_truncated_call"))],
         ("play 2 black",), "A reply cut off at the token limit (finish_reason length) in the middle of a call, twice: never run"),
    Case("query_loop", "openai", lambda: [Raw(fixture("ollama_legal_actions_call"))] * 8, ("what can I do?",),
         "Ollama: a model calling legal_actions over and over, stopped at the tool-call cap"),
]


def run_case(case: Case, **opts: Any) -> tuple[Table, list[RefereeTurn]]:
    t = table(case.kind, case.script(), record_all=True, title=case.title, **opts)
    return t, [t.say(text) for text in case.says]
