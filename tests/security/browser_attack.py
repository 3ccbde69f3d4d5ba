"""A real headless Chromium for the security tests, through Playwright's *async* API, started and
stopped inside one async test (a sync Playwright left running in a test process would break the
anyio tests that follow in it).  Debian's ``chromium`` only, never a downloaded browser; missing,
it skips (or fails under ``GM_REQUIRE_BROWSER=1``, as CI sets), as ``tests/web`` does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from browser_helpers import chromium_path, missing


@asynccontextmanager
async def browser() -> AsyncIterator[Any]:
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        missing("the playwright package is not installed: pip install -e '.[browser]' (.ci/run does it)")
    exe = chromium_path()
    if exe is None:
        missing("no Chromium on this machine: apt-get install chromium (.ci/run installs it)")
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield b
        finally:
            await b.close()
