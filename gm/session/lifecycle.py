"""How a session comes to be: created, restored from a game brought back, or opened from its store.

The session's lifecycle collaborator.  :func:`create` sets a new game up (seat players, seed secret,
chance setup), finds it a free id, writes its header (:func:`header`: a practice game's seeds in the
clear, a hidden seed sealed) and lets the bots that must move first move; :func:`restore` replays a
game brought back (a token) through the engine into a new stored session; :func:`open_session` reads a
stored one back (:func:`locate` finds it by id, unique id prefix or path), checks its header, its chain
and its anchor, and replays each record (:func:`replay_record`).  :class:`gm.session.Session`'s
``create``, ``restore``, ``open`` and ``resolve`` are thin class methods over these, so every caller
names the session class only.

**Seeds.**  ``Session.create(seed=N)`` is a *practice* game: the seed is public and everything
(bots, nonces) is derived from it, so the game reproduces byte for byte.  Without a seed the seed is
drawn at random and hidden: views show only its commitment until the game is over.  The session's
header names the chance generator its seed keys (``chance``; a session without one was made with
``mt19937``, :mod:`gm.core.chance`) and any chance outcomes supplied at its start (a game brought
back from a chatbot's log, or copied from a running hidden-seed game): in the clear for a practice
game, sealed with the hidden seed otherwise.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gm import __version__
from gm.core.chance import Chance
from gm.core.errors import GameError, StateError
from gm.core.game import Game, ruleset_hash
from gm.session.commit import SeedSecret, derive
from gm.session.ledger import store_keys
from gm.session.players import normalise_player, seat_players
from gm.session.records import FORMAT, VERSION, Chain, TamperError
from gm.session.store import (
    SESSION_RULE,
    SUFFIX,
    FileStore,
    MemoryStore,
    SessionExists,
    SessionStore,
    Writer,
    check_id,
    resolve,
)

if TYPE_CHECKING:
    from gm.core.bots import Bot
    from gm.session.session import Session

_T = TypeVar("_T")

#: seeds are whole numbers in this range (what every front end accepts)
SEED_MAX = 2**63 - 1


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise GameError(f"the seed is a whole number from 0 to {SEED_MAX}", rule=SESSION_RULE, input=str(seed)[:40])
    return seed


def _store_for(home: str | Path | None, persist: bool, store: SessionStore | None) -> SessionStore:
    if store is not None:
        return store
    return FileStore(home) if persist else MemoryStore()


def create(
    cls: type[Session], game: str | Game, *, seed: int | None, rules: Any, players: Mapping[str, str] | None,
    home: str | Path | None, persist: bool, id: str | None, bot_seed: int | None, nonce_seed: int | None,
    bots: Mapping[str, Bot] | None, store: SessionStore | None, record: bool, referee: str, model: str | None,
    title: str | None, secret: SeedSecret | None, advance: bool, chance: Chance | str | None,
) -> Session:
    """A new session of class ``cls``, stored (see :meth:`gm.session.Session.create`)."""
    from gm.core.registry import find_game

    g = game if isinstance(game, Game) else find_game(game)
    if isinstance(rules, str | Path):
        rules = g.load_rules_file(rules)
    ruleset = g.load_rules(rules)
    norm = seat_players(g, opponent="human", players=players, creator=False)
    if seed is not None:
        check_seed(seed)
    if secret is None:
        secret = SeedSecret.draw(seed, bot_seed=bot_seed, nonce_seed=nonce_seed)
    st = _store_for(home, persist, store)
    keys = store_keys(st)
    if id is not None:
        check_id(id)
    setup = Chance.of(chance)
    state = g.new_state(ruleset, secret.seed, setup)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    for _ in range(100):
        sid = id or f"{g.id}-{secrets.token_hex(4)}"
        chain = Chain(keys, sid, plain=isinstance(st, MemoryStore))
        s = cls(g, state, id=sid, store=st, chain=chain, players=norm, secret=secret, created=created, injected=bots,
                chance=Chance(setup.generator, dict(setup.supplied)))
        try:
            h = chain.header(header(s))
            s.ledger.position = st.create(sid, h, None if chain.plain else chain.anchor(0))
            break
        except SessionExists:
            if id is not None:
                raise
    else:  # pragma: no cover - 100 collisions of 32 random bits
        raise StateError("could not find a free session id", rule=SESSION_RULE)
    if record:
        s.start_recording(referee, model, title=title)
    s.opening_events = opening(s) + (s.advance() if advance else [])
    return s


def opening(s: Session) -> list[dict[str, Any]]:
    """What the set-up decided (a coin toss), while nobody has moved yet."""
    return [] if s.state.log else [e.to_json() for e in s.state.opening_events()]


def restore(
    cls: type[Session], game: Game, *, rules: Any, players: Mapping[str, str], secret: SeedSecret, moves: list[tuple[str, str]],
    store: SessionStore, id: str | None, chance: Chance | str | None,
) -> Session:
    """A new stored session of class ``cls`` holding a game brought back (see :meth:`gm.session.Session.restore`)."""
    s = cls.create(game, rules=rules, players=players, secret=secret, store=store, id=id, advance=False, referee="import",
                   chance=chance)
    for i, (seat, text) in enumerate(moves):
        try:
            _, record = s._apply(seat, text)
        except GameError as exc:
            s.store.delete(s.id)
            raise StateError(f"move {i + 1} ({seat}: {text}) does not replay: {exc.message}", rule="CORE-TOKEN") from None
        s.ledger.append([record])
    s.book.just_revealed = []
    return s


def header(s: Session) -> dict[str, Any]:
    """The session's stored header (before it is chained): game, rules, players, the chance setup and
    the seeds, in the clear for a practice game, else their commitment and the secret part sealed."""
    rules = s.state.rules
    h: dict[str, Any] = {
        "id": s.id,
        "game": s.game.id,
        "rules": rules.model_dump(mode="json"),
        "rules_hash": ruleset_hash(rules),
        "players": s.players,
        "created": s.created,
        "gm_version": __version__,
        "practice": s.practice,
    }
    record = s.chance.record_fields()
    supplied = record.pop("supplied", None)
    h.update(record)  # the generator (none: mt19937)
    if s.practice:
        h.update(seed=s.secret.seed, bot_seed=s.secret.bot_seed, nonce_seed=s.secret.nonce_seed)
        if supplied:
            h["supplied"] = supplied
    else:
        h["seed_commitment"] = s.secret.commitment
        h["sealed"] = s.ledger.seal({**s.secret.sealed_part(), **({"supplied": supplied} if supplied else {})}, "header")
    return h


def locate(ref: str | Path, home: str | Path | None, store: SessionStore | None) -> tuple[SessionStore, str]:
    """The store and id of a saved session given by id, unique id prefix, or (without ``store``) path."""
    text = str(ref).strip()
    if store is None and (isinstance(ref, Path) or "/" in text or "\\" in text or text.endswith(SUFFIX)):
        p = Path(text).expanduser()
        if p.is_dir():
            raise StateError(f"{p} is a directory, not a session file", rule=SESSION_RULE)
        if not p.is_file() or not p.name.endswith(SUFFIX) or p.parent.name != "sessions":
            raise StateError(f"no session file {p} (a session file is GM_HOME/sessions/ID{SUFFIX})", rule=SESSION_RULE)
        return FileStore(p.parent.parent), check_id(p.name.removesuffix(SUFFIX))
    st = store if store is not None else FileStore(home)
    return st, resolve(st, text)


def session_file(ref: str | Path, home: str | Path | None = None) -> Path:
    """The file of a saved session given by id, unique id prefix, or path."""
    store, sid = locate(ref, home, None)
    if not isinstance(store, FileStore):  # pragma: no cover - locate gives files without a store
        raise StateError("not a file session", rule=SESSION_RULE)
    return store.path(sid)


def open_session(
    cls: type[Session], ref: str | Path, *, home: str | Path | None, store: SessionStore | None, record: bool, anchor: bool
) -> Session:
    """A saved session read back as a ``cls`` (see :meth:`gm.session.Session.open`)."""
    st, sid = locate(ref, home, store)
    store_keys(st, create=False)  # (never made to read; a file store checks the anchor it reads with it)
    stored = st.read(sid)
    h = stored.header
    version = h.get("version")
    if version == 1:
        from gm.session.legacy import upgrade_v1

        stored = upgrade_v1(st, sid, stored, store_keys(st, create=False))
        h = stored.header
    elif not isinstance(version, int) or version > VERSION or h.get("format") != FORMAT:
        raise StateError(
            f"{st.where(sid, 0)}: session format version {version!r} is not supported by gm {__version__}",
            rule=SESSION_RULE,
        )
    keys = store_keys(st, create=False)
    chain = Chain(keys, sid, plain=isinstance(st, MemoryStore))
    chain.verify_header(h, st.where(sid, 0))
    s = from_header(cls, st, sid, h, chain)
    for n, rec in enumerate(stored.records, start=1):
        where = st.where(sid, n)
        chain.verify(n, rec, where)
        try:
            replay_record(s, rec, where)
        except TamperError:
            raise
        except (KeyError, TypeError, ValueError, GameError) as exc:
            why = exc.message if isinstance(exc, GameError) else "not a valid record"
            raise StateError(f"session {sid}: {where} is corrupt: {why}", rule=SESSION_RULE) from None
    if stored.anchor is not None and anchor:
        macs = [str(h.get("mac")), *(str(r.get("mac")) for r in stored.records)]
        chain.check_anchor(stored.anchor, macs, lambda n: st.where(sid, n), bool(h.get("anchored")))
    s.ledger.position = stored.position
    s.opening_events = opening(s)
    if record:
        s.start_recording()
    return s


def from_header(cls: type[Session], st: SessionStore, sid: str, h: Mapping[str, Any], chain: Chain) -> Session:
    """A ``cls`` at the start of the game a stored header describes (checked: ruleset hash, seats,
    players, the hidden seed against its commitment)."""
    from gm.core.registry import find_game

    where = st.where(sid, 0)
    try:
        game = find_game(str(h["game"]))
        rules = game.load_rules(h["rules"], legacy=True)  # (stored in full: a field it lacks came later)
        if ruleset_hash(rules) != h["rules_hash"]:
            raise TamperError(f"session {sid}: the ruleset does not match its hash (edited or corrupt)", rule=SESSION_RULE)
        players = {str(k): str(v) for k, v in dict(h["players"]).items()}
        if set(players) != set(game.seats):
            raise StateError(f"session {sid}: players do not match the seats of {game.id}", rule=SESSION_RULE)
        for p in players.values():
            normalise_player(game, p)
        if h.get("practice"):
            ns = h.get("nonce_seed")
            secret = SeedSecret(
                int(h["seed"]), derive(int(h["seed"]), "salt")[:32], int(h["bot_seed"]), int(ns) if ns is not None else None, True
            )
            supplied = h.get("supplied")
        else:
            opened = chain.open(h["sealed"], "header", where)
            secret = SeedSecret.from_sealed(opened, practice=False)
            if secret.commitment != h.get("seed_commitment"):
                raise TamperError(f"session {sid}: the seed does not open its commitment", rule=SESSION_RULE)
            supplied = opened.get("supplied")
        setup = Chance.from_record({**({"chance": h["chance"]} if "chance" in h else {}), "supplied": supplied})
        state = game.new_state(rules, secret.seed, setup)
        return cls(game, state, id=sid, store=st, chain=chain, players=players, secret=secret, created=str(h.get("created", "")),
                   chance=setup)
    except StateError:
        raise
    except GameError as exc:
        raise StateError(f"session {sid}: bad session header: {exc.message}", rule=SESSION_RULE) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(f"session {sid}: bad session header ({exc!r})", rule=SESSION_RULE) from None


def replay_record(s: Session, rec: Mapping[str, Any], where: str) -> None:
    """Replay one stored record into ``s``: a move (a sealed one opened with the session's key) or a take-back."""
    if "retract" in rec:
        s.undo.take_back(str(rec["retract"]))
        return
    seat = str(rec["seat"])
    if "sealed" in rec:
        inner = s.ledger.chain.open(rec["sealed"], f"record {rec['n']}", where)
        text, nonce = str(inner["action"]), inner.get("nonce")
        digest = rec.get("commitment")
        s._apply(seat, text, nonce=str(nonce) if nonce is not None else None, digest=str(digest) if digest else None)
    else:
        s._apply(seat, str(rec["action"]))


def reload(s: Session) -> None:
    """Back to what is stored (after a failed write, or another process moved); never to fewer
    records than this copy has seen (a store cut back or put back from an older copy meanwhile:
    :class:`TamperError`).  ``s`` takes the game as a fresh copy read from the store holds it: its
    state, secret book and ledger position.  What the header fixes (game, rules, players, seeds) is
    the same in both; the recorder, the bots' driver, the held write and the front end's settings
    (``commit_human_picks``, ``pause_when_out``, ``on_bot_move``) stay."""
    s.pending.settle()
    fresh = open_session(type(s), s.id, home=None, store=s.store, record=False, anchor=True)
    if fresh.ledger.count < s.ledger.count:
        raise TamperError(
            f"session {s.id}: {s.store.description} now holds {fresh.ledger.count} records, and this "
            f"process has seen {s.ledger.count}: it was cut back or put back from an older copy",
            rule=SESSION_RULE,
        )
    s.state = fresh.state
    s.book = fresh.book
    s.ledger.follow(fresh.ledger)
    s.opening_events = fresh.opening_events
    s.pending = fresh.pending
    s.bot_error = None


def catch_up(s: Session, writer: Writer) -> None:
    """Read what another process stored since ``s`` was read (a server's cached session, a game
    played through several server processes), before acting on it in ``writer``'s write."""
    if writer.stale(s.ledger.position):
        resync(s)


def refresh(s: Session) -> bool:
    """Catch ``s`` up with moves another process stored, without writing; whether there were any."""
    if s.ledger.stored_count() == s.ledger.count:
        return False
    resync(s)
    return True


def resync(s: Session) -> None:
    """Back to what is stored, the transcript's recorder too (its counters continue the stored one)."""
    reload(s)
    s.recording.restart()


def recover(s: Session) -> None:
    """After a write that failed or was refused as a whole: back to what is stored, if it can be read."""
    try:
        resync(s)
    except GameError:
        pass


def held(s: Session, plain: Callable[..., _T], recorded: Callable[..., _T], *args: Any) -> _T:
    """``plain(*args)``, or ``recorded(recorder, *args)`` while the game is recorded, in the session's
    write lock (held throughout, so records and transcript lines land together and in order), after
    catching up with what another process stored; the ledger appends in that write."""
    with s.store.writing(s.id) as writer:
        catch_up(s, writer)
        s.ledger.writer = writer
        try:
            rec = s.recording.recorder
            return plain(*args) if rec is None else recorded(rec, *args)
        finally:
            s.ledger.writer = None
