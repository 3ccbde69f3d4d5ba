"""The brawl transcript corpus: at least 10 transcripts of every kind, all replaying, every rule id
exercised, and no bot's placement written down before it was revealed."""

from __future__ import annotations

import json
from pathlib import Path

from gm.core.registry import find_game
from gm.transcript import Transcript
from gm.transcript.replay import iter_transcript_files

GAME = "brawl"
CORPUS = Path(__file__).resolve().parents[2] / "transcripts" / GAME
MAX_BYTES = 400_000


def test_the_corpus_has_at_least_ten_transcripts_of_every_kind() -> None:
    files = iter_transcript_files([CORPUS])
    assert len(files) >= 10
    recorded = [Transcript.load(p) for p in files if p.suffix == ".jsonl"]
    assert {t.header.referee.kind for t in recorded} == {"none", "offline"}  # bot games and scripted games
    assert any("bot:default" in t.header.players.values() for t in recorded if t.header.referee.kind == "offline")
    assert any(set(t.header.players.values()) == {"human"} for t in recorded if t.header.referee.kind == "offline")
    assert sum(p.suffix == ".md" for p in files) >= 3
    assert all(t.header.game == GAME for t in recorded)
    assert all(p.stat().st_size <= MAX_BYTES for p in files)


def test_a_bots_placement_is_written_only_once_revealed() -> None:
    """In a game against a bot, the first entry that holds a bot's placement is the result that
    revealed it (its commitment opened), and the ``bot_move`` entry comes after it."""
    game = find_game(GAME)
    checked = 0
    for path in CORPUS.glob("*.jsonl"):
        tr = Transcript.load(path)
        entries = [json.dumps(e.model_dump()) for e in tr.entries]
        for i, e in enumerate(tr.entries):
            if e.type != "bot_move" or game.parse_action(e.action).type != "placement":
                continue
            first = next(j for j, text in enumerate(entries) if e.action in text)
            shown = tr.entries[first]
            assert first < i and shown.type == "tool_result", (path.name, i)
            assert shown.result["reveal"][e.seat]["choice"] == e.action and shown.result["reveal"][e.seat]["verified"]
            checked += 1
    assert checked >= 10
