"""State tokens: a compact, checksummed text form of a game state.

A token carries exactly what :meth:`GameState.to_json` stores (setup + seed + action
log; ruleset fields equal to the game's defaults are left out), so a player can paste a
game into any chatbot and later bring it back with ``gm import TOKEN``::

    gm1.grid-football.<payload>.<checksum>

``payload`` is the canonical JSON, zlib-compressed and base64url-encoded (no padding);
``checksum`` is the first 16 hex digits of the SHA-256 of everything before it.  A pick
locked in but not yet revealed is never put in a token (hidden choices stay hidden).  Reading
a token ignores whitespace and line breaks anywhere (chatbots wrap long lines) and
surrounding quotes or backticks, but any changed character fails the checksum, and the
state is rebuilt by replaying its log, so a token can never smuggle in an illegal state.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
import zlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError, StateError

if TYPE_CHECKING:
    from gm.core.state import GameState

PREFIX = "gm1"
CHECKSUM_DIGITS = 16
RULE = "CORE-TOKEN"
_WS = re.compile(r"\s+")
_PAYLOAD = re.compile(r"^[A-Za-z0-9_-]+$")


def _checksum(body: str) -> str:
    return hashlib.sha256(body.encode("ascii")).hexdigest()[:CHECKSUM_DIGITS]


def _bad(reason: str, token: str) -> StateError:
    shown = token if len(token) <= 40 else f"{token[:20]}...{token[-12:]}"
    return StateError(reason, rule=RULE, input=shown)


def _compact_rules(state: GameState[Any]) -> dict[str, Any]:
    """The ruleset fields that differ from the game's defaults."""
    data = state.to_json()["rules"]
    if not isinstance(data, dict):
        return {}
    try:
        defaults = state.game.default_rules().model_dump(mode="json")
    except AttributeError:
        return data
    return {k: v for k, v in data.items() if defaults.get(k) != v}


def settled(state: GameState[Any]) -> tuple[GameState[Any], int]:
    """``state`` without its unrevealed secret picks, and how many log entries that drops.

    A pick locked in while the other side has not chosen yet is still secret (it shows
    only as ``locked`` in ``state.view``); a token or an exported session must not carry
    it, so the trailing log entries are left out until nothing is secret.
    """
    from gm.core.state import GameState

    if not state.has_locked_picks():
        return state, 0
    data = state.to_json()
    log = data["log"]
    for k in range(1, len(log) + 1):
        earlier = GameState.from_json({**data, "log": log[:-k]})
        if not earlier.has_locked_picks():
            return earlier, k
    return state.rebuilt(0), len(log)


def encode_state(state: GameState[Any]) -> str:
    """The state's token: ``gm1.<game id>.<payload>.<checksum>``.

    Unrevealed secret picks are left out (see :func:`settled`): hidden choices stay hidden.
    """
    state = settled(state)[0]
    data = state.to_json()
    data["rules"] = _compact_rules(state)
    return frame(PREFIX, state.game.id, data)


def frame(prefix: str, game_id: str, data: Mapping[str, Any]) -> str:
    """The token framing every gm token shares (``gm1`` here, ``gm2`` :mod:`gm.session.token`):
    ``<prefix>.<game id>.<payload>.<checksum>``, ``data`` as canonical JSON, zlib-compressed and
    base64url-encoded without padding, the checksum over everything before it."""
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    payload = base64.urlsafe_b64encode(zlib.compress(blob, 9)).decode("ascii").rstrip("=")
    body = f"{prefix}.{game_id}.{payload}"
    return f"{body}.{_checksum(body)}"


def clean_token(text: str) -> str:
    """``text`` without whitespace anywhere and without surrounding quotes or backticks."""
    return _WS.sub("", text).strip("`'\"")


def decode_token(text: str) -> dict[str, Any]:
    """The state JSON inside a token; :class:`StateError` (rule ``CORE-TOKEN``) if the token
    is malformed or its checksum does not match (a hand-edited or mangled token)."""
    return unframe(text, PREFIX, kind="state token", holds="state")


def unframe(text: str, prefix: str, *, kind: str = "token", reads: str | None = None, holds: str = "game") -> dict[str, Any]:
    """The JSON inside a token framed by :func:`frame` with ``prefix``; :class:`StateError` (rule
    ``CORE-TOKEN``) if it is malformed, of another version or changed.  ``kind``, ``reads`` (the
    versions the caller reads) and ``holds`` only word the errors."""
    token = clean_token(text)
    parts = token.split(".")
    if len(parts) != 4 or not parts[0].startswith("gm"):
        raise _bad(f"not a gm {kind} (expected {prefix}.<game>.<payload>.<checksum>)", token)
    version, game_id, payload, checksum = parts
    if version != prefix:
        raise _bad(f"unsupported token version {version!r}; this gm reads {reads or prefix} tokens", token)
    if _checksum(f"{version}.{game_id}.{payload}") != checksum.lower():
        raise _bad("checksum mismatch: the token was changed or mangled; paste it exactly as gm printed it", token)
    if not _PAYLOAD.match(payload):
        raise _bad("the token payload is not base64url text", token)
    try:
        data = json.loads(zlib.decompress(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))))
    except (binascii.Error, zlib.error, ValueError) as exc:
        raise _bad(f"the token payload cannot be read: {exc}", token) from None
    if not isinstance(data, dict) or data.get("game") != game_id:
        raise _bad(f"the token payload is not a {game_id} {holds}", token)
    return data


def state_from_token(text: str) -> GameState[Any]:
    """Rebuild the state in a token by replaying its log (raises :class:`StateError`)."""
    from gm.core.state import GameState

    data = decode_token(text)
    try:
        return GameState.from_json(data)
    except GameError as exc:
        detail = exc.reason if exc.input is None else f"{exc.input!r}: {exc.reason}"
        raise StateError(f"the token's game does not replay: {detail}", rule=RULE) from None
