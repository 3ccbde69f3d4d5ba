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

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from pydantic import Field

from gm.core.errors import GameError
from gm.core.game import Game
from gm.core.registry import all_games, default_game, find_game, game_ids
from gm.core.schemas import to_mcp
from gm.core.tools import ToolArgs, ToolSpec, parse_args, unknown_tool
from gm.mcp_server.host import MCP_RULE, NewGameArgs, Reply, ResourceInfo, document
from gm.mcp_server.text import next_line, summary
from gm.server.access import SEAT_PREFIX, digest
from gm.server.hub import PRACTICE_RULE, Denied, GameHub, Grant, practice_fields

SERVED_TOOLS = ("new_game", "join_game", "rotate_token", "list_sessions", "resume_session")
_NO_GAME = "No game in progress: start one with new_game, join one with join_game, or continue one with resume_session."


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


class ServedHost:
    """One MCP client: the seats it holds and its active game."""

    PROMPT = "referee"

    def __init__(self, hub: GameHub, *, pinned: Game | None = None) -> None:
        self.hub = hub
        self.pinned = pinned
        self.held: dict[str, tuple[str, str]] = {}  # session -> (seat, token)
        self.active: Grant | None = None
        self._game: Game | None = None
        self.lock = threading.RLock()
        self.used = time.monotonic()
        self._specs: dict[str, ToolSpec] = {
            s.name: s
            for s in (
                ToolSpec("new_game", "Start a new game: you play one side; the other sides are the built-in bot, or another person (opponent: human - the result gives the join code to hand them). Returns the game id, your seat token (keep it to continue later), the board and what you decide first.", ServedNewGameArgs, "action", self._new_game),
                ToolSpec("join_game", "Join a game another person started, with the join code they gave you: you take the seat it was made for, with a seat token made for you alone. A practice game (picks and cards predictable) needs accept_practice: true.", JoinArgs, "action", self._join),
                ToolSpec("rotate_token", "Replace your seat token for the active game with a new one (the old token stops working at once); keep the new one to continue later.", RotateArgs, "action", self._rotate),
                ToolSpec("list_sessions", "List the games this connection holds (started or joined here), with whose turn it is.", ServedListArgs, "query", self._list),
                ToolSpec("resume_session", "Continue a game: give your seat token (after a reconnect), or the id of a game this connection holds.", ServedResumeArgs, "action", self._resume),
            )
        }

    # ------------------------------------------------------------------ state
    @property
    def seat(self) -> str | None:
        return self.active.seat if self.active else None

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
        self._check_pinned(game)
        self.active, self._game = grant, game

    def _check_pinned(self, g: Game) -> None:
        if self.pinned is not None and g.id != self.pinned.id:
            raise GameError(f"this server plays {self.pinned.id} only; {g.id} is not served here", rule=MCP_RULE, input=g.id, legal=[self.pinned.id])

    # ------------------------------------------------------------------ tools
    def tools(self) -> list[ToolSpec]:
        game_tools = [t for t in self.game.tools() if t.name not in self._specs]
        return [*self._specs.values(), *game_tools]

    def mcp_tools(self) -> list[dict[str, Any]]:
        specs = self.tools()
        out = []
        for spec, entry in zip(specs, to_mcp(specs), strict=True):
            entry["annotations"] = {"readOnlyHint": spec.kind == "query", "destructiveHint": False, "openWorldHint": False}
            out.append(entry)
        return out

    def input_schema(self, name: str) -> dict[str, Any] | None:
        for entry in self.mcp_tools():
            if entry["name"] == name:
                schema: dict[str, Any] = entry["inputSchema"]
                return schema
        return None

    def call(self, name: Any, args: Mapping[str, Any] | str | None = None) -> Reply:
        """One tool call of this client.  Never raises."""
        with self.lock:
            self.used = time.monotonic()
            before = self.game.id
            try:
                result = self._call(name, args)
            except Denied as exc:
                result = self._error(name, GameError(exc.message, rule=MCP_RULE))
            except GameError as exc:
                result = self._error(name, exc)
            except Exception as exc:
                result = self._error(name, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))
            changed = self.game.id != before
        try:
            text = summary(result)
        except Exception:
            text = json.dumps(result, default=str)
        note = result.get("practice_note")
        if note and note not in text:  # (a refusal's text lists no extra fields)
            text = f"{note}\n{text}"
        return Reply(result, text, not result.get("ok"), changed)

    def _call(self, name: Any, args: Mapping[str, Any] | str | None) -> dict[str, Any]:
        spec = self._specs.get(name) if isinstance(name, str) else None
        if spec is not None:
            return dict(spec.handler(parse_args(spec, args)))
        if self.active is None:
            if isinstance(name, str) and any(t.name == name for t in self.game.tools()):
                raise GameError(_NO_GAME, rule=MCP_RULE, input=name, legal=list(SERVED_TOOLS))
            raise unknown_tool(name, self.tools())
        return self.hub.call(self.hub.authorize(self.held[self.active.session][1]), name, args)

    def _error(self, tool: Any, exc: GameError) -> dict[str, Any]:
        raw = exc.to_json()
        return {"ok": False, "tool": tool if isinstance(tool, str) else repr(tool)[:100], "seat": self.seat, "error": {"kind": raw.pop("error"), **raw}}

    # ----------------------------------------------------------- session tools
    def _new_game(self, a: ServedNewGameArgs) -> dict[str, Any]:
        g = find_game(a.game) if a.game else self.game
        self._check_pinned(g)
        opponent = (a.opponent or "default").strip().lower()
        if opponent != "human" and not opponent.startswith("bot"):
            opponent = f"bot:{opponent}"
        created = self.hub.create(g.id, seat=a.seat, opponent=opponent, seed=a.seed, rules=a.rules, referee="mcp")
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
            raise GameError(_NO_GAME, rule=MCP_RULE, input="rotate_token", legal=list(SERVED_TOOLS))
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

    def _session_result(self, tool: str, view: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": True,
            "tool": tool,
            "kind": "session",
            "seat": view["seat"],
            "session": view["session"],
            "game": view["game"],
            "game_name": self.game.name,
            "players": view["players"],
            "seed": view["seed"],
            **practice_fields(bool(view["practice"])),
            "seed_commitment": view["seed_commitment"],
            "rules_hash": view["rules_hash"],
            "moves": len(view["log"]),
            "board": view["board"],
            "status": view["status"],
            "expected": view["expected"],
            "commitments": view["commitments"],
            "outcome": view["outcome"],
            "tools": view["tools"],
            **extra,
        }
        if extra.get("token"):
            out["note"] = "keep your seat token: resume_session with it continues this game from any connection"
        return out

    def _list(self, a: ServedListArgs) -> dict[str, Any]:
        rows = self.hub.mine([token for _, token in self.held.values()])
        return {"ok": True, "tool": "list_sessions", "kind": "query", "seat": self.seat, "active": self.active.session if self.active else None, "sessions": [{k: v for k, v in r.items() if k != "index"} for r in rows]}

    # -------------------------------------------------------------- resources
    def resources(self) -> list[ResourceInfo]:
        g = self.game
        out = [
            ResourceInfo("gm://session/board", "board", "Current board", "The active game's full board, status line and who must act, as your side sees it.", "text/plain"),
            ResourceInfo("gm://session/state", "state", "Current state (JSON)", "Your side's view of the active game: status, state, log, commitments.", "application/json"),
            ResourceInfo("gm://rules", "rules", f"{g.name}: rules", "The complete rules of the active game (its ruleset), with rule ids.", "text/markdown"),
            ResourceInfo("gm://quickstart", "quickstart", f"{g.name}: quick start", "The quick-start guide of the active game.", "text/markdown"),
        ]
        for other in all_games():
            out.append(ResourceInfo(f"gm://games/{other.id}/rules", f"rules-{other.id}", f"{other.name}: rules", f"The complete rules of {other.name} (default ruleset).", "text/markdown"))
            out.append(ResourceInfo(f"gm://games/{other.id}/quickstart", f"quickstart-{other.id}", f"{other.name}: quick start", f"The quick-start guide of {other.name}.", "text/markdown"))
        return out

    def resource_templates(self) -> list[ResourceInfo]:
        return [
            ResourceInfo("gm://games/{game}/rules", "game-rules", "Rules of a game", f"Complete rules of a game by id ({', '.join(game_ids())}).", "text/markdown"),
            ResourceInfo("gm://games/{game}/quickstart", "game-quickstart", "Quick start of a game", "The quick-start guide of a game by id.", "text/markdown"),
        ]

    def _grant(self) -> Grant | None:
        if self.active is None:
            return None
        return self.hub.authorize(self.held[self.active.session][1])

    def read_resource(self, uri: str) -> tuple[str, str]:
        with self.lock:
            grant = self._grant() if uri.startswith("gm://session/") else None
            if uri == "gm://session/board":
                if grant is None:
                    return _NO_GAME, "text/plain"
                view = self.hub.view(grant)
                lines = [f"session {view['session']} ({self.game.name}); you play {grant.seat}", "", view["board"].rstrip("\n"), "", view["status"]]
                if view.get("practice_note"):
                    lines.insert(0, str(view["practice_note"]))
                lines.extend(f"{seat} has locked a secret pick: commitment sha256 {d}" for seat, d in view["commitments"].items())
                lines.append(next_line(view["expected"], grant.seat))
                return "\n".join(lines), "text/plain"
            if uri == "gm://session/state":
                data = self.hub.view(grant) if grant else {"session": None, "note": _NO_GAME}
                data.pop("board", None)
                return json.dumps(data, indent=1, ensure_ascii=False), "application/json"
            if uri in ("gm://rules", "gm://quickstart"):
                rules = None
                if self.active is not None:
                    with self.hub.game(self.active.session, fresh=False) as s:
                        rules = s.state.rules
                return document(self.game, uri.removeprefix("gm://"), rules), "text/markdown"
            parts = uri.removeprefix("gm://games/").split("/")
            if uri.startswith("gm://games/") and len(parts) == 2 and parts[1] in ("rules", "quickstart"):
                return document(find_game(parts[0]), parts[1]), "text/markdown"
        raise GameError("no such resource", rule=MCP_RULE, input=uri, legal=[r.uri for r in self.resources()])

    # ----------------------------------------------------------------- prompt
    def prompt_arguments(self) -> list[tuple[str, str]]:
        return [
            ("game", f"game id for a new game ({', '.join(game_ids())}); empty: the active game"),
            ("seat", "the side the player takes in a new game; empty: the game's first side"),
        ]

    def referee_prompt(self, game: str | None = None, seat: str | None = None) -> str:
        from gm.mcp_server.prompt import referee_prompt

        with self.lock:
            g = find_game(game) if game else self.game
            if self.active is not None and g.id == self.game.id and (not seat or seat == self.seat):
                with self.hub.game(self.active.session, fresh=False) as s:
                    return referee_prompt(g, s.state.rules, self.active.seat, dict(s.players), session_id=s.id, tools=s.tools)
            side = seat.strip().lower() if seat else g.seats[0]
            if side not in g.seats:
                raise GameError(f"{g.id} has no side {seat!r}", rule="CORE-SEAT", input=seat, legal=list(g.seats))
            players = {x: "human" if x == side else "bot:default" for x in g.seats}
            return referee_prompt(g, g.default_rules(), side, players, session_id=None, tools=g.tools())


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
                self._hosts.popitem(last=False)
        if bearer and bearer.startswith(SEAT_PREFIX):
            try:
                host.adopt(bearer)
            except (Denied, GameError):
                pass  # the middleware already refused a bad token; a pinned mismatch is said on first use
        return host

