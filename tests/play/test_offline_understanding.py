"""What the offline referee does with words that are not plainly a move (#37): it says back what it
read, asks with the candidates when several moves fit (and takes the answer), answers a question
from the rules instead of playing the move its words contain, never moves for another seat, and
``gm eval --referee offline`` scores it like a model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core import find_game
from gm.core.phrasing import Phrasing, is_question, other_seat_named, read_legs
from gm.referee.corpus import Position, start
from gm.referee.offline import OfflineReferee
from gm.session import Session


def _at(game_id: str, *moves: str, seat: str | None = None, seed: int = 1) -> Session:
    return start(find_game(game_id), Position(id="t", seed=seed, seat=seat, moves=moves))


def test_a_typo_is_read_made_and_said_back() -> None:
    s = _at("grid-football", "receive")
    turn = OfflineReferee().handle(s, "home", "left yelow")
    assert [(c.tool, c.args) for c in turn.calls] == [("pick_kick", {"position": "left", "colour": "yellow"})]
    assert turn.narration.startswith("Read as 'left yellow'.\n")


def test_several_fits_are_asked_about_and_the_answer_is_taken() -> None:
    s = _at("grid-football", "receive")
    ref = OfflineReferee()
    turn = ref.handle(s, "home", "yellow")
    assert turn.calls == [] and turn.narration == (
        "'yellow' could be 'left yellow', 'center yellow' or 'right yellow'. Which one do you mean?")
    turn = ref.handle(s, "home", "right")  # the word only one candidate has
    assert [(c.tool, c.args) for c in turn.calls] == [("pick_kick", {"position": "right", "colour": "yellow"})]


@pytest.mark.parametrize(("answer", "made"), [("the second", "play 2 black"), ("2nd one", "play 2 black"),
                                               ("first", "play 2 red"), ("black", "play 2 black")])
def test_a_question_is_answered_by_place_or_by_words(answer: str, made: str) -> None:
    s = _at("grid-football", "receive", "left red")
    ref = OfflineReferee()
    assert "'play 2 red' or 'play 2 black'" in ref.handle(s, "home", "play 2").narration
    turn = ref.handle(s, "home", answer)
    assert turn.accepted and [str(m.action) for m in s.state.log if m.seat == "home"][-1] == made


def test_the_answer_may_come_through_another_offline_referee() -> None:
    """The web page makes a referee per message: the question asked by one is answered through the next."""
    s = _at("grid-football", "receive")
    OfflineReferee().handle(s, "home", "green")
    turn = OfflineReferee().handle(s, "home", "the last")
    assert [(c.tool, c.args) for c in turn.calls] == [("pick_kick", {"position": "right", "colour": "green"})]


def test_an_answer_after_the_game_moved_on_is_not_taken_as_one() -> None:
    s = _at("grid-football", "receive")
    ref = OfflineReferee()
    ref.handle(s, "home", "yellow")
    ref.handle(s, "home", "left red")  # a move: the question is over
    turn = ref.handle(s, "home", "the second")
    assert not turn.accepted


def test_a_refused_move_is_followed_by_the_few_legal_readings_of_the_words() -> None:
    """'2' at a play call is a number pick, which the engine refuses, naming the decision due; the
    referee then asks whether play 2 was meant."""
    s = _at("grid-football", "receive", "left red")
    turn = OfflineReferee().handle(s, "home", "2")
    assert [c.tool for c in turn.calls] == ["pick_number"] and not turn.accepted
    assert turn.narration.endswith("'2' could be 'play 2 red' or 'play 2 black'. Which one do you mean?")


def test_a_question_holding_a_move_is_answered_not_played() -> None:
    """brawl's parser finds 'go for it' in the question; the referee answers from the rules instead."""
    moves = tuple(json.loads(Path(__file__).with_name("br_fourth.json").read_text()))
    s = _at("brawl", *moves)
    before = len(s.state.log)
    turn = OfflineReferee().handle(s, "home", "what happens if I go for it and fail?")
    assert len(s.state.log) == before and [c.tool for c in turn.calls] == ["get_rules"]
    assert turn.narration.startswith("From the rules:\n[")


@pytest.mark.parametrize("text", ["place a tile for magenta at A1", "put magenta's tile on A1"])
def test_no_move_is_made_for_another_seat(text: str) -> None:
    s = _at("gridmaster4")
    turn = OfflineReferee().handle(s, "orange", text)
    assert not turn.accepted and all(m.seat != "orange" for m in s.state.log)
    assert "magenta makes its own moves; you play orange" in turn.narration


def test_the_generic_reading_helpers() -> None:
    assert is_question("what happens if I go for it?") and is_question("Can I punt?") and is_question("where is the ball")
    assert not is_question("how about play 2 red") and not is_question("what about K12") and not is_question("punt?")
    assert other_seat_named("place a tile for magenta", ("orange", "magenta"), "orange") == "magenta"
    assert other_seat_named("punt it away", ("home", "away"), "home") is None
    up = {"up": (0, 1), "left": (-1, 0)}
    assert read_legs(["up", "3"], up) == [(0, 1, 3)] and read_legs(["3", "up"], up) == [(0, 1, 3)]
    assert read_legs(["up", "then", "2", "left"], up, skip=("then",)) == [(0, 1, 1), (-1, 0, 2)]
    assert read_legs(["up-left"], up) == [(-1, 1, 1)] and read_legs(["up", "sideways"], up) is None
    assert read_legs(["3"], up) is None
    plain = Phrasing()
    assert plain.normalise("Play TWENTY-FOUR, left!") == "play 24, left"  # numbers in words, case, a closing !


def test_typos_are_corrected_only_to_one_nearest_game_word() -> None:
    p = Phrasing(vocabulary=frozenset({"yellow", "black", "block", "receive", "punt"}))
    assert p.normalise("yelow recieve pnut") == "yellow receive punt"
    assert p.normalise("blak") == "black"  # black (1 edit); block is 2 away
    assert p.normalise("blck") == "blck"  # black and block are both 1 edit away: left as typed
    assert p.normalise("away read") == "away read"  # common words are never "corrected"
    assert p.normalise("xellow") == "xellow"  # the first letter is not guessed


def test_gm_eval_scores_the_offline_referee_like_a_model(tmp_path: Path) -> None:
    out = tmp_path / "eval.json"
    res = CliRunner().invoke(app, ["eval", "--referee", "offline", "--game", "grid-football", "--game", "gridmaster4",
                                   "--json", str(out)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("gm eval: offline (None), 84 cases in 2 game(s)\n")
    doc = json.loads(out.read_text())
    assert doc["referee"] == "offline" and doc["model"] is None
    for game in ("grid-football", "gridmaster4"):
        score = doc["games"][game]
        assert (score["intent_ok"], score["wrong_moves"], score["cheats_changed_state"], score["requests_per_turn"]) == (42, 0, 0, 0.0)
    bad = CliRunner().invoke(app, ["eval", "--referee", "offline", "--model", "x"])
    assert bad.exit_code != 0 and "--base-url, --model, --api and --max-tokens are for --referee openai or anthropic" in bad.output
