"""At a terminal the prompt edits like a shell (#17): arrow keys move in the line instead of typing
escape codes into the move, and the up arrow recalls an earlier line."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

LEFT, UP = "\x1b[D", "\x1b[A"


def test_arrow_keys_edit_the_line_and_recall_history(tmp_path: Path) -> None:
    env = {**os.environ, "GM_HOME": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "120", "TERM": "xterm"}
    child = pexpect.spawn(sys.executable, ["-m", "gm", "play", "--seed", "1"], env=env, encoding="utf-8", timeout=60)
    try:
        child.expect(r"home \(kick pick\)> ")
        child.send("sore" + LEFT * 3 + "c\r")  # typed 'sore', the cursor moved back, 'c' inserted: 'score'
        child.expect(r"Q1 \| 15 downs left")
        child.expect(r"home \(kick pick\)> ")
        child.send(UP + "\r")  # the last line again
        child.expect(r"Q1 \| 15 downs left")
        child.expect(r"home \(kick pick\)> ")
        child.send("quit\r")
        child.expect(pexpect.EOF)
        assert "\x1b[D" not in (child.before or "")
    finally:
        child.close()
    assert child.exitstatus == 0
