"""The session's undo collaborator (:class:`gm.session.undo.Undo`): only a seat's own locked pick,
the last move made, is taken back; :meth:`~gm.session.undo.Undo.retract` stores the take-back (a
session read back replays it), :meth:`~gm.session.undo.Undo.take_back` only changes the live game;
a result handed out before the take-back still holds what it held at its call."""

from __future__ import annotations

import json
import random

import pytest

from gm.core.errors import StateError
from gm.core.tools import call_for_action
from gm.session import MemoryStore, Session
from gm.session.undo import Undo


def _pick(s: Session, seat: str, seed: int) -> str:
    """A seeded legal pick of ``seat``, made through its tool; the pick's text."""
    action = s.state.legal_actions(seat).sample(random.Random(seed))
    assert s.call(*call_for_action(s.tools, action), seat)["ok"]
    return str(action)


def _locked_brawl_pick(store: MemoryStore | None = None) -> tuple[Session, str, str, str]:
    """A hot-seat Brawl session where the first seat to act has just locked its pick: (session, that
    seat, its pick, the other seat)."""
    s = Session.create("brawl", seed=7, players={}, store=store or MemoryStore(), record=False)
    first, other = s.state.to_act()
    return s, first, _pick(s, first, 1), other


def _snapshot(s: Session) -> str:
    return json.dumps(s.state.to_json(), sort_keys=True)


def test_only_the_own_locked_last_pick_may_be_taken_back() -> None:
    s, first, _, other = _locked_brawl_pick()
    assert isinstance(s.undo, Undo)
    assert s.undo.can_retract(first) is None
    assert s.undo.can_retract(other) == f"{other} has no locked pick to take back"
    bots = Session.create("brawl", seed=7, players={"away": "bot:random"}, persist=False, record=False)
    assert bots.undo.can_retract("away") == "away is not a human seat"


def test_a_pick_that_is_not_the_last_move_stays() -> None:
    s, first, _, other = _locked_brawl_pick()
    _pick(s, other, 2)  # the round is complete: both picks are revealed
    why = s.undo.can_retract(first)
    assert why == f"{first} has no locked pick to take back"
    assert s.undo.retract(first) == f"Cannot undo: {why}."


def test_retract_stores_the_take_back_and_a_reread_session_replays_it() -> None:
    store = MemoryStore()
    s, first, pick, other = _locked_brawl_pick(store)
    stored = s.ledger.stored_count()
    assert s.undo.retract(first) == f"Taken back: {pick}. {first}, choose again."
    assert s.state.log == [] and s.state.to_act() == (first, other)
    assert s.ledger.stored_count() == stored + 1 and store.read(s.id).records[-1]["retract"] == first
    again = Session.open(s.id, store=store, record=False)
    assert _snapshot(again) == _snapshot(s) and again.undo.can_retract(first) == f"{first} has no locked pick to take back"


def test_take_back_changes_the_live_game_only_and_refuses_what_it_may_not() -> None:
    s, first, pick, other = _locked_brawl_pick()
    stored = s.ledger.stored_count()
    with pytest.raises(StateError, match=f"cannot take back {other}'s move: {other} has no locked pick to take back"):
        s.undo.take_back(other)
    assert s.undo.take_back(first) == pick
    assert s.state.log == [] and s.ledger.stored_count() == stored


def test_a_result_read_after_the_take_back_holds_what_it_held_at_its_call() -> None:
    s = Session.create("brawl", seed=7, players={}, persist=False, record=False)
    first = s.state.to_act()[0]
    twin = Session.create("brawl", seed=7, players={}, persist=False, record=False)
    name, args = call_for_action(s.tools, s.state.legal_actions(first).sample(random.Random(1)))
    unread = s.call(name, args, first)
    read = json.dumps(twin.call(name, args, first))
    s.undo.retract(first)
    assert json.dumps(unread) == read  # made from the game as it was at the call, not after the take-back
