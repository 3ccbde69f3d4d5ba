"""Reading a file, always with a size limit: the one reader every part of gm uses.

A file gm reads - a ruleset, a transcript, a chat document to import, a session, a key - is read
through :func:`read_bytes` / :func:`read_text`, which stop at the file's limit and say so in one
line, instead of reading whatever the path gives (``/dev/zero``, a fifo fed for ever, a file grown
by mistake) until memory runs out.  The limits are far above anything gm writes or a person makes,
and each names what it is for.  A file that holds secrets is refused when other users could read
it (:func:`refuse_shared`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Protocol

from gm.core.errors import StateError

FILE_RULE = "CORE-FILE"
KIB = 1024
MIB = 1024 * KIB

#: a ruleset (TOML) or a rules document
RULES_LIMIT = 1 * MIB
#: a transcript (the largest in the corpus is about 0.5 MiB), a scenario, a replay script
TRANSCRIPT_LIMIT = 64 * MIB
#: a chat or document to import, or a token
IMPORT_LIMIT = 16 * MIB
#: a stored session's records (a long game is well under 1 MiB)
SESSION_LIMIT = 64 * MIB
#: a key file, an admin token file
KEY_LIMIT = 4 * KIB
#: a list of player keys
KEYS_LIMIT = 1 * MIB
#: a JSON document a command reads (a state to render)
JSON_LIMIT = 16 * MIB
#: one line of a player's piped input (``gm play < moves.txt``), in characters
LINE_LIMIT = 64 * KIB
#: one JSON-RPC message ``gm mcp`` reads over stdio, in bytes (a tool call's arguments are bounded far
#: below this; ``gm serve`` takes HTTP bodies of at most 64 KiB)
MESSAGE_LIMIT = 1 * MIB

_CHUNK = 1 * MIB


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes | None: ...


class FileTooLarge(StateError):
    """A file over its size limit (nothing of it was used)."""


def read_line(stream: IO[str], what: str = "a line of input") -> str:
    """One line of ``stream`` (``""`` at its end), at most :data:`LINE_LIMIT` characters;
    :class:`FileTooLarge` for a longer one (``gm play < /dev/zero`` ends at once)."""
    line = stream.readline(LINE_LIMIT + 1)
    if len(line) > LINE_LIMIT and not line.endswith("\n"):
        raise FileTooLarge(f"{what} is longer than {LINE_LIMIT} characters, the most gm reads: not read", rule=FILE_RULE)
    return line


class LineReadable(Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...


def read_line_bytes(stream: LineReadable, limit: int, what: str = "a line") -> bytes:
    """One line of a binary ``stream`` (``b""`` at its end), at most ``limit`` bytes before its newline.
    A longer line is read on to its end in chunks and dropped (memory stays bounded whatever the
    stream holds) and :class:`FileTooLarge` says so; the next call reads the next line."""
    line = stream.readline(limit + 1)
    if len(line) <= limit or line.endswith(b"\n"):
        return line
    got = len(line)
    while (chunk := stream.readline(_CHUNK)) and not chunk.endswith(b"\n"):
        got += len(chunk)
    got += len(chunk.rstrip(b"\n"))
    raise FileTooLarge(f"{what} of {got} bytes is longer than {_size(limit)}, the most gm reads: not read", rule=FILE_RULE)


def _size(n: int) -> str:
    return f"{n // MIB} MiB" if n >= MIB and n % MIB == 0 else f"{n // KIB} KiB" if n % KIB == 0 else f"{n} bytes"


def read_stream(stream: Readable, limit: int, what: str, name: str) -> bytes:
    """At most ``limit`` bytes of ``stream``; :class:`FileTooLarge` if it holds more."""
    parts: list[bytes] = []
    got = 0
    while True:
        chunk = stream.read(min(_CHUNK, limit + 1 - got))
        if not chunk:
            break
        parts.append(chunk)
        got += len(chunk)
        if got > limit:
            raise FileTooLarge(f"{what} {name} is larger than {_size(limit)}, the most gm reads: not read", rule=FILE_RULE)
    return b"".join(parts)


def read_bytes(path: str | Path, limit: int, what: str = "file") -> bytes:
    """The bytes of ``path`` if it holds at most ``limit`` bytes; :class:`FileTooLarge` otherwise
    (checked by what is read, not by the size the file claims: ``/dev/zero`` ends at once).
    ``OSError`` (a missing file, a folder, no permission) reaches the caller, which says what the file
    was for."""
    p = Path(path)
    fd = os.open(p, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb", buffering=0) as f:
        return read_stream(f, limit, what, str(p))


def refuse_shared(path: str | Path, what: str, mode: int | None = None) -> None:
    """Refuse a file that holds secrets (a key, a session) when other users may read or write it:
    one line saying how to make it private.  (Refused rather than quietly tightened: a mode that was
    loosened says someone or something changed it, and its owner should know; the fix is one
    ``chmod``.)  ``mode``: the file's mode if already known (``os.fstat``).  No check on Windows."""
    if os.name == "nt":
        return
    if mode is None:
        mode = os.stat(path).st_mode
    if mode & 0o077:
        import shlex

        raise StateError(
            f"{what} {path} can be read or changed by other users of this machine (mode {oct(mode & 0o777)[2:]}): "
            f"make it yours alone with: chmod 600 {shlex.quote(str(path))}",
            rule=FILE_RULE,
        )


def read_text(path: str | Path, limit: int, what: str = "file", encoding: str = "utf-8") -> str:
    """The text of ``path`` (see :func:`read_bytes`); ``UnicodeDecodeError`` reaches the caller."""
    return read_bytes(path, limit, what).decode(encoding)


__all__ = [
    "FILE_RULE",
    "IMPORT_LIMIT",
    "JSON_LIMIT",
    "KEYS_LIMIT",
    "KEY_LIMIT",
    "LINE_LIMIT",
    "MESSAGE_LIMIT",
    "RULES_LIMIT",
    "SESSION_LIMIT",
    "TRANSCRIPT_LIMIT",
    "FileTooLarge",
    "read_bytes",
    "read_line",
    "read_line_bytes",
    "read_stream",
    "read_text",
    "refuse_shared",
]
