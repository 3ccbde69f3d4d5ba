"""Quarter Back movement: allowances, occupied squares, jumping, diagonals, adjacency, the turn."""

from __future__ import annotations

from qb_helpers import at, game, pins, rejected, rules_of, side


@pins("QB-MOVE-SINGLE")
def test_single_moves_one_square_in_any_direction() -> None:
    s = game(side("E-2", s=("C0",)), side(t=("H8",)))
    s.apply("red", "move S1 C0-B-1")
    assert at(s, "red", "S1") == "B-1"
    s2 = game(side("E-2", s=("C0",)), side(t=("H8",)))
    rejected(s2, "red", "move S1 C0-C2", "QB-MOVE-SINGLE")


@pins("QB-MOVE-DOUBLE")
def test_double_moves_one_or_two_squares() -> None:
    s = game(side("E-2", d=("C0", "G0")), side(t=("H8",)))
    rejected(s, "red", "move D1 C0-C3", "QB-MOVE-DOUBLE")
    s.apply("red", "move D1 C0-C-1")  # one square "and then if wanted another": the second is optional
    s.apply("red", "move D1 C-1-D-2")  # the same sequence goes on
    rejected(s, "red", "move D1 D-2-E-2", "QB-MOVE-DOUBLE")
    assert at(s, "red", "D1") == "D-2"


@pins("QB-MOVE-TRIPLE")
def test_triple_moves_up_to_three_squares() -> None:
    s = game(side("E-2", t=("A0",)), side(t=("H8",)))
    rejected(s, "red", "move T1 A0-A4", "QB-MOVE-TRIPLE")
    s.apply("red", "move T1 A0-A2-B3")
    assert at(s, "red", "T1") == "B3"


@pins("QB-MOVE-QB", "QB-LOS")
def test_quarterback_behind_the_line_moves_as_a_triple() -> None:
    s = game(side("E-2"), side(t=("H8",)))
    rejected(s, "red", "move QB E-2-E2", "QB-MOVE-QB")
    s.apply("red", "move QB E-2-E1")
    assert at(s, "red", "QB") == "E1"


@pins("QB-MOVE-QB")
def test_quarterback_over_the_line_has_one_more_square() -> None:
    s = game(side("E1"), side(t=("A8",)))
    rejected(s, "red", "move QB E1-E6", "QB-MOVE-QB")
    s.apply("red", "move QB E1-E5")
    assert at(s, "red", "QB") == "E5"


@pins("QB-MOVE-QB")
def test_quarterback_allowance_depends_on_where_it_starts() -> None:
    # starting on row 2 it may move 4 squares even though it ends behind the line
    s = game(side("E2"), side(t=("A8",)))
    s.apply("red", "move QB E2-E-2")
    assert at(s, "red", "QB") == "E-2"
    # starting on row 0 (behind the line) only 3, even though it ends over the line
    s = game(side("E0"), side(t=("A8",)))
    rejected(s, "red", "move QB E0-E4", "QB-MOVE-QB")


@pins("QB-OCCUPIED")
def test_no_moving_onto_an_occupied_square() -> None:
    s = game(side("E-2", s=("C4",), t=("C3",)), side(t=("H8",)))
    err = rejected(s, "red", "move T1 C3-C4", "QB-OCCUPIED")
    assert "S1" in err.reason


@pins("QB-JUMP")
def test_no_jumping_over_a_piece() -> None:
    s = game(side("E-2", s=("C4",), t=("C3",)), side(t=("H8",)))
    rejected(s, "red", "move T1 C3-C5", "QB-JUMP")
    # going round is fine
    s.apply("red", "move T1 C3-B4-C5")
    assert at(s, "red", "T1") == "C5"


@pins("QB-DIAGONAL", "QB-STRENGTH")
def test_diagonal_blocked_by_equal_or_greater_strength() -> None:
    # a Triple (1) can't move diagonally past a defending Triple (1)
    s = game(side("E-2", t=("C3",)), side(t=("C4",)))
    rejected(s, "red", "move T1 C3-D4", "QB-DIAGONAL")
    # nor past a Double (2)
    s = game(side("E1", t=("C3",)), side(d=("D3",)))
    rejected(s, "red", "move T1 C3-D4", "QB-DIAGONAL")
    # a Double (2) may move diagonally past a Triple (1)
    s = game(side("E-2", d=("C3",)), side(t=("C4",)))
    s.apply("red", "move D1 C3-D4")
    assert at(s, "red", "D1") == "D4"
    # a Single (3) can't move diagonally past a Single (3)
    s = game(side("E-2", s=("C0",)), side(s=("C1",)))
    rejected(s, "red", "move S1 C0-D1", "QB-DIAGONAL")


@pins("QB-R-DIAGONAL")
def test_diagonal_ruling_either_side_square_and_only_opposition() -> None:
    # the blocker may be on either of the two squares the diagonal step passes
    s = game(side("E-2", t=("C3",)), side(t=("D3",)))
    rejected(s, "red", "move T1 C3-D4", "QB-DIAGONAL")
    # the mover's own pieces never block it
    s = game(side("E-2", s=("C4",), t=("C3",)), side(t=("H8",)))
    s.apply("red", "move T1 C3-D4")
    assert at(s, "red", "T1") == "D4"


@pins("QB-ADJACENT")
def test_triple_and_quarterback_never_next_to_an_opposition_single() -> None:
    s = game(side("E-2", t=("C3",)), side(s=("E1",)))
    rejected(s, "red", "move T1 C3-D2", "QB-ADJACENT")
    s.apply("red", "move T1 C3-D3")  # two squares from the Single: fine
    s = game(side("C-1"), side(s=("E1",)))
    rejected(s, "red", "move QB C-1-D0", "QB-ADJACENT")


@pins("QB-R-ADJACENT")
def test_adjacency_ruling_own_singles_do_not_count() -> None:
    s = game(side("E-2", s=("D4",), t=("C3",)), side(t=("H8",)))
    s.apply("red", "move T1 C3-C4")  # next to its own Single
    assert at(s, "red", "T1") == "C4"
    # diagonal neighbours count as adjacent
    s = game(side("E-2", t=("C3",)), side(s=("E1",)))
    rejected(s, "red", "move T1 C3-D3-D2", "QB-ADJACENT")


@pins("QB-TURN")
def test_attacker_moves_at_most_two_pieces() -> None:
    s = game(side("E-2", s=("C0",), d=("G0",), t=("A0",)), side(t=("H8",)))
    s.apply("red", "move S1 C0-C-1")
    s.apply("red", "move D1 G0-G-1")  # one of its two squares
    rejected(s, "red", "move T1 A0-A1", "QB-TURN")
    rejected(s, "red", "pass to E-1", "QB-TURN")  # "the only time he can move two pieces is when he doesn't pass"
    s.apply("red", "move D1 G-1-G-2")  # but D1 may finish its own move
    assert s.phase == "defend"


@pins("QB-TURN")
def test_move_and_pass_or_pass_and_move_or_two_passes() -> None:
    s = game(side("E-2", t=("A-2", "I-2")), side(t=("H8",)))
    s.apply("red", "move T1 A-2-B-2")
    s.apply("red", "pass to B-2")
    rejected(s, "red", "move T2 I-2-I-1", "QB-TURN")
    s = game(side("E-2", t=("A-2", "I-2")), side(t=("H8",)))
    s.apply("red", "pass to I-2")
    s.apply("red", "move T1 A-2-A-1")
    s = game(side("E-2", t=("A-2", "I-2")), side(t=("H8",)))
    s.apply("red", "pass to I-2")
    ev = s.apply("red", "pass to E-2")  # T2 passes it straight back
    assert s.phase == "defend" and "QB-R-END" in rules_of(ev)


@pins("QB-SEQUENCE")
def test_a_piece_moves_in_one_uninterrupted_sequence() -> None:
    s = game(side("E-2", d=("G0",), t=("A0",)), side(t=("H8",)))
    s.apply("red", "move T1 A0-A1")
    s.apply("red", "move D1 G0-G-1")
    rejected(s, "red", "move T1 A1-A2", "QB-SEQUENCE")


@pins("QB-SEQUENCE")
def test_a_pass_does_not_interrupt_the_sequence() -> None:
    # the document's example: a Triple moves one square, the ball is passed, the Triple moves two more
    s = game(side("E-2", t=("A0",)), side(t=("H8",)))
    s.apply("red", "move T1 A0-A1")
    s.apply("red", "pass to E-1")
    s.apply("red", "move T1 A1-A3")
    assert at(s, "red", "T1") == "A3" and s.phase == "defend"


@pins("QB-R-END")
def test_end_turn_early_and_turn_ends_by_itself() -> None:
    s = game(side("E-2", d=("C0", "G0")), side(d=("C1",), t=("H8",)))
    s.apply("red", "end")  # nothing done at all
    assert s.phase == "defend" and s.to_act() == ("blue",)
    s.apply("blue", "move D1 C1-B1")
    s.apply("blue", "end")  # one piece only
    assert s.phase == "attack" and s.round == 2
    ev = s.apply("red", "move D1 C0-C-2")
    ev = s.apply("red", "move D2 G0-G-2")  # two full moves: nothing is left
    assert "QB-R-END" in rules_of(ev) and s.phase == "defend"


@pins("QB-R-DEFENSE-TURN")
def test_defender_moves_up_to_two_pieces() -> None:
    s = game(side("E-2"), side(s=("C1",), d=("G1",), t=("H8",)))
    s.apply("red", "end")
    s.apply("blue", "move S1 C1-B1")
    s.apply("blue", "move D1 G1-H1")
    rejected(s, "blue", "move T1 H8-H7", "QB-R-DEFENSE-TURN")
    rejected(s, "blue", "pass to H7", "QB-R-DEFENSE-TURN")
    s.apply("blue", "move D1 H1-I1")
    assert s.phase == "attack"


@pins("QB-R-BOARD")
def test_off_the_board() -> None:
    s = game(side("E-2", t=("A0",)), side(t=("H8",)))
    rejected(s, "red", "move T1 A0-A-3", "QB-R-BOARD")
    rejected(s, "red", "move QB J0", "QB-R-BOARD")
    r = s.rules
    assert (r.columns, r.field_rows, r.back_rows) == (9, 12, 2)
