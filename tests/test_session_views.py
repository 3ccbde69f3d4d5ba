"""The session's view collaborator (:mod:`gm.session.views`): the log and the seed as a seat may read them.

Checked against a secret book filled by hand, so each rule of reading shows by itself: another seat's
locked pick reads ``locked`` (its own mover reads it), a voided pick ``voided`` for good, and a hidden
seed only its commitment until the game is over.
"""

from __future__ import annotations

import random
from typing import Any

from gm.core.registry import find_game
from gm.core.state import GameState
from gm.session import SeedSecret, Session
from gm.session.commit import SecretBook
from gm.session.views import log_as_seen, public_move, seed_info


def _brawl_round() -> tuple[GameState[Any], SecretBook]:
    game = find_game("brawl")
    state = game.new_state(game.load_rules(None), 7)
    book = SecretBook()
    acting = state.to_act()
    seat = acting[0]
    action = state.legal_actions(seat).sample(random.Random(1))
    state.apply(seat, action)
    book.note(seat, 0, str(action), acting, set(), False)
    return state, book


def test_a_locked_pick_reads_locked_to_everyone_but_its_mover() -> None:
    state, book = _brawl_round()
    mover, text = state.log[0].seat, str(state.log[0].action)
    other = "away" if mover == "home" else "home"
    assert log_as_seen(state, book, mover) == [[mover, text]]
    assert log_as_seen(state, book, other) == [[mover, "locked"]]
    assert log_as_seen(state, book, None) == [[mover, "locked"]]
    assert public_move(state, book, 0) == "locked"


def test_the_seed_shows_as_the_game_allows() -> None:
    practice = SeedSecret.draw(5)
    assert seed_info(practice, False) == {"practice": True, "commitment": None, "seed": 5}
    hidden = SeedSecret.draw(None)
    assert seed_info(hidden, False) == {"practice": False, "commitment": hidden.commitment, "seed": None}
    over = seed_info(hidden, True)
    assert over["seed"] == hidden.seed and over["commitment"] == hidden.commitment and over == {
        "practice": False, "commitment": hidden.commitment, **hidden.reveal()
    }


def test_the_session_reads_through_the_views() -> None:
    s = Session.create("brawl", seed=7, players={"away": "bot"}, persist=False)
    assert s.log("home") == log_as_seen(s.state, s.book, "home")
    assert s.seed_info() == seed_info(s.secret, s.state.is_terminal)
    assert [s.public_move(i) for i in range(len(s.state.log))] == [m[1] for m in log_as_seen(s.state, s.book, None)]
