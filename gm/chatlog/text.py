"""Cleaning what chatbots do to text, and reading the actions of one seat's part of a line.

Chatbots put a move log in markdown tables or lists, bold it, fence it, number it, curl its
quotes and change its case; :func:`clean_lines` undoes all of that, line by line, keeping the
line numbers of the pasted text for the audit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from gm.core.chatlog import Claim, ParsedLine
from gm.core.errors import GameError

_TRANSLATE = str.maketrans(
    {
        "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2033": '"',
        "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2212": "-", "\u2192": "->",
        "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u200b": "", "\ufeff": "",
        "\uff5c": "|", "\u2502": "|", "\uff06": "&",
    }
)  # fmt: skip
_BULLET = re.compile(r"^\s*(?:[-*+\u2022>]\s+|\(?\d{1,4}[.)]\s+|#{1,6}\s+)+")
_EMPHASIS = re.compile(r"\*\*|__|\*|`|~~")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")
_SPACES = re.compile(r"[ \t]+")


@dataclass(frozen=True, slots=True)
class Line:
    """A cleaned line of the pasted text and its 1-based number there."""

    number: int
    text: str
    heading: bool = False


def clean(text: str) -> str:
    """One line as plain lower-case text: ASCII quotes and dashes, no emphasis, bullets or numbering,
    table cells joined with `` | ``."""
    t = text.translate(_TRANSLATE)
    t = _EMPHASIS.sub("", t)
    t = _BULLET.sub("", t)
    t = t.strip()
    if t.startswith("|"):
        t = t[1:]
    if t.endswith("|"):
        t = t[:-1]
    cells = [c.strip() for c in t.split("|")]
    return _SPACES.sub(" ", " | ".join(c for c in cells if c)).strip().lower()


def clean_lines(text: str, seats: Sequence[str] = ()) -> list[Line]:
    """Every non-empty line of ``text`` cleaned (:func:`clean`); fences and table rules dropped.
    A markdown table whose header names the seats (``| # | home | away | result |``) has its cells
    read as ``home: ...``."""
    out: list[Line] = []
    header: list[str] | None = None
    prev_raw = ""
    for i, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip().translate(_TRANSLATE)
        if stripped.startswith("```") or stripped.startswith("~~~"):
            continue
        is_row = stripped.startswith("|") and stripped.count("|") >= 2
        if _TABLE_RULE.match(stripped.replace(" ", "")) and stripped.count("-") >= 3 and "|" in stripped:
            header = _header(prev_raw, seats)
            prev_raw = ""
            continue
        if not is_row:
            header = None
        prev_raw = stripped
        if is_row and header is not None:
            body = stripped.strip("|")
            cells = [_EMPHASIS.sub("", c).strip() for c in body.split("|")]
            parts = [
                f"{h}: {c}" if h in seats and c and not clean(c).startswith(f"{h}:") else c
                for h, c in zip(header, cells, strict=False)
            ]
            stripped = " | ".join(p for p in parts if p)
        t = clean(stripped)
        if t:
            out.append(Line(i, t, stripped.startswith("#")))
    return out


def _header(row: str, seats: Sequence[str]) -> list[str] | None:
    """The cleaned header cells of a table when they name a seat, else ``None``."""
    if not row.startswith("|"):
        return None
    cells = [clean(c) for c in row.strip("|").split("|")]
    return cells if any(c in seats for c in cells) else None


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


def read_line(
    text: str,
    parse: Callable[[str], object],
    claims: Callable[[str], list[Claim]],
    move: re.Pattern[str],
    separators: str = "",
) -> ParsedLine | None:
    """A line of ``|``-separated segments read the usual way: a segment ``SEAT: ACTIONS`` (the first
    may have a label before the seat, ``D7 home: ...``; a short first segment without a claim is a
    label too) holds moves, every other segment claims (``claims`` reads them).  ``None`` when no
    seat segment reads as actions (commentary); a seat segment that does not read while another
    does comes back whole, so that the replay reports it with the game's syntax rule."""
    label = ""
    moves: list[tuple[str, str]] = []
    rest: list[str] = []
    readable = False
    for i, seg in enumerate(s.strip() for s in text.split("|")):
        m = move.match(seg)
        if m is not None and (i == 0 or not m.group("label").strip()):
            if i == 0:
                label = m.group("label").strip()
            acts = split_actions(m.group("acts"), parse, separators)
            readable = readable or acts is not None
            moves.extend((m.group("seat"), a) for a in (acts or [m.group("acts").strip()]))
        elif i == 0 and len(seg) <= 24 and not claims(seg):
            label = seg
        else:
            rest.append(seg)
    if not readable:
        return None
    return ParsedLine(label, tuple(moves), tuple(claims(" | ".join(rest))))


_ROW = re.compile(r"^([a-z][a-z ()]{1,40}?) \| (.+)$")


def status_rows(lines: Iterable[tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """The two-cell rows of a session document's tables (``| Ball | K20 |``, cleaned to
    ``ball | k20``): item -> (line number, value), the last statement of each item counting."""
    out: dict[str, tuple[int, str]] = {}
    for number, text in lines:
        m = _ROW.match(text)
        if m is not None and "|" not in m.group(2):
            out[m.group(1).strip()] = (number, m.group(2).strip())
    return out
