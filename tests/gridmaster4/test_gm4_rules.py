"""One test (at least) per rule of the GridMaster4 rules document (``GM4-*``)."""

from __future__ import annotations

import pytest
from gm4_helpers import GAME, cells, kinds, new, opening, play, rejects, tile

from gm.core.errors import InvalidActionError

K10_MOVES = ["K7", "I8", "M8", "H10", "N10", "I12", "M12", "K13"]  # engine order: A1 first, row by row


@pytest.mark.rules("GM4-BOARD", "GM4-R-CELLS")
def test_board_is_20_by_20_cells_named_a1_to_t20() -> None:
    s = new()
    assert (s.rules.columns, s.rules.rows) == (20, 20)
    assert len(s.geo.names) == 400 == len(cells(s, "orange"))
    assert s.geo.names[0] == "A1" and s.geo.names[19] == "T1" and s.geo.names[20] == "A2" and s.geo.names[-1] == "T20"
    err = rejects(s, "orange", "place U5", "GM4-BOARD")
    assert "A1 to T20" in err.reason
    rejects(s, "orange", "place A21", "GM4-BOARD")
    rejects(s, "orange", "place A0", "GM4-BOARD")


@pytest.mark.rules("GM4-PLAYERS", "GM4-R-SEATS")
def test_four_players_in_the_documents_order_with_tiles_1_to_100() -> None:
    s = new()
    assert GAME.seats == ("orange", "magenta", "lime", "aqua")
    assert s.order == GAME.seats
    assert (s.rules.tiles, s.rules.winning_tile) == (100, 100)
    assert [p["colour"] for p in s.snapshot()["players"]] == ["orange", "magenta", "lime green", "aqua"]
    two = new(players=2)
    assert two.order == ("orange", "magenta")
    err = rejects(two, "lime", "place K10", "GM4-PLAYERS")
    assert "orange, magenta" in err.reason


@pytest.mark.rules("GM4-TURN")
def test_turns_follow_the_initial_player_order() -> None:
    s = new()
    seen = []
    for c in ("C3", "R3", "C18", "R18"):
        (seat,) = s.to_act()
        seen.append(seat)
        s.apply(seat, c)
    assert seen == ["orange", "magenta", "lime", "aqua"]
    assert s.to_act() == ("orange",) and s.phase == "play"
    err = rejects(s, "lime", "place C15", "GM4-TURN")
    assert "orange's turn" in err.reason
    order = []
    for _ in range(8):
        (seat,) = s.to_act()
        order.append(seat)
        s.apply(seat, s.legal_actions(seat)[0])
    assert order == ["orange", "magenta", "lime", "aqua"] * 2
    assert s.blocked == []


@pytest.mark.rules("GM4-ACTIVE")
def test_tiles_are_placed_active_and_inactive_tiles_stay_on_the_board() -> None:
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    assert tile(s, "K10") == ("orange", 1, True)
    play(s, "place 2 at K13")
    assert tile(s, "K13") == ("orange", 2, True)
    assert tile(s, "K10") == ("orange", 1, False)  # muted, still there
    snap = {t["cell"]: t for t in s.snapshot()["tiles"]}
    assert snap["K10"]["active"] is False and snap["K13"]["active"] is True
    rejects(s, "magenta", "place A20", "GM4-OPEN")


@pytest.mark.rules("GM4-SCORE")
def test_scores_start_at_zero_and_become_the_placed_number() -> None:
    s = new()
    assert s.score == {"orange": 0, "magenta": 0, "lime": 0, "aqua": 0}
    opening(s, "K10", "A20", "T20", "T1")
    assert set(s.score.values()) == {1}
    ev = play(s, "K13")
    assert s.score["orange"] == 2 and ev[0].data["number"] == 2
    assert "GM4-SCORE" in ev[0].data["also"]


@pytest.mark.rules("GM4-FIRST")
def test_first_turn_is_tile_1_on_any_open_cell() -> None:
    s = new()
    assert len(s.legal_actions("orange")) == 400
    assert {str(a).split(" at ")[0] for a in s.legal_actions("orange")} == {"place 1"}
    rejects(s, "orange", "place 2 at K10", "GM4-FIRST")
    ev = play(s, "place T20")  # a corner is fine
    assert ev[0].rule == "GM4-FIRST" and tile(s, "T20") == ("orange", 1, True)
    assert len(s.legal_actions("magenta")) == 399


@pytest.mark.rules("GM4-NEXT")
def test_later_turns_place_the_next_tile_in_sequence() -> None:
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    assert {a.number for a in s.legal_actions("orange")} == {2}  # type: ignore[attr-defined]
    err = rejects(s, "orange", "place 5 at K13", "GM4-NEXT")
    assert "next tile is 2" in err.reason
    play(s, "K13")  # the number may be left out: it is always the next tile
    assert tile(s, "K13") == ("orange", 2, True)
    play(s, "place 2 at A17", "place 2 at Q20", "place 2 at T4", "place 3 at K16")
    assert tile(s, "K16") == ("orange", 3, True)


@pytest.mark.rules("GM4-OPEN")
def test_tiles_go_only_on_open_cells() -> None:
    s = new()
    opening(s, "K10")
    err = rejects(s, "magenta", "place K10", "GM4-OPEN")
    assert "orange 1 at K10" in err.reason
    play(s, "K13", "T20", "T1")  # magenta sits on K13, one of orange's move cells
    assert "K13" not in cells(s, "orange")
    rejects(s, "orange", "place K13", "GM4-OPEN")


@pytest.mark.rules("GM4-MOVE")
def test_a_move_is_exactly_3_orthogonally_or_2_diagonally() -> None:
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    assert cells(s, "orange") == K10_MOVES
    for near in ("K12", "K11", "L11", "N13", "K14", "J10", "M10", "L12"):
        err = rejects(s, "orange", f"place {near}", "GM4-MOVE")
        assert "exactly 3 cells" in err.reason and "(K10)" in err.reason
    assert play(s, "K7")[0].rule == "GM4-MOVE"


@pytest.mark.rules("GM4-EDGE")
def test_edges_cut_moves_and_shared_cells_count_once() -> None:
    s = new()
    opening(s, "A1", "T20", "T1", "A20")
    assert cells(s, "orange") == ["D1", "C3", "A4"]
    # two active tiles whose moves overlap: magenta gets a second active tile in a free round
    s = new()
    opening(s, "A1", "A4", "D1", "C3")  # orange is blocked at once (all three of its moves are taken)
    play(s, "place 2 at D7", "place 2 at T20", "place 2 at T1")
    assert sorted(s.actives["magenta"]) == sorted(s.geo.index[c] for c in ("A4", "D7"))
    got = cells(s, "magenta")
    assert len(got) == len(set(got)) == 10  # A4: C2 D4 C6 A7; D7: D4 A7 B5 F5 B9 F9 G7 D10 -> D4, A7 once
    assert {"D4", "A7"} <= set(got)


@pytest.mark.rules("GM4-DEACTIVATE")
def test_a_move_deactivates_every_active_tile_one_move_from_the_new_tile() -> None:
    s = new()
    opening(s, "K10", "N13", "A20", "T1")
    ev = play(s, "K13")  # N13 is exactly 3 right of K13; K10 is the tile built on
    assert tile(s, "K10") == ("orange", 1, False)
    assert tile(s, "N13") == ("magenta", 1, False)
    (deact,) = [e for e in ev if e.kind == "deactivated"]
    assert deact.rule == "GM4-DEACTIVATE" and set(deact.data["cells"]) == {"K10", "N13"}
    assert s.snapshot()["last"]["deactivated"] == ["orange 1 at K10", "magenta 1 at N13"]


@pytest.mark.rules("GM4-BLOCKED")
def test_a_player_with_no_legal_move_is_blocked_and_removed() -> None:
    s = new()
    opening(s, "K10", "N13", "A20", "T1")
    ev = play(s, "K13")  # magenta's only active tile went inactive: no move left
    assert "blocked" in kinds(ev)
    (blk,) = [e for e in ev if e.kind == "blocked"]
    assert blk.rule == "GM4-BLOCKED" and blk.data["seat"] == "magenta"
    assert s.blocked == ["magenta"] and "magenta" not in s.in_play
    assert "magenta" not in s.to_act()
    err = rejects(s, "magenta", "place N16", "GM4-BLOCKED")
    assert "blocked" in err.reason
    assert s.snapshot()["players"][1]["status"] == "blocked"


@pytest.mark.rules("GM4-FREE")
def test_after_a_block_each_player_places_a_tile_anywhere_then_play_resumes() -> None:
    s = new()
    ev = opening(s, "A1", "A4", "D1", "C3")
    (free,) = [e for e in ev if e.kind == "free_round"]
    assert free.rule == "GM4-FREE"
    assert s.phase == "free" and s.free_queue == ["magenta", "lime", "aqua"]
    assert len(s.legal_actions("magenta")) == s.open_cells == 396
    ev = play(s, "place 2 at K10", "place 2 at K20", "place 2 at T10")
    assert [e.rule for e in ev if e.kind == "placed"] == ["GM4-FREE"] * 3
    assert s.phase == "play" and s.to_act() == ("magenta",)
    rejects(s, "magenta", "place 3 at Q15", "GM4-MOVE")  # normal moves again


@pytest.mark.rules("GM4-WIN-TILE")
def test_placing_tile_100_wins() -> None:
    s = new()
    seed = 0
    from gm.games.gridmaster4.bots import play_out

    bots = {seat: GAME.make_bot("random", seed=i) for i, seat in enumerate(GAME.seats)}
    while True:  # a seeded random game that runs to tile 100
        s = new(seed)
        out = play_out(s, bots)
        if out.rule == "GM4-WIN-TILE":
            break
        seed += 1
    assert s.score[out.winner or ""] == 100 and s.last["number"] == 100
    assert out.reason == "placed tile 100"
    assert all(score < 100 for seat, score in s.score.items() if seat != out.winner)
    assert s.to_act() == () and not any(s.legal_actions(seat) for seat in GAME.seats)
    short = new(players=2, winning_tile=3)
    opening(short, "K10", "A1")
    ev = play(short, "K13", "D1", "K16")
    assert short.outcome is not None and short.outcome.winner == "orange" and short.outcome.rule == "GM4-WIN-TILE"
    assert ev[-1].kind == "game_over"


@pytest.mark.rules("GM4-WIN-BLOCKED")
def test_when_all_are_blocked_the_largest_tile_wins() -> None:
    s = new(players=2, columns=3, rows=1)
    opening(s, "A1", "B1")  # orange has no move on a 3x1 board: blocked
    play(s, "place 2 at C1")  # magenta's free tile, then magenta is blocked too
    assert s.outcome is not None
    assert s.outcome.winner == "magenta" and s.outcome.rule == "GM4-WIN-BLOCKED"
    assert s.outcome.score == {"orange": 1, "magenta": 2}
    assert s.blocked == ["orange", "magenta"]


@pytest.mark.rules("GM4-SYNTAX")
def test_an_unreadable_action_is_rejected_with_the_forms() -> None:
    s = new()
    for text in ("fly to the moon", "", "   ", "place", "K", "37", "place K12 L13", "place 3 4 at K12"):
        err = rejects(s, "orange", text, "GM4-SYNTAX", InvalidActionError)
        assert "place 37 at K12" in err.legal
