"""A scripted model behind the real SDK clients: an httpx2 ``MockTransport`` handler that
speaks the OpenAI Chat Completions, OpenAI Responses and Anthropic Messages wire formats.

Each request is answered by the next scripted :data:`Step` (a reply, an HTTP error, a
timeout), or, when the script is empty, by a *brain*: :func:`rules_brain` plays the
referee the way a well-behaved model would (reads the player's words with the game's own
parser, calls the tool, narrates the engine's events), with optional one-shot *faults*
(malformed JSON, unknown tool, skipped tool call, contradicting narration ...) so whole
games can be recorded through the real SDK path.

Usage numbers are estimated from the request itself (4 characters a token), so recorded
transcripts show how the request size develops over a game; Anthropic replies report the
system prompt and tools as cached after the first request.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2

from gm.core.registry import find_game
from gm.core.tools import call_for_action
from gm.referee.llm.textcalls import RESULTS_HEAD
from gm.referee.offline import OfflineReferee

FIXTURES = Path(__file__).parent / "fixtures"

# ------------------------------------------------------------------- steps


@dataclass
class Say:
    """A text-only reply."""

    text: str


@dataclass
class Call:
    """A reply with tool calls: ``(name, arguments)`` pairs (arguments: a dict, or raw text)."""

    calls: list[tuple[str, Any]]
    text: str = ""


@dataclass
class Fail:
    """An HTTP error answer (the SDK retries 429 and 5xx)."""

    status: int
    message: str = "scripted failure"


@dataclass
class Timeout:
    """The request times out (the SDK retries, then gives up)."""


@dataclass
class Raw:
    """A recorded response body served verbatim (a fixture from ``tests/llm/fixtures``), with its HTTP status."""

    body: dict[str, Any]
    status: int = 200


def fixture(name: str) -> dict[str, Any]:
    """A recorded response body from ``tests/llm/fixtures/<name>.json``."""
    return dict(json.loads((FIXTURES / f"{name}.json").read_text()))


Step = Say | Call | Fail | Timeout | Raw


@dataclass
class Conv:
    """What a request holds, provider-neutral: the latest player words and, when the
    request follows tool calls, the tool outputs of the last round."""

    api: str
    body: dict[str, Any]
    player_text: str
    seat: str
    tool_outputs: list[dict[str, Any]] | None
    system: str
    nudged: bool


def _user_texts_chat(messages: list[dict[str, Any]]) -> list[str]:
    return [str(m.get("content")) for m in messages if m.get("role") == "user" and isinstance(m.get("content"), str)]


def parse_conv(api: str, body: dict[str, Any]) -> Conv:
    outputs: list[dict[str, Any]] | None = None
    users: list[str] = []
    if api == "openai":
        msgs = body["messages"]
        system = msgs[0]["content"]
        users = _user_texts_chat(msgs)
        tail = list(itertools.takewhile(lambda m: m.get("role") == "tool", reversed(msgs)))
        if tail:
            outputs = [json.loads(m["content"]) for m in reversed(tail)]
    elif api == "openai-responses":
        items = body["input"]
        system = body.get("instructions") or ""
        users = [str(i["content"]) for i in items if i.get("role") == "user"]
        tail = list(itertools.takewhile(lambda i: i.get("type") == "function_call_output", reversed(items)))
        if tail:
            outputs = [json.loads(i["output"]) for i in reversed(tail)]
    else:
        msgs = body["messages"]
        system = body["system"][0]["text"]
        for m in msgs:
            if m["role"] == "user":
                users += [b["text"] for b in m["content"] if b.get("type") == "text"]
        last = msgs[-1]["content"]
        results = [b for b in last if b.get("type") == "tool_result"]
        if results and not any(b.get("type") == "text" for b in last):
            outputs = [json.loads(b["content"]) for b in results]
    if outputs is None and users and users[-1].startswith(RESULTS_HEAD):  # results of calls written as text
        outputs = [json.loads(line.split(": ", 1)[1]) for line in users[-1].splitlines()[1:]]
    player = next((u for u in reversed(users) if "] " in u and " says]\n" in u and u.startswith("[state")), "")
    seat, text = "", ""
    if player:
        head, _, text = player.rpartition(" says]\n")
        seat = head.rsplit("[", 1)[-1]
    nudged = bool(users) and users[-1].startswith("[gm]")
    return Conv(api, body, text, seat, outputs, system, nudged)


# ------------------------------------------------------------- wire formats
def _tokens(obj: Any) -> int:
    return max(1, len(json.dumps(obj, separators=(",", ":"))) // 4)


def _args_text(args: Any) -> str:
    return args if isinstance(args, str) else json.dumps(args, separators=(",", ":"))


# ------------------------------------------------------------------ streaming
def _pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)] or [""]


def _sse(events: list[tuple[str | None, dict[str, Any]]], done: bool) -> bytes:
    out = "".join((f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n" for name, data in events)
    return (out + ("data: [DONE]\n\n" if done else "")).encode()


def stream_body(api: str, body: dict[str, Any], size: int = 5) -> bytes:
    """A whole response (``body``, as a plain request returns it) as the server-sent events of a
    streamed one, its text and its calls' arguments cut into pieces of ``size`` characters."""
    if api == "openai":
        choice = body["choices"][0]
        msg = choice.get("message") or {}
        head = {k: body[k] for k in ("id", "created", "model") if k in body}
        chunk = lambda delta, finish=None: {**head, "object": "chat.completion.chunk",  # noqa: E731
                                            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        events: list[tuple[str | None, dict[str, Any]]] = [(None, chunk({"role": "assistant", "content": ""}))]
        for key in ("reasoning_content", "reasoning"):
            if msg.get(key):
                events += [(None, chunk({key: p})) for p in _pieces(msg[key], size)]
        if msg.get("content"):
            events += [(None, chunk({"content": p})) for p in _pieces(msg["content"], size)]
        for i, tc in enumerate(msg.get("tool_calls") or []):
            fn = tc["function"]
            events.append((None, chunk({"tool_calls": [{"index": i, "id": tc["id"], "type": "function",
                                                        "function": {"name": fn["name"], "arguments": ""}}]})))
            events += [(None, chunk({"tool_calls": [{"index": i, "function": {"arguments": p}}]})) for p in _pieces(fn["arguments"], size)]
        events.append((None, chunk({}, choice.get("finish_reason"))))
        if body.get("usage"):
            events.append((None, {**head, "object": "chat.completion.chunk", "choices": [], "usage": body["usage"]}))
        return _sse(events, True)
    if api == "openai-responses":
        start = {**body, "status": "in_progress", "output": []}
        events = [("response.created", {"type": "response.created", "sequence_number": 0, "response": start})]
        for n, item in enumerate(body.get("output") or []):
            events.append(("response.output_item.added", {"type": "response.output_item.added", "output_index": n, "item": item,
                                                          "sequence_number": 0}))
            if item.get("type") == "message":
                for c in item.get("content") or []:
                    events += [("response.output_text.delta", {"type": "response.output_text.delta", "output_index": n, "item_id": item.get("id"),
                                                               "content_index": 0, "delta": p, "logprobs": [], "sequence_number": 0})
                               for p in _pieces(c.get("text") or "", size)]
            elif item.get("type") == "function_call":
                events += [("response.function_call_arguments.delta", {"type": "response.function_call_arguments.delta", "output_index": n,
                                                                       "item_id": item.get("id"), "delta": p, "sequence_number": 0})
                           for p in _pieces(item.get("arguments") or "", size)]
            events.append(("response.output_item.done", {"type": "response.output_item.done", "output_index": n, "item": item,
                                                         "sequence_number": 0}))
        final = "response.incomplete" if body.get("status") == "incomplete" else "response.completed"
        events.append((final, {"type": final, "sequence_number": 0, "response": body}))
        return _sse(events, False)
    start = {**body, "content": [], "stop_reason": None, "usage": {**(body.get("usage") or {}), "output_tokens": 1}}
    events = [("message_start", {"type": "message_start", "message": start})]
    for i, block in enumerate(body.get("content") or []):
        kind = block.get("type")
        empty = {"type": "text", "text": ""} if kind == "text" else (
            {"type": "thinking", "thinking": "", "signature": ""} if kind == "thinking" else {**block, "input": {}})
        events.append(("content_block_start", {"type": "content_block_start", "index": i, "content_block": empty}))
        if kind == "text":
            events += [("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": p}})
                       for p in _pieces(block.get("text") or "", size)]
        elif kind == "thinking":
            events += [("content_block_delta", {"type": "content_block_delta", "index": i,
                                                "delta": {"type": "thinking_delta", "thinking": p}}) for p in _pieces(block["thinking"], size)]
        elif kind == "tool_use":
            events += [("content_block_delta", {"type": "content_block_delta", "index": i,
                                                "delta": {"type": "input_json_delta", "partial_json": p}})
                       for p in _pieces(json.dumps(block.get("input") or {}), size)]
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": body.get("stop_reason"), "stop_sequence": None},
                                     "usage": {"output_tokens": (body.get("usage") or {}).get("output_tokens", 1)}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return _sse(events, False)


@dataclass
class FakeLLM:
    """The mock transport's handler; ``requests`` keeps every request body sent.  A request asking to
    stream is answered with server-sent events (``size``-character pieces), unless ``streams`` is
    off (the answer is the plain JSON, as a server that cannot stream sends) or ``refuse_stream``
    (HTTP 400, as a server that rejects the parameter)."""

    script: Iterable[Step] = ()
    brain: Callable[[Conv], Step] | None = None
    model: str = "scripted"
    requests: list[dict[str, Any]] = field(default_factory=list)
    attempts: int = 0
    streams: bool = True
    refuse_stream: bool = False
    size: int = 5

    def __post_init__(self) -> None:
        self.queue: deque[Step | Callable[[Conv], Step]] = deque(self.script)
        self._n = 0

    def client(self) -> httpx2.Client:
        return httpx2.Client(transport=httpx2.MockTransport(self.handler))

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        self.attempts += 1
        path = request.url.path
        api = "anthropic" if path.endswith("/messages") else "openai-responses" if path.endswith("/responses") else "openai"
        body = json.loads(request.content)
        self.requests.append({"api": api, "path": path, "body": body, "headers": dict(request.headers)})
        if body.get("stream") and self.refuse_stream:
            return httpx2.Response(400, json={"error": {"message": "stream: streaming is not supported by this server",
                                                        "type": "invalid_request_error"}})
        conv = parse_conv(api, body)
        step: Any = self.queue.popleft() if self.queue else (self.brain(conv) if self.brain else Say("OK."))
        if callable(step):
            step = step(conv)
        if isinstance(step, Timeout):
            raise httpx2.ReadTimeout("scripted timeout", request=request)
        if isinstance(step, Raw):
            if body.get("stream") and self.streams and step.status == 200:
                return httpx2.Response(200, content=stream_body(api, step.body, self.size), headers={"content-type": "text/event-stream"})
            return httpx2.Response(step.status, json=step.body)
        if isinstance(step, Fail):
            err = {"type": "error", "error": {"type": "rate_limit_error" if step.status == 429 else "api_error", "message": step.message}}
            return httpx2.Response(step.status, json=err, headers={"retry-after-ms": "1"})
        self._n += 1
        reply = self._format(api, body, step)
        if body.get("stream") and self.streams:
            return httpx2.Response(200, content=stream_body(api, reply, self.size), headers={"content-type": "text/event-stream"})
        return httpx2.Response(200, json=reply)

    def _format(self, api: str, body: dict[str, Any], step: Say | Call) -> dict[str, Any]:
        n = self._n
        text = step.text
        calls = step.calls if isinstance(step, Call) else []
        prompt = _tokens(body)
        out_tokens = max(1, (len(text) + sum(len(_args_text(a)) for _, a in calls)) // 4)
        if api == "openai":
            msg: dict[str, Any] = {"role": "assistant", "content": text or None}
            if calls:
                msg["tool_calls"] = [
                    {"id": f"call_{n}_{i}", "type": "function", "function": {"name": name, "arguments": _args_text(a)}}
                    for i, (name, a) in enumerate(calls)
                ]
            return {
                "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 0, "model": self.model,
                "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": msg}],
                "usage": {"prompt_tokens": prompt, "completion_tokens": out_tokens, "total_tokens": prompt + out_tokens},
            }
        if api == "openai-responses":
            output: list[dict[str, Any]] = []
            if text:
                output.append({"type": "message", "id": f"msg_{n}", "role": "assistant", "status": "completed",
                               "content": [{"type": "output_text", "text": text, "annotations": []}]})
            output += [
                {"type": "function_call", "id": f"fc_{n}_{i}", "call_id": f"call_{n}_{i}", "name": name,
                 "arguments": _args_text(a), "status": "completed"}
                for i, (name, a) in enumerate(calls)
            ]
            return {
                "id": f"resp_{n}", "object": "response", "created_at": 0, "model": self.model, "status": "completed",
                "output": output, "parallel_tool_calls": True, "tool_choice": "auto", "tools": [],
                "usage": {"input_tokens": prompt, "output_tokens": out_tokens, "total_tokens": prompt + out_tokens,
                          "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}},
            }
        content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
        for i, (name, a) in enumerate(calls):
            args = a if isinstance(a, dict) else {"_unparsed": a}
            content.append({"type": "tool_use", "id": f"toolu_{n}_{i}", "name": name, "input": args})
        prefix = _tokens({"system": body.get("system"), "tools": body.get("tools")})
        first = n == 1
        return {
            "id": f"msg_{n}", "type": "message", "role": "assistant", "model": self.model, "content": content,
            "stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": max(1, prompt - prefix), "output_tokens": out_tokens,
                      "cache_creation_input_tokens": prefix if first else 0, "cache_read_input_tokens": 0 if first else prefix},
        }


# ------------------------------------------------------------------- brain
def strict_args(game_id: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """OpenAI strict mode sends every field: missing optional ones as null."""
    spec = {t.name: t for t in find_game(game_id).tools()}[name]
    return {k: args.get(k) for k in spec.args.model_fields}


def narrate_outputs(outputs: list[dict[str, Any]]) -> str:
    parts: list[str] = []
    for o in outputs:
        if o.get("ok"):
            if o.get("events"):
                parts.append(". ".join(str(e) for e in o["events"]) + ".")
            elif "legal" in o:
                parts.append("You can: " + ", ".join(map(str, o["legal"][:8])) + ".")
            elif "rules" in o:
                parts.append(" ".join(f"[{k}] {v}." for k, v in list(o["rules"].items())[:3]))
            else:
                parts.append("Done.")
        else:
            parts.append(f"That was not allowed [{o.get('rule')}]: {o.get('reason')}.")
    return " ".join(parts)


@dataclass
class RulesBrain:
    """A well-behaved referee model for one game, with one-shot faults set per turn."""

    game_id: str = "grid-football"
    fault: str | None = None

    def __call__(self, conv: Conv) -> Step:
        game = find_game(self.game_id)
        action = OfflineReferee.read_action(game, conv.player_text)
        fault = self.fault
        if conv.tool_outputs is not None:
            last = conv.tool_outputs[-1]
            if not last.get("ok") and action is not None and last.get("rule") in ("CORE-ARGS", "CORE-TOOL", "GF-PLAY4-LOCK"):
                return self._call(action)  # fix the call after an error
            if last.get("ok") and "legal" in last and action is not None:
                return self._call(action)  # looked the options up first
            if fault == "contradict":
                self.fault = None
                return Say("What a play: the ball flies to K63. Touchdown! The score is home 7 - 0 away.")
            if fault == "injection":
                self.fault = None
                return Say("Done: the ball is on row 64. Touchdown, home wins the game!")
            return Say(narrate_outputs(conv.tool_outputs))
        if fault and not conv.nudged:
            if fault == "malformed" and action is not None:
                name, args = self._call_args(action)
                return Call([(name, json.dumps(args)[:-3])])
            if fault == "wrong_type" and action is not None:
                name, args = self._call_args(action)
                return Call([(name, {k: (str(v) if isinstance(v, int) else v) for k, v in args.items()})])
            if fault == "unknown_tool":
                self.fault = None
                return Call([("move_ball", {"square": "K64"})])
            if fault == "skip_tool":
                self.fault = None
                return Say(f"Locked in: {conv.player_text}. Good luck!")
            if fault == "injection":
                return Call([("set_ball", {"row": 64})])
            if fault == "illegal" and action is not None:
                self.fault = None
                return Call([("call_play", strict_args(self.game_id, "call_play", {"play": 4, "colour": "red"}))])
            if fault == "legal_first":
                self.fault = None
                return Call([("legal_actions", {})])
        if conv.nudged or action is not None:
            if action is None:
                return Say("No move was made.")
            if fault in ("malformed", "wrong_type"):
                self.fault = None
            return self._call(action)
        return Say("Tell me your call, or ask me about the rules.")

    def _call_args(self, action: Any) -> tuple[str, dict[str, Any]]:
        name, args = call_for_action(find_game(self.game_id).tools(), action)
        return name, strict_args(self.game_id, name, args)

    def _call(self, action: Any) -> Call:
        return Call([self._call_args(action)])
