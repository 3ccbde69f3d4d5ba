"""The narration check on each game's corpus of true and false narrations of real seeded turns
(``gm/games/<game>/eval/narrations.toml``, :mod:`gm.eval.narration`): the share of false narrations
it catches (target >= 95%), the share of true ones it flags (target <= 2%), the corpus's size, and
how fast it checks a narration.

``run(quick)`` returns rows ``{name, value, unit, note, target}`` for ``python -m bench``.
"""

from __future__ import annotations

import time
from typing import Any

from bench import row

GAMES = ("grid-football", "gridmaster4", "quarterback", "brawl", "chess-football")


def run(quick: bool = False) -> list[dict[str, Any]]:
    from gm.core.registry import find_game
    from gm.eval.narration import load_corpus, measure, play_facts
    from gm.referee.llm.check import check, strip_boards

    rows = []
    for game_id in GAMES:
        game = find_game(game_id)
        score = measure(game)
        rows.append(row(f"narration.false_caught[{game_id}]", round(100 * score.false_caught, 1), "%",
                        f"{score.false - len(score.missed)} of {score.false} false narrations found false", ">= 95"))
        rows.append(row(f"narration.true_flagged[{game_id}]", round(100 * score.true_flagged, 1), "%",
                        f"{len(score.flagged)} of {score.true} true narrations found false", "<= 2"))
    game = find_game("grid-football")
    play = load_corpus(game)[0]
    facts = play_facts(game, play)
    pairs = [(n.text, facts[t.id]) for t in play.turns for n in t.narrations]
    reps = 3 if quick else 20
    start = time.perf_counter()
    for _ in range(reps):
        for text, f in pairs:
            check(strip_boards(text)[0], f)
    per = (time.perf_counter() - start) / (reps * len(pairs)) * 1e6
    rows.append(row("narration.check_us", round(per, 1), "us", f"one narration checked (Grid Football corpus, {len(pairs)} narrations)"))
    return rows
