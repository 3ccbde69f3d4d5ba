"""The browser page of ``gm serve`` in real headless Chromium: whole games through the page, two
people on two browser contexts, secret picks verified in the browser, live updates and reconnects."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path
from typing import Any

from serve_helpers import ServerProcess

from web.web_helpers import HEX64, Player, check_wire, reveals_of

#: a short Grid Football through the house-rules form: four quarters of two downs
SHORT_GF = {"downs_per_quarter": 2}


def test_page_is_self_contained(server: ServerProcess) -> None:
    """The page and its modules come from the package, with a policy that loads nothing from elsewhere."""
    with urllib.request.urlopen(server.url + "/") as r:
        html = r.read().decode()
        csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert '<script type="module" src="/static/app.js">' in html and "http" not in html.split("<body>")[0].replace("http-equiv", "")
    for name in ("app.js", "board.js", "style.css"):
        with urllib.request.urlopen(f"{server.url}/static/{name}") as r:
            body = r.read().decode()
        assert "https://" not in body and "http://" not in body.replace('"http://www.w3.org/2000/svg"', "")


def test_grid_football_whole_game_against_the_bot(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    me = Player(ctx.new_page(), server.url).open()
    # house rules are validated by the server, with the CLI's own words
    error = me.new_game("grid-football", seed=11, rules={"downs_per_quarter": 0}, expect_error=True)
    assert error == "[CORE-RULES] downs_per_quarter: 0 is out of range; allowed 1 to 100"
    me.new_game("grid-football", seed=10, rules=SHORT_GF)  # (seed 10: home wins the toss; the game opens on its choice)
    board = me.board()
    assert (board["columns"], board["rows"]) == (20, 64)
    assert [b["kind"] for b in board["bands"]] == ["endzone", "endzone"]
    assert me.check_svg()["lines"] == 2  # the goal lines; no scrimmage before the kickoff
    me.screenshot(artifacts, "grid-football-start")
    rng = random.Random(5)
    made = 0
    checked_live = False
    paths: list[tuple[str, int, int]] = []
    while not me.over():
        assert made < 200
        me.wait_my_turn()
        me.click_move(rng)
        made += 1
        counts = me.check_svg()
        board = me.board()
        path = me.page.locator("#board-svg polyline.path")
        if path.count():  # the last move's path ends on the ball
            ball = next(p for p in board["pieces"] if p["kind"] == "ball")
            end = (path.get_attribute("points") or "").split()[-1]
            paths.append((end, ball["col"], ball["row"]))
        if board["offense"] and not checked_live and not me.over():
            kinds = {line["kind"] for line in board["lines"]}
            assert {"goal", "scrimmage"} <= kinds and counts["pieces"] == 1
            checked_live = True
            me.screenshot(artifacts, "grid-football-play")
    assert checked_live and made > 5
    assert len(paths) >= 2 and len({p[0] for p in paths}) >= 2  # drawn after moves, to different squares
    for end, col, row in paths:  # board.js: 26 px of row labels, 14 of column labels, 12 px squares
        assert end == f"{26 + col * 12 + 6},{14 + (64 - row) * 12 + 6}"
    assert "FINAL" in me.status()
    # every bot pick that was committed was revealed and verified in the browser (WebCrypto)
    reveals = reveals_of(me)
    assert len(reveals) >= 3 and all(HEX64.match(r["commitment"]) for r in reveals)
    shown = me.reveals()
    assert shown and all(r["verified"] == "true" for r in shown)
    assert me.page.locator("#chat li[data-kind=reveal][data-verified=true]").count() == len(reveals)
    # on the wire: each commitment reached the page before its nonce, which came with the move that completed the round
    assert check_wire(me.wire_bodies(), reveals) == len(reveals)
    # the ASCII board is one click away
    me.page.click("#ascii-toggle")
    assert me.page.is_visible("#board-ascii") and not me.page.is_visible("#board-svg")
    assert "A B C D E F G H" in (me.page.text_content("#board-ascii") or "")
    me.screenshot(artifacts, "grid-football-end")
    assert not me.errors
    ctx.close()


def test_chat_goes_to_the_offline_referee(browser: Any, server: ServerProcess) -> None:
    ctx = browser.new_context()
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("grid-football", seed=3, mode="bot", bot="random", seat="away")
    me.send("what can I do?")
    assert me.page.locator("#chat li.referee").last.text_content() == "You can (2): heads, tails"
    me.send("I'll call heads please")
    assert "away calls heads" in (me.page.locator("#chat li.referee").last.text_content() or "")
    me.send("play 9 purple")
    last = me.page.locator("#chat li").last.text_content() or ""
    assert last.startswith("Not allowed [") or last.startswith("I couldn't read"), last
    ctx.close()


def test_two_people_through_two_links(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """Two browser contexts (two people): one creates the game, the other opens the link; each sees the
    other's commitment while it is locked, and verifies it in the browser at the reveal."""
    a_ctx, b_ctx = browser.new_context(), browser.new_context()
    home = Player(a_ctx.new_page(), server.url).open()
    home.new_game("grid-football", mode="friend", seed=21, rules=SHORT_GF)
    link = home.page.input_value("#invite-link")
    assert "#join=" in link
    away = Player(b_ctx.new_page(), server.url)
    asked: list[str] = []  # a practice game (seed 21): the friend is asked before joining, and says yes
    away.page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    away.page.goto(link)
    away.page.wait_for_selector("#game:not([hidden]) svg.board")
    assert len(asked) == 1 and "practice game: picks and cards are predictable" in asked[0], asked
    assert away.page.text_content("#practice") == home.page.text_content("#practice") == "practice game: picks and cards are predictable"
    assert "#join=" not in away.page.url  # a used code leaves the address bar
    assert away.session() == home.session()
    players = {"home": home, "away": away}
    rng = random.Random(2)
    commitments_seen = {"home": 0, "away": 0}
    lead = "home"  # who locks first in the next secret round: alternates, so each side is verified by the other
    made = 0
    deadline = time.monotonic() + 60
    while made < 24 and not home.over():
        assert time.monotonic() < deadline, home.status()
        seat = next((s for s in (lead, "away" if lead == "home" else "home") if players[s].page.locator("button.move").count()), None)
        if seat is None:
            time.sleep(0.03)  # the other page learns of the move over the event stream
            continue
        p, other_seat = players[seat], "away" if seat == "home" else "home"
        expected = p.page.evaluate("() => window.gm.G.view.expected.map(e => e.seat)")
        p.click_move(rng)
        made += 1
        if len(expected) == 2:
            # a secret round: the other page shows the commitment (never the pick) while it is locked
            other = players[other_seat]
            sel = f"#secrets p.commitment[data-seat='{seat}']"
            other.page.wait_for_selector(sel, timeout=15_000)
            assert HEX64.match(other.page.get_attribute(sel, "data-commitment") or "")
            commitments_seen[other_seat] += 1
            other.wait_my_turn()
            other.click_move(rng)  # completes the round: the reveal
            made += 1
            lead = other_seat
    assert commitments_seen["home"] >= 1 and commitments_seen["away"] >= 1, commitments_seen
    for p in (home, away):
        p.page.wait_for_selector("#secrets p.reveal")
        assert p.reveals() and all(r["verified"] == "true" for r in p.reveals())
        reveals = [r for r in reveals_of(p) if r["seat"] != p.page.evaluate("() => window.gm.G.active.seat")]
        assert reveals
        assert check_wire(p.wire_bodies(), reveals, by_say=False) >= 1
    home.screenshot(artifacts, "two-people-home")
    away.screenshot(artifacts, "two-people-away")
    assert not home.errors and not away.errors
    a_ctx.close()
    b_ctx.close()


def test_a_dropped_connection_comes_back(browser: Any, tmp_path: Path) -> None:
    """The page's event stream: the server goes away and comes back on the same port and store; the
    page says it is reconnecting, then shows the other player's move that was made meanwhile."""
    store = f"sqlite:{tmp_path / 'gm.sqlite'}"
    srv = ServerProcess(store, tmp_path, "--rate", "0", "--quiet")
    port = srv.url.rsplit(":", 1)[1]
    ctx = browser.new_context()
    try:
        home = Player(ctx.new_page(), srv.url).open()
        home.new_game("grid-football", mode="friend", seed=8)
        sid = home.session()
        link = home.page.input_value("#invite-link")
        code = link.split("#join=", 1)[1]
        home.page.wait_for_selector("#conn[data-state=live]")
        srv.stop()
        home.page.wait_for_selector("#conn[data-state=reconnecting]", timeout=15_000)
        srv = ServerProcess(store, tmp_path, "--rate", "0", "--quiet", "--port", port)
        # the other player joins and calls the toss while this page is (re)connecting
        away_token = _post(srv.url + "/api/join", {"code": code, "accept_practice": True})["token"]  # (a practice game: seed 8)
        r = _post(f"{srv.url}/api/games/{sid}/call", {"tool": "call_coin_toss", "args": {"call": "heads"}}, away_token)
        assert r["ok"]
        home.page.wait_for_selector("#conn[data-state=live]", timeout=15_000)
        home.page.wait_for_selector("#chat li[data-kind=event] >> text=away: heads", timeout=15_000)
        home.page.wait_for_selector("#status >> text=kick choice", timeout=15_000)  # and the position it led to
    finally:
        ctx.close()
        srv.stop()


def _post(url: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req) as r:
        return dict(json.loads(r.read()))


def test_hot_seat_switches_to_the_side_to_act(browser: Any, server: ServerProcess) -> None:
    ctx = browser.new_context()
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("grid-football", mode="hotseat", seed=6)
    seats = []
    rng = random.Random(1)
    for _ in range(6):
        me.wait_my_turn()
        seats.append(me.page.evaluate("() => window.gm.G.active.seat"))
        me.click_move(rng)
    assert seats[0] == "away" and "home" in seats  # the toss is away's call, the kick choice the winner's
    # both tokens are kept: the game is listed once under "your games"
    me.page.click("#home-link")
    me.page.wait_for_selector("#my-games li[data-session]")
    assert me.page.locator("#my-games li[data-session]").count() >= 1
    held = me.page.evaluate("() => JSON.parse(localStorage.getItem('gm.games'))")
    assert sorted(e["seat"] for e in held if e["mode"] == "hotseat") == ["away", "home"]
    ctx.close()


def test_keyboard_only_and_named_controls(browser: Any, server: ServerProcess) -> None:
    """The skip link leads to the chat, a move is typed and sent with the keyboard alone; every control
    has an accessible name and the board is an image with the headline as its name."""
    ctx = browser.new_context()
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("grid-football", seed=9, seat="away")
    p = me.page
    p.reload()  # a fresh visit to the game's address: the keyboard starts at the top
    p.wait_for_selector("#board-svg svg.board")
    p.keyboard.press("Tab")
    assert p.evaluate("() => document.activeElement.className") == "skip"
    p.keyboard.press("Enter")
    assert p.evaluate("() => document.activeElement.id") == "say-input"
    n = me.done()
    p.keyboard.type("tails")
    p.keyboard.press("Escape")  # closes the suggestions of the legal moves
    p.keyboard.press("Enter")
    p.wait_for_selector(f"body[data-done='{n + 1}']")
    assert "away calls tails" in (p.locator("#chat li.referee").last.text_content() or "")
    for role, name in (("button", "Zoom in"), ("button", "Zoom out"), ("button", "ASCII board"), ("combobox", "Your move or question")):
        assert p.get_by_role(role, name=name).count() == 1, (role, name)  # type: ignore[arg-type]
    assert p.get_by_role("img", name=me.board()["headline"]).count() == 1
    unnamed = p.evaluate(
        "() => [...document.querySelectorAll('#game button, #game input, #game select')]"
        ".filter(e => e.offsetParent && !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).length"
    )
    assert unnamed == 0
    ctx.close()
