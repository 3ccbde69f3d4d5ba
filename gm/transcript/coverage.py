"""Rule coverage of a transcript corpus: which rule ids its games exercise."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from gm.transcript.replay import ReplayResult


@dataclass
class Coverage:
    game: str
    rules: dict[str, str]
    hits: dict[str, int] = field(default_factory=dict)

    @property
    def unexercised(self) -> list[str]:
        return [rid for rid in self.rules if not self.hits.get(rid)]


def coverage(results: Iterable[ReplayResult]) -> dict[str, Coverage]:
    """Per game: every rule id with the number of transcripts that exercise it."""
    from gm.core.errors import UnknownGameError
    from gm.core.registry import find_game

    out: dict[str, Coverage] = {}
    for res in results:
        try:
            game = find_game(res.game)
        except UnknownGameError:
            continue
        cov = out.get(game.id)
        if cov is None:
            cov = out[game.id] = Coverage(game.id, dict(game.rules_index), dict.fromkeys(game.rules_index, 0))
        for rid in res.rules:
            if rid in cov.hits:
                cov.hits[rid] += 1
    return out
