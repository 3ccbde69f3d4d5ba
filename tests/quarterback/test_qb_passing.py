"""Quarter Back passing: lines, forward passes, loose balls, interceptions, picking up."""

from __future__ import annotations

from qb_helpers import at, game, pins, rejected, rules_of, side, texts


@pins("QB-PASS")
def test_pass_along_a_line_to_a_receiver_passer_stays() -> None:
    s = game(side("E-2", t=("H1",)), side(t=("A8",)))
    ev = s.apply("red", "pass to H1")  # the diagonal E-2, F-1, G0, H1
    assert s.carrier == ("red", "T1") and at(s, "red", "QB") == "E-2"
    assert "passes from E-2 to T1 on H1" in texts(ev)
    s = game(side("E-2", t=("H1",)), side(t=("A8",)))
    rejected(s, "red", "pass to F0", "QB-PASS")  # not a row, column or diagonal
    err = rejected(s, "red", "pass to T1", "QB-R-BOARD")  # column T is off this board: a piece name?
    assert "pass to H1" in err.reason
    rejected(s, "red", "pass to E-2", "QB-PASS")


@pins("QB-PASS-FORWARD", "QB-LOS")
def test_only_the_quarterback_passes_forward_from_behind_the_line() -> None:
    s = game(side("E-2", t=("E0",)), side(t=("A8",)))
    s.apply("red", "pass to E0")
    rejected(s, "red", "pass to E3", "QB-PASS-FORWARD")  # a Triple may not pass forward
    s = game(side("E0", t=("E5",)), side(t=("A8",)))
    s.apply("red", "pass to E5")  # from row 0: behind the line
    s = game(side("E1", t=("E5",)), side(t=("A8",)))
    rejected(s, "red", "pass to E5", "QB-PASS-FORWARD")  # from row 1: over the line


@pins("QB-R-PASS")
def test_sideways_and_backward_passes_by_any_carrier_anywhere() -> None:
    s = game(side("E-2", t=("E3", "H3")), side(t=("A8",)))
    s.apply("red", "pass to E3")
    s.apply("red", "pass to H3")  # a Triple over the line passes sideways
    assert s.carrier == ("red", "T2")
    s = game(side("E-2", t=("E3", "C1")), side(t=("A8",)))
    s.apply("red", "pass to E3")
    s.apply("red", "pass to C1")  # and backward
    assert s.carrier == ("red", "T2")


@pins("QB-R-PASS")
def test_receiver_must_be_the_attackers_own_piece() -> None:
    s = game(side("E-2"), side(t=("E3",)))
    rejected(s, "red", "pass to E3", "QB-R-PASS")


@pins("QB-PASS-LINE")
def test_line_of_pass_must_be_clear() -> None:
    s = game(side("E-2", t=("E3",)), side(t=("E2",)))
    rejected(s, "red", "pass to E3", "QB-PASS-LINE")
    s = game(side("E-2", s=("E0",), t=("E3",)), side(t=("A8",)))
    rejected(s, "red", "pass to E3", "QB-PASS-LINE")  # own pieces block it too


@pins("QB-PASS-LOOSE")
def test_pass_to_an_empty_square_first_piece_to_reach_it() -> None:
    s = game(side("E-2", t=("B3",)), side(t=("A8",)))
    ev = s.apply("red", "pass to E4")
    assert s.carrier is None and s.loose == (4, 4) and "QB-PASS-LOOSE" in rules_of(ev)
    rejected(s, "red", "pass to E5", "QB-PASS-LOOSE")  # nobody holds the ball
    ev = s.apply("red", "move T1 B3-C4-E4")
    assert s.carrier == ("red", "T1") and "picks up the ball on E4" in texts(ev)


@pins("QB-INTERCEPT")
def test_defender_reaching_a_loose_ball_intercepts() -> None:
    s = game(side("E-2"), side(t=("E6",)))
    s.apply("red", "pass to E4")
    s.apply("red", "end")
    ev = s.apply("blue", "move T1 E6-E4")
    assert "QB-INTERCEPT" in rules_of(ev)
    assert s.results[0]["how"] == "intercept" and s.results[0]["points"] == 0
    assert s.attacker == "blue"


@pins("QB-R-PICKUP")
def test_pickup_ruling_moving_through_and_pushed_onto() -> None:
    # an attacker moving through the ball's square picks it up and carries on
    s = game(side("E-2", t=("C3",)), side(t=("A8",)))
    s.apply("red", "pass to E3")
    s.apply("red", "move T1 C3-F3")
    assert s.carrier == ("red", "T1") and at(s, "red", "T1") == "F3"
    # a defender moving through it intercepts, and its move ends there
    s = game(side("E-2"), side(t=("C3",)))
    s.apply("red", "pass to E3")
    s.apply("red", "end")
    rejected(s, "blue", "move T1 C3-F3", "QB-INTERCEPT")
    s.apply("blue", "move T1 C3-E3")
    assert s.results[0]["how"] == "intercept"
    # a piece pushed onto the ball picks it up: here a defender, so it is an interception
    s = game(side("H0", d=("D2",)), side(t=("D3",)))
    s.apply("red", "pass to D4")
    ev = s.apply("red", "move D1 D2-D3")
    assert "QB-INTERCEPT" in rules_of(ev) and s.results[0]["points"] == 0


@pins("QB-BALL-START")
def test_ball_starts_with_the_quarterback_each_half() -> None:
    s = game(side("E-2", t=("A-2",)), side(t=("A8",)), max_rounds=1)
    assert s.carrier == ("red", "QB")
    s.apply("red", "pass to A-2")
    s.apply("red", "end")
    s.apply("blue", "end")
    assert s.half == 1 and s.carrier == ("blue", "QB") and s.snapshot()["ball"]["square"] == "E-2"
