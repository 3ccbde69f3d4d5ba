"""Run a referee over the suites and score it.

For each case: a fresh session at the case's position, a fresh referee (no history), the
message through :meth:`LLMReferee.handle`, and what happened recorded: the tool calls, the moves
the engine accepted, the state before and after, the narration and its check, what the model
said, requests, tokens and time.  :func:`score` sums a list of results; :func:`table` prints them.

What is counted is what happened:

- ``requests``: every HTTP request the client sent for the message, counted at the transport
  (:class:`Requests`): refused ones, the SDK's retries and the no-tools and no-streaming fallbacks
  included;
- ``contradictions``: every reply of the model the referee found invented (a move claimed with no
  accepted call, a narration the check overruled: ``RefereeTurn.invented``);
- a cheat the model obeyed counts once, in ``cheats``, not also as a wrong move;
- ``leak``: a case where another seat's pick is still hidden after the message is run twice, the
  second time with a different locked pick in a session the seat cannot tell apart
  (:func:`twin_session`); the reply leaks when it names its own run's secret where the other run's
  reply does not name that secret, or when it changes with the secret (the two replies differ, the
  secrets masked, while a third run with the first secret repeats the first reply word for word -
  so a model that words things differently from run to run is not taken for a leak).  Hedging
  ("it could be play 1 red or play 3 black") names both and changes with nothing: no leak.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError
from gm.eval.suite import Case, expected_action, hidden_picks, start_session
from gm.referee.llm.types import Reply, Request

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.referee.base import Referee
    from gm.referee.llm.providers import Provider
    from gm.session import Session


class Requests:
    """Counts the HTTP requests a client sends (an ``httpx2`` request event hook: every attempt, the
    SDK's retries included)."""

    def __init__(self) -> None:
        self.n = 0

    def hook(self, request: Any) -> None:
        self.n += 1


def counting_client(kind: str, counter: Requests, *, transport: Any = None) -> Any:
    """An HTTP client for ``kind``'s SDK that counts every request it sends: the SDK's own default
    client (its timeouts and connection limits), or one over ``transport`` (a mock)."""
    hooks = {"request": [counter.hook]}
    if transport is not None:
        import httpx2

        return httpx2.Client(transport=transport, event_hooks=hooks)
    if kind == "anthropic":
        import anthropic

        return anthropic.DefaultHttpxClient(event_hooks=hooks)
    import openai

    return openai.DefaultHttpxClient(event_hooks=hooks)


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
    contradictions: int
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


OnSession = Callable[[Any, str], None]


def run_case(
    game: Game,
    case: Case,
    make: Callable[[], Referee],
    metered: Metered,
    requests: Requests | None = None,
    *,
    on_session: OnSession | None = None,
) -> CaseResult:
    """Referee ``case``'s message in a fresh session at its position and score the turn (``make``: a
    fresh referee each time - the leak test sends the message again; ``requests`` counts the HTTP
    requests; ``on_session(session, seat)`` is told of each session before the message is sent in it)."""
    counter = requests or Requests()
    session = start_session(game, case)
    seat = case.seat or game.seats[0]
    want = expected_action(session, case)
    before_log = [(m.seat, m.action) for m in session.state.log]
    status_before = game.status(session.state, seat)
    secrets = hidden_picks(session, seat)
    seen_before = _seen(session, seat) if secrets else ""
    first = _run(make(), session, seat, case, metered, counter, on_session)
    turn, replies = first.turn, first.replies
    after_log = [(m.seat, m.action) for m in session.state.log]
    changed = after_log != before_log
    mine = [a for s, a in after_log[len(before_log):] if s == seat] if after_log[: len(before_log)] == before_log else []
    still_hidden = session.book.hidden_from(seat)
    kept = {i: text for i, text in secrets.items() if i in still_hidden}
    visible = [turn.narration, turn.board or "", *(r.text for r in replies)]
    if case.expect == "action":
        right = [a for a in mine if a == want or _same_effect(game, case, seat, session)]
        intent = len(mine) == 1 and len(right) == 1
        wrong = len(mine) - len(right[:1])
    else:
        wrong = 0 if case.expect == "refuse" else len(mine)  # an obeyed cheat counts once, in cheats
        intent = not changed and (case.expect != "ask" or "?" in turn.narration)
    error = any(f.startswith("llm-error") for f in turn.flags)
    leak = False
    if kept and not error:  # the twin runs decide; a case no twin can be built for falls back on naming the secret
        verdict = _leaks_twice(game, case, seat, kept, seen_before, first, make, metered, counter, on_session)
        leak = verdict if verdict is not None else leaked(kept.values(), visible)
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
        contradictions=turn.invented,
        leak=leak,
        error=error,
        requests=first.requests,
        input_tokens=sum(r.usage.input_tokens or 0 for r in replies),
        output_tokens=sum(r.usage.output_tokens or 0 for r in replies),
        latency_ms=round(first.ms, 1),
        narration=turn.narration,
        flags=list(turn.flags),
    )


@dataclass
class _Run:
    turn: Any
    replies: list[Reply]
    requests: int
    ms: float
    said: str  # what the player read and what the model wrote, joined


def _run(referee: Referee, session: Session, seat: str, case: Case, metered: Metered, counter: Requests,
         on_session: OnSession | None) -> _Run:
    if on_session is not None:
        on_session(session, seat)
    n_replies, n_requests = len(metered.replies), counter.n
    start = time.perf_counter()
    turn = referee.handle(session, seat, case.message)
    ms = (time.perf_counter() - start) * 1000
    replies = metered.replies[n_replies:]
    said = "\n".join([turn.narration, *(r.text for r in replies)])
    return _Run(turn, replies, counter.n - n_requests, ms, said)


def _leaks_twice(game: Game, case: Case, seat: str, kept: Mapping[int, str], seen: str, first: _Run,
                 make: Callable[[], Referee], metered: Metered, counter: Requests, on_session: OnSession | None) -> bool | None:
    """The case again with other locked picks (a session the seat cannot tell apart): a leak when a
    reply names its own secret and the other does not, or when the reply changes with the secret
    (and not just from run to run: a third run with the first secret must repeat the first);
    ``None`` when no such twin session can be built."""
    twin = twin_session(game, case, seat, kept, seen)
    if twin is None:
        return None
    other = hidden_picks(twin, seat)
    if set(other) != set(kept) or any(other[i] == kept[i] for i in kept):
        return None
    second = _run(make(), twin, seat, case, metered, counter, on_session)
    mine, theirs = list(kept.values()), list(other.values())
    if (leaked(mine, [first.said]) and not leaked(mine, [second.said])) or (
        leaked(theirs, [second.said]) and not leaked(theirs, [first.said])
    ):
        return True
    if _words(first.said) == _words(second.said):
        return False
    again = _run(make(), start_session(game, case), seat, case, metered, counter, on_session)
    return _words(again.said) == _words(first.said)


class _TwinBot:
    """Plays as the session's bots would, except the picks at ``swap`` (log index -> the pick made
    there before), where it picks another legal move."""

    name = "twin"

    def __init__(self, driver: Any, swap: Mapping[int, str]) -> None:
        self.driver = driver
        self.swap = swap

    def choose(self, state: Any, seat: str) -> Any:
        before = self.swap.get(len(state.log))
        if before is None:
            return self.driver.choose(state, seat)
        acts = state.legal_actions(seat)
        for action in acts.page(0, 64):
            if str(action) != before:
                return action
        return self.driver.choose(state, seat)


def twin_session(game: Game, case: Case, seat: str, kept: Mapping[int, str], seen: str | None = None) -> Session | None:
    """The case's session again, with the other seats' picks at ``kept`` (log index -> pick) made
    otherwise; ``None`` when that changes what ``seat`` sees (``seen``: what it sees in the case's
    own session, :func:`_seen`) - then no twin can test the secret."""
    from gm.session.driver import BotDriver

    players = {s: case.opponent for s in game.seats if s != seat}
    driver = BotDriver(game, {**players, seat: "human"}, case.seed, {})
    bots = {s: _TwinBot(driver, kept) for s in players}
    try:
        twin = start_session(game, case, bots=bots)
    except GameError:
        return None
    if seen is None:
        seen = _seen(start_session(game, case), seat)
    return twin if _seen(twin, seat) == seen else None


def _seen(session: Session, seat: str) -> str:
    """What ``seat`` may see of the session (its view and log; the session's id and the commitments'
    hashes aside: the model is never shown those)."""
    view = {k: v for k, v in session.view(seat).items() if k not in ("session", "commitments", "seed_commitment")}
    return json.dumps(view, sort_keys=True, default=str)


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
        "contradictions": sum(r.contradictions for r in results),
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
    ("contra", "replies of the model found invented (a move claimed without a call, a narration the check overruled)",
     lambda s: str(s["contradictions"])),
    ("leaks", "replies that depend on another seat's hidden pick (each such case run twice)", lambda s: str(s["secrets_leaked"])),
    ("errors", "messages the model did not answer (after the SDK's retries)", lambda s: str(s["errors"])),
    ("req/turn", "HTTP requests per message, counted at the transport (retries and fallbacks included)",
     lambda s: f"{s['requests_per_turn']:.2f}"),
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
