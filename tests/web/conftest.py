"""Fixtures of the browser tests: a real ``gm serve`` process, Debian's Chromium driven by Playwright
(no browser download: ``.ci/run`` installs ``chromium`` with apt when it is missing), axe-core from the
npm registry (``make js`` into ``tests/js/node_modules``) and the test-only plugin game installed apart."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "serve"))

from browser_helpers import CHROMIUM_ARGS, JS, ROOT, chromium_executable, npm_tools
from plugin_helpers import install_plugin
from serve_helpers import ServerProcess

#: screenshots of each game's page land here (CI keeps them as artifacts; git ignores build/)
ARTIFACTS = Path(os.environ.get("GM_WEB_ARTIFACTS", ROOT / "build" / "web-artifacts"))
#: axe-core's browser build (npm package axe-core, pinned in tests/js/package-lock.json)
AXE = JS / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for one test module. Not the session: Playwright's sync API keeps its event loop
    running while it is open, so a later test of the same worker that calls ``asyncio.run`` /
    ``anyio.run`` (the MCP client tests) would fail with "another loop is running"."""
    exe = chromium_executable()  # (skips, or fails in CI, without Playwright or Chromium)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def axe_core() -> Path:
    """axe-core, installed by ``make js`` when missing (one test process at a time)."""
    return npm_tools(AXE)


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
