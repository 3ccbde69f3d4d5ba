"""The text cleaning and line reading of chatbots' move logs, moved to :mod:`gm.core.chatlog_text`
(games' move-log formats build on it, and a game imports nothing above the core); re-exported here
for code that imports it from ``gm import``'s package."""

from gm.core.chatlog_text import (
    RULE,
    Line,
    blank,
    clean,
    clean_lines,
    decode,
    move_pattern,
    read_line,
    score_claim,
    split_actions,
    split_cells,
    squares,
    status_rows,
)

__all__ = [
    "RULE",
    "Line",
    "blank",
    "clean",
    "clean_lines",
    "decode",
    "move_pattern",
    "read_line",
    "score_claim",
    "split_actions",
    "split_cells",
    "squares",
    "status_rows",
]
