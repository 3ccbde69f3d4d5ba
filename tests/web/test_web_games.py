"""Every game in the browser, made by pointing only, at a desktop's size and a phone's: the move the
player builds by clicking pieces, squares, buttons and cards is the move the engine makes; the board
drawn is the board's geometry; axe-core finds no serious or critical violation; a screenshot of each
(build/web-artifacts/) for a reviewer to look at."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import ServerProcess

from gm.core.registry import all_games, find_game
from web.web_helpers import DESKTOP, PHONE, Player

#: house rules (through the page's form) that keep each game short
SHORT: dict[str, dict[str, Any]] = {
    "gridmaster4": {"tiles": 40, "winning_tile": 40, "columns": 10, "rows": 10},
    "quarterback": {"format": "game", "max_rounds": 2},
    "brawl": {"rounds": 2},
    "chess-football": {"rows": 24, "possessions_per_half": 1, "overtime_periods": 0, "max_turns_per_down": 2},
    "grid-football": {"downs_per_quarter": 2},
}


def _open(browser: Any, server: ServerProcess, size: dict[str, int]) -> tuple[Any, Player]:
    ctx = browser.new_context(viewport=size, bypass_csp=True)  # (axe-core is injected into the page)
    return ctx, Player(ctx.new_page(), server.url).open()


def _no_violations(me: Player) -> None:
    found = me.axe()
    assert found == [], json.dumps(found, indent=1)


def _until(me: Player, rng: random.Random, decision: str, limit: int = 30) -> dict[str, Any]:
    """Point moves until the seat must make ``decision``; its builder."""
    for _ in range(limit):
        me.wait_my_turn()
        b = me.table()["builder"]
        if b["decision"] == decision:
            return b
        me.point_a_move(rng)
    raise AssertionError(f"never had to {decision}: {me.status()}")


def test_brawl_placement_built_in_the_builder(browser: Any, server: ServerProcess, artifacts: Path, axe_core: Path) -> None:
    """Every player a card from its hand (the hand shown as cards) and a zone clicked on the field; the
    check says what is missing until all are placed; the review lists the placement; the engine locks it
    and the bot's pick it completes is revealed and verified."""
    ctx, me = _open(browser, server, DESKTOP)
    me.new_game("brawl", bot="random", seed=4, rules=SHORT["brawl"])
    p = me.page
    hand = me.table()["board"]["hand"]
    assert p.locator("#hand .gm-card").count() == sum(len(g["cards"]) for g in hand["groups"]) > 0
    _no_violations(me)
    rows = p.locator("#builder .gm-assign tbody tr")
    n = rows.count()
    assert n == len(hand["groups"]) and f"of {n} ready" in str(p.text_content("#builder .gm-check"))
    built: dict[str, tuple[str, str]] = {}
    for i in range(n):
        row = rows.nth(i)
        player = str(row.get_attribute("data-item"))
        row.locator(".gm-item").click()
        card = row.locator(".gm-choice").first
        code = str(card.get_attribute("data-value"))
        card.click()
        zone = p.locator("svg.gm-board .gm-target[data-now=true]:not(.taken):not(.chosen)").first
        where = str(zone.get_attribute("data-value"))
        zone.click()
        built[player] = (code, where)
        assert f"{i + 1} of {n} ready" in str(p.text_content("#builder .gm-check"))
        if i == 2:
            me.screenshot(artifacts, "brawl-desktop-building")
            assert p.locator("svg.gm-board .gm-target.taken").count() == 3 - (p.locator("svg.gm-board .gm-target.chosen").count())
    p.click("#builder .gm-review-btn")
    review = p.locator("#builder .gm-review li").all_text_contents()
    assert len(review) == n and all(r.startswith(player) for r, player in zip(review, built, strict=True))
    p.click("#builder .gm-send")
    me.idle()
    mine = p.locator("#chat li.move").filter(has=p.locator(".who", has_text="You")).last
    text = str(mine.locator(".what").text_content())
    assert sorted(text.split()) == sorted(f"{pl}:{c}@{z}" for pl, (c, z) in built.items())
    assert mine.locator("p.reveal[data-verified=true]").count() == 1  # the bot's locked pick, revealed by this move
    me.screenshot(artifacts, "brawl-desktop-play")
    assert not me.errors
    ctx.close()


def test_chess_football_reaction_turn_by_clicking_piece_and_destination(browser: Any, server: ServerProcess, artifacts: Path,
                                                                         axe_core: Path) -> None:
    ctx, me = _open(browser, server, DESKTOP)
    me.new_game("chess-football", bot="random", seed=4, rules={k: v for k, v in SHORT["chess-football"].items() if k != "rows"})  # all 48 rows
    _no_violations(me)
    me.screenshot(artifacts, "chess-football-desktop-start")
    rng = random.Random(3)
    b = _until(me, rng, "turn", limit=12)
    p = me.page
    assert b["forms"][0]["id"] == "move_piece"
    # the view opened on the action, not on empty rows of the 48: the ball and most pieces are in the pane
    pane = p.locator("#board-pane").bounding_box()
    assert me.table()["board"]["rows"] == 48 and pane
    ys = p.locator("svg.gm-board circle.piece").evaluate_all("els => els.map(e => [e.dataset.kind, e.getBoundingClientRect().y])")
    seen = [kind for kind, y in ys if pane["y"] <= y <= pane["y"] + pane["height"]]
    assert ("ball" in seen or "maybe-ball" in seen) and 2 * len(seen) >= len(ys), (seen, len(ys))
    first = p.locator("svg.gm-board .gm-target[data-now=true].piece-target").first
    pid = str(first.get_attribute("data-value"))
    first.click()
    square = p.locator("svg.gm-board .gm-target[data-now=true].square-target").last
    to = str(square.get_attribute("data-value"))
    square.click()
    while p.locator("#builder .gm-form .gm-choice").count() and not p.locator("#game[aria-busy=true]").count():
        p.locator("#builder .gm-form .gm-choice").first.click()  # the position in the square (and a variant, if any)
    me.idle()
    mine = p.locator("#chat li.move").filter(has=p.locator(".who", has_text="You")).last
    assert re.fullmatch(rf"{pid} (rush |route |rush route )?to {to} (C|NW|NE|SW|SE)", str(mine.locator(".what").text_content()))
    _no_violations(me)
    me.screenshot(artifacts, "chess-football-desktop-play")
    assert not me.errors
    ctx.close()


def test_quarterback_move_by_clicking_piece_and_destination(browser: Any, server: ServerProcess, artifacts: Path, axe_core: Path) -> None:
    ctx, me = _open(browser, server, DESKTOP)
    me.new_game("quarterback", bot="random", seed=4, rules=SHORT["quarterback"])
    _no_violations(me)
    me.wait_my_turn()
    p = me.page
    piece = p.locator("svg.gm-board .gm-target[data-now=true].piece-target").first
    pid = str(piece.get_attribute("data-value"))
    piece.click()
    assert p.locator("svg.gm-board .gm-target.piece-target.chosen").count() == 1
    square = p.locator("svg.gm-board .gm-target[data-now=true].square-target").first
    to = str(square.get_attribute("data-value"))
    square.click()
    if p.locator("#builder .gm-form .gm-choice").count():  # several routes lead there: the first
        p.locator("#builder .gm-form .gm-choice").first.click()
    me.idle()
    mine = p.locator("#chat li.move").filter(has=p.locator(".who", has_text="You")).last
    assert re.fullmatch(rf"move {pid} [A-Z0-9-]*{to}", str(mine.locator(".what").text_content()))
    me.screenshot(artifacts, "quarterback-desktop-play")
    # every legal move one click away, grouped (by piece) and readable: the list is the builder's rows
    me.wait_my_turn()
    b = me.table()["builder"]
    rows = [r[-1] for f in b["forms"] for r in f["moves"]]
    p.click("#all-moves > summary")
    p.wait_for_selector("#moves button.move", state="attached")  # (made when opened; the big groups folded)
    assert p.locator("#moves button.move").all_text_contents() == rows
    groups = p.locator("#moves details > summary").all_text_contents()
    pieces = [g for g in groups if g.startswith("Move a piece: ")]
    assert pieces and all(re.fullmatch(r"Move a piece: \S+ \(\w+\) \(\d+\)", g) for g in pieces), groups
    last = rows[-1]
    button = p.locator(f"#moves button.move[data-move='{last}']")
    if not button.is_visible():  # open its group
        p.locator("#moves details", has=button).locator("summary").click()
    button.click()
    me.idle()
    assert p.locator("#chat li.move").filter(has=p.locator(".who", has_text="You")).last.locator(".what").text_content() == last
    assert not me.errors
    ctx.close()


def test_gridmaster4_tile_by_clicking_its_cell(browser: Any, server: ServerProcess, artifacts: Path, axe_core: Path) -> None:
    ctx, me = _open(browser, server, DESKTOP)
    me.new_game("gridmaster4", bot="random", seed=4, rules=SHORT["gridmaster4"])
    p = me.page
    cells = p.locator("svg.gm-board .gm-target[data-now=true]")
    assert cells.count() == 100  # the opening: any open cell
    _no_violations(me)
    cells.nth(44).click()  # row by row from the top: the 5th row from the top, 5th column
    me.idle()
    assert p.locator("svg.gm-board rect.cell[data-kind~=tile][data-col='4'][data-row='6']").count() == 1
    assert str(p.locator("#chat li.move .what").first.text_content()) == "place E6"
    for _ in range(3):
        me.wait_my_turn()
        cell = p.locator("svg.gm-board .gm-target[data-now=true]").first
        where = str(cell.get_attribute("data-value"))
        cell.click()
        me.idle()
        assert p.locator("#chat li.move").filter(has=p.locator(".who", has_text="You")).last.locator(".what").text_content() == f"place {where}"
    me.screenshot(artifacts, "gridmaster4-desktop-play")
    assert not me.errors
    ctx.close()


@pytest.mark.parametrize("game", ["grid-football", "brawl", "chess-football", "gridmaster4", "quarterback"])
def test_each_game_at_phone_size(browser: Any, server: ServerProcess, artifacts: Path, axe_core: Path, game: str) -> None:
    """At 390 x 844: one column, the board fits the width and shows the action, a few moves made by
    pointing, every drawn element the board's, no serious accessibility violation."""
    ctx, me = _open(browser, server, PHONE)
    me.new_game(game, bot="random", seed=5, rules=SHORT[game])
    p = me.page
    width = p.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width}px"
    me.screenshot(artifacts, f"{game}-phone-start")
    rng = random.Random(4)
    for _ in range(3):
        if not me.wait_my_turn():
            break
        me.point_a_move(rng)
    t = me.table()
    me.check_svg(t["board"])
    svg = p.locator("#board-svg svg.gm-board").bounding_box()
    assert svg and svg["width"] <= PHONE["width"]
    _no_violations(me)
    me.screenshot(artifacts, f"{game}-phone-play")
    assert not me.errors
    ctx.close()


def test_the_start_page(browser: Any, server: ServerProcess, artifacts: Path, axe_core: Path) -> None:
    """The flagship first and chosen, every game with what it is; the recorded games are the corpus'
    viewer list, not its fixtures; no serious accessibility violation at either size."""
    for name, size in (("desktop", DESKTOP), ("phone", PHONE)):
        ctx, me = _open(browser, server, size)
        p = me.page
        games = p.locator("#ng-games input[name=game]").evaluate_all("els => els.map(e => [e.value, e.checked])")
        assert games[0] == ["grid-football", True] and sorted(g for g, _ in games) == sorted(g.id for g in all_games())
        assert p.locator("#ng-games .badge").all_text_contents() == ["flagship"]
        assert all(p.locator("#ng-games .game-about").all_text_contents())
        _no_violations(me)
        me.screenshot(artifacts, f"start-page-{name}")
        ctx.close()


def test_a_plugin_game_is_played_by_clicking_its_board(browser: Any, plugin_site: Path, tmp_path: Path, artifacts: Path, axe_core: Path) -> None:
    """The test-only plugin game (its own board and builder, no line of gm's page for it): shapes
    thrown by clicking them until the match is over; its own kinds of cell drawn in the default style."""
    home = tmp_path / "home"
    home.mkdir()
    env = {"PYTHONPATH": str(plugin_site)}
    with ServerProcess(f"sqlite:{home / 'gm.sqlite'}", home, "--rate", "0", "--quiet", env=env) as srv:
        ctx = browser.new_context(viewport=DESKTOP, bypass_csp=True)
        me = Player(ctx.new_page(), srv.url).open()
        me.new_game("rock-paper-scissors", bot="random", seed=3)
        p = me.page
        shape = p.locator("svg.gm-board rect.cell[data-kind=shape]").first
        fill = shape.evaluate("e => getComputedStyle(e).fill")
        text = p.locator("svg.gm-board text.cell-text").first.evaluate("e => getComputedStyle(e).fill")
        assert fill != text and fill not in ("rgb(0, 0, 0)", "none"), (fill, text)  # never black on black
        _no_violations(me)
        rounds = 0
        while me.wait_my_turn():
            target = p.locator("svg.gm-board .gm-target[data-now=true]").nth(rounds % 3)
            thrown = str(target.get_attribute("data-value"))
            target.click()
            me.idle()
            mine = p.locator("#chat li.move").filter(has=p.locator(".who", has_text="You")).last
            assert mine.locator(".what").text_content() == f"throw {thrown}"
            rounds += 1
            if rounds == 2:
                me.screenshot(artifacts, "plugin-game-desktop")
        assert rounds >= 2 and "Match over" in me.status()
        assert p.locator("svg.gm-board rect.cell[data-kind=thrown]").count() >= 2
        assert not me.errors
        ctx.close()


# ------------------------------------------------------------------ board_json, without a browser
@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_board_json_is_plain_data_every_seat_can_draw(game: str) -> None:
    g = find_game(game)
    st = g.new_state(seed=2)
    rng = random.Random(2)
    shapes = {"cell", "piece", "line", "band", "path"}
    for _ in range(120):
        if st.is_terminal:
            break
        for seat in g.seats:
            b = g.board_json(st, seat)
            assert b is not None and b["kind"] == "grid" and b["game"] == game
            assert json.loads(json.dumps(b)) == b
            rows = set(b["row_order"])
            assert len(rows) == len(b["row_order"]) == b["rows"]
            for item in b["cells"] + b["pieces"]:
                assert 0 <= item["col"] < b["columns"] and item["row"] in rows and item["label"]
            refs = [p["ref"] for p in b["pieces"] if "ref" in p]
            assert len(refs) == len(set(refs))  # a builder's pieces are found by them
            assert all(p["side"] in b["sides"] for p in b["pieces"] if "side" in p)
            assert all(e["shape"] in shapes and e["text"] for e in b.get("legend") or [])
            assert b.get("surface") in ("turf", "plain")
            for point in b.get("path") or []:
                assert point[1] in rows
            assert b["text"] and b["headline"]
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat).sample(rng))


@pytest.mark.parametrize("game", ["grid-football", "brawl"])
def test_board_json_never_shows_a_locked_pick(game: str) -> None:
    """Two states alike but for one seat's locked secret pick: the other seat's board is the same."""
    g = find_game(game)
    rng = random.Random(3)
    st = g.new_state(seed=3)
    checked = 0
    for _ in range(400):
        if st.is_terminal:
            break
        acting = st.to_act()
        if len(acting) == 2:
            first, other = acting
            picks = st.legal_actions(first)  # a space (brawl's placements) is indexed, never listed
            if len(picks) > 2:  # the last two: secret picks alike in kind (a punt, listed first, is public)
                boards = []
                for pick in (picks[len(picks) - 2], picks[len(picks) - 1]):
                    twin = g.new_state(rules=st.rules, seed=3)
                    for move in st.log:
                        twin.apply(move.seat, move.action)
                    twin.apply(first, pick)
                    boards.append(json.dumps(g.board_json(twin, other), sort_keys=True))
                assert boards[0] == boards[1]
                checked += 1
        seat = acting[0]
        st.apply(seat, st.legal_actions(seat).sample(rng))
    assert checked >= 3


def test_grid_football_board_json_matches_the_ascii_board() -> None:
    g = find_game("grid-football")
    st = g.new_state(seed=5)
    rng = random.Random(5)
    compared = paths = 0
    while not st.is_terminal:
        b = g.board_json(st, "home")
        full = g.render(st, "home", full=True).splitlines()
        rows = {int(line[:3]): line[5:5 + 2 * b["columns"]].split(" ") for line in full if line[:3].strip().isdigit()}
        blocked = {(c["col"], c["row"]) for c in b["cells"] if c["kind"] == "blocked"}
        ball = next(((p["col"], p["row"]) for p in b["pieces"] if p["kind"] == "ball"), None)
        for row, cells in rows.items():
            for col, ch in enumerate(cells):
                if ch == "O":
                    assert ball == (col, row)
                elif ch == "#":
                    assert (col, row) in blocked
        assert len(blocked) == sum(ch == "#" for cells in rows.values() for ch in cells) + (ball in blocked)
        kinds = {line["row"]: line["kind"] for line in b["lines"]}
        for row, cells in rows.items():
            if "-" in cells:
                assert kinds.get(row) == "scrimmage"
            if "+" in cells:
                assert kinds.get(row) == "gain"
        if b["path"]:  # the ball's last move ends where the ball is, and starts where it was
            assert tuple(b["path"][-1]) == ball and len(b["path"]) >= 2
            paths += 1
        if ball is not None:  # the view opens on the ball
            assert b["focus"]["rows"][0] <= ball[1] <= b["focus"]["rows"][1]
        compared += 1
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat).sample(rng))
    assert compared > 20 and paths > 5


def test_grid_football_a_ball_that_did_not_move_has_no_path() -> None:
    """A play of no legs leaves the ball where it was: nothing to draw (the page draws a path of two
    squares or more), so the board says no path rather than a path of one square."""
    g = find_game("grid-football")
    st = g.new_state(seed=5)
    rng = random.Random(5)
    while st.ball is None or st.ball_path[-1:] != (st.ball,):
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat).sample(rng))
    assert g.board_json(st, "home")["path"]  # the ball moved: its path
    st.ball_path = (st.ball,)
    assert g.board_json(st, "home")["path"] == []
    st.ball_path = (st.ball, st.ball)
    assert g.board_json(st, "home")["path"] == []
