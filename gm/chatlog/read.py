"""Finding a chatbot's move log in a text and reading it: the lines of every section headed like the log
(or of the whole text when none is), read with the game's format, in order.  A run of lines that says
again what the log already holds (the chatbot restates the log, whole or its last lines) is a
restatement, read once; a restated log that then says something else is the chat's later account of
the game and counts from there.  A run restates the log from its first line (labels aside: a table
renumbers), or from a later line up to the log's last one under the same labels (two plays can read
alike)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.chatlog_text import RULE, Line, clean_lines
from gm.core.errors import StateError
from gm.core.wording import seat_pattern

if TYPE_CHECKING:
    from gm.core.chatlog import ChatLog, ParsedLine
    from gm.core.game import Game

#: how the exported documents introduce their example log lines (gm/prompts/chatlog_import.md.j2)
EXAMPLE = "example (the first lines of a game, computed by the engine)"


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
    chatlog = chatlog_of(game)
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


def chatlog_of(game: Game) -> ChatLog:
    """The game's chat log format, or one error line saying the game has none."""
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
