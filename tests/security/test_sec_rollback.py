"""Issue #36 item 4: no rollback.

A player who can change where a game is stored, but has not the key, tries to take back moves it has
seen answered: deleting a game's last records from the database (SQLite and a real PostgreSQL) and
lowering its count; putting a game's rows back from an older copy; putting an old session file back
with its old anchor.  Each is refused with one line, and a server that has the game cached does not
go back either.  The way to accept a cut-back game stays explicit: ``gm sessions repair`` / ``gm
admin repair`` say what is lost.  On gm before this work the SQL stores kept no anchor (the cut game
loaded, shorter), and the file store took an old file back with its old anchor."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import SECRET_KEY, Scripted, cli

from gm.core.errors import GameError
from gm.core.tools import call_for_action
from gm.server.pgcluster import PgCluster
from gm.session import KeyRing, SeedSecret, Session
from gm.session.records import Chain
from gm.session.sql import PostgresStore, SqliteStore

KEYS = KeyRing(bytes.fromhex(SECRET_KEY))
SECRET = SeedSecret(seed=0x5151AAAA0001, salt="3c" * 16, bot_seed=11, nonce_seed=None, practice=False)
#: the human's and the bot's choices: the bot's play call is locked (sealed) until the human calls
HUMAN = {"coin_call": "heads", "kick_choice": "receive", "kick_pick": "left yellow", "number_pick": "number 5", "play_call": "play 1 black"}
BOT = {**HUMAN, "kick_choice": "kick", "number_pick": "number 1", "play_call": "play 2 red"}


def _game(store: Any, sid: str = "cut-me") -> Session:
    """A hidden-seed Grid Football game against a scripted bot, up to the human's first play call
    (the bot's is locked)."""
    s = Session.create("grid-football", secret=SECRET, players={"away": "bot:default"}, store=store, id=sid,
                       bots={"away": Scripted(lambda st, seat: BOT[st.decision(seat)])})
    while s.state.decision("home") != "play_call":
        tool, args = call_for_action(s.tools, s.state.parse_action(HUMAN[s.state.decision("home")]))
        assert s.call(tool, args, "home")["ok"]
    return s


def _seen_call(s: Session) -> int:
    """The human calls its play: the bot's locked call is revealed to it.  Returns the record count
    before that call (what a rollback would go back to)."""
    before = s.stored_count
    r = s.call("call_play", {"play": 1, "colour": "black"}, "home")
    assert r["ok"] and r["reveal"]["away"]["choice"] == "play 2 red"
    assert s.stored_count >= before + 2
    return before


def _refused(load: Any, *words: str) -> str:
    with pytest.raises(GameError) as err:
        load()
    msg = err.value.message
    assert err.value.rule == "CORE-SESSION" and "\n" not in msg, msg
    for w in words:
        assert w in msg, msg
    return msg


# ------------------------------------------------------------------- SQL
def _sql_store(kind: str, tmp_path: Path, pg: PgCluster | None) -> SqliteStore | PostgresStore:
    if kind == "sqlite":
        return SqliteStore(tmp_path / "gm.sqlite", KEYS)
    assert pg is not None
    return PostgresStore(pg.new_schema(f"rb_{uuid.uuid4().hex[:10]}"), KEYS, pool_size=4)


def _sql(store: SqliteStore | PostgresStore, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    """What an attacker with the database (and not the key) runs."""
    with store._transaction() as cur:
        cur.execute(store._q(sql), params)
        try:
            return list(cur.fetchall())
        except Exception:
            return []


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_game_cut_back_or_put_back_in_the_database_is_refused(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    store = _sql_store(kind, tmp_path, request.getfixturevalue("pg") if kind == "postgresql" else None)
    try:
        s = _game(store)
        back_to = _seen_call(s)
        full = s.stored_count
        rows_then = _sql(store, "SELECT n, body FROM gm_records WHERE session = ? ORDER BY n", ("cut-me",))
        # 1. the cut: the last records deleted, the count lowered
        _sql(store, "DELETE FROM gm_records WHERE session = ? AND n > ?", ("cut-me", back_to))
        _sql(store, "UPDATE gm_sessions SET records = ? WHERE id = ?", (back_to, "cut-me"))
        _refused(lambda: Session.open("cut-me", store=store), "cut off", f"it had {full} records", f"the store holds {back_to}", "gm admin repair cut-me")
        anchor_then = _sql(store, "SELECT n, last, mac FROM gm_anchors WHERE session = ?", ("cut-me",))[0]
        # 2. the anchor set back too: it no longer verifies (its MAC cannot be made without the key)
        _sql(store, "UPDATE gm_anchors SET n = ? WHERE session = ?", (back_to, "cut-me"))
        _refused(lambda: Session.open("cut-me", store=store), "anchor", "was changed")
        # 3. the anchor taken away: refused as well (the game's sealed header says it has one)
        _sql(store, "DELETE FROM gm_anchors WHERE session = ?", ("cut-me",))
        _refused(lambda: Session.open("cut-me", store=store), "anchor is missing")
        # (all put back as it was: whole again)
        _sql(store, "INSERT INTO gm_anchors (session, n, last, mac) VALUES (?, ?, ?, ?)", ("cut-me", *anchor_then))
        for n, body in rows_then[back_to:]:
            _sql(store, "INSERT INTO gm_records (session, n, body) VALUES (?, ?, ?)", ("cut-me", n, body))
        _sql(store, "UPDATE gm_sessions SET records = ? WHERE id = ?", (full, "cut-me"))
        assert Session.open("cut-me", store=store).state.log == s.state.log
        # 4. the game goes on; then its rows are put back from the older copy (its anchor row is not)
        while s.stored_count == full:
            if s.bots_owe_move():
                s.advance()
            else:
                tool, args = call_for_action(s.tools, s.state.legal_actions("home")[0])
                assert s.call(tool, args, "home")["ok"]
        _sql(store, "DELETE FROM gm_records WHERE session = ? AND n > ?", ("cut-me", full))
        _sql(store, "UPDATE gm_sessions SET records = ? WHERE id = ?", (full, "cut-me"))
        _refused(lambda: Session.open("cut-me", store=store), "cut off")
        # 5. ... and with its anchor row as it was then, too: the anchor says what the rows say. That
        # is a game wholly put back to an older copy of it: the limit of what the database alone can
        # tell (docs/serving.md, "Threat model"); a server that has seen the game longer refuses it
        # (test_a_server_with_the_game_cached_does_not_go_back).
    finally:
        store.close()


def _anchor_row(store: SqliteStore | PostgresStore, sid: str) -> tuple[Any, ...] | None:
    """The game's anchor row (``None`` where the store keeps none: gm before anchors)."""
    try:
        rows = _sql(store, "SELECT n, last, mac FROM gm_anchors WHERE session = ?", (sid,))
    except Exception:
        return None
    return tuple(rows[0]) if rows else None


def test_a_server_with_the_game_cached_does_not_go_back(tmp_path: Path) -> None:
    """gm serve's hub keeps the games it served: a game put back under it to an older copy of itself
    (records, count and anchor: what the database alone cannot tell) is refused, not reloaded."""
    from gm.server.hub import GameHub

    store = SqliteStore(tmp_path / "gm.sqlite", KEYS)
    hub = GameHub(store)
    made = hub.create("grid-football", opponent="bot:random", seed=7)  # (seeded: some hidden seeds end the game within six moves)
    sid = made["session"]
    grant = hub.authorize(made["token"])
    copy: tuple[int, Any] | None = None
    for i in range(6):
        with hub.game(sid, fresh=False) as s:
            tool, args = call_for_action(s.tools, s.state.legal_actions("home")[0])
        assert hub.call(grant, tool, args)["ok"]
        if i == 2:  # an older copy of the game, anchor and all
            copy = (store.records(sid), _anchor_row(store, sid))
    assert copy is not None and store.records(sid) > copy[0]
    moves = len(hub.view(grant)["log"])
    _sql(store, "DELETE FROM gm_records WHERE session = ? AND n > ?", (sid, copy[0]))
    _sql(store, "UPDATE gm_sessions SET records = ? WHERE id = ?", (copy[0], sid))
    if copy[1] is not None:
        _sql(store, "UPDATE gm_anchors SET n = ?, last = ?, mac = ? WHERE session = ?", (*copy[1], sid))
    assert len(Session.open(sid, store=store).state.log) < moves  # (as the database alone has it: consistent, and older)
    with pytest.raises(GameError, match="cut back or put back from an older copy"):
        hub.view(grant)
    r = hub.call(grant, "get_status", {})
    assert not r["ok"] and "cut back" in r["error"]["reason"], r
    with hub.game(sid, fresh=False) as s:
        assert len(s.state.log) == moves  # the cached game never went back
    store.close()


def test_gm_admin_repair_says_what_is_lost_and_accepts_the_game(tmp_path: Path) -> None:
    db = tmp_path / "gm.sqlite"
    store = SqliteStore(db, KEYS)
    s = _game(store)
    back_to = _seen_call(s)
    full = s.stored_count
    _sql(store, "DELETE FROM gm_records WHERE session = ? AND n > ?", ("cut-me", back_to))
    _sql(store, "UPDATE gm_sessions SET records = ? WHERE id = ?", (back_to, "cut-me"))
    store.close()
    code, out = cli(tmp_path, "admin", "repair", "cut-me", "--store", f"sqlite:{db}")
    assert code == 2 and "needs --yes" in out, out
    code, out = cli(tmp_path, "admin", "repair", "cut-me", "--store", f"sqlite:{db}", "--yes")
    assert code == 0, out
    assert f"the last {full - back_to} of its {full} records are lost for good; the game goes on from move {back_to}" in out, out
    store = SqliteStore(db, KEYS)
    assert len(Session.open("cut-me", store=store).state.log) < len(s.state.log)
    code, out = cli(tmp_path, "admin", "repair", "cut-me", "--store", f"sqlite:{db}", "--yes")
    assert code == 0 and "nothing to repair" in out, out
    store.close()


#: the header as this gm writes it (kept before a test replaces it with an older gm's)
_NEW_HEADER = Chain.header


def _header_of_an_older_gm(self: Chain, header: Any) -> dict[str, Any]:
    """``Chain.header`` as a gm from before anchors wrote it: no 'anchored', the MAC made without it."""
    out = _NEW_HEADER(self, header)
    out.pop("anchored", None)
    out.pop("mac", None)
    self.last = ""
    out["mac"] = self._mac(out)
    self.last = out["mac"]
    return out


def test_a_database_of_an_older_gm_is_anchored_once_and_explicitly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    """A database made before anchors: its games load; opening it anchors each at its length (one
    transaction, logged); from then on a cut is refused, for old games too."""
    db = tmp_path / "gm.sqlite"
    with monkeypatch.context() as m:
        m.setattr(Chain, "header", _header_of_an_older_gm)
        store = SqliteStore(db, KEYS)
        s = _game(store, "old-game")
        _seen_call(s)
        store.close()
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM gm_anchors")
    raw.execute("DELETE FROM gm_meta WHERE k = 'anchors'")
    raw.commit()
    raw.close()
    with caplog.at_level(logging.WARNING, logger="gm.serve"):
        store = SqliteStore(db, KEYS)
    assert any("anchored 1 sessions of an older gm" in r.getMessage() for r in caplog.records), caplog.records
    assert Session.open("old-game", store=store).state.log == s.state.log
    n = store.records("old-game")
    _sql(store, "DELETE FROM gm_records WHERE session = ? AND n > ?", ("old-game", n - 2))
    _sql(store, "UPDATE gm_sessions SET records = ? WHERE id = ?", (n - 2, "old-game"))
    _refused(lambda: Session.open("old-game", store=store), "cut off")
    _sql(store, "DELETE FROM gm_anchors WHERE session = ?", ("old-game",))  # and without its anchor, once every game has one
    _refused(lambda: Session.open("old-game", store=store), "anchor is missing")
    store.close()


# ------------------------------------------------------------------ files
def _copy(paths: list[Path], to: Path) -> None:
    to.mkdir(parents=True, exist_ok=True)
    for p in paths:
        if p.exists():
            shutil.copy2(p, to / p.name)


def _put_back(saved: Path, folder: Path, names: list[str]) -> None:
    for name in names:
        shutil.copy2(saved / name, folder / name)


def test_an_old_session_file_put_back_with_its_old_anchor_is_refused(tmp_path: Path) -> None:
    """The attack as the red team made it: copy the session file and the anchors as they are, play on
    (a bot's locked pick is revealed), put both back, and load."""
    from gm.session import FileStore

    home = tmp_path / "home"
    s = _game(FileStore(home))
    sessions, anchors = home / "sessions", home / "anchors"
    saved = tmp_path / "saved"
    _copy([sessions / "cut-me.jsonl"], saved / "sessions")
    _copy(sorted(anchors.iterdir()), saved / "anchors")  # every anchor file there is
    _seen_call(s)
    _put_back(saved / "sessions", sessions, ["cut-me.jsonl"])
    _put_back(saved / "anchors", anchors, [p.name for p in (saved / "anchors").iterdir() if p.name != "_counter"])
    _refused(lambda: Session.open("cut-me", home=home), "put back from an older copy")
    code, out = cli(home, "show", "cut-me")
    assert code == 2 and out.count("\n") == 1 and "put back from an older copy" in out, out


def test_file_rollbacks_of_every_kind_are_refused_and_repair_is_explicit(tmp_path: Path) -> None:
    from gm.session import FileStore
    from gm.session.records import make_anchor

    home = tmp_path / "home"
    s = _game(FileStore(home))
    other = Session.create("brawl", players={"away": "bot:random"}, home=home, id="other", secret=SECRET)
    sessions, anchors = home / "sessions", home / "anchors"
    saved = tmp_path / "saved"
    _copy([sessions / "cut-me.jsonl"], saved / "sessions")
    _copy(sorted(anchors.iterdir()), saved / "anchors")
    back_to = _seen_call(s)
    full = s.stored_count
    # the file alone put back: its records were cut off
    _put_back(saved / "sessions", sessions, ["cut-me.jsonl"])
    _refused(lambda: Session.open("cut-me", home=home), "cut off", f"it had {full} records", "gm sessions repair cut-me")
    # with the anchor an older gm kept for it (anchors/ID.json): the index holds the newer one
    files = FileStore(home)
    files.keys = KEYS
    legacy = anchors / "cut-me.json"
    legacy.write_text(json.dumps(make_anchor(KEYS, "cut-me", back_to, str(files.read("cut-me").records[-1]["mac"]))))
    _refused(lambda: Session.open("cut-me", home=home), "cut off")
    legacy.unlink()
    # the file, the index and the home's counter all put back, after another game moved on: refused
    start = other.stored_count
    while other.stored_count < start + 2:
        tool, args = call_for_action(other.tools, other.state.legal_actions("home").sample(__import__("random").Random(other.stored_count)))
        assert other.call(tool, args, "home")["ok"]
    now = tmp_path / "now"
    _copy(sorted(anchors.iterdir()), now / "anchors")
    _put_back(saved / "anchors", anchors, [p.name for p in (saved / "anchors").iterdir()])
    _refused(lambda: Session.open("other", home=home), "put back from an older copy")
    _put_back(now / "anchors", anchors, [p.name for p in (now / "anchors").iterdir()])
    assert Session.open("other", home=home).stored_count == other.stored_count
    # gm sessions repair: explicit, says what is lost, then the game loads as it is
    code, out = cli(home, "sessions", "repair", "cut-me")
    assert code == 2 and "needs --yes" in out and "refused" in out, out
    code, out = cli(home, "sessions", "repair", "cut-me", "--yes")
    assert code == 0, out
    assert f"the last {full - back_to} of its {full} records are lost for good; the game goes on from move {back_to}" in out, out
    assert Session.open("cut-me", home=home).stored_count == back_to
    assert "nothing to repair" in cli(home, "sessions", "repair", "cut-me", "--yes")[1]
    # a broken index: no session can be repaired alone; --all rebuilds it from the sessions as they are
    (anchors / "_index.json").write_text("{}\n00\n")
    _refused(lambda: Session.open("other", home=home), "anchor index")
    code, out = cli(home, "sessions", "repair", "other", "--yes")
    assert code == 2 and "--all" in out, out
    code, out = cli(home, "sessions", "repair", "--all", "--yes")
    assert code == 0 and "anchor index rebuilt: 2 saved games" in out, out
    assert Session.open("other", home=home).stored_count == other.stored_count


def test_a_crash_between_the_record_and_its_anchor_loses_nothing(tmp_path: Path) -> None:
    """The record is appended, then the index written: after a crash between them the file is one
    record ahead of its anchor. That loads, and the next write anchors it again."""
    from gm.session import FileStore

    home = tmp_path / "home"
    s = Session.create("quarterback", players={"blue": "bot:random"}, home=home, id="crash", secret=SECRET)
    anchors = home / "anchors"
    before = {p.name: p.read_bytes() for p in anchors.iterdir() if not p.name.endswith(".lock")}
    files = FileStore(home)
    files.keys = KEYS
    n = len(files.read("crash").records)
    tool, args = call_for_action(s.tools, s.state.legal_actions("red")[0])
    assert s.call(tool, args, "red")["ok"]
    path = home / "sessions" / "crash.jsonl"
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[: n + 2]) + b"\n")  # the header, the n records, and one more
    for name, data in before.items():  # and the anchors as they were before it
        (anchors / name).write_bytes(data)
    again = Session.open("crash", home=home)
    assert again.stored_count == n + 1
    if again.bots_owe_move():
        assert again.advance()
    else:
        tool, args = call_for_action(again.tools, again.state.legal_actions("red")[0])
        assert again.call(tool, args, "red")["ok"]
    assert again.stored_count > n + 1
    assert Session.open("crash", home=home).stored_count == again.stored_count


def test_a_session_file_of_an_older_gm_loads_and_is_anchored_at_its_next_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file session made before the anchor index (its header does not say 'anchored'; its anchor,
    if any, in anchors/ID.json): it loads as before; its next write puts its anchor in the index
    (the old file goes), and from then on a cut is refused like any other."""
    from gm.session import FileStore
    from gm.session.records import make_anchor

    home = tmp_path / "home"
    with monkeypatch.context() as m:
        m.setattr(Chain, "header", _header_of_an_older_gm)
        s = _game(FileStore(home), "old-file")
    anchors = home / "anchors"
    for p in list(anchors.iterdir()):  # as an older gm left the home: one anchor file per session
        p.unlink()
    files = FileStore(home)
    files.keys = KEYS
    stored = files.read("old-file")
    (anchors / "old-file.json").write_text(json.dumps(make_anchor(KEYS, "old-file", len(stored.records), str(stored.records[-1]["mac"]))))
    (anchors / "old-file.json").chmod(0o600)
    assert Session.open("old-file", home=home).state.log == s.state.log
    back_to = _seen_call(Session.open("old-file", home=home))  # its next write
    assert not (anchors / "old-file.json").exists() and (anchors / "_index.json").exists()
    path = home / "sessions" / "old-file.jsonl"
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[: back_to + 1]) + b"\n")
    _refused(lambda: Session.open("old-file", home=home), "cut off")
