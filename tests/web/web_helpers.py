"""Driving the gm page in a real browser as a player does: through what it shows (the builder's buttons,
the lit pieces and squares, the chat), never through hooks in its code; what the server holds is read
over the API with the seat token the page kept."""

from __future__ import annotations

import json
import random
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

from web.conftest import AXE

#: generous bounds for a loaded machine (waits end as soon as the page is there)
WAIT_MS = 20_000
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
HEX64 = re.compile(r"^[0-9a-f]{64}$")


class Player:
    """One person at one browser page."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        #: every API response the page received (not the event stream), in order: the wire
        self.wire: list[Any] = []
        #: every API request the page sent (method, path), in order
        self.requests: list[tuple[str, str]] = []
        page.on("response", lambda r: self.wire.append(r) if "/api/" in r.url and "/events" not in r.url else None)
        page.on("request", lambda r: self.requests.append((r.method, r.url.split("?")[0].replace(url, ""))) if "/api/" in r.url and "/events" not in r.url else None)
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        # (an answer the server refused, a 400, is the browser's console error too: the page shows those itself)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" and "Failed to load resource" not in m.text else None)

    # ---------------------------------------------------------------- setup
    def open(self, path: str = "/") -> Player:
        self.page.goto(self.url + path)
        self.page.wait_for_selector("#start:not([hidden]) #ng-games input, #game:not([hidden]) svg.gm-board", timeout=WAIT_MS)
        return self

    def new_game(self, game: str, *, mode: str = "bot", bot: str | None = None, seat: str | None = None,
                 seed: int | None = None, rules: dict[str, Any] | None = None, expect_error: bool = False) -> str:
        p = self.page
        p.check(f"#ng-games input[value='{game}']")
        p.wait_for_selector(f"#ng-rules[data-game='{game}']", state="attached", timeout=WAIT_MS)
        if seat:
            p.select_option("#ng-seat", seat)
        p.check(f"input[name=mode][value={mode}]")
        if bot:
            p.select_option("#ng-bot", bot)
        if seed is not None or rules:
            if not p.is_visible("#ng-seed"):
                p.click("#ng-more summary")
            p.fill("#ng-seed", "" if seed is None else str(seed))
            for name, value in (rules or {}).items():
                if p.locator(f"#rule-{name}").evaluate("e => e.tagName") == "SELECT":
                    p.select_option(f"#rule-{name}", str(value))
                else:
                    p.fill(f"#rule-{name}", str(value))
        p.click("#ng-start")
        if expect_error:
            p.wait_for_selector("#ng-error:not(:empty)", timeout=WAIT_MS)
            return str(p.text_content("#ng-error"))
        self.wait_game()
        return self.session()

    def wait_game(self) -> None:
        self.page.wait_for_selector("#game:not([hidden]) svg.gm-board", timeout=WAIT_MS)
        self.idle()

    def idle(self) -> None:
        """Until the page has its answers (no request in flight)."""
        self.page.wait_for_selector("#game[aria-busy=false]", timeout=WAIT_MS)

    def session(self) -> str:
        return str(self.page.evaluate("() => decodeURIComponent(location.hash.split('game=')[1] || '')"))

    def held(self) -> list[dict[str, Any]]:
        """The seat tokens the page keeps in this browser."""
        return list(json.loads(self.page.evaluate("() => localStorage.getItem('gm.games') || '[]'")))

    def token(self, seat: str | None = None) -> str:
        entries = [e for e in self.held() if e["session"] == self.session() and (seat is None or e["seat"] == seat)]
        return str(entries[0]["token"])

    # ---------------------------------------------------------------- the server's side
    def table(self, seat: str | None = None) -> dict[str, Any]:
        """The table as the server has it for the page's seat (over the API, not from the page)."""
        return self.table_since(None, seat)

    def table_since(self, since: int | None, seat: str | None = None) -> dict[str, Any]:
        query = "" if since is None else f"?since={since}"
        req = urllib.request.Request(f"{self.url}/api/games/{self.session()}/table{query}", headers={"Authorization": f"Bearer {self.token(seat)}"})
        with urllib.request.urlopen(req) as r:
            return dict(json.loads(r.read()))

    # ---------------------------------------------------------------- what the page shows
    def status(self) -> str:
        return str(self.page.text_content("#status"))

    def over(self) -> bool:
        return self.page.locator("#conn[data-state=over]").count() > 0 or "FINAL" in self.status()

    def prompt(self) -> str:
        return str(self.page.text_content("#builder .gm-prompt") or "")

    def my_turn(self) -> bool:
        return self.page.locator("#builder .gm-form, #builder .gm-direct").count() > 0

    def told(self) -> list[int]:
        """The indices of the moves the chat told (and that stand: not taken back), in order."""
        return [int(x) for x in self.page.locator("#chat li.move[data-index]:not(.taken-back)").evaluate_all("els => els.map(e => e.dataset.index)")]

    def chat(self, kind: str) -> list[str]:
        return [str(t) for t in self.page.locator(f"#chat li.msg.{kind}").all_text_contents()]

    def wait_my_turn(self, timeout: float = WAIT_MS / 1000) -> bool:
        """Until the builder offers a move (the other side moved) or the game is over."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.over():
                return False
            if self.page.locator("#game[aria-busy=false]").count() and self.my_turn():
                return True
            time.sleep(0.03)
        raise AssertionError("the page never offered a move: " + self.status())

    # ---------------------------------------------------------------- pointing
    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click()

    def choose(self, value: str) -> None:
        self.click(f"#builder .gm-choice[data-value='{value}']")

    def target(self, value: str) -> None:
        """Click the lit piece or square of a value on the board."""
        self.click(f"svg.gm-board .gm-target[data-now=true][data-value='{value}']")

    def send(self) -> None:
        self.click("#builder .gm-send")
        self.idle()

    def point_a_move(self, rng: random.Random, limit: int = 40) -> str:
        """Make one legal move by pointing only (seeded choices among what the page offers at each
        step: a lit piece or square, a button, the assignment's cards and zones, a plan's rows), and
        return what the chat told of it."""
        p = self.page
        before = len(self.told())
        sent = len(self.requests)
        tab = p.locator("#builder > .gm-tabs .gm-tab:not([disabled])")
        if tab.count() > 1:
            tab.nth(rng.randrange(tab.count())).click()
        for _ in range(limit):
            if any(m == "POST" for m, _ in self.requests[sent:]):
                break  # the move is on its way
            targets = p.locator("svg.gm-board .gm-target[data-now=true]:not(.taken)")
            assign = p.locator("#builder .gm-assign")
            if assign.count():
                rows = assign.locator("tbody tr")
                for i in range(rows.count()):
                    row = rows.nth(i)
                    cards = row.locator(".gm-choice")
                    cards.nth(rng.randrange(cards.count())).click()
                    free = p.locator("svg.gm-board .gm-target[data-now=true]:not(.taken):not(.chosen)")
                    if free.count():
                        free.nth(rng.randrange(free.count())).click()
                p.click("#builder .gm-review-btn")
                p.click("#builder .gm-send")
                break
            if p.locator("#builder .gm-seq").count():  # a plan: a row or two, then send
                if p.locator("#builder .gm-seq li:not(.gm-empty)").count() < rng.randrange(3) and targets.count():
                    targets.nth(rng.randrange(targets.count())).click()
                    continue
                if p.locator("#builder .gm-sub .gm-choice").count() or p.locator("#builder .gm-sub .gm-send").count():
                    sub = p.locator("#builder .gm-sub .gm-choice, #builder .gm-sub .gm-send")
                    sub.nth(rng.randrange(sub.count())).click()
                    continue
                p.locator("#builder .gm-actions .gm-send").last.click()
                break
            if targets.count():
                targets.nth(rng.randrange(targets.count())).click()
                continue
            choices = p.locator("#builder .gm-form .gm-choice")
            if choices.count():
                choices.nth(rng.randrange(choices.count())).click()
                continue
            if p.locator("#builder .gm-form .gm-send").count():
                p.click("#builder .gm-form .gm-send")
                break
            direct = p.locator("#builder .gm-direct-btn")
            if direct.count():
                direct.nth(rng.randrange(direct.count())).click()
                break
            raise AssertionError("nothing to point at: " + str(p.text_content("#builder")))
        self.idle()
        told = self.told()
        assert len(told) > before, "the move was not told: " + str(self.chat("error")[-1:])
        return str(p.locator(f"#chat li.move[data-index='{told[before]}'] .what").text_content())

    def play_out(self, rng: random.Random, limit: int = 400) -> int:
        """Point moves until the game is over (the bot answers in each move's answer); moves made."""
        made = 0
        while self.wait_my_turn():
            assert made < limit, "the game did not end: " + self.status()
            self.point_a_move(rng)
            made += 1
        return made

    # ---------------------------------------------------------------- checks
    def check_svg(self, board: dict[str, Any]) -> dict[str, int]:
        """The drawn SVG holds exactly the board's geometry: one element per cell, piece, band and line,
        at its place, and the board as text for screen readers."""
        svg = self.page.locator("#board-svg svg.gm-board")
        assert svg.count() == 1
        rows = set(board["row_order"])
        counts: dict[str, int] = {}
        for group, tag in (("cells", "rect.cell"), ("pieces", "circle.piece"), ("lines", "rect.line"), ("bands", "rect.band")):
            expected = [x for x in board.get(group) or [] if group == "bands" or x.get("row") in rows]
            drawn = svg.locator(tag).evaluate_all("els => els.map(e => [e.dataset.kind, e.dataset.col, e.dataset.row])")
            assert len(drawn) == len(expected), (group, len(drawn), len(expected))
            if group in ("cells", "pieces"):
                assert sorted(map(tuple, drawn)) == sorted((x["kind"], str(x["col"]), str(x["row"])) for x in expected)
            counts[group] = len(expected)
        assert self.page.locator("#board-text li").count() == len(board.get("text") or [])
        assert svg.get_attribute("aria-label") == board.get("headline")
        return counts

    def reveals(self) -> list[dict[str, str]]:
        return [dict(x) for x in self.page.locator("#chat p.reveal").evaluate_all(
            "els => els.map(e => ({index: e.dataset.index, seat: e.dataset.seat, verified: e.dataset.verified}))")]

    def screenshot(self, folder: Path, name: str) -> Path:
        path = folder / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 1000
        return path

    def axe(self) -> list[dict[str, Any]]:
        """Serious and critical accessibility violations axe-core finds on the page now."""
        if not self.page.evaluate("() => typeof window.axe === 'object'"):
            self.page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
        found = self.page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                                   ".map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))")
        return [v for v in found if v["impact"] in ("serious", "critical")]

    def wire_bodies(self) -> list[tuple[str, str]]:
        out = []
        for r in self.wire:
            try:
                out.append((r.url, r.text()))
            except Exception:  # a response the page never read (navigated away)
                continue
        return out


def check_wire(bodies: list[tuple[str, str]], reveals: list[dict[str, Any]], *, by_move: bool = True) -> int:
    """Commit before reveal, on the wire: each revealed pick's commitment reached the page before its
    nonce did, and the nonce came first in the answer to a move (``/move`` or ``/say``) - never earlier.
    Returns how many reveals were checked."""
    checked = 0
    for rev in reveals:
        first_commit = next((i for i, (_, b) in enumerate(bodies) if rev["commitment"] in b), None)
        first_nonce = next((i for i, (_, b) in enumerate(bodies) if rev["nonce"] in b), None)
        if first_nonce is None:
            continue
        assert first_commit is not None and first_commit < first_nonce, rev
        if by_move:
            assert bodies[first_nonce][0].endswith(("/move", "/say")), (rev, bodies[first_nonce][0])
        checked += 1
    return checked


def api(url: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> dict[str, Any]:
    req = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="GET" if body is None else "POST")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req) as r:
        return dict(json.loads(r.read()))
