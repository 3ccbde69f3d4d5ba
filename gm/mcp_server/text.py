"""Readable text for MCP tool results: what a model (or a person) reads first.

The structured content of a result is the full JSON dict of ``session.call``; the
text summarises it: narration, board, status, secret picks (commitments and
reveals), the outcome and who must act next, or for a rejection the rule id, the
reason and the legal options.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

#: keys a summary shows in its own way (or not at all)
_SHOWN = frozenset(
    {"ok", "tool", "kind", "seat", "status", "expected", "commitments", "reveal", "events", "narration", "board",
     "outcome", "action", "bot_error", "error"}
)
#: keys of a new_game / resume_session result its headline already shows
_SESSION_KEYS = frozenset({"session", "game", "game_name", "players", "seed", "rules_hash", "moves", "tools", "log"})
MAX_LEGAL = 40


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def legal_line(legal: Sequence[Any], limit: int = MAX_LEGAL) -> str:
    items = [str(x) for x in legal]
    more = f" ... ({len(items)} in all)" if len(items) > limit else ""
    return "; ".join(items[:limit]) + more


def next_line(expected: Sequence[Mapping[str, Any]], you: str | None) -> str:
    """``next: you (home) must call_play`` / ``next: nothing (the game is over)``."""
    if not expected:
        return "next: nothing (the game is over)"
    parts = []
    for e in expected:
        seat = str(e.get("seat"))
        who = f"you ({seat})" if seat == you else f"{seat} ({e.get('player', 'human')})"
        tools = " or ".join(e.get("tools") or []) or str(e.get("decision") or "act")
        parts.append(f"{who} must {tools}")
    return "next: " + "; ".join(parts)


def _secrets(result: Mapping[str, Any]) -> list[str]:
    lines = []
    for seat, rev in (result.get("reveal") or {}).items():
        ok = "verified" if rev.get("verified") else "NOT verified"
        lines.append(f"{seat}'s locked pick was {rev.get('choice')!r} (nonce {rev.get('nonce')}, commitment {ok})")
    for seat, digest in (result.get("commitments") or {}).items():
        lines.append(f"{seat} has locked a secret pick: commitment sha256 {digest} (revealed once you have chosen)")
    return lines


def _outcome(outcome: Any) -> str | None:
    if not outcome:
        return None
    if isinstance(outcome, Mapping):
        who = "a draw" if outcome.get("winner") is None else f"{outcome['winner']} wins"
        why = f" ({outcome['reason']})" if outcome.get("reason") else ""
        rule = f" [{outcome['rule']}]" if outcome.get("rule") else ""
        score = outcome.get("score") or {}
        tally = "; score " + ", ".join(f"{k} {v}" for k, v in score.items()) if score else ""
        return f"GAME OVER: {who}{why}{rule}{tally}"
    return f"GAME OVER: {outcome}"


def summary(result: Mapping[str, Any]) -> str:
    """The text of one tool result (``session.call`` or a session-management tool)."""
    you = result.get("seat") if isinstance(result.get("seat"), str) else None
    lines: list[str] = []
    if not result.get("ok"):
        err = result.get("error") or {}
        lines.append(f"Rejected [{err.get('rule', 'CORE')}]: {err.get('reason', 'the call was refused')}")
        if err.get("input") not in (None, ""):
            lines.append(f"input: {err['input']}")
        if err.get("legal"):
            lines.append(f"legal: {legal_line(err['legal'])}")
        lines.append("Nothing changed.")
    else:
        if result.get("kind") == "session":
            lines.extend(_session_head(result))
        if result.get("action"):
            lines.append(f"{you or 'you'}: {result['action']}")
        lines.extend(str(t) for t in result.get("narration") or [])
        if result.get("board"):
            lines.extend(["", str(result["board"]).rstrip("\n"), ""])
        for key, value in result.items():
            if key in _SHOWN or value in (None, "", [], {}) or (result.get("kind") == "session" and key in _SESSION_KEYS):
                continue
            if key == "legal" and isinstance(value, list):
                lines.append(f"legal ({len(value)}): {legal_line(value)}")
            elif key == "rules" and isinstance(value, Mapping):
                lines.extend(f"{rid}: {text}" for rid, text in value.items())
            elif key == "sessions" and isinstance(value, list):
                lines.extend(_session_line(s) for s in value)
            elif isinstance(value, str) and "\n" in value:
                lines.extend([f"{key}:", value.rstrip("\n")])
            else:
                lines.append(f"{key}: {value if isinstance(value, str) else _json(value)}")
        if result.get("bot_error"):
            lines.append(f"bot problem: {result['bot_error']}")
    lines.extend(_secrets(result))
    if result.get("status"):
        lines.append(str(result["status"]))
    end = _outcome(result.get("outcome"))
    if end:
        lines.append(end)
    if "expected" in result:
        lines.append(next_line(result.get("expected") or [], you))
    return "\n".join(lines).strip("\n") or "ok"


def _session_line(s: Mapping[str, Any]) -> str:
    if s.get("error"):
        return f"- {s.get('id')}: unreadable ({s['error']})"
    players = ", ".join(f"{seat} {p}" for seat, p in (s.get("players") or {}).items())
    you = f"you play {s['you']}" if s.get("you") else "not resumable here (not exactly one human side)"
    return f"- {s.get('id')}: {s.get('game')}, {s.get('moves')} moves, updated {s.get('updated')}; {players}; {you}"


def _session_head(r: Mapping[str, Any]) -> list[str]:
    you = r.get("seat")
    others = ", ".join(f"{seat} ({p})" for seat, p in (r.get("players") or {}).items() if seat != you)
    verb = "New game" if r.get("tool") == "new_game" else "Resumed"
    lines = [
        f"{verb}: {r.get('game_name') or r.get('game')}, session {r.get('session')} (seed {r.get('seed')}, {r.get('moves')} moves so far).",
        f"You play {you} against {others}. Game tools: {', '.join(r.get('tools') or [])}.",
    ]
    log = r.get("log") or []
    if log:
        lines.append("last moves: " + "; ".join(f"{seat}: {text}" for seat, text in log))
    return lines
