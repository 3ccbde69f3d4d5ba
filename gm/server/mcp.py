"""The MCP endpoint of ``gm serve``: every MCP client its own games, through seat tokens.

Each MCP session (the ``Mcp-Session-Id`` of a handshake-era client) — or, for a client that sends no
session id, each ``Authorization: Bearer <seat token>`` — gets its own :class:`ServedHost`: the seats it
holds (their tokens) and its active game.  Nothing one client does changes what another sees, except
that two players seated in one game see each other's public moves.

Tools: ``new_game`` (the other sides bots, or ``opponent: human`` for a person: the result carries
their join code), ``join_game`` (a join code), ``list_sessions`` (the games this client holds),
``resume_session`` (a seat token, or a game this client already holds), then the active game's tools.
Every game tool goes through :class:`gm.server.hub.GameHub` for the client's one seat.

The server answers ``server/discover`` with the handshake-era protocol versions only, so clients
(the official SDK's ``auto`` mode too) open a session with ``initialize``: the session is what keeps
a client's active game.  A client that adopts the 2026 per-request protocol anyway is served through
the seat token it sends as a bearer token.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from pydantic import Field

from gm.core.errors import GameError
from gm.core.game import Game
from gm.core.registry import default_game, find_game
from gm.core.tools import ToolArgs, ToolSpec
from gm.mcp_server.host import MCP_RULE, McpHost, NewGameArgs, Progress, _reporting
from gm.server.access import SEAT_PREFIX, digest
from gm.server.hub import PRACTICE_RULE, Denied, GameHub, Grant, practice_fields
from gm.session import Session

SERVED_TOOLS = ("new_game", "join_game", "rotate_token", "list_sessions", "resume_session")


class ServedNewGameArgs(NewGameArgs):
    opponent: str | None = Field(
        default=None,
        max_length=100,
        description="who plays the other sides: a bot strategy (default, random, ...) or human (another person: the result gives their join code); empty: the default bot",
    )


class JoinArgs(ToolArgs):
    code: str = Field(min_length=4, max_length=40, description="the join code the other player gave you (e.g. ABCD-EFGH-JKLM)")
    accept_practice: bool = Field(
        default=False,
        description="true to join a practice game (its seed was chosen by the player who made it, so picks and cards are predictable); ask the player first",
    )


class RotateArgs(ToolArgs):
    pass


class ServedListArgs(ToolArgs):
    pass


class ServedResumeArgs(ToolArgs):
    token: str | None = Field(default=None, max_length=200, description="the seat token new_game or join_game gave you (gms_...)")
    session_id: str | None = Field(default=None, max_length=200, description="or: a game this connection already holds (from list_sessions)")


class ServedHost(McpHost):
    """One MCP client of ``gm serve``: the seats it holds and its active game."""

    NO_GAME = "No game in progress: start one with new_game, join one with join_game, or continue one with resume_session."
    NO_BOARD = frozenset({"rotate_token"})

    def __init__(self, hub: GameHub, *, pinned: Game | None = None) -> None:
        self.hub = hub
        self.held: dict[str, tuple[str, str]] = {}  # session -> (seat, token)
        self.active: Grant | None = None
        self._game: Game | None = None
        #: set when the server forgets this client (its notices stop)
        self.closed = False
        super().__init__(pinned)

    def _session_tools(self) -> list[ToolSpec]:
        return [
            ToolSpec("new_game", "Start a new game: you play one side; the other sides are the built-in bot, or another person (opponent: human - the result gives the join code to hand them). Returns the game id, your seat token (keep it to continue later), the board and what you decide first.", ServedNewGameArgs, "action", self._new_game),
            ToolSpec("join_game", "Join a game another person started, with the join code they gave you: you take the seat it was made for, with a seat token made for you alone. A practice game (picks and cards predictable) needs accept_practice: true.", JoinArgs, "action", self._join),
            ToolSpec("rotate_token", "Replace your seat token for the active game with a new one (the old token stops working at once); keep the new one to continue later.", RotateArgs, "action", self._rotate),
            ToolSpec("list_sessions", "List the games this connection holds (started or joined here), with whose turn it is.", ServedListArgs, "query", self._list),
            ToolSpec("resume_session", "Continue a game: give your seat token (after a reconnect), or the id of a game this connection holds.", ServedResumeArgs, "action", self._resume),
        ]

    # ------------------------------------------------------------------ state
    @property
    def seat(self) -> str | None:
        return self.active.seat if self.active else None

    @property
    def session_id(self) -> str | None:
        return self.active.session if self.active else None

    @property
    def game(self) -> Game:
        if self._game is not None:
            return self._game
        return self.pinned or default_game()

    def adopt(self, token: str) -> None:
        """Hold the seat ``token`` grants and make it the active game (raises :class:`Denied`)."""
        grant = self.hub.authorize(token)
        self.held[grant.session] = (grant.seat, token)
        with self.hub.game(grant.session, fresh=False) as s:
            game = s.game
        self._check_pinned(game, game.id)
        self.active, self._game = grant, game

    def _grant(self) -> Grant | None:
        """The active game's grant, checked again (a game the admin ended answers 410)."""
        if self.active is None:
            return None
        return self.hub.authorize(self.held[self.active.session][1])

    @contextmanager
    def current(self, *, fresh: bool = True) -> Iterator[Session | None]:
        with self.lock:
            grant = self._grant()
            if grant is None:
                yield None
                return
            with self.hub.game(grant.session, fresh=fresh) as s:
                yield s

    def _play(self, name: str, args: Mapping[str, Any] | str | None, progress: Progress | None) -> dict[str, Any]:
        grant = self._grant()
        assert grant is not None
        if progress is None:
            return self.hub.call(grant, name, args)
        with self.hub.game(grant.session, fresh=False) as s, _reporting(s, progress):
            return self.hub.call(grant, name, args)

    def _call(self, name: Any, args: Any, apps: bool, progress: Progress | None) -> dict[str, Any]:
        try:
            return super()._call(name, args, apps, progress)
        except Denied as exc:
            raise GameError(exc.message, rule=MCP_RULE) from None

    def session_ids(self) -> list[str]:
        return list(self.held)

    def stored_version(self) -> str | None:
        sid = self.session_id
        if sid is None:
            return None
        try:
            return f"{sid}#{self.hub.stored_count(sid)}"
        except GameError:
            return f"{sid}#gone"

    @contextmanager
    def saved(self, session_id: str) -> Iterator[tuple[Session, str]]:
        sid = session_id.strip()
        if sid not in self.held:
            raise GameError("not a game this connection holds (list_sessions shows them)", rule=MCP_RULE, input=sid[:100], legal=sorted(self.held))
        try:
            grant = self.hub.authorize(self.held[sid][1])
        except Denied as exc:
            raise GameError(exc.message, rule=MCP_RULE, input=sid[:100]) from None
        with self.hub.game(grant.session) as s:
            yield s, grant.seat

    # ----------------------------------------------------------- session tools
    def _new_game(self, a: ServedNewGameArgs) -> dict[str, Any]:
        g = find_game(a.game) if a.game else self.game
        self._check_pinned(g, a.game)
        created = self.hub.create(g.id, seat=a.seat, opponent=a.opponent, seed=a.seed, rules=a.rules, referee="mcp")
        self.adopt(created["token"])
        joins = {seat: e["join_code"] for seat, e in created["seats"].items() if "join_code" in e}
        return self._session_result("new_game", created["view"], token=created["token"], join_codes=joins)

    def _join(self, a: JoinArgs) -> dict[str, Any]:
        try:
            joined = self.hub.join(a.code, accept_practice=a.accept_practice)
        except Denied as exc:
            if exc.status == 409:
                raise GameError(exc.message, rule=PRACTICE_RULE, legal=["accept_practice: true"]) from None
            raise
        self.adopt(joined["token"])
        return self._session_result("join_game", joined["view"], token=joined["token"])

    def _rotate(self, a: RotateArgs) -> dict[str, Any]:
        if self.active is None:
            raise GameError(self.NO_GAME, rule=MCP_RULE, input="rotate_token", legal=list(SERVED_TOOLS))
        seat, token = self.held[self.active.session]
        rotated = self.hub.rotate(token)
        self.held[self.active.session] = (seat, rotated["token"])
        return {
            "ok": True, "tool": "rotate_token", "kind": "session", "seat": seat, "session": rotated["session"], "token": rotated["token"],
            "note": "your old seat token no longer works: keep this one (resume_session with it continues this game from any connection)",
        }

    def _resume(self, a: ServedResumeArgs) -> dict[str, Any]:
        if a.token:
            self.adopt(a.token.strip())
        elif a.session_id and a.session_id.strip() in self.held:
            self.adopt(self.held[a.session_id.strip()][1])
        else:
            raise GameError(
                "give your seat token (or the id of a game this connection holds: list_sessions)",
                rule=MCP_RULE,
                input=(a.session_id or "")[:100],
                legal=sorted(self.held),
            )
        assert self.active is not None
        view = self.hub.view(self.active)
        result = self._session_result("resume_session", view)
        result["log"] = view["log"][-12:]
        return result

    def _seat_view(self, s: Session) -> dict[str, Any]:
        view = super()._seat_view(s)
        view.update(practice_fields(s.practice))  # every seat of a practice game is told, on every surface
        return view

    def _list(self, a: ServedListArgs) -> dict[str, Any]:
        rows = self.hub.mine([token for _, token in self.held.values()])
        return {"ok": True, "tool": "list_sessions", "kind": "query", "seat": self.seat, "active": self.active.session if self.active else None, "sessions": [{k: v for k, v in r.items() if k != "index"} for r in rows]}


class Clients:
    """The MCP clients of one server process, each its own :class:`ServedHost` (idle ones are dropped)."""

    def __init__(self, hub: GameHub, *, pinned: Game | None = None, idle: float = 3600.0, limit: int = 20000) -> None:
        self.hub = hub
        self.pinned = pinned
        self.idle = idle
        self.limit = limit
        self._hosts: OrderedDict[str, ServedHost] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._hosts)

    def for_request(self, session_id: str | None, bearer: str | None) -> ServedHost:
        """The host of the client making a request: by MCP session id, else by seat token; a request
        with neither gets a host of its own that lasts for that request only."""
        if session_id:
            key = "s:" + session_id
        elif bearer and bearer.startswith(SEAT_PREFIX):
            key = "t:" + digest(bearer)
        else:
            return ServedHost(self.hub, pinned=self.pinned)
        now = time.monotonic()
        with self._lock:
            host = self._hosts.get(key)
            if host is not None:
                self._hosts.move_to_end(key)
                return host
            host = ServedHost(self.hub, pinned=self.pinned)
            self._hosts[key] = host
            while self._hosts and (len(self._hosts) > self.limit or now - next(iter(self._hosts.values())).used > self.idle):
                self._hosts.popitem(last=False)[1].closed = True
        if bearer and bearer.startswith(SEAT_PREFIX):
            try:
                host.adopt(bearer)
            except (Denied, GameError):
                pass  # the middleware already refused a bad token; a pinned mismatch is said on first use
        return host

