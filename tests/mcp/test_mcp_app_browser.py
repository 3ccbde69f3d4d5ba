"""The board app in a real host: the reference MCP Apps host bridge (``AppBridge`` from
``@modelcontextprotocol/ext-apps``) over the reference TypeScript MCP client, bundled by esbuild at test
set-up (``tests/js/host``), in a page driven by Playwright in Debian's Chromium, connected to a real
``gm serve`` and a real ``gm mcp --transport http``.

For each of the five games and the plugin game, on both servers: the host calls ``new_game`` as a
model would and shows the tool's ``ui://`` resource in a sandboxed frame (scripts only, a
content-security policy that allows no network); the view draws the engine's board and status; a move
clicked in the view reaches the engine; a move made by a plain ``tools/call`` (the model) reaches the
view (its long poll through the host); a secret pick shows its commitment and its reveal is checked in
the browser, and no message the view received before the reveal held the pick's nonce, nor any message
another seat's hidden hand; the view follows the host's theme and reports its size.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import CHROMIUM_ARGS, ROOT, chromium_executable
from js_tools import build_host
from mcp_helpers import HttpServer

KEY = "33" * 32
GAMES = ["grid-football", "gridmaster4", "quarterback", "brawl", "chess-football", "rock-paper-scissors"]
#: the games whose bot locks a pick (a SHA-256 commitment) before the client's first move, at these seeds
LOCKED = {"grid-football", "brawl", "chess-football", "rock-paper-scissors"}
SEEDS = {"grid-football": 3, "gridmaster4": 2, "quarterback": 5, "brawl": 4, "chess-football": 6, "rock-paper-scissors": 1}
WAIT = 30_000  # ms: a generous bound for a loaded 2-core machine (never a synchronisation)
#: what the host puts around the view: no network at all (a real host applies the resource's declared CSP)
VIEW_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test-only plugin game, installed by pip into a folder of its own (as tests/test_plugin_game.py
    does), once for all the test processes of a run (keyed by its sources)."""
    import fcntl
    import hashlib

    src_dir = ROOT / "tests" / "plugin_game"
    files = sorted(p for p in src_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts and ".egg-info" not in str(p))
    key = hashlib.sha256(b"".join(p.relative_to(src_dir).as_posix().encode() + p.read_bytes() for p in files)).hexdigest()[:16]
    shared = tmp_path_factory.getbasetemp().parent  # the same for every xdist worker of this run
    site = shared / f"plugin-site-{key}"
    with (shared / "plugin-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (site / "gm_rps").is_dir():
            src = shared / f"plugin-src-{key}"
            shutil.rmtree(src, ignore_errors=True)
            shutil.copytree(src_dir, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target", str(site), str(src)],
                           check=True, capture_output=True, text=True, timeout=120)
    return site


class Servers(dict[str, tuple[HttpServer, Path]]):
    """Each server started when a test first needs it: (server, its SQLite store)."""

    def __init__(self, factory: pytest.TempPathFactory, plugin: Path) -> None:
        super().__init__()
        self.factory = factory
        self.env = {"PYTHONPATH": os.pathsep.join(p for p in (str(plugin), os.environ.get("PYTHONPATH", "")) if p)}

    def __missing__(self, key: str) -> tuple[HttpServer, Path]:
        home = self.factory.mktemp("server")
        if key == "gm serve":
            started = HttpServer(home, "--store", f"sqlite:{home / 'gm.sqlite'}", "--rate", "0", env=self.env, key=KEY)
        else:
            started = HttpServer(home, serve=False, env=self.env, key=KEY)
        self[key] = (started, home / "gm.sqlite")
        return self[key]


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory, plugin_site: Path) -> Iterator[Servers]:
    made = Servers(tmp_path_factory, plugin_site)
    yield made
    for server, _ in made.values():
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    exe = chromium_executable()  # (skips, or fails in CI, without Playwright or Chromium)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def host_page() -> str:
    return build_host()


class HostPage:
    """The test host page on one server, kept for the module (each test mounts a view of its own)."""

    def __init__(self, browser: Any, html: str, server: HttpServer) -> None:
        self.page = browser.new_page()
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.route(server.base + "/__gm_test_host__", lambda route: route.fulfill(status=200, content_type="text/html", body=html))
        self.page.goto(server.base + "/__gm_test_host__")  # gm's own origin: the page's MCP client needs no CORS
        self.page.wait_for_function("window.gmHost && window.gmHost.ready", timeout=WAIT)
        self.page.evaluate("csp => { window.gmHost.H.csp = csp; }", VIEW_CSP)
        self.info = self.page.evaluate("url => gmHost.connect(url)", server.url)


@pytest.fixture(scope="module")
def pages(browser: Any, host_page: str, servers: Servers) -> Iterator[dict[str, HostPage]]:
    made: dict[str, HostPage] = {}

    class Lazy(dict[str, HostPage]):
        def __missing__(self, key: str) -> HostPage:
            made[key] = self[key] = HostPage(browser, host_page, servers[key][0])
            return made[key]

    yield Lazy()
    for hp in made.values():
        hp.page.close()


def _contains(tree: Any, key: str, value: Any) -> bool:
    """Whether some object in ``tree`` maps ``key`` to exactly ``value``."""
    if isinstance(tree, dict):
        return any((k == key and v == value) or _contains(v, key, value) for k, v in tree.items())
    if isinstance(tree, list):
        return any(_contains(v, key, value) for v in tree)
    return False


def _hidden(store: Path, session: str, seat: str) -> list[tuple[str, Any]]:
    """What the other seats' views hold that ``seat``'s does not (a hidden hand): (key, value) pairs."""
    from gm.session import KeyRing, Session
    from gm.session.sql import SqliteStore

    st = SqliteStore(store, KeyRing(bytes.fromhex(KEY)))
    try:
        s = Session.open(session, store=st, record=False)
        mine = s.state.view(seat)
        out = []
        for other in s.game.seats:
            if other == seat:
                continue
            theirs = s.state.view(other)
            for top, value in theirs.items():
                if isinstance(value, dict) and isinstance(mine.get(top), dict):
                    out.extend((k, v) for k, v in value.items() if k not in mine[top] and v)
        return out
    finally:
        st.close()


@pytest.mark.parametrize("server", ["gm serve", "gm mcp --transport http"])
@pytest.mark.parametrize("game", GAMES)
def test_the_board_app_in_a_real_host(pages: dict[str, HostPage], servers: Servers, server: str, game: str) -> None:
    from playwright.sync_api import expect

    hp = pages[server]
    store = servers[server][1]
    page, errors = hp.page, hp.errors
    errors.clear()
    page.evaluate("gmHost.reset()")
    assert hp.info["server"]["name"] == "gm"
    made = page.evaluate("([g, s]) => gmHost.call('new_game', {game: g, seed: s}, {show: true})", [game, SEEDS[game]])
    assert not made.get("isError"), made
    data = made["structuredContent"]
    seat = data["seat"]
    frame = page.frame_locator("#view")
    body = frame.locator("body")

    # the view draws the engine's board and status, for the seat
    expect(body).to_have_attribute("data-version", re.compile(rf"^{re.escape(data['session'])}#\d+$"), timeout=WAIT)
    expect(frame.locator("#status")).to_have_text(data["status"], timeout=WAIT)
    expect(frame.locator("#title")).to_contain_text(f"you play {seat}")
    shown = page.evaluate("gmHost.call('app_view', {})")["structuredContent"]["view"]
    if shown["board"] is None:  # a game without board geometry: its text board
        expect(frame.locator("pre.ascii")).to_have_text(shown["ascii"].strip(), timeout=WAIT)
    else:
        expect(frame.locator("#board svg")).to_have_attribute("aria-label", shown["board"]["headline"], timeout=WAIT)
    if shown["builder"] is not None:  # the page's move builder, where the package has it: mounted
        expect(frame.locator("#builder > *").first).to_be_attached(timeout=WAIT)

    # the host's theme, and the size notifications
    root = frame.locator("html")
    expect(root).to_have_attribute("data-theme", "dark")
    assert body.evaluate("b => getComputedStyle(b).backgroundColor") == "rgb(16, 24, 32)"
    page.wait_for_function("gmHost.H.sizes.length > 0", timeout=WAIT)
    size = page.evaluate("gmHost.H.sizes[gmHost.H.sizes.length - 1]")
    assert size["width"] > 200 and size["height"] > 100, size
    page.evaluate("gmHost.setTheme('light', {'--color-background-primary': '#fafaf0'})")
    expect(root).to_have_attribute("data-theme", "light", timeout=WAIT)

    # a move clicked in the view reaches the engine
    locked = frame.locator("p.commitment").count()
    button = frame.locator("button.move").first
    expect(button).to_be_visible(timeout=WAIT)
    clicked = button.get_attribute("data-move")
    tool = button.get_attribute("data-tool")
    sent_before_click = page.evaluate("gmHost.H.toView.length")
    button.click()
    expect(body).to_have_attribute("data-played", "1", timeout=WAIT)
    moves = [c for c in page.evaluate("gmHost.H.viewCalls") if c["name"] != "app_view"]
    assert [c["name"] for c in moves] == [tool], moves
    state = json.loads(page.evaluate("gmHost.H.client.readResource({uri: 'gm://session/state'})")["contents"][0]["text"])
    assert [seat, clicked] in state["log"], (clicked, state["log"][-6:])
    expect(frame.locator("#error")).to_be_hidden()

    # a secret pick: its commitment was shown; at the reveal the browser checks it, and nothing the
    # view was sent before the reveal held the pick's nonce
    messages = page.evaluate("gmHost.H.toView")
    assert bool(locked) == (game in LOCKED), f"{game}: a bot locked its pick before the client's move: {bool(locked)}"
    if locked:
        answer = next(m for m in messages[sent_before_click:] if "result" in m and isinstance(m["result"], dict)
                      and (m["result"].get("structuredContent") or {}).get("reveal"))
        reveals = answer["result"]["structuredContent"]["reveal"]
        before = json.dumps(messages[:messages.index(answer)])
        for rev in reveals.values():
            assert rev["nonce"] not in before and rev["commitment"] in before
        expect(frame.locator('p.reveal[data-verified="true"]').first).to_be_visible(timeout=WAIT)
        expect(frame.locator('p.reveal[data-verified="false"]')).to_have_count(0)

    # a move by the model (a plain tools/call the view is not told of) reaches the view
    current = page.evaluate("gmHost.call('app_view', {})")["structuredContent"]["view"]
    assert current["your_turn"], "the bots answered the clicked move: the client acts again"
    move = current["legal"]["moves"][-1]
    r = page.evaluate("([n, a]) => gmHost.call(n, a)", [move["tool"], move["args"]])
    assert not r.get("isError"), r
    after = page.evaluate("gmHost.call('app_view', {})")["structuredContent"]["view"]
    assert after["version"] != current["version"]
    expect(body).to_have_attribute("data-version", after["version"], timeout=WAIT)
    expect(frame.locator("#status")).to_have_text(after["status"], timeout=WAIT)
    expect(frame.locator("#log")).to_contain_text(f"{seat}: {move['text']}")
    assert page.evaluate("gmHost.H.mounts") == 1, "the same view, updated: no new frame"
    # and when the host gives the view that tool's result, it says what just happened
    page.evaluate("r => gmHost.sendResult(r)", r)
    narration = r["structuredContent"]["narration"]
    assert narration
    expect(frame.locator("#events")).to_contain_text(narration[-1], timeout=WAIT)

    # no other seat's hidden hand in anything the view received
    messages = page.evaluate("gmHost.H.toView")
    for key, value in _hidden(store, data["session"], seat) if game != "rock-paper-scissors" else []:
        assert not _contains(messages, key, value), (key, value)
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    assert not errors, errors
