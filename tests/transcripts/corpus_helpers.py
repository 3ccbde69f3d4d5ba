"""Shared by the corpus tests: each game's transcript folder, replayed once per test run."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from gm.transcript.replay import ReplayResult, iter_transcript_files, replay_path

ROOT = Path(__file__).resolve().parents[2] / "transcripts"
FOLDERS = {
    "grid-football": "grid_football",
    "gridmaster4": "gridmaster4",
    "quarterback": "quarterback",
    "brawl": "brawl",
    "chess-football": "chess_football",
}


def corpus_dir(game: str) -> Path:
    return ROOT / FOLDERS[game]


@cache
def corpus_results(game: str) -> tuple[ReplayResult, ...]:
    """Every transcript of ``game``'s corpus, replayed (cached for the whole run)."""
    return tuple(replay_path(p) for p in iter_transcript_files([corpus_dir(game)]))
