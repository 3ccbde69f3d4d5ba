"""Action text and JSON forms, the tolerant parser, the tools and the registry entry."""

from __future__ import annotations

import json

import pytest
from gm4_helpers import GAME, new, opening, play
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.core.errors import InvalidActionError
from gm.core.registry import find_game
from gm.core.tools import call_for_action, parse_args, tool_index
from gm.games.gridmaster4.actions import Place, parse_action

NATURAL = [
    ("place 37 at K12", Place("K12", 37)),
    ("place K12", Place("K12")),
    ("K12", Place("K12")),
    ("k12", Place("K12")),
    ("place at k12", Place("K12")),
    ("tile on K12", Place("K12")),
    ("12 K", Place("K12")),
    ("12K", Place("K12")),
    ("K 12", Place("K12")),
    ("K-12", Place("K12")),
    ("(K, 12)", Place("K12")),
    ("37 K12", Place("K12", 37)),
    ("K12 37", Place("K12", 37)),
    ("37 at 12 K", Place("K12", 37)),
    ("put tile #37 on K12", Place("K12", 37)),
    ("tile 37 on K12", Place("K12", 37)),
    ("number 37 at K12", Place("K12", 37)),
    ("I place my 37th tile on K12.", Place("K12", 37)),
    ("place a tile at K 12", Place("K12")),
    ("place at A 5", Place("A5")),
    ("place a 5", Place("A5")),
    ("I 5", Place("I5")),
    ("I put it on I5", Place("I5")),
    ("row 12 column K", Place("K12")),
    ("column K, row 12", Place("K12")),
    ("place tile one at B2", Place("B2", 1)),
    ("Orange places 2 at T20!", Place("T20", 2)),
    ("Move to n13", Place("N13")),
    ("how about K12?", Place("K12")),
    ("K12 I think", Place("K12")),
    ("I'd like D 5", Place("D5")),
    ("I'm going with M12", Place("M12")),
    ("ok, maybe J9", Place("J9")),
]


@pytest.mark.rules("GM4-SYNTAX")
@pytest.mark.parametrize(("text", "action"), NATURAL, ids=[t for t, _ in NATURAL])
def test_the_parser_reads_natural_placements(text: str, action: Place) -> None:
    assert parse_action(text) == action
    assert GAME.parse_action(text) == action


@pytest.mark.rules("GM4-SYNTAX")
@pytest.mark.parametrize(
    "text", ["", "place", "K", "37", "place K12 L13", "place 3 4 at K12", "row 12", "column K", "K12 row 3 column B", "hello"]
)
def test_the_parser_rejects_what_names_no_single_cell(text: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        parse_action(text)
    assert info.value.rule == "GM4-SYNTAX" and info.value.input == text
    assert "place 37 at K12" in info.value.legal


@pytest.mark.rules("GM4-SYNTAX")
def test_a_bare_cell_reads_as_the_players_words_do() -> None:
    """A bare cell (what the place_tile tool passes) takes a fast path: the same placement, for every
    cell name, as reading it as a player's words gives."""
    from gm.games.gridmaster4.actions import _parse_words
    from gm.games.gridmaster4.grid import CANONICAL

    assert len(CANONICAL) == 26 * 99
    for cell in CANONICAL:
        a = parse_action(cell)
        assert a == _parse_words(cell) == Place(cell) and str(a) == f"place {cell}"


@pytest.mark.rules("GM4-SYNTAX")
def test_text_form_round_trips() -> None:
    for a in (Place("K12", 37), Place("A1"), Place("t20", 100)):
        assert parse_action(str(a)) == a
    assert str(Place("k12", 37)) == "place 37 at K12" and str(Place("K12")) == "place K12"


@pytest.mark.rules("GM4-SYNTAX")
def test_json_form_round_trips_and_bad_json_is_invalid() -> None:
    a = Place("K12", 37)
    assert a.to_json() == {"type": "place", "cell": "K12", "number": 37}
    assert GAME.action_from_json(json.loads(json.dumps(a.to_json()))) == a
    assert GAME.action_from_json({"type": "place", "cell": "K12"}) == Place("K12")
    for bad in ({"type": "place", "cell": "K12", "number": 0}, {"type": "place", "cell": "K12", "number": True},
                {"type": "place", "cell": ["K12"]}, {"type": "place"}, {"type": "move", "cell": "K12"},
                {"type": "place", "cell": "K12", "colour": "red"}):
        with pytest.raises(InvalidActionError):
            GAME.action_from_json(bad)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=40))
def test_the_parser_never_raises_anything_but_invalid_action(text: str) -> None:
    try:
        a = parse_action(text)
    except InvalidActionError:
        return
    assert isinstance(a, Place) and parse_action(str(a)) == a


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 25), st.integers(1, 99), st.one_of(st.none(), st.integers(1, 999)))
def test_every_cell_and_number_round_trips(col: int, row: int, number: int | None) -> None:
    a = Place(f"{chr(ord('A') + col)}{row}", number)
    assert parse_action(str(a)) == a
    assert GAME.action_from_json(a.to_json()) == a


def test_registered_under_its_id_and_aliases() -> None:
    for name in ("gridmaster4", "GridMaster4", "gm4", "grid master 4", "grid_master_4", "gridmaster"):
        assert find_game(name) is GAME
    assert GAME.id == "gridmaster4" and GAME.name == "GridMaster4"


# ------------------------------------------------------------------------ tools
def test_tools_are_the_generic_queries_plus_place_tile_and_get_cell() -> None:
    names = [t.name for t in GAME.tools()]
    assert names == ["get_board", "get_status", "legal_actions", "get_rules", "place_tile", "get_cell"]
    (place,) = [t for t in GAME.action_tools() if t.kind == "action"]
    assert place.decisions == ("place_tile",) and place.produces == "place"


def test_place_tile_makes_placements_and_converts_back() -> None:
    tools = tool_index(GAME.tools())
    s = new()
    spec = tools["place_tile"]
    assert spec.handler(s, "orange", parse_args(spec, {"cell": "k12"})) == Place("K12")
    assert spec.handler(s, "orange", parse_args(spec, '{"cell": "12 K", "number": 1}')) == Place("K12", 1)
    assert spec.handler(s, "orange", parse_args(spec, {"cell": "K12", "number": None})) == Place("K12")
    assert call_for_action(GAME.tools(), Place("K12", 1)) == ("place_tile", {"cell": "K12", "number": 1})
    for bad in ({"cell": 12}, {"cell": "K12", "number": "1"}, {"cell": "K12", "number": 0}, {"square": "K12"}, {}):
        with pytest.raises(InvalidActionError) as info:
            parse_args(spec, bad)
        assert info.value.rule == "CORE-ARGS"
    with pytest.raises(InvalidActionError) as info2:
        spec.handler(s, "orange", parse_args(spec, {"cell": "somewhere"}))
    assert info2.value.rule == "GM4-SYNTAX"


def test_get_cell_reports_the_tile_its_moves_and_whether_the_caller_may_place() -> None:
    tools = tool_index(GAME.tools())
    spec = tools["get_cell"]
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    out = spec.handler(s, "orange", parse_args(spec, {"cell": "k10"}))
    assert out["tile"] == {"seat": "orange", "number": 1, "active": True}
    assert out["one_move_away"] == ["K7", "I8", "M8", "H10", "N10", "I12", "M12", "K13"]
    assert out["you_can_place_here"] is False and "GM4-OPEN" in out["why_not"]
    assert spec.handler(s, "orange", parse_args(spec, {"cell": "K13"}))["you_can_place_here"] is True
    far = spec.handler(s, "orange", parse_args(spec, {"cell": "B2"}))
    assert far["tile"] is None and "GM4-MOVE" in far["why_not"]
    assert "you_can_place_here" not in spec.handler(s, "lime", parse_args(spec, {"cell": "B2"}))
    assert spec.handler(s, None, parse_args(spec, {"cell": "Z9"}))["on_board"] is False


def test_generic_queries_work_for_four_seats() -> None:
    tools = tool_index(GAME.tools())
    s = new()
    opening(s, "K10", "A20", "T20", "T1")
    legal = tools["legal_actions"].handler(s, "orange", parse_args(tools["legal_actions"], {}))
    assert legal["decision"] == "place_tile" and legal["to_act"] == ["orange"]
    assert legal["legal"] == [f"place 2 at {c}" for c in ("K7", "I8", "M8", "H10", "N10", "I12", "M12", "K13")]
    assert tools["legal_actions"].handler(s, "lime", parse_args(tools["legal_actions"], {}))["legal"] == []
    board = tools["get_board"].handler(s, "lime", parse_args(tools["get_board"], {"full": True}))
    assert "lime can place 2 (if it were its turn now)" in board["board"]
    status = tools["get_status"].handler(s, "aqua", parse_args(tools["get_status"], {}))
    assert status["state"]["you"]["seat"] == "aqua"
    from gm.core.token import encode_state, settled, state_from_token

    assert settled(s) == (s, 0)  # no secret picks: a token keeps every move
    assert state_from_token(encode_state(s)).snapshot() == s.snapshot()
    rules = tools["get_rules"].handler(s, None, parse_args(tools["get_rules"], {"topic": "blocked"}))
    assert "GM4-BLOCKED" in rules["rules"]


def test_views_show_everything_to_everyone() -> None:
    s = new()
    opening(s, "K10", "N13", "A20", "T1")
    play(s, "K13")
    snap = s.snapshot()
    assert s.view(None) == snap  # a spectator sees the snapshot: nothing is hidden
    for seat in GAME.seats:
        v = s.view(seat)
        you = v.pop("you")
        assert v == snap and you["seat"] == seat
    assert s.free_queue == ["lime", "aqua", "orange"]  # magenta was blocked: free placements
    assert s.view("orange")["you"] == {"seat": "orange", "to_act": False, "next_tile": 3, "cells": "any open cell"}
    assert s.view("lime")["you"] == {"seat": "lime", "to_act": True, "next_tile": 2, "cells": "any open cell"}
    play(s, "A1", "T10", "A10")
    assert s.view("lime")["you"]["cells"] == ["D1", "C3", "A4", "A17", "C18", "D20"]  # A1 and A20 both active
    assert s.view("magenta")["you"]["next_tile"] is None  # blocked
