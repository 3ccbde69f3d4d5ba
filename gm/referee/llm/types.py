"""Provider-neutral pieces of an LLM conversation: what the referee loop sends and gets back.

The loop speaks only these types; each provider adapter turns them into its own wire
format (:mod:`gm.referee.llm.providers`) and a reply back into a :class:`Reply`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gm.core.tools import ToolSpec


@dataclass(frozen=True)
class ToolUse:
    """One tool call requested by the model; ``arguments`` as the model sent them
    (a JSON text from OpenAI, a dict from Anthropic)."""

    id: str
    name: str
    arguments: str | dict[str, Any] | None
    #: written in the reply's text (JSON, ``<tool_call>`` tags), not a structured call: it and its
    #: result go back to the model as text
    in_text: bool = False
    #: written in text inside explanation - an example, an offer, a question, a conditional - so
    #: shown rather than sent (:func:`gm.referee.llm.textcalls.framed`): never run
    framed: bool = False


@dataclass(frozen=True)
class Usage:
    """Token usage of one request.  ``input_tokens`` counts *every* input token of the
    request (cached ones included, whatever the provider's own convention)."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None


@dataclass(frozen=True)
class Reply:
    """A model response: its text (reasoning and text-written calls taken out), the tool calls it
    asks for, usage and the raw JSON.  ``reasoning`` is never narration; ``truncated``: the reply
    hit the output token limit (its calls may be half written); ``answer``: what the model wrote,
    reasoning out but calls written in it kept; ``alone``: the answer is nothing but the calls
    written in it (fences and markers aside)."""

    text: str
    tool_uses: tuple[ToolUse, ...]
    usage: Usage
    raw: dict[str, Any]
    stop: str | None = None
    reasoning: str = ""
    truncated: bool = False
    answer: str = ""
    alone: bool = False
    #: the reasoning came first with no opening tag, ended by a lone ``</think>`` (a chat template
    #: that opens the tag itself): streamed text must wait for it
    reasoning_first: bool = False


# ------------------------------------------------------------ conversation items
@dataclass(frozen=True)
class UserText:
    text: str


@dataclass(frozen=True)
class AssistantTurn:
    text: str
    tool_uses: tuple[ToolUse, ...] = ()


@dataclass(frozen=True)
class ToolOutput:
    id: str
    name: str
    content: str
    is_error: bool
    in_text: bool = False


@dataclass(frozen=True)
class ToolOutputs:
    outputs: tuple[ToolOutput, ...]


Item = UserText | AssistantTurn | ToolOutputs


@dataclass
class Request:
    """Everything one model request carries: system prompt, tools and messages."""

    system: str
    tools: list[ToolSpec]
    messages: list[Item] = field(default_factory=list)


class LLMError(Exception):
    """The model could not be asked (after the SDK's retries) or gave an unusable answer."""

    def __init__(self, message: str, *, kind: str = "error", status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind  # rate_limit | timeout | connection | status | auth | bad_response | replay | error
        self.status = status

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "status": self.status, "message": self.message}


class MissingKeyError(Exception):
    """No API key for a hosted provider; ``help`` says how to set one."""

    def __init__(self, provider: str, env: str) -> None:
        self.provider = provider
        self.env = env
        self.help = (
            f"the {provider} referee needs an API key: set {env} (e.g. export {env}=...)"
            + (", or use --base-url for a local OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio)"
               if provider == "openai" else ", or use --base-url for an Anthropic-compatible server")
        )
        super().__init__(self.help)
