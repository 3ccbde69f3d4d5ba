"""The game host behind ``gm mcp``: tools, resources and prompt, without the MCP SDK.

One :class:`GameHost` serves one MCP client (a chatbot acting as referee) that
plays **one seat**; every other seat of its games is a built-in bot.

- **Tools** are the registry's: the session-management tools below plus the
  active game's ``Game.tools()`` (schemas from :mod:`gm.core.schemas`).  Game tools
  go through ``session.call(tool, args, seat)`` with the client's seat and nothing
  else: no tool takes a seat, so a call can never act for a bot or read its
  pending pick, and a bot choosing alongside the client commits (SHA-256) before
  the client's choice arrives (:class:`gm.session.Session` does that).
- **Sessions** persist in ``$GM_HOME/sessions`` like ``gm call``; a restarted
  server continues one with ``resume_session``.  The active game is the game of
  the active session (``--game`` pins it); when it changes, the tool list changes.
- Nothing raises out of :meth:`GameHost.call`: every answer is a JSON-ready dict,
  ``ok: false`` with rule id, reason and legal options for a rejection.

The SDK wiring lives in :mod:`gm.mcp_server.server`.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import Field

from gm.core.errors import GameError
from gm.core.game import Game, ruleset_hash
from gm.core.registry import all_games, default_game, find_game, game_ids
from gm.core.schemas import to_mcp
from gm.core.tools import ToolArgs, ToolSpec, parse_args, unknown_tool
from gm.mcp_server.text import next_line, summary
from gm.session import SEAT_RULE, FileStore, Session, normalise_player
from gm.session.store import SessionInfo, check_id

#: rule id of the server's own refusals (no game in progress, a pinned game, a seat it cannot play)
MCP_RULE = "CORE-MCP"
SESSION_TOOLS = ("new_game", "list_sessions", "resume_session")


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
class Reply:
    """One tool answer: the result dict (structured content), its text, and whether the tool list changed."""

    result: dict[str, Any]
    text: str
    is_error: bool
    tools_changed: bool = False


@dataclass(frozen=True)
class ResourceInfo:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str


class GameHost:
    """Sessions, tools, resources and the referee prompt for one MCP client's seat."""

    def __init__(
        self,
        *,
        game: str | None = None,
        session: str | None = None,
        seat: str | None = None,
        home: str | Path | None = None,
    ) -> None:
        """``game`` pins the server to one game; ``session`` (id, prefix or path) is
        resumed at once, played as ``seat`` (default: its only human seat).  Raises
        :class:`GameError` for a bad game, session or seat (the CLI prints one line)."""
        self.home = Path(home).expanduser() if home is not None else None
        self.pinned: Game | None = find_game(game) if game else None
        self.session: Session | None = None
        self.seat: str | None = None
        self._lock = threading.RLock()
        self._specs: dict[str, ToolSpec] = {
            s.name: s
            for s in (
                ToolSpec("new_game", "Start a new game (a saved session): you play one side, the built-in bot plays the others. Returns the session id, the board and what you decide first.", NewGameArgs, "action", self._new_game),
                ToolSpec("list_sessions", "List saved sessions (newest first) with their game, players and number of moves.", ListSessionsArgs, "query", self._list_sessions),
                ToolSpec("resume_session", "Continue a saved session by id (e.g. after a restart): it becomes the game the other tools act on.", ResumeArgs, "action", self._resume),
            )
        }
        if session is not None:
            self._activate(Session.open(session, home=self.home), seat)

    # ------------------------------------------------------------------ tools
    @property
    def game(self) -> Game:
        """The active game: the active session's, else the pinned one, else the default game."""
        if self.session is not None:
            return self.session.game
        return self.pinned or default_game()

    def tools(self) -> list[ToolSpec]:
        """The session tools, then the active game's tools (a game tool never shadows a session tool)."""
        game_tools = [t for t in self.game.tools() if t.name not in self._specs]
        return [*self._specs.values(), *game_tools]

    def mcp_tools(self) -> list[dict[str, Any]]:
        """``tools/list`` entries (wire form, :func:`gm.core.schemas.to_mcp`) with read-only hints."""
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
        """Run one tool call for the client's seat.  Never raises."""
        with self._lock:
            before = self.game.id
            try:
                result = self._call(name, args)
            except GameError as exc:
                result = self._error(name, exc)
            except Exception as exc:  # the last line of defence: nothing escapes a tool
                result = self._error(name, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))
            changed = self.game.id != before
            result = dict(result)  # made now, and plain: the MCP SDK's pydantic reads a dict's own storage
        try:
            text = summary(result)
        except Exception:  # a summary must never cost the answer
            text = json.dumps(result, default=str)
        return Reply(result, text, not result.get("ok"), changed)

    def _call(self, name: Any, args: Mapping[str, Any] | str | None) -> dict[str, Any]:
        spec = self._specs.get(name) if isinstance(name, str) else None
        if spec is not None:
            handler: Callable[[Any], dict[str, Any]] = spec.handler
            return handler(parse_args(spec, args))
        if self.session is None:
            if isinstance(name, str) and any(t.name == name for t in self.game.tools()):
                raise GameError(
                    "no game in progress: start one with new_game, or continue a saved one with resume_session",
                    rule=MCP_RULE,
                    input=name,
                    legal=list(SESSION_TOOLS),
                )
            raise unknown_tool(name, self.tools())
        return self.session.call(name, args, self.seat, board=True)

    def _error(self, tool: Any, exc: GameError) -> dict[str, Any]:
        raw = exc.to_json()
        out: dict[str, Any] = {
            "ok": False,
            "tool": tool if isinstance(tool, str) else repr(tool),
            "seat": self.seat,
            "error": {"kind": raw.pop("error"), **raw},
        }
        if self.session is not None:
            try:
                out["status"] = self.session.game.status(self.session.state, self.seat)
                out["expected"] = self.session.expected(self.seat)
                out["commitments"] = self.session.commitments()
            except Exception:
                pass
        return out

    # -------------------------------------------------------- session tools
    def _new_game(self, a: NewGameArgs) -> dict[str, Any]:
        g = find_game(a.game) if a.game else self.game
        self._check_pinned(g, a.game)
        seat = a.seat.strip().lower() if a.seat else g.seats[0]
        if seat not in g.seats:
            raise GameError(f"{g.id} has no side {a.seat!r}", rule=SEAT_RULE, input=a.seat, legal=list(g.seats))
        spec = (a.opponent or "default").strip().lower()
        if spec == "human":
            raise GameError(
                "an MCP client plays one side and the built-in bot the others (a game between people: gm new and gm play)",
                rule=MCP_RULE,
                input=a.opponent,
                legal=sorted(g.bots()),
            )
        opponent = normalise_player(g, spec if spec.startswith("bot") else f"bot:{spec}")
        players = {s: "human" if s == seat else opponent for s in g.seats}
        s = Session.create(g, seed=a.seed, rules=a.rules, players=players, home=self.home, referee="mcp")
        self._activate(s, seat)
        return self._session_result("new_game", s, s.opening_events)

    def _resume(self, a: ResumeArgs) -> dict[str, Any]:
        sid = check_id(a.session_id.strip())  # an id or a prefix of one, never a path or a pattern
        s = Session.open(sid, store=FileStore(self.home))
        self._check_pinned(s.game, s.game.id)
        self._activate(s, None)
        s.set_referee("mcp")
        result = self._session_result("resume_session", s, s.advance())
        result["log"] = s.log(self.seat)[-12:]
        return result

    def _activate(self, s: Session, seat: str | None) -> None:
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
            seat = humans[0]
        if seat not in s.game.seats:
            raise GameError(f"{s.game.id} has no side {seat!r}", rule=SEAT_RULE, input=seat, legal=list(s.game.seats))
        if seat not in humans:
            raise GameError(f"{seat} is played by {s.players[seat]} in session {s.id}", rule=SEAT_RULE, input=seat, legal=humans)
        self.session, self.seat = s, seat

    def _check_pinned(self, g: Game, asked: str | None) -> None:
        if self.pinned is not None and g.id != self.pinned.id:
            raise GameError(
                f"this server plays {self.pinned.id} only (gm mcp --game {self.pinned.id}); start another for {g.id}",
                rule=MCP_RULE,
                input=asked,
                legal=[self.pinned.id],
            )

    def _session_result(self, tool: str, s: Session, events: list[dict[str, Any]]) -> dict[str, Any]:
        seat = self.seat
        view = s.view(seat)
        out: dict[str, Any] = {
            "ok": True,
            "tool": tool,
            "kind": "session",
            "seat": seat,
            "session": s.id,
            "game": s.game.id,
            "game_name": s.game.name,
            "players": dict(s.players),
            "seed": s.public_seed,
            "practice": s.practice,
            "seed_commitment": None if s.practice else s.seed_commitment,
            "rules_hash": ruleset_hash(s.state.rules),
            "moves": len(s.state.log),
            "events": events,
            "narration": [e.get("text", "") for e in events],
            "board": s.game.render(s.state, seat),
            "status": view["status"],
            "expected": view["expected"],
            "commitments": view["commitments"],
            "outcome": view["outcome"],
            "tools": [t.name for t in s.tools],
        }
        if s.practice:
            out["note"] = "practice game: the seed is known, so the bot's picks are predictable"
        if s.bot_error:
            out["bot_error"] = s.bot_error
        return out

    def _list_sessions(self, a: ListSessionsArgs) -> dict[str, Any]:
        want = find_game(a.game).id if a.game else (self.pinned.id if self.pinned else None)
        store = FileStore(self.home)
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
            "seat": self.seat,
            "active": self.session.id if self.session else None,
            "sessions": rows,
        }

    # -------------------------------------------------------------- resources
    def resources(self) -> list[ResourceInfo]:
        """The fixed resources: the active session's board and state, the active game's
        rules and quick start, and every game's rules and quick start."""
        g = self.game
        out = [
            ResourceInfo("gm://session/board", "board", "Current board", "The active game's full board, status line and who must act, as your side sees it.", "text/plain"),
            ResourceInfo("gm://session/state", "state", "Current state (JSON)", "Your side's view of the active session: status, state, log, commitments.", "application/json"),
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

    def read_resource(self, uri: str) -> tuple[str, str]:
        """(text, mime type) of a resource; :class:`GameError` for an unknown URI."""
        with self._lock:
            if uri == "gm://session/board":
                return self._board_text(), "text/plain"
            if uri == "gm://session/state":
                view = self.session.view(self.seat) if self.session else {"session": None, "note": _NO_SESSION}
                return json.dumps(view, indent=1, ensure_ascii=False), "application/json"
            if uri in ("gm://rules", "gm://quickstart"):
                rules = self.session.state.rules if self.session else None
                return document(self.game, uri.removeprefix("gm://"), rules), "text/markdown"
            parts = uri.removeprefix("gm://games/").split("/")
            if uri.startswith("gm://games/") and len(parts) == 2 and parts[1] in ("rules", "quickstart"):
                return document(find_game(parts[0]), parts[1]), "text/markdown"
        raise GameError("no such resource", rule=MCP_RULE, input=uri, legal=[r.uri for r in self.resources()])

    def _board_text(self) -> str:
        s = self.session
        if s is None:
            return _NO_SESSION
        view = s.view(self.seat)
        lines = [f"session {s.id} ({s.game.name}); you play {self.seat}", "", s.game.render(s.state, self.seat, full=True).rstrip("\n"), ""]
        lines.append(view["status"])
        lines.extend(f"{seat} has locked a secret pick: commitment sha256 {d}" for seat, d in view["commitments"].items())
        lines.append(next_line(view["expected"], self.seat))
        return "\n".join(lines)

    # ----------------------------------------------------------------- prompt
    PROMPT = "referee"

    def prompt_arguments(self) -> list[tuple[str, str]]:
        return [
            ("game", f"game id for a new game ({', '.join(game_ids())}); empty: the active game"),
            ("seat", "the side the player takes in a new game; empty: the game's first side"),
        ]

    def referee_prompt(self, game: str | None = None, seat: str | None = None) -> str:
        """The prompt that sets a client up as the referee (of the active session, or of a new game)."""
        from gm.mcp_server.prompt import referee_prompt

        with self._lock:
            s = self.session
            g = find_game(game) if game else self.game
            if s is not None and s.game.id == g.id and (not seat or seat == self.seat):
                return referee_prompt(g, s.state.rules, self.seat or g.seats[0], dict(s.players), session_id=s.id, tools=s.tools)
            side = seat.strip().lower() if seat else g.seats[0]
            if side not in g.seats:
                raise GameError(f"{g.id} has no side {seat!r}", rule=SEAT_RULE, input=seat, legal=list(g.seats))
            players = {x: "human" if x == side else "bot:default" for x in g.seats}
            return referee_prompt(g, g.default_rules(), side, players, session_id=None, tools=g.tools())


_NO_SESSION = "No game in progress: start one with the new_game tool, or continue one with resume_session (list_sessions shows them)."


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


__all__ = ["MCP_RULE", "SESSION_TOOLS", "GameHost", "Reply", "ResourceInfo", "document"]
