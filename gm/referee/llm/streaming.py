"""Streamed replies put together: each API's stream events into the JSON of a plain response.

:meth:`gm.referee.llm.providers.SDKProvider.stream` asks for a reply as a stream; the function of
its API here reads the SDK's stream, hands each piece of the reply's text to ``on_text`` as it
arrives (never reasoning, never a tool call's arguments), and returns the response as a plain
request would have returned it (``model_dump()`` JSON), tool calls assembled from their deltas - so
the reply parsers, the transcript and replay are the same whether the reply was streamed or not.

- Chat Completions: ``chat.completion.chunk`` deltas - content, ``reasoning_content`` /
  ``reasoning`` (vLLM, Ollama), tool calls by index (an id or a name sent again in later chunks,
  as some compatible servers do, is kept once; arguments are concatenated); the usage chunk
  (``stream_options.include_usage``).
- Responses: ``response.output_text.delta``; the response in ``response.completed`` (or
  ``incomplete`` / ``failed``), else the output items as they were done.
- Anthropic Messages: ``message_start``, ``content_block_start`` / ``_delta`` (``text_delta``,
  ``input_json_delta``, ``thinking_delta``) / ``_stop``, ``message_delta`` (stop reason, usage).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from gm.referee.llm.types import LLMError

TextSink = Callable[[str], None]


def _dump(event: Any) -> dict[str, Any]:
    if isinstance(event, dict):
        return event
    dumped: dict[str, Any] = event.model_dump(mode="json")
    return dumped


def chat(events: Iterable[Any], on_text: TextSink) -> dict[str, Any]:
    """Chat Completions chunks -> a ``chat.completion`` response."""
    out: dict[str, Any] = {"id": None, "object": "chat.completion", "created": 0, "model": None, "usage": None}
    message: dict[str, Any] = {"role": "assistant", "content": None}
    calls: dict[int, dict[str, Any]] = {}
    finish: str | None = None
    for event in events:
        chunk = _dump(event)
        for key in ("id", "model", "created", "system_fingerprint"):
            if chunk.get(key) and not out.get(key):
                out[key] = chunk[key]
        if chunk.get("usage"):
            out["usage"] = chunk["usage"]
        for choice in chunk.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            text = delta.get("content")
            if isinstance(text, str) and text:
                message["content"] = (message["content"] or "") + text
                on_text(text)
            for key in ("reasoning_content", "reasoning"):
                if isinstance(delta.get(key), str) and delta[key]:
                    message[key] = message.get(key, "") + delta[key]
            for n, tc in enumerate(delta.get("tool_calls") or []):
                index = tc.get("index") if isinstance(tc.get("index"), int) else len(calls) + n
                acc = calls.setdefault(index, {"id": None, "type": "function", "function": {"name": "", "arguments": ""}})
                if tc.get("id") and not acc["id"]:
                    acc["id"] = tc["id"]
                fn = tc.get("function") or {}
                if fn.get("name") and not acc["function"]["name"]:
                    acc["function"]["name"] = fn["name"]
                args = fn.get("arguments")
                if isinstance(args, dict):  # a server that sends the arguments as an object, whole
                    args = json.dumps(args, separators=(",", ":"))
                if isinstance(args, str):
                    acc["function"]["arguments"] += args
            if choice.get("finish_reason"):
                finish = choice["finish_reason"]
    if calls:
        message["tool_calls"] = [{**calls[i], "id": calls[i]["id"] or f"call_{i}"} for i in sorted(calls)]
    out["choices"] = [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}]
    if out["id"] is None:
        out["id"] = "chatcmpl-stream"
    return out


def responses(events: Iterable[Any], on_text: TextSink) -> dict[str, Any]:
    """Responses API events -> a ``response`` object."""
    done: list[dict[str, Any]] = []
    for event in events:
        ev = _dump(event)
        kind = ev.get("type")
        if kind == "response.output_text.delta" and isinstance(ev.get("delta"), str):
            on_text(ev["delta"])
        elif kind == "response.output_item.done" and isinstance(ev.get("item"), dict):
            done.append(ev["item"])
        elif kind in ("response.completed", "response.incomplete", "response.failed") and isinstance(ev.get("response"), dict):
            final: dict[str, Any] = ev["response"]
            if not final.get("output") and done:
                final = {**final, "output": done}
            return final
        elif kind == "error":
            raise LLMError(f"the model server sent an error in the stream: {ev.get('message') or ev}", kind="status")
    return {"id": "resp-stream", "object": "response", "status": "completed", "output": done, "usage": None}


def anthropic(events: Iterable[Any], on_text: TextSink) -> dict[str, Any]:
    """Messages stream events -> a ``message``."""
    message: dict[str, Any] = {"id": None, "type": "message", "role": "assistant", "content": [], "stop_reason": None,
                               "stop_sequence": None, "usage": {}}
    partial: dict[int, str] = {}
    for event in events:
        ev = _dump(event)
        kind = ev.get("type")
        if kind == "message_start":
            start = ev.get("message") or {}
            message.update({k: v for k, v in start.items() if k != "content"})
            message["content"] = list(start.get("content") or [])
            message["usage"] = dict(start.get("usage") or {})
        elif kind == "content_block_start":
            index = int(ev.get("index", len(message["content"])))
            block = dict(ev.get("content_block") or {})
            if block.get("type") == "tool_use":
                block["input"] = {}
                partial[index] = ""
            while len(message["content"]) <= index:
                message["content"].append({})
            message["content"][index] = block
        elif kind == "content_block_delta":
            index = int(ev.get("index", 0))
            delta = ev.get("delta") or {}
            block = message["content"][index] if index < len(message["content"]) else {}
            dtype = delta.get("type")
            if dtype == "text_delta":
                block["text"] = str(block.get("text") or "") + str(delta.get("text") or "")
                if delta.get("text"):
                    on_text(str(delta["text"]))
            elif dtype == "input_json_delta":
                partial[index] = partial.get(index, "") + str(delta.get("partial_json") or "")
            elif dtype == "thinking_delta":
                block["thinking"] = str(block.get("thinking") or "") + str(delta.get("thinking") or "")
            elif dtype == "signature_delta":
                block["signature"] = str(block.get("signature") or "") + str(delta.get("signature") or "")
        elif kind == "content_block_stop":
            index = int(ev.get("index", 0))
            if index in partial:
                text = partial.pop(index)
                try:
                    data = json.loads(text) if text.strip() else {}
                except ValueError:
                    data = {"_unparsed": text}  # a cut-off call: the engine refuses it, as unparsed arguments
                message["content"][index]["input"] = data if isinstance(data, dict) else {"_unparsed": text}
        elif kind == "message_delta":
            delta = ev.get("delta") or {}
            for key in ("stop_reason", "stop_sequence"):
                if key in delta:
                    message[key] = delta[key]
            usage = {k: v for k, v in (ev.get("usage") or {}).items() if v is not None}
            message["usage"] = {**message["usage"], **usage}
        elif kind == "error":
            raise LLMError(f"the model server sent an error in the stream: {ev.get('error') or ev}", kind="status")
    for index, text in partial.items():  # a stream that ended inside a call
        message["content"][index]["input"] = {"_unparsed": text}
    return message


ASSEMBLERS: dict[str, Callable[[Iterable[Any], TextSink], dict[str, Any]]] = {
    "openai": chat,
    "openai-responses": responses,
    "anthropic": anthropic,
}
