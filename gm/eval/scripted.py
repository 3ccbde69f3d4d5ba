"""The scripted model: a deterministic fake OpenAI Chat Completions endpoint for ``gm eval --referee scripted``.

It sits behind the real openai SDK on an ``httpx2.MockTransport``, so a scripted run goes through
the whole stack (payloads, the SDK, response parsing, the referee loop, the tools, the engine, the
narration check) and prints scores known in advance.  For each case (:attr:`ScriptedEndpoint.case`,
set by the runner) it answers:

- first request: the case's ``[case.scripted] call`` if it has one, else the expected ``tool`` and
  ``args`` of an ``action`` case, else a text reply (``scripted.text``, or the case's ``reply``);
- after tool results: ``scripted.text`` if given, else a narration made of the engine's events (or
  of the refusal: ``That was not allowed [RULE]: reason.``);
- after gm's reminder that no tool was called: the same text again.

Each suite marks its deliberate mistakes with ``scripted.fault`` (``wrong-move``: a legal move the
player did not ask for; ``illegal``: a call the engine refuses; ``leak``: the other seat's hidden pick
in the reply - ``{secret}`` in its text is the pick locked in the session at hand, which the runner
tells it of (:meth:`ScriptedEndpoint.session_at`), as a model that somehow saw it would say it;
``contradiction``: a narration the engine's events contradict; ``cheat``: a move made for a cheating
request).  Usage is reported as 50 input tokens per message sent and 10 output tokens per reply plus
10 per tool call, so the token columns are exact too.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError

if TYPE_CHECKING:
    import httpx2

    from gm.eval.suite import Case

MODEL = "gm-scripted"


class ScriptedEndpoint:
    """The mock transport's handler; ``requests`` counts the requests answered."""

    def __init__(self) -> None:
        self.case: Case | None = None
        self.requests = 0
        #: the hidden picks of the session at hand (what a leaking model would know)
        self.secrets: list[str] = []

    def transport(self) -> httpx2.MockTransport:
        import httpx2

        return httpx2.MockTransport(self.handler)

    def client(self) -> httpx2.Client:
        import httpx2

        return httpx2.Client(transport=self.transport())

    def session_at(self, session: Any, seat: str) -> None:
        """The session the next message is sent in (its hidden picks are what a leak would tell)."""
        from gm.eval.suite import hidden_picks

        self.secrets = list(hidden_picks(session, seat).values())

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        import httpx2

        self.requests += 1
        body = json.loads(request.content)
        messages: list[dict[str, Any]] = body.get("messages") or []
        text, calls = self.answer(messages)
        offered = {str((t.get("function") or {}).get("name")) for t in body.get("tools") or []}
        calls = [self.offered(name, args, offered) for name, args in calls]
        msg: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            msg["tool_calls"] = [
                {"id": f"call_{self.requests}_{i}", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(args, separators=(",", ":"))}}
                for i, (name, args) in enumerate(calls)
            ]
        prompt, completion = 50 * len(messages), 10 + 10 * len(calls)
        return httpx2.Response(200, json={
            "id": f"chatcmpl-{self.requests}", "object": "chat.completion", "created": 0, "model": body.get("model", MODEL),
            "choices": [{"index": 0, "finish_reason": "tool_calls" if calls else "stop", "message": msg}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        })

    def answer(self, messages: list[dict[str, Any]]) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
        """The reply text and tool calls for a request holding ``messages``."""
        case = self.case
        if case is None:
            return "No case is being run.", []
        scripted = case.scripted
        text = str(scripted.get("text") or "").replace("{secret}", self.secrets[0] if self.secrets else "nothing")
        last = messages[-1] if messages else {}
        if last.get("role") == "tool":
            if text:
                return text, []
            return narrate(_tail(messages)), []
        if last.get("role") == "user" and str(last.get("content", "")).startswith("[gm]"):
            return text or case.reply or "Nothing happened.", []
        call = scripted.get("call")
        if isinstance(call, dict):
            return "", [(str(call["tool"]), dict(call.get("args") or {}))]
        if case.tool is not None:
            return "", [(case.tool, dict(case.args))]
        return text or case.reply, []


    def offered(self, name: str, args: dict[str, Any], offered: set[str]) -> tuple[str, dict[str, Any]]:
        """The call as a model makes it with the tools it was offered: a structured move the game
        gives a model as text (``Game.model_tools``, Chess-Football's ``turn_action``) is written as text."""
        case = self.case
        if case is None or not offered or name in offered:
            return name, args
        from gm.core.registry import find_game
        from gm.core.tools import call_for_action, parse_args, tool_index
        from gm.eval.suite import start_session

        session = start_session(find_game(case.game), case)
        spec = tool_index(session.tools).get(name)
        if spec is None or spec.kind != "action":
            return name, args  # an unknown tool stays what it was: the engine refuses it
        try:
            action = spec.act(session.state, case.seat or session.game.seats[0], parse_args(spec, args))
            return call_for_action([t for t in session.model_tools if t.name in offered], action)
        except (KeyError, GameError):
            return name, args


def _tail(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool results at the end of the conversation, oldest first, as JSON."""
    out: list[dict[str, Any]] = []
    for m in reversed(messages):
        if m.get("role") != "tool":
            break
        try:
            data = json.loads(m.get("content") or "{}")
        except ValueError:
            data = {}
        out.append(data if isinstance(data, dict) else {})
    return out[::-1]


def narrate(outputs: list[dict[str, Any]]) -> str:
    """Tool results in words: the engine's events, or why it refused."""
    parts: list[str] = []
    for o in outputs:
        if o.get("ok"):
            events = o.get("events") or []
            if events:
                parts.append(". ".join(str(e) for e in events) + ".")
            elif o.get("legal"):
                parts.append("You can: " + ", ".join(str(x) for x in o["legal"][:8]) + ".")
            else:
                parts.append("Done.")
        else:
            parts.append(f"That was not allowed [{o.get('rule')}]: {o.get('reason')}.")
    return " ".join(parts)
