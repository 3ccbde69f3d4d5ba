"""What the page shows of a game, in one answer: the **table** (board, status, who acts, the move
builder, the text board) and the **story** (what happened since the page last heard, move by move:
the move as this seat may read it, the engine's events, the picks it revealed).

Every move the page makes comes back with the table (one request per move): a move built by pointing
(:func:`move`: the game's tool call), or words for a referee (:func:`say`: the referee's reply, an
answer or an error, styled as such).  Events are the engine's own: a move's events are what applying
it said, worked out by replaying the log once per game and kept (:class:`Stories`); the engine tells
every seat the same events (a locked pick's event names no pick), and the tests attack that.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.game import ruleset_hash

if TYPE_CHECKING:
    from gm.core.actions import Move
    from gm.core.state import GameState
    from gm.referee.base import Referee, RefereeTurn
    from gm.server.hub import GameHub, Grant
    from gm.session import Session

#: a page that has seen nothing gets at most this many moves of the story (the rest: "earlier moves")
STORY_MAX = 200


@dataclass
class _Story:
    key: tuple[str, str, int]
    state: GameState[Any]
    opening: list[dict[str, Any]]
    moves: list[tuple[str, Any]] = field(default_factory=list)
    events: list[list[dict[str, Any]]] = field(default_factory=list)


class Stories:
    """Each game's events move by move, from a replay of its log kept per game (the ``size`` games used
    last): a new move costs one more apply, a taken-back move a replay from the start."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._made: OrderedDict[str, _Story] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, s: Session) -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
        """The opening events and every move's events of ``s`` (call it under the game's lock)."""
        st = s.state
        key = (s.game.id, ruleset_hash(st.rules), st.seed)
        with self._lock:
            story = self._made.get(s.id)
            if story is not None:
                self._made.move_to_end(s.id)
        log: list[Move] = st.log
        if story is not None and (story.key != key or len(story.moves) > len(log) or any(
            (m.seat, m.action) != known for m, known in zip(log, story.moves, strict=False)
        )):
            story = None  # another game under that id, or moves taken back: replay from the start
        if story is None:
            fresh = st.fresh()  # (its ruleset, seed and chance generator, supplied outcomes too)
            story = _Story(key, fresh, [e.to_json() for e in fresh.opening_events()])
        for m in log[len(story.moves):]:
            events = story.state.apply(m.seat, m.action)
            story.moves.append((m.seat, m.action))
            story.events.append([{"kind": e.kind, "rule": e.rule, "text": e.text} for e in events])
        with self._lock:
            self._made[s.id] = story
            while len(self._made) > self.size:
                self._made.popitem(last=False)
        return story.opening, story.events


def story(s: Session, seat: str, since: int, stories: Stories) -> list[dict[str, Any]]:
    """What happened from move ``since`` on, as ``seat`` may read it: the opening events (from the
    start), then each move (its seat, its text - another seat's unrevealed pick reads ``locked`` -, its
    events and the other seats' picks it revealed, with their nonces and commitments to verify)."""
    opening, events = stories.of(s)
    log = s.log(seat)
    revealed: dict[int, list[dict[str, Any]]] = {}
    for rev in s.reveals():
        at = rev.get("revealed_at")
        if at is not None and at >= since and rev.get("seat") != seat:  # (a seat knew its own pick)
            revealed.setdefault(int(at), []).append(rev)
    out: list[dict[str, Any]] = []
    start = since
    if since == 0:
        start = max(0, len(log) - STORY_MAX)
        if opening:
            out.append({"index": -1, "events": opening})
        if start:
            out.append({"index": -1, "earlier": start})
    for i in range(start, len(log)):
        mover, text = log[i]
        out.append({"index": i, "seat": mover, "move": text, "events": events[i], "reveals": revealed.get(i, [])})
    return out


def table(s: Session, seat: str, since: int | None, stories: Stories) -> dict[str, Any]:
    """The table for ``seat`` (see the module doc); ``since``: the moves the page has told already
    (``None``: none; more than the game has: some were taken back, and ``moves`` says how many stand)."""
    from gm.server.hub import practice_fields

    st, game = s.state, s.game
    n = len(st.log)
    start = 0 if since is None else max(0, min(int(since), n))
    return {
        "ok": True,
        "session": s.id,
        "game": game.id,
        "name": game.name,
        "seat": seat,
        "seats": list(game.seats),
        "players": dict(s.players),
        **practice_fields(s.practice),  # (practice_note: the server's words to every seat)
        "seed": s.public_seed,
        "seed_commitment": None if s.practice else s.seed_commitment,
        "moves": n,
        "records": s.stored_count,
        "since": start,
        "status": game.status(st, seat),
        "expected": s.expected(seat),
        "commitments": s.commitments(),
        "outcome": st.outcome.to_json() if st.outcome else None,
        "board": game.board_json(st, seat),
        "ascii": game.render(st, seat, full=True),
        "builder": game.move_builder(st, seat),
        "examples": list(game.move_examples),
        "story": story(s, seat, start, stories),
    }


def read_table(hub: GameHub, grant: Grant, since: int | None, stories: Stories) -> dict[str, Any]:
    """The table of the grant's seat, after reading what other processes stored."""
    with hub.game(grant.session) as s:
        return table(s, grant.seat, since, stories)


# ------------------------------------------------------------------ moves
def move(hub: GameHub, grant: Grant, tool: str, args: dict[str, Any], since: int | None, stories: Stories) -> dict[str, Any]:
    """A move built by pointing: the game's tool call for the grant's seat, then the table.  A refused
    move changes nothing and comes back as an error reply (rule, reason, the legal options)."""
    result = hub.call(grant, tool, args)  # tells the event streams when it moved
    reply = None if result.get("ok") else error_reply(result)
    with hub.game(grant.session) as s:
        return {"ok": True, "tool": tool, "accepted": bool(result.get("ok")) and result.get("kind") == "action",
                "action": result.get("action"), "reply": reply, "table": table(s, grant.seat, since, stories)}


def error_reply(result: dict[str, Any]) -> dict[str, Any]:
    """A refused call as the page says it: ``Not allowed [RULE]: reason`` and the options."""
    err = result.get("error") or {}
    legal = [str(x) for x in (err.get("legal") or [])]
    return {"kind": "error", "rule": err.get("rule"), "text": f"Not allowed [{err.get('rule', '?')}]: {err.get('reason', 'refused')}.",
            "legal": legal[:24], "more": max(0, len(legal) - 24)}


def say(
    hub: GameHub, grant: Grant, text: str, referee: Referee | None = None, since: int | None = None, stories: Stories | None = None,
    on_text: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The player's words to a referee (default the offline one), which calls the game's tools for the
    seat; the answer carries the referee's ``reply`` (``answer``, ``error`` or ``narration``; none when
    the story tells it all) and the table.  ``undo`` takes back the seat's own locked pick if nobody
    has seen it, and says why not otherwise.  ``on_text`` receives the narration as it is written: in
    pieces from a referee that streams (``gm.referee.base.handle_streaming``, where the referees have
    it), else whole once the referee is done."""
    import gm.referee.base as base
    from gm.referee.offline import NOT_UNDERSTOOD, OfflineReferee

    stories = stories if stories is not None else Stories(1)
    kind = referee.kind if referee is not None else "offline"
    with hub.game(grant.session) as s:  # fresh: the referee reads the words in the current position
        before = len(s.state.log), s.stored_count
        ref = referee or OfflineReferee()
        stream: Callable[..., RefereeTurn] | None = getattr(base, "handle_streaming", None)
        if on_text is not None and stream is not None:
            turn = stream(ref, s, grant.seat, text, on_text)
        else:
            turn = ref.handle(s, grant.seat, text)
            if on_text is not None and turn.narration:
                on_text(turn.narration)
        reply: dict[str, Any] | None
        if turn.control == "undo":
            why = s.can_retract(grant.seat)
            reply = {"kind": "error", "text": f"Cannot undo: {why}."} if why else {"kind": "answer", "text": s.retract(grant.seat)}
        elif turn.control == "quit":
            reply = {"kind": "answer", "text": "Your game is saved: open it again from the start page (Your games)."}
        elif turn.accepted:
            reply = {"kind": "narration", "text": turn.narration} if kind != "offline" and turn.narration else None
        else:
            failed = next((c for c in turn.calls if not c.ok), None)
            if failed is not None and kind == "offline":
                reply = error_reply(failed.result)
            elif failed is not None or NOT_UNDERSTOOD in turn.flags:
                reply = {"kind": "error", "text": turn.narration}
            else:
                reply = {"kind": "answer" if kind == "offline" else "narration", "text": turn.narration}
            if turn.board and reply is not None:
                reply["board"] = turn.board
        moved = (len(s.state.log), s.stored_count) != before
        calls = [{"tool": c.tool, "args": c.args, "ok": c.ok, "result": c.result} for c in turn.calls]
        out = {
            "ok": True,
            "seat": grant.seat,
            "text": text,
            "referee": kind,
            "narration": turn.narration,
            "accepted": turn.accepted,
            "control": turn.control,
            "board": turn.board,
            "calls": calls,
            "status": s.game.status(s.state, grant.seat),
            "expected": s.expected(grant.seat),
            "commitments": s.commitments(),
            "reply": reply,
            "table": table(s, grant.seat, since, stories),
        }
    if moved:
        hub.moved(grant.session)
    return out


__all__ = ["STORY_MAX", "Stories", "error_reply", "move", "read_table", "say", "story", "table"]
