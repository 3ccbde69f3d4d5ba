"""The official MCP conformance suite (npm ``@modelcontextprotocol/conformance``, on the Node 22 of
``tests/js``) against a real ``gm serve`` and a real ``gm mcp --transport http``, once each, checked
against the table of ``docs/mcp.md``: every scenario the table says passes does, on both servers, and
every one it says does not apply (the suite's own test tools, resources and prompts) fails for that
reason and no other.  A new scenario, or one whose result changed, fails the test until the table
says what it is."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from browser_helpers import ROOT
from js_tools import CONFORMANCE, NODE, js_tools
from mcp_helpers import HttpServer

DOC = ROOT / "docs" / "mcp.md"


def documented() -> dict[str, tuple[str, str]]:
    """scenario -> (result, why), from the table between the conformance markers of docs/mcp.md."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("<!-- conformance:begin -->", 1)[1].split("<!-- conformance:end -->", 1)[0]
    out = {}
    for line in table.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == 3 and cells[1] in ("passes", "not applicable"), line
        out[cells[0]] = (cells[1], cells[2])
    return out


def run_suite(url: str, out: Path) -> dict[str, list[dict[str, object]]]:
    """scenario -> its checks, from one run of the whole suite (``--suite all``: the pending ones too)."""
    p = subprocess.run([str(NODE), str(CONFORMANCE), "server", "--url", url, "--suite", "all", "-o", str(out)],
                       capture_output=True, text=True, timeout=300, check=False)
    assert "=== SUMMARY ===" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
    results: dict[str, list[dict[str, object]]] = {}
    for folder in sorted(out.iterdir()):
        m = re.fullmatch(r"server-(.+)-\d{4}-\d\d-\d\dT.*", folder.name)
        assert m, folder.name
        results[m.group(1)] = json.loads((folder / "checks.json").read_text(encoding="utf-8"))
    return results


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[dict[str, object]]]]:
    js_tools()
    out = {}
    home = tmp_path_factory.mktemp("serve")
    with HttpServer(home, "--store", f"sqlite:{home / 'gm.sqlite'}", "--rate", "0") as server:
        out["gm serve"] = run_suite(server.url, tmp_path_factory.mktemp("serve-results"))
    home = tmp_path_factory.mktemp("mcp-http")
    with HttpServer(home, serve=False) as server:
        out["gm mcp --transport http"] = run_suite(server.url, tmp_path_factory.mktemp("mcp-results"))
    return out


@pytest.mark.parametrize("server", ["gm serve", "gm mcp --transport http"])
def test_the_conformance_suite_gives_what_the_docs_say(runs: dict[str, dict[str, list[dict[str, object]]]], server: str) -> None:
    table = documented()
    results = runs[server]
    assert set(results) == set(table), f"scenarios run but not in docs/mcp.md: {sorted(set(results) - set(table))}; " \
                                        f"in the table but not run: {sorted(set(table) - set(results))}"
    wrong = []
    for scenario, checks in results.items():
        failed = [c for c in checks if c.get("status") == "FAILURE"]
        expected, why = table[scenario]
        if expected == "passes" and failed:
            wrong.append(f"{scenario} should pass: {[c.get('errorMessage') for c in failed]}")
        elif expected == "not applicable":
            # it fails, and only because it asks for one of the suite's own test tools, resources or prompts
            messages = " ".join(str(c.get("errorMessage", "")) for c in failed)
            named = re.findall(r"`([^`]+)`", why)
            if not failed or not named or not any(n.split("{")[0] in messages for n in named):
                wrong.append(f"{scenario} is documented as not applicable ({why}) but gave: {messages or 'no failure'}")
    assert not wrong, "\n".join(wrong)
    assert sum(1 for r, _ in table.values() if r == "passes") == 12  # 10 before gm had logging, completions and subscriptions


def test_unknown_tools_are_protocol_errors_for_the_suite_too(runs: dict[str, dict[str, list[dict[str, object]]]]) -> None:
    for server, results in runs.items():
        (check,) = results["tools-call-simple-text"]
        assert "MCP error -32602: unknown tool 'test_simple_text'; the tools are: new_game" in str(check["errorMessage"]), server
