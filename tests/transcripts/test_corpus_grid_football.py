"""The Grid Football transcript corpus: ≥ 30 transcripts of every kind, all replaying,
every rule id and ruling exercised, every kind of rejection present."""

from __future__ import annotations

from pathlib import Path

from corpus_helpers import corpus_results

from gm.transcript import Transcript
from gm.transcript.replay import iter_transcript_files

GAME = "grid-football"
CORPUS = Path(__file__).resolve().parents[2] / "transcripts" / "grid_football"


def test_at_least_thirty_transcripts_of_every_kind() -> None:
    files = iter_transcript_files([CORPUS])
    assert len(files) >= 30
    kinds = {Transcript.load(p).header.referee.kind for p in files if p.suffix == ".jsonl"}
    # bot games through the tools, scripted games through the offline referee, LLM referees
    assert {"none", "offline", "openai", "anthropic"} <= kinds
    assert sum(p.suffix == ".md" for p in files) >= 4  # hand-written scenarios


def test_every_kind_of_rejection_is_in_the_corpus() -> None:
    rules = set().union(*(r.rules for r in corpus_results(GAME)))
    for rid in ("GF-PLAY4-LOCK", "GF-R-LATERAL-CAP", "GF-R-DEFENSE-CALL", "GF-R-PUNT", "GF-SYNTAX", "GF-R-NUMBER", "GF-LOCK",
                "GF-R-DECISION"):
        assert rid in rules, rid
    recorded = [Transcript.load(p) for p in iter_transcript_files([CORPUS]) if p.suffix == ".jsonl"]
    errors = {e.result["error"]["kind"] for t in recorded for e in t.entries if e.type == "tool_result" and not e.result["ok"]}
    assert {"illegal_action", "invalid_action"} <= errors
