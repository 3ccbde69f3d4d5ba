"""Whole games turn by turn through each provider's real SDK client; the transcripts they
leave replay offline (engine and referee), and the corpus ones do too, without any SDK."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from llm_game import CORPUS, play
from typer.testing import CliRunner

from gm.cli.app import app
from gm.transcript.format import LLMResponseEntry, Transcript
from gm.transcript.replay import replay

GAMES = {
    "openai": dict(seed=12, faults={1: "malformed", 3: "contradict", 5: "rate_limit", 7: "injection"}),
    "openai-responses": dict(seed=6, faults={2: "skip_tool", 4: "unknown_tool"}),
    "anthropic": dict(seed=9, faults={1: "wrong_type", 4: "contradict", 6: "legal_first"}),
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> tuple[str, object]:
    kind = request.param
    return kind, play(kind, **GAMES[kind])  # type: ignore[arg-type]


def test_a_whole_game_is_played_to_the_end(game: tuple[str, object]) -> None:
    kind, played = game
    session = played.session  # type: ignore[attr-defined]
    assert session.state.is_terminal
    tr: Transcript = played.transcript  # type: ignore[attr-defined]
    entries = tr.entries
    responses = [e for e in entries if e.type == "llm_response"]
    assert responses and all(e.provider == kind for e in responses)
    ok = [e for e in responses if "gm_error" not in e.response]
    assert len([e for e in entries if e.type == "usage"]) == len(ok)
    assert all(e.input_tokens and e.input_tokens > 0 for e in entries if e.type == "usage")
    # every board in the transcript is the engine's rendering, never model text
    boards = [e for e in entries if e.type == "board"]
    assert boards and all(b.text.splitlines()[1].lstrip().startswith("A B C") for b in boards)
    flagged = [e for e in entries if e.type == "narration" and e.flags]
    faults = GAMES[kind]["faults"]
    assert flagged and len(flagged) <= len(faults)  # type: ignore[arg-type]
    # turns without a fault: one tool call, at most two model requests (call, then narration)
    requests: list[int] = []
    for e in entries:
        if e.type == "player":
            requests.append(0)
        elif e.type == "llm_response" and requests:
            requests[-1] += 1
    for n, turn in enumerate(played.turns):  # type: ignore[attr-defined]
        if n not in faults:  # type: ignore[operator]
            assert turn.accepted and len(turn.calls) == 1 and turn.flags == [], (n, turn)
            assert requests[n] == 2


def test_the_recorded_game_replays_offline(game: tuple[str, object]) -> None:
    kind, played = game
    tr = Transcript.from_jsonl(played.transcript.to_jsonl())  # type: ignore[attr-defined]
    res = replay(tr, source=f"{kind} game")
    assert res.ok, res.report()
    assert res.calls > 10


def test_replay_reports_where_the_referee_would_now_call_other_tools(game: tuple[str, object]) -> None:
    kind, played = game
    tr = Transcript.from_jsonl(played.transcript.to_jsonl())  # type: ignore[attr-defined]
    entries = list(tr.entries)
    # change the arguments of the first tool call the model asked for in some later response
    for i, e in enumerate(entries):
        if isinstance(e, LLMResponseEntry) and i > len(entries) // 2:
            raw = copy.deepcopy(e.response)
            if _retarget(kind, raw):
                entries[i] = LLMResponseEntry(provider=e.provider, response=raw)
                break
    else:
        pytest.fail("no tool call to tamper with")
    res = replay(Transcript(header=tr.header, entries=entries), source="tampered")
    assert res.divergence is None  # the recorded tool results still replay
    assert res.referee_divergence is not None
    assert "with other tool calls" in res.referee_divergence.what


def _retarget(kind: str, raw: dict[str, object]) -> bool:
    """Make the response's first tool call a different (harmless) query."""
    if kind == "openai":
        calls = raw["choices"][0]["message"].get("tool_calls")  # type: ignore[index]
        if calls:
            calls[0]["function"] = {"name": "get_rules", "arguments": json.dumps({"topic": "punt"})}
            return True
    elif kind == "openai-responses":
        for item in raw["output"]:  # type: ignore[attr-defined]
            if item["type"] == "function_call":
                item["name"], item["arguments"] = "get_rules", json.dumps({"topic": "punt"})
                return True
    else:
        for block in raw["content"]:  # type: ignore[attr-defined]
            if block["type"] == "tool_use":
                block["name"], block["input"] = "get_rules", {"topic": "punt"}
                return True
    return False


# ------------------------------------------------------------------ corpus
LLM_CORPUS = sorted(CORPUS.glob("llm_*.jsonl"))


def test_the_corpus_has_llm_transcripts_of_every_kind() -> None:
    kinds = {Transcript.load(p).header.referee.kind for p in LLM_CORPUS}
    assert kinds == {"openai", "openai-responses", "anthropic"}


def test_corpus_replays_with_gm_replay_and_without_any_sdk() -> None:
    smallest = min(LLM_CORPUS, key=lambda p: p.stat().st_size)  # the pytest plugin replays them all
    res = CliRunner().invoke(app, ["replay", str(smallest)])
    assert res.exit_code == 0, res.output
    assert "1 passed, 0 failed" in res.output
    code = (
        "import sys\n"
        "from gm.transcript.replay import replay_path\n"
        f"paths = {[str(p) for p in LLM_CORPUS]!r}\n"
        "print(all(replay_path(p).ok for p in paths), sorted(m for m in ('openai', 'anthropic', 'httpx2') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2])
    assert out.stdout.strip() == "True []", out.stdout + out.stderr
