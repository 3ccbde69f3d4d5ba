"""The narration check measured on each game's corpus of true and false narrations of real seeded turns
(``gm/games/<game>/eval/narrations.toml``, built by ``narration_corpus_build.py``): at least 50 of
each a game, the false ones covering every kind of claim the game's narrations can make; false
narrations caught >= 95%, true ones flagged <= 2%, in every game.  ``python -m bench --only
narration`` prints the figures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gm.core.registry import find_game
from gm.eval.narration import CorpusError, claim_kinds, load_corpus, measure, play_facts

GAMES = ["brawl", "chess-football", "grid-football", "gridmaster4", "quarterback"]


@pytest.fixture(scope="module", params=GAMES)
def scored(request: pytest.FixtureRequest) -> tuple[str, object]:
    return request.param, measure(find_game(request.param))


def test_each_corpus_is_big_enough_and_covers_every_kind_of_claim(scored: tuple[str, object]) -> None:
    game, score = scored
    assert score.true >= 50 and score.false >= 50, (score.true, score.false)  # type: ignore[attr-defined]
    missing = claim_kinds(find_game(game)) - set(score.kinds)  # type: ignore[attr-defined]
    assert not missing, f"{game}: no false narration makes a claim of kind {sorted(missing)}"


def test_false_narrations_are_caught_and_true_ones_pass(scored: tuple[str, object]) -> None:
    _, score = scored
    assert score.false_caught >= 0.95, "\n".join(map(str, score.missed))  # type: ignore[attr-defined]
    assert score.true_flagged <= 0.02, "\n".join(map(str, score.flagged))  # type: ignore[attr-defined]


def test_the_kinds_of_claim_are_the_games_own() -> None:
    assert claim_kinds(find_game("gridmaster4")) == {
        "move made", "nothing happened", "score", "game over", "winner", "a blocked player", "an inactive tile",
        "a free placement", "cell", "tile", "placements", "blocked",
    }
    assert claim_kinds(find_game("quarterback")) == {
        "move made", "nothing happened", "score", "game over", "winner", "a tackle", "an interception", "a push", "square", "points",
    }


def test_a_game_that_plays_otherwise_now_is_one_clear_error() -> None:
    game = find_game("grid-football")
    play = load_corpus(game)[0]
    turn = play.turns[2]
    changed = replace(play, turns=(*play.turns[:2], replace(turn, events=(*turn.events[:-1], "2nd & 99"))))
    with pytest.raises(CorpusError, match=f"grid-football turn {turn.id}: the engine now says .*build the corpus again"):
        play_facts(game, changed)


def test_a_game_without_a_corpus_has_none() -> None:
    from gm.core.registry import all_games

    assert {g.id for g in all_games() if load_corpus(g)} == set(GAMES)
