"""What stands in front of every request of ``gm serve`` (one plain ASGI layer, :class:`Guard`), and
the HTTP protocol's own header timeout (:func:`timed_protocol`).

In order, for every HTTP request:

1. **shutting down**: ``503`` (but the health checks);
2. **Host**: a name this server answers to (DNS rebinding): on loopback only loopback names, plus
   ``--allowed-host`` names (a TLS proxy's public name); ``421`` otherwise;
3. **Origin**: a request a browser sends from another site carries an ``Origin`` that is not this
   server: ``403`` (so a page elsewhere cannot make games or moves, whatever its content type);
4. **rate**: a token bucket per *verified* credential - a seat token, player key or admin token a
   route accepted, an MCP session the server opened - else per client address (IPv6: per /64),
   so that a flood of made-up tokens is counted against its sender; the table of buckets is bounded
   (least recently used dropped one at a time, never all at once): ``429``;
5. **headers** over ``max_header`` bytes: ``431``; **body**: read whole before the app sees it, within ``max_body`` bytes (``Content-Length`` or
   chunked: ``413``) and ``body_timeout`` seconds (``408``); the app then gets it in one piece;
6. anything the app raises unexpectedly is a JSON ``500`` (never a traceback to the client);
7. the access log: one JSON line (method, path without query, status, time, client, game and seat;
   never a token or a move).

The request line and headers have their own limit, below the app: :func:`timed_protocol` closes a
connection whose headers are not complete ``header_timeout`` seconds after it opened (or after the
first byte of its next request), or pass ``max_header`` bytes (a slow-loris client holds nothing).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gm.core.errors import GameError, http_error
from gm.server.access import digest
from gm.server.hub import Denied

if TYPE_CHECKING:
    from gm.server.app import ServerState

log = logging.getLogger("gm.serve")
access_log = logging.getLogger("gm.access")

#: how deep a request's JSON may nest (a tool's arguments nest at most 32: more is refused there)
MAX_DEPTH = 64
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


def error_response(status: int, message: str, *, close: bool = False, **extra: Any) -> JSONResponse:
    """The JSON error every route and the guard answer with."""
    headers = {"WWW-Authenticate": 'Bearer realm="gm"'} if status == 401 else {}
    if close:
        headers["Connection"] = "close"
    return JSONResponse({"ok": False, "error": {"status": status, "message": message, **extra}}, status_code=status, headers=headers or None)


def json_endpoint(fn: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """``fn`` as an endpoint that answers a refusal (:class:`Denied`) and a game's error (:class:`GameError`,
    with its rule id, quoted input, legal options and reason) with the one JSON error of every route."""

    async def endpoint(request: Request) -> Response:
        try:
            return await fn(request)
        except Denied as exc:
            return error_response(exc.status, exc.message, **exc.extra)
        except GameError as exc:
            body = http_error(exc)
            return error_response(body.pop("status"), body.pop("message"), **body)

    return endpoint


def header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return str(v.decode("latin-1"))
    return None


def bearer(scope: Scope) -> str | None:
    text = header(scope, b"authorization")
    if text is None:
        return None
    text = text.strip()
    if text[:7].lower() == "bearer ":
        return text[7:].strip() or None
    return None


def credential_key(token: str) -> str:
    """The rate-limit key of a bearer credential (its hash, never the secret)."""
    return "t:" + digest(token)[:32]


def address_key(client: str) -> str:
    """The rate-limit key of a client address: IPv4 as it is, IPv6 by its /64 (one host's share)."""
    try:
        ip = ipaddress.ip_address(client)
    except ValueError:
        return "a:" + client[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return "a:" + str(ip.ipv4_mapped)
        return "a:" + str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return "a:" + str(ip)


def verified(scope: Scope, key: str) -> None:
    """Say that the request's credential was accepted (a route calls this): from then on that
    credential's requests are counted against its own bucket, not its sender's address."""
    meta = scope.get("gm")
    if meta is not None:
        meta["verified"] = key


# ----------------------------------------------------------------- rate
class RateLimiter:
    """Token buckets per key (``rate`` a second, bursts of ``burst``), at most ``size`` of them: the
    least recently used is dropped when a new key comes (a dropped bucket is as good as a full one,
    so dropping one forgets one key's debt; the table is never cleared)."""

    def __init__(self, rate: float, burst: float, size: int = 100_000) -> None:
        self.rate, self.burst, self.size = rate, burst, max(1, size)
        self._buckets: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str, now: float | None = None) -> float:
        """0 if a request of ``key`` may go now (and count it), else seconds to wait."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic() if now is None else now
        with self._lock:
            b = self._buckets.get(key)
            if b is None:
                while len(self._buckets) >= self.size:
                    self._buckets.popitem(last=False)
                b = self._buckets[key] = [self.burst, now]
            else:
                self._buckets.move_to_end(key)
            b[0] = min(self.burst, b[0] + (now - b[1]) * self.rate)
            b[1] = now
            if b[0] >= 1.0:
                b[0] -= 1.0
                return 0.0
            return (1.0 - b[0]) / self.rate


class Seen:
    """A bounded set of keys (least recently used dropped): the credentials verified lately."""

    def __init__(self, size: int = 100_000) -> None:
        self.size = max(1, size)
        self._keys: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def __contains__(self, key: object) -> bool:
        return key in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def add(self, key: str) -> None:
        with self._lock:
            if key in self._keys:
                self._keys.move_to_end(key)
                return
            while len(self._keys) >= self.size:
                self._keys.popitem(last=False)
            self._keys[key] = None


# ----------------------------------------------------------- host, origin
def _host_name(host: str) -> str:
    """``host`` of a ``Host`` header without its port, lower case (``[::1]:80`` -> ``[::1]``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[: host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_loopback_ip(name: str) -> bool:
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Origins:
    """Which ``Host`` names a server answers to and which other origins may call it."""

    loopback: bool
    hosts: tuple[str, ...] = ()
    origins: tuple[str, ...] = ()

    def host_ok(self, host: str | None) -> bool:
        if host is None:
            return not self.loopback and not self.hosts
        name = _host_name(host)
        if name in self.hosts:
            return True
        if self.loopback:
            return name in LOOPBACK_NAMES or _is_loopback_ip(name)
        return not self.hosts

    def origin_ok(self, origin: str, host: str | None) -> bool:
        origin = origin.strip().lower().rstrip("/")
        if origin in self.origins:
            return True
        if host is None or origin == "null":
            return False
        here = host.strip().lower()
        return origin in (f"http://{here}", f"https://{here}")

    def mcp_settings(self) -> tuple[list[str], list[str]]:
        """The MCP SDK's own lists (its transport security), the same names."""
        names = [*(["127.0.0.1", "localhost", "[::1]"] if self.loopback else []), *self.hosts]
        hosts = [f"{n}:*" for n in names] + list(names)
        origins = [f"{s}://{n}:*" for n in names for s in ("http", "https")] + [f"{s}://{n}" for n in names for s in ("http", "https")]
        return hosts, [*origins, *self.origins]


# -------------------------------------------------------------------- body
class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        self.status, self.message = status, message


async def read_body(receive: Receive, limit: int, timeout: float) -> tuple[bytes, bool]:
    """The whole request body, at most ``limit`` bytes, within ``timeout`` seconds (:class:`_Refused`
    413 / 408 otherwise); and whether the client went away meanwhile."""
    parts: list[bytes] = []
    size = 0
    with anyio.move_on_after(timeout) as scope:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"", True
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise _Refused(413, f"request body over {limit} bytes")
            parts.append(chunk)
            if not message.get("more_body", False):
                return b"".join(parts), False
    assert scope.cancelled_caught
    raise _Refused(408, f"the request body did not arrive within {timeout:g} s")


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the app the body read already, in one message, then whatever comes
    from the client (its disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def parse_json(raw: bytes) -> Any:
    """A request body as JSON, refused with a clear ``ValueError`` when it is not UTF-8, not JSON,
    holds ``NaN``/``Infinity``, or nests more than :data:`MAX_DEPTH` levels."""

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("the body is not UTF-8 text") from None
    try:
        data = json.loads(text, parse_constant=constant)
    except RecursionError:
        raise ValueError(f"the body nests more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise ValueError(f"the body is not valid JSON: {exc}") from None
    if _depth(data) > MAX_DEPTH:
        raise ValueError(f"the body nests more than {MAX_DEPTH} levels deep")
    return data


def _depth(data: Any) -> int:
    """How deep ``data`` nests (iteratively: a deep value cannot exhaust the stack here)."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(data, 1)]
    while todo:
        value, d = todo.pop()
        if isinstance(value, dict):
            deepest = max(deepest, d)
            if d <= MAX_DEPTH:
                todo.extend((v, d + 1) for v in value.values())
        elif isinstance(value, list):
            deepest = max(deepest, d)
            if d <= MAX_DEPTH:
                todo.extend((v, d + 1) for v in value)
    return deepest


# ------------------------------------------------------------------- guard
class Guard:
    """Shutdown gate, Host and Origin checks, rate limit, whole-body read and access log (see the
    module docstring), as one ASGI layer."""

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        self.app = app
        self.state = state
        cfg = state.config
        self.limiter = RateLimiter(cfg.rate, cfg.burst, cfg.rate_table)
        self.seen = Seen(cfg.rate_table)
        self.origins = cfg.origins()

    def _rate_key(self, scope: Scope, client: str) -> str:
        token = bearer(scope)
        if token is None and scope.get("path", "").endswith("/events"):
            token = (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("access_token") or [None])[0]
        if token:
            key = credential_key(token)
            if key in self.seen:
                return key
        sid = header(scope, b"mcp-session-id")
        if sid:
            key = "m:" + sid[:80]
            if key in self.seen:
                return key
        return address_key(client)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        path: str = scope.get("path", "")
        meta: dict[str, Any] = {"status": 0, "bytes": 0}
        scope["gm"] = meta
        cfg = self.state.config
        client = str((scope.get("client") or ("?", 0))[0])

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                meta["status"] = message["status"]
                if message["status"] < 400:
                    for k, v in message.get("headers", ()):
                        if k.lower() == b"mcp-session-id":  # a session the server opened: its own bucket from now on
                            meta["verified_session"] = "m:" + v.decode("latin-1")[:80]
            elif message["type"] == "http.response.body":
                meta["bytes"] += len(message.get("body", b""))
            await send(message)

        async def refuse(status: int, message: str, **extra: Any) -> None:
            await error_response(status, message, **extra)(scope, receive, sending)

        try:
            if self.state.closing and path not in ("/api/health", "/api/ready"):
                await refuse(503, "the server is shutting down", retry=True)
                return
            if sum(len(k) + len(v) + 4 for k, v in scope.get("headers", ())) > cfg.max_header:  # (arrived all at once)
                await error_response(431, "the request headers are too large", close=True)(scope, receive, sending)
                return
            host = header(scope, b"host")
            if not self.origins.host_ok(host):
                await refuse(421, f"this server does not answer to the host {str(host)[:100]!r} (gm serve --allowed-host NAME)")
                return
            origin = header(scope, b"origin")
            if origin is not None and not self.origins.origin_ok(origin, host):
                await refuse(403, f"a request from another site ({origin[:100]}) is refused: open the page at this server's own address")
                return
            wait = self.limiter.take(self._rate_key(scope, client))
            if wait:
                resp = error_response(429, "too many requests: slow down", retry_after=round(wait, 3))
                resp.headers["Retry-After"] = str(max(1, round(wait)))
                await resp(scope, receive, sending)
                return
            length = header(scope, b"content-length")
            if length is not None and (not length.strip().isdigit() or int(length) > cfg.max_body):
                await error_response(413, f"request body over {cfg.max_body} bytes", close=True)(scope, receive, sending)
                return
            try:
                body, gone = await read_body(receive, cfg.max_body, cfg.body_timeout)
            except _Refused as exc:
                await error_response(exc.status, exc.message, close=True)(scope, receive, sending)
                return
            if gone:
                return
            await self.app(scope, _replay(body, receive), sending)
        except Exception:
            log.exception("unexpected error serving %s %s", scope.get("method"), path[:200])
            if meta["status"] == 0:
                await error_response(500, "internal error (the server's log says more)")(scope, receive, sending)
        finally:
            for key in (meta.get("verified"), meta.get("verified_session")):
                if key:
                    self.seen.add(key)
            if cfg.log_requests:
                entry = {
                    "t": round(time.time(), 3),
                    "method": scope.get("method"),
                    "path": path[:200],
                    "status": meta["status"],
                    "ms": round((time.perf_counter() - start) * 1000, 2),
                    "bytes": meta["bytes"],
                    "client": client,
                }
                if meta.get("game"):
                    entry["game"], entry["seat"] = meta["game"], meta.get("seat")
                if meta.get("tool"):
                    entry["tool"] = meta["tool"]
                access_log.info(json.dumps(entry, separators=(",", ":")))


# ---------------------------------------------------------------- protocol
_TIMEOUT_BODY = json.dumps({"ok": False, "error": {"status": 408, "message": "the request headers did not arrive in time"}}).encode()
_TOO_LARGE_BODY = json.dumps({"ok": False, "error": {"status": 431, "message": "the request headers are too large"}}).encode()


def _raw_response(status: bytes, body: bytes) -> bytes:
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\ncontent-length: " + str(len(body)).encode()
        + b"\r\nconnection: close\r\n\r\n" + body
    )


def timed_protocol(base: type[Any], header_timeout: float, max_header: int, on_drop: Callable[[str, Any], None] | None = None) -> type[Any]:
    """``base`` (uvicorn's HTTP protocol) that drops a connection whose request headers are not
    complete ``header_timeout`` seconds after the connection opened, or after the first byte of its
    next request on a kept-alive connection (``408``), or that pass ``max_header`` bytes (``431``).
    uvicorn itself times out only idle kept-alive connections: without this, a client sending its
    headers a byte at a time holds a connection for ever.  The request's body has its own timeout
    in :class:`Guard`, once the app runs."""

    class TimedProtocol(base):
        _gm_timer: Any = None
        _gm_bytes = 0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._gm_arm()

        def _gm_arm(self) -> None:
            self._gm_cancel()
            self._gm_bytes = 0
            self._gm_timer = self.loop.call_later(header_timeout, self._gm_drop, b"408 Request Timeout", _TIMEOUT_BODY, "header_timeout")

        def _gm_cancel(self) -> None:
            if self._gm_timer is not None:
                self._gm_timer.cancel()
                self._gm_timer = None

        def _gm_drop(self, status: bytes, body: bytes, why: str) -> None:
            self._gm_timer = None
            transport = self.transport
            if transport is not None and not transport.is_closing():
                transport.write(_raw_response(status, body))
                transport.close()
                if on_drop is not None:
                    on_drop(why, self.client)

        def data_received(self, data: bytes) -> None:
            cycle = self.cycle
            if self._gm_timer is None and (cycle is None or cycle.response_complete):
                self._gm_arm()  # the first bytes of the next request on a kept-alive connection
            waiting = self._gm_timer is not None
            super().data_received(data)
            if not waiting:
                return
            if self.cycle is not cycle:  # the request's headers are complete
                self._gm_cancel()
                return
            self._gm_bytes += len(data)
            if self._gm_bytes > max_header:
                self._gm_cancel()
                self._gm_drop(b"431 Request Header Fields Too Large", _TOO_LARGE_BODY, "headers_too_large")

        def connection_lost(self, exc: Exception | None) -> None:
            self._gm_cancel()
            super().connection_lost(exc)

    TimedProtocol.__name__ = f"Timed{base.__name__}"
    return TimedProtocol


def log_drop(why: str, client: Any) -> None:
    """An access-log line for a connection dropped before its request reached the app."""
    peer = client[0] if isinstance(client, tuple | list) and client else client
    access_log.info(json.dumps({"t": round(time.time(), 3), "event": why, "client": peer}, separators=(",", ":")))


__all__ = [
    "MAX_DEPTH",
    "Guard",
    "Origins",
    "RateLimiter",
    "address_key",
    "bearer",
    "credential_key",
    "error_response",
    "header",
    "parse_json",
    "timed_protocol",
    "verified",
]


async def read_json(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object ({} for none); :class:`Denied` 400 for anything else
    (not UTF-8, not JSON, too deep: :func:`parse_json`).  The API and the page (:mod:`gm.web.routes`)
    both read their bodies with it."""
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        data = parse_json(raw)
    except ValueError as exc:
        raise Denied(400, str(exc)) from None
    if not isinstance(data, dict):
        raise Denied(400, "the body must be a JSON object")
    return data
