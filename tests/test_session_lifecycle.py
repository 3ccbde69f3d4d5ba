"""The session's lifecycle collaborator (:mod:`gm.session.lifecycle`): how a session is created,
restored from a game brought back, read back from its store, and reloaded.

The header holds a practice game's seeds in the clear and a hidden game's only as a commitment and a
sealed part; a session read back is the game it was; a header that does not hold together, a move that
does not replay and a store cut back under a running copy are refused with one clear error.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from gm.core.errors import GameError, StateError
from gm.core.tools import call_for_action
from gm.session import FileStore, MemoryStore, Session, SessionStore, TamperError, lifecycle
from gm.session.records import Chain
from gm.session.store import SessionExists


def _play(s: Session, moves: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        seat = s.state.to_act()[0]
        assert s.call(*call_for_action(s.tools, s.state.legal_actions(seat).sample(rng)), seat)["ok"]


def _snapshot(s: Session) -> str:
    return json.dumps(s.state.to_json(), sort_keys=True)


def test_a_practice_header_holds_the_seeds_and_a_hidden_one_only_their_commitment(tmp_path: Path) -> None:
    practice = Session.create("grid-football", seed=4, bot_seed=8, nonce_seed=9, players={}, persist=False, record=False)
    h = lifecycle.header(practice)
    assert (h["seed"], h["bot_seed"], h["nonce_seed"], h["practice"]) == (4, 8, 9, True) and "sealed" not in h
    assert h["game"] == "grid-football" and h["players"] == {"home": "human", "away": "human"} and len(h["rules_hash"]) == 64
    hidden = Session.create("grid-football", players={}, home=tmp_path, record=False)  # (a memory store seals nothing)
    h = lifecycle.header(hidden)
    assert h["practice"] is False and h["seed_commitment"] == hidden.secret.commitment and h["sealed"]
    assert not {"seed", "bot_seed", "nonce_seed"} & set(h) and str(hidden.secret.seed) not in json.dumps(h)
    stored = hidden.store.read(hidden.id).header
    assert {k: stored[k] for k in h if k != "sealed"} == {k: v for k, v in h.items() if k != "sealed"}  # (sealed afresh each time)
    assert stored["sealed"] and str(hidden.secret.seed) not in json.dumps(stored)


@pytest.mark.parametrize("seed", [4, None])
def test_a_session_read_back_is_the_game_it_was(tmp_path: Path, seed: int | None) -> None:
    s = Session.create("grid-football", seed=seed, players={"away": "bot:random"}, home=tmp_path, record=False)
    _play(s, 6)
    again = lifecycle.open_session(Session, s.id, home=tmp_path, store=None, record=False, anchor=True)
    assert type(again) is Session and _snapshot(again) == _snapshot(s)
    assert again.secret == s.secret and again.players == s.players and again.ledger.count == s.ledger.count
    assert again.opening_events == lifecycle.opening(again) and again.recorder is None


def test_create_refuses_a_taken_id_and_a_bad_seed() -> None:
    store = MemoryStore()
    Session.create("brawl", seed=1, players={}, store=store, id="mine", record=False)
    with pytest.raises(SessionExists):
        Session.create("brawl", seed=1, players={}, store=store, id="mine", record=False)
    for bad in (True, -1, 2**63, "7"):
        with pytest.raises(GameError, match=f"the seed is a whole number from 0 to {lifecycle.SEED_MAX}"):
            lifecycle.check_seed(bad)
    assert lifecycle.check_seed(lifecycle.SEED_MAX) == lifecycle.SEED_MAX


def test_locate_finds_a_session_by_id_prefix_and_path(tmp_path: Path) -> None:
    s = Session.create("brawl", seed=1, players={}, home=tmp_path, record=False)
    for ref in (s.id, s.id[:-3], s.path, str(s.path)):
        store, sid = lifecycle.locate(ref, tmp_path, None)  # type: ignore[arg-type]
        assert sid == s.id and isinstance(store, FileStore) and store.path(sid) == s.path
    assert lifecycle.session_file(s.id, tmp_path) == s.path == Session.resolve(s.id, tmp_path)
    with pytest.raises(StateError, match="is a directory, not a session file"):
        lifecycle.locate(tmp_path / "sessions", None, None)
    with pytest.raises(StateError, match=re.escape("(a session file is GM_HOME/sessions/ID.jsonl)")):
        lifecycle.locate(tmp_path / "elsewhere.jsonl", None, None)


def _stored_header(s: Session) -> dict[str, object]:
    return dict(s.store.read(s.id).header)


@pytest.mark.parametrize(
    ("edit", "error", "message"),
    [
        ({"rules_hash": "0" * 64}, TamperError, "the ruleset does not match its hash"),
        ({"players": {"home": "human"}}, StateError, "players do not match the seats of brawl"),
        ({"players": {"home": "human", "away": "bot:nobody"}}, StateError, "bad session header: "),
        ({"game": "tiddlywinks"}, StateError, "bad session header: "),
        ({"seed": "many"}, StateError, "bad session header (ValueError"),
    ],
)
def test_a_header_that_does_not_hold_together_is_refused(edit: dict[str, object], error: type[Exception], message: str) -> None:
    s = Session.create("brawl", seed=1, players={}, persist=False, record=False)
    h = _stored_header(s) | edit
    with pytest.raises(error) as caught:
        lifecycle.from_header(Session, s.store, s.id, h, Chain(s.ledger.chain.keys, s.id, plain=True))
    assert isinstance(caught.value, GameError) and caught.value.reason.startswith(f"session {s.id}: {message}")


def test_restore_replays_a_game_brought_back_and_refuses_a_move_that_does_not_replay() -> None:
    played = Session.create("gridmaster4", seed=2, players={}, persist=False, record=False)
    _play(played, 8)
    moves = [(m.seat, str(m.action)) for m in played.state.log]
    store: SessionStore = MemoryStore()
    back = Session.restore(played.game, rules=played.state.rules, players=played.players, secret=played.secret, moves=moves, store=store)
    assert _snapshot(back) == _snapshot(played) and back.ledger.stored_count() == len(moves)
    bad = [*moves[:2], (moves[2][0], "fly to the moon")]
    with pytest.raises(StateError) as caught:
        Session.restore(played.game, rules=played.state.rules, players=played.players, secret=played.secret, moves=bad, store=store,
                        id="broken")
    assert caught.value.reason.startswith(f"move 3 ({moves[2][0]}: fly to the moon) does not replay: ")
    assert caught.value.rule == "CORE-TOKEN" and "broken" not in store.ids()  # nothing half-made is left


def test_reload_takes_what_another_copy_stored_and_refuses_a_store_cut_back() -> None:
    store = MemoryStore()
    s = Session.create("quarterback", seed=3, players={}, store=store, record=False)
    other = Session.open(s.id, store=store, record=False)
    _play(other, 5)
    lifecycle.reload(s)
    assert _snapshot(s) == _snapshot(other) and s.ledger.count == other.ledger.count == 5
    store.delete(s.id)
    Session.create("quarterback", seed=3, players={}, store=store, id=s.id, record=False)  # put back with no moves
    with pytest.raises(TamperError, match=f"session {s.id}: memory now holds 0 records, and this process has seen 5"):
        lifecycle.reload(s)
    assert s.ledger.count == 5


def test_replaying_a_retract_record_takes_the_pick_back() -> None:
    s = Session.create("brawl", seed=7, players={}, persist=False, record=False)
    first = s.state.to_act()[0]
    _play(s, 1)
    before = _snapshot(s)
    lifecycle.replay_record(s, {"retract": first}, "record 2")
    assert s.state.log == [] and before != _snapshot(s)
    with pytest.raises(StateError, match=f"cannot take back {first}'s move"):
        lifecycle.replay_record(s, {"retract": first}, "record 3")
