"""What an MCP host says of one resource it serves (its own module, so the board app
(:mod:`gm.mcp_server.app`) describes its resource without importing the host that imports it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ResourceInfo:
    uri: str
    name: str
    title: str
    description: str
    mime_type: str
    meta: dict[str, Any] | None = field(default=None)
