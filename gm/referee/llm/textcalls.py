"""Tool calls and reasoning written into a model's *text*, as local models and
OpenAI-compatible servers often send them.

- :func:`split_reasoning` takes ``<think>...</think>`` (or ``<thinking>``) out of the
  text: the model's reasoning is never narration and never a tool call;
- :func:`find_calls` finds the calls written as text: Hermes/Qwen
  ``<tool_call>{...}</tool_call>`` tags, Llama's ``<function=name>{...}</function>``,
  Mistral's ``[TOOL_CALLS][...]``, a JSON object (or a list of them) in a
  fenced block or in the prose, shaped ``{"name": ..., "arguments": {...}}``
  (also ``parameters``/``args``/``input``; ``{"tool": ..., "arguments": ...}`` is
  gm's own JSON-only protocol; ``{"function": {...}}`` the OpenAI shape);
- :func:`tools_unsupported` reads a server error as "this server/model takes no
  tool definitions" (Ollama, llama.cpp without ``--jinja``, vLLM without a tool
  parser, OpenRouter);
- :func:`render_call` / :func:`render_outputs` write calls and results back into
  the conversation as text, for a model that called in text.

Pure functions over strings; the engine still validates every call found.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

_THINK = re.compile(r"<(think|thinking)>(.*?)(?:</\1>|\Z)", re.S | re.I)
_LONE_CLOSE = re.compile(r"^(.*?)</(?:think|thinking)>", re.S | re.I)
_TAGGED = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.S | re.I)
_FENCE = re.compile(r"```[a-zA-Z]*[ \t]*\n?(.*?)(?:```|\Z)", re.S)
#: Llama 3.1's custom-tool format: <function=NAME>{...}</function>
_FUNCTION_TAG = re.compile(r"<function=([\w.-]{1,80})>(.*?)(?:</function>|\Z)", re.S)
#: markers some chat templates put before text-written calls (Mistral, Llama 3.1)
_MARKERS = re.compile(r"\[TOOL_CALLS\]|<\|python_tag\|>")
_NAME = re.compile(r'"(?:name|tool)"\s*:\s*"([^"\\]{1,80})"')
_NAME_KEYS = ("name", "tool", "tool_name")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_UNSUPPORTED = re.compile(
    r"does not support tool|tools? (?:is|are) not supported|not support(?:ed)? tool|unsupported param\S*:? ?tool"
    r"|requires --jinja|--enable-auto-tool-choice|no endpoints found that support tool",
    re.I,
)


@dataclass(frozen=True)
class TextCall:
    """One call found in text; ``arguments`` is a dict, or the raw text when it is not a JSON object."""

    name: str
    arguments: dict[str, Any] | str


def split_reasoning(text: str) -> tuple[str, str]:
    """``(answer, reasoning)``: ``<think>`` blocks out of ``text`` (an unclosed one runs to the end;
    text before a lone ``</think>`` – the template opened the tag – is reasoning too)."""
    parts: list[str] = []

    def cut(m: re.Match[str]) -> str:
        parts.append(m.group(2).strip())
        return ""

    answer = _THINK.sub(cut, text)
    lone = _LONE_CLOSE.match(answer)
    if lone:
        parts.insert(0, lone.group(1).strip())
        answer = answer[lone.end():]
    return answer.strip(), "\n".join(p for p in parts if p)


def _as_call(obj: Any) -> TextCall | None:
    """A decoded JSON value as a call, when it has a call's shape."""
    if not isinstance(obj, dict):
        return None
    fn = obj.get("function")
    if isinstance(fn, dict) and isinstance(fn.get("name"), str):  # the OpenAI shape
        return _as_call(fn)
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    if not name:
        return None
    key = next((k for k in _ARG_KEYS if k in obj), None)
    if key is None:
        # {"tool": "get_board"} is a whole call in gm's protocol; {"name": "Ann"} is not a call
        return TextCall(name, {}) if "tool" in obj and len(obj) == 1 else None
    args = obj[key]
    if args is None:
        args = {}
    if isinstance(args, str):  # OpenAI style: the arguments as JSON text
        try:
            decoded = json.loads(args) if args.strip() else {}
        except ValueError:
            return TextCall(name, args)
        args = decoded if isinstance(decoded, dict) else args
    return TextCall(name, args if isinstance(args, dict | str) else json.dumps(args))


def _calls_of(obj: Any) -> list[TextCall] | None:
    if isinstance(obj, dict) and isinstance(obj.get("tool_calls"), list):  # {"tool_calls": [...]}
        obj = obj["tool_calls"]
    if isinstance(obj, list):
        calls = [_as_call(o) for o in obj]
        return [c for c in calls if c] if obj and all(calls) else None
    call = _as_call(obj)
    return [call] if call else None


def _broken(body: str) -> TextCall:
    """A tagged call whose JSON does not parse: its name if one can be read, the text as arguments
    (the engine rejects it with the rule id and the model sees why)."""
    m = _NAME.search(body)
    args = body
    a = body.find('"arguments"')
    if a >= 0:
        colon = body.find(":", a)
        args = body[colon + 1:].strip().removesuffix("}").strip() if colon >= 0 else body
    return TextCall(m.group(1) if m else "", args)


@dataclass(frozen=True)
class FoundCall:
    """A call found in text and where it is written (``text[start:end]``: the tag, the fence or the JSON)."""

    call: TextCall
    start: int
    end: int


def locate_calls(text: str) -> list[FoundCall]:
    """The tool calls written in ``text``, in order, with where each is written: tagged calls
    (``<tool_call>``, ``<function=...>``) if there are any, else calls in fenced blocks, else JSON
    calls in the prose."""
    found: list[FoundCall] = []
    for m in _TAGGED.finditer(text):
        body = m.group(1).strip()
        calls = _calls_in(body)
        found.extend(FoundCall(c, m.start(), m.end()) for c in (calls or [_broken(body)]))
    for m in _FUNCTION_TAG.finditer(text):
        body = m.group(2).strip()
        try:
            args = json.loads(body) if body else {}
        except ValueError:
            args = body
        found.append(FoundCall(TextCall(m.group(1), args if isinstance(args, dict | str) else body), m.start(), m.end()))
    if found:
        return sorted(found, key=lambda f: f.start)
    for m in _FENCE.finditer(text):
        calls = _calls_in(m.group(1))
        found.extend(FoundCall(c, m.start(), m.end()) for c in calls)
    if found:
        return found
    return [FoundCall(c, a, b) for c, a, b in _scan_spans(text)]


def _calls_in(text: str) -> list[TextCall]:
    """The JSON calls anywhere in ``text`` (objects or lists), in order."""
    return [c for c, _, _ in _scan_spans(text)]


def _scan_spans(text: str) -> list[tuple[TextCall, int, int]]:
    """The JSON calls anywhere in ``text`` (objects or lists) and their spans."""
    dec = json.JSONDecoder()
    out: list[tuple[TextCall, int, int]] = []
    i = 0
    while i < len(text):
        j = min((k for k in (text.find("{", i), text.find("[", i)) if k >= 0), default=-1)
        if j < 0:
            break
        try:
            obj, end = dec.raw_decode(text, j)
        except ValueError:
            i = j + 1
            continue
        out.extend((c, j, end) for c in _calls_of(obj) or [])
        i = end
    return out


def find_calls(text: str) -> tuple[str, list[TextCall]]:
    """``(rest, calls)``: the tool calls written in ``text``, in order, and the text without them."""
    found = locate_calls(text)
    return without_calls(text, found), [f.call for f in found]


def without_calls(text: str, found: list[FoundCall]) -> str:
    """``text`` with the calls in ``found`` (and the markers written before calls) cut out."""
    if not found:
        return _tidy(text)
    keep: list[str] = []
    at = 0
    for f in sorted(found, key=lambda f: f.start):
        if f.start >= at:
            keep.append(text[at:f.start])
            at = f.end
    keep.append(text[at:])
    return _tidy(_MARKERS.sub("", "".join(keep)))


#: words in the sentences around a call written in text that make it an example, an offer, a
#: question or a conditional rather than the model's call
FRAMING = frozenset(
    "if would could might should can may shall unless whether suppose supposing imagine say example examples e.g eg instance "
    "like looks format syntax schema hypothetically hypothetical want wish would've could've i'd you'd".split()
)
_BOUNDARY = re.compile(r"[.!?](?=\s|$)|\n\s*\n")


def framed(text: str, start: int, end: int) -> bool:
    """Whether the call written at ``text[start:end]`` sits inside explanation: an example, an offer,
    a question or a conditional ("you would send {...} if you want", "Should I send this? {...}",
    "for example: {...}") - the two sentences before it and the rest of its own sentence decide."""
    if text[max(0, start - 1):start] == "`" and text[end:end + 1] == "`":
        return True  # inline code: shown, not sent
    cuts = [m.end() for m in _BOUNDARY.finditer(text, 0, start)]
    head = cuts[-2] if len(cuts) >= 2 else 0
    before = text[head:start]
    tail = _BOUNDARY.search(text, end)
    after = text[end:tail.end() if tail else len(text)]
    if "?" in before[-200:] or "?" in after:
        return True
    words = re.findall(r"[a-z][a-z.']*", f"{before} {after}".lower())
    return any(w.strip(".") in FRAMING for w in words)


def alone(text: str, found: list[FoundCall]) -> bool:
    """Whether ``text`` is nothing but the calls in ``found`` (fences, markers, punctuation aside)."""
    if not found:
        return False
    rest = without_calls(text, found)
    return not re.sub(r"[\s`.,;:!\-*_>]|json", "", rest, flags=re.I)


def _tidy(text: str) -> str:
    text = re.sub(r"```[a-zA-Z]*\s*```", "", text)
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def tools_unsupported(message: str) -> bool:
    """Whether a server's error says it takes no tool definitions (not a bad request in general)."""
    return bool(_UNSUPPORTED.search(message))


def render_call(name: str, arguments: Any) -> str:
    """A call as gm's JSON-only protocol writes it."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            pass
    return json.dumps({"tool": name, "arguments": arguments if arguments is not None else {}}, separators=(",", ":"))


#: how tool results come back to a model that called in text
RESULTS_HEAD = "[tool results]"


def render_outputs(outputs: list[tuple[str, str]]) -> str:
    """``(tool name, result JSON)`` pairs as one message."""
    return "\n".join([RESULTS_HEAD, *(f"{name}: {content}" for name, content in outputs)])
