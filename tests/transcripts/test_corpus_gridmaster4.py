"""The GridMaster4 transcript corpus: at least 10 transcripts, all replaying, every rule id exercised."""

from __future__ import annotations

import json
from pathlib import Path

from gm.transcript import Transcript
from gm.transcript.replay import iter_transcript_files, replay

GAME = "gridmaster4"
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


def test_a_full_board_asked_for_replays_and_a_changed_one_is_reported() -> None:
    path = CORPUS / "human_vs_three_bots_seed11.jsonl"
    tr = Transcript.load(path)
    boards = [e for e in tr.entries if e.type == "board"]
    full = next(i for i, e in enumerate(tr.entries) if e.type == "board" and e.text.splitlines()[1].startswith("    A    B"))
    assert len(boards) > 1 and replay(tr).ok
    data = [json.loads(line) for line in tr.to_jsonl().splitlines()]
    assert "o1 " in data[full + 1]["text"]  # a full board: every tile with its number
    data[full + 1]["text"] = data[full + 1]["text"].replace("o1 ", "O1 ", 1)
    res = replay(Transcript.from_jsonl("\n".join(json.dumps(d) for d in data)))
    assert res.divergence is not None and res.divergence.line == full + 2
    assert "-" in res.divergence.diff() and "O1" in res.divergence.diff()
