"""Transcripts: the recorded form of a game (header + ordered entries, JSONL on disk)."""

from gm.transcript.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    BoardEntry,
    BotMoveEntry,
    Entry,
    Header,
    LLMResponseEntry,
    NarrationEntry,
    PlayerEntry,
    ToolCallEntry,
    ToolResultEntry,
    Transcript,
    UsageEntry,
)
from gm.transcript.recorder import Recorder

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "BoardEntry",
    "BotMoveEntry",
    "Entry",
    "Header",
    "LLMResponseEntry",
    "NarrationEntry",
    "PlayerEntry",
    "Recorder",
    "ToolCallEntry",
    "ToolResultEntry",
    "Transcript",
    "UsageEntry",
]
