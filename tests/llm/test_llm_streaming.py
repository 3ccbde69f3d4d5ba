"""Streaming narration: the real SDK clients read server-sent events from the scripted model server
(Chat Completions chunks, Responses events, Anthropic Messages events); tool calls are put together
from their deltas; the text shown as it arrives is checked first (:class:`NarrationStream`); a server
that cannot stream still works; the transcript records whole responses and replays without streaming."""

from __future__ import annotations

import json
from typing import Any

import pytest
from llm_fakes import Call, FakeLLM, Raw, Say, fixture, stream_body, strict_args
from llm_game import table
from local_models import events

from gm.referee.base import handle_streaming
from gm.referee.llm.referee import NO_STREAM_FLAG
from gm.referee.llm.stream import NarrationStream
from gm.referee.llm.streaming import anthropic, chat, responses
from gm.referee.offline import OfflineReferee
from gm.transcript.replay import replay

PLAY2 = {"play": 2, "colour": "black"}
PLAY2_EVENT = "Play 2 (Interior Run), defense wrong: +2 forward +2 bonus = +4; lateral none."


def streamed(t: Any, words: str = "play 2 black") -> tuple[Any, list[str]]:
    parts: list[str] = []
    turn = t.referee.handle(t.session, "home", words, on_text=parts.append)
    return turn, parts


# ------------------------------------------------------------------ the gate
def gate(check: Any = lambda text: []) -> tuple[NarrationStream, list[str]]:
    out: list[str] = []
    g = NarrationStream(out.append, seats=("home", "away"))
    g.begin(check)
    return g, out


def test_plain_words_show_at_once_and_the_last_word_waits() -> None:
    g, out = gate()
    g.feed("Nice ")
    assert out == ["Nice"]  # the first word shows as soon as it is whole (its spacing waits for the next)
    g.feed("run, wel")
    assert "".join(out) == "Nice run,"
    g.feed("l played")
    assert "".join(out) == "Nice run, well"  # "played" is a word claims are made of: it waits for its clause
    assert g.finish("Nice run, well played.") == "Nice run, well played." and "".join(out) == "Nice run, well played."


def test_a_clause_with_a_number_or_a_seat_waits_until_it_is_whole() -> None:
    g, out = gate()
    for piece in ("The ", "ball ", "goes ", "to ", "E1", "8 ", "now. ", "Next"):
        g.feed(piece)
    assert "".join(out) == "The ball goes to E18 now."
    g, out = gate()
    for piece in ("Well, ", "home ", "leads ", "7-", "0 ", "and"):
        g.feed(piece)
    assert "".join(out) == "Well,"


def test_a_false_sentence_stops_the_reply_and_the_engine_follows() -> None:
    g, out = gate(lambda text: ["a touchdown"] if "TOUCHDOWN" in text else [])
    for piece in ("Big ", "gain. ", "TOUCH", "DOWN! ", "Wow."):
        g.feed(piece)
    assert "".join(out) == "Big gain."
    assert g.finish("(overruled)\nthe engine's account") == "Big gain.\n(overruled)\nthe engine's account"
    assert "".join(out) == "Big gain.\n(overruled)\nthe engine's account"


def test_calls_reasoning_code_and_boards_are_never_streamed() -> None:
    for text in ('{"name": "call_play", "arguments": {}}', "<tool_call>{}</tool_call>", "<think>play 4? no</think>Play 2.",
                 "```\n 30  . . . . . .\n```", "[TOOL_CALLS] [{}]"):
        g, out = gate()
        for i in range(0, len(text), 3):
            g.feed(text[i:i + 3])
        shown = "".join(out)
        assert "{" not in shown and "think" not in shown and "." * 3 not in shown and "TOOL" not in shown, (text, shown)
    g, out = gate()
    for piece in ("<think>", "hmm, play 4", "</think>", "Play ", "2 black is in. ", "Next"):
        g.feed(piece)
    assert "".join(out) == "Play 2 black is in."


def test_a_reply_that_calls_a_tool_keeps_what_it_showed_and_drops_the_rest() -> None:
    g, out = gate()
    g.feed("Sure thing. I'll call ")
    g.drop()
    g.begin(lambda text: [])
    g.feed("Play 2 is in. ")
    assert g.finish("Play 2 is in.") == "Sure thing. I'll call\nPlay 2 is in."
    assert "".join(out) == "Sure thing. I'll call\nPlay 2 is in."


# ------------------------------------------------------------------ the three APIs
@pytest.mark.parametrize("kind", ["openai", "openai-responses", "anthropic"])
def test_a_call_assembled_from_stream_deltas(kind: str) -> None:
    args = strict_args("grid-football", "call_play", PLAY2) if kind != "anthropic" else PLAY2
    t = table(kind, [Call([("call_play", args)]), events(1)])
    t.fake.size = 3  # the arguments arrive three characters at a time
    turn, parts = streamed(t)
    assert turn.accepted and turn.calls[0].args == args and turn.narration == PLAY2_EVENT
    assert "".join(parts) == PLAY2_EVENT and turn.flags == []
    assert all(r["body"]["stream"] is True for r in t.fake.requests)
    if kind == "openai":
        assert t.fake.requests[0]["body"]["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize("kind", ["openai", "openai-responses", "anthropic"])
def test_a_streamed_game_records_whole_responses_and_replays_without_streaming(kind: str) -> None:
    args = strict_args("grid-football", "call_play", PLAY2) if kind != "anthropic" else PLAY2
    t = table(kind, [Call([("call_play", args)]), events(1), Say("What next? Pick a play.")], record_all=True)
    streamed(t)
    streamed(t, "what should I do?")
    t.recorder.sync_bot_moves(t.session)
    responses_ = [e.response for e in t.recorder.transcript.entries if e.type == "llm_response"]
    assert len(responses_) == 3 and all("gm_error" not in r for r in responses_)
    res = replay(t.recorder.transcript)
    assert res.ok, res.report()


def test_chat_chunks_from_a_server_that_repeats_the_call_id_and_name() -> None:
    chunks = [
        {"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant", "content": None, "tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": "call_play", "arguments": '{"play"'}}]}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": "call_1", "type": "function", "function": {"name": "call_play", "arguments": ': 2, "colour": "black"}'}}]}}]},
        {"id": "c", "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
    ]
    shown: list[str] = []
    raw = chat(chunks, shown.append)
    msg = raw["choices"][0]["message"]
    assert msg["tool_calls"] == [{"id": "call_1", "type": "function", "function": {"name": "call_play",
                                                                                   "arguments": '{"play": 2, "colour": "black"}'}}]
    assert raw["choices"][0]["finish_reason"] == "tool_calls" and shown == []


def test_each_assembler_gives_back_the_plain_response() -> None:
    body = fixture("vllm_reasoning_content_call")
    events_ = [json.loads(line[6:]) for line in stream_body("openai", body, 4).decode().splitlines()
               if line.startswith("data: {")]
    raw = chat(events_, lambda s: None)
    assert raw["choices"][0]["message"]["tool_calls"][0]["function"] == body["choices"][0]["message"]["tool_calls"][0]["function"]
    assert raw["choices"][0]["message"]["reasoning_content"] == body["choices"][0]["message"]["reasoning_content"]
    body = fixture("anthropic_thinking_tool_use")
    events_ = [json.loads(line[6:]) for line in stream_body("anthropic", body, 4).decode().splitlines() if line.startswith("data: ")]
    raw = anthropic(events_, lambda s: None)
    assert [b["type"] for b in raw["content"]] == [b["type"] for b in body["content"]]
    assert raw["content"][-1]["input"] == body["content"][-1]["input"] and raw["stop_reason"] == body["stop_reason"]
    body = fixture("responses_incomplete_max_output_tokens")
    events_ = [json.loads(line[6:]) for line in stream_body("openai-responses", body, 4).decode().splitlines()
               if line.startswith("data: ")]
    assert responses(events_, lambda s: None) == body


# ------------------------------------------------------------------ what local servers stream
def test_reasoning_and_calls_written_in_the_stream_are_never_shown() -> None:
    t = table("openai", [Raw(fixture("vllm_reasoning_content_call")), Raw(fixture("ollama_reasoning_narration")),
                         Raw(fixture("llamacpp_think_tags")), events(1)])
    turn, parts = streamed(t)
    assert turn.accepted and "".join(parts) == turn.narration == "Play 2 black is in: you gain 4 rows to E18."
    turn, parts = streamed(t)
    assert turn.accepted and "".join(parts) == turn.narration == PLAY2_EVENT
    shown = "".join(parts)
    assert "think" not in shown and "play 4" not in shown and "{" not in shown


def test_a_server_that_answers_a_stream_with_plain_json_still_works() -> None:
    t = table("openai", [Call([("call_play", strict_args("grid-football", "call_play", PLAY2))]), events(1)])
    t.fake.streams = False
    turn, parts = streamed(t)
    assert turn.accepted and parts == [PLAY2_EVENT] and turn.flags == []


def test_a_server_that_refuses_to_stream_is_asked_without_from_then_on() -> None:
    t = table("openai", [Call([("call_play", strict_args("grid-football", "call_play", PLAY2))]), events(1)])
    t.fake.refuse_stream = True
    turn, parts = streamed(t)
    assert turn.accepted and "".join(parts) == PLAY2_EVENT and turn.flags == [NO_STREAM_FLAG]
    assert [bool(r["body"].get("stream")) for r in t.fake.requests] == [True, False, False]
    assert t.referee.no_streaming


def test_any_referee_hands_on_its_narration_once() -> None:
    t = table("openai", [])
    parts: list[str] = []
    turn = handle_streaming(OfflineReferee(), t.session, "home", "play 2 black", parts.append)
    assert turn.accepted and parts == [turn.narration]
    parts.clear()
    turn = t.referee.handle(t.session, "home", "score", on_text=parts.append)  # table talk: gm's own words, at once
    assert parts == [turn.narration] and t.fake.requests == []


def test_fake_streams_are_what_the_sdks_read() -> None:
    """The fixtures' plain bodies, streamed by the fake server, come back through each real SDK unchanged."""
    fake = FakeLLM(script=[Raw(fixture("anthropic_max_tokens_tool_use"))])
    from llm_game import make_referee

    ref = make_referee("anthropic", fake)
    from gm.referee.llm.types import Request, UserText

    reply = ref.provider.stream(Request("sys", [], [UserText("hi")]), lambda s: None)  # type: ignore[attr-defined]
    assert reply.truncated and reply.stop == "max_tokens" and reply.text == "Calling play 2"
