"""``gm mcp``: the engine as an MCP server, so any MCP client can be the referee.

:class:`GameHost` (no SDK needed) holds the sessions, tools, resources and the
referee prompt; :mod:`gm.mcp_server.server` serves it with the ``mcp`` SDK over
stdio or loopback HTTP.  Importing this package does not import the SDK.
"""

from gm.mcp_server.host import MCP_RULE, SESSION_TOOLS, GameHost, Reply, document

__all__ = ["MCP_RULE", "SESSION_TOOLS", "GameHost", "Reply", "document"]
