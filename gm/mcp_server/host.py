"""The game hosts behind gm's MCP servers: tools, resources, prompt and the board app, without the SDK.

:class:`McpHost` is what ``gm mcp`` and ``gm serve`` share: one MCP client (a chatbot acting as
referee) playing **one seat** of its active game.  A host lists the client's tools (its session
tools, then the active game's tools; for a client that renders MCP Apps also the board app's own
tools, :mod:`gm.mcp_server.app`), runs a call for the client's seat and nothing else, serves the
resources (the board and state as the seat sees them, the rules and quick starts, the board app),
completes prompt and resource-template arguments, and writes the ``referee`` prompt.  A subclass
says where its games are kept and how a call reaches them:

- :class:`GameHost` (``gm mcp`` over stdio): sessions in ``$GM_HOME/sessions`` like ``gm call``;
  every other seat is a built-in bot;
- :class:`gm.server.mcp.ServedHost` (``gm serve`` and ``gm mcp --transport http``): games behind
  seat tokens in the server's store, where the other seats may be people.

No game tool takes a seat, so a call can never act for another seat or read its pending pick, and
a bot choosing alongside the client commits (SHA-256) before the client's choice arrives
(:class:`gm.session.Session` does that).  Nothing raises out of :meth:`McpHost.call`: every answer
is a JSON-ready dict, ``ok: false`` with rule id, reason and legal options for a rejection; a tool
name the client was never offered is flagged (:attr:`Reply.unknown`) so the server can answer it
as the protocol error it is.

The SDK wiring lives in :mod:`gm.mcp_server.server`.
"""

from __future__ import annotations

import json
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from gm.core.errors import GameError, error_json
from gm.core.game import Game
from gm.core.registry import all_games, default_game, find_game
from gm.core.schemas import to_mcp
from gm.core.tools import TOOL_RULE, ToolArgs, ToolSpec, parse_args, rules_about, unknown_tool
from gm.mcp_server import app
from gm.mcp_server.resource import ResourceInfo
from gm.mcp_server.text import next_line, summary
from gm.session import SEAT_RULE, FileStore, Session
from gm.session.players import check_seat, seat_players
from gm.session.store import SessionInfo, check_id

#: rule id of the server's own refusals (no game in progress, a pinned game, a seat it cannot play)
MCP_RULE = "CORE-MCP"
SESSION_TOOLS = ("new_game", "list_sessions", "resume_session")
#: the MCP log levels, least severe first (RFC 5424, as the specification lists them)
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
#: what a client hears before it sets a level (``logging/setLevel``): only what went wrong
DEFAULT_LOG_LEVEL = "warning"
#: the most values one completion answers (the specification's limit)
MAX_COMPLETIONS = 100


# ------------------------------------------------------------ session tools
class NewGameArgs(ToolArgs):
    game: str | None = Field(default=None, max_length=100, description="game id or alias (gm games lists them); empty: the current game")
    seed: int | None = Field(default=None, ge=0, le=2**53, description="a practice game with this seed: reproducible, but the bot's picks are predictable; empty: a hidden random seed, revealed when the game ends")
    opponent: str | None = Field(default=None, max_length=100, description="bot strategy of the other sides, e.g. default or random; empty: default")
    seat: str | None = Field(default=None, max_length=50, description="the side you play (one of the game's seats); empty: the game's first side. Every other side is the bot")
    rules: dict[str, Any] | None = Field(default=None, description="ruleset overrides as a JSON object (field -> value); empty: the game's rules")


class ListSessionsArgs(ToolArgs):
    game: str | None = Field(default=None, max_length=100, description="only sessions of this game; empty: all")
    limit: int | None = Field(default=None, ge=1, le=200, description="at most this many, newest first; empty: 20")


class ResumeArgs(ToolArgs):
    session_id: str = Field(min_length=1, max_length=200, description="the session id (or a unique prefix) from new_game or list_sessions")


@dataclass(frozen=True)
class LogEntry:
    """One ``notifications/message`` a call gives rise to (the server sends those at the client's level)."""

    level: str
    data: dict[str, Any]
    logger: str = "gm"


@dataclass(frozen=True)
class Reply:
    """One tool answer: the result dict (structured content), its text, whether the tool list changed,
    whether the tool was one the client was never offered, the board app's view of the game after
    the call (for a client that renders the app, after a tool linked to it), and what to log (made
    when first read: a client that hears no log of it never pays for it)."""

    result: dict[str, Any]
    text: str
    is_error: bool
    tools_changed: bool = False
    unknown: bool = False
    view: dict[str, Any] | None = None
    #: the tool called, the session and seat it was called in, and the seconds it took (for the log)
    tool: str = ""
    session: str | None = None
    seat: str | None = None
    took: float = 0.0

    @cached_property
    def logs(self) -> tuple[LogEntry, ...]:
        """What the call tells the client's log: the call (info), a refusal (notice), a bot that
        failed (warning), an internal error (error) and the time it took (debug).  Only the client's
        own move is named; the other seats' moves are counted, never shown."""
        result, tool = self.result, self.tool
        base = {"tool": tool, "session": self.session, "seat": self.seat}
        out: list[LogEntry] = []
        if result.get("ok"):
            did = result.get("action") or (f"game {result.get('session')}" if result.get("kind") == "session" else "answered")
            events = len(result.get("events") or ())
            out.append(LogEntry("info", {**base, "message": f"{tool}: {did}" + (f" ({events} events)" if events else "")}))
        else:
            err = result.get("error") or {}
            level = "error" if err.get("rule") == "CORE-INTERNAL" else "notice"
            out.append(LogEntry(level, {**base, "message": f"{tool} refused [{err.get('rule')}]: {err.get('reason')}", "rule": err.get("rule")}))
        if result.get("bot_error"):
            out.append(LogEntry("warning", {**base, "message": str(result["bot_error"])}))
        out.append(LogEntry("debug", {**base, "message": f"{tool} took {self.took * 1000:.1f} ms", "ms": round(self.took * 1000, 2)}))
        return tuple(out)


#: a progress callback: (moves made so far, what was done)
Progress = Callable[[int, str], None]


class McpHost(ABC):
    """One MCP client's seat in its active game: tools, calls, resources, completions and prompt.

    Subclasses say where the games are: :attr:`game`, :attr:`seat` and :attr:`session_id` of the
    active game, its :meth:`current` session under its lock, :meth:`_play` (a game tool call for
    the seat), :meth:`session_ids` (the games the client may name), :meth:`stored_version` (a cheap
    token that changes when any seat moves) and :meth:`saved` (a game the client may read by id)."""

    PROMPT = "referee"
    #: what a game tool or a session resource answers while no game is active
    NO_GAME: ClassVar[str] = "No game in progress: start one with the new_game tool."
    #: action tools whose answer shows no game (the board app is not linked to them)
    NO_BOARD: ClassVar[frozenset[str]] = frozenset()
    #: what pinned the server to its game, said when another game is asked for (``{game}``: the pinned one)
    PINNED_BY: ClassVar[str] = ""

    def __init__(self, pinned: Game | None = None) -> None:
        self.pinned = pinned
        self.lock = threading.RLock()
        self.log_level = DEFAULT_LOG_LEVEL
        self.used = time.monotonic()
        self._specs: dict[str, ToolSpec] = {s.name: s for s in self._session_tools()}
        self._app: dict[str, ToolSpec] = {s.name: s for s in app.app_tools(self)}
        self._names: dict[tuple[str, bool], frozenset[str]] = {}

    # ---------------------------------------------------------- the subclass
    @property
    @abstractmethod
    def game(self) -> Game:
        """The active game (or the pinned one, else the default game, before one starts)."""

    @property
    @abstractmethod
    def seat(self) -> str | None:
        """The seat the client plays in its active game."""

    @property
    @abstractmethod
    def session_id(self) -> str | None:
        """The active game's session id."""

    @abstractmethod
    def _session_tools(self) -> list[ToolSpec]:
        """The tools that start, join, list and resume games (handlers take the parsed arguments)."""

    @abstractmethod
    def current(self, *, fresh: bool = True) -> AbstractContextManager[Session | None]:
        """The active session under its game's lock (``fresh``: first read what other processes
        stored), or ``None``."""

    @abstractmethod
    def _play(self, name: str, args: Mapping[str, Any] | str | None, progress: Progress | None) -> dict[str, Any]:
        """One game tool call for the client's seat in the active game."""

    @abstractmethod
    def session_ids(self) -> list[str]:
        """The games this client may name (``resume_session``, the prompt's ``session`` argument)."""

    @abstractmethod
    def stored_version(self) -> str | None:
        """A cheap token of the active game as stored (``session#records``): it changes whenever any
        seat moves, in this process or another; ``None`` without a game."""

    @abstractmethod
    def saved(self, session_id: str) -> AbstractContextManager[tuple[Session, str]]:
        """A game this client may read by id, with the seat the client plays in it (raises
        :class:`GameError` for one it may not)."""

    # ------------------------------------------------------------------ tools
    def games(self) -> list[Game]:
        """The games this server offers: the pinned one, else every registered game."""
        return [self.pinned] if self.pinned is not None else all_games()

    def tools(self, apps: bool = False) -> list[ToolSpec]:
        """The session tools, the board app's tools (``apps``: a client that renders MCP Apps), then
        the active game's tools (a game tool never shadows one of the others)."""
        own = [*self._specs.values(), *(self._app.values() if apps else ())]
        taken = {t.name for t in own} | set(self._app)
        return [*own, *(t for t in self.game.tools() if t.name not in taken)]

    def _offered(self, apps: bool) -> frozenset[str]:
        """The names :meth:`tools` lists (kept per game: a game's tool names do not depend on its rules)."""
        key = (self.game.id, apps)
        names = self._names.get(key)
        if names is None:
            names = self._names[key] = frozenset(t.name for t in self.tools(apps))
        return names

    def mcp_tools(self, apps: bool = False) -> list[dict[str, Any]]:
        """``tools/list`` entries (wire form, :func:`gm.core.schemas.to_mcp`) with read-only hints; for
        a client that renders MCP Apps, the tools that show the game link the board app
        (``_meta.ui``) and the app's own tools are listed, visible to the app only."""
        specs = self.tools(apps)
        out = []
        for spec, entry in zip(specs, to_mcp(specs), strict=True):
            entry["annotations"] = {"readOnlyHint": spec.kind == "query", "destructiveHint": False, "openWorldHint": False}
            if apps and spec.name not in self.NO_BOARD:
                meta = app.tool_meta(spec, app_only=spec.name in self._app)
                if meta is not None:
                    entry["_meta"] = meta
            out.append(entry)
        return out

    def input_schema(self, name: str) -> dict[str, Any] | None:
        for entry in self.mcp_tools(apps=True):
            if entry["name"] == name:
                schema: dict[str, Any] = entry["inputSchema"]
                return schema
        return None

    def call(self, name: Any, args: Mapping[str, Any] | str | None = None, *, apps: bool = False, progress: Progress | None = None) -> Reply:
        """Run one tool call for the client's seat.  Never raises.  ``apps``: the client renders the
        board app (its tools are callable, and a tool that shows the game answers with the app's view
        too); ``progress`` hears of every move the bots make meanwhile."""
        started = time.perf_counter()
        unknown = False
        with self.lock:
            self.used = time.monotonic()
            before = self.game.id
            try:
                result = self._call(name, args, apps, progress)
            except _Unknown as exc:
                unknown = True
                result = self._error(name, exc.error)
            except GameError as exc:
                result = self._error(name, exc)
            except Exception as exc:  # the last line of defence: nothing escapes a tool
                result = self._error(name, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))
            changed = self.game.id != before
            result = dict(result)  # made now, and plain: the MCP SDK's pydantic reads a dict's own storage
            view = None
            # (app_view answers with the view itself; every other tool that shows the game carries it)
            if apps and not unknown and isinstance(name, str) and (name == app.PLAY_TOOL or (name not in self.NO_BOARD and app.shows_game(name, self.tools()))):
                view = self._view_quietly()
        try:
            text = summary(result)
        except Exception:  # a summary must never cost the answer
            text = json.dumps(result, default=str)
        note = result.get("practice_note")
        if note and note not in text:  # (a refusal's text lists no extra fields)
            text = f"{note}\n{text}"
        tool = name if isinstance(name, str) else repr(name)[:100]
        return Reply(result, text, not result.get("ok"), changed, unknown, view, tool, self.session_id, self.seat, time.perf_counter() - started)

    def _call(self, name: Any, args: Mapping[str, Any] | str | None, apps: bool, progress: Progress | None) -> dict[str, Any]:
        spec = self._specs.get(name) if isinstance(name, str) else None
        if spec is None and apps and isinstance(name, str):
            spec = self._app.get(name)
        if spec is not None:
            return dict(spec.run(parse_args(spec, args)))
        if not isinstance(name, str) or name not in self._offered(apps):
            raise _Unknown(unknown_tool(name, self.tools(apps)))
        if self.session_id is None:
            raise GameError(self.NO_GAME, rule=MCP_RULE, input=name, legal=list(self._specs))
        return self._play(name, args, progress)

    def _error(self, tool: Any, exc: GameError) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": False,
            "tool": tool if isinstance(tool, str) else repr(tool)[:100],
            "seat": self.seat,
            "error": error_json(exc),
        }
        try:
            with self.current(fresh=False) as s:
                if s is not None and self.seat is not None:
                    out["status"] = s.game.status(s.state, self.seat)
                    out["expected"] = s.expected(self.seat)
                    out["commitments"] = s.commitments()
        except Exception:  # the refusal is the answer: what surrounds it is a courtesy
            pass
        return out

    def set_log_level(self, level: str) -> None:
        """The least severe level the client wants to hear (``logging/setLevel``)."""
        if level not in LOG_LEVELS:
            raise GameError("unknown log level", rule=MCP_RULE, input=str(level)[:50], legal=list(LOG_LEVELS))
        self.log_level = level

    def wants_log(self, level: str) -> bool:
        return LOG_LEVELS.index(level) >= LOG_LEVELS.index(self.log_level)

    # ----------------------------------------------------------- the board app
    def app_view(self) -> dict[str, Any] | None:
        """The board app's view of the active game, as the client's seat sees it (``None``: no game)."""
        with self.current(fresh=True) as s:
            if s is None or self.seat is None:
                return None
            return app.view_of(s, self.seat)

    def _view_quietly(self) -> dict[str, Any] | None:
        try:
            return self.app_view()
        except Exception:  # the view rides along with an answer; it never costs the answer
            return None

    def _app_view_tool(self, a: app.AppViewArgs) -> dict[str, Any]:
        view = self.app_view()
        return {"ok": True, "tool": app.VIEW_TOOL, "kind": "query", "seat": self.seat, "changed": view is None or view["version"] != a.since,
                "view": view, "note": None if view else self.NO_GAME}

    def _app_play_tool(self, a: app.AppPlayArgs) -> dict[str, Any]:
        from gm.core.tools import call_for_action

        with self.current(fresh=False) as s:
            if s is None:
                raise GameError(self.NO_GAME, rule=MCP_RULE, input=a.move, legal=list(self._specs))
            action = s.state.parse_action(a.move.strip())
            try:
                tool, args = call_for_action(s.tools, action)
            except KeyError:
                raise GameError(f"no tool makes '{action}'", rule=TOOL_RULE, input=a.move, legal=[t.name for t in s.tools if t.kind == "action"]) from None
        return self._play(tool, args, None)

    # -------------------------------------------------------------- resources
    def resources(self, apps: bool = False) -> list[ResourceInfo]:
        """The fixed resources: the active game's board and state as the seat sees them, its rules and
        quick start, and those of every game served; for a client that renders MCP Apps, the board app."""
        g = self.game
        out = [
            ResourceInfo("gm://session/board", "board", "Current board", "The active game's full board, status line and who must act, as your side sees it (subscribe: updated whenever any side moves).", "text/plain"),
            ResourceInfo("gm://session/state", "state", "Current state (JSON)", "Your side's view of the active game: status, state, log, commitments (subscribe: updated whenever any side moves).", "application/json"),
            ResourceInfo("gm://rules", "rules", f"{g.name}: rules", "The complete rules of the active game (its ruleset), with rule ids.", "text/markdown"),
            ResourceInfo("gm://quickstart", "quickstart", f"{g.name}: quick start", "The quick-start guide of the active game.", "text/markdown"),
        ]
        for other in self.games():
            out.append(ResourceInfo(f"gm://games/{other.id}/rules", f"rules-{other.id}", f"{other.name}: rules", f"The complete rules of {other.name} (default ruleset).", "text/markdown"))
            out.append(ResourceInfo(f"gm://games/{other.id}/quickstart", f"quickstart-{other.id}", f"{other.name}: quick start", f"The quick-start guide of {other.name}.", "text/markdown"))
        if apps:
            out.append(app.resource_info())
        return out

    def resource_templates(self) -> list[ResourceInfo]:
        ids = ", ".join(g.id for g in self.games())
        return [
            ResourceInfo("gm://games/{game}/rules", "game-rules", "Rules of a game", f"Complete rules of a game by id ({ids}).", "text/markdown"),
            ResourceInfo("gm://games/{game}/quickstart", "game-quickstart", "Quick start of a game", "The quick-start guide of a game by id.", "text/markdown"),
            ResourceInfo("gm://games/{game}/rules/{topic}", "game-rule", "Rules of a game on a topic", "The rules of a game (default ruleset) a rule id or a word names, each with its rule id.", "text/markdown"),
        ]

    def _served(self, asked: str) -> Game:
        g = find_game(asked)
        self._check_pinned(g, asked)
        return g

    def read_resource(self, uri: str) -> tuple[str, str]:
        """(text, mime type) of a resource; :class:`GameError` for an unknown URI."""
        if uri == app.APP_URI:
            return app.html(), app.APP_MIME
        if uri == "gm://session/board":
            return self._board_text(), "text/plain"
        if uri == "gm://session/state":
            with self.current() as s:
                view = self._seat_view(s) if s is not None else {"session": None, "note": self.NO_GAME}
            return json.dumps(view, indent=1, ensure_ascii=False), "application/json"
        if uri in ("gm://rules", "gm://quickstart"):
            with self.current(fresh=False) as s:
                g, rules = (s.game, s.state.rules) if s is not None else (self.game, None)
            return document(g, uri.removeprefix("gm://"), rules), "text/markdown"
        parts = uri.removeprefix("gm://games/").split("/")
        if uri.startswith("gm://games/") and len(parts) == 2 and parts[1] in ("rules", "quickstart"):
            return document(self._served(parts[0]), parts[1]), "text/markdown"
        if uri.startswith("gm://games/") and len(parts) == 3 and parts[1] == "rules" and parts[2]:
            from urllib.parse import unquote

            g = self._served(parts[0])
            topic = unquote(parts[2])
            found = rules_about(g, g.default_rules(), topic)
            if not found:
                raise GameError(f"no rule of {g.id} on that topic", rule=MCP_RULE, input=topic[:100], legal=sorted(g.rules_text())[:40])
            return "\n".join(f"{rid}: {text}" for rid, text in found.items()) + "\n", "text/markdown"
        raise GameError("no such resource", rule=MCP_RULE, input=uri[:200], legal=[r.uri for r in self.resources()])

    def _seat_view(self, s: Session) -> dict[str, Any]:
        """The client's seat's view of ``s`` (what ``gm://session/state`` and the board resource say)."""
        assert self.seat is not None
        return s.view(self.seat)

    def _board_text(self) -> str:
        with self.current() as s:
            seat = self.seat
            if s is None or seat is None:
                return self.NO_GAME
            view = self._seat_view(s)
            lines = [f"session {s.id} ({s.game.name}); you play {seat}", "", s.game.render(s.state, seat, full=True).rstrip("\n"), ""]
            if view.get("practice_note"):
                lines.insert(0, str(view["practice_note"]))
            lines.append(view["status"])
            lines.extend(f"{other} has locked a secret pick: commitment sha256 {d}" for other, d in view["commitments"].items())
            lines.append(next_line(view["expected"], seat))
            return "\n".join(lines)

    # ------------------------------------------------------------ completions
    def complete(self, ref: str, argument: str, value: str, context: Mapping[str, str] | None = None) -> list[str]:
        """Values for one argument of the ``referee`` prompt (``ref`` is the prompt's name) or of a
        resource template (``ref`` is its URI template) starting with ``value``: game ids and
        aliases, seats, session ids, rule ids and rule words.  Anything else: no values."""
        context = context or {}
        want = value.strip().lower()

        def game_of(asked: str | None) -> Game | None:
            try:
                return self._served(asked) if asked else self.game
            except GameError:
                return None

        values: list[str] = []
        prompt = ref == self.PROMPT
        templates = {t.uri for t in self.resource_templates()}
        if argument == "game" and (prompt or ref in templates):
            for g in self.games():
                values.extend([g.id, *(a for a in g.aliases if a != g.id)])
        elif argument == "seat" and prompt:
            named = game_of(context.get("game"))
            values = list(named.seats) if named is not None else []
        elif argument == "session" and prompt:
            values = self.session_ids()
        elif argument == "topic" and ref == "gm://games/{game}/rules/{topic}":
            named = game_of(context.get("game"))
            if named is not None:
                values = [*named.rules_text(), *sorted(named.rule_words)]
        return sorted({v for v in values if v.lower().startswith(want)}, key=lambda v: (v.lower(), v))[:MAX_COMPLETIONS]

    # ----------------------------------------------------------------- prompt
    def prompt_arguments(self) -> list[tuple[str, str]]:
        return [
            ("game", f"game id for a new game ({', '.join(g.id for g in self.games())}); empty: the active game"),
            ("seat", "the side the player takes in a new game; empty: the game's first side"),
            ("session", "a saved game to continue (its session id; list_sessions shows them); empty: the active game or a new one"),
        ]

    def prompt_description(self, game: str | None = None, session: str | None = None) -> str:
        """The description of the prompt for the game asked (a saved session's, or the active one)."""
        if session:
            with self.saved(session) as (s, _):
                name = s.game.name
        else:
            name = (self._served(game) if game else self.game).name
        return f"Referee of {name}"

    def referee_prompt(self, game: str | None = None, seat: str | None = None, session: str | None = None) -> str:
        """The prompt that sets a client up as the referee: of a saved session, of the active game, or
        of a new game of ``game`` with the player on ``seat``."""
        from gm.mcp_server.prompt import referee_prompt

        if session:
            with self.saved(session) as (s, mine):
                return referee_prompt(s.game, s.state.rules, mine, dict(s.players), session_id=s.id, tools=s.tools)
        with self.lock:
            g = self._served(game) if game else self.game
            with self.current(fresh=False) as s:
                if s is not None and s.game.id == g.id and self.seat and (not seat or seat.strip().lower() == self.seat):
                    return referee_prompt(g, s.state.rules, self.seat, dict(s.players), session_id=s.id, tools=s.tools)
            side = check_seat(g, seat)
            players = seat_players(g, side)
            return referee_prompt(g, g.default_rules(), side, players, session_id=None, tools=g.tools())

    # ---------------------------------------------------------------- shared
    def _check_pinned(self, g: Game, asked: str | None) -> None:
        if self.pinned is not None and g.id != self.pinned.id:
            how = self.PINNED_BY.format(game=self.pinned.id)
            raise GameError(
                f"this server plays {self.pinned.id} only{how}; start another for {g.id}",
                rule=MCP_RULE,
                input=asked,
                legal=[self.pinned.id],
            )

    def _session_result(self, tool: str, view: Mapping[str, Any], events: Sequence[Mapping[str, Any]] | None = None, **extra: Any) -> dict[str, Any]:
        """What new_game, join_game and resume_session answer: the game and the seat's view of it."""
        out: dict[str, Any] = {
            "ok": True,
            "tool": tool,
            "kind": "session",
            "seat": view["seat"],
            "session": view["session"],
            "game": view["game"],
            "game_name": find_game(view["game"]).name,
            "players": view["players"],
            "seed": view["seed"],
            "practice": view["practice"],
            **({"practice_note": view["practice_note"]} if view.get("practice_note") else {}),
            "seed_commitment": view["seed_commitment"],
            "rules_hash": view["rules_hash"],
            "moves": len(view["log"]),
        }
        if events is not None:
            out["events"] = list(events)
            out["narration"] = [e.get("text", "") for e in events]
        out.update({
            "board": view["board"],
            "status": view["status"],
            "expected": view["expected"],
            "commitments": view["commitments"],
            "outcome": view["outcome"],
            "tools": view["tools"],
            **extra,
        })
        notes = []
        if view["practice"] and not view.get("practice_note"):  # (a practice note says it already)
            notes.append("practice game: the seed is known, so the bot's picks are predictable")
        if extra.get("token"):
            notes.append("keep your seat token: resume_session with it continues this game from any connection")
        if notes:
            out["note"] = "; ".join(notes)
        return out


class _Unknown(Exception):
    """A tool name the client was never offered (the server answers it as a protocol error)."""

    def __init__(self, error: GameError) -> None:
        super().__init__(error.message)
        self.error = error


def seat_view(s: Session, seat: str) -> dict[str, Any]:
    """The seat's view of a session with its compact board and the session's tool names."""
    view = s.view(seat)
    view["board"] = s.game.render(s.state, seat)
    view["tools"] = [t.name for t in s.tools]
    return view


class GameHost(McpHost):
    """``gm mcp`` over stdio: one client's sessions in ``$GM_HOME/sessions``, every other seat a bot."""

    NO_GAME = "No game in progress: start one with the new_game tool, or continue one with resume_session (list_sessions shows them)."
    PINNED_BY = " (gm mcp --game {game})"

    def __init__(
        self,
        *,
        game: str | None = None,
        session: str | None = None,
        seat: str | None = None,
        home: str | Path | None = None,
    ) -> None:
        """``game`` pins the server to one game; ``session`` (id, prefix or path) is resumed at once,
        played as ``seat`` (default: its only human seat).  Raises :class:`GameError` for a bad game,
        session or seat (the CLI prints one line)."""
        self.home = Path(home).expanduser() if home is not None else None
        self.session: Session | None = None
        self._seat: str | None = None
        super().__init__(find_game(game) if game else None)
        if session is not None:
            self._activate(Session.open(session, home=self.home), seat)

    def _session_tools(self) -> list[ToolSpec]:
        return [
            ToolSpec("new_game", "Start a new game (a saved session): you play one side, the built-in bot plays the others. Returns the session id, the board and what you decide first.", NewGameArgs, "action", self._new_game),
            ToolSpec("list_sessions", "List saved sessions (newest first) with their game, players and number of moves.", ListSessionsArgs, "query", self._list_sessions),
            ToolSpec("resume_session", "Continue a saved session by id (e.g. after a restart): it becomes the game the other tools act on.", ResumeArgs, "action", self._resume),
        ]

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        if self.session is not None:
            return self.session.game
        return self.pinned or default_game()

    @property
    def seat(self) -> str | None:
        return self._seat

    @property
    def session_id(self) -> str | None:
        return self.session.id if self.session is not None else None

    @contextmanager
    def current(self, *, fresh: bool = True) -> Iterator[Session | None]:
        with self.lock:
            s = self.session
            if s is not None and fresh:
                s.refresh()
            yield s

    def _play(self, name: str, args: Mapping[str, Any] | str | None, progress: Progress | None) -> dict[str, Any]:
        s = self.session
        assert s is not None
        with _reporting(s, progress):
            return s.call(name, args, self._seat, board=True)

    def _store(self) -> FileStore:
        return FileStore(self.home)

    def session_ids(self) -> list[str]:
        store = self._store()
        ids = store.ids()
        if self.pinned is None:
            return ids
        out = []
        for sid in ids[-500:]:
            try:
                if store.info(sid).game == self.pinned.id:
                    out.append(sid)
            except GameError:
                continue
        return out

    def stored_version(self) -> str | None:
        s = self.session
        if s is None:
            return None
        count = getattr(s.store, "records", None)
        try:
            stored = count(s.id) if callable(count) else s.store.info(s.id).moves
        except GameError:
            return f"{s.id}#gone"
        return f"{s.id}#{stored}"

    @contextmanager
    def saved(self, session_id: str) -> Iterator[tuple[Session, str]]:
        sid = check_id(session_id.strip())  # an id or a prefix of one, never a path or a pattern
        with self.lock:
            if self.session is not None and self.session.id == sid:
                assert self._seat is not None
                yield self.session, self._seat
                return
            s = Session.open(sid, store=self._store(), record=False)
            self._check_pinned(s.game, s.game.id)
            yield s, self._human_seat(s, None)

    # -------------------------------------------------------- session tools
    def _new_game(self, a: NewGameArgs) -> dict[str, Any]:
        g = find_game(a.game) if a.game else self.game
        self._check_pinned(g, a.game)
        seat = check_seat(g, a.seat)
        if (a.opponent or "").strip().lower() == "human":
            raise GameError(
                "an MCP client plays one side and the built-in bot the others (a game between people: gm new and gm play, or gm serve)",
                rule=MCP_RULE,
                input=a.opponent,
                legal=sorted(g.strategies()),
            )
        players = seat_players(g, seat, opponent=a.opponent)
        s = Session.create(g, seed=a.seed, rules=a.rules, players=players, home=self.home, referee="mcp")
        self._activate(s, seat)
        return self._result("new_game", s, s.opening_events)

    def _resume(self, a: ResumeArgs) -> dict[str, Any]:
        sid = check_id(a.session_id.strip())  # an id or a prefix of one, never a path or a pattern
        s = Session.open(sid, store=self._store())
        self._check_pinned(s.game, s.game.id)
        self._activate(s, None)
        s.set_referee("mcp")
        result = self._result("resume_session", s, s.advance())
        result["log"] = s.log(self._seat)[-12:]
        return result

    def _result(self, tool: str, s: Session, events: list[dict[str, Any]]) -> dict[str, Any]:
        assert self._seat is not None
        out = self._session_result(tool, seat_view(s, self._seat), events)
        if s.bot_error:
            out["bot_error"] = s.bot_error
        return out

    @staticmethod
    def _human_seat(s: Session, seat: str | None) -> str:
        humans = s.human_seats
        if seat is None:
            if len(humans) != 1:
                raise GameError(
                    f"session {s.id} has {len(humans)} human sides; an MCP client plays exactly one "
                    f"(the operator may choose: gm mcp --session {s.id} --seat SIDE)",
                    rule=SEAT_RULE,
                    input=s.id,
                    legal=humans,
                )
            return humans[0]
        if seat not in s.game.seats:
            raise GameError(f"{s.game.id} has no side {seat!r}", rule=SEAT_RULE, input=seat, legal=list(s.game.seats))
        if seat not in humans:
            raise GameError(f"{seat} is played by {s.players[seat]} in session {s.id}", rule=SEAT_RULE, input=seat, legal=humans)
        return seat

    def _activate(self, s: Session, seat: str | None) -> None:
        seat = self._human_seat(s, seat)
        self.session, self._seat = s, seat

    def _list_sessions(self, a: ListSessionsArgs) -> dict[str, Any]:
        want = find_game(a.game).id if a.game else (self.pinned.id if self.pinned else None)
        store = self._store()
        found: list[tuple[float, dict[str, Any]]] = []
        for sid in store.ids():
            try:
                info = store.info(sid)
            except GameError as exc:  # an unreadable file is listed, not skipped
                found.append((0.0, {"id": sid, "error": exc.reason[:200]}))
                continue
            if want is None or info.game == want:
                found.append((info.updated, _session_row(info)))
        found.sort(key=lambda item: item[0], reverse=True)
        rows = [row for _, row in found[: a.limit or 20]]
        return {
            "ok": True,
            "tool": "list_sessions",
            "kind": "query",
            "seat": self._seat,
            "active": self.session.id if self.session else None,
            "sessions": rows,
        }


@contextmanager
def _reporting(s: Session, progress: Progress | None) -> Iterator[None]:
    """While a call runs, every bot move of ``s`` is reported to ``progress`` (only that it moved: a
    bot's pick may be secret)."""
    if progress is None:
        yield
        return
    made = 0

    def moved(seat: str) -> None:
        nonlocal made
        made += 1
        progress(made, f"{seat} ({s.players.get(seat, 'bot')}) has moved")

    s.on_bot_move = moved
    try:
        yield
    finally:
        s.on_bot_move = None


def _session_row(info: SessionInfo) -> dict[str, Any]:
    """What list_sessions shows of a session: its header and a count of records (no replay)."""
    humans = [seat for seat, p in info.players.items() if p == "human"]
    return {
        "id": info.id,
        "game": info.game,
        "players": info.players,
        "you": humans[0] if len(humans) == 1 else None,
        "moves": info.moves,
        "created": info.created,
        "updated": datetime.fromtimestamp(info.updated, UTC).isoformat(timespec="seconds"),
    }


def document(game: Game, doc: str, rules: Any = None) -> str:
    """The rules or quick start of ``game`` under ``rules``: its export templates (``gm export``).
    A game without them is an :class:`~gm.export.ExportError` naming what is missing."""
    from gm.export import render_doc

    return render_doc(game, doc, rules)


__all__ = [
    "DEFAULT_LOG_LEVEL", "LOG_LEVELS", "MCP_RULE", "SESSION_TOOLS", "GameHost", "LogEntry", "McpHost", "Reply",
    "ResourceInfo", "document", "seat_view",
]
