"""The transcript format, version 2 (JSONL; version 1 files are read as well).

Line 1 is the :class:`Header`; every further line is one :class:`Entry`,
discriminated by its ``type``:

- ``player``      – what a player typed (seat, text)
- ``tool_call``   – a tool call the referee made (id, seat, tool, args)
- ``tool_result`` – the engine's JSON result for a call (id, result)
- ``narration``   – what the referee said to the player (text; ``flags`` for
  narration-check findings)
- ``board``       – an engine-rendered board snapshot shown to a seat
- ``bot_move``    – a built-in bot's move, written only once it is public
- ``llm_response`` – a model response as received (for offline referee replay)
- ``usage``       – token usage of one LLM request
- ``referee``     – the referee changed (a game resumed under another referee)
- ``seed``        – the hidden seed revealed at the end of the game (seed, salt and the
  commitment the header showed, and the chance outcomes supplied at its start, if any), so the game
  replays from its transcript

A game played with a hidden seed has ``seed: null`` and a ``seed_commitment`` in its header until
the ``seed`` entry at its end; a practice game (its seed given) has the seed in the header.  The
header's ``chance`` names the chance generator the seed keys (absent: ``mt19937``, the generator of
every transcript made before it was recorded; see :mod:`gm.core.chance`), and a practice game's
``supplied`` the chance outcomes supplied at its start (a game brought back from a chatbot's log).

The JSON Schema is exported by :func:`json_schema` (``gm transcript-schema``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    ValidationError,
    model_serializer,
)

from gm.core.errors import StateError

FORMAT_NAME = "gm-transcript"
FORMAT_VERSION = 2


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _without_unset(data: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """``data`` without ``keys`` that are null: fields added for chance leave a legacy game's lines as they were."""
    for key in keys:
        if data.get(key) is None:
            data.pop(key, None)
    return data


class RefereeInfo(_Model):
    kind: str = Field(description="offline, openai, anthropic, replay, none (tool calls only)")
    model: str | None = None


class Header(_Model):
    """First line of a transcript: everything needed to rebuild the game."""

    format: Literal["gm-transcript"] = "gm-transcript"
    version: int = FORMAT_VERSION
    game: str
    rules: dict[str, Any] = Field(default_factory=dict)
    rules_hash: str = ""
    seed: int | None = 0
    #: SHA-256 of the hidden seed (``seed`` is null until the ``seed`` entry reveals it)
    seed_commitment: str | None = None
    players: dict[str, str] = Field(default_factory=dict, description="seat -> human | bot:STRATEGY")
    gm_version: str = ""
    referee: RefereeInfo = Field(default_factory=lambda: RefereeInfo(kind="none"))
    created: str = Field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    title: str | None = None
    #: session-level settings that change results (e.g. the nonce seed of bot commitments)
    session: dict[str, Any] = Field(default_factory=dict)
    chance: str | None = Field(
        default=None, description="the chance generator the seed keys: chacha20-v1, or mt19937 (also when absent: every earlier transcript)"
    )
    supplied: dict[str, Any] | None = Field(
        default=None, description="chance outcomes supplied at the start, by draw number (a practice game's; a hidden-seed game's are in its seed entry)"
    )

    @model_serializer(mode="wrap")
    def _omit_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _without_unset(handler(self), ("chance", "supplied"))


class PlayerEntry(_Model):
    type: Literal["player"] = "player"
    seat: str
    text: str


class ToolCallEntry(_Model):
    type: Literal["tool_call"] = "tool_call"
    id: str
    seat: str | None
    tool: str
    args: dict[str, Any] | str | None = None
    #: whether the caller asked for the board window in an action's result (``None``: format 1,
    #: where every action result carried it)
    board: bool | None = None


# alike on purpose: the entries below (LLMResponseEntry, UsageEntry...) share a shape; each is its own line type of the transcript format, declared, not logic
class ToolResultEntry(_Model):
    type: Literal["tool_result"] = "tool_result"
    id: str
    result: dict[str, Any]


class NarrationEntry(_Model):
    type: Literal["narration"] = "narration"
    seat: str | None = None
    text: str
    flags: list[str] = Field(default_factory=list)


class BoardEntry(_Model):
    type: Literal["board"] = "board"
    seat: str | None = None
    text: str


class BotMoveEntry(_Model):
    """A bot's move, recorded once it is public (never while it is a secret pick);
    a replay serves these back to the bot seats in order."""

    type: Literal["bot_move"] = "bot_move"
    seat: str
    action: str


class LLMResponseEntry(_Model):
    type: Literal["llm_response"] = "llm_response"
    provider: str
    response: dict[str, Any]


class UsageEntry(_Model):
    type: Literal["usage"] = "usage"
    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None


class RefereeEntry(_Model):
    """From here on another referee handles the players' messages."""

    type: Literal["referee"] = "referee"
    kind: str
    model: str | None = None


class SeedEntry(_Model):
    """The hidden seed, revealed when the game ended: it opens the header's commitment."""

    type: Literal["seed"] = "seed"
    seed: int
    salt: str
    commitment: str
    supplied: dict[str, Any] | None = Field(
        default=None, description="chance outcomes supplied at the start of the game, by draw number (sealed with its seed until now)"
    )

    @model_serializer(mode="wrap")
    def _omit_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _without_unset(handler(self), ("supplied",))


Entry = Annotated[
    PlayerEntry
    | ToolCallEntry
    | ToolResultEntry
    | NarrationEntry
    | BoardEntry
    | BotMoveEntry
    | LLMResponseEntry
    | UsageEntry
    | RefereeEntry
    | SeedEntry,
    Field(discriminator="type"),
]
_ENTRY: TypeAdapter[Any] = TypeAdapter(Entry)


#: entry types of a batch written sealed while a human's pick is secret, and of the marker written
#: before the batch in the clear once it is not (:class:`gm.transcript.recorder.Recorder`)
SEALED, UNSEALED = "sealed", "unsealed"
_MARKER_PREFIXES = ('{"type":"sealed"', '{"type":"unsealed"')


def is_marker(line: str) -> bool:
    """Whether a transcript line is a sealed batch or the marker of one opened (readers skip both)."""
    return line.startswith(_MARKER_PREFIXES)


def parse_entries(lines: Sequence[str], source: str = "<transcript>", first_line: int = 2) -> list[Any]:
    """The entries of transcript lines after the header (``first_line``: the file line number of
    ``lines[0]``, for errors); sealed batches and their markers are skipped."""
    entries: list[Any] = []
    for i, line in enumerate(lines, start=first_line):
        if is_marker(line):  # a batch held sealed (a human's pick still secret), or the mark of one opened
            continue
        try:
            entries.append(_ENTRY.validate_json(line))
        except ValidationError as exc:
            raise StateError(f"{source}: line {i}: {_first(exc)}") from None
    return entries


class Transcript(_Model):
    """A whole transcript in memory."""

    header: Header
    entries: list[Entry] = Field(default_factory=list)

    def to_jsonl(self) -> str:
        lines = [self.header.model_dump_json(exclude_none=False)]
        lines += [_ENTRY.dump_json(e).decode() for e in self.entries]
        return "\n".join(lines) + "\n"

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_jsonl(), encoding="utf-8")

    @classmethod
    def from_jsonl(cls, text: str, source: str = "<transcript>") -> Transcript:
        lines = [ln for ln in text.split("\n") if ln.strip()]  # only "\n" ends a line (JSON text may hold U+2028)
        if not lines:
            raise StateError(f"{source}: empty transcript")
        try:
            header = Header.model_validate_json(lines[0])
        except ValidationError as exc:
            raise StateError(f"{source}: line 1 is not a gm transcript header: {_first(exc)}") from None
        if header.version > FORMAT_VERSION:
            raise StateError(f"{source}: transcript format version {header.version} is newer than this gm ({FORMAT_VERSION})")
        return cls(header=header, entries=parse_entries(lines[1:], source))

    @property
    def seed(self) -> int | None:
        """The game's seed: the header's, else the one revealed at the end (``None``: still hidden)."""
        if self.header.seed is not None:
            return self.header.seed
        return next((e.seed for e in self.entries if e.type == "seed"), None)

    @property
    def referee_kinds(self) -> list[str]:
        """Every referee that handled messages in this transcript, in order."""
        kinds = [self.header.referee.kind]
        kinds += [e.kind for e in self.entries if e.type == "referee" and e.kind != kinds[-1]]
        return kinds

    @classmethod
    def load(cls, path: str | Path) -> Transcript:
        from gm.core.files import TRANSCRIPT_LIMIT, read_text

        p = Path(path)
        try:
            text = read_text(p, TRANSCRIPT_LIMIT, "transcript")
        except (OSError, UnicodeDecodeError) as exc:
            raise StateError(f"cannot read transcript {p}: {exc}") from None
        return cls.from_jsonl(text, str(p))


def _first(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(x) for x in err["loc"])
    return f"{loc}: {err['msg']}" if loc else err["msg"]


def json_schema() -> dict[str, Any]:
    """JSON Schema of the format: the header and the entry union."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "gm transcript (JSONL): line 1 = header, then one entry per line",
        "header": Header.model_json_schema(),
        "entry": _ENTRY.json_schema(),
    }


def dumps_entry(entry: Any) -> str:
    return _ENTRY.dump_json(entry).decode()


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))
