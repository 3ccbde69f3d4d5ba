"""One test suite, every session store: files, memory, SQLite and a real PostgreSQL.

What the :class:`gm.session.store.SessionStore` protocol promises is checked the same way on each:
headers and records read back exactly, optimistic appends refuse a stale position and write nothing,
one ``writing()`` holds a call's records and transcript lines together, a cached session catches up
with what another copy stored, concurrent writers never fork a session, and deletes are complete.
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from gm.core.errors import StateError
from gm.session import KeyRing, Session, SessionConflict, SessionNotFound, SessionStore
from gm.session.records import Chain
from gm.session.store import Position, SessionExists

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from session_helpers import human_to_act, legal_call, play_randomly

HEADER = {"format": "gm-session", "version": 2, "id": "s-1", "game": "grid-football", "players": {"home": "human", "away": "bot:default"}, "created": "2026-11-23T00:00:00+00:00"}


def test_header_and_records_read_back_exactly(store: SessionStore) -> None:
    assert store.create("s-1", HEADER) == Position(0, store.read("s-1").position.offset)
    recs = [{"n": 1, "seat": "home", "action": "call_play 1 red", "mac": "ab"}, {"n": 2, "seat": "away", "public": "locked", "sealed": "x" * 1400, "mac": "cd"}]
    pos = store.append("s-1", store.read("s-1").position, recs)
    assert pos.count == 2
    got = store.read("s-1")
    assert got.header == HEADER and got.records == recs and got.position == pos and not got.torn
    assert store.ids() == ["s-1"]
    info = store.info("s-1")
    assert (info.id, info.game, info.players, info.moves) == ("s-1", "grid-football", HEADER["players"], 2)
    assert store.where("s-1", 0) != store.where("s-1", 2)


def test_create_twice_and_missing_sessions(store: SessionStore) -> None:
    store.create("s-1", HEADER)
    with pytest.raises(SessionExists):
        store.create("s-1", HEADER)
    for op in (lambda: store.read("nope"), lambda: store.info("nope"), lambda: store.delete("nope")):
        with pytest.raises(SessionNotFound):
            op()
    with pytest.raises(SessionNotFound):
        with store.writing("nope"):
            pass
    with pytest.raises(StateError, match="letters, digits"):
        store.read("../etc/passwd")


def test_a_stale_append_is_refused_and_writes_nothing(store: SessionStore) -> None:
    start = store.create("s-1", HEADER)
    store.append("s-1", start, [{"n": 1, "x": 1}])
    with pytest.raises(SessionConflict):
        store.append("s-1", start, [{"n": 1, "x": 2}])
    assert store.read("s-1").records == [{"n": 1, "x": 1}]


def test_writing_holds_records_and_transcript_together(store: SessionStore) -> None:
    start = store.create("s-1", HEADER)
    assert store.transcript_read("s-1") == []
    with store.writing("s-1") as w:
        assert not w.stale(start)
        pos = w.append(start, [{"n": 1, "a": 1}])
        w.transcript(['{"type":"tool_call"}'], '{"type":"header"}')
        pos = w.append(pos, [{"n": 2, "a": 2}])
        w.transcript(['{"type":"tool_result"}'], '{"type":"header"}')
    store.transcript_append("s-1", ['{"type":"narration"}'], '{"type":"header"}')
    assert store.transcript_read("s-1") == ['{"type":"header"}', '{"type":"tool_call"}', '{"type":"tool_result"}', '{"type":"narration"}']
    assert [r["n"] for r in store.read("s-1").records] == [1, 2]
    with store.writing("s-1") as w:
        assert w.stale(start) and not w.stale(pos)


def test_delete_removes_session_and_transcript(store: SessionStore) -> None:
    store.create("s-1", HEADER)
    store.create("s-2", HEADER)
    store.transcript_append("s-1", ["{}"], "{}")
    store.delete("s-1")
    assert store.ids() == ["s-2"]
    assert store.transcript_read("s-1") == []
    with pytest.raises(SessionNotFound):
        store.read("s-1")


def test_sessions_play_and_reopen_the_same(store: SessionStore) -> None:
    s = Session.create("grid-football", seed=5, players={"home": "human", "away": "bot"}, store=store)
    calls = play_randomly(s, random.Random(5), max_calls=12)
    again = Session.open(s.id, store=store)
    assert again.state.log == s.state.log and again.view("home") == s.view("home")
    lines = store.transcript_read(s.id)
    assert lines[0].startswith("{") and sum('"type":"tool_call"' in x for x in lines) == calls > 0


def test_a_cached_copy_catches_up_with_another_copy(store: SessionStore) -> None:
    """Two copies of one session (two server processes): each move through either lands once, in order."""
    a = Session.create("gridmaster4", seed=2, players={"orange": "human", "magenta": "human", "lime": "bot", "aqua": "bot"}, store=store)
    b = Session.open(a.id, store=store)
    rng = random.Random(2)
    last, made = a, 0
    for i in range(16):
        s = (a, b)[i % 2]
        assert s.call("get_status", {}, None)["ok"]  # any call first catches up with the other copy's moves
        seats = human_to_act(s) if not s.state.is_terminal else []
        if not seats:
            break
        name, args = legal_call(s, seats[0], rng)
        stale = len(s.state.log)
        result = s.call(name, args, seats[0])
        assert result["ok"], result
        assert len(s.state.log) > stale
        last, made = s, i + 1
    final = Session.open(a.id, store=store)
    assert final.state.log == last.state.log
    tools = [line for line in store.transcript_read(a.id) if '"type":"tool_call"' in line]
    calls = 2 * made + (made < 16)
    assert made > 4 and len(tools) == calls and len({line.split('"id":"')[1].split('"')[0] for line in tools}) == calls  # ids never repeat


def test_concurrent_writers_never_fork_a_session(store: SessionStore) -> None:
    s = Session.create("grid-football", seed=9, players={"home": "human", "away": "human"}, store=store)
    copies = [Session.open(s.id, store=store) for _ in range(4)]
    errors: list[str] = []

    def play(copy: Session, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(6):
            seats = human_to_act(copy)
            if not seats:
                return
            seat = rng.choice(seats)
            try:
                name, args = legal_call(copy, seat, rng)
            except IndexError:
                continue
            r = copy.call(name, args, seat)
            if not r["ok"] and r["error"]["rule"] not in ("CORE-SESSION",) and "not your turn" not in r["error"]["reason"].lower():
                errors.append(str(r["error"]))

    threads = [threading.Thread(target=play, args=(c, k)) for k, c in enumerate(copies)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stored = store.read(s.id)
    assert [r["n"] for r in stored.records] == list(range(1, len(stored.records) + 1))
    Session.open(s.id, store=store)  # the chain verifies end to end


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_write_is_all_or_nothing(
    kind: str, tmp_path: Path, keys: KeyRing, request: pytest.FixtureRequest, store_factory: Callable[..., SessionStore]
) -> None:
    store = store_factory(kind, tmp_path, keys, request.getfixturevalue("pg_cluster") if kind == "postgresql" else None)
    start = store.create("s-1", HEADER)
    with pytest.raises(RuntimeError), store.writing("s-1") as w:
        w.append(start, [{"n": 1}])
        w.transcript(["{}"], "{}")
        raise RuntimeError("the process dies mid-call")
    assert store.read("s-1").records == [] and store.transcript_read("s-1") == []
    store.close()  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_refuses_a_server_with_another_key(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    from gm.session.sql import PostgresStore, SqliteStore

    first, other = KeyRing.generate(), KeyRing.generate()
    if kind == "sqlite":
        SqliteStore(tmp_path / "k.sqlite", first).close()
        with pytest.raises(StateError, match=f"sealed with gm key '{first.id}'.*{other.id}"):
            SqliteStore(tmp_path / "k.sqlite", other)
    else:
        dsn = request.getfixturevalue("pg_dsn")
        PostgresStore(dsn, first).close()
        with pytest.raises(StateError, match=f"sealed with gm key '{first.id}'.*{other.id}"):
            PostgresStore(dsn, other)


def test_records_are_chained_in_every_store(store: SessionStore, keys: KeyRing) -> None:
    """An edited record read back from any store fails to verify (the store keeps, never interprets)."""
    chain = Chain(keys, "s-1")
    store.create("s-1", chain.header(HEADER))
    store.append("s-1", Position(0, store.read("s-1").position.offset), [chain.record(1, {"seat": "home", "action": "kick"})])
    got = store.read("s-1")
    check = Chain(keys, "s-1")
    check.verify_header(got.header, "header")
    check.verify(1, got.records[0], "record 1")
    got.records[0]["action"] = "punt"
    check = Chain(keys, "s-1")
    check.verify_header(got.header, "header")
    with pytest.raises(StateError, match="was changed"):
        check.verify(1, got.records[0], "record 1")


def test_a_seat_token_is_looked_up_with_its_game_ended_or_not(store: SessionStore) -> None:
    """The access book kept with each store (the database's own tables, else memory) answers what a
    call of ``gm serve`` asks - which seat of which game, and whether that game was ended - in one
    lookup, and only for a seat grant still good."""
    from gm.server.access import JOIN, SEAT, access_for, digest

    book = access_for(store)
    book.grant(digest("seat-a"), SEAT, "s-1", "home")
    book.grant(digest("seat-b"), SEAT, "s-2", "away")
    book.grant(digest("join-c"), JOIN, "s-1", "away", sealed="x")
    assert book.seat_grant(digest("seat-a")) == ("s-1", "home", None)
    assert book.seat_grant(digest("join-c")) is None  # a join code is no seat token
    assert book.seat_grant(digest("nobody")) is None
    assert book.end("s-1", "abandoned") and not book.end("s-1", "again")
    assert book.seat_grant(digest("seat-a")) == ("s-1", "home", "abandoned")
    assert book.seat_grant(digest("seat-b")) == ("s-2", "away", None)
    assert book.seat_grant(digest("join-c")) is None


def test_a_join_code_makes_its_seat_token_once_and_voids_any_earlier_one(store: SessionStore) -> None:
    """Joining (one step in every access book): the code is used up, any live token the seat had
    (a game made by an older gm gave its creator every seat's token) is void, and the seat is granted
    to the joiner's new token; rotating voids the old token and grants the new one."""
    from gm.server.access import JOIN, SEAT, access_for, digest

    book = access_for(store)
    book.grant(digest("home"), SEAT, "s-1", "home")
    book.grant(digest("creator-copy"), SEAT, "s-1", "away")  # an older gm's create handed this out
    book.grant(digest("join-c"), JOIN, "s-1", "away", sealed="x")
    assert book.invited("s-1") == ["away"]
    assert book.invitation(digest("join-c")) == ("s-1", "away") and book.invitation(digest("join-c")) == ("s-1", "away")  # looking uses nothing
    assert book.join(digest("join-c"), digest("joiner")) == ("s-1", "away")
    assert book.join(digest("join-c"), digest("again")) is None and book.invitation(digest("join-c")) is None
    assert book.seat_grant(digest("joiner")) == ("s-1", "away", None)
    assert book.seat_grant(digest("creator-copy")) is None and book.seat_grant(digest("again")) is None
    assert book.seat_grant(digest("home")) == ("s-1", "home", None) and book.invited("s-1") == []
    assert book.rotate(digest("joiner"), digest("joiner-2")) == ("s-1", "away")
    assert book.seat_grant(digest("joiner")) is None and book.seat_grant(digest("joiner-2")) == ("s-1", "away", None)
    assert book.rotate(digest("joiner"), digest("joiner-3")) is None  # a void token rotates nothing
    assert book.rotate(digest("join-c"), digest("joiner-4")) is None  # nor does a join code
    assert book.seat_grant(digest("joiner-3")) is None and book.seat_grant(digest("joiner-4")) is None


def test_a_game_lock_is_one_per_game_and_forgotten_when_no_one_holds_it() -> None:
    """The hub's and the SQLite store's per-game locks (:class:`gm.session.store.GameLocks`)."""
    import gc
    import threading
    import weakref

    from gm.session.store import GameLocks

    locks = GameLocks(threading.RLock)
    one = locks("g1")
    assert locks("g1") is one and locks("g2") is not one
    with one, locks("g1"):  # re-entrant: the hub takes a game's lock again inside it
        pass
    gone = weakref.ref(one)
    del one
    gc.collect()
    assert gone() is None  # the table keeps no game's lock alive
    assert isinstance(locks("g1"), type(threading.RLock()))
