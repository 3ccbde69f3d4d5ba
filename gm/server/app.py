"""``gm serve``: one process serving the MCP endpoint and the JSON API over one :class:`GameHub`.

Routes (see ``docs/serving.md`` for requests and responses):

- ``/mcp`` — MCP streamable HTTP (:mod:`gm.server.mcp`);
- ``/api/health``, ``/api/ready`` — liveness, and readiness (the store answers; not shutting down);
- ``/api/catalog`` — the games offered; ``POST /api/games`` — a new game; ``POST /api/join`` — a join
  code for a seat's token; ``POST /api/my-games`` — the games of the tokens a client holds;
- ``/api/games/{id}`` (view), ``/tools``, ``/call`` (a tool call), ``/events`` (server-sent events of
  the other seats' moves) — each with ``Authorization: Bearer <seat token>``;
- ``/api/admin/games`` and ``/api/admin/games/{id}/end`` — with the admin token.

Around every request (:mod:`gm.server.guard`, one plain ASGI layer): 503 while shutting down, the
``Host`` (421) and ``Origin`` (403) checks, a rate limit per verified credential or client address
(429), the whole body read within a size and a time limit (413, 408), JSON for anything unexpected
(500), and a structured access log (JSON lines: method, path without query, status, time, client,
game and seat; never a token or a move).  Below it, the HTTP protocol drops a connection whose
headers come too slowly or grow too large (:func:`gm.server.guard.timed_protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from gm import __version__
from gm.core.errors import GameError
from gm.server.access import SEAT_PREFIX, Keys
from gm.server.guard import (
    Guard,
    Origins,
    bearer,
    credential_key,
    error_response,
    json_endpoint,
    log_drop,
    read_json,
    timed_protocol,
    verified,
)
from gm.server.hub import Denied, GameHub, Grant, catalog

log = logging.getLogger("gm.serve")
MCP_PATH = "/mcp"


@dataclass
class ServeConfig:
    """How a ``gm serve`` process runs (the CLI fills it in)."""

    host: str = "127.0.0.1"
    port: int = 8765
    #: who may create and join games (None: anyone who reaches the server; required off loopback)
    player_keys: Keys | None = None
    admin: Keys = field(default_factory=Keys)
    max_body: int = 64 * 1024
    #: requests per second per verified credential (token, key, MCP session) or client address, and
    #: the burst allowed; at most ``rate_table`` buckets are kept (least recently used dropped)
    rate: float = 20.0
    burst: float = 60.0
    rate_table: int = 100_000
    #: seconds the request line and headers may take (from the connection, or from the first byte of
    #: the next request on a kept-alive one), their most bytes, and seconds the body may take
    header_timeout: float = 10.0
    max_header: int = 64 * 1024
    body_timeout: float = 20.0
    #: ``Host`` names answered besides loopback ones (a TLS proxy's public name), and other origins
    #: whose pages may call the API
    allowed_hosts: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    #: seconds an event stream waits before it checks the store (moves made by other processes)
    poll: float = 1.0
    #: seconds graceful shutdown waits for requests in flight
    grace: float = 20.0
    #: seconds between the garbage collector's complete passes (:mod:`gm.server.gcpace`; 0: leave
    #: the collector as Python has it)
    full_gc_every: float = 600.0
    #: worker threads for the blocking work (the engine, the database): few, since the engine's work
    #: holds the GIL - more threads only make the event loop wait for it
    threads: int = 8
    pinned_game: str | None = None
    log_requests: bool = True

    def origins(self) -> Origins:
        return Origins(
            loopback=is_loopback(self.host),
            hosts=tuple(h.strip().lower() for h in self.allowed_hosts if h.strip()),
            origins=tuple(o.strip().lower().rstrip("/") for o in self.allowed_origins if o.strip()),
        )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return error_response(status, message, **extra)


# ------------------------------------------------------------------- state
class ServerState:
    """What the routes share: the hub, the config, the event-stream wake-ups and the shutdown flag."""

    def __init__(self, hub: GameHub, config: ServeConfig) -> None:
        self.hub = hub
        self.config = config
        self.closing = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self.in_flight = 0
        hub.listeners.append(self.moved)

    def moved(self, session_id: str) -> None:
        """A game moved (any thread): wake its event streams."""
        loop = self.loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._wake, session_id)

    def _wake(self, session_id: str) -> None:
        for ev in self._waiters.get(session_id, ()):
            ev.set()

    async def wait(self, session_id: str, timeout: float) -> None:
        ev = asyncio.Event()
        self._waiters.setdefault(session_id, set()).add(ev)
        try:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(ev.wait(), timeout)
        finally:
            waiters = self._waiters.get(session_id)
            if waiters is not None:
                waiters.discard(ev)
                if not waiters:
                    self._waiters.pop(session_id, None)

    def begin_shutdown(self) -> None:
        self.closing = True
        for waiters in list(self._waiters.values()):
            for ev in waiters:
                ev.set()


async def _run(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await anyio.to_thread.run_sync(partial(func, *args, **kwargs))


# -------------------------------------------------------------------- API
def api_routes(state: ServerState) -> list[Route]:
    hub = state.hub
    cfg = state.config

    def who(request: Request, grant: Grant) -> None:
        meta = request.scope.get("gm")
        if meta is not None:
            meta["game"], meta["seat"] = grant.session, grant.seat

    async def authorize(request: Request, *, query: bool = False) -> Grant:
        token = bearer(request.scope)
        if token is None and query:
            token = request.query_params.get("access_token")
        grant: Grant = await _run(hub.authorize, token, request.path_params.get("session"))
        if token:
            verified(request.scope, credential_key(token))
        who(request, grant)
        return grant

    def need_player(request: Request) -> None:
        keys = cfg.player_keys
        if keys is None:
            return
        token = bearer(request.scope)
        if not token:
            raise Denied(401, "this server needs a player key to create or join games: send 'Authorization: Bearer <player key>'")
        if not keys.check(token):
            raise Denied(403, "unknown player key")
        verified(request.scope, credential_key(token))

    def need_admin(request: Request) -> None:
        if not cfg.admin:
            raise Denied(404, "no admin token is configured on this server ($GM_ADMIN_TOKEN or --admin-token-file)")
        token = bearer(request.scope)
        if not token:
            raise Denied(401, "the admin API needs 'Authorization: Bearer <admin token>'")
        if not cfg.admin.check(token):
            raise Denied(403, "not the admin token")
        verified(request.scope, credential_key(token))

    handle = json_endpoint

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "status": "alive", "version": __version__})

    async def ready(request: Request) -> Response:
        if state.closing:
            return _error(503, "the server is shutting down")
        try:
            await _run(_probe, hub)
        except Exception as exc:
            return _error(503, f"the session store does not answer: {type(exc).__name__}")
        return JSONResponse({"ok": True, "status": "ready", "store": hub.store.description, "version": __version__})

    async def games_catalog(request: Request) -> Response:
        return JSONResponse({"ok": True, "games": catalog()})

    async def create(request: Request) -> Response:
        need_player(request)
        body = await read_json(request)
        allowed = {"game", "seat", "players", "opponent", "seed", "rules"}
        extra = sorted(set(body) - allowed)
        if extra:
            raise Denied(400, f"unknown field {extra[0]!r}; fields: {', '.join(sorted(allowed))}")
        game = body.get("game") or cfg.pinned_game or None  # none named: the hub makes the default game
        if cfg.pinned_game and game != cfg.pinned_game:
            raise Denied(400, f"this server plays {cfg.pinned_game} only")
        for key in ("game", "seat", "opponent"):
            if body.get(key) is not None and not isinstance(body[key], str):
                raise Denied(400, f"{key} must be a string")
        if body.get("players") is not None and not isinstance(body["players"], dict):
            raise Denied(400, "players must be an object: seat -> human or bot:NAME")
        seed = body.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise Denied(400, "seed must be a whole number")
        if body.get("rules") is not None and not isinstance(body["rules"], dict):
            raise Denied(400, "rules must be an object of ruleset overrides")
        result = await _run(
            hub.create, game, seat=body.get("seat"), players=body.get("players"), opponent=body.get("opponent"),
            seed=seed, rules=body.get("rules"), referee="api",
        )
        base = str(request.base_url).rstrip("/")
        for entry in result["seats"].values():
            if "join_code" in entry:
                entry["join_url"] = f"{base}/#join={entry['join_code']}"
        who(request, Grant(result["session"], result["seat"]))
        return JSONResponse(result, status_code=201)

    async def join(request: Request) -> Response:
        need_player(request)
        body = await read_json(request)
        extra = sorted(set(body) - {"code", "accept_practice"})
        if extra:
            raise Denied(400, f"unknown field {extra[0]!r}; fields: accept_practice, code")
        code = body.get("code")
        if not isinstance(code, str):
            raise Denied(400, "give the join code: {\"code\": \"ABCD-EFGH-JKLM\"}")
        accept = body.get("accept_practice", False)
        if not isinstance(accept, bool):
            raise Denied(400, "accept_practice must be true or false")
        result = await _run(hub.join, code, accept_practice=accept)
        who(request, Grant(result["session"], result["seat"]))
        return JSONResponse(result)

    async def rotate(request: Request) -> Response:
        await authorize(request)  # (the token must grant the game in the path)
        body = await read_json(request)
        if body:
            raise Denied(400, "rotate takes no fields: send no body, or {}")
        token = bearer(request.scope)
        assert token is not None  # authorize() has checked it
        return JSONResponse(await _run(hub.rotate, token))

    async def mine(request: Request) -> Response:
        body = await read_json(request)
        tokens = body.get("tokens")
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise Denied(400, "give the seat tokens you hold: {\"tokens\": [\"gms_...\", ...]}")
        if len(tokens) > 100:
            raise Denied(400, "at most 100 tokens at once")
        return JSONResponse({"ok": True, "games": await _run(hub.mine, tokens)})

    async def view(request: Request) -> Response:
        grant = await authorize(request)
        return JSONResponse(await _run(hub.view, grant))

    async def tools(request: Request) -> Response:
        grant = await authorize(request)
        return JSONResponse({"ok": True, "session": grant.session, "seat": grant.seat, "tools": await _run(hub.tools, grant)})

    async def call(request: Request) -> Response:
        grant = await authorize(request)
        body = await read_json(request)
        tool = body.get("tool")
        if not isinstance(tool, str):
            raise Denied(400, "give the tool to call: {\"tool\": NAME, \"args\": {...}}")
        args = body.get("args")
        if args is not None and not isinstance(args, dict):
            raise Denied(400, "args must be an object")
        meta = request.scope.get("gm")
        if meta is not None:
            meta["tool"] = tool[:60]
        state.in_flight += 1
        try:
            result = await _run(hub.call, grant, tool, args or {})
        finally:
            state.in_flight -= 1
        return JSONResponse(result)

    async def events(request: Request) -> Response:
        grant = await authorize(request, query=True)
        token = bearer(request.scope) or request.query_params.get("access_token") or ""
        since_text = request.headers.get("last-event-id") or request.query_params.get("since")
        since = int(since_text) if since_text and since_text.isdigit() else None
        return StreamingResponse(
            _event_stream(state, grant, since, token),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def admin_games(request: Request) -> Response:
        need_admin(request)
        return JSONResponse({"ok": True, "games": await _run(hub.games)})

    async def admin_end(request: Request) -> Response:
        need_admin(request)
        sid = request.path_params["session"]
        try:
            done = await _run(hub.end, sid)
        except GameError:
            raise Denied(404, f"no game {sid!r}") from None
        return JSONResponse({"ok": True, "session": sid, "ended": True, "already": not done})

    return [
        Route("/api/health", handle(health), methods=["GET"]),
        Route("/api/ready", handle(ready), methods=["GET"]),
        Route("/api/catalog", handle(games_catalog), methods=["GET"]),
        Route("/api/games", handle(create), methods=["POST"]),
        Route("/api/join", handle(join), methods=["POST"]),
        Route("/api/my-games", handle(mine), methods=["POST"]),
        Route("/api/games/{session}", handle(view), methods=["GET"]),
        Route("/api/games/{session}/tools", handle(tools), methods=["GET"]),
        Route("/api/games/{session}/call", handle(call), methods=["POST"]),
        Route("/api/games/{session}/rotate", handle(rotate), methods=["POST"]),
        Route("/api/games/{session}/events", handle(events), methods=["GET"]),
        Route("/api/admin/games", handle(admin_games), methods=["GET"]),
        Route("/api/admin/games/{session}/end", handle(admin_end), methods=["POST"]),
    ]


def _probe(hub: GameHub) -> None:
    probe = getattr(hub.store, "records", None)
    if callable(probe):
        try:
            probe("gm-ready-probe")
        except GameError:
            pass  # answered: no such session
    else:
        hub.store.ids()


def _sse(event: str, data: Any, ident: int | None = None) -> str:
    head = f"id: {ident}\n" if ident is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n"


async def _event_stream(state: ServerState, grant: Grant, since: int | None, token: str) -> AsyncIterator[str]:
    """``move`` for each new move of another seat (as this seat may see it), ``reveal`` when a locked
    pick is revealed, ``state`` after each change (status, who must act, commitments, outcome),
    ``end`` when the game is over; a comment line every 15 s keeps proxies from closing the stream.
    The token is checked again before each change is sent: a rotated or ended one ends the stream."""
    hub = state.hub
    yield f"retry: 2000\n: gm events for {grant.seat}\n\n"
    seen: list[list[str]] | None = None
    quiet = 0.0
    while not state.closing:
        try:
            await _run(hub.authorize, token, grant.session)
            snap = await _run(hub.snapshot, grant)
        except Denied as exc:
            yield _sse("error", {"status": exc.status, "message": exc.message})
            return
        current = snap["log"]
        if seen is None:
            seen = current[: since if since is not None else len(current)]
        if len(current) < len(seen):  # a pick taken back
            seen = seen[: len(current)]
        changed = current != seen
        for i, (mover, text) in enumerate(current):
            if i < len(seen):
                if seen[i][1] != text and mover != grant.seat:
                    yield _sse("reveal", {"index": i, "seat": mover, "move": text}, len(current))
            elif mover != grant.seat:
                yield _sse("move", {"index": i, "seat": mover, "move": text}, i + 1)
        if changed or quiet == 0.0:
            yield _sse("state", {k: snap[k] for k in ("status", "expected", "commitments", "outcome", "over", "records")} | {"moves": len(current)}, len(current))
        seen = current
        if snap["over"]:
            yield _sse("end", {"outcome": snap["outcome"], "moves": len(current), "records": snap["records"]}, len(current))
            return
        records = snap["records"]
        waited = 0.0
        while not state.closing:
            t0 = time.monotonic()
            await state.wait(grant.session, state.config.poll)
            waited += time.monotonic() - t0
            try:
                now = await _run(hub.stored_count, grant.session)
            except Exception:
                now = -1
            if now != records:
                break
            if waited >= 15.0:
                yield ": ping\n\n"
                waited = 0.0
        quiet = 1.0


# ------------------------------------------------------------------- app
def build_app(hub: GameHub, config: ServeConfig) -> tuple[ASGIApp, ServerState]:
    """The ASGI app of ``gm serve`` and its shared state."""
    from mcp.server.transport_security import TransportSecuritySettings

    from gm.core.registry import find_game
    from gm.mcp_server.server import build_server
    from gm.server.mcp import Clients

    state = ServerState(hub, config)
    clients = Clients(hub, pinned=find_game(config.pinned_game) if config.pinned_game else None)

    def resolve(ctx: Any) -> Any:
        request = getattr(ctx, "request", None)
        headers = getattr(request, "headers", None)
        sid = headers.get("mcp-session-id") if headers is not None else None
        auth = headers.get("authorization", "") if headers is not None else ""
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        host = clients.for_request(sid, token)
        meta = request.scope.get("gm") if request is not None else None
        if meta is not None and host.active is not None:
            meta["game"], meta["seat"] = host.active.session, host.active.seat
        return host

    async def moved_or(session_id: str | None, timeout: float) -> None:
        """An MCP client's wait for its game to move (in this process, or told by PostgreSQL)."""
        if session_id is None:
            await asyncio.sleep(timeout)
        else:
            await state.wait(session_id, timeout)

    mcp_server = build_server(resolve=resolve, handshake_only=True, wait=moved_or, poll=config.poll)
    origins = config.origins()
    hosts, allowed_origins = origins.mcp_settings()
    security = (  # (the guard checks Host and Origin for every path already; the SDK checks them again)
        TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=allowed_origins)
        if origins.loopback or origins.hosts
        else TransportSecuritySettings(enable_dns_rebinding_protection=False)
    )
    mcp_server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        json_response=True,
        transport_security=security,
        host=config.host,
        max_request_body_size=config.max_body,
    )
    session_manager = mcp_server.session_manager

    class McpGate:
        async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
            await mcp_gate(scope, receive, send)

    async def mcp_gate(scope: Scope, receive: Receive, send: Send) -> None:
        """Off loopback, the MCP endpoint needs a player key or a seat token."""
        keys = config.player_keys
        if keys is not None:
            token = bearer(scope)
            if not token:
                await _error(401, "this server needs 'Authorization: Bearer <player key or seat token>'")(scope, receive, send)
                return
            if token.startswith(SEAT_PREFIX):
                try:
                    await _run(hub.authorize, token)
                except Denied as exc:
                    await _error(exc.status, exc.message)(scope, receive, send)
                    return
            elif not keys.check(token):
                await _error(403, "unknown player key")(scope, receive, send)
                return
            verified(scope, credential_key(token))
        elif (token := bearer(scope)) and token.startswith(SEAT_PREFIX):
            try:
                await _run(hub.authorize, token)
            except Denied as exc:
                await _error(exc.status, exc.message)(scope, receive, send)
                return
            verified(scope, credential_key(token))
        await session_manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        state.loop = asyncio.get_running_loop()
        anyio.to_thread.current_default_thread_limiter().total_tokens = config.threads
        listener = _start_listener(hub, state)
        pacer = pacing = None
        if config.full_gc_every > 0:
            from gm.server.gcpace import GcPacer

            pacer = GcPacer(config.full_gc_every)
            pacer.install()
            pacing = asyncio.create_task(_pace_gc(pacer))
        async with session_manager.run():
            try:
                yield
            finally:
                state.begin_shutdown()
                if listener is not None:
                    listener.set()
                if pacing is not None and pacer is not None:
                    pacing.cancel()
                    pacer.uninstall()

    from gm.web.routes import page_routes

    routes: list[Route | Mount] = [
        *api_routes(state),
        *page_routes(state),  # the browser page at / (gm/web)
        Route(MCP_PATH, McpGate(), methods=["GET", "POST", "DELETE"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={Exception: _internal_error})
    return Guard(app, state), state


async def _internal_error(request: Request, exc: Exception) -> Response:
    """Anything a route raised unexpectedly: JSON, never a traceback (the guard logs it)."""
    return error_response(500, "internal error (the server's log says more)")


async def _pace_gc(pacer: Any) -> None:
    """The garbage collector's complete pass, every ``pacer.full_every`` seconds."""
    while True:
        await asyncio.sleep(max(1.0, pacer.full_every - (pacer.clock() - pacer.last_full)))
        if pacer.due():
            pacer.full()


def _start_listener(hub: GameHub, state: ServerState) -> threading.Event | None:
    """With PostgreSQL: a thread LISTENing for other processes' moves (event streams wake at once)."""
    dsn = getattr(hub.store, "dsn", None)
    if not dsn:
        return None
    from gm.session.sql import NOTIFY_CHANNEL

    stop = threading.Event()

    def listen() -> None:
        import psycopg

        while not stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    while not stop.is_set():
                        for note in conn.notifies(timeout=1.0):
                            state.moved(note.payload)
            except Exception:
                log.debug("LISTEN connection lost; retrying", exc_info=True)
                stop.wait(2.0)

    threading.Thread(target=listen, name="gm-listen", daemon=True).start()
    return stop


# ------------------------------------------------------------------ serve
def bind(host: str, port: int, backlog: int = 4096) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP, not 0: asyncio turns Nagle off (TCP_NODELAY) only on accepted sockets whose
    # proto says TCP; with Nagle on, a response written as headers then body waits for the client's
    # delayed ACK, some 40 ms per request on a kept-alive connection
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def serve(hub: GameHub, config: ServeConfig, sock: socket.socket, ready: Callable[[str], None] | None = None) -> None:
    """Serve on the bound socket until SIGINT/SIGTERM; then stop taking requests, let the moves in
    flight finish (up to ``config.grace`` seconds), close event streams, and return."""
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    app, state = build_app(hub, config)
    uconfig = uvicorn.Config(
        app,
        http=timed_protocol(AutoHTTPProtocol, config.header_timeout, config.max_header, log_drop if config.log_requests else None),
        log_level="warning",
        lifespan="on",
        access_log=False,
        timeout_graceful_shutdown=int(config.grace),
        timeout_keep_alive=30,
        backlog=4096,
        limit_concurrency=None,
    )

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            state.begin_shutdown()  # event streams end, readiness fails, new requests get 503
            super().handle_exit(sig, frame)

    server = Server(uconfig)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if ready is not None:
        ready(f"http://{shown}:{port}")
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])  # uvicorn handles SIGINT/SIGTERM


__all__ = ["MCP_PATH", "ServeConfig", "bind", "build_app", "is_loopback", "serve"]
