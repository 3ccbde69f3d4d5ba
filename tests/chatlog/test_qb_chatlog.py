"""Quarter Back games played in a chatbot come back into gm with an audit."""

from __future__ import annotations

import pytest
from chat_helpers import assert_round_trip, edit, moves, played
from qb_logs import CLEAN, MESSY

from gm.chatlog.audit import audit
from gm.core.chatlog import exchanges
from gm.core.registry import find_game
from gm.export import render_doc

GAME = find_game("quarterback")
TRUE_MOVES = [
    "blue: move QB E-2-F-1-G-1-H-2", "blue: end", "red: move D2 G1-H1-H0", "red: move T2 H4-H1", "blue: move QB H-2-I-1",
    "blue: end", "red: move D2 H0-I-1", "red: move QB E-2-F-1-G-1-H-2", "red: end",
]  # fmt: skip
HEAD = "Audit of a Quarter Back game from a chatbot: 5 move lines read, {r} replayed (seed {s})."


def test_the_engine_writes_the_clean_log() -> None:
    state = played(GAME, 0, "default", 0, 9)
    assert moves(state) == TRUE_MOVES
    assert exchanges(GAME, state) == CLEAN.splitlines()[2:]


def test_a_clean_log_replays_without_a_finding_and_no_honour_note() -> None:
    a = audit(GAME, CLEAN)
    assert moves(a.state) == TRUE_MOVES
    assert a.text().splitlines() == [
        HEAD.format(r=5, s=0),
        "Result: the chatbot kept the game exactly. The engine's game: game 1/2, half 2/2, round 1/15 | red attacks, "
        "blue defends | ball: red Quarterback QB on H-2, worth 8 if tackled there | game 1: red 0 - 9 blue | to act: "
        "blue (2 actions left)",
    ]


def test_a_messy_list_with_fences_bold_minus_signs_and_chatter_reads_the_same() -> None:
    a = audit(GAME, MESSY)
    assert moves(a.state) == TRUE_MOVES[:7]
    assert (a.lines, a.replayed, a.divergences, a.unread) == (4, 4, [], [])


def test_a_wrong_tackle_score_is_reported() -> None:
    a = audit(GAME, edit(CLEAN, ("blue scores 9 | game 1 half 1, score red 0-9", "blue scores 8 | game 1 half 1, score red 0-8")))
    assert a.text().splitlines()[1:3] == [
        "line 6 T4 (red: move D2 H0-I-1): score: the chatbot says red 0-8 blue, the rules give red 0-9 blue [QB-SCORE]",
        "line 6 T4 (red: move D2 H0-I-1): scores: the chatbot says blue 8, the rules give blue 9 [QB-SCORE]",
    ]


def test_pieces_and_ball_that_drift_are_reported() -> None:
    text = edit(CLEAN, ("red D2 H0, red T2 H1", "red D2 H0, red T2 H2"), ("ball I-1 (QB) | blue QB I-1", "ball I0 (QB) | blue QB I0"))
    assert audit(GAME, text).text().splitlines()[1:4] == [
        "line 4 T2 (red: move D2 G1-H1-H0 | red: move T2 H4-H1): piece red T2: the chatbot says H2, the rules give H1 [QB-MOVE-TRIPLE]",
        "line 5 T3 (blue: move QB H-2-I-1 | blue: end): ball: the chatbot says I0, the rules give I-1 [QB-MOVE-QB]",
        "line 5 T3 (blue: move QB H-2-I-1 | blue: end): piece blue QB: the chatbot says I0, the rules give I-1 [QB-MOVE-QB]",
    ]


def test_a_move_too_long_for_the_piece_stops_the_replay() -> None:
    a = audit(GAME, edit(CLEAN, ("T3 blue: move QB H-2-I-1, end", "T3 blue: move S1 D0-D1-D2-D3-D4, end")))
    assert a.text().splitlines()[:2] == [
        HEAD.format(r=2, s=0),
        "line 5 T3: illegal move blue: move S1 D0-D1-D2-D3-D4: S1 may move 1 square now; this path is 4 [QB-MOVE-SINGLE]",
    ]
    assert a.illegal is not None and a.illegal.legal[0] == "move <piece> <squares> - pieces that may move now: QB, S1, S2, S3, D1, D2, T1, T2"
    assert moves(a.state) == TRUE_MOVES[:4]


def test_the_toss_the_chatbot_claims_decides_the_seed() -> None:
    a = audit(GAME, edit(CLEAN, ("blue won the toss", "red won the toss")))
    assert a.seed == 1 and a.state.snapshot()["first_attacker"] == "red"
    assert a.illegal is not None and (a.illegal.line, a.illegal.rule) == (3, "QB-TOSS")


@pytest.mark.parametrize(("seed", "bot_seed"), [(0, 0), (5, 3), (9, 7)])
def test_a_game_played_in_gm_comes_back_from_its_session_document(seed: int, bot_seed: int) -> None:
    state = played(GAME, seed, "random", bot_seed, 150)
    assert_round_trip(GAME, state)


def test_the_documents_carry_the_format() -> None:
    for doc in ("quickstart", "session"):
        text = render_doc(GAME, doc)
        assert "## Move log" in text and "T1 blue: move QB E-2-F-1-G-1-H-2, end | ball H-2 (QB)" in text
