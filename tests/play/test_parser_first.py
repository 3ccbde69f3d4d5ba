"""The game's parser is asked before table talk, by every referee (#34): a game whose ``s`` is a move
(the test-only plugin's scissors) plays it, and a game whose parser reads no move in ``s`` still gets
the status.  The LLM referee leaves a move to the model instead of answering it as table talk."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gm.core import Game, find_game, registry
from gm.referee.offline import OfflineReferee, reads_as_move
from gm.session import Session

PLUGIN = Path(__file__).resolve().parents[1] / "plugin_game"


@pytest.fixture
def rps(monkeypatch: pytest.MonkeyPatch) -> Game:
    """The test-only plugin game, imported from its source folder and registered for this test only."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    from gm_rps import GAME

    monkeypatch.setitem(registry._registered, GAME.id, GAME)
    return GAME


def _session(game: object) -> Session:
    return Session.create(game, seed=1, players={s: "bot:default" for s in game.seats[1:]},  # type: ignore[attr-defined]
                          persist=False, bot_seed=1, nonce_seed=0, record=False)


def test_a_plugin_whose_s_is_scissors_throws_scissors(rps: Game) -> None:
    s = _session(rps)
    turn = OfflineReferee().handle(s, "alice", "s")
    assert [(c.tool, c.args) for c in turn.calls] == [("throw", {"shape": "scissors"})]
    assert turn.accepted and s.state.log[0].action.shape == "scissors"  # type: ignore[attr-defined]
    assert reads_as_move(s, "s") and not reads_as_move(s, "status")


@pytest.mark.parametrize("word", ["status", "score"])
def test_table_talk_the_plugin_reads_as_no_move_is_still_table_talk(rps: Game, word: str) -> None:
    s = _session(rps)
    before = len(s.state.log)  # the bot's locked throw
    turn = OfflineReferee().handle(s, "alice", word)
    assert [c.tool for c in turn.calls] == ["get_status"] and turn.narration.startswith("Round 1 (at most")
    assert len(s.state.log) == before


@pytest.mark.parametrize(("word", "tool"), [("s", "get_status"), ("b", "get_board"), ("time", "get_status"), ("down", "get_status")])
def test_in_grid_football_those_words_are_no_move_so_they_stay_table_talk(word: str, tool: str) -> None:
    s = _session(find_game("grid-football"))
    turn = OfflineReferee().handle(s, "home", word)
    assert [c.tool for c in turn.calls] == [tool] and not turn.accepted


def test_the_llm_referee_hands_a_move_to_the_model_and_answers_table_talk_itself(rps: Game) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
    try:
        from llm_fakes import FakeLLM, Say
        from llm_game import make_referee
    finally:
        sys.path.pop(0)
    fake = FakeLLM(script=[Say("Which shape?")])
    ref = make_referee("openai", fake)
    s = _session(rps)
    ref.handle(s, "alice", "s")
    asked = len(fake.requests)
    assert asked >= 1  # the model was asked: 's' is scissors here, not the status
    turn = ref.handle(s, "alice", "status")
    assert len(fake.requests) == asked and [c.tool for c in turn.calls] == ["get_status"]
