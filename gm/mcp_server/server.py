"""The MCP wiring of :class:`gm.mcp_server.host.GameHost` (the official ``mcp`` SDK, version 2).

A low-level :class:`mcp.server.lowlevel.Server`: the tool list is data (the registry's
schemas), not Python signatures, so the handlers are written out here.

- ``tools/list``: :meth:`GameHost.mcp_tools`; when a call switches the active game the
  server announces ``notifications/tools/list_changed`` (handshake-era clients) and
  publishes it to ``subscriptions/listen`` streams (2026-era clients).
- ``tools/call``: structured content = the result dict, text content = its summary;
  a rejection is a tool error (``is_error``) whose text names rule id, reason and legal
  options.  Calls run in a worker thread (bots may think) one at a time.
- ``resources/*`` and ``prompts/*``: the host's resources and the ``referee`` prompt.

Transports: stdio here; streamable HTTP is ``gm serve`` (:mod:`gm.server.app`), which builds this
server with a host per client.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.models import InitializationOptions
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ToolsListChanged
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from gm import __version__
from gm.core.errors import GameError
from gm.mcp_server.host import GameHost

log = logging.getLogger("gm.mcp")

INSTRUCTIONS = (
    "gm: a deterministic rules engine for board games. You are the referee: the user plays one side "
    "and the built-in bot the others. Start with new_game (or resume_session), then make the user's decisions "
    "with the game tools; every result carries the narration, the board and who must act next. The prompt "
    "'referee' explains the role; the resource gm://rules has the rules."
)

Ctx = ServerRequestContext[Any, Any]


class GmServer(Server[Any]):
    """The low-level server, announcing ``tools.listChanged`` on every transport."""

    def create_initialization_options(
        self,
        notification_options: NotificationOptions | None = None,
        experimental_capabilities: dict[str, dict[str, Any]] | None = None,
        extensions: dict[str, dict[str, Any]] | None = None,
    ) -> InitializationOptions:
        return super().create_initialization_options(
            notification_options or NotificationOptions(tools_changed=True), experimental_capabilities, extensions
        )


def build_server(host: GameHost | None = None, *, resolve: Callable[[Ctx], Any] | None = None, handshake_only: bool = False) -> GmServer:
    """The MCP server of ``host`` (one client: stdio), or of the host ``resolve`` finds for each
    request (``gm serve``: a host per client).  ``handshake_only``: ``server/discover`` advertises the
    handshake-era protocol versions only, so clients open a session (which keeps their game)."""
    bus = InMemorySubscriptionBus()
    if resolve is None:
        if host is None:
            raise ValueError("build_server needs a host or a resolver")
        fixed = host

        def resolve(ctx: Ctx) -> Any:
            return fixed

    hosts: Callable[[Ctx], Any] = resolve

    async def list_tools(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[types.Tool.model_validate(entry) for entry in hosts(ctx).mcp_tools()])

    async def call_tool(ctx: Ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        host = hosts(ctx)
        try:
            reply = await anyio.to_thread.run_sync(host.call, params.name, params.arguments)
        except Exception as exc:  # GameHost.call never raises; this guards the thread hand-off itself
            log.exception("tool %r failed", params.name)
            return types.CallToolResult(content=[_text(f"internal error: {type(exc).__name__}")], is_error=True)
        if reply.tools_changed:
            await _announce_tools_changed(ctx, bus)
        return types.CallToolResult(
            content=[_text(reply.text)],
            structured_content=reply.result,
            is_error=reply.is_error,
        )

    async def list_resources(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        host = hosts(ctx)
        return types.ListResourcesResult(
            resources=[
                types.Resource(uri=r.uri, name=r.name, title=r.title, description=r.description, mime_type=r.mime_type)
                for r in host.resources()
            ]
        )

    async def list_templates(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
        host = hosts(ctx)
        return types.ListResourceTemplatesResult(
            resource_templates=[
                types.ResourceTemplate(
                    uri_template=r.uri, name=r.name, title=r.title, description=r.description, mime_type=r.mime_type
                )
                for r in host.resource_templates()
            ]
        )

    async def read_resource(ctx: Ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        host = hosts(ctx)
        try:
            text, mime = await anyio.to_thread.run_sync(host.read_resource, uri)
        except GameError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message, data={"uri": uri}) from None
        except Exception as exc:
            log.exception("resource %r failed", uri)
            raise MCPError(code=types.INTERNAL_ERROR, message=f"cannot read {uri}: {type(exc).__name__}") from None
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, text=text, mime_type=mime)])

    async def list_prompts(ctx: Ctx, params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        host = hosts(ctx)
        args = [types.PromptArgument(name=n, description=d, required=False) for n, d in host.prompt_arguments()]
        return types.ListPromptsResult(
            prompts=[
                types.Prompt(
                    name=host.PROMPT,
                    title="Referee",
                    description="Sets you up as the referee of a gm game: the engine keeps the state, you call its tools.",
                    arguments=args,
                )
            ]
        )

    async def get_prompt(ctx: Ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        host = hosts(ctx)
        if params.name != host.PROMPT:
            raise MCPError(code=types.INVALID_PARAMS, message=f"no prompt {params.name!r}; prompts: {host.PROMPT}")
        args = params.arguments or {}
        try:
            text = await anyio.to_thread.run_sync(host.referee_prompt, args.get("game") or None, args.get("seat") or None)
        except GameError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=exc.message) from None
        return types.GetPromptResult(
            description=f"Referee of {host.game.name}",
            messages=[types.PromptMessage(role="user", content=_text(text))],
        )

    server = GmServer(
        "gm",
        version=__version__,
        title="gm game master",
        instructions=INSTRUCTIONS,
        get_tool_input_schema=host.input_schema if host is not None else None,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,
        on_get_prompt=get_prompt,
        on_subscriptions_listen=ListenHandler(bus),
    )
    if handshake_only:

        async def discover(ctx: Ctx, params: types.RequestParams) -> types.DiscoverResult:
            return types.DiscoverResult(
                supported_versions=list(HANDSHAKE_PROTOCOL_VERSIONS),
                capabilities=server.get_capabilities(protocol_version=ctx.protocol_version),
                instructions=server.instructions,
            )

        server.add_request_handler("server/discover", types.RequestParams, discover)
    return server


def _text(text: str) -> types.TextContent:
    return types.TextContent(type="text", text=text)


async def _announce_tools_changed(ctx: Ctx, bus: InMemorySubscriptionBus) -> None:
    """Tell the client the tool list changed (best effort: a failed notice never fails the call)."""
    try:
        await bus.publish(ToolsListChanged())
        await ctx.session.send_tool_list_changed()
    except Exception:
        log.debug("could not announce the tool list change", exc_info=True)


async def serve_stdio(host: GameHost) -> None:
    """Serve over stdin/stdout until the client closes the connection."""
    from mcp.server.stdio import stdio_server

    server = build_server(host)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
