"""The LLM referee's narration check: the game's claims (:mod:`gm.core.narration`) against the
turn's facts, and :func:`strip_boards`, which removes anything board-like the model drew (gm prints
the engine's board itself)."""

from __future__ import annotations

import re

from gm.core.narration import Facts, build_facts, check

__all__ = ["Facts", "build_facts", "check", "strip_boards"]

BOARD_LINE = re.compile(r"^\s*[0-9]{1,2}\s+(?:[.#O=:+\-]\s+){5,}")
FENCE = re.compile(r"```.*?(?:```|$)", re.S)


def strip_boards(text: str) -> tuple[str, bool]:
    """``text`` without code blocks and board-like lines; and whether anything was removed."""
    cleaned = FENCE.sub("", text)
    lines = [ln for ln in cleaned.splitlines() if not BOARD_LINE.match(ln)]
    out = "\n".join(lines).strip()
    if out == text.strip():
        return out, False
    return re.sub(r"\n\s*\n", "\n", out), True
