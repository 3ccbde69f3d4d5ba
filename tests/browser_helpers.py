"""What the browser and npm tests need from the machine: Debian's Chromium found on the PATH, and one
rule for a missing tool - skipped on a developer's machine, a failure in CI (``GM_REQUIRE_BROWSER=1``,
set by .ci/run), where a skipped suite would pass unseen."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the npm test tools' folder (``make js`` installs ``tests/js/node_modules`` from its lock file)
JS = ROOT / "tests" / "js"
#: how every test starts Chromium: in a container (no sandbox, no GPU, a small /dev/shm)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def chromium_path() -> str | None:
    """The Chromium to drive (``GM_CHROMIUM``, else the first of the usual names on the PATH)."""
    for name in (os.environ.get("GM_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (found := shutil.which(name)):
            return found
    return None


def missing(why: str) -> None:
    """A tool the test needs is missing: skip, or fail in CI."""
    if os.environ.get("GM_REQUIRE_BROWSER") == "1":
        pytest.fail(why)
    pytest.skip(why)


def chromium_executable() -> str:
    """The Chromium to drive with Playwright: skip (or fail in CI) without Playwright or Chromium."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing("the playwright package is not installed: pip install -e '.[browser]' (.ci/run does it)")
    exe = chromium_path()
    if exe is None:
        missing("no Chromium on this machine: apt-get install chromium (.ci/run installs it)")
    assert exe is not None
    return exe


def npm_tools(needed: Path) -> Path:
    """``needed`` (a file of ``tests/js/node_modules``), after ``make js`` brought the npm test tools up to
    date with the lock file (one test process at a time); skip, or fail in CI, when npm cannot."""
    JS.mkdir(exist_ok=True)
    with (JS / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = subprocess.run(["make", "-s", "js"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    if p.returncode != 0 or not needed.exists():
        missing(f"the npm test tools are not installed (make js): {(p.stderr or p.stdout)[-500:]}")
    return needed
