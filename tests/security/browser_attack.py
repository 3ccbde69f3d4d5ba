"""A real headless Chromium for the security tests, through Playwright's *async* API, started and
stopped inside one async test (a sync Playwright left running in a test process would break the
anyio tests that follow in it).  Debian's ``chromium`` only, never a downloaded browser; missing,
it skips (or fails under ``GM_REQUIRE_BROWSER=1``, as CI sets), as ``tests/web`` does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from browser_helpers import CHROMIUM_ARGS, chromium_executable


@asynccontextmanager
async def browser() -> AsyncIterator[Any]:
    exe = chromium_executable()  # (skips, or fails in CI, without Playwright or Chromium)
    from playwright.async_api import async_playwright
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            await b.close()
