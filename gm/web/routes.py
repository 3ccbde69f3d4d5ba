"""The page's routes, added to ``gm serve``'s app by :func:`page_routes`.

- ``GET /`` — the page (``static/index.html``); ``/static/...`` — its modules and style;
- ``GET /api/games/{id}/table?since=N`` — everything the page draws for your seat, in one answer
  (:mod:`gm.web.table`): board geometry (``Game.board_json``), status, the move builder
  (``Game.move_builder``), the text board, and the story since move ``N``;
- ``POST /api/games/{id}/move`` — ``{"tool": ..., "args": {...}, "since": N}``: a move built by
  pointing (the game's tool call), answered with the table;
- ``POST /api/games/{id}/say`` — ``{"text": "...", "referee": "offline" | "llm", "since": N}``: the
  player's words to a referee, which turns them into the game's tool calls (the same tools as
  ``/call``); answered with its reply and the table; with ``Accept: text/event-stream`` the narration
  streams as it is written (``delta`` events, then one ``result`` event with the same JSON);
  ``GET /api/referees`` says whether the server has an LLM referee;
- ``GET /api/games/{id}/board`` — the board for your seat as geometry, with the ASCII boards;
- ``GET /api/rules/{game}`` — the ruleset's simple fields, for the house-rules form (the server
  validates a new game's rules itself, with the CLI's errors);
- ``GET /api/transcripts`` and ``GET /api/transcripts/{game}/{name}`` — the recorded games of the
  corpus, replayed step by step with the board drawn (:mod:`gm.web.replay`).

Every game route takes the seat token (``Authorization: Bearer``), as the rest of the API.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gm.core.errors import GameError, http_error
from gm.server.hub import Denied, GameHub, Grant
from gm.web import STATIC
from gm.web.table import Stories, move, read_table
from gm.web.table import say as table_say

if TYPE_CHECKING:
    from gm.referee.base import Referee
    from gm.server.app import ServerState

#: the longest message the page may send the referee
MAX_SAY = 500
#: answers longer than this go gzipped to a client that takes it (a move builder's rows compress ~8x)
GZIP_OVER = 2048
#: what the page's responses may load: itself only (no CDN, no inline script)
CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"


class _Static(StaticFiles):
    """Static files with the page's content-security policy and no caching surprises."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        response.headers["Content-Security-Policy"] = CSP
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


def board_payload(hub: GameHub, grant: Grant) -> dict[str, Any]:
    """The board for the grant's seat: geometry, ASCII (compact and full), status."""
    with hub.game(grant.session) as s:
        st = s.state
        return {
            "ok": True,
            "session": s.id,
            "game": s.game.id,
            "seat": grant.seat,
            "moves": len(st.log),
            "status": s.game.status(st, grant.seat),
            "board": s.game.board_json(st, grant.seat),
            "ascii": s.game.render(st, grant.seat),
            "ascii_full": s.game.render(st, grant.seat, full=True),
        }


class LLMReferees:
    """The LLM referee of the page, when the server has one: ``$GM_WEB_REFEREE`` (``openai`` or
    ``anthropic``; model ``$GM_WEB_REFEREE_MODEL``, else the provider's default; the output cap of
    each reply ``$GM_WEB_REFEREE_MAX_TOKENS``; keys and ``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL``
    as for ``gm play --referee``).  One referee per game and seat (a referee keeps the conversation
    it had), the most recent ``size`` kept."""

    def __init__(self, factory: Callable[[], Referee] | None = None, size: int = 256) -> None:
        self.factory = factory
        self.size = size
        self._made: OrderedDict[tuple[str, str], Referee] = OrderedDict()
        self._lock = threading.Lock()
        self.error: str | None = None

    @classmethod
    def from_env(cls) -> LLMReferees:
        provider = os.environ.get("GM_WEB_REFEREE", "").strip().lower()
        if not provider or provider == "offline":
            return cls()
        model = os.environ.get("GM_WEB_REFEREE_MODEL") or None
        cap = os.environ.get("GM_WEB_REFEREE_MAX_TOKENS", "").strip()
        max_tokens = int(cap) if cap.isdigit() and int(cap) > 0 else None

        def make() -> Referee:
            from gm.referee.llm import build_referee

            return build_referee(provider, model=model, max_tokens=max_tokens)

        return cls(make)

    @property
    def available(self) -> bool:
        return self.factory is not None

    def describe(self) -> dict[str, Any]:
        return {"llm": self.available, "kind": os.environ.get("GM_WEB_REFEREE") if self.available else None}

    def get(self, grant: Grant) -> Referee:
        assert self.factory is not None
        key = (grant.session, grant.seat)
        with self._lock:
            ref = self._made.get(key)
            if ref is not None:
                self._made.move_to_end(key)
                return ref
        ref = self.factory()  # MissingKeyError (no API key) reaches the caller
        with self._lock:
            self._made[key] = ref
            while len(self._made) > self.size:
                self._made.popitem(last=False)
        return ref


def say(hub: GameHub, grant: Grant, text: str, referee: Referee | None = None, since: int | None = None,
        stories: Stories | None = None, on_text: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The player's words to a referee (default the offline one), which calls the game's tools for
    the seat; the answer carries its reply and the table (:func:`gm.web.table.say`)."""
    return table_say(hub, grant, text, referee, since, stories, on_text)


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n"


async def say_events(hub: GameHub, grant: Grant, text: str, referee: Referee | None, since: int | None,
                     stories: Stories) -> AsyncIterator[str]:
    """:func:`say` as server-sent events: ``delta`` (``{"text": piece}``) as the narration is written,
    then one ``result`` with :func:`say`'s JSON (its ``narration`` is the deltas' text, joined); a
    failure after the stream began is one ``error`` event (``{"status", "message"}``)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()

    def put(item: tuple[str, Any] | None) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, item)

    def work() -> None:
        try:
            put(("result", say(hub, grant, text, referee, since, stories, on_text=lambda piece: put(("delta", {"text": piece})))))
        except Denied as exc:
            put(("error", {"status": exc.status, "message": exc.message}))
        except GameError as exc:
            put(("error", http_error(exc)))
        except Exception as exc:  # never a traceback on the wire: one line, the stream ends
            put(("error", {"status": 500, "message": f"the referee failed: {type(exc).__name__}"}))
        finally:
            put(None)

    task = asyncio.ensure_future(run(work))
    try:
        while (item := await queue.get()) is not None:
            yield _event(*item)
    finally:
        await task


async def run(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``func`` in a worker thread (the engine thinks, the store answers): the event loop stays free."""
    return await anyio.to_thread.run_sync(partial(func, *args, **kwargs))


def json_answer(request: Request, data: Any, status: int = 200) -> Response:
    """JSON, gzipped when it is long and the client takes gzip (the page always does)."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    headers = {"Cache-Control": "no-store"}
    if len(body) > GZIP_OVER and "gzip" in request.headers.get("accept-encoding", ""):
        body = gzip.compress(body, 5)
        headers["Content-Encoding"] = "gzip"
        headers["Vary"] = "Accept-Encoding"
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def since_of(value: Any) -> int | None:
    """The page's ``since`` (moves it has told): a whole number from 0, else ``None`` (none told)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 10:
        return int(value)
    return None


def rules_form(game_id: str) -> dict[str, Any]:
    """The ruleset's top-level fields a form can edit (numbers, words, yes/no, a choice), with their
    defaults, bounds and descriptions."""
    from gm.core.registry import find_game

    game = find_game(game_id)
    defaults = game.default_rules()
    schema = type(defaults).model_json_schema()
    fields = []
    for name, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        enum = prop.get("enum")
        if kind not in ("integer", "number", "string", "boolean") and not enum:
            continue
        entry: dict[str, Any] = {"name": name, "type": kind or "string", "default": getattr(defaults, name, prop.get("default"))}
        for key in ("minimum", "maximum", "maxLength", "description", "title"):
            if key in prop:
                entry[key] = prop[key]
        if enum:
            entry["enum"] = enum
        fields.append(entry)
    return {"ok": True, "game": game.id, "fields": fields}


def page_routes(state: ServerState, referees: LLMReferees | None = None) -> list[Route | Mount]:
    """The page and its routes (the API's conventions: JSON errors, bearer seat tokens)."""
    from gm.server.guard import bearer, credential_key, json_endpoint, read_json, verified

    hub = state.hub
    llm = referees if referees is not None else LLMReferees.from_env()
    stories = Stories()

    async def authorize(request: Request) -> Grant:
        token = bearer(request.scope)
        grant: Grant = await run(hub.authorize, token, request.path_params.get("session"))
        if token:
            verified(request.scope, credential_key(token))  # (its requests count against its own rate bucket)
        meta = request.scope.get("gm")
        if meta is not None:
            meta["game"], meta["seat"] = grant.session, grant.seat
        return grant

    handle = json_endpoint

    async def index(request: Request) -> Response:
        return FileResponse(
            STATIC / "index.html",
            headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"},
        )

    async def board(request: Request) -> Response:
        grant = await authorize(request)
        return JSONResponse(await run(board_payload, hub, grant))

    async def table(request: Request) -> Response:
        grant = await authorize(request)
        return json_answer(request, await run(read_table, hub, grant, since_of(request.query_params.get("since")), stories))

    async def make_move(request: Request) -> Response:
        grant = await authorize(request)
        body = await read_json(request)
        tool, args = body.get("tool"), body.get("args")
        if not isinstance(tool, str) or not tool or len(tool) > 80:
            raise Denied(400, 'give the move\'s tool call: {"tool": NAME, "args": {...}}')
        if args is not None and not isinstance(args, dict):
            raise Denied(400, "args must be an object")
        meta = request.scope.get("gm")
        if meta is not None:
            meta["tool"] = tool
        return json_answer(request, await run(move, hub, grant, tool, args or {}, since_of(body.get("since")), stories))

    async def talk(request: Request) -> Response:
        grant = await authorize(request)
        body = await read_json(request)
        text = body.get("text")
        if not isinstance(text, str) or not text.strip():
            raise Denied(400, 'say something: {"text": "..."}')
        if len(text) > MAX_SAY:
            raise Denied(400, f"a message has at most {MAX_SAY} characters")
        meta = request.scope.get("gm")
        if meta is not None:
            meta["tool"] = "say"
        which = body.get("referee", "llm" if llm.available else "offline")
        if which not in ("offline", "llm"):
            raise Denied(400, "referee is offline or llm")
        referee = None
        if which == "llm":
            if not llm.available:
                raise Denied(400, "this server has no LLM referee ($GM_WEB_REFEREE): use the offline one")
            try:
                referee = llm.get(grant)
            except Exception as exc:  # no API key, a bad provider: say so, the offline referee still works
                raise Denied(503, f"the LLM referee is not available: {exc}") from None
        since = since_of(body.get("since"))
        if "text/event-stream" in request.headers.get("accept", ""):  # the narration as it is written
            return StreamingResponse(say_events(hub, grant, text, referee, since, stories), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
        return json_answer(request, await run(say, hub, grant, text, referee, since, stories))

    async def referees_info(request: Request) -> Response:
        return JSONResponse({"ok": True, **llm.describe()})

    async def rules(request: Request) -> Response:
        return JSONResponse(await run(rules_form, request.path_params["game"]))

    async def transcripts(request: Request) -> Response:
        from gm.web.replay import corpus

        return JSONResponse({"ok": True, "transcripts": await run(corpus)})

    async def transcript(request: Request) -> Response:
        from gm.web.replay import steps

        return JSONResponse(await run(steps, request.path_params["game"], request.path_params["name"]))

    return [
        Route("/", index, methods=["GET"]),
        Route("/favicon.ico", lambda request: Response(status_code=204), methods=["GET"]),
        Route("/api/games/{session}/board", handle(board), methods=["GET"]),
        Route("/api/games/{session}/table", handle(table), methods=["GET"]),
        Route("/api/games/{session}/move", handle(make_move), methods=["POST"]),
        Route("/api/games/{session}/say", handle(talk), methods=["POST"]),
        Route("/api/rules/{game}", handle(rules), methods=["GET"]),
        Route("/api/referees", handle(referees_info), methods=["GET"]),
        Route("/api/transcripts", handle(transcripts), methods=["GET"]),
        Route("/api/transcripts/{game}/{name}", handle(transcript), methods=["GET"]),
        Mount("/static", app=_Static(directory=STATIC), name="static"),
    ]


__all__ = ["LLMReferees", "board_payload", "json_answer", "page_routes", "rules_form", "run", "say", "since_of"]
