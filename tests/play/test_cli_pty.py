"""The command line as a person meets it, in a real pseudo-terminal (pexpect): hints name a command
that works where the user is, ``gm new`` prints the id alone when its output is captured, the offline
referee reads loose words and asks about vague ones, and a test run's last line names what it skipped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the venv's bin folder: its gm script is this gm
GM = BIN / "gm"


def _env(tmp_path: Path, *, on_path: bool) -> dict[str, str]:
    """An environment whose PATH has this gm on it, or has no gm at all (as after ``make play``)."""
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and not (Path(p) / "gm").exists()]
    if on_path:
        path.insert(0, str(BIN))
    return dict(os.environ, PATH=os.pathsep.join(path), GM_HOME=str(tmp_path / "home"), NO_COLOR="1", COLUMNS="120")


def _spawn(args: list[str], env: dict[str, str], cwd: Path) -> pexpect.spawn:
    return pexpect.spawn(args[0], args[1:], env=env, cwd=str(cwd), encoding="utf-8", timeout=60)


@pytest.mark.parametrize(("on_path", "hint"), [
    (False, None),  # run by its path (.venv/bin/gm, as make play does) with no gm on the PATH: that path
    (True, "gm"),  # gm on the PATH: plain gm
])
def test_the_resume_hint_names_a_command_that_works_here(tmp_path: Path, on_path: bool, hint: str | None) -> None:
    env = _env(tmp_path, on_path=on_path)
    cwd = BIN.parent.parent  # the checkout, where .venv/bin/gm is
    run = str(GM.relative_to(cwd)) if not on_path else "gm"
    if on_path:
        child = pexpect.spawn("/bin/sh", ["-c", "gm play --seed 5"], env=env, cwd=str(cwd), encoding="utf-8", timeout=60)
    else:
        child = _spawn([run, "play", "--seed", "5"], env, cwd)
    try:
        child.expect(r"home \(kick choice\)> |home \(kick pick\)> ")
        child.sendline("quit")
        child.expect(r"Resume with: (\S+) play --resume (\S+)\r?\n")
        said, sid = child.match.group(1), child.match.group(2)
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert said == (hint or run)
    # and the hint works where the user is: the same shell, the same folder
    out = subprocess.run(["/bin/sh", "-c", f"{said} sessions show {sid}"], env=env, cwd=cwd, capture_output=True, text=True,
                         timeout=60, check=False)
    assert out.returncode == 0 and sid in out.stdout, out.stderr


def test_python_m_gm_hints_with_the_interpreter(tmp_path: Path) -> None:
    env = _env(tmp_path, on_path=False)
    child = _spawn([sys.executable, "-m", "gm", "play", "--seed", "5"], env, tmp_path)
    try:
        child.expect(r"home \(kick choice\)> |home \(kick pick\)> ")
        child.sendline("quit")
        child.expect(r"Resume with: (\S+) -m gm play --resume ")
        assert Path(tmp_path, child.match.group(1)).resolve() == Path(sys.executable).resolve()
        child.expect(pexpect.EOF)
    finally:
        child.close()


def test_gm_new_prints_details_on_a_terminal_and_the_id_alone_when_captured(tmp_path: Path) -> None:
    env = _env(tmp_path, on_path=True)
    child = _spawn([str(GM), "new", "grid-football", "--seed", "3"], env, tmp_path)
    try:
        child.expect(r"(grid-football-[0-9a-f]+)\r\npath: ")
        child.expect("players: home human, away bot:default")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    captured = subprocess.run([str(GM), "new", "grid-football", "--seed", "3"], env=env, capture_output=True, text=True,
                              timeout=60, check=True)
    sid = captured.stdout.strip()
    assert captured.stdout == f"{sid}\n" and sid.startswith("grid-football-")
    assert captured.stderr.startswith(f"path: {tmp_path / 'home' / 'sessions' / sid}.jsonl\nplayers: home human, away bot:default\n")


def test_the_offline_referee_in_a_terminal_reads_typos_asks_and_takes_the_answer(tmp_path: Path) -> None:
    env = _env(tmp_path, on_path=True)
    child = _spawn([str(GM), "play", "--seed", "1"], env, tmp_path)
    try:
        child.expect(r"home \(kick pick\)> ")
        child.sendline("yelow")
        child.expect("'yelow' could be 'left yellow', 'center yellow' or 'right yellow'. Which one do you mean\\?")
        child.sendline("right")
        child.expect("Read as 'right yellow'.")
        child.expect(r"home \(play call\)> ")
        child.sendline("pass play 3, three to the left, after")
        child.expect("Read as 'play 3 red 3 left after'.")
        child.expect(r"home \(\w[\w ]*\)> ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()


def test_a_run_ends_with_one_line_naming_the_groups_it_skipped(pytester: pytest.Pytester) -> None:
    pytester.makeconftest((ROOT / "tests" / "conftest.py").read_text())
    web = pytester.mkpydir("pagegroup")
    (web / "test_page.py").write_text("import pytest\n\n@pytest.fixture\ndef browser():\n    pytest.skip('no Chromium here')\n\n"
                                      "def test_a(browser): pass\n\ndef test_b(browser): pass\n")
    (pytester.path / "test_plain.py").write_text("def test_c(): pass\n")
    res = pytester.runpytest("-p", "no:cacheprovider")
    res.assert_outcomes(passed=1, skipped=2)
    assert res.outlines[-1] == "skipped: pagegroup (2 tests: no Chromium here)"
    (web / "test_page.py").unlink()
    res = pytester.runpytest("-p", "no:cacheprovider")
    assert not res.outlines[-1].startswith("skipped:")
