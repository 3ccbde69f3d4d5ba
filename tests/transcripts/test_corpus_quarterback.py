"""The Quarter Back transcript corpus: at least 10 transcripts, all replaying, every rule id exercised."""

from __future__ import annotations

from pathlib import Path

from gm.transcript import Transcript
from gm.transcript.replay import iter_transcript_files

GAME = "quarterback"
CORPUS = Path(__file__).resolve().parents[2] / "transcripts" / GAME
MAX_BYTES = 400_000


def test_the_corpus_has_at_least_ten_transcripts_of_every_kind() -> None:
    files = iter_transcript_files([CORPUS])
    assert len(files) >= 10
    recorded = [Transcript.load(p) for p in files if p.suffix == ".jsonl"]
    assert {t.header.referee.kind for t in recorded} == {"none", "offline"}  # bot games and scripted games
    assert any(p.suffix == ".md" for p in files)
    assert all(t.header.game == GAME for t in recorded)
    assert all(p.stat().st_size <= MAX_BYTES for p in files)


def test_the_scripted_games_hold_many_typed_lines_and_rejections() -> None:
    scripted = [p for p in iter_transcript_files([CORPUS]) if p.suffix == ".jsonl" and Transcript.load(p).header.referee.kind == "offline"]
    assert len(scripted) >= 2
    for p in scripted:
        tr = Transcript.load(p)
        assert sum(1 for e in tr.entries if e.type == "player") > 10
        assert any(e.type == "tool_result" and not e.result.get("ok") for e in tr.entries)  # rejections too
