"""What every game's transcript corpus must do: replay exactly and exercise every rule id.
(Each game's own file adds its counts, kinds and game-specific checks.)"""

from __future__ import annotations

import pytest
from corpus_helpers import FOLDERS, corpus_dir, corpus_results

from gm.core.registry import find_game
from gm.transcript.coverage import coverage


def test_every_registered_game_has_a_corpus() -> None:
    from gm.core.registry import game_ids

    assert set(game_ids()) == set(FOLDERS)
    assert all(corpus_dir(g).is_dir() for g in FOLDERS)


@pytest.mark.parametrize("game", sorted(FOLDERS))
def test_every_transcript_replays(game: str) -> None:
    results = corpus_results(game)
    failed = [r.report() for r in results if not r.ok]
    assert not failed, "\n".join(failed)
    assert all(r.game == game and r.calls > 0 for r in results)


@pytest.mark.parametrize("game", sorted(FOLDERS))
def test_every_rule_id_is_exercised(game: str) -> None:
    cov = coverage(corpus_results(game))[game]
    assert set(cov.rules) == set(find_game(game).rules_index)
    assert cov.unexercised == []
