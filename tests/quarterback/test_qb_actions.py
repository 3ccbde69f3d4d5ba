"""Quarter Back actions, notation, tools and views."""

from __future__ import annotations

import json

import pytest
from qb_helpers import G, at, game, pins, rejected, side

from gm.core import InvalidActionError
from gm.core.tools import call_for_action, expected, parse_args
from gm.games.quarterback.actions import EndTurn, MovePiece, PassBall


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("move T1 C3-C5", "move T1 C3-C5"),
        ("move QB E-2-D-1-C-1", "move QB E-2-D-1-C-1"),
        ("Move T1 from C3 to C5", "move T1 C3-C5"),
        ("T1 to c5", "move T1 C5"),
        ("t1: c3 -> c4 -> d5", "move T1 C3-C4-D5"),
        ("move the quarterback to E1", "move QB E1"),
        ("Quarter back e-2 to e1", "move QB E-2-E1"),
        ("move triple 2 to H5.", "move T2 H5"),
        ("double one C0 C2", "move D1 C0-C2"),
        ("single2 d0-d-1", "move S2 D0-D-1"),
        ("pass to E7", "pass to E7"),
        ("pass the ball to e7", "pass to E7"),
        ("QB throws to E7!", "pass to E7"),
        ("end", "end"),
        ("End my turn.", "end"),
        ("done", "end"),
        ("pass turn", "end"),
        ("D1 to D2 via C1", "move D1 C1-D2"),
        ("D1 from C0 to D2 via C1", "move D1 C0-C1-D2"),
        ("move T1 through A1 to A3", "move T1 A1-A3"),
        ("the first double to C1", "move D1 C1"),
        ("second triple to H5", "move T2 H5"),
        ("S1 takes D1", "move S1 D1"),
        ("tackle with d1 on E3", "move D1 E3"),
        ("QB to E minus 1", "move QB E-1"),
        ("QB E\u22121", "move QB E-1"),
        ("pass to D2 (the double)", "pass to D2"),
        ("hand off to D2", "pass to D2"),
        ("throw it back to C-2", "pass to C-2"),
        ("move S1 forward to D1", "move S1 D1"),
        ("throw it to the receiver on E7", "pass to E7"),
        ("I'm done", "end"),
        ("that's it", "end"),
        ("no more moves", "end"),
    ],
)
@pins("QB-R-NOTATION")
def test_parse_natural_phrasings(text: str, canonical: str) -> None:
    action = G.parse_action(text)
    assert str(action) == canonical
    assert G.parse_action(str(action)) == action
    assert G.action_from_json(json.loads(json.dumps(action.to_json()))) == action


@pytest.mark.parametrize("text", ["", "   ", "move C3-C5", "pass", "move T1", "move T1 to the moon", "move X1 C3", "fly away"])
@pins("QB-R-NOTATION")
def test_parse_rejects_with_the_notation_rule(text: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        G.parse_action(text)
    assert info.value.rule == "QB-R-NOTATION" and info.value.legal


@pytest.mark.parametrize(
    ("seat", "text", "canonical"),
    [
        # red attacks up the board: forward is toward row 12, left toward column A
        ("red", "S2 forward", "move S2 E0-E1"),
        ("red", "move T1 2 forward 1 right", "move T1 A0-A2-B2"),
        ("red", "T1 forward 2 then right", "move T1 A0-A2-B2"),
        ("red", "the quarterback forward-left", "move QB E-2-D-1"),
        ("red", "QB 2 forward left", "move QB E-2-C0"),
        ("red", "D2 back", "move D2 G0-G-1"),
        ("red", "T2 forward twice", "move T2 I0-I2"),
        # blue defends facing down the board: its forward is toward row 0, its left toward column I
        ("blue", "S2 forward", "move S2 E1-E0"),
        ("blue", "T1 forward left", "move T1 B4-C3"),
        ("blue", "triple 2 back 2", "move T2 H4-H6"),
        ("blue", "D1 right", "move D1 C1-B1"),
        # a named square decides: the direction words are only how it goes
        ("red", "move S1 forward to D1", "move S1 D1"),
    ],
)
@pins("QB-R-NOTATION")
def test_directions_are_read_for_the_side_that_moves(seat: str, text: str, canonical: str) -> None:
    s = G.new_state({"first_attacker": "red"})
    if seat == "blue":
        s.apply("red", "end")
    assert s.to_act() == (seat,)
    assert str(s.parse_action(text)) == canonical


@pins("QB-R-NOTATION", "QB-R-BOARD")
def test_directions_need_the_side_on_turn_and_the_board() -> None:
    with pytest.raises(InvalidActionError) as info:
        G.parse_action("S2 forward")  # without a state: which way is forward?
    assert info.value.rule == "QB-R-NOTATION" and "moving side's own direction" in info.value.reason
    s = G.new_state({"first_attacker": "red"})
    with pytest.raises(InvalidActionError) as info:
        s.parse_action("T1 left")  # A0: the board ends on red's left
    assert info.value.rule == "QB-R-BOARD"
    assert info.value.reason == "T1 on A0 would leave the board going left: name the squares of its route instead"
    with pytest.raises(InvalidActionError) as info:
        s.parse_action("T9 forward")
    assert info.value.rule == "QB-R-NOTATION" and "red has no piece T9" in info.value.reason
    rejected(s, "red", "S2 forward", "QB-PUSH")  # read, then judged: a Single can't push a Single
    s.apply("red", "T1 forward 3")
    assert at(s, "red", "T1") == "A3"


def test_json_forms() -> None:
    assert MovePiece("t1", "c5", ("c3",)).to_json() == {"type": "move", "piece": "T1", "to": "C5", "via": ("C3",)}
    assert G.action_from_json({"type": "move", "piece": "T1", "to": "C5", "via": ["C3"]}) == MovePiece("T1", "C5", ("C3",))
    assert G.action_from_json({"type": "pass", "to": "e7"}) == PassBall("E7")
    assert G.action_from_json({"type": "end"}) == EndTurn()
    with pytest.raises(InvalidActionError):
        G.action_from_json({"type": "move", "piece": "T1", "to": "C55x"})


@pins("QB-R-NOTATION")
def test_bare_destination_routes_and_bad_paths() -> None:
    s = game(side("E-2", s=("C4",), t=("C3",)), side(t=("H8",)))
    s.apply("red", "move T1 C5")  # the straight way jumps S1: the engine goes round
    assert at(s, "red", "T1") == "C5"
    s = game(side("E-2", t=("A0",)), side(t=("H8",)))
    s.apply("red", "move T1 B2")  # not a straight line: the first legal route
    assert at(s, "red", "T1") == "B2"
    s = game(side("E-2", t=("A0",)), side(t=("H8",)))
    rejected(s, "red", "move T1 A0-B2", "QB-R-NOTATION")  # a named leg must be straight
    rejected(s, "red", "move T1 A0", "QB-R-NOTATION")
    rejected(s, "red", "move T9 A1", "QB-R-NOTATION")
    rejected(s, "red", "move T1 A5", "QB-MOVE-TRIPLE")
    err = rejected(s, "red", "move T1 A0-A4", "QB-MOVE-TRIPLE")
    assert any(x.startswith("move T1 A0-A3") for x in err.legal) and "end" in err.legal


def test_action_tools_make_the_actions() -> None:
    tools = {t.name: t for t in G.action_tools()}
    assert set(tools) == {"move_piece", "pass_ball", "end_turn"}
    assert tools["pass_ball"].decisions == ("attacker_turn",)
    assert set(tools["move_piece"].decisions) == {"attacker_turn", "defender_turn"}
    s = G.new_state({"first_attacker": "red"})
    args = parse_args(tools["move_piece"], {"piece": "qb", "to": "E-1"})
    assert tools["move_piece"].handler(s, "red", args) == MovePiece("QB", "E-1")
    args = parse_args(tools["move_piece"], '{"piece": "T1", "to": "A3", "via": ["A0"]}')
    assert tools["move_piece"].handler(s, "red", args) == MovePiece("T1", "A3", ("A0",))
    args = parse_args(tools["pass_ball"], {"to": "e-1"})
    assert tools["pass_ball"].handler(s, "red", args) == PassBall("E-1")
    assert tools["end_turn"].handler(s, "red", parse_args(tools["end_turn"], None)) == EndTurn()
    with pytest.raises(InvalidActionError):
        parse_args(tools["move_piece"], {"piece": "T1", "to": "A3", "speed": 9})
    with pytest.raises(InvalidActionError):
        parse_args(tools["pass_ball"], {"to": "nowhere"})
    names = [t.name for t in G.tools()]
    assert names[:4] == ["get_board", "get_status", "legal_actions", "get_rules"] and "move_piece" in names


def test_every_legal_action_converts_to_a_tool_call_and_back() -> None:
    s = G.new_state({"first_attacker": "red"})
    tools = {t.name: t for t in G.action_tools()}
    for action in [*list(s.legal_actions("red")), PassBall("E-1"), EndTurn()]:
        name, args = call_for_action(tools.values(), action)
        assert tools[name].handler(s, "red", parse_args(tools[name], json.loads(json.dumps(args)))) == action
    assert [e["tools"] for e in expected(s, G.tools())] == [["move_piece", "pass_ball", "end_turn"]]
    s.apply("red", "end")
    assert [e["tools"] for e in expected(s, G.tools())] == [["move_piece", "end_turn"]]


def test_decisions_and_views_have_no_secrets() -> None:
    s = G.new_state({"first_attacker": "red"})
    assert (s.decision("red"), s.decision("blue")) == ("attacker_turn", None)
    s.apply("red", "end")
    assert (s.decision("red"), s.decision("blue")) == (None, "defender_turn")
    assert s.view("red") == s.view("blue") == s.view(None) == s.snapshot()
    assert list(s.legal_actions("red")) == []
    assert all(a.type == "move" for a in list(s.legal_actions("blue"))[:-1])
    assert str(list(s.legal_actions("blue"))[-1]) == "end"


def test_action_kinds_agree_with_the_legal_list_over_random_play() -> None:
    """The tool layer asks which kinds of action a seat has (to list the tools that answer now);
    Quarter Back answers without walking every route, and the answer is the legal list's."""
    import random

    from gm.core.registry import find_game

    game = find_game("quarterback")
    rng = random.Random(11)
    checked = 0
    for seed in range(6):
        st = game.new_state(None, seed)
        for _ in range(120):
            if st.is_terminal:
                break
            seat = st.to_act()[0]
            legal = st.legal_actions(seat).all()
            assert st.action_kinds(seat) == {a.type for a in legal}
            other = next(s for s in st.seats if s != seat)
            assert st.action_kinds(other) == set()
            st.apply(seat, rng.choice(legal))
            checked += 1
    assert checked > 300
