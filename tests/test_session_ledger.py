"""The session's storage collaborator (:class:`gm.session.ledger.Ledger`) and reloading into it.

A ledger seals a record's secret part, chains and appends it; a refused append leaves the chain and
the position as they were, so the next append chains on; a session that reloads (another copy moved)
takes the game from the store and keeps what only its front end set.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from gm.session import FileStore, KeyRing, MemoryStore, Session, SessionConflict
from gm.session.ledger import Ledger
from gm.session.records import Chain

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session_helpers import human_to_act, legal_call

HEADER = {"format": "gm-session", "version": 2, "id": "s-1", "game": "grid-football", "players": {"home": "human", "away": "human"}}


def _ledger(store: FileStore, keys: KeyRing) -> Ledger:
    chain = Chain(keys, "s-1")
    return Ledger(store, "s-1", chain)


def test_append_seals_the_inner_part_and_chains(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    keys = KeyRing.generate()
    store.keys = keys
    chain = Chain(keys, "s-1")
    led = Ledger(store, "s-1", chain)
    led.position = store.create("s-1", chain.header(HEADER), chain.anchor(0))
    led.append([{"seat": "home", "action": "go"}, {"seat": "away", "public": "locked", "sealed": None, "_inner": {"action": "8", "nonce": None}}])
    assert led.count == 2 and led.stored_count() == 2
    stored = store.read("s-1").records
    assert stored[0]["action"] == "go" and "_inner" not in stored[1] and stored[1]["public"] == "locked"
    reader = Chain(keys, "s-1")
    reader.verify_header(store.read("s-1").header, "header")
    reader.verify(1, stored[0], "record 1")
    reader.verify(2, stored[1], "record 2")
    assert reader.open(stored[1]["sealed"], "record 2", "record 2") == {"action": "8", "nonce": None}


def test_a_refused_append_leaves_chain_and_position(tmp_path: Path) -> None:
    store = FileStore(tmp_path)
    keys = KeyRing.generate()
    store.keys = keys
    first = _ledger(store, keys)
    first.position = store.create("s-1", first.chain.header(HEADER), first.chain.anchor(0))
    second = _ledger(store, keys)
    second.chain.header(HEADER)
    second.position = first.position
    first.append([{"seat": "home", "action": "a"}])
    mac, at = second.chain.last, second.position
    with pytest.raises(SessionConflict):
        second.append([{"seat": "away", "action": "b"}])
    assert second.chain.last == mac and second.position == at
    second.follow(first)  # (what a reload does) then it chains on after the other copy's record
    second.append([{"seat": "away", "action": "b"}])
    assert [r.get("action") for r in store.read("s-1").records] == ["a", "b"]


def test_a_memory_ledger_writes_transcript_lines_outside_a_call() -> None:
    s = Session.create("grid-football", seed=3, persist=False, record=False)
    assert s.ledger.in_memory and s.ledger.writer is None
    s.ledger.write_transcript(['{"type":"a"}'], '{"type":"header"}')
    s.ledger.write_transcript(['{"type":"b"}'], '{"type":"header"}')  # (the header goes first only once)
    assert s.store.transcript_read(s.id) == ['{"type":"header"}', '{"type":"a"}', '{"type":"b"}']


def test_a_reload_takes_the_game_and_keeps_the_front_ends_settings(tmp_path: Path) -> None:
    """Two copies of a served game: the one that reloads sees the other's move and keeps its own
    settings (a served game commits human picks; a terminal pauses when humans are out)."""
    players = {"orange": "human", "magenta": "human", "lime": "bot", "aqua": "bot"}
    a = Session.create("gridmaster4", seed=2, players=players, home=tmp_path)
    b = Session.open(a.id, home=tmp_path)
    moved: list[str] = []
    a.commit_human_picks = True
    a.pause_when_out = True
    a.on_bot_move = moved.append
    recorder, driver = a.recorder, a.driver
    rng = random.Random(2)
    seat = human_to_act(b)[0]
    name, args = legal_call(b, seat, rng)
    assert b.call(name, args, seat)["ok"]
    assert a.refresh() is True
    assert a.state.log == b.state.log and a.stored_count == b.stored_count
    assert a.log(None) == b.log(None) and a.commitments() == b.commitments()
    assert a.commit_human_picks and a.pause_when_out and a.on_bot_move == moved.append
    assert a.driver is driver and a.recorder is not recorder  # (the recorder restarts on the stored transcript)
    assert a.refresh() is False
    seat = human_to_act(a)[0]
    name, args = legal_call(a, seat, rng)
    assert a.call(name, args, seat)["ok"]
    assert Session.open(a.id, home=tmp_path).state.log == a.state.log


def test_memory_sessions_have_plain_ledgers() -> None:
    s = Session.create("grid-football", seed=1, persist=False)
    assert isinstance(s.store, MemoryStore) and s.ledger.chain.plain and s.ledger.id == s.id
