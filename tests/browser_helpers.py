"""What the browser and npm tests need from the machine: Debian's Chromium found on the PATH, and one
rule for a missing tool - skipped on a developer's machine, a failure in CI (``GM_REQUIRE_BROWSER=1``,
set by .ci/run), where a skipped suite would pass unseen."""

from __future__ import annotations

import os
import shutil

import pytest


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
