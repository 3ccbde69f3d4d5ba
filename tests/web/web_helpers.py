"""Driving the gm page in a real browser: a player at one page, and checks of what it drew."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

#: generous bounds for a loaded machine (waits end as soon as the page is there)
WAIT_MS = 15_000


class Player:
    """One person at one browser page."""

    def __init__(self, page: Any, url: str) -> None:
        self.page = page
        self.url = url
        #: every API response the page received (not the event stream), in order: the wire
        self.wire: list[Any] = []
        page.on("response", lambda r: self.wire.append(r) if "/api/" in r.url and "/events" not in r.url else None)
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    # ---------------------------------------------------------------- setup
    def open(self, path: str = "/") -> Player:
        self.page.goto(self.url + path)
        self.page.wait_for_selector("body[data-ready=true]", timeout=WAIT_MS)
        return self

    def new_game(self, game: str, *, mode: str = "bot", bot: str | None = None, seat: str | None = None,
                 seed: int | None = None, rules: dict[str, Any] | None = None, expect_error: bool = False) -> str:
        p = self.page
        p.select_option("#ng-game", game)
        self._wait_form(game)
        if seat:
            p.select_option("#ng-seat", seat)
        p.check(f"input[name=mode][value={mode}]")
        if bot:
            p.select_option("#ng-bot", bot)
        p.fill("#ng-seed", "" if seed is None else str(seed))
        if rules:
            if not p.is_visible(f"#rule-{next(iter(rules))}"):
                p.click("#ng-rules-box summary")
            for name, value in rules.items():
                if p.evaluate(f"() => document.getElementById('rule-{name}').tagName") == "SELECT":
                    p.select_option(f"#rule-{name}", str(value))
                else:
                    p.fill(f"#rule-{name}", str(value))
        p.click("#ng-start")
        if expect_error:
            p.wait_for_selector("#ng-error:not(:empty)", timeout=WAIT_MS)
            return str(p.text_content("#ng-error"))
        p.wait_for_selector("#game:not([hidden]) svg.board", timeout=WAIT_MS)
        return self.session()

    def _wait_form(self, game: str) -> None:
        end = time.monotonic() + WAIT_MS / 1000
        while time.monotonic() < end:
            if self.page.evaluate("() => document.getElementById('ng-rules').dataset.game") == game:
                return
            time.sleep(0.02)
        raise AssertionError(f"the rules form of {game} did not load")

    def session(self) -> str:
        return str(self.page.evaluate("() => window.gm.G.session"))

    def token(self) -> str:
        return str(self.page.evaluate("() => window.gm.G.active.token"))

    # ---------------------------------------------------------------- play
    def done(self) -> int:
        return int(self.page.get_attribute("body", "data-done") or 0)

    def send(self, text: str) -> None:
        n = self.done()
        self.page.fill("#say-input", text)
        self.page.press("#say-input", "Enter")
        self.page.wait_for_selector(f"body[data-done='{n + 1}']", timeout=WAIT_MS)

    def moves(self) -> list[str]:
        return [str(t) for t in self.page.locator("button.move").all_text_contents()]

    def click_move(self, rng: random.Random) -> str:
        """Click one of the legal-move buttons (seeded choice); returns its text."""
        moves = self.moves()
        assert moves, "no legal move on the page"
        choice = rng.choice(moves)
        n = self.done()
        self.page.locator(f"button.move[data-move='{choice}']").first.click()
        self.page.wait_for_selector(f"body[data-done='{n + 1}']", timeout=WAIT_MS)
        return choice

    def status(self) -> str:
        return str(self.page.text_content("#status"))

    def over(self) -> bool:
        return "FINAL" in self.status() or bool(self.page.evaluate("() => !!(window.gm.G.view && window.gm.G.view.outcome)"))

    def wait_my_turn(self, timeout: float = WAIT_MS / 1000) -> bool:
        """Until the page offers moves (the other side moved: it came over the event stream) or the game is over."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.over():
                return False
            if self.page.locator("button.move").count():
                return True
            time.sleep(0.03)
        raise AssertionError("the page never offered a move: " + self.status())

    def play_out(self, rng: random.Random, limit: int = 400) -> int:
        """Click moves until the game is over (a bot or the event stream answers); returns moves made."""
        made = 0
        while not self.over():
            assert made < limit, "the game did not end"
            if not self.wait_my_turn():
                break
            self.click_move(rng)
            made += 1
        return made

    # ---------------------------------------------------------------- checks
    def board(self) -> dict[str, Any]:
        return dict(self.page.evaluate("() => window.gm.G.board.board"))

    def check_svg(self) -> dict[str, int]:
        """The drawn SVG holds exactly the board's geometry: one element per blocked square, piece,
        band and line, at the right place (the structural check of the drawing)."""
        board = self.board()
        svg = self.page.locator("#board-svg svg.board")
        assert svg.count() == 1
        counts: dict[str, int] = {}
        for group, tag in (("cells", "rect.cell"), ("pieces", "circle.piece"), ("lines", "rect.line"), ("bands", "rect.band")):
            drawn = svg.locator(tag)
            expected = [x for x in board.get(group) or [] if group in ("bands",) or x.get("row") in board["row_order"]]
            assert drawn.count() == len(expected), (group, drawn.count(), len(expected))
            counts[group] = len(expected)
        for piece in board.get("pieces") or []:
            assert svg.locator(f"circle.piece[data-kind='{piece['kind']}'][data-col='{piece['col']}'][data-row='{piece['row']}']").count() >= 1
        for cell in board.get("cells") or []:
            assert svg.locator(f"rect.cell[data-col='{cell['col']}'][data-row='{cell['row']}']").count() >= 1
        # the board is there as text too (screen readers)
        assert self.page.locator("#board-text li").count() == len(board.get("text") or [])
        assert svg.get_attribute("aria-label") == board.get("headline")
        return counts

    def reveals(self) -> list[dict[str, str]]:
        out = []
        for node in self.page.locator("#secrets p.reveal").all():
            out.append({"index": str(node.get_attribute("data-index")), "verified": str(node.get_attribute("data-verified"))})
        return out

    def screenshot(self, folder: Path, name: str) -> Path:
        path = folder / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        assert path.stat().st_size > 1000
        return path

    def wire_bodies(self) -> list[tuple[str, str]]:
        out = []
        for r in self.wire:
            try:
                out.append((r.url, r.text()))
            except Exception:  # a response the page never read (navigated away)
                continue
        return out


def check_wire(bodies: list[tuple[str, str]], reveals: list[dict[str, Any]], *, by_say: bool = True) -> int:
    """Commit before reveal, on the wire: each revealed pick's commitment reached the page before its
    nonce did, and the nonce came first in the response of the move that completed the round (a
    ``/say``) - never earlier.  Returns how many reveals were checked."""
    checked = 0
    for rev in reveals:
        first_commit = next((i for i, (_, b) in enumerate(bodies) if rev["commitment"] in b), None)
        first_nonce = next((i for i, (_, b) in enumerate(bodies) if rev["nonce"] in b), None)
        if first_nonce is None:
            continue
        assert first_commit is not None and first_commit < first_nonce, rev
        if by_say:
            assert bodies[first_nonce][0].endswith("/say"), (rev, bodies[first_nonce][0])
        checked += 1
    return checked


def reveals_of(player: Player) -> list[dict[str, Any]]:
    view = player.page.evaluate("() => window.gm.G.view")
    return list(view.get("reveals") or [])


def jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


HEX64 = re.compile(r"^[0-9a-f]{64}$")
