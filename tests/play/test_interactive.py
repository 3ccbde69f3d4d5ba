"""The interactive prompt really works in a terminal (a pseudo-terminal via pexpect)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")


def test_interactive_prompt_in_a_pty(tmp_path: Path) -> None:
    env = dict(os.environ, GM_HOME=str(tmp_path), NO_COLOR="1", COLUMNS="120")
    child = pexpect.spawn(sys.executable, ["-m", "gm", "play", "--seed", "5"], env=env, encoding="utf-8", timeout=30)
    try:
        child.expect(r"home \(kick choice\)> |home \(kick pick\)> ")
        child.sendline("help")
        child.expect("Table talk")
        child.sendline("score")
        child.expect(r"Q1 \| 15 downs left")
        child.sendline("quit")
        child.expect("Game saved. Goodbye!")
        child.expect(r"Resume with: (\S+) -m gm play --resume")  # as it was run: python -m gm, this python
        assert Path(child.match.group(1)).resolve() == Path(sys.executable).resolve()
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
