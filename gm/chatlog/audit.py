"""The audit of a game played in a chatbot: find its move log, replay it through the engine, and
list every place where the chatbot's account differs from what the rules give.

Reading (:func:`read_log`): the lines of every section headed like the log (or of the whole text
when none is), read with the game's format, in order; a run of lines that says again what the log
already holds (the chatbot restates the log, whole or its last lines) is a restatement, read once;
a restated log that then says something else is the chat's later account of the game and counts
from there.  A run restates the log from its first line (labels aside: a table renumbers), or from a
later line up to the log's last one under the same labels (two plays can read alike).

Chance (:func:`choose_seed`): the engine's chance comes from a seed; the seed is the first (of
:data:`SEEDS`) under which everything the chat says chance decided (a coin toss, who has the ball
first, who moves first) comes out as the chat says it.

The replay stops at the first move the rules forbid (the true game cannot go past it); the
engine's game up to there is what :func:`audit` returns, ready to be saved as a session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from gm.chatlog.text import RULE, Line, clean_lines
from gm.core.chatlog import seat_pattern
from gm.core.errors import GameError, StateError

if TYPE_CHECKING:
    from collections.abc import Collection

    from gm.core.chance import Chance
    from gm.core.chatlog import ChatLog, ParsedLine
    from gm.core.events import Event
    from gm.core.game import Game
    from gm.core.state import GameState

#: how the exported documents introduce their example log lines (gm/prompts/chatlog_import.md.j2)
EXAMPLE = "example (the first lines of a game, computed by the engine)"
#: how many seeds the importer tries to agree with the chatbot's outcomes of chance
SEEDS = 64
#: the seed search replays at least this many of the log's first lines: who moves first is chance too
FIRST_LINES = 3
#: of the seeds that fit the chat's chance, the seed search replays the whole log under this many at most
FULL_TRIES = 8
FIX = (
    "`gm play` fixes that: a bot's pick is locked first (you see its SHA-256 commitment before you choose, the "
    "reveal after) and a second player at the keyboard types hidden; `gm serve` lets two people on two computers pick in secret, each from their own link, and `gm mcp` keeps every pick inside the engine, "
    "out of the chat"
)


@dataclass(frozen=True, slots=True)
class Divergence:
    """A claim of the chatbot that the rules contradict."""

    line: int
    label: str
    moves: str
    key: str
    said: str
    rules: str
    rule: str
    #: the claim states dice: the chatbot's roll against gm's
    roll: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "label": self.label, "moves": self.moves, "what": self.key, "chatbot": self.said,
                "rules": self.rules, "rule": self.rule, "roll": self.roll}  # fmt: skip

    def finding(self) -> str:
        """What the chatbot said and what the rules give, in words (a die: "the chatbot rolled 5; gm's roll is 2")."""
        if self.roll:
            many = "," in self.said or "," in self.rules
            return f"the chatbot rolled {self.said}; gm's {'rolls are' if many else 'roll is'} {self.rules}"
        return f"the chatbot says {self.said}, the rules give {self.rules}"


@dataclass(frozen=True, slots=True)
class Illegal:
    """The move the replay stopped at: the rules forbid it (or it does not read)."""

    line: int
    label: str
    move: str
    rule: str
    reason: str
    legal: tuple[str, ...]
    not_replayed: int

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "label": self.label, "move": self.move, "rule": self.rule, "reason": self.reason,
                "legal": list(self.legal), "lines_not_replayed": self.not_replayed}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Restatement:
    """Lines of the chat (``first``..``last``) that say again what lines of the log already said
    (``of_first``..``of_last``): read once, not played again."""

    first: int
    last: int
    of_first: int
    of_last: int

    def text(self) -> str:
        span = lambda a, b: f"line {a}" if a == b else f"lines {a}-{b}"  # noqa: E731
        return f"{span(self.first, self.last)} restate{'s' if self.first == self.last else ''} {span(self.of_first, self.of_last)} (read once)"

    def to_json(self) -> dict[str, Any]:
        return {"lines": [self.first, self.last], "restate": [self.of_first, self.of_last]}


@dataclass(frozen=True, slots=True)
class Rewrite:
    """A line of the chat that says something else than the log's line it stands in place of (the log
    restated, then changed; or begun again): the chat's later account counts from there, and the
    ``dropped`` earlier lines from ``of_line`` on are set aside."""

    line: int
    of_line: int
    dropped: int

    def text(self) -> str:
        return (f"line {self.line} rewrites line {self.of_line} of the log: the chat's later account is replayed from "
                f"there ({self.dropped} earlier {'line' if self.dropped == 1 else 'lines'} set aside)")  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "rewrites": self.of_line, "set_aside": self.dropped}


@dataclass
class LogRead:
    """The move log found in a text: its lines read (restatements read once), the lines that name a
    seat like a move but do not read as one, and what was restated or rewritten."""

    lines: list[tuple[Line, ParsedLine]]
    unread: list[Line] = field(default_factory=list)
    restated: list[Restatement] = field(default_factory=list)
    rewrites: list[Rewrite] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SeedChoice:
    """The seed a chatbot's log is replayed with, and why: ``fits`` when every outcome of chance the chat
    states (``stated``) comes out so under it; ``note`` says what did not."""

    seed: int
    fits: bool = True
    stated: int = 0
    note: str = ""


@dataclass
class Audit:
    """What the replay of a chatbot's move log found, and the engine's true game."""

    game: Game
    state: GameState[Any]
    seed: int
    lines: int
    replayed: int
    divergences: list[Divergence] = field(default_factory=list)
    illegal: Illegal | None = None
    unread: list[Line] = field(default_factory=list)
    honour: str = ""
    left_out: list[str] = field(default_factory=list)
    #: the seed is a running game's hidden one (a copy's fresh seed): never shown
    seed_hidden: bool = False
    restated: list[Restatement] = field(default_factory=list)
    rewrites: list[Rewrite] = field(default_factory=list)
    seed_note: str = ""
    #: the lines the turn of a seat ended on unsaid (the next line was another seat's): (line, seat: action)
    implied: list[tuple[int, str]] = field(default_factory=list)
    #: how many claims the replay checked
    checked: int = 0

    @property
    def moves(self) -> list[tuple[str, str]]:
        """The true game's moves (seat, action text); a trailing exchange still waiting for a secret pick
        is left out."""
        return [(m.seat, str(m.action)) for m in self.state.log]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "seed": None if self.seed_hidden else self.seed,
            "seed_note": self.seed_note or None,
            "lines_read": self.lines,
            "lines_replayed": self.replayed,
            "divergences": [d.to_json() for d in self.divergences],
            "illegal": self.illegal.to_json() if self.illegal else None,
            "not_read": [{"line": u.number, "text": u.shown or u.text} for u in self.unread],
            "restated": [r.to_json() for r in self.restated],
            "rewritten": [r.to_json() for r in self.rewrites],
            "left_out": list(self.left_out),
            "turns_ended_unsaid": [{"line": n, "move": m} for n, m in self.implied],
            "honour_system": self.honour or None,
            "moves": len(self.state.log),
            "status": self.game.status(self.state, None),
            "outcome": self.state.outcome.to_json() if self.state.outcome else None,
        }

    def text(self) -> str:
        """The audit in plain words, one finding a line."""
        seed = "a hidden seed" if self.seed_hidden else f"seed {self.seed}"
        out = [f"Audit of a {self.game.name} game from a chatbot: {self.lines} move lines read, {self.replayed} replayed "
               f"({seed})."]  # fmt: skip
        if self.seed_note:
            out.append(self.seed_note)
        out += [r.text() for r in self.rewrites]
        for d in self.divergences:
            out.append(f"line {d.line} {d.label or '-'} ({d.moves}): {d.key}: {d.finding()} [{d.rule}]")
        if self.illegal is not None:
            i = self.illegal
            out.append(f"line {i.line} {i.label or '-'}: illegal move {i.move}: {i.reason} [{i.rule}]")
            if i.legal:
                out.append(f"  legal instead: {'; '.join(i.legal)}")
            n = i.not_replayed
            rest = ", the log's last" if not n else f"; {n} later move {'line was' if n == 1 else 'lines were'} not replayed"
            out.append(f"  the true game stops before this line{rest}")
        for u in self.unread:
            out.append(f"line {u.number}: not read as a move: {u.shown or u.text}")
        if self.left_out:
            out.append(f"left out (an exchange not finished): {', '.join(self.left_out)}; these picks are made again")
        if self.honour:
            out.append(f"Honour system: {self.honour}. {FIX}.")
        n, ill = len(self.divergences), 1 if self.illegal else 0
        verdict = "the chatbot kept the game exactly" if not n and not ill else (
            f"{n} {'divergence' if n == 1 else 'divergences'}, {ill} illegal {'move' if ill == 1 else 'moves'}")
        out.append(f"Result: {verdict}. The engine's game: {self.game.status(self.state, None)}")
        return "\n".join(out)


# ------------------------------------------------------------------ finding and reading the log
def _sections(chatlog: ChatLog, lines: list[Line]) -> list[list[Line]]:
    """The lines of each section headed like the log (``## Move log``, ``**Move log**``, ``Move log:``)
    up to the next markdown heading; without such a heading, every line.  The engine's example lines
    of an exported document are left out."""
    title = chatlog.title.lower()
    starts = []
    for i, ln in enumerate(lines):
        words = ln.text.strip(" :#").strip()
        if words == title or (words.startswith(title) and chatlog.parse_line(ln.text) is None and len(words) <= len(title) + 30):
            starts.append(i + 1)
    out: list[list[Line]] = []
    for start in starts or [0]:
        section: list[Line] = []
        example = False  # the engine's example lines of the exported documents are no part of the game
        for ln in lines[start:]:
            if ln.heading and starts:
                break
            if ln.text.startswith(EXAMPLE):
                example = True
                continue
            if example and chatlog.parse_line(ln.text) is not None:
                continue
            example = False
            section.append(ln)
        out.append(section)
    return out


def find_log(chatlog: ChatLog, lines: list[Line]) -> list[Line]:
    """Every line of the log's sections, in order (see :func:`_sections`)."""
    return [ln for section in _sections(chatlog, lines) for ln in section]


def read_log(game: Game, text: str) -> LogRead:
    """The move log of ``text`` (a session document or a whole chat) read with ``game``'s format."""
    chatlog = _chatlog(game)
    reader = _Reader()
    attempt = re.compile(rf"\b(?:{seat_pattern(game.seats)})\s*:\s*[^|]*[a-z]")  # a seat and words: a move meant
    for ln in find_log(chatlog, clean_lines(text, game.seats)):
        p = chatlog.parse_line(ln.text)
        if p is not None and p.moves:
            reader.add(ln, p)
        elif p is None and "|" in ln.text and attempt.search(ln.text):
            reader.read.unread.append(ln)
    reader.close(None)
    return reader.read


def _same(a: ParsedLine, b: ParsedLine) -> bool:
    """Whether two lines say the same: the same moves and claims (lines without claims: and the same label), and
    no labels that number two different lines (``D5``, ``D6``; a table's ``4`` and ``Toss`` may be one line)."""
    if a.moves != b.moves or a.claims != b.claims:
        return False
    if not a.claims and not (a.label and a.label == b.label):
        return False
    na, nb = _LABEL.fullmatch(a.label), _LABEL.fullmatch(b.label)
    return not (na and nb and na.group(1) == nb.group(1) and int(na.group(2)) != int(nb.group(2)))


#: a numbered label: its letters and its number (``d5``, ``t 12``, ``7``)
_LABEL = re.compile(r"([a-z]*)\s*([0-9]{1,6})")


class _Reader:
    """Reads the log's lines one by one, telling new lines from restatements and rewrites."""

    def __init__(self) -> None:
        self.read = LogRead([])
        self.run: list[tuple[Line, ParsedLine]] = []  # a restatement under way: the chat's lines so far
        self.start = 0  # the log's line it restates from

    def add(self, ln: Line, p: ParsedLine) -> None:
        log = self.read.lines
        if self.run:
            at = self.start + len(self.run)
            if at < len(log) and _same(p, log[at][1]):
                self.run.append((ln, p))
                return
            if self.close((ln, p)):
                return
        if log:
            j = next((j for j, (_, q) in enumerate(log) if _same(p, q)), None)
            if j is not None and (j == 0 or (log[j][1].label and log[j][1].label == p.label)):
                # a line from the middle of the log restates it only under its own label: two plays can read alike
                self.run, self.start = [(ln, p)], j
                return
            if j is None and _restarts(log[0][1], log[-1][1], p):  # the log begun again, and differently
                self.read.rewrites.append(Rewrite(ln.number, log[0][0].number, len(log)))
                log.clear()
        log.append((ln, p))

    def close(self, after: tuple[Line, ParsedLine] | None) -> bool:
        """End the restatement under way before ``after`` (``None``: the text ended); True when ``after``
        was taken in (as the first line of the chat's later account)."""
        run, start, log = self.run, self.start, self.read.lines
        self.run = []
        if not run:
            return False
        end = start + len(run)
        if start > 0 and end < len(log):  # lines from the middle of the log, not up to its end: new lines after all
            log.extend(run)
            return False
        self.read.restated.append(Restatement(run[0][0].number, run[-1][0].number, log[start][0].number, log[end - 1][0].number))
        if start == 0 and end < len(log) and after is not None:  # restated from the start, then changed: the later account
            self.read.rewrites.append(Rewrite(after[0].number, log[end][0].number, len(log) - end))
            del log[end:]
            log.append(after)
            return True
        return False


def _restarts(first: ParsedLine, last: ParsedLine, p: ParsedLine) -> bool:
    """Whether ``p`` is a first line again: it carries the log's first label (one with a number), and the
    log has gone past it (a seat's row after another's of the same exchange carries the label too)."""
    return bool(first.label) and first.label == p.label != last.label and re.search(r"[0-9]", first.label) is not None


def _chatlog(game: Game) -> ChatLog:
    chatlog = game.chatlog()
    if chatlog is None:
        raise StateError(f"{game.id} has no chatbot move log format", rule=RULE, input=game.id)
    return chatlog


def detect_game(text: str) -> Game:
    """The game whose move log reads the most lines of ``text`` (a tie goes to the game named in
    the text, then to the default game)."""
    from gm.core.registry import all_games, default_game

    low = text.lower()
    best: tuple[int, int, int] | None = None
    found: Game | None = None
    default = default_game()
    for g in all_games():
        if g.chatlog() is None:
            continue
        n = len(read_log(g, text).lines)
        named = int(g.name.lower() in low or g.id in low)
        key = (n, named, int(g.id == default.id))
        if n and (best is None or key > best):
            best, found = key, g
    if found is None:
        raise StateError("no move log found: neither a gm token nor move lines of any game's chatbot log", rule=RULE)
    return found


# ------------------------------------------------------------------ the audit
def audit(game: Game, text: str, rules: Any = None, seed: int | None = None, chance: Chance | str | None = None,
          prefer: int | None = None) -> Audit:
    """Replay the move log in ``text`` with ``rules`` and list what the chatbot got wrong.  ``seed``: the
    engine's chance (``None``: :func:`choose_seed` finds the seed under which the engine's chance agrees
    with the chat, trying ``prefer`` first, as the seed of a blank session template's token); ``chance``: the
    generator (and any outcomes to supply) of the game's own token, default what new games use."""
    chatlog = _chatlog(game)
    read = read_log(game, text)
    parsed = read.lines
    if not parsed:
        raise StateError(f"no {game.name} move log found in the text", rule=RULE)
    rules = game.load_rules(rules)
    reading = _remembering(game)
    choice = SeedChoice(seed) if seed is not None else choose_seed(reading, rules, parsed, prefer, chance)
    result = _replay(reading, chatlog, rules, choice.seed, parsed, chance)
    result.state.__dict__.pop("game", None)  # the game's own again (see _Remembering)
    result.unread, result.restated, result.rewrites = read.unread, read.restated, read.rewrites
    result.seed_note = choice.note
    if result.illegal is None:  # the document's account of where the game stands, against the engine's
        lines = [(ln.number, ln.text) for ln in clean_lines(text, game.seats)]
        for number, claim in chatlog.final_claims(lines):
            f = chatlog.fact(claim.key, result.state, [])
            if f is not None and not f.agrees(claim.said):
                result.divergences.append(Divergence(number, "status", "the game as it stands", claim.key, claim.said, f.shown, f.rule))
    return result


def choose_seed(game: Game, rules: Any, parsed: list[tuple[Line, ParsedLine]], prefer: int | None = None,
                chance: Chance | str | None = None) -> SeedChoice:
    """The seed to replay a chatbot's log with.  The seeds ``prefer``, then 0, 1, ... (:data:`SEEDS` in all)
    are tried in two rounds: first, under which of them every claim about an outcome of chance (the chat
    log's ``chance_keys``) comes out as the chat says and the log's first lines (who moves first) replay
    (each try replays only up to the last such claim, stopping at the first it contradicts); then, of the
    first :data:`FULL_TRIES` that do, the first under which the whole log replays without a finding, else
    the one that goes furthest (the chat's dice that the log leaves unsaid are then the likeliest).  When
    no seed fits, the one that agrees with the most, and a note saying what no seed gives."""
    if not isinstance(game, _Remembering):
        game = _remembering(game)
    chatlog = _chatlog(game)
    keys = chatlog.chance_keys
    stated = [(i, c) for i, (_, p) in enumerate(parsed) for c in p.claims if c.key in keys]
    horizon = max([i for i, _ in stated] + [min(len(parsed), FIRST_LINES) - 1])
    prefix = parsed[: horizon + 1]
    order = ([prefer] if prefer is not None else []) + [s for s in range(SEEDS) if s != prefer]
    best: tuple[tuple[int, int], int, Audit] | None = None
    fits: list[tuple[int, Audit]] = []
    for s in order:
        a = _replay(game, chatlog, rules, s, prefix, chance, keys=keys, stop=True)
        agreed = a.checked - len(a.divergences)
        if agreed == len(stated) and a.replayed == len(prefix):
            fits.append((s, a))
            if len(fits) == FULL_TRIES:
                break
        elif best is None or (agreed, a.replayed) > best[0]:
            best = ((agreed, a.replayed), s, a)
    if fits:
        return SeedChoice(_furthest(game, chatlog, rules, parsed, fits, chance), True, len(stated))
    assert best is not None
    (agreed, _), s, a = best
    if agreed == len(stated):  # chance agrees; the first lines stop at a mistake of the chatbot's own
        return SeedChoice(s, True, len(stated))
    missed = a.divergences[0] if a.divergences else None
    if missed is not None:
        what = f"line {missed.line}: {missed.key} {missed.said}"
    else:
        ln, claim = next((parsed[i][0], c) for i, c in stated[agreed:])
        what = f"line {ln.number}: {claim.key} {claim.said}"
    note = (f"No seed of the {len(order)} tried gives every outcome of chance the chat states ({what}); "
            f"replayed with seed {s}, which gives {agreed} of {len(stated)}.")  # fmt: skip
    return SeedChoice(s, False, len(stated), note)


def _furthest(game: Game, chatlog: ChatLog, rules: Any, parsed: list[tuple[Line, ParsedLine]], fits: list[tuple[int, Audit]],
              chance: Chance | str | None = None) -> int:
    """Of the seeds that fit the chat's chance (with their replays of the log's first lines), the first under
    which the whole log replays without a finding, else the one whose replay goes furthest (the earliest on
    a tie).  A game whose first try draws nothing after those first lines is the same under every seed."""
    first, opening = fits[0]
    best = (-1, first)
    for s, _ in fits:
        a = _replay(game, chatlog, rules, s, parsed, chance, stop=s != first)
        reached = a.divergences[0].line if a.divergences else (a.illegal.line if a.illegal else None)
        if reached is None:
            return s
        if s == first and len(opening.state.log) < len(a.state.log) and _same_chance(opening.state, a.state):
            return first  # nothing drawn after the first lines: every fitting seed replays the same game
        progress = next(i for i, (ln, _) in enumerate(parsed) if ln.number == reached)
        if progress > best[0]:
            best = (progress, s)
    return best[1]


def _same_chance(before: GameState[Any], after: GameState[Any]) -> bool:
    """Whether a replay drew nothing more by chance after ``before`` (the same seed, further on)."""
    return bool(before.rng.getstate() == after.rng.getstate())


def _replay(
    game: Game,
    chatlog: ChatLog,
    rules: Any,
    seed: int,
    parsed: list[tuple[Line, ParsedLine]],
    chance: Chance | str | None = None,
    *,
    keys: Collection[str] | None = None,
    stop: bool = False,
) -> Audit:
    """Replay ``parsed`` under ``seed``; check the claims (``keys``: only these); ``stop``: stop at the first
    claim the rules contradict (the seed search)."""
    state = _new_state(game, rules, seed, chance)
    result = Audit(_real(game), state, seed, len(parsed), 0)
    closed = 0  # log length after the last complete exchange
    honour = False
    carry: list[tuple[str, str]] = []  # moves of a seat's row that wait for another seat's row of the same exchange
    for idx, (ln, p) in enumerate(parsed):
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
    return result


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


class _Remembering:
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


def _remembering(game: Game) -> Game:
    return cast("Game", _Remembering(game))


def _real(game: Game) -> Game:
    return game.real if isinstance(game, _Remembering) else game


def _new_state(game: Game, rules: Any, seed: int, chance: Chance | str | None = None) -> GameState[Any]:
    """A new game of ``game`` (a :class:`_Remembering` one: the state reads its moves through it)."""
    state = game.new_state(rules, seed, chance)
    if isinstance(game, _Remembering):
        state.game = game  # type: ignore[misc]  # the seam: this state's own parser asks the memo first
    return state


def _rebuilt(game: Game, state: GameState[Any], n: int) -> GameState[Any]:
    """``state`` as it was after its first ``n`` moves."""
    fresh = state.rebuilt(n)  # the same chance setup (supplied outcomes of a copy's token included)
    if isinstance(game, _Remembering):
        fresh.game = game  # type: ignore[misc]  # the seam (_new_state)
    return fresh
