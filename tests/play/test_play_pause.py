"""At a keyboard the player is never buried or stranded (#17): once a GridMaster4 player is blocked,
gm asks whether to watch the bots a round at a time, skip to the end or quit (instead of ~250 bot
moves scrolling past), and Ctrl-C says the game is saved and how to resume it.  Driven through a
pseudo-terminal, as a person at a terminal would."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from gm.core.registry import find_game
from gm.session import Session

pexpect = pytest.importorskip("pexpect")

ASK = r"\[w\]atch the next round, \[s\]kip to the end, or \[q\]uit\? \(w\) "
PROMPT = r"orange \(place tile\)> "


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    return tmp_path


def _spawn(home: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "GM_HOME": str(home), "NO_COLOR": "1", "COLUMNS": "120", "TERM": "xterm"}
    return pexpect.spawn(sys.executable, ["-m", "gm", "play", *args], env=env, encoding="utf-8", timeout=60)


def _resumes_with_this_python(out: str, sid: str) -> bool:
    """The resume hint names this interpreter (as the shell here can find it: run as python -m gm)."""
    m = re.search(rf"Resume with: (\S+) -m gm play --resume {sid}", out)
    return m is not None and Path(m.group(1)).resolve() == Path(sys.executable).resolve()


def _small(home: Path) -> str:
    rules = home / "small.toml"
    rules.write_text("columns = 7\nrows = 7\n")
    return str(rules)


def _until_blocked(child: pexpect.spawn) -> str:
    """Play orange (a wrong cell first, then the first cell the engine offers) until gm asks what to
    do now that orange is blocked; returns everything printed."""
    seen = ""
    while True:
        i = child.expect([PROMPT, ASK])
        seen += (child.before or "") + (child.after or "")
        if i == 1:
            return seen
        offered = re.findall(r"You can: place \d+ at (\w+)", child.before or "")
        child.send((offered[-1] if offered else "D4") + "\r")


def _session_id(text: str) -> str:
    m = re.search(r"Session (\S+)\.", text)
    assert m, text[:400]
    return m.group(1)


def test_a_blocked_player_watches_a_round_then_skips_to_the_end(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "gridmaster4", "--seed", "1", "--rules", _small(tmp_path))
    try:
        seen = _until_blocked(child)
        sid = _session_id(seen)
        assert "orange has no legal move and is blocked (score 2)" in seen
        assert "orange cannot move any more; magenta, lime, aqua play on until the game ends." in seen
        paused = Session.open(sid)
        assert not paused.state.is_terminal and paused.state.is_out("orange")  # the bots stopped with the player
        at = len(paused.state.log)
        child.send("\r")  # watch: one round, one move of each bot still playing
        child.expect(ASK)
        watched = child.before or ""
        assert [ln.split()[0] for ln in watched.splitlines() if " places " in ln] == ["magenta", "lime", "aqua"]
        assert f"move {at + 3} |" in watched  # the status after the round
        child.send("x\r")
        child.expect(ASK)
        assert "Type w (or Enter) to watch the next round, s to skip to the end, or q to quit." in (child.before or "")
        child.send("s\r")
        child.expect(pexpect.EOF)
        rest = child.before or ""
    finally:
        child.close()
    assert child.exitstatus == 0
    done = Session.open(sid)
    assert done.state.is_terminal
    assert f"Skipped {len(done.state.log) - at - 3} moves." in rest
    assert f"Game over: {done.state.outcome}." in rest
    assert " places " not in rest  # skipping shows none of the bots' moves


def test_quit_while_blocked_saves_and_resume_asks_again(tmp_path: Path) -> None:
    rules = _small(tmp_path)
    child = _spawn(tmp_path, "gridmaster4", "--seed", "1", "--rules", rules)
    try:
        sid = _session_id(_until_blocked(child))
        child.send("q\r")
        child.expect(pexpect.EOF)
        out = child.before or ""
    finally:
        child.close()
    assert child.exitstatus == 0
    assert f"Game paused (quit); saved as {tmp_path}" in out and _resumes_with_this_python(out, sid)
    moves = len(Session.open(sid).state.log)
    child = _spawn(tmp_path, "--resume", sid)
    try:
        child.expect(ASK)  # straight back to the question: the bots did not play on while away
        assert len(Session.open(sid).state.log) == moves
        child.send("s\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0 and Session.open(sid).state.is_terminal


def test_ctrl_c_says_the_game_is_saved_and_how_to_resume(tmp_path: Path) -> None:
    child = _spawn(tmp_path, "--seed", "1")
    try:
        child.expect(r"home \(kick pick\)> ")
        sid = _session_id(child.before or "")
        child.send("2\r")
        child.expect(r"home \(kick pick\)> ")
        child.sendintr()
        child.expect(pexpect.EOF)
        out = child.before or ""
    finally:
        child.close()
    assert "Traceback" not in out and "input ended" not in out
    assert f"Game paused (you pressed Ctrl-C); saved as {tmp_path}" in out
    assert _resumes_with_this_python(out, sid)
    assert child.exitstatus == 130
    assert len(Session.open(sid).state.log) >= 2  # the kick pick made before Ctrl-C is kept


def test_only_a_blocked_gridmaster4_colour_is_out() -> None:
    g = find_game("gridmaster4")
    st = g.new_state(g.load_rules({"columns": 7, "rows": 7}), seed=1)
    assert not any(st.is_out(s) for s in g.seats)
    for gid in ("grid-football", "quarterback", "brawl", "chess-football"):
        other = find_game(gid)
        assert not other.new_state(None, seed=1).is_out(other.seats[0])


def test_without_the_pause_a_session_plays_the_bots_to_the_end() -> None:
    """MCP, the API and piped input never pause: the bots play on inside the call, as before."""
    g = find_game("gridmaster4")
    players = {s: ("human" if s == "orange" else "bot") for s in g.seats}
    for pause in (False, True):
        s = Session.create(g, seed=1, rules={"columns": 7, "rows": 7}, players=players)
        s.pause_when_out = pause
        while not s.state.is_terminal and not s.humans_out():
            s.call("place_tile", {"cell": str(s.state.legal_actions("orange")[0]).split()[-1]}, "orange")
        assert s.state.is_terminal is (not pause)
        if pause:
            at = len(s.state.log)
            s.advance(limit=2)
            assert len(s.state.log) == at + 2
            s.advance(limit=100_000)
            assert s.state.is_terminal
