"""brawl games played in a chatbot come back into gm with an audit."""

from __future__ import annotations

from functools import partial

import pytest
from br_logs import CLEAN, MESSY
from chat_helpers import assert_round_trip, edit, moves, played

from gm.chatlog.audit import audit
from gm.core.chance import MT19937
from gm.core.chatlog import exchanges
from gm.core.registry import find_game
from gm.export import render_doc

#: the logs here are of games gm played under the mt19937 generator (a seed and its generator name a game)
audit = partial(audit, chance=MT19937)
GAME = find_game("brawl")
QB = "QB:A2-4@SR"


def test_the_engine_writes_the_clean_log() -> None:
    assert exchanges(GAME, played(GAME, 0, "default", 0, 7)) == CLEAN.splitlines()[2:]


def test_a_clean_log_replays_without_a_finding_and_one_honour_note() -> None:
    a = audit(GAME, CLEAN)
    assert moves(a.state) == moves(played(GAME, 0, "default", 0, 7))
    assert a.text().splitlines()[1:] == [
        "Honour system: both sides' placements are secret and simultaneous and the hands are secret; in a chatbot they "
        "are on the honour system (the chatbot sees both hands). `gm play` fixes that: a bot's pick is locked first (you "
        "see its SHA-256 commitment before you choose, the reveal after) and a second player at the keyboard types "
        "hidden; `gm serve` lets two people on two computers pick in secret, each from their own link, and `gm mcp` keeps every pick inside the engine, out of the chat.",
        "Result: the chatbot kept the game exactly. The engine's game: Round 2/20 | home 0 - 0 away | away ball, 1st & 10 "
        "at own 35 - play 1 of 3 | to act: away, home",
    ]


def test_a_messy_list_in_lower_case_reads_the_same() -> None:
    a = audit(GAME, MESSY)
    assert moves(a.state) == moves(played(GAME, 0, "default", 0, 4))
    assert (a.lines, a.divergences, a.unread) == (2, [], [])


def test_a_wrong_down_a_drifting_spot_and_a_score_never_earned_are_reported() -> None:
    text = edit(
        CLEAN,
        ("home ball, 2nd & 10 at own 25", "home ball, 1st & 10 at own 31"),
        ("home ball, 3rd & 10 at own 25 | round 1, score home 0-0 away", "touchdown home | round 1, score home 7-0 away"),
    )
    found = [(d.line, d.key, d.said, d.rules, d.rule) for d in audit(GAME, text).divergences]
    assert found == [
        (3, "down", "1st & 10", "2nd & 10", "BR-REVEAL"),
        (3, "spot", "own 31", "own 25", "BR-REVEAL"),
        (4, "touchdown", "home", "none", "BR-TD"),
        (4, "score", "home 7-0 away", "home 0-0 away", "BR-R-SCORE"),
    ]


def test_a_card_the_player_does_not_hold_stops_the_replay_on_gms_own_deal() -> None:
    a = audit(GAME, edit(CLEAN, (QB, "QB:F3@SR")), outcomes="seed")
    assert a.illegal is not None and (a.illegal.line, a.illegal.rule) == (3, "BR-HAND")
    assert a.replayed == 0 and moves(a.state) == []  # the whole first play is dropped: the away side picks again


def test_the_chats_own_deal_is_used_when_its_deck_holds_the_card() -> None:
    """QB's deck holds F3, gm's seed dealt it A2-4: the chat's deal is used (the log states QB@SR's roll of the
    A2-4 it no longer plays: that claim is now wrong)."""
    assert audit(GAME, edit(CLEAN, (QB, "QB:F3@SR"))).illegal is None  # whatever seed the search settles on
    a = audit(GAME, edit(CLEAN, (QB, "QB:F3@SR")), seed=0)  # the seed that dealt every other card of the log
    assert (a.illegal, a.chance, a.replayed) == (None, "from-log", 4)
    assert [(s.line, s.draw, s.said, s.drawn) for s in a.supplied] == [
        (3, "deal (3 of 8, home QB)", "F3 A1-3 F2", "A1-3 A2-4 F2"),
        # QB's A2-4 is rolled no more: gm's next dice fall elsewhere; the log's stated rolls stand
        (5, "agility roll (0-2, OT3 A0-2@BL)", "1", "0"),
        (5, "agility roll (1-4, DE1 A1-4@BL)", "2", "3"),
    ]
    assert [(d.line, d.key) for d in a.divergences] == [(5, "rolls")] and "QB@SR 2" in a.divergences[0].said


def test_a_card_the_deck_does_not_hold_is_an_impossible_deal() -> None:
    lines = audit(GAME, edit(CLEAN, (QB, "QB:S9@SR"))).text().splitlines()
    assert lines[2] == (
        "line 3 P1: impossible deal: deal (3 of 8, home QB) cannot come out S9 A1-3 F2: S9 is not there to draw; possible: "
        "3 of A1-3 A2-4 F2 F2 F3 F3 F4 S1; gm's seed drew it instead [CORE-CHANCE]"
    )
    assert lines[3].endswith("QB does not hold S9 (holds A1-3 A2-4 F2) [BR-HAND]")


@pytest.mark.parametrize("bot_seed", [0, 6])
def test_a_game_played_in_gm_comes_back_from_its_session_document(bot_seed: int) -> None:
    assert_round_trip(GAME, played(GAME, 4, "random", bot_seed, 120), seed=4)  # the deal is the game's seed's


def test_the_documents_carry_the_format() -> None:
    for doc in ("quickstart", "session"):
        text = render_doc(GAME, doc)
        assert "## Move log" in text and "LABEL SEAT: PLACEMENT" in text and "P1 away: CB2:S1@DL FS:F2@DM" in text
