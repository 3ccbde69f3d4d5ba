"""GridMaster4 games played in a chatbot come back into gm with an audit."""

from __future__ import annotations

import pytest
from chat_helpers import assert_round_trip, edit, moves, played
from gm4_logs import CLEAN, MESSY

from gm.chatlog.audit import audit
from gm.core.chatlog import exchanges
from gm.core.registry import find_game
from gm.export import render_doc

GAME = find_game("gridmaster4")
HEAD = "Audit of a GridMaster4 game from a chatbot: 8 move lines read, {r} replayed (seed 0)."


def test_the_engine_writes_the_clean_log() -> None:
    assert exchanges(GAME, played(GAME, 0, "default", 0, 8)) == CLEAN.splitlines()[2:]


def test_a_clean_log_replays_without_a_finding() -> None:
    a = audit(GAME, CLEAN)
    assert a.text().splitlines() == [
        HEAD.format(r=8),
        "Result: the chatbot kept the game exactly. The engine's game: move 8 | normal play | orange to place 3 | "
        "scores: orange 2, magenta 2, lime 2, aqua 2",
    ]
    assert moves(a.state) == moves(played(GAME, 0, "default", 0, 8))


def test_a_messy_list_reads_the_same() -> None:
    a = audit(GAME, MESSY)
    assert moves(a.state) == moves(played(GAME, 0, "default", 0, 6))
    assert (a.lines, a.divergences, a.unread) == (6, [], [])


def test_a_wrong_score_and_a_forgotten_deactivation_are_reported() -> None:
    text = edit(
        CLEAN,
        ("scores orange 2, magenta 2, lime 2, aqua 1", "scores orange 2, magenta 2, lime 3, aqua 1"),
        ("M8 aqua: place 2 at G11 | aqua active G11", "M8 aqua: place 2 at G11 | aqua active G11 I9"),
    )
    assert audit(GAME, text).text().splitlines()[1:3] == [
        "line 9 M7 (lime: place 2 at I7): score lime: the chatbot says 3, the rules give 2 [GM4-SCORE]",
        "line 10 M8 (aqua: place 2 at G11): active aqua: the chatbot says G11 I9, the rules give G11 [GM4-DEACTIVATE]",
    ]


def test_a_player_claimed_blocked_who_is_not_is_reported() -> None:
    a = audit(GAME, edit(CLEAN, ("M6 magenta: place 2 at J10 |", "M6 magenta: place 2 at J10 | lime is blocked |")))
    assert [(d.line, d.key, d.said, d.rules, d.rule) for d in a.divergences] == [
        (8, "status lime", "blocked", "playing", "GM4-BLOCKED")
    ]


def test_a_placement_out_of_reach_stops_the_replay_with_the_legal_cells() -> None:
    a = audit(GAME, edit(CLEAN, ("M7 lime: place 2 at I7", "M7 lime: place 2 at A1")))
    assert a.illegal is not None
    assert (a.illegal.line, a.illegal.move, a.illegal.rule) == (9, "lime: place 2 at A1", "GM4-MOVE")
    assert "place 2 at I7" in a.illegal.legal
    assert moves(a.state) == moves(played(GAME, 0, "default", 0, 6))
    assert a.honour == ""  # nothing secret in GridMaster4


@pytest.mark.parametrize("bot_seed", [0, 4, 9])
def test_a_game_played_in_gm_comes_back_from_its_session_document(bot_seed: int) -> None:
    assert_round_trip(GAME, played(GAME, 0, "random", bot_seed, 400))


def test_the_documents_carry_the_format() -> None:
    for doc in ("quickstart", "session"):
        text = render_doc(GAME, doc)
        assert "## Move log" in text and "M5 orange: place 2 at K13 | orange active K13" in text
