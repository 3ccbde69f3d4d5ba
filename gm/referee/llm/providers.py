"""Provider adapters: the neutral :class:`Request` in each API's wire format, and back.

Three APIs, one shape each:

- ``openai`` – Chat Completions with strict function tools (OpenAI and any
  OpenAI-compatible server via ``base_url``: Ollama, llama.cpp, vLLM, LM Studio);
- ``openai-responses`` – the Responses API (stateless: ``store=False``, the whole
  turn is sent each time);
- ``anthropic`` – Messages with tool use, ``is_error`` tool results and prompt
  caching (``cache_control``) on the tools and the system prompt.

Payload builders and reply parsers are pure functions over JSON (no SDK import), so
a transcript's recorded responses replay without any SDK and a benchmark can size
the exact payloads.  The live adapters import their SDK lazily, call it through
its own client (retries and timeouts are the SDK's), record ``model_dump()`` of the
response and parse that dump, so a live reply and a replayed one take the same path.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from gm.core.schemas import to_anthropic, to_openai, to_openai_responses
from gm.core.tools import ToolSpec
from gm.referee.llm.textcalls import (
    alone,
    framed,
    locate_calls,
    render_call,
    render_outputs,
    split_reasoning,
    without_calls,
)
from gm.referee.llm.types import (
    AssistantTurn,
    LLMError,
    MissingKeyError,
    Reply,
    Request,
    ToolOutputs,
    ToolUse,
    Usage,
    UserText,
)

KINDS = ("openai", "openai-responses", "anthropic")
DEFAULT_MODELS = {"openai": "gpt-5.4-mini", "openai-responses": "gpt-5.4-mini", "anthropic": "claude-haiku-4-5"}
MODEL_ENV = {"openai": "GM_OPENAI_MODEL", "openai-responses": "GM_OPENAI_MODEL", "anthropic": "GM_ANTHROPIC_MODEL"}
KEY_ENV = {"openai": "OPENAI_API_KEY", "openai-responses": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
#: where each SDK reads a server's address when no ``base_url`` is given
BASE_URL_ENV = {"openai": "OPENAI_BASE_URL", "openai-responses": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
#: Anthropic requires a cap on output tokens; narration is a few sentences
MAX_OUTPUT_TOKENS = 1024


class Provider(Protocol):
    """Sends one request to a model and returns its reply (raises :class:`LLMError`)."""

    kind: str
    model: str

    def complete(self, request: Request) -> Reply: ...


# ------------------------------------------------------------------ payloads
@lru_cache(maxsize=32)
def tool_schemas(kind: str, tools: tuple[ToolSpec, ...]) -> list[dict[str, Any]]:
    """The tools in ``kind``'s format, computed once per tool list (the SDKs do not
    mutate them; nobody else may either).  Anthropic's last tool carries a cache breakpoint."""
    if kind == "openai":
        return to_openai(tools)
    if kind == "openai-responses":
        return to_openai_responses(tools)
    out = copy.deepcopy(to_anthropic(tools))
    if out:
        out[-1]["cache_control"] = {"type": "ephemeral"}
    return out


def _args_text(arguments: str | dict[str, Any] | None) -> str:
    if isinstance(arguments, str):
        return arguments
    return json.dumps(arguments if arguments is not None else {}, separators=(",", ":"))


def chat_payload(model: str, request: Request) -> dict[str, Any]:
    """Chat Completions ``create`` arguments."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": request.system}]
    for item in request.messages:
        if isinstance(item, UserText):
            messages.append({"role": "user", "content": item.text})
        elif isinstance(item, AssistantTurn):
            structured = [u for u in item.tool_uses if not u.in_text]
            text = _said(item)
            # content may be null only next to tool calls
            msg: dict[str, Any] = {"role": "assistant", "content": text or (None if structured else "(no reply)")}
            if structured:
                msg["tool_calls"] = [
                    {"id": u.id, "type": "function", "function": {"name": u.name, "arguments": _args_text(u.arguments)}}
                    for u in structured
                ]
            messages.append(msg)
        else:
            messages.extend({"role": "tool", "tool_call_id": o.id, "content": o.content} for o in item.outputs if not o.in_text)
            if results := _text_results(item):
                messages.append({"role": "user", "content": results})
    return _with_tools({"model": model, "messages": messages}, "openai", request)


def responses_payload(model: str, request: Request) -> dict[str, Any]:
    """Responses API ``create`` arguments (stateless: nothing stored server-side)."""
    items: list[dict[str, Any]] = []
    for item in request.messages:
        if isinstance(item, UserText):
            items.append({"role": "user", "content": item.text})
        elif isinstance(item, AssistantTurn):
            if text := _said(item):
                items.append({"role": "assistant", "content": text})
            items.extend(
                {"type": "function_call", "call_id": u.id, "name": u.name, "arguments": _args_text(u.arguments)}
                for u in item.tool_uses
                if not u.in_text
            )
        else:
            items.extend(
                {"type": "function_call_output", "call_id": o.id, "output": o.content} for o in item.outputs if not o.in_text
            )
            if results := _text_results(item):
                items.append({"role": "user", "content": results})
    payload = {"model": model, "instructions": request.system, "input": items}
    return {**_with_tools(payload, "openai-responses", request), "store": False}


def anthropic_payload(model: str, request: Request) -> dict[str, Any]:
    """Messages ``create`` arguments; the tools and the system prompt carry cache breakpoints."""
    messages: list[dict[str, Any]] = []

    def add(role: str, blocks: list[dict[str, Any]]) -> None:
        if messages and messages[-1]["role"] == role:  # roles alternate: merge
            messages[-1]["content"].extend(blocks)
        else:
            messages.append({"role": role, "content": blocks})

    for item in request.messages:
        if isinstance(item, UserText):
            add("user", [{"type": "text", "text": item.text}])
        elif isinstance(item, AssistantTurn):
            text = _said(item)
            blocks: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
            for u in item.tool_uses:
                if not u.in_text:
                    args = u.arguments if isinstance(u.arguments, dict) else _loads_object(u.arguments)
                    blocks.append({"type": "tool_use", "id": u.id, "name": u.name, "input": args})
            add("assistant", blocks or [{"type": "text", "text": "(no reply)"}])
        else:
            results: list[dict[str, Any]] = [
                {"type": "tool_result", "tool_use_id": o.id, "content": o.content, "is_error": o.is_error}
                for o in item.outputs
                if not o.in_text
            ]
            if text := _text_results(item):
                results.append({"type": "text", "text": text})
            add("user", results)
    payload = {
        "model": model,
        "max_tokens": MAX_OUTPUT_TOKENS,
        "system": [{"type": "text", "text": request.system, "cache_control": {"type": "ephemeral"}}],
    }
    return {**_with_tools(payload, "anthropic", request), "messages": messages}


def _with_tools(payload: dict[str, Any], kind: str, request: Request) -> dict[str, Any]:
    """``payload`` with the tools in ``kind``'s format; none at all for a server that takes none
    (an empty ``tools`` list is an error for some APIs)."""
    if request.tools:
        payload["tools"] = tool_schemas(kind, tuple(request.tools))
    return payload


def _said(item: AssistantTurn) -> str:
    """What the model said, as it goes back to it: its text, and its text-written calls in gm's JSON form."""
    calls = [render_call(u.name, u.arguments) for u in item.tool_uses if u.in_text]
    return "\n".join(x for x in (item.text, *calls) if x)


def _text_results(item: ToolOutputs) -> str:
    """The results of text-written calls, as one message (empty when there are none)."""
    outs = [(o.name, o.content) for o in item.outputs if o.in_text]
    return render_outputs(outs) if outs else ""


def _loads_object(text: str | None) -> dict[str, Any]:
    try:
        data = json.loads(text or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


PAYLOADS: dict[str, Callable[[str, Request], dict[str, Any]]] = {
    "openai": chat_payload,
    "openai-responses": responses_payload,
    "anthropic": anthropic_payload,
}


# ------------------------------------------------------------------- parsers
def _int(x: Any) -> int | None:
    return x if isinstance(x, int) and not isinstance(x, bool) else None


@dataclass(frozen=True)
class ReadText:
    """A reply's text read: the words without reasoning and calls, the calls, the reasoning, the
    answer as written (calls kept) and whether it is nothing but calls."""

    text: str
    uses: tuple[ToolUse, ...]
    reasoning: str
    answer: str
    alone: bool
    reasoning_first: bool = False

    def reply(self, usage: Usage, raw: dict[str, Any], stop: str | None, truncated: bool) -> Reply:
        """The :class:`Reply` of a response read to this, with its usage, raw JSON and stop reason."""
        return Reply(self.text, self.uses, usage, raw, stop, self.reasoning, truncated, self.answer, self.alone, self.reasoning_first)


def read_parts(texts: list[str], uses: list[ToolUse], thoughts: list[str]) -> ReadText:
    """:func:`read_text` of a reply that comes in parts (text blocks, calls, reasoning blocks; empty ones left out)."""
    return read_text("\n".join(t for t in texts if t), tuple(uses), "\n".join(t for t in thoughts if t))


def read_text(text: str, uses: tuple[ToolUse, ...], reasoning: str = "") -> ReadText:
    """A reply's text: ``<think>`` blocks out of the text and into the reasoning; without structured
    calls, the calls written in the text (tags, JSON) become in-text tool uses (each marked
    ``framed`` when it sits in explanation) and leave the text."""
    answer, thought = split_reasoning(text)
    reasoning = "\n".join(r for r in (reasoning, thought) if r)
    found = locate_calls(answer)
    if not uses:
        uses = tuple(ToolUse(f"text_call_{i}", f.call.name, f.call.arguments, in_text=True, framed=framed(answer, f.start, f.end))
                     for i, f in enumerate(found))
    # beside structured calls, text-written ones are echoes: out of the text, not run twice
    low = text.lower()
    first = ("</think>" in low and "<think>" not in low) or ("</thinking>" in low and "<thinking>" not in low)
    return ReadText(without_calls(answer, found), uses, reasoning, answer, alone(answer, found), first)


def parse_chat(raw: dict[str, Any]) -> Reply:
    """A Chat Completions response (as ``model_dump()``) -> :class:`Reply`."""
    try:
        choice = raw["choices"][0]
        msg = choice.get("message") or {}
        uses = tuple(
            ToolUse(str(tc.get("id") or f"call_{i}"), str(tc["function"]["name"]), tc["function"].get("arguments"))
            for i, tc in enumerate(msg.get("tool_calls") or [])
        )
        # vLLM / DeepSeek / LM Studio: reasoning_content; Ollama and newer vLLM: reasoning
        thought = msg.get("reasoning_content") or msg.get("reasoning") or ""
        read = read_text(str(msg.get("content") or ""), uses, str(thought))
        stop = choice.get("finish_reason")
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise LLMError(f"unexpected Chat Completions response ({exc!r})", kind="bad_response") from None
    usage = raw.get("usage") or {}
    details = usage.get("prompt_tokens_details") or {}
    return read.reply(Usage(_int(usage.get("prompt_tokens")), _int(usage.get("completion_tokens")), _int(details.get("cached_tokens"))),
                      raw, stop, stop == "length")


def parse_responses(raw: dict[str, Any]) -> Reply:
    """A Responses API response (as ``model_dump()``) -> :class:`Reply`."""
    texts: list[str] = []
    thoughts: list[str] = []
    uses: list[ToolUse] = []
    try:
        for item in raw.get("output") or []:
            kind = item.get("type")
            if kind == "message":
                texts.extend(str(c.get("text") or "") for c in item.get("content") or [] if c.get("type") == "output_text")
            elif kind == "function_call":
                uses.append(ToolUse(str(item.get("call_id") or item.get("id")), str(item["name"]), item.get("arguments")))
            elif kind == "reasoning":
                thoughts.extend(str(s.get("text") or "") for s in item.get("summary") or [])
        read = read_parts(texts, uses, thoughts)
    except (KeyError, TypeError, AttributeError) as exc:
        raise LLMError(f"unexpected Responses API response ({exc!r})", kind="bad_response") from None
    usage = raw.get("usage") or {}
    details = usage.get("input_tokens_details") or {}
    status = raw.get("status")
    return read.reply(Usage(_int(usage.get("input_tokens")), _int(usage.get("output_tokens")), _int(details.get("cached_tokens"))),
                      raw, status, status == "incomplete" and (raw.get("incomplete_details") or {}).get("reason") == "max_output_tokens")


# alike on purpose: parse_responses gathers texts, calls and thoughts the same way; each walks its own API's response blocks (read_parts and ReadText.reply are shared)
def parse_anthropic(raw: dict[str, Any]) -> Reply:
    """A Messages response (as ``model_dump()``) -> :class:`Reply`; usage input counts cached tokens too."""
    texts: list[str] = []
    thoughts: list[str] = []
    uses: list[ToolUse] = []
    try:
        for block in raw.get("content") or []:
            if block.get("type") == "text":
                texts.append(str(block.get("text") or ""))
            elif block.get("type") == "tool_use":
                uses.append(ToolUse(str(block["id"]), str(block["name"]), block.get("input")))
            elif block.get("type") == "thinking":
                thoughts.append(str(block.get("thinking") or ""))
        text = read_parts(texts, uses, thoughts)
    except (KeyError, TypeError, AttributeError) as exc:
        raise LLMError(f"unexpected Messages response ({exc!r})", kind="bad_response") from None
    u = raw.get("usage") or {}
    fresh, cached, made = _int(u.get("input_tokens")), _int(u.get("cache_read_input_tokens")), _int(u.get("cache_creation_input_tokens"))
    total = None if fresh is None else fresh + (cached or 0) + (made or 0)
    stop = raw.get("stop_reason")
    return text.reply(Usage(total, _int(u.get("output_tokens")), cached, made), raw, stop, stop == "max_tokens")


PARSERS: dict[str, Callable[[dict[str, Any]], Reply]] = {
    "openai": parse_chat,
    "openai-responses": parse_responses,
    "anthropic": parse_anthropic,
}


# ------------------------------------------------------------- live adapters
def _sdk_name(kind: str) -> str:
    return "anthropic" if kind == "anthropic" else "openai"


def make_client(
    kind: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    timeout: float = 60.0,
    max_retries: int = 2,
    http_client: Any = None,
) -> Any:
    """The SDK client for ``kind``; raises :class:`MissingKeyError` without a key (a ``base_url``
    server - or one named by ``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL`` - needs none: a
    placeholder is sent, as Ollama, llama.cpp and Anthropic-compatible servers accept)."""
    env = KEY_ENV[kind]
    key = api_key or os.environ.get(env)
    if not key:
        if base_url or os.environ.get(BASE_URL_ENV[kind]):
            key = "not-needed"  # a local or compatible server: Ollama, llama.cpp, vLLM, an Anthropic-compatible proxy
        else:
            raise MissingKeyError(_sdk_name(kind), env)
    if kind == "anthropic":
        import anthropic

        return anthropic.Anthropic(api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries, http_client=http_client)
    import openai

    return openai.OpenAI(api_key=key, base_url=base_url, timeout=timeout, max_retries=max_retries, http_client=http_client)


class SDKProvider:
    """A live provider: builds the payload, calls the SDK, parses the dumped response.

    ``max_tokens`` caps each reply's output tokens on every API (Chat Completions:
    ``max_completion_tokens`` for OpenAI itself, ``max_tokens`` for a compatible server, which
    otherwise applies its own, often short, default; Responses: ``max_output_tokens``; Anthropic:
    ``max_tokens``, default :data:`MAX_OUTPUT_TOKENS`).  :meth:`stream` asks for the reply as a
    stream and hands its text to a callback as it arrives (:mod:`gm.referee.llm.streaming`)."""

    def __init__(self, kind: str, model: str, client: Any, *, max_tokens: int | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown provider kind {kind!r}; kinds: {', '.join(KINDS)}")
        self.kind = kind
        self.model = model
        self.client = client
        self.max_tokens = max_tokens
        #: the last payload sent (for tests and measurements)
        self.last_payload: dict[str, Any] | None = None

    def payload(self, request: Request) -> dict[str, Any]:
        """The ``create`` arguments for ``request``, the output cap included."""
        payload = PAYLOADS[self.kind](self.model, request)
        if self.max_tokens is not None:
            payload[self._cap_field()] = self.max_tokens
        return payload

    def _cap_field(self) -> str:
        if self.kind == "anthropic":
            return "max_tokens"
        if self.kind == "openai-responses":
            return "max_output_tokens"
        official = "api.openai.com" in str(getattr(self.client, "base_url", "api.openai.com"))
        return "max_completion_tokens" if official else "max_tokens"

    def _endpoint(self) -> Any:
        if self.kind == "openai":
            return self.client.chat.completions
        if self.kind == "openai-responses":
            return self.client.responses
        return self.client.messages

    def complete(self, request: Request) -> Reply:
        payload = self.payload(request)
        self.last_payload = payload
        try:
            resp = self._endpoint().create(**payload)
        except Exception as exc:
            raise translate_error(self.kind, exc) from None
        try:
            raw = resp.model_dump(mode="json")
        except Exception as exc:  # a compatible server that answered something odd
            raise LLMError(f"unreadable response: {exc}", kind="bad_response") from None
        return PARSERS[self.kind](raw)

    def stream(self, request: Request, on_text: Callable[[str], None]) -> Reply:
        """The reply to ``request``, asked for as a stream: its text goes to ``on_text`` as it arrives
        (reasoning and tool-call arguments do not), and the reply is put together from the stream
        into the same JSON a plain request returns (so a transcript records, and replays, the same).
        A server that answers a streamed request with one plain response is read as such."""
        from gm.referee.llm.streaming import ASSEMBLERS

        payload = {**self.payload(request), "stream": True}
        if self.kind == "openai":
            payload["stream_options"] = {"include_usage": True}
        self.last_payload = payload
        try:
            answer = self._endpoint().with_raw_response.create(**payload)
            if "text/event-stream" not in str(answer.headers.get("content-type", "")):
                raw = json.loads(answer.http_response.read() or b"{}")
            else:
                raw = ASSEMBLERS[self.kind](answer.parse(), on_text)
        except LLMError:
            raise
        except ValueError as exc:
            raise LLMError(f"unreadable streamed response: {exc}", kind="bad_response") from None
        except Exception as exc:
            raise translate_error(self.kind, exc) from None
        if not isinstance(raw, dict):
            raise LLMError("unreadable streamed response: not a JSON object", kind="bad_response")
        return PARSERS[self.kind](raw)


def translate_error(kind: str, exc: Exception) -> LLMError:
    """An SDK exception (after the SDK's own retries) as one clear :class:`LLMError`."""
    import importlib

    sdk = importlib.import_module(_sdk_name(kind))
    name = type(exc).__name__
    if isinstance(exc, sdk.APITimeoutError):
        return LLMError("the model did not answer in time (timed out, after retries)", kind="timeout")
    if isinstance(exc, sdk.APIConnectionError):
        return LLMError(f"cannot reach the model server ({exc})", kind="connection")
    if isinstance(exc, sdk.RateLimitError):
        return LLMError("the model provider is rate limiting us (429, after retries)", kind="rate_limit", status=429)
    if isinstance(exc, sdk.AuthenticationError | sdk.PermissionDeniedError):
        return LLMError(f"the API key was refused ({exc.status_code})", kind="auth", status=exc.status_code)
    if isinstance(exc, sdk.APIStatusError):
        return LLMError(f"the model server answered {exc.status_code} ({_short(exc)})", kind="status", status=exc.status_code)
    if isinstance(exc, sdk.APIError):
        return LLMError(f"model API error: {_short(exc)}", kind="error")
    return LLMError(f"model call failed: {name}: {exc}", kind="error")


def _short(exc: Exception) -> str:
    text = str(exc).replace("\n", " ")
    return text if len(text) <= 200 else text[:197] + "..."


def resolve_model(kind: str, model: str | None) -> str:
    return model or os.environ.get(MODEL_ENV[kind]) or DEFAULT_MODELS[kind]
