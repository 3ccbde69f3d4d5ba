"""Streaming narration: how soon the player sees the model's first words.

A fake model server (real HTTP on loopback, a thread of this process) answers the LLM referee over
each API's real SDK: the first request with a tool call (``call_play``), the second - after the
engine's result - with a narration streamed a word every ``GAP`` seconds as server-sent events.  The
server notes when it sends the narration's first word; the referee's ``on_text`` when the first
narration character reaches the terminal.  The difference is the time to first narration character
after the server's first token (target: within 50 ms) - the SDK's parsing, the referee's loop and
the narration check of :class:`gm.referee.llm.stream.NarrationStream` together.

``run(quick)`` returns rows ``{name, value, unit, note, target}`` for ``python -m bench``.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench import row

GAP = 0.02  # seconds between streamed words (50 words a second: a quick local model)
NARRATION = "Nice call: the defense guessed wrong. Your call next."
ARGS = {"play": 2, "colour": "black", "lateral": None, "direction": None, "timing": None}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    first_word: float | None = None


def _sse(name: str | None, data: dict[str, Any]) -> bytes:
    return ((f"event: {name}\n" if name else "") + f"data: {json.dumps(data)}\n\n").encode()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # the body runs until the connection closes: no length, no chunks

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
        api = "anthropic" if self.path.endswith("/messages") else "responses" if self.path.endswith("/responses") else "chat"
        results = _after_results(api, body)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.end_headers()
        if api == "chat":
            self._chat(results)
        elif api == "responses":
            self._responses(results)
        else:
            self._anthropic(results)

    def _send(self, chunk: bytes, word: bool = False) -> None:
        if word and getattr(self.server, "first_word", None) is None:
            self.server.first_word = time.perf_counter()  # type: ignore[attr-defined]
        self.wfile.write(chunk)
        self.wfile.flush()

    def _words(self) -> list[str]:
        words = NARRATION.split(" ")
        return [w + (" " if i < len(words) - 1 else "") for i, w in enumerate(words)]

    def _chat(self, results: bool) -> None:
        head = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m"}
        self._send(_sse(None, {**head, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]}))
        if results:
            for w in self._words():
                self._send(_sse(None, {**head, "choices": [{"index": 0, "delta": {"content": w}}]}), word=True)
                time.sleep(GAP)
            finish = "stop"
        else:
            call = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "call_play", "arguments": json.dumps(ARGS)}}
            self._send(_sse(None, {**head, "choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}))
            finish = "tool_calls"
        self._send(_sse(None, {**head, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]}))
        self._send(b"data: [DONE]\n\n")

    def _responses(self, results: bool) -> None:
        base = {"id": "r1", "object": "response", "created_at": 0, "model": "m", "status": "in_progress", "output": [],
                "parallel_tool_calls": True, "tool_choice": "auto", "tools": []}
        self._send(_sse("response.created", {"type": "response.created", "sequence_number": 0, "response": base}))
        if results:
            for w in self._words():
                self._send(_sse("response.output_text.delta", {"type": "response.output_text.delta", "sequence_number": 0,
                                                               "output_index": 0, "content_index": 0, "item_id": "m1", "delta": w,
                                                               "logprobs": []}), word=True)
                time.sleep(GAP)
            output = [{"type": "message", "id": "m1", "role": "assistant", "status": "completed",
                       "content": [{"type": "output_text", "text": NARRATION, "annotations": []}]}]
        else:
            output = [{"type": "function_call", "id": "f1", "call_id": "call_1", "name": "call_play", "arguments": json.dumps(ARGS),
                       "status": "completed"}]
        done = {**base, "status": "completed", "output": output}
        self._send(_sse("response.completed", {"type": "response.completed", "sequence_number": 1, "response": done}))

    def _anthropic(self, results: bool) -> None:
        start = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": [], "stop_reason": None,
                 "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
        self._send(_sse("message_start", {"type": "message_start", "message": start}))
        if results:
            self._send(_sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}))
            for w in self._words():
                self._send(_sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                                        "delta": {"type": "text_delta", "text": w}}), word=True)
                time.sleep(GAP)
            stop = "end_turn"
        else:
            block = {"type": "tool_use", "id": "toolu_1", "name": "call_play", "input": {}}
            self._send(_sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}))
            self._send(_sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                "type": "input_json_delta", "partial_json": json.dumps({"play": 2, "colour": "black"})}}))
            stop = "tool_use"
        self._send(_sse("content_block_stop", {"type": "content_block_stop", "index": 0}))
        self._send(_sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                          "usage": {"output_tokens": 20}}))
        self._send(_sse("message_stop", {"type": "message_stop"}))


def _after_results(api: str, body: dict[str, Any]) -> bool:
    """Whether the request carries a tool's result (then the reply is the narration)."""
    if api == "chat":
        return any(m.get("role") == "tool" for m in body.get("messages") or [])
    if api == "responses":
        return any(i.get("type") == "function_call_output" for i in body.get("input") or [])
    return any(isinstance(m.get("content"), list) and any(b.get("type") == "tool_result" for b in m["content"])
               for m in body.get("messages") or [])


def _first_char_ms(kind: str, url: str, server: _Server) -> float:
    """One message refereed over ``kind``'s SDK: ms from the server's first narration word to the
    referee's first narration character."""
    from gm.referee.llm import build_referee
    from gm.referee.offline import tool_call_for
    from gm.session import Session

    provider = "anthropic" if kind == "anthropic" else "openai"
    ref = build_referee(provider, api="responses" if kind == "openai-responses" else "chat", model="m", api_key="k",
                        base_url=url if provider == "openai" else url.removesuffix("/v1"), max_retries=0)
    session = Session.create("grid-football", seed=3, players={"away": "bot:random"}, persist=False, bot_seed=3, nonce_seed=0, record=False)
    me = session.game.make_bot("bot:random", seed=3)
    while session.state.decision("home") != "play_call":  # type: ignore[attr-defined]
        call = tool_call_for(session.game, session.state, "home", me.choose(session.state, "home"))
        assert call is not None
        session.call(call[0], call[1], "home")
    first: list[float] = []

    def on_text(piece: str) -> None:
        if not first:
            first.append(time.perf_counter())

    server.first_word = None
    turn = ref.handle(session, "home", "play 2 black", on_text=on_text)
    assert turn.accepted and turn.narration == NARRATION, (turn.narration, turn.flags)
    assert server.first_word is not None and first
    return (first[0] - server.first_word) * 1000


def run(quick: bool = False) -> list[dict[str, Any]]:
    server = _Server(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    rows = []
    try:
        for kind in ("openai", "openai-responses", "anthropic"):
            _first_char_ms(kind, url, server)  # warm: imports, connections
            times = [_first_char_ms(kind, url, server) for _ in range(3 if quick else 7)]
            rows.append(row(f"stream.first_char_ms[{kind}]", round(statistics.median(times), 1), "ms",
                            f"server's first narration word -> the referee's first character, median of {len(times)} "
                            f"(max {max(times):.1f}); a word every {GAP * 1000:.0f} ms", "<= 50"))
    finally:
        server.shutdown()
    return rows
