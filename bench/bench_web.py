"""The browser page of ``gm serve`` (docs/serving.md, "In the browser"), in headless Chromium on loopback:

- page weight: the bytes a first visit loads (the page, its modules and style; uncompressed);
- page load to a playable board: open a game's address, until its board is drawn and the legal
  moves are offered (p50 and p95 over repeated loads);
- a move to the other browser: one person clicks a move, until the other person's page shows it
  (server-sent events; p50 and p95 over a game's moves between two browser contexts).

Needs Debian's ``chromium`` and the ``playwright`` package (``pip install -e '.[browser]'``).
"""

from __future__ import annotations

import json
import os
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


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))], 1)


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req) as r:
        return dict(json.loads(r.read()))


def run(quick: bool = False) -> list[dict[str, Any]]:
    from gm.web import STATIC

    weight = sum(f.stat().st_size for f in STATIC.iterdir() if f.is_file())
    rows = [row("page weight", round(weight / 1024, 1), "KiB", f"{', '.join(sorted(f.name for f in STATIC.iterdir()))}; no third-party code, uncompressed")]
    exe = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        exe = None
    if exe is None:
        rows.append(row("page load to playable board", "n/a", "", "needs chromium and the playwright package"))
        return rows
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
                page.wait_for_selector("#board-svg svg.board")
                page.wait_for_selector("button.move")
                loads.append((time.perf_counter() - t0) * 1000)
            ctx.close()
            rows.append(row("page load to playable board p50", round(statistics.median(loads), 1), "ms",
                            f"p95 {_pct(loads, 0.95)} ms over {len(loads)} loads; Grid Football vs the bot; load average {load:.1f}"))
            # a move to the other browser: two people, two contexts, moves alternate as the game asks
            a_ctx, b_ctx = browser.new_context(), browser.new_context()
            pa, pb = a_ctx.new_page(), b_ctx.new_page()
            made = _post(base + "/api/games", {"game": "grid-football", "opponent": "human", "seed": 2})
            entry = {"session": made["session"], "game": made["game"], "seat": "home", "token": made["token"], "mode": "friend"}
            pa.goto(base + "/")
            pa.evaluate("(e) => localStorage.setItem('gm.games', JSON.stringify([e]))", entry)
            pa.goto(f"{base}/#game={made['session']}")
            pa.wait_for_selector("#conn[data-state=live]")
            pb.once("dialog", lambda d: d.accept())  # a practice game (seed 2): the friend says yes to it
            pb.goto(made["seats"]["away"]["join_url"])
            pb.wait_for_selector("#conn[data-state=live]")
            rng = random.Random(3)
            lags = []
            moves = 0
            deadline = time.monotonic() + (30 if quick else 120)
            while len(lags) < (8 if quick else 60) and time.monotonic() < deadline:
                mover = next((q for q in (pa, pb) if q.locator("button.move").count()), None)
                if mover is None:
                    time.sleep(0.02)
                    continue
                other = pb if mover is pa else pa
                texts = mover.locator("button.move").all_text_contents()
                index = int(mover.evaluate("() => window.gm.G.view.log.length"))
                done = int(mover.get_attribute("body", "data-done") or 0)
                t0 = time.perf_counter()
                mover.locator("button.move").nth(texts.index(rng.choice(texts))).click()
                other.wait_for_selector(f"#chat li[data-index='{index}']")
                lags.append((time.perf_counter() - t0) * 1000)
                mover.wait_for_selector(f"body[data-done='{done + 1}']")
                moves += 1
            a_ctx.close()
            b_ctx.close()
            browser.close()
        rows.append(row("a move to the other browser p95", _pct(lags, 0.95), "ms",
                        f"p50 {round(statistics.median(lags), 1)} ms over {len(lags)} moves (click to the other page showing it, SSE); load average {load:.1f}"))
    finally:
        served.stop()
    return rows
