"""One test per ruling (``GM4-R-*``, written up in rules_md/gridmaster4.md)."""

from __future__ import annotations

import pytest
from gm4_helpers import GAME, cells, kinds, new, opening, play, rejects, tile

from gm.core.errors import InvalidActionError


@pytest.mark.rules("GM4-R-SEATS")
def test_seats_are_the_colours_orange_first_with_board_letters() -> None:
    from gm.games.gridmaster4.rules import COLOURS, LETTERS

    assert GAME.seats == ("orange", "magenta", "lime", "aqua")
    assert COLOURS["lime"] == "lime green"
    assert [LETTERS[s] for s in GAME.seats] == ["O", "M", "L", "A"]
    s = new()
    assert s.to_act() == ("orange",) and s.decision("orange") == "place_tile" and s.decision("lime") is None
    assert "orange to place 1" in GAME.status(s)


@pytest.mark.rules("GM4-R-CELLS")
def test_cells_are_column_letter_and_row_with_a1_bottom_left() -> None:
    s = new()
    opening(s, "a1", "T20")  # any case
    board = GAME.render(s).splitlines()
    assert board[1].split() == [chr(ord("A") + i) for i in range(20)]
    assert board[2].startswith("20") and board[2].split()[-1] == "M"  # row 20 on top, T20 at the right
    assert board[21].startswith(" 1") and board[21].split()[1] == "O"  # row 1 at the bottom, A1 at the left
    with pytest.raises(InvalidActionError) as info:
        GAME.action_from_json({"type": "place", "cell": "12"})
    assert info.value.rule == "GM4-R-CELLS"


@pytest.mark.rules("GM4-R-OWN-TILES")
def test_players_build_only_on_their_own_active_tiles() -> None:
    s = new()
    opening(s, "K10", "C3", "T20", "T1")
    assert "C6" not in cells(s, "orange")  # C6 is one of magenta's moves, not orange's
    err = rejects(s, "orange", "place C6", "GM4-R-OWN-TILES")
    assert "active tile of orange (K10)" in err.reason and "one move from magenta 1 at C3" in err.reason
    rejects(s, "orange", "place C5", "GM4-MOVE")  # nobody's move
    anyone = new(build_from="any")
    opening(anyone, "K10", "C3", "T20", "T1")
    assert "C6" in cells(anyone, "orange")


@pytest.mark.rules("GM4-R-DEACT-ANY")
def test_a_move_deactivates_tiles_of_every_colour() -> None:
    s = new()
    opening(s, "K10", "N13", "A20", "T1")
    play(s, "K13")
    assert tile(s, "N13") == ("magenta", 1, False)
    own = new(deactivate="own")
    opening(own, "K10", "N13", "A20", "T1")
    play(own, "K13")
    assert tile(own, "N13") == ("magenta", 1, True) and tile(own, "K10") == ("orange", 1, False)
    assert own.to_act() == ("magenta",)


@pytest.mark.rules("GM4-R-REACH")
def test_only_tiles_exactly_one_move_away_go_inactive() -> None:
    s = new()
    opening(s, "K10", "L13", "M13", "K15")  # 1 right, 2 right and 2 up of K13: nearer than a move
    play(s, "K13")
    for c in ("L13", "M13", "K15"):
        assert tile(s, c)[2] is True  # type: ignore[index]
    assert tile(s, "K10") == ("orange", 1, False)
    assert s.blocked == []


@pytest.mark.rules("GM4-R-NO-DEACT-FREE")
def test_first_tiles_and_free_placements_deactivate_nothing() -> None:
    s = new()
    ev = opening(s, "K10", "K13", "N10", "M12")  # all one move from orange's K10
    assert "deactivated" not in kinds(ev)
    assert all(t["active"] for t in s.snapshot()["tiles"])
    s = new()
    opening(s, "A1", "A4", "D1", "C3")  # orange blocked; free round magenta, lime, aqua
    ev = play(s, "place 2 at D4")  # one move from magenta's A4 and D1 (lime)
    assert "deactivated" not in kinds(ev)
    assert tile(s, "A4") == ("magenta", 1, True) and tile(s, "D1") == ("lime", 1, True)


@pytest.mark.rules("GM4-R-BLOCK-CHECK")
def test_the_engine_declares_a_block_when_the_turn_starts() -> None:
    s = new()
    opening(s, "A1", "A4", "D1")
    assert s.to_act() == ("aqua",)  # orange already has only C3 left: not blocked yet
    ev = play(s, "place 1 at C3")
    assert kinds(ev)[:3] == ["placed", "play_begins", "blocked"]
    assert ev[2].data["seat"] == "orange" and "GM4-R-BLOCK-CHECK" in ev[2].data["also"]
    assert s.to_act() == ("magenta",)
    # a player left without moves by someone else's move is not blocked until its own turn
    s = new()
    opening(s, "C3", "K10", "T20", "N13")
    play(s, "C6", "K13")  # magenta's K13 leaves aqua's N13 inactive, but it is lime's turn
    assert s.blocked == [] and s.to_act() == ("lime",) and s.move_cells("aqua") == []
    ev = play(s, "T17")
    assert s.blocked == ["aqua"] and [e.data["seat"] for e in ev if e.kind == "blocked"] == ["aqua"]


@pytest.mark.rules("GM4-R-BLOCKED-TILES")
def test_a_blocked_players_tiles_stay_inactive_and_count() -> None:
    s = new()
    opening(s, "A1", "A4", "D1", "C3")
    assert tile(s, "A1") == ("orange", 1, False)
    assert s.actives["orange"] == set()
    assert s.score["orange"] == 1
    play(s, "K10", "K20", "T10")
    rejects(s, "magenta", "place A1", "GM4-OPEN")  # the blocked tile still fills its cell
    full = new(players=2, columns=2, rows=1)
    opening(full, "A1", "B1")
    assert full.outcome is not None and full.outcome.score == {"orange": 1, "magenta": 1}


@pytest.mark.rules("GM4-R-FREE-ORDER")
def test_free_round_runs_in_turn_order_from_the_player_after_the_blocked_one() -> None:
    s = new()
    opening(s, "A4", "D1", "A1", "C3")  # lime's A1 has no open move cell
    play(s, "place 2 at A7", "place 2 at G1")  # orange, magenta move; now lime's turn: blocked
    assert s.blocked == ["lime"]
    assert s.free_queue == ["aqua", "orange", "magenta"] and s.to_act() == ("aqua",)
    play(s, "place 2 at K10")
    rejects(s, "magenta", "place 3 at K15", "GM4-TURN")
    ev = play(s, "place 3 at K15", "place 3 at T20")
    assert ev[-1].kind == "play_resumes" and ev[-1].data["seat"] == "aqua"
    assert s.phase == "play" and s.to_act() == ("aqua",)


@pytest.mark.rules("GM4-R-FREE-TILE")
def test_a_free_placement_is_the_next_tile_it_scores_and_can_win() -> None:
    s = new()
    opening(s, "A1", "A4", "D1", "C3")
    rejects(s, "magenta", "place 1 at K10", "GM4-NEXT")
    ev = play(s, "place 2 at K10")
    assert ev[0].rule == "GM4-FREE" and "GM4-R-FREE-TILE" in ev[0].data["also"]
    assert tile(s, "K10") == ("magenta", 2, True) and s.score["magenta"] == 2
    win = new(winning_tile=2)
    opening(win, "A1", "A4", "D1", "C3")
    play(win, "place 2 at K10")
    assert win.outcome is not None and win.outcome.winner == "magenta" and win.outcome.rule == "GM4-WIN-TILE"


@pytest.mark.rules("GM4-R-LAST")
def test_the_last_player_left_plays_on_alone() -> None:
    s = new(players=2)
    opening(s, "A1", "F6")
    play(s, "D1", "F3")  # magenta's F3 is one move from orange's only active tile D1
    assert s.blocked == ["orange"] and s.phase == "free" and s.to_act() == ("magenta",)
    play(s, "place 3 at K10")
    for n in range(4, 12):
        assert s.to_act() == ("magenta",) and s.outcome is None
        play(s, f"place {n} at {cells(s, 'magenta')[0]}")
    assert s.score == {"orange": 2, "magenta": 11}


@pytest.mark.rules("GM4-R-FULL")
def test_a_free_placement_with_no_open_cell_blocks_the_player() -> None:
    s = new(players=2, columns=2, rows=1)
    ev = opening(s, "A1", "B1")
    blocks = [e for e in ev if e.kind == "blocked"]
    assert [(e.rule, e.data["seat"]) for e in blocks] == [("GM4-BLOCKED", "orange"), ("GM4-R-FULL", "magenta")]
    assert s.blocked == ["orange", "magenta"] and s.is_terminal


@pytest.mark.rules("GM4-R-TIE")
def test_equal_largest_tiles_go_to_the_player_who_placed_it_first() -> None:
    s = new(players=2, columns=2, rows=1)
    opening(s, "A1", "B1")
    assert s.outcome is not None
    assert s.outcome.winner == "orange" and s.outcome.rule == "GM4-R-TIE"
    assert "tie on 1" in s.outcome.reason
    s = new(players=3, columns=3, rows=1)
    opening(s, "C1", "B1", "A1")  # everyone blocked, no open cell: orange placed its 1 first
    assert s.outcome is not None and s.outcome.winner == "orange"


@pytest.mark.rules("GM4-R-INACTIVE-SHOW")
def test_board_shows_active_upper_case_and_inactive_lower_case() -> None:
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    play(s, "K13")
    full = GAME.render(s, full=True).splitlines()
    row10 = next(line for line in full if line.startswith("10 "))
    row13 = next(line for line in full if line.startswith("13 "))
    assert "o1 " in row10 and "O1" not in row10
    assert "O2 " in row13
    compact = GAME.render(s).splitlines()
    assert next(line for line in compact if line.startswith("10 ")).split()[11] == "o"
    assert next(line for line in compact if line.startswith("13 ")).split()[11] == "O"
    assert "lower case = inactive" in GAME.render(s)


@pytest.mark.rules("GM4-R-NO-PASS")
def test_there_is_no_passing() -> None:
    s = new()
    for text in ("pass", "I pass", "skip my turn"):
        err = rejects(s, "orange", text, "GM4-R-NO-PASS", InvalidActionError)
        assert "no passing" in err.reason
