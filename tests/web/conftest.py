"""Fixtures of the browser tests: a real ``gm serve`` process and Debian's Chromium driven by
Playwright (no browser download: ``.ci/run`` installs ``chromium`` with apt when it is missing)."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "serve"))

from serve_helpers import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
#: screenshots of each game's board land here (CI keeps them as artifacts)
ARTIFACTS = Path(os.environ.get("GM_WEB_ARTIFACTS", ROOT / "build" / "web-artifacts"))


def chromium_path() -> str | None:
    for name in (os.environ.get("GM_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        if name and (found := shutil.which(name)):
            return found
    return None


def _missing(why: str) -> None:
    """Skip on a developer's machine without a browser; fail in CI (``GM_REQUIRE_BROWSER=1``, set by
    .ci/run), where a skipped browser suite would pass unseen."""
    if os.environ.get("GM_REQUIRE_BROWSER") == "1":
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed: pip install -e '.[browser]' (.ci/run does it)")
    exe = chromium_path()
    if exe is None:
        _missing("no Chromium on this machine: apt-get install chromium (.ci/run installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    home = tmp_path_factory.mktemp("gmhome")
    with ServerProcess(f"sqlite:{home / 'gm.sqlite'}", home, "--rate", "0", "--quiet") as srv:
        yield srv


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
