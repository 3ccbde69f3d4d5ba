"""Every game's phrasing corpus (``<game package>/eval/phrasings.toml``): at least 150 phrasings
written the way people type, each at a position built by seeded moves; the offline referee
understands at least 95% of them and never makes a move the player did not mean (#37)."""

from __future__ import annotations

import pytest

from gm.core import find_game
from gm.core.registry import all_games
from gm.referee.corpus import CorpusError, Phrase, Position, check_corpus, judge, load_corpus, outcomes, score_corpus

GAMES = ("grid-football", "gridmaster4", "brawl", "quarterback", "chess-football")


def test_every_game_ships_a_corpus() -> None:
    assert {g.id for g in all_games() if load_corpus(g)} >= set(GAMES)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_corpus_is_sound(game_id: str) -> None:
    """Every position is reached by its moves, every meant move reads and is legal there, and the
    phrasings are many and varied."""
    game = find_game(game_id)
    positions = load_corpus(game)
    assert check_corpus(game, positions) == []
    phrases = [p for pos in positions for p in pos.say]
    assert len(phrases) >= 150
    assert len({p.text for p in phrases}) == len(phrases) or len(positions) > 1
    kinds = {p.kind for p in phrases}
    assert {"typo", "partial"} <= kinds and len(kinds) >= 5, kinds


@pytest.mark.parametrize("game_id", GAMES)
def test_the_offline_referee_understands_95_percent_and_never_makes_a_wrong_move(game_id: str) -> None:
    results = list(outcomes(find_game(game_id)))
    score = score_corpus(results)
    wrong = [(r.position, r.text, r.got) for r in results if r.verdict == "wrong"]
    assert wrong == []
    missed = [(r.position, r.text, r.got) for r in results if r.verdict != "understood"]
    assert score["understood_pct"] >= 95.0, missed


def test_a_move_the_player_did_not_mean_is_judged_wrong_and_a_question_is_not() -> None:
    """The judge itself: a different legal move is wrong; a question that lists the meant move is asked."""
    from gm.core.phrasing import Reading

    game = find_game("grid-football")
    from gm.referee.corpus import start

    state = start(game, Position(id="kick", moves=("receive",))).state
    meant = Phrase(text="left yelow", move="left yellow")
    assert judge(state, "home", meant, Reading(game.parse_action("left yellow"))) == "understood"
    assert judge(state, "home", meant, Reading(game.parse_action("left red"))) == "wrong"
    asked = Reading(candidates=(game.parse_action("left yellow"), game.parse_action("left red")))
    assert judge(state, "home", meant, asked) == "asked"
    assert judge(state, "home", meant, Reading()) == "missed"
    vague = Phrase(text="left", clarify=("left yellow", "left red"))
    assert judge(state, "home", vague, asked) == "understood"
    assert judge(state, "home", vague, Reading(game.parse_action("left yellow"))) == "wrong"


def test_a_malformed_corpus_is_refused_naming_the_place(tmp_path: pytest.TempPathFactory) -> None:
    from gm.referee.corpus import _phrase

    with pytest.raises(CorpusError, match="exactly one of move and clarify"):
        _phrase({"text": "left", "move": "left red", "clarify": ["a", "b"]}, "here")
    with pytest.raises(CorpusError, match="kind is one of"):
        _phrase({"text": "left", "move": "left red", "kind": "weird"}, "here")
    game = find_game("grid-football")
    assert check_corpus(game, [Position(id="p", moves=("receive",), say=(Phrase("x", move="play 1 red"),))]) == [
        "p: 'x': 'play 1 red' is not a legal move there"]
