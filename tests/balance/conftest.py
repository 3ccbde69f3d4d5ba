"""The browser of the web tests (Debian's Chromium driven by Playwright), for the balance report."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_web_conftest", Path(__file__).resolve().parents[1] / "web" / "conftest.py")
assert _spec is not None and _spec.loader is not None
_web = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_web)

browser = _web.browser
