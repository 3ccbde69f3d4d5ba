"""Replay a transcript against the engine and report where anything changed.

Two passes:

1. **Tool replay** – rebuild the game from the header (game, ruleset, seed,
   players), serve the recorded ``bot_move`` entries back to the bot seats, and
   re-execute every recorded tool call through ``session.call``.  Each result and
   each board snapshot is compared with the recorded one; the first difference
   is the divergence (or, with ``update``, the recording is rewritten).
2. **Referee replay** – for transcripts recorded by a referee that can be
   replayed offline (the offline referee now; recorded LLM responses later),
   feed the player's messages to the referee again and report where it would
   now call different tools.

Results are compared after :func:`normalise`: commitment hashes and nonces are
random per run, so they are masked; everything else must match exactly.
"""

from __future__ import annotations

import difflib
import json
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm.core.actions import Action
from gm.core.errors import GameError, InvalidActionError, StateError
from gm.transcript.format import (
    BoardEntry,
    ToolCallEntry,
    ToolResultEntry,
    Transcript,
)

if TYPE_CHECKING:
    from gm.core.state import GameState
    from gm.referee.base import Referee
    from gm.session import Session

MASK = "<masked>"
VOIDED = "voided"


class ReplayBot:
    """Serves a seat's recorded moves in order.

    For a pick the engine voided unseen (recorded as ``voided``) and past the last
    recorded move it stands in the first legal action: a bot's pick is recorded once it
    is public, so an unrecorded pick is one still secret when the transcript ends, and a
    secret pick changes nothing anyone sees.  A move recorded in its public form (its
    secret was still kept when the transcript ended) is served as a legal action of that
    public form."""

    name = "replay"

    def __init__(self, moves: Iterable[str]) -> None:
        self.moves = deque(moves)

    def choose(self, state: GameState[Any], seat: str) -> Action:
        text = self.moves.popleft() if self.moves else VOIDED
        if text != VOIDED:
            try:
                return state.parse_action(text)
            except InvalidActionError:
                public = next((a for a in state.legal_actions(seat) if a.public_text() == text), None)
                if public is None:
                    raise
                return public
        # a stand-in must itself stay secret: the round stays open, only this seat done
        waiting = set(state.to_act()) - {seat}
        actions = state.legal_actions(seat)
        legal = actions.page(0, 200) if actions.is_space else actions.all()  # a space is too large to try whole
        for action in legal:
            trial = state.copy()
            trial.apply(seat, action)
            if waiting and set(trial.to_act()) == waiting:
                return action
        if legal:
            return legal[0]
        raise StateError(f"bot seat {seat} has no legal move")


def normalise(result: dict[str, Any]) -> dict[str, Any]:
    """A tool result as JSON data (tuples are lists, as after a save) without what
    legitimately differs between runs (hashes, nonces)."""
    out = json.loads(json.dumps(result, default=str))
    if out.get("commitments"):
        out["commitments"] = dict.fromkeys(out["commitments"], MASK)
    if out.get("reveal"):
        out["reveal"] = {
            seat: {k: (MASK if k in ("nonce", "commitment") else v) for k, v in rev.items()} if isinstance(rev, dict) else rev
            for seat, rev in out["reveal"].items()
        }
    out.pop("bot_error", None)
    return out


@dataclass
class Divergence:
    """The first place where the replay differs from the recording."""

    line: int  # line number in the JSONL file (header = 1)
    what: str
    expected: Any
    actual: Any

    def diff(self) -> str:
        """A unified diff of the expected and actual value (boards line by line)."""
        return unified(self.expected, self.actual)

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}\n{self.diff()}"


def unified(expected: Any, actual: Any) -> str:
    a = expected if isinstance(expected, str) else json.dumps(expected, indent=1, sort_keys=True, default=str)
    b = actual if isinstance(actual, str) else json.dumps(actual, indent=1, sort_keys=True, default=str)
    return "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), "recorded", "now", lineterm="", n=2))


@dataclass
class ReplayResult:
    source: str
    game: str
    entries: int
    calls: int = 0
    divergence: Divergence | None = None
    referee_divergence: Divergence | None = None
    changes: list[Divergence] = field(default_factory=list)
    rules: set[str] = field(default_factory=set)
    updated: Transcript | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.divergence is None and self.referee_divergence is None

    def report(self) -> str:
        if self.error:
            return f"{self.source}: {self.error}"
        parts = []
        for label, d in (("diverged", self.divergence), ("referee now differs", self.referee_divergence)):
            if d is not None:
                parts.append(f"{self.source}: {label} at {d}")
        return "\n".join(parts) or f"{self.source}: ok ({self.calls} calls)"


def rules_of(result: dict[str, Any]) -> set[str]:
    """Rule ids a tool result exercised: its events' rules (and ``also``), or its error's rule."""
    out: set[str] = set()
    for ev in result.get("events") or []:
        if isinstance(ev, dict):
            if ev.get("rule"):
                out.add(str(ev["rule"]))
            out.update(str(r) for r in ev.get("also") or [])
    err = result.get("error")
    if isinstance(err, dict) and err.get("rule"):
        out.add(str(err["rule"]))
    return out


def header_rules(tr: Transcript) -> dict[str, Any] | None:
    """The ruleset ``tr`` was made with.  The header holds its overrides of the defaults of the day it was
    made and the hash of the whole ruleset: when a field added since (:func:`gm.core.game.legacy_values`)
    changed what the overrides mean, the field's value of before is what the hash names, and it is used."""
    from gm.core.game import ruleset_hash
    from gm.core.registry import find_game

    h = tr.header
    if not h.rules_hash:
        return h.rules or None
    game = find_game(h.game)
    if ruleset_hash(game.load_rules(h.rules or {})) == h.rules_hash:
        return h.rules or None
    then = game.load_rules(h.rules or {}, legacy=True)
    if ruleset_hash(then) == h.rules_hash:
        return dict(then.model_dump(mode="json"))
    return h.rules or None  # (a ruleset changed otherwise: the replay reports the hash)


def session_of(tr: Transcript, *, record: bool = False) -> Session:
    """The game of ``tr`` rebuilt from its header (and the seed revealed at its end), its bots serving
    the recorded bot moves."""
    from gm.session import Session

    h = tr.header
    seed = tr.seed
    if seed is None:
        raise StateError(
            "the game's seed is still hidden (the game is not over): finish the game, then replay its transcript",
            rule="CORE-REPLAY",
        )
    from gm.core.chance import Chance
    from gm.session import SeedSecret, verify_seed

    secret = None
    supplied = h.supplied
    if h.seed is None:  # a hidden-seed game: rebuilt as it was played, with the seed its end revealed
        rev = next(e for e in tr.entries if e.type == "seed")
        if h.seed_commitment is not None and not verify_seed({"seed": rev.seed, "salt": rev.salt, "commitment": h.seed_commitment}):
            raise StateError("the revealed seed does not open the commitment in the header", rule="CORE-REPLAY")
        secret = SeedSecret(rev.seed, rev.salt, 0, 0, practice=False)
        supplied = rev.supplied
    # the generator the header names (none: mt19937, what every transcript made before it was named used)
    chance = Chance.from_record({**({"chance": h.chance} if h.chance else {}), "supplied": supplied})
    moves = _bot_moves(tr)
    bots = {seat: ReplayBot(moves.get(seat, [])) for seat, who in h.players.items() if who.startswith("bot")}
    return Session.create(
        h.game,
        seed=seed,
        secret=secret,
        rules=header_rules(tr),
        players=h.players or None,
        persist=False,
        bot_seed=0,
        nonce_seed=0,
        bots=bots,
        record=record,
        chance=chance,
    )


def _bot_moves(tr: Transcript) -> dict[str, list[str]]:
    moves: dict[str, list[str]] = {}
    for e in tr.entries:
        if e.type == "bot_move":
            moves.setdefault(e.seat, []).append(e.action)
    return moves


def replay(tr: Transcript, *, source: str = "<transcript>", update: bool = False, referee: bool = True) -> ReplayResult:
    """Replay ``tr``; with ``update`` return an updated recording in ``result.updated``."""
    res = ReplayResult(source=source, game=tr.header.game, entries=len(tr.entries))
    try:
        session = session_of(tr)
        if tr.header.rules_hash:
            from gm.core.game import ruleset_hash

            now = ruleset_hash(session.state.rules)
            if now != tr.header.rules_hash:
                d = Divergence(1, "the ruleset hash changed (the rules' defaults or model changed)", tr.header.rules_hash, now)
                if not update:
                    res.divergence = d
                    return res
                res.changes.append(d)
    except GameError as exc:
        res.error = f"cannot rebuild the game from the header: {exc.message}"
        return res
    res.rules |= rules_of({"events": session.opening_events})  # what the game said as it opened
    entries = list(tr.entries)
    pending: dict[str, dict[str, Any]] = {}
    for i, e in enumerate(entries):
        line = i + 2
        if isinstance(e, ToolCallEntry):
            pending[e.id] = session.call(e.tool, e.args, e.seat, board=e.board if e.board is not None else True)
            res.calls += 1
        elif isinstance(e, ToolResultEntry):
            actual = pending.pop(e.id, None)
            if actual is None:
                res.error = f"line {line}: a result for unknown call {e.id}"
                return res
            res.rules |= rules_of(actual)
            if normalise(actual) != normalise(e.result):
                d = Divergence(line, f"result of call {e.id} ({_call_desc(entries, e.id)})", normalise(e.result), normalise(actual))
                if not update:
                    res.divergence = d
                    return res
                res.changes.append(d)
                entries[i] = ToolResultEntry(id=e.id, result=json.loads(json.dumps(actual, default=str)))
        elif isinstance(e, BoardEntry):
            actual_board = _board_now(session, e)
            if actual_board != e.text:
                d = Divergence(line, f"board shown to {e.seat or 'spectators'}", e.text, actual_board)
                if not update:
                    res.divergence = d
                    return res
                res.changes.append(d)
                entries[i] = BoardEntry(seat=e.seat, text=actual_board)
    if update and res.changes:
        res.updated = Transcript(header=tr.header, entries=entries)
    if referee and not update:
        res.referee_divergence = referee_replay(tr)
    return res


def _board_now(session: Session, entry: BoardEntry) -> str:
    """The board ``entry.seat`` sees now, in the recorded form: compact, or full (a player asked for it)."""
    compact = session.game.render(session.state, entry.seat)
    if compact == entry.text:
        return compact
    full = session.game.render(session.state, entry.seat, full=True)
    return full if full == entry.text or _looks_full(entry.text, full, compact) else compact


def _looks_full(recorded: str, full: str, compact: str) -> bool:
    """Whether a changed recorded board was a full one (closer to the full form), for the diff."""
    ratio = difflib.SequenceMatcher(None, recorded, full).quick_ratio()
    return ratio > difflib.SequenceMatcher(None, recorded, compact).quick_ratio()


def _call_desc(entries: list[Any], call_id: str) -> str:
    for e in entries:
        if isinstance(e, ToolCallEntry) and e.id == call_id:
            return f"{e.seat}: {e.tool} {json.dumps(e.args) if e.args is not None else ''}".strip()
    return call_id


def make_referee(kind: str, tr: Transcript) -> Referee | None:
    """A referee that can replay this transcript offline, or ``None``."""
    if kind == "offline":
        from gm.referee.offline import OfflineReferee

        return OfflineReferee()
    factory = REPLAY_REFEREES.get(kind)
    return factory(tr) if factory else None


def _llm_replay(tr: Transcript) -> Referee:
    from gm.referee.llm.replay import replay_referee

    return replay_referee(tr)


#: referee kinds that can be replayed offline from recorded model responses: kind -> factory
REPLAY_REFEREES: dict[str, Callable[[Transcript], Referee]] = {
    "openai": _llm_replay,
    "openai-responses": _llm_replay,
    "anthropic": _llm_replay,
}


def referee_replay(tr: Transcript) -> Divergence | None:
    """Feed the player's messages to the referee again; the first place where it now
    makes different tool calls (tool, seat, arguments) than recorded, or ``None``."""
    kinds = tr.referee_kinds
    ref = make_referee(kinds[0], tr) if len(set(kinds)) == 1 else None
    if ref is None:
        return None
    session = session_of(tr, record=True)
    rec = session.recorder
    assert rec is not None
    for e in tr.entries:  # calls made before anyone spoke (a game set up through the tools) are made again first
        if e.type == "player":
            break
        if e.type == "tool_call":
            session.call(e.tool, e.args, e.seat)
    turns: list[tuple[int, list[tuple[str | None, str, Any]]]] = []
    current: list[tuple[str | None, str, Any]] | None = None
    for i, e in enumerate(tr.entries):
        if e.type == "player":
            current = []
            turns.append((i + 2, current))
        elif e.type == "tool_call" and current is not None:
            current.append((e.seat, e.tool, e.args))
    players = [e for e in tr.entries if e.type == "player"]
    for (line, recorded), p in zip(turns, players, strict=True):
        before = len(rec.transcript.entries)
        ref.handle(session, p.seat, p.text)
        made = [(e.seat, e.tool, e.args) for e in rec.transcript.entries[before:] if e.type == "tool_call"]
        if made != recorded:
            return Divergence(line, f"the referee now answers {p.seat}: {p.text!r} with other tool calls", recorded, made)
    return None


def iter_transcript_files(paths: Iterable[str | Path]) -> list[Path]:
    """Transcript files under the given files/folders: ``*.jsonl`` and scenario ``*.md``."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in (".jsonl", ".md") and q.is_file() and q.name != "README.md"))
        else:
            out.append(p)
    return out


def replay_path(path: str | Path, *, update: bool = False) -> ReplayResult:
    """Replay a recorded ``.jsonl`` transcript or run a hand-written ``.md`` scenario.
    With ``update`` a recording whose results changed is rewritten in place."""
    p = Path(path)
    try:
        if p.suffix == ".md":
            from gm.transcript.scenario import load_scenario, run_scenario  # layer seam

            return run_scenario(load_scenario(p))
        tr = Transcript.load(p)
    except StateError as exc:
        return ReplayResult(source=str(p), game="?", entries=0, error=exc.reason)
    res = replay(tr, source=str(p), update=update)
    if res.updated is not None:
        res.updated.save(p)
    return res
