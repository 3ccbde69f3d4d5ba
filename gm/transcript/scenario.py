r"""Hand-written scenarios: Markdown files that read like a game and test like one.

A scenario starts with TOML front matter between ``+++`` lines (``game``,
``seed``, optional ``title``, ``players`` – all human by default –, ``chance``
– the chance generator; without it ``mt19937``, what every scenario written
before generators were named used – and a ``[rules]`` table of overrides).  After it, prose is free; these lines are steps:

``> SEAT: text``
    the player at SEAT says ``text`` to the offline referee
``$ SEAT TOOL {json args}``
    a direct tool call (SEAT ``-`` = a spectator query)
``? ok`` / ``? error RULE-ID``
    the last call was accepted / rejected under that rule id
``? event KIND-OR-RULE``
    the last step produced an event of that kind or rule id
``? says TEXT``
    the last step's narration (or result texts) contains TEXT
``? state PATH = JSON``
    a field of the spectator view of the state (dotted path; list items by index) equals the value

and a fenced block whose info string is ``board [SEAT] [full]`` is the exact
board that SEAT (default: spectators) sees now.  The first failed expectation
is the scenario's divergence, shown with a diff as for recorded transcripts.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm.core.errors import GameError, StateError
from gm.transcript.replay import Divergence, ReplayResult, rules_of, unified

FENCE = "```"


@dataclass
class Step:
    line: int
    kind: str  # say | call | expect | board
    seat: str | None = None
    text: str = ""
    tool: str = ""
    args: Any = None
    full: bool = False


@dataclass
class Scenario:
    source: str
    meta: dict[str, Any]
    steps: list[Step] = field(default_factory=list)

    @property
    def game(self) -> str:
        return str(self.meta.get("game", ""))


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Parse a scenario file (raises :class:`StateError` naming the line)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "+++":
        raise StateError(f"{source}: a scenario starts with TOML front matter between +++ lines")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "+++")
    except StopIteration:
        raise StateError(f"{source}: the front matter is not closed with +++") from None
    try:
        meta = tomllib.loads("\n".join(lines[1:end]))
    except tomllib.TOMLDecodeError as exc:
        raise StateError(f"{source}: bad front matter: {exc}") from None
    if "game" not in meta:
        raise StateError(f"{source}: the front matter needs game = \"...\"")
    sc = Scenario(source, meta)
    i = end + 1
    while i < len(lines):
        raw = lines[i]
        n = i + 1
        s = raw.strip()
        if s.startswith(FENCE):
            info = s[len(FENCE):].split()
            block: list[str] = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(FENCE):
                block.append(lines[i])
                i += 1
            if info and info[0] == "board":
                rest = info[1:]
                full = "full" in rest
                seat = next((w for w in rest if w != "full"), None)
                sc.steps.append(Step(n, "board", seat=seat, text="\n".join(block), full=full))
        elif m := re.match(r"^>\s*([\w-]+)\s*:\s*(.*)$", s):
            sc.steps.append(Step(n, "say", seat=m.group(1), text=m.group(2)))
        elif m := re.match(r"^\$\s*([\w-]+)\s+(\w+)\s*(.*)$", s):
            try:
                args = json.loads(m.group(3)) if m.group(3).strip() else {}
            except json.JSONDecodeError as exc:
                raise StateError(f"{source}:{n}: tool arguments are not JSON: {exc.msg}") from None
            seat = None if m.group(1) == "-" else m.group(1)
            sc.steps.append(Step(n, "call", seat=seat, tool=m.group(2), args=args))
        elif s.startswith("? "):
            sc.steps.append(Step(n, "expect", text=s[2:].strip()))
        i += 1
    return sc


def load_scenario(path: str | Path) -> Scenario:
    from gm.core.files import TRANSCRIPT_LIMIT, read_text

    p = Path(path)
    try:
        return parse_scenario(read_text(p, TRANSCRIPT_LIMIT, "scenario"), str(p))
    except (OSError, UnicodeDecodeError) as exc:
        raise StateError(f"cannot read scenario {p}: {exc}") from None


def run_scenario(sc: Scenario) -> ReplayResult:
    """Play the scenario's steps and check every expectation; stop at the first failure."""
    from gm.referee.offline import OfflineReferee
    from gm.session import Session

    res = ReplayResult(source=sc.source, game=sc.game, entries=len(sc.steps))
    from gm.core.chance import Chance

    try:
        session = Session.create(
            sc.game,
            chance=Chance.from_record(sc.meta),  # (a scenario without `chance` was written with mt19937)
            seed=int(sc.meta.get("seed", 0)),
            rules=sc.meta.get("rules") or None,
            players=sc.meta.get("players") or None,
            persist=False,
            bot_seed=int(sc.meta.get("bot_seed", 0)),
            nonce_seed=0,
            record=False,
        )
    except GameError as exc:
        res.error = f"cannot set up the scenario: {exc.message}"
        return res
    referee = OfflineReferee()
    # results of the last step's calls; before the first step, what the game said as it opened
    last: list[dict[str, Any]] = [{"ok": True, "events": session.opening_events}] if session.opening_events else []
    narration = "\n".join(str(e.get("text", "")) for e in session.opening_events)
    for r in last:
        res.rules |= rules_of(r)
    for step in sc.steps:
        if step.kind == "say":
            assert step.seat is not None
            turn = referee.handle(session, step.seat, step.text)
            last = [c.result for c in turn.calls]
            narration = turn.narration
            res.calls += len(turn.calls)
        elif step.kind == "call":
            result = session.call(step.tool, step.args, step.seat)
            last = [result]
            narration = "\n".join(str(t) for t in result.get("narration") or [])
            res.calls += 1
        elif step.kind == "board":
            actual = session.game.render(session.state, step.seat, full=step.full)
            if actual.rstrip() != step.text.rstrip():
                res.divergence = Divergence(step.line, f"board for {step.seat or 'spectators'}", step.text, actual)
                return res
            continue
        else:
            failure = _check(step.text, last, narration, session)
            if failure is not None:
                res.divergence = Divergence(step.line, f"expected {step.text!r}", failure[0], failure[1])
                return res
            continue
        for r in last:
            res.rules |= rules_of(r)
    return res


def _check(spec: str, last: list[dict[str, Any]], narration: str, session: Any) -> tuple[Any, Any] | None:
    """``None`` if the expectation holds, else (expected, actual)."""
    word, _, rest = spec.partition(" ")
    rest = rest.strip()
    final = last[-1] if last else {}
    if word == "ok":
        return None if final.get("ok") else ("ok", final.get("error"))
    if word == "error":
        err = final.get("error") or {}
        if not final.get("ok") and (not rest or err.get("rule") == rest):
            return None
        return (f"rejected under {rest}", err or "accepted")
    if word == "event":
        kinds = {str(e.get(k)) for r in last for e in r.get("events") or [] for k in ("kind", "rule")}
        kinds |= {str(a) for r in last for e in r.get("events") or [] for a in e.get("also") or []}
        return None if rest in kinds else (rest, sorted(kinds))
    if word == "says":
        texts = narration + "\n" + "\n".join(str(t) for r in last for t in r.get("narration") or [])
        return None if rest.lower() in texts.lower() else (rest, texts.strip())
    if word == "state":
        path, _, value = rest.partition("=")
        try:
            want = json.loads(value.strip())
        except json.JSONDecodeError:
            want = value.strip()
        got: Any = session.state.view(None)
        for key in path.strip().split("."):
            if isinstance(got, dict):
                got = got.get(key)
            elif isinstance(got, list) and key.isdigit() and int(key) < len(got):
                got = got[int(key)]  # a list item by its index: players.0.score
            else:
                got = None
        return None if got == want else (want, got)
    return ("a known expectation (ok, error, event, says, state)", spec)


def scenario_diff(d: Divergence) -> str:
    return unified(d.expected, d.actual)
