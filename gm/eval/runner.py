"""Run a referee over the suites and score it.

For each case: a fresh session at the case's position, a fresh referee (no history), the
message through :meth:`LLMReferee.handle`, and what happened recorded: the tool calls, the moves
the engine accepted, the state before and after, the narration and its check, what the model
said, requests, tokens and time.  :func:`score` sums a list of results; :func:`table` prints them.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from gm.eval.suite import Case, expected_action, hidden_picks, start_session
from gm.referee.llm.types import Reply, Request

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.referee.base import Referee
    from gm.referee.llm.providers import Provider
    from gm.session import Session


class Metered:
    """A provider wrapper that keeps each reply's text, usage and time."""

    def __init__(self, provider: Provider) -> None:
        self.provider = provider
        self.kind = provider.kind
        self.model = provider.model
        self.replies: list[Reply] = []
        self.seconds: list[float] = []

    def complete(self, request: Request) -> Reply:
        start = time.perf_counter()
        try:
            reply = self.provider.complete(request)
        finally:
            self.seconds.append(time.perf_counter() - start)
        self.replies.append(reply)
        return reply


@dataclass
class CaseResult:
    """What one case's turn did, and how it scores."""

    game: str
    id: str
    category: str
    expect: str
    message: str
    expected: str | None
    calls: list[dict[str, Any]]
    moves: list[str]
    intent_ok: bool
    wrong_moves: int
    illegal_calls: int
    status_before: str
    status_after: str
    changed: bool
    cheat_changed: bool
    contradiction: bool
    leak: bool
    error: bool
    requests: int
    input_tokens: int
    output_tokens: int
    latency_ms: float
    narration: str
    flags: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _words(text: str) -> str:
    return " ".join(text.lower().split())


def leaked(secrets: Iterable[str], texts: Iterable[str]) -> bool:
    """Whether any secret move's text appears (as whole words) in what the player sees."""
    seen = _words("\n".join(texts))
    return any(re.search(rf"(?<!\w){re.escape(_words(s))}(?!\w)", seen) for s in secrets if s.strip())


def run_case(game: Game, case: Case, referee: Referee, metered: Metered) -> CaseResult:
    """Referee ``case``'s message in a fresh session at its position and score the turn."""
    session = start_session(game, case)
    seat = case.seat or game.seats[0]
    want = expected_action(session, case)
    before_log = [(m.seat, m.action) for m in session.state.log]
    status_before = game.status(session.state, seat)
    secrets = hidden_picks(session, seat)
    n_replies = len(metered.replies)
    start = time.perf_counter()
    turn = referee.handle(session, seat, case.message)
    latency = (time.perf_counter() - start) * 1000
    replies = metered.replies[n_replies:]
    after_log = [(m.seat, m.action) for m in session.state.log]
    changed = after_log != before_log
    mine = [a for s, a in after_log[len(before_log):] if s == seat] if after_log[: len(before_log)] == before_log else []
    still_hidden = session.book.hidden_from(seat)
    kept = [text for i, text in secrets.items() if i in still_hidden]
    visible = [turn.narration, turn.board or "", *(r.text for r in replies)]
    if case.expect == "action":
        right = [a for a in mine if a == want or _same_effect(game, case, seat, session)]
        intent = len(mine) == 1 and len(right) == 1
        wrong = len(mine) - len(right[:1])
    else:
        wrong = len(mine)
        intent = not changed and (case.expect != "ask" or "?" in turn.narration)
    error = any(f.startswith("llm-error") for f in turn.flags)
    return CaseResult(
        game=game.id,
        id=case.id,
        category=case.category,
        expect=case.expect,
        message=case.message,
        expected=str(want) if want is not None else None,
        calls=[{"tool": c.tool, "args": dict(c.args), "ok": c.ok,
                "rule": None if c.ok else (c.result.get("error") or {}).get("rule")} for c in turn.calls],
        moves=[str(a) for a in mine],
        intent_ok=intent and not error,  # a model that did not answer got nothing right
        wrong_moves=wrong,
        illegal_calls=sum(1 for c in turn.calls if not c.ok),
        status_before=status_before,
        status_after=game.status(session.state, seat),
        changed=changed,
        cheat_changed=case.expect == "refuse" and changed,
        contradiction=any(f.startswith("narration-check") for f in turn.flags),
        leak=leaked(kept, visible),
        error=error,
        requests=len(replies) + sum(1 for f in turn.flags if f.startswith("llm-error")),
        input_tokens=sum(r.usage.input_tokens or 0 for r in replies),
        output_tokens=sum(r.usage.output_tokens or 0 for r in replies),
        latency_ms=round(latency, 1),
        narration=turn.narration,
        flags=list(turn.flags),
    )


def _same_effect(game: Game, case: Case, seat: str, session: Session) -> bool:
    """Whether the expected call, made at the case's position, leaves the game as ``session`` is
    (the same move said another way: a path left out, a default spelt out)."""
    twin = start_session(game, case)
    if not twin.call(str(case.tool), dict(case.args), seat).get("ok"):
        return False
    strip = ("last",)
    mine = {k: v for k, v in session.state.snapshot().items() if k not in strip}
    theirs = {k: v for k, v in twin.state.snapshot().items() if k not in strip}
    return mine == theirs and len(twin.state.log) == len(session.state.log)


def _pct(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(q * len(ordered)) - 1)], 1)


def score(results: Sequence[CaseResult]) -> dict[str, Any]:
    """The scores of a list of case results."""
    n = len(results)
    ok = sum(r.intent_ok for r in results)
    latencies = [r.latency_ms for r in results]
    return {
        "cases": n,
        "intent_ok": ok,
        "intent_accuracy": round(ok / n, 3) if n else 0.0,
        "wrong_moves": sum(r.wrong_moves for r in results),
        "illegal_calls": sum(r.illegal_calls for r in results),
        "cheat_cases": sum(r.expect == "refuse" for r in results),
        "cheats_changed_state": sum(r.cheat_changed for r in results),
        "contradictions": sum(r.contradiction for r in results),
        "secrets_leaked": sum(r.leak for r in results),
        "errors": sum(r.error for r in results),
        "requests_per_turn": round(sum(r.requests for r in results) / n, 2) if n else 0.0,
        "input_tokens_per_turn": round(sum(r.input_tokens for r in results) / n, 1) if n else 0.0,
        "output_tokens_per_turn": round(sum(r.output_tokens for r in results) / n, 1) if n else 0.0,
        "latency_p50_ms": _pct(latencies, 0.5),
        "latency_p95_ms": _pct(latencies, 0.95),
    }


def report(results: Sequence[CaseResult], *, referee: str, model: str | None) -> dict[str, Any]:
    """Scores per game, per category of message and overall, and every case's result (the ``--json``
    document)."""
    games: dict[str, list[CaseResult]] = {}
    categories: dict[str, list[CaseResult]] = {}
    for r in results:
        games.setdefault(r.game, []).append(r)
        categories.setdefault(r.category, []).append(r)
    return {
        "referee": referee,
        "model": model,
        "games": {g: score(rs) for g, rs in games.items()},
        "categories": {c: score(rs) for c, rs in sorted(categories.items())},
        "overall": score(results),
        "cases": [r.to_json() for r in results],
    }


COLUMNS: tuple[tuple[str, str, Callable[[Mapping[str, Any]], str]], ...] = (
    ("intent", "cases where the engine got exactly the right call (or, rightly, none)",
     lambda s: f"{s['intent_ok']}/{s['cases']}"),
    ("wrong", "moves made that the player did not ask for", lambda s: str(s["wrong_moves"])),
    ("illegal", "tool calls the engine refused", lambda s: str(s["illegal_calls"])),
    ("cheats", "cheating attempts that changed the game / attempts", lambda s: f"{s['cheats_changed_state']}/{s['cheat_cases']}"),
    ("contra", "narrations the engine's account contradicted", lambda s: str(s["contradictions"])),
    ("leaks", "another seat's hidden pick shown to the player", lambda s: str(s["secrets_leaked"])),
    ("errors", "messages the model did not answer (after the SDK's retries)", lambda s: str(s["errors"])),
    ("req/turn", "model requests per message", lambda s: f"{s['requests_per_turn']:.2f}"),
    ("tok in", "input tokens per message", lambda s: f"{s['input_tokens_per_turn']:.1f}"),
    ("tok out", "output tokens per message", lambda s: f"{s['output_tokens_per_turn']:.1f}"),
    ("p50 ms", "median time per message", lambda s: f"{s['latency_p50_ms']:.0f}"),
    ("p95 ms", "95th percentile time per message", lambda s: f"{s['latency_p95_ms']:.0f}"),
)


def table(doc: Mapping[str, Any], *, latency: bool = True) -> str:
    """The scores as a plain-text table, one row per game and one overall."""
    cols = [c for c in COLUMNS if latency or not c[0].endswith(" ms")]
    rows = [["game", *(c[0] for c in cols)]]
    for name, s in [*doc["games"].items(), ("overall", doc["overall"])]:
        rows.append([name, *(c[2](s) for c in cols)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths, strict=True))).rstrip()
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.insert(-1, lines[1])
    return "\n".join(lines)
