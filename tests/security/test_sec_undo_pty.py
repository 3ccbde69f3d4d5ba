"""Issue #15, test 6: hot seat at one keyboard, in a real pseudo-terminal: home locks ``left red``
(typed hidden), the keyboard passes, away types ``undo`` - refused, without home's pick shown or
cancelled (it is revealed, unchanged, with away's)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from sec_helpers import SECRET_KEY

pexpect = pytest.importorskip("pexpect")


def test_away_cannot_undo_or_see_homes_hidden_pick_in_a_terminal(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("GM_KEY_FILE",)}
    env.update(GM_HOME=str(tmp_path), GM_SECRET_KEY=SECRET_KEY, NO_COLOR="1", COLUMNS="120", TERM="dumb")
    child = pexpect.spawn(sys.executable, ["-m", "gm", "play", "--seed", "1", "--opponent", "human"], env=env,
                          encoding="utf-8", timeout=60)
    seen: list[str] = []

    def until(pattern: str) -> str:
        child.expect(pattern)
        seen.append(child.before + child.after)
        return str(child.before)

    try:
        until(r"away \(coin call\)> ")
        child.sendline("heads")
        until(r"\(kick choice\)> ")
        child.sendline("kick")
        until(r"home \(kick pick\)> ")
        child.sendline("left red")  # typed hidden: the terminal does not echo it
        until(r"home is locked in\. Pass the keyboard\.")
        until(r"away \(kick pick\)> ")
        child.sendline("undo")
        refused = until(r"away \(kick pick\)> ")
        assert "Cannot undo: away has no locked pick to take back." in refused, refused
        child.sendline("board")  # table talk while home's pick is locked
        until(r"away \(kick pick\)> ")
        before_reveal = "".join(seen)
        assert "left red" not in before_reveal and "Taken back" not in before_reveal, before_reveal
        assert "left" not in before_reveal.split("Pass the keyboard.")[0].split("home (kick pick)> ")[-1]
        child.sendline("right green")  # away's pick completes the round: home's is revealed, unchanged
        until(r"Kick picks: away right green, home left red")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
