"""The audit of a game played in a chatbot: find its move log, replay it through the engine, and
list every place where the chatbot's account differs from what the rules give.

The replay stops at the first move the rules forbid (the true game cannot go past it); the
engine's game up to there is what :func:`audit` returns, ready to be saved as a session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.chatlog.text import Line, clean_lines
from gm.core.errors import GameError, StateError

if TYPE_CHECKING:
    from gm.core.chance import Chance
    from gm.core.chatlog import ChatLog, ParsedLine
    from gm.core.events import Event
    from gm.core.game import Game
    from gm.core.state import GameState

RULE = "CORE-IMPORT"
#: how the exported documents introduce their example log lines (gm/prompts/chatlog_import.md.j2)
EXAMPLE = "example (the first lines of a game, computed by the engine)"
#: how many seeds the importer tries to agree with the chatbot's outcomes of chance
SEEDS = 64
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

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "label": self.label, "moves": self.moves, "what": self.key, "chatbot": self.said,
                "rules": self.rules, "rule": self.rule}  # fmt: skip


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

    @property
    def moves(self) -> list[tuple[str, str]]:
        """The true game's moves (seat, action text); a trailing exchange still waiting for a secret pick
        is left out."""
        return [(m.seat, str(m.action)) for m in self.state.log]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "seed": None if self.seed_hidden else self.seed,
            "lines_read": self.lines,
            "lines_replayed": self.replayed,
            "divergences": [d.to_json() for d in self.divergences],
            "illegal": self.illegal.to_json() if self.illegal else None,
            "not_read": [{"line": u.number, "text": u.text} for u in self.unread],
            "left_out": list(self.left_out),
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
        for d in self.divergences:
            out.append(f"line {d.line} {d.label or '-'} ({d.moves}): {d.key}: the chatbot says {d.said}, the rules give "
                       f"{d.rules} [{d.rule}]")  # fmt: skip
        if self.illegal is not None:
            i = self.illegal
            out.append(f"line {i.line} {i.label or '-'}: illegal move {i.move}: {i.reason} [{i.rule}]")
            if i.legal:
                out.append(f"  legal instead: {'; '.join(i.legal)}")
            out.append(f"  the true game stops before this line; {i.not_replayed} later move lines were not replayed")
        for u in self.unread:
            out.append(f"line {u.number}: not read as a move: {u.text}")
        if self.left_out:
            out.append(f"left out (an exchange not finished): {', '.join(self.left_out)}; these picks are made again")
        if self.honour:
            out.append(f"Honour system: {self.honour}. {FIX}.")
        n, ill = len(self.divergences), 1 if self.illegal else 0
        verdict = "the chatbot kept the game exactly" if not n and not ill else (
            f"{n} {'divergence' if n == 1 else 'divergences'}, {ill} illegal {'move' if ill == 1 else 'moves'}")
        out.append(f"Result: {verdict}. The engine's game: {self.game.status(self.state, None)}")
        return "\n".join(out)


def find_log(chatlog: ChatLog, lines: list[Line]) -> list[Line]:
    """The lines of the move log: after the last heading named like the log (``## Move log``,
    ``**Move log**``, ``Move log:``) up to the next markdown heading; without one, every line."""
    title = chatlog.title.lower()
    start = None
    for i, ln in enumerate(lines):
        words = ln.text.strip(" :#").strip()
        if words == title or (words.startswith(title) and chatlog.parse_line(ln.text) is None and len(words) <= len(title) + 30):
            start = i + 1
    out: list[Line] = []
    example = False  # the engine's example lines of the exported documents are no part of the game
    for ln in lines[start or 0 :]:
        if ln.heading and start is not None:
            break
        if ln.text.startswith(EXAMPLE):
            example = True
            continue
        if example and chatlog.parse_line(ln.text) is not None:
            continue
        example = False
        out.append(ln)
    return out


def read_log(game: Game, text: str) -> tuple[list[tuple[Line, ParsedLine]], list[Line]]:
    """The move lines of ``text`` (a session document or a whole chat) read with ``game``'s format,
    and the lines that name a seat like a move but do not read as one."""
    chatlog = _chatlog(game)
    parsed: list[tuple[Line, ParsedLine]] = []
    unread: list[Line] = []
    for ln in find_log(chatlog, clean_lines(text, game.seats)):
        p = chatlog.parse_line(ln.text)
        if p is not None:
            parsed.append((ln, p))
        elif any(f"{s}:" in ln.text for s in game.seats) and "|" in ln.text:
            unread.append(ln)
    return parsed, unread


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
        n = len(read_log(g, text)[0])
        named = int(g.name.lower() in low or g.id in low)
        key = (n, named, int(g.id == default.id))
        if n and (best is None or key > best):
            best, found = key, g
    if found is None:
        raise StateError("no move log found: neither a gm token nor move lines of any game's chatbot log", rule=RULE)
    return found


def audit(game: Game, text: str, rules: Any = None, seed: int | None = None, chance: Chance | str | None = None) -> Audit:
    """Replay the move log in ``text`` with ``rules`` and list what the chatbot got wrong.  The seed
    (``None``: the first of :data:`SEEDS` under which the engine's chance agrees with the chatbot's
    claims about it, else 0) only matters for a game with chance; ``chance``: the generator (and any
    outcomes to supply) of the game's own token, default what new games use."""
    chatlog = _chatlog(game)
    parsed, unread = read_log(game, text)
    if not parsed:
        raise StateError(f"no {game.name} move log found in the text", rule=RULE)
    rules = game.load_rules(rules)
    if seed is None:
        seed = _seed(game, chatlog, rules, parsed, chance)
    result = _replay(game, chatlog, rules, seed, parsed, chance)
    result.unread = unread
    if result.illegal is None:  # the document's account of where the game stands, against the engine's
        lines = [(ln.number, ln.text) for ln in clean_lines(text, game.seats)]
        for number, claim in chatlog.final_claims(lines):
            f = chatlog.fact(claim.key, result.state, [])
            if f is not None and f.value != claim.said:
                result.divergences.append(Divergence(number, "status", "the game as it stands", claim.key, claim.said, f.value, f.rule))
    return result


def _seed(game: Game, chatlog: ChatLog, rules: Any, parsed: list[tuple[Line, ParsedLine]], chance: Chance | str | None = None) -> int:
    last = max((i for i, (_, p) in enumerate(parsed) if any(c.key in chatlog.chance_keys for c in p.claims)), default=-1)
    if last < 0:
        return 0
    prefix = parsed[: last + 1]
    for s in range(SEEDS):
        a = _replay(game, chatlog, rules, s, prefix, chance)
        if not any(d.key in chatlog.chance_keys for d in a.divergences):
            return s
    return 0


def _replay(
    game: Game, chatlog: ChatLog, rules: Any, seed: int, parsed: list[tuple[Line, ParsedLine]], chance: Chance | str | None = None
) -> Audit:
    state = game.new_state(rules, seed, chance)
    result = Audit(game, state, seed, len(parsed), 0)
    closed = 0  # log length after the last complete exchange
    honour = False
    for idx, (ln, p) in enumerate(parsed):
        start = len(state.log)
        honour = honour or len(state.to_act()) > 1
        events: list[Event] = []
        queue = list(p.moves)
        bad: tuple[str, str, GameError] | None = None
        while queue:
            acting = state.to_act()
            k = next((i for i, (seat, _) in enumerate(queue) if seat in acting), 0)
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
            result.illegal = Illegal(ln.number, p.label, f"{seat}: {act}", err.rule, err.reason, legal, len(parsed) - idx - 1)
            break
        result.replayed += 1
        moves = " | ".join(f"{m.seat}: {m.action}" for m in state.log[start:])
        if chatlog.closes(state, events):
            closed = len(state.log)
        for c in p.claims:
            f = chatlog.fact(c.key, state, events)
            if f is not None and f.value != c.said:
                result.divergences.append(Divergence(ln.number, p.label, moves, c.key, c.said, f.value, f.rule))
    if closed < len(state.log) and state.has_locked_picks():
        result.left_out = [f"{m.seat}: {m.action}" for m in state.log[closed:]]
        state = _rebuilt(game, state, closed)
    result.state = state
    result.honour = chatlog.secret_picks if honour else ""
    return result


def _rebuilt(game: Game, state: GameState[Any], n: int) -> GameState[Any]:
    """``state`` as it was after its first ``n`` moves."""
    return state.rebuilt(n)
