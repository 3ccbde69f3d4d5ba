"""How well the offline referee understands people (issue #37), per game.

Each game's phrasing corpus (``<game package>/eval/phrasings.toml``: at least 150 phrasings written
the way people type, each at a position built by seeded moves) is read by the game's
:class:`~gm.core.phrasing.Phrasing` at its position (:mod:`gm.referee.corpus`):

- ``understood_pct``: the meant move read (or, for a phrasing that cannot be pinned to one move, a
  question listing exactly its candidates); target at least 95;
- ``wrong``: moves read that the player did not mean; target 0;
- ``asked``: questions asked that list the meant move (not understood, nothing wrong done);
- ``missed``: nothing read;
- ``ms_per_phrasing``: reading time per phrasing (normalising, the parser, the game's hook).

``run(quick)`` returns rows for ``python -m bench``.
"""

from __future__ import annotations

import time
from typing import Any

from bench import row

GAMES = ("grid-football", "gridmaster4", "quarterback", "brawl", "chess-football")


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Rows for every game's corpus."""
    from gm.core.registry import find_game
    from gm.referee.corpus import load_corpus, outcomes, score_corpus

    rows: list[dict[str, Any]] = []
    for game_id in GAMES:
        game = find_game(game_id)
        positions = load_corpus(game)
        start = time.perf_counter()
        results = list(outcomes(game, positions))
        seconds = time.perf_counter() - start
        s = score_corpus(results)
        name = f"phrasing.{game_id}"
        n = s["phrasings"]
        rows.append(row(f"{name}.understood_pct", s["understood_pct"], "%",
                        f"{s['understood']} of {n} phrasings at {len(positions)} positions", ">= 95"))
        rows.append(row(f"{name}.wrong", s["wrong"], "moves", "moves read that the player did not mean", "<= 0"))
        rows.append(row(f"{name}.asked", s["asked"], "questions", "clarifying questions that list the meant move"))
        rows.append(row(f"{name}.missed", s["missed"], "phrasings", "nothing read"))
        rows.append(row(f"{name}.ms_per_phrasing", round(1000 * seconds / max(1, n), 2), "ms",
                        "reading time per phrasing, positions built included"))
    return rows
