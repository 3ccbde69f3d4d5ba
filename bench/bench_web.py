"""The browser page of ``gm serve`` (docs/page.md), in headless Chromium on loopback:

- page weight: the bytes a first visit loads (the page, its modules and style sheets; uncompressed);
- page load to a playable board: open a game's address, until its board is drawn and the move builder
  offers a move (p50 and p95 over repeated loads);
- a move's round trip: a player's click that completes a move, until the page shows the answer (the
  board, the story, the next move's builder: one request; p50 and p95 over a game's moves against the
  default bot);
- a move to the other browser: one person makes a move, until the other person's page tells it
  (server-sent events, then the table; p50 and p95 over a game's moves between two browser contexts).

Needs Debian's ``chromium`` and the ``playwright`` package (``pip install -e '.[browser]'``).
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench import row
from bench.serve_load import Served

#: a short Grid Football (house rules), so a game gives enough moves quickly
SHORT = {"downs_per_quarter": 8}
READY = "#game[aria-busy=false] #builder .gm-form, #game[aria-busy=false] #builder .gm-direct"


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 1)


def _post(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req) as r:
        return dict(json.loads(r.read()))


def _told(page: Any) -> int:
    return int(page.locator("#chat li.move[data-index]").count())


def _point(page: Any, rng: random.Random) -> float:
    """Click through the builder until a move is on its way (a seeded choice at each step); returns when
    the last click, the one that sent the move, was made (``time.perf_counter``)."""
    for _ in range(30):
        page.wait_for_selector(READY)
        send = page.locator("#builder .gm-form .gm-send")
        choices = page.locator("#builder .gm-form .gm-choice")
        direct = page.locator("#builder .gm-direct-btn")
        target = send.first if send.count() else choices.nth(rng.randrange(choices.count())) if choices.count() else direct.first if direct.count() else None
        if target is None:
            raise AssertionError("nothing to click in the builder")
        t0 = time.perf_counter()
        target.click()
        if page.locator("#game[aria-busy=true]").count() or not page.locator("#builder .gm-form").count():
            return t0
    raise AssertionError("no move was sent: " + str(page.locator("#builder").inner_text()))


def run(quick: bool = False) -> list[dict[str, Any]]:
    from gm.web import STATIC

    weight = sum(f.stat().st_size for f in STATIC.iterdir() if f.is_file() and f.suffix in (".html", ".js", ".css"))
    rows = [row("page weight", round(weight / 1024, 1), "KiB", f"{', '.join(sorted(f.name for f in STATIC.iterdir()))}; no third-party code, uncompressed")]
    exe = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        exe = None
    if exe is None:
        rows.append(row("page load to playable board", "n/a", "", "needs chromium and the playwright package"))
        return rows
    import os

    load = os.getloadavg()[0]
    home = Path(tempfile.mkdtemp(prefix="gm-bench-web-"))
    served = Served(f"sqlite:{home / 'gm.sqlite'}", 1, home)
    base = f"http://127.0.0.1:{served.ports[0]}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
            # page load to a playable board: a game of the visitor's, opened by its address
            made = _post(base + "/api/games", {"game": "grid-football", "opponent": "bot:default", "seed": 1})
            entry = {"session": made["session"], "game": made["game"], "seat": made["seat"], "token": made["token"], "mode": "bot"}
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(base + "/")
            page.evaluate("(e) => localStorage.setItem('gm.games', JSON.stringify([e]))", entry)
            loads = []
            for i in range(5 if quick else 30):
                t0 = time.perf_counter()
                page.goto(f"{base}/?n={i}#game={made['session']}")
                page.wait_for_selector("#board-svg svg.gm-board")
                page.wait_for_selector(READY)
                loads.append((time.perf_counter() - t0) * 1000)
            # a move's round trip, against the default bot
            made = _post(base + "/api/games", {"game": "grid-football", "opponent": "bot:default", "seed": 2, "rules": SHORT})
            entry = {"session": made["session"], "game": made["game"], "seat": made["seat"], "token": made["token"], "mode": "bot"}
            page.evaluate("(e) => localStorage.setItem('gm.games', JSON.stringify([e]))", entry)
            page.goto(f"{base}/#game={made['session']}")
            page.wait_for_selector(READY)
            rng = random.Random(4)
            trips = []
            while len(trips) < (8 if quick else 60) and page.locator("#conn[data-state=over]").count() == 0:
                page.wait_for_selector(READY)
                told = _told(page)
                t0 = _point(page, rng)
                page.wait_for_selector("#game[aria-busy=false]")
                if _told(page) > told:
                    trips.append((time.perf_counter() - t0) * 1000)
            ctx.close()
            rows.append(row("page load to playable board p50", round(statistics.median(loads), 1), "ms",
                            f"p95 {_pct(loads, 0.95)} ms over {len(loads)} loads; Grid Football vs the bot; load average {load:.1f}"))
            rows.append(row("a move's round trip p50", round(statistics.median(trips), 1), "ms",
                            f"p95 {_pct(trips, 0.95)} ms over {len(trips)} moves: the click that sends a move to the answer shown "
                            f"(one request: board, story, next builder); Grid Football vs the default bot; load average {load:.1f}"))
            # a move to the other browser: two people, two contexts, moves alternate as the game asks
            a_ctx, b_ctx = browser.new_context(), browser.new_context()
            pa, pb = a_ctx.new_page(), b_ctx.new_page()
            made = _post(base + "/api/games", {"game": "grid-football", "opponent": "human"})
            entry = {"session": made["session"], "game": made["game"], "seat": "home", "token": made["token"], "mode": "friend"}
            pa.goto(base + "/")
            pa.evaluate("(e) => localStorage.setItem('gm.games', JSON.stringify([e]))", entry)
            pa.goto(f"{base}/#game={made['session']}")
            pa.wait_for_selector("#conn[data-state=live]")
            pb.once("dialog", lambda d: d.accept())  # a practice game (seed 2): the friend says yes to it
            pb.goto(made["seats"]["away"]["join_url"])
            pb.wait_for_selector("#conn[data-state=live]")
            lags = []
            deadline = time.monotonic() + (30 if quick else 120)
            while len(lags) < (8 if quick else 60) and time.monotonic() < deadline:
                mover = next((q for q in (pa, pb) if q.locator(READY).count()), None)
                if mover is None:
                    time.sleep(0.02)
                    continue
                other = pb if mover is pa else pa
                index = _told(other)
                t0 = _point(mover, rng)
                other.wait_for_selector(f"#chat li.move[data-index='{index}']")
                lags.append((time.perf_counter() - t0) * 1000)
                mover.wait_for_selector("#game[aria-busy=false]")
            a_ctx.close()
            b_ctx.close()
            browser.close()
        rows.append(row("a move to the other browser p95", _pct(lags, 0.95), "ms",
                        f"p50 {round(statistics.median(lags), 1)} ms over {len(lags)} moves (click to the other page telling it: SSE, then "
                        f"the table); load average {load:.1f}"))
    finally:
        served.stop()
    return rows
