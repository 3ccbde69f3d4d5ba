"""The replay of a chatbot's move log through the engine, line by line: moves in the order the rules take
them (a seat's row of a table waits for the other seat's, a turn the log ends unsaid is ended), each
line's claims checked after its exchange, the replay stopped at the first move the rules forbid."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from gm.chatlog.chance import LogChance, Mismatch
from gm.chatlog.report import Audit, Divergence, Illegal
from gm.core.chance import Chance
from gm.core.errors import GameError

if TYPE_CHECKING:
    from collections.abc import Collection

    from gm.core.chatlog import ChatLog, ParsedLine
    from gm.core.chatlog_text import Line
    from gm.core.events import Event
    from gm.core.game import Game
    from gm.core.state import GameState

def replay_log(
    game: Game,
    chatlog: ChatLog,
    rules: Any,
    seed: int,
    parsed: list[tuple[Line, ParsedLine]],
    *,
    keys: Collection[str] | None = None,
    stop: bool = False,
    source: LogChance | None = None,
    setup: Chance | None = None,
) -> Audit:
    """Replay ``parsed`` under ``seed`` (and ``setup``: the generator, outcomes supplied before); check the
    claims (``keys``: only these); ``stop``: stop at the first claim the rules contradict (the seed search);
    ``source``: the chat's own outcomes of chance (a probe stops the replay at the first the seed does not
    give: :attr:`Audit.mismatch`)."""
    try:
        state = _new_state(game, rules, seed, source, setup)
    except Mismatch as exc:  # the setup's chance (a toss, the first deal) is not the log's
        result = Audit(real_game(game), _new_state(game, rules, seed, None, setup), seed, len(parsed), 0)
        result.mismatch = exc
        return result
    result = Audit(real_game(game), state, seed, len(parsed), 0)
    try:
        _lines(game, chatlog, state, parsed, result, keys, stop, source)
    except Mismatch as exc:
        result.mismatch = exc
    if source is not None:
        result.supplied, result.impossible = source.supplied, source.impossible
    return result


def _lines(
    game: Game,
    chatlog: ChatLog,
    state: GameState[Any],
    parsed: list[tuple[Line, ParsedLine]],
    result: Audit,
    keys: Collection[str] | None,
    stop: bool,
    chance: LogChance | None,
) -> None:
    """The replay of :func:`_replay`, line by line, into ``result``."""
    closed = 0  # log length after the last complete exchange
    honour = False
    carry: list[tuple[str, str]] = []  # moves of a seat's row that wait for another seat's row of the same exchange
    for idx, (ln, p) in enumerate(parsed):
        result.state = state
        if chance is not None:
            chance.at = idx
        start = len(state.log)
        honour = honour or len(state.to_act()) > 1
        events: list[Event] = []
        queue, carry = carry + list(p.moves), []
        bad: tuple[str, str, GameError] | None = None
        while queue:
            acting = state.to_act()
            k = next((i for i, (seat, _) in enumerate(queue) if seat in acting), None)
            if k is None:
                if _carries(p, parsed[idx + 1][1] if idx + 1 < len(parsed) else None, acting):
                    carry = queue  # a row per seat: the rest waits for the other seat's row of the exchange
                    break
                k = 0
            seat, act = queue.pop(k)
            try:
                events.extend(state.apply(seat, act))
            except GameError as exc:
                bad = (seat, act, exc)
                break
            honour = honour or len(state.to_act()) > 1
        if bad is not None:
            seat, act, err = bad
            state = _rebuilt(game, state, start)
            acting = state.to_act()
            if seat in acting:
                legal = tuple(state.legal_summary(seat))
            else:
                legal = tuple(err.legal) or tuple(f"{s}: {x}" for s in acting for x in state.legal_summary(s))
            move = f"{seat}: {_written(state, act, ln)}"
            result.illegal = Illegal(ln.number, ln.as_written(p.label), move, err.rule, err.reason, legal, len(parsed) - idx - 1)
            if keys is not None:  # the seed search: what chance decided before this line is checked all the same
                checked, wrong = _check(chatlog, state, [], ln, p, "", keys)
                result.checked += checked
                result.divergences += wrong
            break
        result.replayed += 1
        moves = " | ".join(f"{m.seat}: {m.action}" for m in state.log[start:])
        end = _implied_end(chatlog, state, p, parsed[idx + 1][1]) if idx + 1 < len(parsed) and not carry else None
        if end is not None:  # a claim is the chat's mistake only if the turn's end does not make it true either
            checked, before = _check(chatlog, state, events, ln, p, moves, keys)
            events.extend(state.apply(*end))
            result.implied.append((ln.number, f"{end[0]}: {end[1]}"))
            _, after = _check(chatlog, state, events, ln, p, moves, keys)
            wrong = [d for d in before if any(a.key == d.key for a in after)]
        else:
            checked, wrong = _check(chatlog, state, events, ln, p, moves, keys)
        result.checked += checked
        result.divergences += wrong
        if chatlog.closes(state, events):
            closed = len(state.log)
        if stop and result.divergences:
            break
    if closed < len(state.log) and state.has_locked_picks():
        result.left_out = [f"{m.seat}: {m.action}" for m in state.log[closed:]]
        state = _rebuilt(game, state, closed)
    result.state = state
    result.honour = chatlog.secret_picks if honour else ""


def _check(
    chatlog: ChatLog,
    state: GameState[Any],
    events: list[Event],
    ln: Line,
    p: ParsedLine,
    moves: str,
    keys: Collection[str] | None,
) -> tuple[int, list[Divergence]]:
    """The line's claims (``keys``: only these) checked after the exchange that produced ``events``: how many
    were checked, and those the rules contradict."""
    checked, wrong = 0, []
    claims = [c for c in p.claims if keys is None or c.key in keys]
    for c, f in zip(claims, chatlog.facts([c.key for c in claims], state, events) if claims else [], strict=True):
        if f is None:
            continue
        checked += 1
        if not f.agrees(c.said):
            wrong.append(Divergence(ln.number, ln.as_written(p.label), moves, c.key, c.said, f.shown, f.rule, c.key in chatlog.roll_keys))
    return checked, wrong


def _carries(p: ParsedLine, nxt: ParsedLine | None, acting: tuple[str, ...]) -> bool:
    """Whether the moves of ``p`` that nobody may make now wait for the next line: it is the same exchange
    (the same label) and holds a move of a seat that must act now (a table with a row per seat)."""
    return nxt is not None and bool(p.label) and nxt.label == p.label and any(s in acting for s, _ in nxt.moves)


def _implied_end(chatlog: ChatLog, state: GameState[Any], p: ParsedLine, nxt: ParsedLine) -> tuple[str, str] | None:
    """The move that ends a turn the log ends unsaid (seat, action): the line's seat still has the move, the
    next line is another seat's, and the game's way to end a turn early (:meth:`ChatLog.ends_turn`) is legal."""
    acting = state.to_act()
    if len(acting) != 1 or not nxt.moves or nxt.moves[0][0] in acting or acting[0] not in {s for s, _ in p.moves}:
        return None
    seat = acting[0]
    end = chatlog.ends_turn(state, seat)
    if end is None or not state.is_legal(seat, end):
        return None
    return seat, end


def _written(state: GameState[Any], act: str, ln: Line) -> str:
    """A move's text as the audit shows it: as the game writes the action, or as the chat wrote it."""
    try:
        return str(state.parse_action(act))
    except GameError:
        return ln.as_written(act)


class Remembering:
    """Speed seam (what it saves: reading the same move texts again under every seed the search tries; a
    brawl placement takes ~3 ms to read, a Chess-Football plan ~0.4 ms): the game, its parser's answers
    remembered for one audit.  Sound because a game's ``parse_action`` is a pure function of the text (a
    state that reads text in context asks it first and adapts its answer)."""

    def __init__(self, game: Game) -> None:
        self.real = game
        self._read: dict[str, tuple[Any, GameError | None]] = {}

    def parse_action(self, text: str) -> Any:
        hit = self._read.get(text)
        if hit is None:
            try:
                hit = (self.real.parse_action(text), None)
            except GameError as exc:
                hit = (None, exc)
            self._read[text] = hit
        if hit[1] is not None:
            raise hit[1]
        return hit[0]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def remembering(game: Game) -> Game:
    """``game`` reading each move text once (see :class:`Remembering`)."""
    return cast("Game", Remembering(game))


def real_game(game: Game) -> Game:
    """The game itself behind a :class:`Remembering` one."""
    return game.real if isinstance(game, Remembering) else game


def _new_state(game: Game, rules: Any, seed: int, source: LogChance | None = None, setup: Chance | None = None) -> GameState[Any]:
    """A new game of ``game`` (a :class:`Remembering` one: the state reads its moves through it) with the chance
    ``setup``, its outcomes from ``source`` where the log states them."""
    base = Chance.of(setup)
    state: GameState[Any] = game.new_state(rules, seed, replace(base, source=source) if source is not None else base)
    if isinstance(game, Remembering):
        state.game = game  # type: ignore[misc]  # the seam: this state's own parser asks the memo first
    return state


def _rebuilt(game: Game, state: GameState[Any], n: int) -> GameState[Any]:
    """``state`` as it was after its first ``n`` moves."""
    fresh = state.rebuilt(n)  # (its generator and the outcomes supplied so far kept)
    if isinstance(game, Remembering):
        fresh.game = game  # type: ignore[misc]
    return fresh
