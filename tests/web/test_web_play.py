"""The browser page of ``gm serve`` in real headless Chromium, played as people play it: a whole Grid
Football game made by pointing and clicking only, what happened told once and in order (the toss, every
move, each reveal with its verification, ``undo``), answers and errors told apart, one request per move,
words typed during a move kept, two people through two links, the keyboard alone, a dropped connection."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from pathlib import Path
from typing import Any

from serve_helpers import ServerProcess

from web.web_helpers import DESKTOP, HEX64, Player, api, check_wire

#: a short Grid Football through the house-rules form: four quarters of two downs
SHORT_GF = {"downs_per_quarter": 2}
STATIC = ("app.js", "board.js", "builder.js", "board.css", "style.css")


def test_gm_serve_says_where_to_play_first(server: ServerProcess) -> None:
    first = server.lines[0]
    assert first.startswith(f"gm serve: play in a browser at {server.url}/ ; MCP at {server.url}/mcp; API at {server.url}/api;"), first


def test_page_is_self_contained(server: ServerProcess) -> None:
    """The page and its modules come from the package, with a policy that loads nothing from elsewhere."""
    with urllib.request.urlopen(server.url + "/") as r:
        html = r.read().decode()
        csp = r.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
    assert '<script type="module" src="/static/app.js">' in html and "http" not in html.split("<body>")[0].replace("http-equiv", "")
    for name in STATIC:
        with urllib.request.urlopen(f"{server.url}/static/{name}") as r:
            body = r.read().decode()
        assert "https://" not in body and "http://" not in body.replace('"http://www.w3.org/2000/svg"', "")
    for name in ("board.js", "builder.js"):  # the modules an MCP App view inlines: nothing of the page's
        with urllib.request.urlopen(f"{server.url}/static/{name}") as r:
            body = r.read().decode()
        assert "fetch(" not in body and "localStorage" not in body and "getElementById" not in body and "window." not in body
        assert "import " not in body.split("\n// ")[0] or name == "board.js"


def test_grid_football_whole_game_by_pointing(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """A whole game against the bot, every move made by clicking the builder's buttons: each move told
    once and in order, the board drawn is the board's geometry, the ball's path ends on the ball, every
    committed pick revealed once and verified in the browser, one request per move."""
    ctx = browser.new_context(viewport=DESKTOP)  # the page's own policy: nothing injected
    me = Player(ctx.new_page(), server.url).open()
    error = me.new_game("grid-football", seed=11, rules={"downs_per_quarter": 0}, expect_error=True)
    assert error == "[CORE-RULES] downs_per_quarter: 0 is out of range; allowed 1 to 100"
    me.new_game("grid-football", seed=10, rules=SHORT_GF)  # (seed 10: home wins the toss; the game opens on its choice)
    p = me.page
    t = me.table()
    assert (t["board"]["columns"], t["board"]["rows"]) == (20, 64)
    assert me.check_svg(t["board"])["lines"] == 2  # the goal lines; no scrimmage before the kickoff
    assert p.locator("#say-input").get_attribute("placeholder") == f"e.g. {t['examples'][0]}"
    assert p.locator("#practice").is_visible() and p.text_content("#practice") == "practice game: picks and cards are predictable"
    pane, svg = p.locator("#board-pane").bounding_box(), p.locator("#board-svg svg").bounding_box()
    assert pane and svg and svg["height"] <= pane["height"]  # the whole field in view: both end zones, rows 1-3 too
    me.screenshot(artifacts, "grid-football-desktop-start")
    rng = random.Random(5)
    made = 0
    checked_live = False
    paths = 0
    while me.wait_my_turn():
        assert made < 200
        n = len(me.requests)
        me.point_a_move(rng)
        made += 1
        sent = me.requests[n:]
        assert [r for r in sent if r[0] == "POST"] == [("POST", f"/api/games/{me.session()}/move")] and len(sent) == 1, sent
        t = me.table()
        counts = me.check_svg(t["board"])
        path = p.locator("#board-svg polyline.path")
        if t["board"]["path"]:
            ball = next(x for x in t["board"]["pieces"] if x["kind"] == "ball")
            end = (path.get_attribute("points") or "").split()[-1]  # board.js: 26 of row labels, 14 of column labels, 12 a square
            assert end == f"{26 + ball['col'] * 12 + 6},{14 + (64 - ball['row']) * 12 + 6}"
            paths += 1
        if t["board"]["offense"] and not checked_live and t["outcome"] is None:
            assert {"goal", "scrimmage"} <= {line["kind"] for line in t["board"]["lines"]} and counts["pieces"] == 1
            checked_live = True
            me.screenshot(artifacts, "grid-football-desktop-play")
    assert checked_live and made > 5 and paths >= 2
    assert "FINAL" in me.status() and p.locator("#chat li.system", has_text="The game is over").count() == 1
    told = me.told()
    assert told == list(range(len(told))) and len(told) == me.table()["moves"]  # every move once, in order
    events = p.locator("#chat li.move .events li").all_text_contents()
    assert sum(len(e["events"]) for e in me.table_since(0)["story"] if e["index"] >= 0) == len(events)  # each event once
    # every pick the bot committed was revealed once, with the move that completed its round, and verified here
    reveals = me.reveals()
    assert len(reveals) >= 3 and all(r["verified"] == "true" for r in reveals)
    assert len({r["index"] for r in reveals}) == len(reveals)
    view = api(server.url, f"/api/games/{me.session()}", token=me.token())
    committed = [r for r in view["reveals"] if r["seat"] == "away"]
    assert len(committed) == len(reveals) and all(HEX64.match(r["commitment"]) for r in committed)
    assert check_wire(me.wire_bodies(), committed) == len(committed)
    p.click("#ascii-toggle")  # the text board is one click away
    assert p.is_visible("#board-ascii") and not p.is_visible("#board-svg")
    assert "A B C D E F G H" in (p.text_content("#board-ascii") or "")
    me.screenshot(artifacts, "grid-football-desktop-end")
    assert not me.errors
    ctx.close()


def test_the_toss_undo_and_a_reveal_are_told_once(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """Two people (the other one over the API): the toss the other side called is told once; undo of a
    locked pick says what it took back and strikes it out; undo with nothing to take back is an error;
    the other person's committed pick is revealed once and verified in this browser."""
    ctx = browser.new_context(viewport=DESKTOP)
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("grid-football", mode="friend", seed=8)
    p = me.page
    code = (p.input_value("#invite-link") or "").split("#join=", 1)[1]
    joined = api(server.url, "/api/join", {"code": code, "accept_practice": True})
    away = joined["token"]
    sid = me.session()
    assert api(server.url, f"/api/games/{sid}/call", {"tool": "call_coin_toss", "args": {"call": "heads"}}, away)["ok"]
    p.wait_for_selector("#chat li.move[data-index='0']")
    toss = p.locator("#chat li.move .events li", has_text="away calls heads")
    assert toss.count() == 1
    winner = "home" if "home wins the toss" in str(toss.text_content()) else "away"
    if winner == "home":
        me.wait_my_turn()
        me.choose("kick")
        me.idle()
    else:
        assert api(server.url, f"/api/games/{sid}/call", {"tool": "choose_kick_or_receive", "args": {"choice": "receive"}}, away)["ok"]
        p.wait_for_selector("#chat li.move[data-index='1']")
    me.wait_my_turn()
    me.choose("left")
    me.choose("red")
    me.send()
    assert p.locator("#chat li.move[data-index='2'] .what").text_content() == "left red"
    p.fill("#say-input", "undo")
    p.press("#say-input", "Enter")
    me.idle()
    assert me.chat("answer")[-1] == "Taken back: left red. home, choose again."
    assert p.locator("#chat li.move.taken-back[data-index='2']").count() == 1
    p.fill("#say-input", "undo")
    p.press("#say-input", "Enter")
    me.idle()
    assert me.chat("error")[-1] == "Cannot undo: home has no locked pick to take back."
    # away locks first this time: its commitment is shown here while it is locked, and checked at the reveal
    assert api(server.url, f"/api/games/{sid}/call", {"tool": "pick_kick", "args": {"position": "right", "colour": "yellow"}}, away)["ok"]
    p.wait_for_selector("#secrets p.commitment[data-seat=away]", timeout=15_000)
    me.wait_my_turn()
    me.choose("center")
    me.choose("green")
    me.send()
    reveal = p.locator("#chat p.reveal")
    assert reveal.count() == 1 and reveal.get_attribute("data-verified") == "true" and reveal.get_attribute("data-seat") == "away"
    assert p.locator("#chat li.move", has=p.locator("p.reveal")).get_attribute("data-index") == str(me.told()[-1])
    assert "away's secret pick was right yellow" in str(reveal.text_content())
    assert me.told() == [0, 1, 2, 3]  # each standing move told once, in order (the pick taken back struck out)
    assert p.locator("#chat li.move .events li", has_text="away calls heads").count() == 1
    me.screenshot(artifacts, "grid-football-desktop-undo-reveal")
    assert not me.errors
    ctx.close()


def test_the_referee_answers_and_errors_are_told_apart(browser: Any, server: ServerProcess) -> None:
    ctx = browser.new_context()
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("grid-football", seed=3, mode="bot", bot="random", seat="away")
    p = me.page
    for text in ("what can I do?", "play 9 purple", "I'll call heads please"):
        p.fill("#say-input", text)
        p.press("#say-input", "Enter")
        me.idle()
    assert me.chat("answer") == ["You can (2): heads, tails"]
    assert len(me.chat("error")) == 1 and me.chat("error")[0].startswith("I couldn't read 'play 9 purple' as a move")
    assert me.chat("player") == ["You (away): what can I do?", "You (away): play 9 purple", "You (away): I'll call heads please"]
    assert p.locator("#chat li.move .events li", has_text="away calls heads").count() == 1
    ctx.close()


def test_words_typed_while_a_move_is_on_its_way_are_kept(browser: Any, server: ServerProcess) -> None:
    """The answer to a move is held back; the player types a question meanwhile: it waits its turn, is
    sent after the move's answer, and both are told in that order."""
    ctx = browser.new_context()
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("grid-football", seed=3, mode="bot", bot="random", seat="away")
    p = me.page
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    p.route("**/move", hold)
    me.choose("tails")
    end = time.monotonic() + 10
    while not held and time.monotonic() < end:
        p.wait_for_timeout(20)
    assert held and p.locator("#game[aria-busy=true]").count() == 1
    p.fill("#say-input", "score")
    p.press("#say-input", "Enter")
    assert p.input_value("#say-input") == "" and p.locator("#chat li.player.pending").count() == 1
    held[0].continue_()
    me.idle()
    p.unroute("**/move")
    said = p.locator("#chat li.msg").evaluate_all("els => els.map(e => [e.dataset.kind, e.querySelector('.what')?.textContent || ''])")
    kinds = [k for k, _ in said]
    move_at = said.index(["move", "tails"])
    asked = kinds.index("player")
    assert move_at < asked < kinds.index("answer"), said  # the move, then the question typed meanwhile, then its answer
    assert p.locator("#chat li.move .what").first.text_content() == "tails"
    assert me.chat("answer")[-1].startswith("Q1 |")  # the score, answered after the move
    assert p.locator("#chat li.player.pending").count() == 0
    assert not me.errors
    ctx.close()


def test_two_people_through_two_links(browser: Any, server: ServerProcess, artifacts: Path) -> None:
    """Two browser contexts (two people): one creates the game, the other opens the link; each sees the
    other's commitment while it is locked, and verifies it in the browser at the reveal."""
    a_ctx, b_ctx = browser.new_context(), browser.new_context()
    home = Player(a_ctx.new_page(), server.url).open()
    home.new_game("grid-football", mode="friend", rules=SHORT_GF)  # a hidden seed: no practice consent to give
    link = home.page.input_value("#invite-link")
    assert "#join=" in link
    away = Player(b_ctx.new_page(), server.url)
    away.page.goto(link)
    away.wait_game()
    assert "#join=" not in away.page.url  # a used code leaves the address bar
    assert away.session() == home.session()
    players = {"home": home, "away": away}
    rng = random.Random(2)
    commitments_seen = {"home": 0, "away": 0}
    lead = "home"
    made = 0
    deadline = time.monotonic() + 90
    while made < 24 and not home.over():
        assert time.monotonic() < deadline, home.status()
        seat = next((s for s in (lead, "away" if lead == "home" else "home")
                     if players[s].page.locator("#game[aria-busy=false] #builder .gm-form, #game[aria-busy=false] #builder .gm-direct").count()), None)
        if seat is None:
            time.sleep(0.05)  # the other page learns of the move over the event stream
            continue
        p, other_seat = players[seat], "away" if seat == "home" else "home"
        both = len(p.table()["expected"]) == 2
        p.point_a_move(rng)
        made += 1
        if both:  # a secret round: the other page shows the commitment (never the pick) while it is locked
            other = players[other_seat]
            sel = f"#secrets p.commitment[data-seat='{seat}']"
            other.page.wait_for_selector(sel, timeout=15_000)
            assert HEX64.match(other.page.get_attribute(sel, "data-commitment") or "")
            commitments_seen[other_seat] += 1
            other.wait_my_turn()
            other.point_a_move(rng)  # completes the round: the reveal
            made += 1
            lead = other_seat
    assert commitments_seen["home"] >= 1 and commitments_seen["away"] >= 1, commitments_seen
    for seat, p in players.items():
        p.page.wait_for_selector("#chat p.reveal")
        shown = p.reveals()
        assert shown and all(r["verified"] == "true" and r["seat"] != seat for r in shown)
        view = api(server.url, f"/api/games/{p.session()}", token=p.token())
        assert check_wire(p.wire_bodies(), [r for r in view["reveals"] if r["seat"] != seat], by_move=False) >= 1
        assert p.told() == sorted(set(p.told()))  # each move once, in order, on both pages
    home.screenshot(artifacts, "two-people-home")
    away.screenshot(artifacts, "two-people-away")
    assert not home.errors and not away.errors
    a_ctx.close()
    b_ctx.close()


def test_a_dropped_connection_comes_back(browser: Any, tmp_path: Path) -> None:
    """The page's event stream: the server goes away and comes back on the same port and store; the
    page says it is reconnecting, then tells the other player's move made meanwhile."""
    store = f"sqlite:{tmp_path / 'gm.sqlite'}"
    srv = ServerProcess(store, tmp_path, "--rate", "0", "--quiet")
    port = srv.url.rsplit(":", 1)[1]
    ctx = browser.new_context()
    try:
        home = Player(ctx.new_page(), srv.url).open()
        home.new_game("grid-football", mode="friend")
        sid = home.session()
        code = home.page.input_value("#invite-link").split("#join=", 1)[1]
        home.page.wait_for_selector("#conn[data-state=live]")
        srv.stop()
        home.page.wait_for_selector("#conn[data-state=reconnecting]", timeout=15_000)
        srv = ServerProcess(store, tmp_path, "--rate", "0", "--quiet", "--port", port)
        away_token = api(srv.url, "/api/join", {"code": code})["token"]
        assert api(srv.url, f"/api/games/{sid}/call", {"tool": "call_coin_toss", "args": {"call": "heads"}}, away_token)["ok"]
        home.page.wait_for_selector("#conn[data-state=live]", timeout=15_000)
        home.page.wait_for_selector("#chat li.move[data-index='0'] .what >> text=heads", timeout=15_000)
        home.page.wait_for_selector("#status >> text=kick choice", timeout=15_000)
    finally:
        ctx.close()
        srv.stop()


def test_hot_seat_switches_to_the_side_to_act(browser: Any, server: ServerProcess) -> None:
    ctx = browser.new_context()
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("grid-football", mode="hotseat", seed=6)
    p = me.page
    rng = random.Random(1)
    seats = []
    hidden = 0
    for _ in range(8):
        me.wait_my_turn()
        seats.append(str(p.text_content("#game-title")))
        both = len(me.table()["expected"]) == 2
        told = me.point_a_move(rng)
        if both:  # the first pick of a secret round: the other side, at this screen, must not read it
            assert told == "a secret pick, locked", told
            pick = p.locator("#chat li.move .what").last.get_attribute("data-move")
            assert pick == "locked"
            hidden += 1
    assert hidden >= 1
    assert all("you play home and away (now: " in s for s in seats)
    assert {s.rsplit("now: ", 1)[1] for s in seats} == {"home)", "away)"}  # the page switched to the side to act
    held = me.held()
    assert sorted(e["seat"] for e in held if e["mode"] == "hotseat") == ["away", "home"]
    who = p.locator("#chat li.move .who").all_text_contents()
    assert "away (you)" in who and "home (you)" in who  # each side's moves, as the side that made them
    p.click("#start-link")
    p.wait_for_selector("#my-games li[data-session]")
    assert p.locator("#my-games li[data-session]").count() == 1  # both tokens: the game is listed once
    ctx.close()


def test_keyboard_alone(browser: Any, server: ServerProcess) -> None:
    """From the start page to moves made, with the keyboard only: the skip link, the game's radio
    buttons and the Start button, a builder's buttons, the lit cells of the board (arrow keys between
    them, Enter to choose); every control named."""
    ctx = browser.new_context(viewport=DESKTOP)
    me = Player(ctx.new_page(), server.url).open()
    p = me.page
    p.keyboard.press("Tab")
    assert p.evaluate("() => document.activeElement.className") == "skip"
    for _ in range(12):  # to the games' radio group
        p.keyboard.press("Tab")
        if p.evaluate("() => document.activeElement.name") == "game":
            break
    for _ in range(3):  # the arrows move within the group: to GridMaster4
        if p.evaluate("() => document.activeElement.value") == "gridmaster4":
            break
        p.keyboard.press("ArrowDown")
    assert p.evaluate("() => document.activeElement.value") == "gridmaster4"
    p.wait_for_selector("#ng-rules[data-game=gridmaster4]", state="attached")
    for _ in range(20):
        p.keyboard.press("Tab")
        if p.evaluate("() => document.activeElement.id") == "ng-start":
            break
    p.keyboard.press("Enter")
    me.wait_game()
    for _ in range(60):  # Tab to the board's lit cells
        p.keyboard.press("Tab")
        if p.evaluate("() => document.activeElement.classList.contains('gm-target')"):
            break
    first = p.evaluate("() => document.activeElement.dataset.value")
    p.keyboard.press("ArrowRight")
    p.keyboard.press("ArrowDown")
    chosen = p.evaluate("() => document.activeElement.dataset.value")
    assert chosen != first
    p.keyboard.press("Enter")
    me.idle()
    assert p.locator("#chat li.move .what").first.text_content() == f"place {chosen}"
    unnamed = p.evaluate(
        "() => [...document.querySelectorAll('#game button, #game input, #game select, #game [role=button]')]"
        ".filter(e => (e.offsetParent || e.getBBox) && !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).length"
    )
    assert unnamed == 0
    for role, name in (("button", "Zoom in"), ("button", "Zoom out"), ("button", "Text board"), ("combobox", "Type a move or a question")):
        assert p.get_by_role(role, name=name).count() == 1, (role, name)  # type: ignore[arg-type]
    assert not me.errors
    ctx.close()


def test_a_language_models_narration_is_shown_as_it_streams(browser: Any, server: ServerProcess) -> None:
    """With an LLM referee the page asks for the narration as it is written: each ``delta`` shows at
    once in one message, which the ``result`` turns into the reply (here a narration) - and a server
    that answers in plain JSON is read as before.  (The referee here is the test's: the server's
    answer is made by the offline referee, then sent in pieces as a streaming referee sends them.)"""
    ctx = browser.new_context()
    p = ctx.new_page()
    p.route("**/api/referees", lambda route: route.fulfill(json={"ok": True, "llm": True, "kind": "openai"}))
    pieces: list[str] = []

    def streamed(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        assert route.request.headers.get("accept") == "text/event-stream" and body["referee"] == "llm"
        answer = route.fetch(post_data=json.dumps({**body, "referee": "offline"}), headers={**route.request.headers, "accept": "application/json"}).json()
        text = "Heads it is. " + answer["narration"]
        answer["reply"] = {"kind": "narration", "text": text}
        pieces[:] = [text[:6], text[6:20], text[20:]]
        events = "".join(f"event: delta\ndata: {json.dumps({'text': x})}\n\n" for x in pieces) + f"event: result\ndata: {json.dumps(answer)}\n\n"
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=events)

    p.route("**/say", streamed)
    me = Player(p, server.url).open()
    me.new_game("grid-football", seed=3, mode="bot", bot="random", seat="away")
    assert p.is_visible("#referee")
    p.fill("#say-input", "heads")
    p.press("#say-input", "Enter")
    me.idle()
    assert me.chat("referee") == ["".join(pieces)] and len(pieces) == 3  # one message, the pieces joined, styled as the referee's
    assert p.locator("#chat li.move .events li", has_text="away calls heads").count() == 1  # and the story told it once
    p.unroute("**/say")
    p.select_option("#referee", "offline")
    p.fill("#say-input", "score")
    p.press("#say-input", "Enter")
    me.idle()
    assert me.chat("answer")[-1].startswith("Q1 |")
    assert not me.errors
    ctx.close()


def test_joining_a_practice_game_asks_first(browser: Any, server: ServerProcess) -> None:
    """A server that refuses to let a friend into a practice game without their yes (409, the
    w8-serve-sec contract): the page asks, and joins with ``accept_practice`` only on yes."""
    a_ctx, b_ctx = browser.new_context(), browser.new_context()
    home = Player(a_ctx.new_page(), server.url).open()
    home.new_game("grid-football", mode="friend", seed=21)
    link = home.page.input_value("#invite-link")
    sent: list[dict[str, Any]] = []

    def practice(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        sent.append(body)
        if not body.get("accept_practice"):
            route.fulfill(status=409, json={"ok": False, "error": {"status": 409, "practice": True, "game": "grid-football", "seat": "away",
                                                                  "message": "this is a practice game: picks and cards are predictable"}})
        else:
            route.continue_()

    away = Player(b_ctx.new_page(), server.url)
    away.page.route("**/api/join", practice)
    asked: list[str] = []
    away.page.once("dialog", lambda d: (asked.append(d.message), d.accept()))
    away.page.goto(link)
    away.wait_game()
    assert len(asked) == 1 and asked[0].startswith("this is a practice game: picks and cards are predictable")
    assert [b.get("accept_practice") for b in sent] == [None, True]
    assert away.session() == home.session() and away.page.text_content("#practice") == "practice game: picks and cards are predictable"
    a_ctx.close()
    b_ctx.close()
