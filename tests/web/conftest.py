"""Fixtures of the browser tests: a real ``gm serve`` process, Debian's Chromium driven by Playwright
(no browser download: ``.ci/run`` installs ``chromium`` with apt when it is missing), axe-core from the
npm registry (``make js`` into ``tests/js/node_modules``) and the test-only plugin game installed apart."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "serve"))

from browser_helpers import chromium_path, missing
from plugin_helpers import install_plugin
from serve_helpers import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
#: screenshots of each game's page land here (CI keeps them as artifacts; git ignores build/)
ARTIFACTS = Path(os.environ.get("GM_WEB_ARTIFACTS", ROOT / "build" / "web-artifacts"))
JS = ROOT / "tests" / "js"
#: axe-core's browser build (npm package axe-core, pinned in tests/js/package-lock.json)
AXE = JS / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Not the session: Playwright's sync API keeps its event loop
    running while it is open, so a later test of the same worker that calls ``asyncio.run`` /
    ``anyio.run`` (the MCP client tests) would fail with "another loop is running"."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright package is not installed: pip install -e '.[browser]' (.ci/run does it)")
    exe = chromium_path()
    if exe is None:
        missing("no Chromium on this machine: apt-get install chromium (.ci/run installs it)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def axe_core() -> Path:
    """axe-core, installed by ``make js`` when missing (one test process at a time)."""
    if not AXE.is_file():
        JS.mkdir(exist_ok=True)
        with (JS / ".install.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            p = subprocess.run(["make", "-s", "js"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
        if p.returncode != 0 or not AXE.is_file():
            missing(f"axe-core is not installed (make js): {(p.stderr or p.stdout)[-500:]}")
    return AXE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    home = tmp_path_factory.mktemp("gmhome")
    with ServerProcess(f"sqlite:{home / 'gm.sqlite'}", home, "--rate", "0", "--quiet") as srv:
        yield srv


@pytest.fixture(scope="session")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test-only plugin game (tests/plugin_game), installed by pip into a folder of its own."""
    return install_plugin(tmp_path_factory.mktemp("plugin"))


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
