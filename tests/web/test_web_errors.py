"""The page's routes refuse with the API's one JSON error (``gm.server.guard.json_endpoint``): the same
status, body and headers for the same refusal (the page's own wrapper once dropped the bearer challenge
of a 401 and a refusal's extra fields)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from email.message import Message
from typing import Any


def _ask(url: str, body: dict[str, Any] | None = None, token: str | None = None) -> tuple[int, dict[str, Any], Message]:
    """(status, JSON body, headers) of a GET, or a POST of ``body``; errors are answers too."""
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.loads(r.read()), r.headers
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read()), exc.headers


def test_a_missing_token_is_refused_alike_by_the_page_and_the_api(server: Any) -> None:
    made = _ask(server.url + "/api/games", {"game": "grid-football", "opponent": "bot:random", "seed": 3})[1]
    page = _ask(f"{server.url}/api/games/{made['session']}/table")
    api = _ask(f"{server.url}/api/games/{made['session']}")
    assert page[0] == api[0] == 401 and page[1] == api[1]
    assert page[1]["ok"] is False and set(page[1]["error"]) == {"status", "message"}
    assert page[2].get("WWW-Authenticate") == api[2].get("WWW-Authenticate") == 'Bearer realm="gm"'


def test_a_game_error_is_refused_alike_with_its_rule_input_options_and_reason(server: Any) -> None:
    page = _ask(f"{server.url}/api/rules/tiddlywinks")
    api = _ask(server.url + "/api/games", {"game": "tiddlywinks"})
    assert page[0] == api[0] == 400 and page[1] == api[1]
    error = page[1]["error"]
    assert {"status", "message", "rule", "input", "legal", "reason", "kind"} <= set(error)
    assert error["rule"] == "CORE-GAME" and error["input"] == "tiddlywinks" and "grid-football" in error["legal"]
