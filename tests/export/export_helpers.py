"""Helpers of the export tests: random games, a custom ruleset, markdown checks."""

from __future__ import annotations

import re
from typing import Any

from markdown_it import MarkdownIt

from gm.core import find_game
from gm.core.bots import RandomBot
from gm.core.state import GameState

GAME = find_game("grid-football")

#: a ruleset in which every number differs from the default one
CUSTOM: dict[str, Any] = {
    "columns": 22,
    "rows": 72,
    "low_goal_line": 4,
    "high_goal_line": 66,
    "kick_distance": 53,
    "kick_columns": {"left": "D", "center": "L", "right": "S"},
    "return_steps": {2: 6, 1: 11, 0: 17},
    "number_max": 12,
    "punt_distance": 37,
    "punt_downs": [3, 5],
    "plays": {
        1: {"name": "Power/Sweep", "wrong": {"forward": 6, "lateral": 4}, "matched": {"forward": -1, "lateral": 3}},
        2: {"name": "Dive", "wrong": {"forward": 3, "lateral": 1}, "matched": {"forward": -5, "lateral": 0}},
        3: {"name": "Speed/Positioning", "wrong": {"forward": 2, "lateral": 3}, "matched": {"forward": -6, "lateral": 1}},
        4: False,  # removed
        5: {
            "name": "Hail Mary",
            "wrong": {"forward": 9, "lateral": 2},
            "matched": {"forward": -7, "lateral": 1},
            "unlock_quarter": 3,
        },
    },
    "no_match_bonus": 1,
    "play_match_bonus": 3,
    "colour_match_forward": 5,
    "first_down_rows": 8,
    "downs": 5,
    "quarters": 6,
    "downs_per_quarter": 13,
    "switch_after_quarters": [2, 4],
    "warning_quarters": [3, 6],
    "warning_downs_left": 3,
    "toss_caller": "home",
    "win": "points",
    "touchdown_points": 6,
}

CUSTOM_TOML = """\
columns = 22
rows = 72
low_goal_line = 4
high_goal_line = 66
kick_distance = 53
punt_distance = 37
first_down_rows = 8

[kick_columns]
left = "D"
center = "L"
right = "S"
"""


def random_state(seed: int, moves: int, rules: Any = None) -> GameState[Any]:
    """A game after up to ``moves`` random legal moves (seeded)."""
    state = GAME.new_state(rules, seed)
    bots = {seat: RandomBot(seed * 7 + i) for i, seat in enumerate(GAME.seats)}
    for _ in range(moves):
        if state.is_terminal:
            break
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


_CELL_SPLIT = re.compile(r"(?<!\\)\|")


def cells(line: str) -> list[str]:
    """The cells of one markdown table line (``> `` quote markers and outer pipes removed)."""
    line = re.sub(r"^(\s*>\s?)+", "", line).strip()
    return [c.strip() for c in _CELL_SPLIT.split(line.strip("|"))]


def check_markdown(text: str) -> list[list[list[str]]]:
    """Assert ``text`` is clean markdown; return its tables (rows of cells, header first).

    Parses with markdown-it (CommonMark + tables): one H1 first, every table line inside a
    parsed table with the same number of cells in every row, fences closed, no template
    syntax or ``None`` left over.
    """
    md = MarkdownIt("commonmark").enable("table")
    tokens = md.parse(text)
    lines = text.splitlines()
    assert tokens and tokens[0].type == "heading_open" and tokens[0].tag == "h1", "the document starts with an H1"
    assert sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h1") == 1, "exactly one H1"
    for leftover in ("{{", "}}", "{%", "%}", "{#", "#}", "Undefined"):
        assert leftover not in text, f"template syntax left over: {leftover}"
    assert not re.search(r"\bNone\b", text), "a None slipped into the text"
    fenced: set[int] = set()
    for t in tokens:
        if t.type == "fence":
            assert t.map is not None
            start, end = t.map
            assert lines[end - 1].strip().startswith("```"), f"unclosed code fence at line {start + 1}"
            fenced.update(range(start, end))
    tables = []
    in_table: set[int] = set()
    for t in tokens:
        if t.type != "table_open":
            continue
        assert t.map is not None
        start, end = t.map
        rows = [cells(ln) for ln in lines[start:end] if ln.strip().strip(">").strip()]
        widths = {len(r) for r in rows}
        assert len(widths) == 1, f"table at line {start + 1} has rows of {sorted(widths)} cells"
        assert all(re.fullmatch(r":?-{3,}:?", c) for c in rows[1]), f"bad delimiter row at line {start + 2}"
        tables.append([rows[0], *rows[2:]])
        in_table.update(range(start, end))
    for i, ln in enumerate(lines):
        bare = re.sub(r"^(\s*>\s?)+", "", ln)
        if bare.startswith("|") and i not in in_table and i not in fenced:
            raise AssertionError(f"line {i + 1} looks like a table row but is not in a table: {ln!r}")
    return tables


def table_with_header(tables: list[list[list[str]]], *first: str) -> list[list[str]]:
    for t in tables:
        if t[0][: len(first)] == list(first):
            return t
    raise AssertionError(f"no table with header {first}")


def prose(text: str) -> str:
    """``text`` without fenced code blocks and without quotations of the guide (“...”)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"“[^”]*”", "", text)
