"""Every game's board in the browser: a short game of each through the page against the random bot,
the drawn SVG checked against the board geometry after every move, a screenshot of each board."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import ServerProcess

from gm.core.registry import all_games, find_game
from web.web_helpers import Player

#: house rules (through the page's form) that keep each game short
SHORT = {
    "gridmaster4": {"tiles": 40, "winning_tile": 40, "columns": 10, "rows": 10},
    "quarterback": {"format": "game", "max_rounds": 2},
    "brawl": {"rounds": 2},
    "chess-football": {"rows": 24, "possessions_per_half": 1, "overtime_periods": 0, "max_turns_per_down": 1},
}
#: what each board must draw at least once in the game
DRAWN = {
    "gridmaster4": ("cells", "tile"),
    "quarterback": ("pieces", "qb-q"),
    "brawl": ("cells", "zone card"),
    "chess-football": ("pieces", "offense"),
}


@pytest.mark.parametrize("game", sorted(SHORT))
def test_a_short_game_of_each_game(browser: Any, server: ServerProcess, artifacts: Path, game: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    me = Player(ctx.new_page(), server.url).open()
    me.new_game(game, mode="bot", bot="random", seed=4, rules=SHORT[game])
    rng = random.Random(7)
    made = 0
    group, kind = DRAWN[game]
    seen = False
    me.check_svg()
    me.screenshot(artifacts, f"{game}-start")
    while not me.over():
        assert made < 150, me.status()
        if not me.wait_my_turn():
            break
        me.click_move(rng)
        made += 1
        me.check_svg()
        board = me.board()
        seen = seen or any(x["kind"] == kind for x in board[group])
        if made == 3:
            me.screenshot(artifacts, f"{game}-play")
    assert "FINAL" in me.status() and made >= 1
    assert seen, f"{game}: no {kind} was ever drawn"
    me.screenshot(artifacts, f"{game}-end")
    assert not me.errors
    ctx.close()


def _states(game_id: str, seed: int, plies: int) -> list[Any]:
    g = find_game(game_id)
    st = g.new_state(seed=seed)
    rng = random.Random(seed)
    out = [st]
    for _ in range(plies):
        if st.is_terminal:
            break
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat).sample(rng))
        out.append(st)
    return out


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_board_json_is_plain_data_every_seat_can_draw(game: str) -> None:
    g = find_game(game)
    st = g.new_state(seed=2)
    rng = random.Random(2)
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
    compared = 0
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
        compared += 1
        seat = st.to_act()[0]
        st.apply(seat, st.legal_actions(seat).sample(rng))
    assert compared > 20


def test_gridmaster4_places_a_tile_by_clicking_its_square(browser: Any, server: ServerProcess) -> None:
    ctx = browser.new_context()
    me = Player(ctx.new_page(), server.url).open()
    me.new_game("gridmaster4", mode="bot", bot="random", seed=4, rules=SHORT["gridmaster4"])
    squares = me.page.locator("#board-svg rect[data-move]")
    assert squares.count() == 100  # the opening: any open cell
    move = squares.nth(44).get_attribute("data-move")
    assert move == "place 1 at E5"
    n = me.done()
    squares.nth(44).click()
    me.page.wait_for_selector(f"body[data-done='{n + 1}']")
    assert me.page.locator("#board-svg rect.cell.tile[data-col='4'][data-row='5']").count() == 1
    # the keyboard does it too: Enter on a focused square
    me.wait_my_turn()
    target = me.page.locator("#board-svg rect[data-move]").first
    text = target.get_attribute("data-move") or ""
    n = me.done()
    target.focus()
    me.page.keyboard.press("Enter")
    me.page.wait_for_selector(f"body[data-done='{n + 1}']")
    assert any(text in (t or "") for t in me.page.locator("#chat li.player").all_text_contents())
    ctx.close()
