"""Events cite the rules that decided them (``rule`` plus ``also``), and only those:
what ``gm replay --coverage`` counts as a rule exercised."""

from __future__ import annotations

import pytest
from gm4_helpers import GAME, new, opening, play, rejects

from gm.core.errors import InvalidActionError
from gm.core.events import Event
from gm.games.gridmaster4.actions import Place

#: a whole 2-player game on a 4x4 board: orange is blocked, magenta plays on alone until blocked too
SMALL_GAME = ["A4", "B4", "C2", "B1", "B2", "D4", "D3", "A3", "D1", "C1", "C4", "A1", "A2", "C3", "D2"]


def cited(ev: Event) -> set[str]:
    return {ev.rule, *ev.data.get("also", ())}


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


@pytest.mark.rules("GM4-FIRST", "GM4-OPEN", "GM4-ACTIVE", "GM4-SCORE", "GM4-R-NO-DEACT-FREE")
def test_a_first_tile_cites_the_opening_rules_and_no_deactivation_only_when_it_mattered() -> None:
    s = new()
    ev = opening(s, "K10", "A20")
    assert cited(ev[0]) == {"GM4-FIRST", "GM4-OPEN", "GM4-ACTIVE", "GM4-SCORE"}
    assert "GM4-R-NO-DEACT-FREE" not in cited(ev[1])  # A20 is nowhere near K10
    ev = play(s, "place 1 at K13")  # one move from orange's K10, which stays active
    assert "GM4-R-NO-DEACT-FREE" in cited(ev[0])


@pytest.mark.rules("GM4-TURN", "GM4-PLAYERS", "GM4-R-SEATS")
def test_normal_play_begins_in_the_initial_order_orange_first() -> None:
    ev = opening(new(), "K10", "A20", "T20", "T1")
    begins = first(ev, "play_begins")
    assert cited(begins) == {"GM4-TURN", "GM4-PLAYERS", "GM4-R-SEATS"} and begins.data["seat"] == "orange"


@pytest.mark.rules("GM4-MOVE", "GM4-NEXT", "GM4-R-OWN-TILES", "GM4-EDGE")
def test_a_normal_move_cites_the_move_rules_and_the_edge_only_near_an_edge() -> None:
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    ev = play(s, "K13")
    assert cited(ev[0]) == {"GM4-MOVE", "GM4-OPEN", "GM4-ACTIVE", "GM4-SCORE", "GM4-NEXT", "GM4-R-OWN-TILES"}
    ev = play(s, "A17")  # magenta builds from A20, in the corner: 3 of its 8 moves are on the board
    assert "GM4-EDGE" in cited(ev[0])
    anyone = new(build_from="any")
    opening(anyone, "K10", "A20", "T20", "T1")
    assert "GM4-R-OWN-TILES" not in cited(play(anyone, "K13")[0])


@pytest.mark.rules("GM4-DEACTIVATE", "GM4-R-REACH", "GM4-R-DEACT-ANY", "GM4-R-INACTIVE-SHOW")
def test_deactivation_cites_the_other_colours_ruling_only_when_another_colour_went_inactive() -> None:
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    own = first(play(s, "K13"), "deactivated")
    assert cited(own) == {"GM4-DEACTIVATE", "GM4-R-REACH", "GM4-R-INACTIVE-SHOW"}
    assert own.data["shown"] == ["o1"]
    s = new()
    opening(s, "K10", "N13", "A20", "T1")
    both = first(play(s, "K13"), "deactivated")
    assert "GM4-R-DEACT-ANY" in cited(both) and both.data["shown"] == ["o1", "m1"]


@pytest.mark.rules("GM4-FREE", "GM4-R-FREE-TILE", "GM4-R-FREE-ORDER", "GM4-BLOCKED", "GM4-R-LAST")
def test_blocks_free_rounds_and_the_last_player_left() -> None:
    s = new(players=2)
    opening(s, "A1", "F6")
    ev = play(s, "D1", "F3")  # orange blocked: magenta is the last player left
    assert {"GM4-BLOCKED", "GM4-R-BLOCK-CHECK", "GM4-R-BLOCKED-TILES"} <= cited(first(ev, "blocked"))
    assert cited(first(ev, "free_round")) == {"GM4-FREE", "GM4-R-FREE-ORDER", "GM4-R-LAST"}
    ev = play(s, "place 3 at K10")
    assert {"GM4-FREE", "GM4-R-FREE-TILE", "GM4-NEXT", "GM4-R-LAST"} <= cited(ev[0])
    assert cited(first(ev, "play_resumes")) == {"GM4-R-FREE-ORDER", "GM4-FREE", "GM4-R-LAST"}
    four = new()
    ev = opening(four, "A1", "A4", "D1", "C3")  # orange blocked, three players left
    assert "GM4-R-LAST" not in cited(first(ev, "free_round"))


@pytest.mark.rules("GM4-WIN-BLOCKED", "GM4-R-TIE", "GM4-R-FULL")
def test_the_end_cites_the_largest_tile_rule_and_the_tie_break() -> None:
    s = new(players=2, columns=2, rows=1)
    ev = opening(s, "A1", "B1")  # orange blocked; magenta due a free tile on a full board: blocked too
    over = first(ev, "game_over")
    assert cited(over) == {"GM4-R-TIE", "GM4-WIN-BLOCKED"}  # magenta never played alone: no GM4-R-LAST
    s = new(players=2, columns=4, rows=4)
    ev = play(s, *(f"place {m}" for m in SMALL_GAME))
    over = first(ev, "game_over")
    assert over.rule == "GM4-WIN-BLOCKED" and cited(over) == {"GM4-WIN-BLOCKED", "GM4-R-LAST"}
    assert s.outcome is not None and s.outcome.winner == "magenta" and s.blocked == ["orange", "magenta"]


@pytest.mark.rules("GM4-WIN-TILE")
def test_winning_alone_cites_the_last_player_ruling() -> None:
    s = new(players=2, winning_tile=4)
    opening(s, "A1", "F6")
    play(s, "D1", "F3", "place 3 at K10")
    ev = play(s, "K13")
    over = first(ev, "game_over")
    assert over.rule == "GM4-WIN-TILE" and "GM4-R-LAST" in cited(over)


@pytest.mark.rules("GM4-R-CELLS", "GM4-SYNTAX")
def test_coordinates_as_two_numbers_break_the_cell_naming_ruling() -> None:
    s = new()
    for text in ("place at 11, 12", "11 12", "(11,12)"):
        rejects(s, "orange", text, "GM4-R-CELLS", InvalidActionError)
    rejects(s, "orange", "place K", "GM4-SYNTAX", InvalidActionError)
    assert GAME.parse_action("place 37 at K12") == Place(cell="K12", number=37)  # the named form is the one read
