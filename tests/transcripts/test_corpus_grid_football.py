"""The Grid Football transcript corpus: ≥ 30 transcripts of every kind, all replaying,
every rule id and ruling exercised, every kind of rejection present."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.core.registry import find_game
from gm.transcript import Transcript
from gm.transcript.coverage import coverage
from gm.transcript.replay import ReplayResult, iter_transcript_files, replay_path

GAME = "grid-football"
CORPUS = Path(__file__).resolve().parents[2] / "transcripts" / "grid_football"


@pytest.fixture(scope="module")
def results() -> list[ReplayResult]:
    return [replay_path(p) for p in iter_transcript_files([CORPUS])]


def test_at_least_thirty_transcripts_of_every_kind() -> None:
    files = iter_transcript_files([CORPUS])
    assert len(files) >= 30
    kinds = {Transcript.load(p).header.referee.kind for p in files if p.suffix == ".jsonl"}
    # bot games through the tools, scripted games through the offline referee, LLM referees
    assert {"none", "offline", "openai", "anthropic"} <= kinds
    assert sum(p.suffix == ".md" for p in files) >= 4  # hand-written scenarios


def test_every_transcript_replays(results: list[ReplayResult]) -> None:
    failed = [r.report() for r in results if not r.ok]
    assert not failed, "\n".join(failed)


def test_coverage_shows_no_unexercised_rule(results: list[ReplayResult]) -> None:
    cov = coverage(results)[GAME]
    assert set(cov.rules) == set(find_game(GAME).rules_index)
    assert cov.unexercised == []


def test_every_kind_of_rejection_is_in_the_corpus(results: list[ReplayResult]) -> None:
    rules = set().union(*(r.rules for r in results))
    for rid in ("GF-PLAY4-LOCK", "GF-R-LATERAL-CAP", "GF-R-DEFENSE-CALL", "GF-R-PUNT", "GF-SYNTAX", "GF-R-NUMBER", "GF-LOCK"):
        assert rid in rules, rid
    recorded = [Transcript.load(p) for p in iter_transcript_files([CORPUS]) if p.suffix == ".jsonl"]
    errors = {e.result["error"]["kind"] for t in recorded for e in t.entries if e.type == "tool_result" and not e.result["ok"]}
    assert {"illegal_action", "invalid_action"} <= errors
