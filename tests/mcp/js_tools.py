"""The npm tools of the tests (``tests/js``): Node 22, the MCP conformance suite, the MCP Apps host
bridge and client, esbuild.  ``make js`` installs them from the lock file into the checkout; the tests
call it when they are missing (one process at a time), and skip when npm cannot install them, except
in CI (``GM_REQUIRE_BROWSER=1``), where that is a failure."""

from __future__ import annotations

import fcntl
import subprocess
from pathlib import Path

from browser_helpers import JS, npm_tools

MODULES = JS / "node_modules"
NODE = MODULES / ".bin" / "node"
ESBUILD = MODULES / ".bin" / "esbuild"
CONFORMANCE = MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"


def js_tools() -> Path:
    """``tests/js/node_modules``, installed by ``make js`` when missing or older than the lock file."""
    npm_tools(NODE)
    return MODULES


def build_host() -> str:
    """The test host page (``tests/js/host``) with its script bundled by esbuild (AppBridge, the MCP client)."""
    js_tools()
    out = JS / "build" / "host.js"
    with (JS / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = subprocess.run(
            [str(ESBUILD), "host/host.js", "--bundle", "--format=esm", "--platform=browser", "--target=chrome120", "--minify",
             f"--outfile={out}", "--log-level=warning"],
            cwd=JS, capture_output=True, text=True, timeout=120, check=False,
        )
    assert p.returncode == 0, p.stderr
    page = (JS / "host" / "host.html").read_text(encoding="utf-8")
    return page.replace("/*BUNDLE*/", out.read_text(encoding="utf-8").replace("</script", "<\\/script"))
