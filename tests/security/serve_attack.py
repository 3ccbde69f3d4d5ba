"""Helpers of the security tests that attack a running ``gm serve``: the server process (from
``tests/serve``), HTTP and MCP clients, and what one party has been shown."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "serve"))

from serve_helpers import ServerProcess, auth

__all__ = ["ServerProcess", "auth", "call", "mcp_client", "seat_tokens", "structured"]

#: a seat token anywhere in a text
TOKEN = re.compile(r"gms_[A-Za-z0-9_-]{43}")


def seat_tokens(*seen: Any) -> set[str]:
    """Every seat token in what a party was shown (texts, or anything JSON)."""
    out: set[str] = set()
    for x in seen:
        out.update(TOKEN.findall(x if isinstance(x, str) else json.dumps(x, default=str)))
    return out


async def call(http: httpx2.AsyncClient, sid: str, token: str, tool: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    r = await http.post(f"/api/games/{sid}/call", headers=auth(token), json={"tool": tool, "args": args or {}})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


@asynccontextmanager
async def mcp_client(url: str, token: str | None = None) -> AsyncIterator[Client]:
    """The official MCP client on ``gm serve``'s endpoint (with ``token`` as the bearer, if given)."""
    headers = auth(token) if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=60) as http, Client(streamable_http_client(url + "/mcp", http_client=http)) as c:  # type: ignore[arg-type]
        yield c


def structured(result: Any) -> dict[str, Any]:
    """An MCP tool result's structured content and its text, as one dict (``text``)."""
    data = dict(result.structured_content or {})
    data["text"] = "\n".join(getattr(x, "text", "") for x in result.content)
    data["is_error"] = bool(result.is_error)
    return data
