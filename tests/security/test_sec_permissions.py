"""Issue #15, tests 4: everything gm keeps is owner-only - session files, transcripts and anchors
0600 in 0700 folders, the key 0600 - however permissive the umask, also when written by a real
``gm play`` run; and another OS user can read none of it (checked as ``nobody`` when the tests run
as root, with a control file that ``nobody`` *can* read, so the check is not blind)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from gm.session import Session

NOBODY = 65534


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def _all(home: Path) -> Iterator[Path]:
    yield home
    yield from sorted(home.rglob("*"))


def _check_private(home: Path) -> list[str]:
    """What under ``home`` is not owner-only (folders 0700, files 0600)."""
    bad = []
    for p in _all(home):
        want = 0o700 if p.is_dir() else 0o600
        if _mode(p) != want:
            bad.append(f"{p.relative_to(home.parent)} {oct(_mode(p))}")
    return bad


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder every user may enter (pytest's own temporary folders are owner-only, which would
    hide what gm's permissions do): ``/tmp/gm-sec-XXXX``, 0755, removed afterwards."""
    d = Path(tempfile.mkdtemp(prefix="gm-sec-", dir="/tmp"))
    d.chmod(0o755)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _gm_play(home: Path, *args: str, umask: int = 0, key_file: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GM_SECRET_KEY", "GM_KEY_FILE")}
    env.update(GM_HOME=str(home), NO_COLOR="1")
    if key_file is not None:
        env["GM_KEY_FILE"] = str(key_file)
    return subprocess.run([sys.executable, "-m", "gm", "play", *args], input="left red\nplay 1 red\nquit\n", env=env,
                          capture_output=True, text=True, timeout=120, umask=umask)


def test_a_gm_play_run_under_umask_0_leaves_only_owner_only_files(open_dir: Path) -> None:
    home = open_dir / "gm"
    r = _gm_play(home, "--seed", "3")
    assert r.returncode == 0, r.stderr
    made = {p.relative_to(home).as_posix() for p in home.rglob("*")}
    assert "secret.key" in made and any(m.startswith("sessions/") for m in made), made
    assert any(m.startswith("transcripts/") for m in made) and any(m.startswith("anchors/") for m in made), made
    assert _check_private(home) == []
    # and with the key file elsewhere (GM_KEY_FILE): created owner-only in an owner-only folder
    key = open_dir / "keys" / "gm.key"
    r = _gm_play(open_dir / "gm2", "--seed", "3", key_file=key)
    assert r.returncode == 0, r.stderr
    assert _mode(key) == 0o600 and _mode(key.parent) == 0o700
    assert not (open_dir / "gm2" / "secret.key").exists()


def test_sessions_made_through_the_api_under_umask_0_are_owner_only(open_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GM_SECRET_KEY")
    home = open_dir / "gm"
    old = os.umask(0)
    try:
        s = Session.create("brawl", home=home, players={"away": "bot:default"})
        s.call("get_status", {}, "home")
        Session.open(s.id, home=home).call("get_board", {}, "home")
    finally:
        os.umask(old)
    assert _check_private(home) == []


def test_folders_of_an_older_install_are_made_owner_only(open_dir: Path) -> None:
    """gm 0.1 made its folders 0755: listing them shows every session id (and their times) to
    everyone.  The folders gm owns are tightened when gm next writes there."""
    home = open_dir / "gm"
    for sub in ("sessions", "transcripts", "anchors"):
        (home / sub).mkdir(parents=True)
        (home / sub).chmod(0o755)
    home.chmod(0o755)
    s = Session.create("grid-football", home=home, players={"away": "bot:default"})
    assert s.call("get_status", {}, "home")["ok"]  # a transcript line written
    for sub in ("sessions", "transcripts", "anchors"):
        assert _mode(home / sub) == 0o700, sub
    for p in home.rglob("*"):
        if p.is_file():
            assert _mode(p) == 0o600, p


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root to act as another user")
def test_another_os_user_cannot_read_anything_gm_keeps(open_dir: Path) -> None:
    home = open_dir / "gm"
    r = _gm_play(home)  # a hidden-seed game: its seed and the bot's pick are in the files, sealed
    assert r.returncode == 0, r.stderr
    control = open_dir / "control.txt"
    control.write_text("anyone may read this\n")
    control.chmod(0o644)

    def as_nobody(*argv: str) -> subprocess.CompletedProcess[str]:
        code = f"import os, sys; os.setgid({NOBODY}); os.setgroups([]); os.setuid({NOBODY}); "
        return subprocess.run([sys.executable, "-c", code + argv[0], *argv[1:]], capture_output=True, text=True, timeout=60)

    read = "import sys; sys.stdout.write(open(sys.argv[1], 'rb').read()[:20].hex())"
    listing = "import os, sys; print(os.listdir(sys.argv[1]))"
    ok = as_nobody(read, str(control))
    assert ok.returncode == 0 and ok.stdout, ok.stderr  # the control: the check can succeed
    assert as_nobody(listing, str(open_dir)).returncode == 0
    targets = [p for p in _all(home)]
    assert len(targets) >= 8
    for p in targets:
        r = as_nobody(listing if p.is_dir() else read, str(p))
        assert r.returncode != 0 and "PermissionError" in r.stderr, (p, r.stdout, r.stderr)
    runuser = shutil.which("runuser")
    if runuser:  # the same through the system's own tool
        session = next((home / "sessions").iterdir())
        r = subprocess.run([runuser, "-u", "nobody", "--", "cat", str(session)], capture_output=True, text=True, timeout=60)
        assert r.returncode != 0 and "Permission denied" in r.stderr, r
        r = subprocess.run([runuser, "-u", "nobody", "--", "cat", str(control)], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r
