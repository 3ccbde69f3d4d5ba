"""Cleaning what chatbots do to text, and reading the actions of one seat's part of a line.

Chatbots put a move log in markdown tables or lists, bold it, fence it, number it, prefix it, curl
its quotes and change its case, and save the chat in whatever encoding the machine likes;
:func:`decode` reads the bytes, :func:`clean_lines` undoes the rest, line by line, keeping the
line numbers of the pasted text for the audit.  Nothing here knows a game: the seats are given.

Tables come in every layout a chatbot writes: a column per seat (``| # | Home | Away | Result |``,
an empty cell written blank, ``-``, an em dash or ``n/a``), a column naming the side next to a
column holding its move (``| Turn | Side | Move |``), or the whole line in one cell (pipes inside
it escaped ``\\|`` the GFM way, or not).  Every row comes out as the line the chat log format
writes: ``LABEL SEAT: ACTIONS | SEAT: ACTIONS | CLAIMS``.

It sits in the core, beside :mod:`gm.core.chatlog`, because games' move-log formats
(``<package>/chatlog.py``) build on it and a game imports nothing above the core; ``gm import``
(:mod:`gm.chatlog`) uses it too (``gm.chatlog.text`` re-exports it).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gm.core.chatlog import Claim, ParsedLine
from gm.core.errors import GameError, StateError
from gm.core.wording import seat_pattern

#: the rule id of the import's own refusals (no log, text that is no text)
RULE = "CORE-IMPORT"

_TRANSLATE = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
        "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2011": "-", "\u2010": "-", "\u2192": "->",
        "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u2009": " ", "\u200b": "", "\ufeff": "", "\u200d": "",
        "\uff5c": "|", "\u2502": "|", "\uff06": "&", "\u2026": "...",
    }
)  # fmt: skip
_BULLET = re.compile(r"^\s*(?:[-*+\u2022>]\s+|\(?\d{1,4}[.)]\s+|#{1,6}\s+)+")
_EMPHASIS = re.compile(r"\*\*|__|\*|`|~~")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_SPACES = re.compile(r"[ \t]+")
#: a pipe that is not escaped (``\\|`` is a pipe inside a table cell)
_PIPE = re.compile(r"(?<!\\)\|")
#: a table's delimiter row, spaces removed: ``|---|:--:|``, ``--|--``
_TABLE_RULE = re.compile(r"^\|?:?-+:?(?:\|:?-+:?)*\|?$")
#: what chatbots write in a table cell that holds nothing
_EMPTY = frozenset({"", "-", "--", "---", "n/a", "na", "n.a.", "none", "(none)", "...", "/", "(empty)", "nothing", "."})


# ----------------------------------------------------------------- bytes
def decode(data: bytes, name: str = "the text") -> str:
    """``data`` as text: UTF-8 (with or without a byte-order mark), UTF-16 or UTF-32 with their mark
    (UTF-16 without one when every character is ASCII), else a Windows-1252 / Latin-1 file.  Bytes
    that are no text in any of these raise one :class:`StateError` saying what would be read."""
    for bom, codec in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
                       (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):  # fmt: skip
        if data.startswith(bom):
            try:
                return _text(data.decode(codec), name)
            except UnicodeDecodeError as exc:
                raise _unreadable(name, f"it starts with a {codec.upper().removesuffix('-SIG')} byte-order mark but byte "
                                        f"{exc.start + len(bom)} is not {codec.upper().removesuffix('-SIG')}") from None  # fmt: skip
    try:
        return _text(data.decode("utf-8"), name)
    except UnicodeDecodeError:
        pass
    if b"\x00" in data:
        if len(data) % 2 == 0:  # UTF-16 without its mark: the high bytes of a chat's (mostly ASCII) characters are NUL
            even, odd = data[0::2].count(0) / (len(data) // 2), data[1::2].count(0) / (len(data) // 2)
            for codec, high, low in (("utf-16-le", odd, even), ("utf-16-be", even, odd)):
                if high >= 0.7 and low <= 0.02:
                    try:
                        return _text(data.decode(codec), name)
                    except UnicodeDecodeError:
                        break
        raise _unreadable(name, f"byte {data.index(0)} is a NUL byte (a binary file, or UTF-16 without its byte-order mark)")
    try:
        text = data.decode("cp1252")  # Latin-1 with the printable characters Windows puts in 0x80-0x9f
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return _text(text, name)


_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")


def _text(text: str, name: str) -> str:
    bad = _CONTROL.search(text)
    if bad is not None:
        raise _unreadable(name, f"character {bad.start()} is the control character U+{ord(bad.group()):04X}")
    return text


def _unreadable(name: str, why: str) -> StateError:
    return StateError(f"{name} is not text gm can read ({why}); save it as UTF-8, UTF-16 or Latin-1 text", rule=RULE)


# ----------------------------------------------------------------- lines
@dataclass(frozen=True, slots=True)
class Line:
    """A cleaned line of the pasted text and its 1-based number there: ``text`` in lower case (what
    the readers read), ``shown`` as written (what the audit quotes)."""

    number: int
    text: str
    heading: bool = False
    shown: str = ""

    def as_written(self, fragment: str) -> str:
        """``fragment`` (a piece of :attr:`text`) in the case the line was written in."""
        shown = self.shown or self.text
        if len(shown) == len(self.text):
            at = self.text.find(fragment)
            if at >= 0:
                return shown[at : at + len(fragment)]
        return fragment


def _plain(text: str) -> str:
    """One line as plain text in its own case: ASCII quotes and dashes, no emphasis, bullets or
    numbering, table cells (unescaped) joined with `` | ``."""
    t = _BREAK.sub(" ; ", text.translate(_TRANSLATE))
    t = _EMPHASIS.sub("", t)
    t = _BULLET.sub("", t)
    t = t.strip()
    cells = [c.strip() for c in split_cells(t)] if "|" in t else [t]
    return _SPACES.sub(" ", " | ".join(c for c in cells if c)).strip()


def clean(text: str) -> str:
    """One line as plain lower-case text: ASCII quotes and dashes, no emphasis, bullets or numbering,
    table cells joined with `` | ``."""
    return _plain(text).lower()


def split_cells(row: str) -> list[str]:
    """The cells of a markdown table row (outer pipes optional), ``\\|`` read as a pipe inside a cell."""
    body = row.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|") and not body.endswith("\\|"):
        body = body[:-1]
    return [c.replace("\\|", "|") for c in _PIPE.split(body)]


def blank(cell: str) -> bool:
    """Whether a table cell (or a seat's part of a line) says nothing: blank, ``-``, ``n/a``, ``none`` ..."""
    return clean(cell).strip(" *_`") in _EMPTY


def clean_lines(text: str, seats: Sequence[str] = ()) -> list[Line]:
    """Every non-empty line of ``text`` cleaned (:func:`clean`); fences, table headers and delimiter
    rows dropped; a table row rewritten as the log line it stands for (see :class:`_Table`)."""
    out: list[Line] = []
    table: _Table | None = None
    last: _Table | None = None  # the last table of moves: rows printed later without its header are read with it
    rows: list[tuple[int, str]] = []  # the current table's rows as written: (index in out, the row)
    prev: tuple[int, str] | None = None  # the line before, when it has a pipe outside a table: a header if a rule follows

    def close() -> None:
        if table is not None and not table.moved:  # no move in any row (a scoreboard): the cells as they are
            for k, raw in rows:
                shown = _plain(" | ".join(c for c in split_cells(raw) if not blank(c)))
                out[k] = Line(out[k].number, shown.lower(), False, shown)
        rows.clear()

    for i, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip().translate(_TRANSLATE)
        if stripped.startswith("```") or stripped.startswith("~~~"):
            close()
            table, prev = None, None
            continue
        piped = _PIPE.search(stripped) is not None
        if not piped:
            close()
            table = None
        elif table is None and prev is not None and prev[0] == i - 1 and _is_rule(stripped):
            table = _Table(split_cells(prev[1]), seats)
            if out and out[-1].number == prev[0]:
                out.pop()  # the header row is no line of the log
            prev = None
            continue
        prev = (i, stripped) if piped and table is None else None
        if table is not None:
            row = table.row(split_cells(stripped))
            if table.moved:
                last = table
        elif stripped.startswith("|") and last is not None and len(split_cells(stripped)) == last.width:
            row = last.row(split_cells(stripped))  # a new row of the last table, its header not printed again
        elif stripped.startswith("|"):
            row = " | ".join(c for c in split_cells(stripped) if not blank(c))
        else:
            row = stripped
        shown = _plain(row)
        if shown:
            if table is not None:
                rows.append((len(out), stripped))
            out.append(Line(i, shown.lower(), stripped.startswith("#"), shown))
    close()
    return out


def _is_rule(row: str) -> bool:
    """Whether ``row`` is a table's delimiter row: every cell dashes (two at least, or with a colon: a cell
    of one dash is an empty cell written ``-``)."""
    compact = row.replace(" ", "").replace("\t", "")
    if "|" not in compact or _TABLE_RULE.match(compact) is None:
        return False
    return all(c.count("-") >= 2 or ":" in c for c in compact.strip("|").split("|"))


def _words(text: str) -> str:
    """``text``'s words only (letters, digits, ``#``, ``&``, ``'``, ``/``; emoji and punctuation go), spaced once."""
    return " ".join(re.sub(r"[^\w#&'/ -]+", " ", text).replace("_", " ").split()).strip(" -")


#: a column header naming who moves on the row (its cells are seat names)
_SIDE_HEADERS = frozenset({"side", "seat", "team", "player", "who", "by", "colour", "color", "mover", "to move", "turn of"})
#: a column header of the moves, next to a side column
_ACT_HEADERS = frozenset({"move", "moves", "action", "actions", "play", "plays", "call", "calls", "pick", "picks",
                          "placement", "placements", "choice", "what", "move(s)", "action(s)"})  # fmt: skip
#: words after a seat in a seat column's header (``Home call``, ``Away's move``)
_SEAT_SUFFIX = frozenset({"team", "side", "seat", "player", "'s", "s", *_ACT_HEADERS})
#: headers of columns whose cells are read as they are (no header word put before them)
_GENERIC = frozenset({
    "", "#", "no", "no.", "nr", "n", "num", "number", "line", "turn", "step", "label", "entry", "id", "exchange",
    "result", "results", "after", "state", "status", "notes", "note", "comment", "comments", "outcome", "summary",
    "details", "claims", "situation", "effect", "effects", "what happened", "description", "narration", "commentary",
    "log", "event", "events", "position", "board", "update", "then", "remarks", "detail", "info", "text", "line text",
    "item", "value", "move log", "entry text",
    *_ACT_HEADERS,
})  # fmt: skip
_HEADER_WORD = re.compile(r"^[a-z][a-z &/'-]{0,24}$")


class _Table:
    """A markdown table's header, read once: what each column holds, and how a row becomes a log line."""

    def __init__(self, header: list[str], seats: Sequence[str]) -> None:
        self.width = len(header)
        self.kinds: list[tuple[str, str]] = []  # per column: (kind, word) kind in seat/side/acts/claim/plain
        names = [_words(re.sub(r"\([^)]*\)", " ", clean(h))) for h in header]
        side_at: int | None = None
        for k, name in enumerate(names):
            words = name.replace("'s", " 's").split()
            if words and words[0] in seats and all(w in _SEAT_SUFFIX for w in words[1:]):
                self.kinds.append(("seat", words[0]))
            elif name in _SIDE_HEADERS and side_at is None:
                side_at = k
                self.kinds.append(("side", ""))
            elif name not in _GENERIC and _HEADER_WORD.match(name):
                self.kinds.append(("claim", name))
            else:
                self.kinds.append(("plain", name))
        if side_at is not None:  # the side's moves: the next column headed like moves
            acts = next((k for k in range(side_at + 1, len(names)) if names[k] in _ACT_HEADERS), None)
            if acts is not None:
                self.kinds[acts] = ("acts", "")
        if not any(kind in ("seat", "acts") for kind, _ in self.kinds):  # no table of moves (a status table): cells as they are
            self.kinds = [("plain", name) for name in names]
        self.seats = tuple(seats)
        #: whether a cell of a seat's moves held a word (a table of numbers under the seats is a scoreboard)
        self.moved = False

    def row(self, cells: list[str]) -> str:
        """The log line a row stands for (a row whose cells do not line up with the header, as when a
        whole line's pipes were not escaped, is read cell after cell)."""
        if len(cells) != self.width:
            return " | ".join(c for c in cells if not blank(c))
        parts: list[str] = []
        side = ""
        for (kind, word), cell in zip(self.kinds, cells, strict=True):
            c = cell.strip()
            if blank(c):
                continue
            low = clean(c)
            if kind in ("seat", "acts") and re.search(r"[a-z]", low):
                self.moved = True
            if kind == "seat":
                parts.append(c if re.match(rf"(?:{seat_pattern(self.seats)})\s*:", low) else f"{word}: {c}")
            elif kind == "side":
                named = [w for w in _words(re.sub(r"\([^)]*\)", " ", low)).split() if w in self.seats]
                if len(named) == 1:  # "Blue (you)", "Lime Green", an emoji before the colour
                    side = named[0]
                else:
                    parts.append(c)
            elif kind == "acts" and side and not low.startswith(f"{side}:"):
                parts.append(f"{side}: {c}")
            elif kind == "claim" and word not in low:
                parts.append(f"{word} {c}")
            else:
                parts.append(c)
        return " | ".join(parts)


# ----------------------------------------------------------------- actions
#: commentary a chatbot puts after a move: ``(a pass)``, ``- a long pass``, ``# note``
_COMMENT = re.compile(r"\([^)]*\)|\[[^\]]*\]|\s(?:-|--|#|//|=>|->)\s.*$")


def split_actions(text: str, parse: Callable[[str], object], separators: str = "") -> list[str] | None:
    """The action texts in one seat's part of a line (``punt, left red`` -> ``punt``, ``left red``):
    the longest run of words that ``parse`` reads, again and again.  Commentary in brackets or after
    a dash is dropped first.  ``separators``: characters that always part two actions (for a game
    whose actions never hold them), read before the longest runs.  ``None`` when the text does not
    read as actions."""
    body = _COMMENT.sub(" ", f" {text} ").replace('"', " ").replace("'", " ").strip(" ,;.")
    if separators:
        out: list[str] = []
        for part in re.split(f"[{re.escape(separators)}]", body):
            if part.strip(" ."):
                got = split_actions(part, parse)
                if got is None:
                    return None
                out.extend(got)
        return out or None
    words = body.replace(";", " ; ").split()
    out = []
    i = 0
    while i < len(words):
        if words[i] in (";", ",", "then", "and"):
            i += 1
            continue
        for j in range(len(words), i, -1):
            chunk = " ".join(words[i:j]).replace(" ;", ";").strip(" ,;.")
            if chunk and _reads(parse, chunk):
                out.append(chunk)
                i = j
                break
        else:
            return None
    return out or None


def _reads(parse: Callable[[str], object], text: str) -> bool:
    try:
        parse(text)
    except GameError:
        return False
    return True


def squares(text: str) -> Iterable[str]:
    """Board squares (a letter and a row, ``k20``) in ``text``, upper-cased."""
    return (m.upper() for m in re.findall(r"\b[a-z][0-9]{1,2}\b", text))


def move_pattern(seats: Iterable[str]) -> re.Pattern[str]:
    """The segment of a cleaned line that holds a seat's moves: ``[LABEL] SEAT: ACTIONS`` (or ``LABEL
    (SEAT): ACTIONS``).  The label is what comes before the seat (``d7``, ``t12``, ``move 12:``, ``log:
    d7``, ``toss``), up to 40 characters and one colon of its own."""
    s = seat_pattern(seats)
    return re.compile(
        rf"^(?P<label>(?:(?:(?!\b(?:{s})\b)[^:|]){{0,30}}:\s*)?[^:|]{{0,40}}?)[\s.)\-(]*\b(?P<seat>{s})\)?\s*:\s*(?P<acts>.*)$"
    )


_LOG_WORD = re.compile(r"^(?:move\s+)?log\b[\s:.\-]*")


def _label(text: str) -> str:
    """A line's label as shown: its punctuation, emoji and a ``log:`` prefix dropped."""
    return _LOG_WORD.sub("", re.sub(r"[^\w\s:#.()-]+", "", text).strip(" :.-)(#")).strip(" :.-")


def read_line(
    text: str,
    parse: Callable[[str], object],
    claims: Callable[[str], list[Claim]],
    move: re.Pattern[str],
    separators: str = "",
) -> ParsedLine | None:
    """A line of ``|``-separated segments read the usual way: a segment ``SEAT: ACTIONS`` holds moves
    (the first may have a label before the seat, ``D7 home: ...``; short segments before it without
    a claim are labels too, as a table's ``#`` column), a seat segment that says nothing (``home: -``)
    holds none, and every other segment claims (``claims`` reads them).  ``None`` when no seat segment
    reads as actions (commentary); a seat segment that does not read while another does comes back
    whole, so that the replay reports it with the game's syntax rule."""
    label = ""
    moves: list[tuple[str, str]] = []
    rest: list[str] = []
    readable = False
    leading = True  # every segment so far was a label
    for seg in (s.strip() for s in text.split("|")):
        m = move.match(seg)
        if m is not None and (leading or not m.group("label").strip()):
            if leading and _label(m.group("label")):
                label = _label(m.group("label"))
            leading = False
            acts_text = m.group("acts").strip()
            if blank(acts_text):
                continue
            acts = split_actions(acts_text, parse, separators)
            readable = readable or acts is not None
            moves.extend((m.group("seat"), a) for a in (acts or [acts_text]))
        elif leading and len(seg) <= 24 and not claims(seg):
            label = _label(seg) or label
        else:
            leading = False
            rest.append(seg)
    if not readable:
        return None
    return ParsedLine(label, tuple(moves), tuple(claims(" | ".join(rest))))


_COIN = re.compile(r"\bcoin\s*(?:shows|lands|is|:)?\s*(heads|tails)\b")


@lru_cache(maxsize=16)
def _toss_winner(seats: str) -> re.Pattern[str]:
    return re.compile(rf"\b({seats})\s+wins\s+the\s+(?:coin\s+)?toss\b")


def coin_claims(text: str, seats: str) -> list[Claim]:
    """The coin toss a line states: the flip (``coin heads``, ``coin: tails``) as a ``coin`` claim, and
    who won it (``SEAT wins the toss``, ``seats`` a regex alternative) as a ``toss`` claim."""
    out: list[Claim] = []
    if (m := _COIN.search(text)) is not None:
        out.append(Claim("coin", m.group(1)))
    if (m := _toss_winner(seats).search(text)) is not None:
        out.append(Claim("toss", m.group(1)))
    return out


@lru_cache(maxsize=16)
def _result(seats: str, draws: str, toss: bool) -> re.Pattern[str]:
    unless = r"(?!\s+the\s+(?:coin\s+)?toss)" if toss else ""
    return re.compile(rf"\b({seats})\s+wins\b{unless}|\b({draws})\b")


def result_claims(text: str, seats: str, draws: str, *, toss: bool = False) -> list[Claim]:
    """The ``result`` claim a line states, if any, in the words of :attr:`~gm.core.outcome.Outcome.verdict`:
    ``SEAT wins`` (``seats`` a regex alternative; with ``toss``, not ``SEAT wins the toss``) or one of the
    ``draws`` words (a regex alternative)."""
    m = _result(seats, draws, toss).search(text)
    if m is None:
        return []
    return [Claim("result", f"{m.group(1)} wins" if m.group(1) else "draw")]


def score_claim(text: str, seats: tuple[str, str], bare: bool = True) -> str | None:
    """The score a line states for a two-seat game, as ``SEAT1 N-M SEAT2`` (in ``seats``' order): ``score
    home 7-0 away``, ``score: home 7, away 0``, ``score 7-0`` (``seats``' order), ``score: away 0 - home 7``;
    ``bare``: also without the word (``home 7 - 0 away``, as gm's status lines write it)."""
    a, b = seats
    s = seat_pattern(seats)
    n = r"([0-9]{1,3})"
    m = re.search(rf"\bscore\s*:?\s*(?:({s})\s*{n}\s*[-:,]?\s*(?:{n}\s*({s})|({s})\s*{n})|{n}\s*[-:]\s*{n})", text)
    if m is None and bare:
        m2 = re.search(rf"\b({s})\s+{n}\s*-\s*{n}\s+({s})\b", text)
        if m2 is None or m2.group(1) == m2.group(4):
            return None
        pairs = {m2.group(1): m2.group(2), m2.group(4): m2.group(3)}
        return f"{a} {int(pairs[a])}-{int(pairs[b])} {b}"
    if m is None:
        return None
    if m.group(7) is not None:
        return f"{a} {int(m.group(7))}-{int(m.group(8))} {b}"
    first, other = m.group(1), m.group(4) or m.group(5)
    if first == other:
        return None
    pairs = {first: m.group(2), other: m.group(3) or m.group(6)}
    return f"{a} {int(pairs[a])}-{int(pairs[b])} {b}"


_ROW = re.compile(r"^([a-z][a-z ()]{1,40}?) \| (.+)$")


def table_score(value: str, seats: tuple[str, str]) -> str | None:
    """A status table's score cell (``home 7 - 0 away``, cleaned) as a ``score`` claim says it
    (``home 7-0 away``); ``None``: the cell says no score."""
    a, b = seats
    m = re.fullmatch(rf"{a} ([0-9]{{1,3}}) - ([0-9]{{1,3}}) {b}", value)
    return None if m is None else f"{a} {int(m.group(1))}-{int(m.group(2))} {b}"


def score_row(lines: Iterable[tuple[int, str]], seats: tuple[str, str]) -> list[tuple[int, Claim]]:
    """The ``score`` claim of a session document's status table (:func:`status_rows`, :func:`table_score`),
    with its line number; empty when the table states none."""
    rows = status_rows(lines)
    score = table_score(rows["score"][1], seats) if "score" in rows else None
    return [] if score is None else [(rows["score"][0], Claim("score", score))]


def status_rows(lines: Iterable[tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """The two-cell rows of a session document's tables (``| Ball | K20 |``, cleaned to
    ``ball | k20``): item -> (line number, value), the last statement of each item counting."""
    out: dict[str, tuple[int, str]] = {}
    for number, text in lines:
        m = _ROW.match(text)
        if m is not None and "|" not in m.group(2):
            out[m.group(1).strip()] = (number, m.group(2).strip())
    return out
