"""The MCP server of gm (``mcp`` SDK, low-level server) around a :class:`~gm.mcp_server.host.McpHost`.

- ``tools/list``: the host's tools (``inputSchema`` from the tool's pydantic model); for a client
  that renders MCP Apps (checked per client) also the board app's tools, and ``_meta.ui`` linking
  the tools that show the game to the board app (:mod:`gm.mcp_server.app`).
- ``tools/call``: structured content = the result dict, text content = its summary; a rejection
  is a tool error (``is_error``) whose text names rule id, reason and legal options; a tool the
  client was never offered is a protocol error (-32602) naming the tools it has.  A client that
  renders the app also gets the app's view of the game in the result's ``_meta`` (never the
  model's).  Calls run in a worker thread (bots may think) one at a time per client; with a
  progress token, every bot move is a progress notification.
- ``resources/*``: the host's resources; ``resources/subscribe`` on ``gm://session/board`` and
  ``gm://session/state`` (or a ``subscriptions/listen`` stream of a 2026 client): the client hears
  ``notifications/resources/updated`` whenever any seat of its game moves - its own calls, another
  client's, or another process's (checked every ``poll`` seconds, at once when ``wait`` wakes).
- ``prompts/*``: the ``referee`` prompt; ``completion/complete``: its arguments and those of the
  resource templates; ``logging/setLevel``: the client's level for the log of its calls.

Transports: stdio here (one message a line, at most :data:`~gm.core.files.MESSAGE_LIMIT` bytes: a
longer one gets a parse error and is dropped); streamable HTTP is ``gm serve`` (:mod:`gm.server.app`), which builds this
server with a host per client.
"""

from __future__ import annotations

import logging
import os
import sys
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, suppress
from typing import Any, BinaryIO, cast

import anyio
import anyio.abc
import anyio.from_thread
import anyio.to_thread
import mcp_types as types
from mcp.server.apps import client_supports_apps
from mcp.server.connection import allowed_log_levels
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.session import ServerSession
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    ResourcesListChanged,
    ResourceUpdated,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from gm import __version__
from gm.core.errors import GameError
from gm.core.files import MESSAGE_LIMIT, FileTooLarge, read_line_bytes
from gm.mcp_server import app
from gm.mcp_server.host import LOG_LEVELS, McpHost, Reply

log = logging.getLogger("gm.mcp")

INSTRUCTIONS = (
    "gm: a deterministic rules engine for board games. You are the referee: the user plays one side "
    "and the built-in bot the others. Start with new_game (or resume_session), then make the user's decisions "
    "with the game tools; every result carries the narration, the board and who must act next. The prompt "
    "'referee' explains the role; the resource gm://rules has the rules."
)
#: the resources a subscriber hears of when any seat moves
SESSION_URIS = ("gm://session/board", "gm://session/state")
#: the most resources one client may subscribe to (any URI is accepted, as the SDK's listen streams
#: accept any: one gm does not serve simply never changes)
MAX_SUBSCRIPTIONS = 64

Ctx = ServerRequestContext[Any, Any]
#: wakes when a game moves in this process, else after ``timeout`` seconds: ``wait(session_id, timeout)``
Waiter = Callable[[str | None, float], Awaitable[None]]


async def _sleep(session_id: str | None, timeout: float) -> None:
    await anyio.sleep(timeout)


class Feed:
    """One client's notices of its game: the resources it subscribed to (and the channel to tell it
    on), the listen streams of a 2026 client (a bus of its own: one client's game is not another's),
    and the version of the game last told."""

    def __init__(self, host: McpHost) -> None:
        self.host = weakref.ref(host)
        self.subscribed: set[str] = set()
        self.channel: ServerSession | None = None
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)
        self.streams = 0
        self.last: str | None = None
        self.watching = False

    def live(self) -> bool:
        host = self.host()
        return host is not None and not getattr(host, "closed", False) and (bool(self.subscribed) or self.streams > 0)

    async def check(self) -> None:
        """Tell the client if its game moved (or another game became its active one) since last told."""
        host = self.host()
        if host is None:
            return
        now = await anyio.to_thread.run_sync(_version, host)
        if now == self.last:
            return
        self.last = now
        for uri in SESSION_URIS:
            if uri in self.subscribed and self.channel is not None:
                await self.channel.send_resource_updated(uri)
            await self.bus.publish(ResourceUpdated(uri))


def _version(host: McpHost) -> str | None:
    try:
        return host.stored_version()
    except Exception:  # a store that does not answer now: nothing to tell
        log.debug("could not read the game's version", exc_info=True)
        return None


class GmServer(Server[Any]):
    """The low-level server, announcing what gm sends: tool and resource list changes (a client's tools
    and resource titles follow its active game), resource updates; the prompt list never changes."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True, resources_changed=True), experimental_capabilities, extensions
        )

    def get_capabilities(self, notification_options: NotificationOptions | None = None, experimental_capabilities: dict[str, dict[str, Any]] | None = None,
                         extensions: dict[str, dict[str, Any]] | None = None, *, protocol_version: str | None = None) -> types.ServerCapabilities:
        caps = super().get_capabilities(notification_options or NotificationOptions(tools_changed=True, resources_changed=True),
                                        experimental_capabilities, extensions, protocol_version=protocol_version)
        if caps.prompts is not None:
            caps.prompts.list_changed = False  # one prompt, always: gm never says the list changed
        return caps


def build_server(
    host: McpHost | None = None,
    *,
    resolve: Callable[[Ctx], McpHost] | None = None,
    handshake_only: bool = False,
    wait: Waiter | None = None,
    poll: float = 1.0,
) -> GmServer:
    """The MCP server of ``host`` (one client: stdio), or of the host ``resolve`` finds for each
    request (``gm serve``: a host per client).  ``handshake_only``: ``server/discover`` advertises the
    handshake-era protocol versions only, so clients open a session (which keeps their game).
    ``wait(session_id, timeout)`` returns early when that game moves in this process (``gm serve``);
    other processes' moves are looked for every ``poll`` seconds while a client listens."""
    if resolve is None:
        if host is None:
            raise ValueError("build_server needs a host or a resolver")
        fixed = host

        def resolve(ctx: Ctx) -> McpHost:
            return fixed

    hosts: Callable[[Ctx], McpHost] = resolve
    waiter: Waiter = wait or _sleep
    feeds: weakref.WeakKeyDictionary[McpHost, Feed] = weakref.WeakKeyDictionary()
    group: list[anyio.abc.TaskGroup] = []  # the lifespan's task group, where watchers run

    def feed_of(h: McpHost) -> Feed:
        feed = feeds.get(h)
        if feed is None:
            feed = feeds[h] = Feed(h)
        return feed

    async def watch(feed: Feed) -> None:
        """While the client listens: wake on a move of its game (or every ``poll`` seconds) and tell it."""
        try:
            while feed.live():
                h = feed.host()
                await waiter(h.session_id if h is not None else None, poll)
                if feed.live():
                    await feed.check()
        except Exception:
            log.debug("a watcher stopped", exc_info=True)
        finally:
            feed.watching = False

    async def start_watching(feed: Feed, h: McpHost) -> None:
        if feed.last is None:
            feed.last = await anyio.to_thread.run_sync(_version, h)
        if not feed.watching and group:
            feed.watching = True
            group[0].start_soon(watch, feed)

    def apps_of(ctx: Ctx) -> bool:
        try:
            return client_supports_apps(ctx)
        except Exception:
            return False

    async def list_tools(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(entry) for entry in hosts(ctx).mcp_tools(apps_of(ctx))])

    async def call_tool(ctx: Ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        h = hosts(ctx)
        apps = apps_of(ctx)
        if apps and params.name == app.VIEW_TOOL:
            await _long_poll(h, params.arguments, waiter, poll)
        progress = _progress_of(ctx)
        try:
            reply = await anyio.to_thread.run_sync(lambda: h.call(params.name, params.arguments, apps=apps, progress=progress))
        except Exception as exc:  # McpHost.call never raises; this guards the thread hand-off itself
            log.exception("tool %r failed", params.name)
            return types.CallToolResult(content=[_text(f"internal error: {type(exc).__name__}")], is_error=True)
        await _send_logs(ctx, h, reply)
        if reply.unknown:
            names = ", ".join(t.name for t in h.tools(apps))
            raise MCPError(code=types.INVALID_PARAMS, message=f"unknown tool {str(params.name)[:100]!r}; the tools are: {names}",
                           data={"tools": [t.name for t in h.tools(apps)]})
        feed = feeds.get(h)
        if reply.tools_changed:
            await _announce_lists_changed(ctx, feed)
        if feed is not None and feed.live():
            await feed.check()
        return types.CallToolResult(
            content=[_text(reply.text)],
            structured_content=reply.result,
            is_error=reply.is_error,
            _meta={app.VIEW_META: reply.view} if reply.view is not None else None,
        )

    async def list_resources(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        h = hosts(ctx)
        return types.ListResourcesResult(
            resources=[
                types.Resource(uri=r.uri, name=r.name, title=r.title, description=r.description, mime_type=r.mime_type, _meta=r.meta)
                for r in h.resources(apps_of(ctx))
            ]
        )

    async def list_templates(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
        h = hosts(ctx)
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(uri_template=r.uri, name=r.name, title=r.title, description=r.description, mime_type=r.mime_type)
                for r in h.resource_templates()
            ]
        )

    async def read_resource(ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        h = hosts(ctx)
        try:
            text, mime = await anyio.to_thread.run_sync(h.read_resource, uri)
        except GameError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message, data={"uri": uri}) from None
        except Exception as exc:
            log.exception("resource %r failed", uri)
            raise MCPError(code=types.INTERNAL_ERROR, message=f"cannot read {uri}: {type(exc).__name__}") from None
        meta = app.resource_info().meta if uri == app.APP_URI else None
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, text=text, mime_type=mime, _meta=meta)])

    async def subscribe(ctx: Ctx, params: types.SubscribeRequestParams) -> types.EmptyResult:
        h = hosts(ctx)
        feed = feed_of(h)
        uri = str(params.uri)
        if uri not in feed.subscribed and len(feed.subscribed) >= MAX_SUBSCRIPTIONS:
            raise MCPError(code=types.INVALID_PARAMS, message=f"at most {MAX_SUBSCRIPTIONS} subscriptions per client; unsubscribe from one first")
        feed.subscribed.add(uri)
        feed.channel = ctx.session
        await start_watching(feed, h)
        return types.EmptyResult()

    async def unsubscribe(ctx: Ctx, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        feed = feeds.get(hosts(ctx))
        if feed is not None:
            feed.subscribed.discard(str(params.uri))
        return types.EmptyResult()

    async def listen(ctx: Ctx, params: types.SubscriptionsListenRequestParams) -> types.SubscriptionsListenResult:
        h = hosts(ctx)
        feed = feed_of(h)
        feed.streams += 1
        try:
            await start_watching(feed, h)
            return await feed.listen(ctx, params)
        finally:
            feed.streams -= 1

    async def list_prompts(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        h = hosts(ctx)
        args = [types.PromptArgument(name=n, description=d, required=False) for n, d in h.prompt_arguments()]
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=h.PROMPT,
                    title="Referee",
                    description="Sets you up as the referee of a gm game: the engine keeps the state, you call its tools.",
                    arguments=args,
                )
            ]
        )

    async def get_prompt(ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        h = hosts(ctx)
        if params.name != h.PROMPT:
            raise MCPError(code=types.INVALID_PARAMS, message=f"no prompt {params.name!r}; prompts: {h.PROMPT}")
        args = params.arguments or {}
        game, seat, session = (args.get(k) or None for k in ("game", "seat", "session"))
        try:
            text = await anyio.to_thread.run_sync(h.referee_prompt, game, seat, session)
            description = await anyio.to_thread.run_sync(h.prompt_description, game, session)
        except GameError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message) from None
        return types.GetPromptResult(description=description, messages=[types.PromptMessage(role="user", content=_text(text))])

    async def complete(ctx: Ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
        h = hosts(ctx)
        ref = params.ref
        name = ref.name if isinstance(ref, types.PromptReference) else str(ref.uri)
        context = dict(params.context.arguments or {}) if params.context is not None else {}
        values = await anyio.to_thread.run_sync(h.complete, name, params.argument.name, params.argument.value, context)
        return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))

    async def set_level(ctx: Ctx, params: types.SetLevelRequestParams) -> types.EmptyResult:
        try:
            hosts(ctx).set_log_level(params.level)
        except GameError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message) from None
        return types.EmptyResult()

    @asynccontextmanager
    async def lifespan(server: Any) -> AsyncIterator[dict[str, Any]]:
        async with anyio.create_task_group() as tg:
            group.append(tg)
            try:
                yield {}
            finally:
                group.remove(tg)
                tg.cancel_scope.cancel()

    server = GmServer(
        "gm",
        version=__version__,
        title="gm game master",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        get_tool_input_schema=host.input_schema if host is not None else None,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_subscribe_resource=subscribe,
        on_unsubscribe_resource=unsubscribe,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_completion=complete,
        on_subscriptions_listen=listen,
    )
    # (logging is deprecated at 2026-07-28; added as a plain handler so handshake-era clients keep it
    # without the constructor's deprecation warning)
    server.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)
    versions = list(HANDSHAKE_PROTOCOL_VERSIONS) if handshake_only else [*HANDSHAKE_PROTOCOL_VERSIONS, *MODERN_PROTOCOL_VERSIONS]

    async def discover(ctx: Ctx, params: types.RequestParams) -> types.DiscoverResult:
        return types.DiscoverResult(
            supported_versions=versions,
            capabilities=server.get_capabilities(protocol_version=ctx.protocol_version),
            instructions=server.instructions,
        )

    server.add_request_handler("server/discover", types.RequestParams, discover)
    return server


async def _long_poll(h: McpHost, args: Any, waiter: Waiter, poll: float) -> None:
    """Hold a view's ``app_view`` call (``since``, ``wait``) until the game moves or the time is up."""
    if not isinstance(args, dict):
        return
    since, wait = args.get("since"), args.get("wait")
    if not isinstance(since, str) or type(wait) is not int or not 0 < wait <= app.MAX_WAIT:
        return
    deadline = anyio.current_time() + wait
    while await anyio.to_thread.run_sync(_version, h) == since:
        left = deadline - anyio.current_time()
        if left <= 0:
            return
        await waiter(h.session_id, min(poll, left))


def _own_stream(ctx: Ctx) -> bool:
    """Whether notices about a request can ride the request's own stream (stdio, a streamed HTTP
    response, every 2026 request); ``gm serve`` answers handshake-era requests with plain JSON bodies
    (a streamed response doubles a call's latency), so its notices go on the client's standalone
    stream instead, the one channel there is."""
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        return True
    try:
        return bool(ctx.session.can_send_request)
    except Exception:
        return True


def _progress_of(ctx: Ctx) -> Callable[[int, str], None] | None:
    """A callback (for the worker thread) sending progress notifications, when the client asked for them."""
    meta: dict[str, Any] = dict(ctx.meta or {})
    token = meta.get("progressToken", meta.get("progress_token"))
    if token is None or isinstance(token, bool) or not isinstance(token, str | int):
        return None
    session = ctx.session
    own = _own_stream(ctx)

    async def send(done: int, message: str) -> None:
        if own:
            await session.report_progress(float(done), None, message)
        else:
            await session.send_progress_notification(token, float(done), None, message)

    def progress(done: int, message: str) -> None:
        try:
            anyio.from_thread.run(send, done, message)
        except Exception:  # a notice never fails the call
            log.debug("could not send progress", exc_info=True)

    return progress


async def _send_logs(ctx: Ctx, h: McpHost, reply: Reply) -> None:
    """The call's log entries the client wants: at its ``logging/setLevel`` level (handshake era), or
    at the level its request asked for (2026-07-28: per request, on the request's own stream)."""
    modern = ctx.protocol_version in MODERN_PROTOCOL_VERSIONS
    wanted = allowed_log_levels(ctx.protocol_version, ctx.meta) if modern else {lv for lv in LOG_LEVELS if h.wants_log(lv)}
    if not (reply.is_error or reply.result.get("bot_error") or wanted & {"info", "debug"}):
        return  # a call that went well says nothing at this client's level (its log is not even made)
    related = ctx.request_id if _own_stream(ctx) else None
    for entry in reply.logs:
        if entry.level not in wanted:
            continue
        note = types.LoggingMessageNotification(
            params=types.LoggingMessageNotificationParams(level=cast(types.LoggingLevel, entry.level), data=entry.data, logger=entry.logger)
        )
        try:
            await ctx.session.send_notification(note, related_request_id=related)
        except Exception:  # a log line never fails the call
            log.debug("could not send a log message", exc_info=True)


def _text(text: str) -> types.TextContent:
    return types.TextContent(type="text", text=text)


async def _announce_lists_changed(ctx: Ctx, feed: Feed | None) -> None:
    """Tell the client its tool and resource lists changed (best effort: a failed notice never fails the call)."""
    try:
        if feed is not None:
            await feed.bus.publish(ToolsListChanged())
            await feed.bus.publish(ResourcesListChanged())
        await ctx.session.send_tool_list_changed()
        await ctx.session.send_resource_list_changed()
    except Exception:
        log.debug("could not announce the list changes", exc_info=True)


class _BoundedLines:
    """The client's messages over stdin, one line each and at most ``limit`` bytes, for the SDK's stdio
    transport (which reads whatever line stdin gives: ``gm mcp < /dev/zero`` grew until MemoryError).
    A longer line is read to its end and dropped, and answered with a JSON-RPC parse error (id null)
    through ``reply`` (the transport's write stream, set once it exists); the server goes on."""

    def __init__(self, stream: BinaryIO, limit: int) -> None:
        self.stream = stream
        self.limit = limit
        self.reply: Any = None

    def __aiter__(self) -> _BoundedLines:
        return self

    async def __anext__(self) -> str:
        while True:
            try:
                line = await anyio.to_thread.run_sync(read_line_bytes, self.stream, self.limit, "a message")
            except FileTooLarge as e:
                log.warning("refused %s", e)
                await self._refuse(str(e))
                continue
            if not line:
                raise StopAsyncIteration
            return line.decode("utf-8", errors="replace")

    async def _refuse(self, why: str) -> None:
        from mcp.shared.message import SessionMessage

        error = types.JSONRPCError(jsonrpc="2.0", id=None, error=types.ErrorData(code=types.PARSE_ERROR, message=f"Parse error: {why}"))
        if self.reply is not None:
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                await self.reply.send(SessionMessage(error))


@contextmanager
def _claim_stdin() -> Iterator[BinaryIO]:
    """stdin's wire for the transport, with fd 0 pointed at the null device while serving (as the SDK
    does when it reads stdin itself: a handler or child that reads stdin reads nothing, never the wire)."""
    if os.name == "nt" or not _on_fd(sys.stdin, 0):
        yield sys.stdin.buffer
        return
    import fcntl

    wire = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield os.fdopen(wire, "rb", closefd=False)  # never closed: a worker thread may still block on it
    finally:
        os.dup2(wire, 0)


def _on_fd(stream: Any, fd: int) -> bool:
    try:
        return bool(stream.buffer.fileno() == fd)
    except (AttributeError, OSError, ValueError):
        return False


async def serve_stdio(host: McpHost, *, limit: int = MESSAGE_LIMIT) -> None:
    """Serve over stdin/stdout until the client closes the connection; a message (line) over ``limit``
    bytes is refused with a parse error and the server goes on."""
    from mcp.server.stdio import stdio_server

    server = build_server(host)
    with _claim_stdin() as wire:
        lines = _BoundedLines(wire, limit)
        async with stdio_server(stdin=cast(Any, lines)) as (read_stream, write_stream):
            lines.reply = write_stream
            await server.run(read_stream, write_stream, server.create_initialization_options())
