"""The games a server process serves: sessions behind seat tokens, one lock per game, no global lock.

:class:`GameHub` is what the JSON API and the MCP endpoint share.  Every operation names its game
through a seat token (:mod:`gm.server.access`), runs under that game's own lock (so calls of one game
run one at a time in this process, while other games run alongside), on a cached
:class:`gm.session.Session` that first reads whatever another process stored meanwhile (the store's
own transaction serialises processes).  Nothing here holds what matters between requests: any
process on the same database can serve any request.

The hub's methods are blocking (the engine thinks, the database answers); the servers run them in
worker threads.  They raise :class:`Denied` (an HTTP status and one clear message) for a missing,
unknown or wrong token; a rejected move is not an error here but an ``ok: false`` result.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from gm.core.errors import GameError
from gm.core.game import ruleset_hash
from gm.core.registry import all_games, default_game, find_game
from gm.core.schemas import to_mcp
from gm.server.access import (
    JOIN,
    SEAT,
    AccessBook,
    access_for,
    code_digest,
    digest,
    new_join_code,
    new_seat_token,
)
from gm.session import SEAT_RULE, Session, SessionStore
from gm.session.players import check_seat, seat_players
from gm.session.session import store_keys
from gm.session.store import GameLocks, SessionNotFound

log = logging.getLogger("gm.serve")
SERVE_RULE = "CORE-SERVE"
#: at most this many tokens in one "my games" request
MAX_MINE = 100


class Denied(Exception):
    """A request without the right to do what it asks: an HTTP status, one message, and what else
    the answer says (``extra``: JSON fields beside the message)."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


MISSING = "missing access token: send 'Authorization: Bearer <seat token>' (creating a game returns yours; joining one with its code returns the joiner's)"
UNKNOWN = "unknown or revoked access token"
WRONG_GAME = "this access token does not grant that game"
UNKNOWN_CODE = "unknown or used join code"
#: what every seat of a practice game is told, wherever it looks
PRACTICE_NOTE = "practice game: picks and cards are predictable"
PRACTICE_RULE = "CORE-PRACTICE"
PRACTICE_REFUSED = (
    "this is a practice game: picks and cards are predictable (its seed was chosen by the player who "
    'made the game); join with "accept_practice": true to play it anyway'
)


def practice_fields(practice: bool) -> dict[str, Any]:
    """``practice`` and, in a practice game, ``practice_note``: what a result tells every seat."""
    return {"practice": True, "practice_note": PRACTICE_NOTE} if practice else {"practice": False}


@dataclass(frozen=True)
class Grant:
    """One seat of one game, as a token grants it."""

    session: str
    seat: str


class GameHub:
    """Sessions, their locks and their access grants, for one server process."""

    def __init__(self, store: SessionStore, *, cache_size: int = 4096, referee: str = "serve", access: AccessBook | None = None) -> None:
        self.store = store
        self.keys = store_keys(store)
        self.access = access if access is not None else access_for(store)
        self.referee = referee
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Session] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._lock: GameLocks[threading.RLock] = GameLocks(threading.RLock)
        #: called with a session id after a move in this process (event streams wake up)
        self.listeners: list[Callable[[str], None]] = []

    # ------------------------------------------------------------- sessions
    @contextmanager
    def game(self, session_id: str, *, fresh: bool = True) -> Iterator[Session]:
        """The session under its game's lock; ``fresh``: first read what other processes stored."""
        lock = self._lock(session_id)
        with lock:
            with self._cache_lock:
                s = self._cache.get(session_id)
                if s is not None:
                    self._cache.move_to_end(session_id)
            if s is None:
                s = Session.open(session_id, store=self.store)
                s.set_referee(self.referee)
                with self._cache_lock:
                    self._cache[session_id] = s
                    while len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
            elif fresh:
                s.refresh()
            s.commit_human_picks = True  # two players on two machines: each verifies the other's pick
            yield s

    def forget(self, session_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(session_id, None)

    def moved(self, session_id: str) -> None:
        """Tell the event streams that a game moved (a front end that moved it through the session)."""
        self._moved(session_id)

    def _moved(self, session_id: str) -> None:
        for listener in list(self.listeners):
            try:
                listener(session_id)
            except Exception:  # a listener never fails a move
                log.debug("move listener failed", exc_info=True)

    # --------------------------------------------------------------- access
    def authorize(self, token: str | None, session_id: str | None = None) -> Grant:
        """The seat ``token`` grants (and it must be of ``session_id`` when that is given)."""
        if not token:
            raise Denied(401, MISSING)
        hit = self.access.seat_grant(digest(token)) if len(token) < 200 else None
        if hit is None:
            raise Denied(401, UNKNOWN)
        grant = Grant(hit[0], hit[1])
        if session_id is not None and session_id != grant.session:
            raise Denied(403, WRONG_GAME)
        reason = hit[2]
        if reason is not None:
            raise Denied(410, f"game {grant.session} was ended: {reason}")
        return grant

    # --------------------------------------------------------------- create
    def create(
        self,
        game: str | None = None,
        *,
        seat: str | None = None,
        players: Mapping[str, str] | None = None,
        opponent: str | None = None,
        seed: int | None = None,
        rules: Any = None,
        referee: str | None = None,
    ) -> dict[str, Any]:
        """A new game: ``seat`` is the creator's (default the first); other seats are ``players``
        (seat -> ``human`` / ``bot:NAME``), else ``opponent`` for all of them (default the default
        bot).  Returns the session, the creator's own token, and for every other human seat a
        one-time join code only: that seat's token is made when someone joins with it
        (:meth:`join`), so the creator never holds it.  ``seed``: a practice game (its joiners must
        accept that)."""
        g = find_game(game) if game else default_game()
        me = check_seat(g, seat)
        spec = seat_players(g, me, opponent=opponent, players=players)
        if spec[me] != "human":
            raise GameError(f"you play {me}: it must be a human seat", rule=SEAT_RULE, input=me)
        s = Session.create(g, seed=seed, rules=rules, players=spec, store=self.store, referee=referee or self.referee)
        seats: dict[str, dict[str, Any]] = {}
        token = new_seat_token()
        self.access.grant(digest(token), SEAT, s.id, me)
        for name in g.seats:
            entry: dict[str, Any] = {"player": spec[name]}
            if name == me:
                entry["you"] = True
            elif spec[name] == "human":
                code = new_join_code()
                self.access.grant(code_digest(code), JOIN, s.id, name)
                entry["join_code"] = code
                if s.practice:
                    entry["practice_consent"] = True
            seats[name] = entry
        with self._cache_lock:
            self._cache[s.id] = s
        with self.game(s.id, fresh=False) as live:
            view = self._view(live, me)
        self._moved(s.id)
        log.info("created %s (%s) players=%s", s.id, g.id, spec)
        return {"ok": True, "session": s.id, "game": g.id, "seat": me, "token": token, **practice_fields(s.practice), "seats": seats, "view": view}

    def join(self, code: str, *, accept_practice: bool = False) -> dict[str, Any]:
        """Use a join code once: a token for its seat is made now, for the joiner alone (any token the
        seat had before is void), with the seat's view.  A practice game is joined only with
        ``accept_practice`` (:class:`Denied` 409 otherwise, and the code stays good)."""
        if not isinstance(code, str) or not code or len(code) > 40:
            raise Denied(404, UNKNOWN_CODE)
        key = code_digest(code)
        hit = self.access.invitation(key)
        if hit is None:
            raise Denied(404, UNKNOWN_CODE)
        session_id, seat = hit
        reason = self.access.ended(session_id)
        if reason is not None:
            raise Denied(410, f"game {session_id} was ended: {reason}")
        with self.game(session_id) as s:
            practice, game = s.practice, s.game.id
        if practice and accept_practice is not True:
            raise Denied(409, PRACTICE_REFUSED, practice=True, game=game, seat=seat)
        token = new_seat_token()
        if self.access.join(key, digest(token)) is None:  # another request used the code meanwhile
            raise Denied(404, UNKNOWN_CODE)
        self._moved(session_id)  # (the creator's page learns the seat was joined)
        log.info("joined %s seat %s", session_id, seat)
        grant = Grant(session_id, seat)
        return {"ok": True, "session": session_id, "game": game, "seat": seat, "token": token, **practice_fields(practice), "view": self.view(grant)}

    def rotate(self, token: str) -> dict[str, Any]:
        """A new token for the seat ``token`` grants; ``token`` is void from now on."""
        grant = self.authorize(token)
        new = new_seat_token()
        if self.access.rotate(digest(token), digest(new)) is None:  # rotated meanwhile by another request
            raise Denied(401, UNKNOWN)
        log.info("rotated a token of %s seat %s", grant.session, grant.seat)
        return {"ok": True, "session": grant.session, "seat": grant.seat, "token": new}

    # ---------------------------------------------------------------- play
    def call(self, grant: Grant, tool: Any, args: Any) -> dict[str, Any]:
        """One tool call for the grant's seat (never raises for a rejected move)."""
        with self.game(grant.session, fresh=False) as s:  # the call itself catches up, under the write lock
            before = len(s.state.log), s.stored_count
            result = s.call(tool, args, grant.seat)
            moved = (len(s.state.log), s.stored_count) != before
            if s.practice:
                result["practice_note"] = PRACTICE_NOTE
        if moved:
            self._moved(grant.session)
        return result

    def _view(self, s: Session, seat: str) -> dict[str, Any]:
        view = s.view(seat)
        if s.practice:
            view["practice_note"] = PRACTICE_NOTE
        view["awaiting_join"] = self.access.invited(s.id)
        view["board"] = s.game.render(s.state, seat)
        view["tools"] = [t.name for t in s.tools]
        return {"ok": True, **view}

    def view(self, grant: Grant) -> dict[str, Any]:
        with self.game(grant.session) as s:
            return self._view(s, grant.seat)

    def tools(self, grant: Grant) -> list[dict[str, Any]]:
        """The game's tools in MCP wire form (name, description, input schema)."""
        with self.game(grant.session, fresh=False) as s:
            return to_mcp(s.tools)

    def snapshot(self, grant: Grant) -> dict[str, Any]:
        """What an event stream compares: the log as the seat sees it, and whose turn it is."""
        with self.game(grant.session) as s:
            st = s.state
            return {
                "records": s.stored_count,
                "log": s.log(grant.seat),
                "status": s.game.status(st, grant.seat),
                "expected": s.expected(grant.seat),
                "commitments": s.commitments(),
                "outcome": st.outcome.to_json() if st.outcome else None,
                "over": st.is_terminal,
            }

    def stored_count(self, session_id: str) -> int:
        """How many records the store holds for a game (cheap; event streams poll it)."""
        count = getattr(self.store, "records", None)
        return int(count(session_id)) if callable(count) else self.store.info(session_id).moves

    def mine(self, tokens: Sequence[str]) -> list[dict[str, Any]]:
        """The games the given seat tokens grant (a client's list of its games); bad tokens are
        listed as such, without saying why."""
        rows: list[dict[str, Any]] = []
        for i, token in enumerate(list(tokens)[:MAX_MINE]):
            try:
                grant = self.authorize(str(token))
                with self.game(grant.session) as s:
                    st = s.state
                    rows.append({
                        "index": i,
                        "ok": True,
                        "session": s.id,
                        "game": s.game.id,
                        "seat": grant.seat,
                        "players": dict(s.players),
                        "moves": len(st.log),
                        "status": s.game.status(st, grant.seat),
                        "your_turn": grant.seat in st.to_act() and not st.is_terminal,
                        "over": st.is_terminal,
                        "practice": s.practice,
                        "awaiting_join": self.access.invited(s.id),
                    })
            except Denied as exc:
                rows.append({"index": i, "ok": False, "error": exc.message})
            except SessionNotFound:
                rows.append({"index": i, "ok": False, "error": UNKNOWN})
        return rows

    # ---------------------------------------------------------------- admin
    def games(self, limit: int = 500) -> list[dict[str, Any]]:
        """Every stored game, newest first (admin)."""
        rows: list[tuple[float, dict[str, Any]]] = []
        for sid in self.store.ids():
            try:
                info = self.store.info(sid)
            except GameError:
                continue
            rows.append((info.updated, {
                "session": sid,
                "game": info.game,
                "players": info.players,
                "records": info.moves,
                "created": info.created,
                "updated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(info.updated)),
                "ended": self.access.ended(sid),
            }))
        rows.sort(key=lambda r: r[0], reverse=True)
        return [row for _, row in rows[:limit]]

    def end(self, session_id: str, reason: str = "ended by the server's admin") -> bool:
        """End a game: its tokens stop working (the record of the game stays)."""
        self.store.info(session_id)  # SessionNotFound for an unknown game
        done = self.access.end(session_id, reason)
        self.forget(session_id)
        self._moved(session_id)
        return done


def catalog() -> list[dict[str, Any]]:
    """The games a server offers, the default game first: id, name, what it is (``Game.tagline``), seats,
    bots (what a page needs to offer a new game)."""
    out = []
    for g in sorted(all_games(), key=lambda g: not g.default):  # (a stable sort: the rest keep the registry's order)
        out.append({"game": g.id, "name": g.name, "about": g.tagline, "default": g.default, "seats": list(g.seats),
                    "bots": sorted(g.strategies()), "rules_hash": ruleset_hash(g.default_rules())})
    return out

