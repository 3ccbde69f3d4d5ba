"""Transcript replay speed: entries per second, the whole corpus, and linear growth."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent.parent / "transcripts"


def _time(fn: Any, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def run(quick: bool = False) -> list[dict[str, Any]]:
    from gm.transcript.record import record_bot_game
    from gm.transcript.replay import iter_transcript_files, replay, replay_path

    out: list[dict[str, Any]] = []
    files = iter_transcript_files([CORPUS])
    if files:
        t = time.perf_counter()
        entries = 0
        for f in files:
            res = replay_path(f)
            entries += res.entries
        dt = time.perf_counter() - t
        out.append({"name": "replay: whole corpus", "value": round(dt, 3), "unit": "s", "note": f"{len(files)} transcripts, {entries} entries"})
        out.append({"name": "replay: corpus entries/s", "value": round(entries / dt), "unit": "entries/s", "note": "incl. referee replay"})
    # linear growth: per-entry cost of short vs long games (points mode makes long games)
    repeat = 1 if quick else 3
    sizes = {}
    for label, rules in (("short", None), ("long", {"win": "points"})):
        tr = record_bot_game("grid-football", 11, {"home": "bot:random", "away": "bot:random"}, rules=rules)
        dt = _time(lambda tr=tr: replay(tr, referee=False), repeat)
        sizes[label] = (len(tr.entries), dt)
        out.append({"name": f"replay: {label} game", "value": round(len(tr.entries) / dt), "unit": "entries/s", "note": f"{len(tr.entries)} entries in {dt * 1000:.1f} ms"})
    (n1, t1), (n2, t2) = sizes["short"], sizes["long"]
    ratio = (t2 / n2) / (t1 / n1)
    out.append({"name": "replay: per-entry cost long/short", "value": round(ratio, 2), "unit": "x", "note": f"{n2} vs {n1} entries; ~1.0 = linear"})
    return out


if __name__ == "__main__":
    for row in run():
        print(row)
