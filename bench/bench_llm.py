"""The LLM referee's budget, measured from the recorded LLM transcripts of the corpus.

- system prompt + tool schemas, in characters and estimated tokens (4 characters a
  token), per wire format, against the rules files a player uploads to a plain chatbot;
- input tokens per turn over a full game: the recorded ``usage`` of each player
  turn's first request (the corpus was recorded against a scripted model that counts
  a request's characters / 4), and the request sizes rebuilt by replaying the
  transcript through the referee (exact characters of each payload);
- model requests per down.

``run(quick)`` returns rows ``{name, value, unit, note}`` for ``python -m bench``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent.parent / "transcripts"
CHARS_PER_TOKEN = 4
DOWN_EVENTS = frozenset({"play_reveal", "punt_called"})


def _row(name: str, value: float, unit: str, note: str) -> dict[str, Any]:
    return {"name": name, "value": value, "unit": unit, "note": note}


def _llm_transcripts() -> list[Path]:
    return sorted(CORPUS.glob("*/llm_*.jsonl"))


def _prompt_rows() -> list[dict[str, Any]]:
    from bench.bench_llm_games import prompt_chars
    from gm.core.registry import find_game
    from gm.export.render import render_all

    system, count, schemas = prompt_chars("grid-football")
    try:
        bundle = sum(len(text) for text in render_all(find_game("grid-football")).values())
        vs = f"; the rules files a player uploads to a plain chatbot: {bundle:,} characters"
    except Exception as exc:  # the export is someone else's module: never fail the bench on it
        vs = f"; export bundle unavailable ({type(exc).__name__})"
    rows = []
    for kind, schema in schemas.items():
        total = system + schema
        rows.append(_row(f"llm.prompt_chars[{kind}]", total, "chars",
                         f"system prompt {system} + {count} tool schemas {schema} (compact JSON); aim < 6,000{vs}"))
        rows.append(_row(f"llm.prompt_tokens_est[{kind}]", round(total / CHARS_PER_TOKEN), "tokens",
                         f"{CHARS_PER_TOKEN} characters a token"))
    return rows


def _turns(tr: Any) -> list[dict[str, Any]]:
    """Per player message: its requests' usage, and whether it resolved a down."""
    turns: list[dict[str, Any]] = []
    for e in tr.entries:
        if e.type == "player":
            turns.append({"requests": 0, "inputs": [], "downs": 0})
        elif not turns:
            continue
        elif e.type == "llm_response":
            turns[-1]["requests"] += 1
        elif e.type == "usage":
            turns[-1]["inputs"].append(e.input_tokens or 0)
        elif e.type == "tool_result" and e.result.get("ok"):
            turns[-1]["downs"] += sum(1 for ev in e.result.get("events") or [] if ev.get("kind") in DOWN_EVENTS)
    return turns


def _flatness_rows(path: Path) -> list[dict[str, Any]]:
    from gm.referee.llm.replay import ReplayProvider
    from gm.transcript.format import Transcript
    from gm.transcript.replay import session_of as _session

    tr = Transcript.load(path)
    firsts = [t["inputs"][0] for t in _turns(tr) if t["inputs"]]
    rows = []
    if len(firsts) >= 60:
        rows.append(_row("llm.input_tokens_turn60_vs_turn5", round(firsts[59] / firsts[4], 3), "x",
                         f"first request of turn 60 / turn 5 (recorded usage: {firsts[4]} -> {firsts[59]} tokens); aim <= 1.2; {path.name}"))
    rows.append(_row("llm.input_tokens_per_turn_max_vs_min", round(max(firsts) / min(firsts), 3), "x",
                     f"over {len(firsts)} turns: min {min(firsts)}, max {max(firsts)}, mean {sum(firsts) / len(firsts):.0f} tokens"))
    # the same, measured exactly: rebuild every request by replaying the transcript through the referee
    from gm.referee.llm.referee import LLMReferee
    from gm.referee.llm.replay import recorded_responses

    kind = tr.header.referee.kind
    provider = ReplayProvider(kind, tr.header.referee.model, recorded_responses(tr, kind))
    ref = LLMReferee(provider, kind=kind)
    session = _session(tr)
    firsts_chars: list[int] = []
    for e in tr.entries:
        if e.type == "player":
            before = len(provider.payload_chars)
            ref.handle(session, e.seat, e.text)
            if len(provider.payload_chars) > before:
                firsts_chars.append(provider.payload_chars[before])
    if len(firsts_chars) >= 60:
        rows.append(_row("llm.request_chars_turn60_vs_turn5", round(firsts_chars[59] / firsts_chars[4], 3), "x",
                         f"replayed payloads, first request of the turn: {firsts_chars[4]} -> {firsts_chars[59]} characters"))
    return rows


def _requests_rows(paths: list[Path]) -> list[dict[str, Any]]:
    from gm.transcript.format import Transcript

    down_requests = downs = all_requests = messages = clean = clean_requests = 0
    for p in paths:
        for t in _turns(Transcript.load(p)):
            all_requests += t["requests"]
            messages += t["requests"] > 0
            if t["downs"]:
                downs += t["downs"]
                down_requests += t["requests"]
                if t["requests"] <= 2:
                    clean += 1
                    clean_requests += t["requests"]
    return [
        _row("llm.requests_per_down", round(down_requests / max(1, downs), 3), "requests",
             f"requests in the messages that resolved a down / downs ({downs} downs in {len(paths)} transcripts, "
             f"faults included); aim <= 2"),
        _row("llm.requests_per_clean_down", round(clean_requests / max(1, clean), 3), "requests",
             "the same without the turns where the scripted model misbehaved"),
        _row("llm.requests_per_message", round(all_requests / max(1, messages), 3), "requests",
             f"{all_requests} requests for {messages} player messages sent to the model"),
    ]


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Benchmark rows (the measures are counts, so ``quick`` changes nothing)."""
    rows = _prompt_rows()
    paths = _llm_transcripts()
    if not paths:
        return [*rows, _row("llm.transcripts", 0, "files", "no transcripts/*/llm_*.jsonl: record them with tests/llm/llm_game.py")]
    from gm.transcript.format import Transcript

    longest = max(paths, key=lambda p: sum(1 for e in Transcript.load(p).entries if e.type == "player"))
    return [*rows, *_flatness_rows(longest), *_requests_rows(paths)]


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(f"{row['name']:40} {row['value']:>10} {row['unit']:8} {row['note']}")
