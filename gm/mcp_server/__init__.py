"""``gm mcp``: the engine as an MCP server, so any MCP client can be the referee.

:class:`McpHost` (no SDK needed) is what both of gm's MCP servers share: a client's tools, calls,
resources, completions, referee prompt and board app (:mod:`gm.mcp_server.app`); :class:`GameHost`
is ``gm mcp``'s (sessions in the gm home), :class:`gm.server.mcp.ServedHost` is ``gm serve``'s.
:mod:`gm.mcp_server.server` serves a host with the ``mcp`` SDK over stdio, or over streamable HTTP
inside ``gm serve``.  Importing this package does not import the SDK.
"""

from gm.mcp_server.host import MCP_RULE, SESSION_TOOLS, GameHost, McpHost, Reply, document

__all__ = ["MCP_RULE", "SESSION_TOOLS", "GameHost", "McpHost", "Reply", "document"]
