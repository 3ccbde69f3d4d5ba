"""Quarter Back contact: offside, pushing and tackling."""

from __future__ import annotations

import pytest
from qb_helpers import at, game, pins, rejected, rules_of, side, texts


# ------------------------------------------------------------------ offside
@pins("QB-OFFSIDE-TRIPLE")
def test_defending_triple_stays_on_rows_1_to_12() -> None:
    s = game(side("E-2"), side(t=("C2",)))
    s.apply("red", "end")
    rejected(s, "blue", "move T1 C2-C0", "QB-OFFSIDE-TRIPLE")
    s.apply("blue", "move T1 C2-C1")
    assert at(s, "blue", "T1") == "C1"


@pins("QB-OFFSIDE-LINE")
def test_defending_double_and_single_stay_at_the_line_until_released() -> None:
    s = game(side("E-2", t=("A0",)), side(s=("E1",), d=("C1",)))
    s.apply("red", "move T1 A0-A3")  # a Triple over the line does not release the defense
    s.apply("red", "end")
    assert not s.released
    rejected(s, "blue", "move D1 C1-C2", "QB-OFFSIDE-LINE")
    rejected(s, "blue", "move S1 E1-E2", "QB-OFFSIDE-LINE")
    s.apply("blue", "move D1 C1-C0-C-1")  # going forward into the backfield is always allowed
    s.apply("blue", "end")
    s = game(side("E-2", d=("A0",)), side(s=("E1",), d=("C1",)))
    ev = s.apply("red", "move D1 A0-A1")  # an attacking Double over the line
    assert s.released and "QB-OFFSIDE-LINE" in rules_of(ev)
    s.apply("red", "end")
    s.apply("blue", "move D1 C1-C3")
    s.apply("blue", "move S1 E1-E2")
    assert (at(s, "blue", "D1"), at(s, "blue", "S1")) == ("C3", "E2")


@pins("QB-OFFSIDE-LINE")
def test_quarterback_over_the_line_releases_the_defense() -> None:
    s = game(side("E-2"), side(s=("A1",)))
    s.apply("red", "move QB E-2-E1")
    assert s.released


@pins("QB-R-OFFSIDE")
def test_offside_ruling_release_lasts_and_pushed_defenders() -> None:
    # a Double that steps over the line and straight back has still "moved over the line"
    s = game(side("E-2", d=("A0",)), side(d=("C1",)))
    s.apply("red", "move D1 A0-A1-A0")
    assert s.released and at(s, "red", "D1") == "A0"
    s.apply("red", "end")
    s.apply("blue", "move D1 C1-C3")  # the release lasts for the rest of the half
    # a push may leave a defender offside; it must then move back onside
    s = game(side("E-2", d=("B2",)), side(t=("C1",)))
    ev = s.apply("red", "move D1 B2-C1")
    assert at(s, "blue", "T1") == "D0" and "QB-PUSH" in rules_of(ev)
    s.apply("red", "end")
    rejected(s, "blue", "move T1 D0-E0", "QB-OFFSIDE-TRIPLE")
    s.apply("blue", "move T1 D0-D1")


# ------------------------------------------------------------------ pushing
@pins("QB-PUSH")
def test_double_pushes_a_triple_in_its_direction() -> None:
    s = game(side("E-2", d=("C2",)), side(t=("C3",)))
    ev = s.apply("red", "move D1 C2-C3")
    assert (at(s, "red", "D1"), at(s, "blue", "T1")) == ("C3", "C4")
    assert "pushes blue Triple T1 from C3 to C4" in texts(ev)
    s = game(side("E-2", d=("C2",)), side(t=("D3",)))
    s.apply("red", "move D1 C2-D3")  # a diagonal push goes diagonally
    assert at(s, "blue", "T1") == "E4"


@pins("QB-PUSH")
def test_push_only_weaker_pieces() -> None:
    s = game(side("E-2", d=("C2",)), side(d=("C3",)))  # the attacking Double on row 2 released the defense
    rejected(s, "red", "move D1 C2-C3", "QB-PUSH")
    s = game(side("E-2", s=("C0",)), side(d=("C1",)))
    s.apply("red", "move S1 C0-C1")  # a Single pushes a Double (here: offside, ruling QB-R-OFFSIDE)
    assert at(s, "blue", "D1") == "C2"
    s = game(side("E-2", t=("C2",)), side(t=("C3",)))
    rejected(s, "red", "move T1 C2-C3", "QB-PUSH")


@pins("QB-R-PUSH-STEP")
def test_push_is_one_step_of_the_move() -> None:
    s = game(side("E-2", d=("C2",)), side(t=("C3",)))
    s.apply("red", "move D1 C2-C4")  # pushes twice, one square each time
    assert (at(s, "red", "D1"), at(s, "blue", "T1")) == ("C4", "C5")


@pins("QB-PUSH-SINGLE")
def test_single_pushes_a_triple_by_moving_next_to_it() -> None:
    s = game(side("E-2", s=("C2",)), side(t=("E3",)))
    ev = s.apply("red", "move S1 C2-D2")  # the line D2 -> E3 goes up and right
    assert at(s, "blue", "T1") == "F4" and "QB-PUSH-SINGLE" in rules_of(ev)
    # the document's example: a Single moving diagonally up to the right pushes the Triple sideways
    s = game(side("E-2", s=("C2",)), side(t=("E3",)))
    s.apply("red", "move S1 C2-D3")
    assert at(s, "blue", "T1") == "F3"


@pins("QB-PUSH-SINGLE")
def test_single_pushes_a_quarterback_without_the_ball() -> None:
    s = game(side("E-1", t=("A-1",)), side(s=("E1",)))
    s.apply("red", "pass to A-1")  # the Quarterback no longer has the ball
    s.apply("red", "end")
    ev = s.apply("blue", "move S1 E1-E0")
    assert at(s, "red", "QB") == "E-2" and "QB-PUSH-SINGLE" in rules_of(ev)


@pins("QB-R-PUSH-STEP")
def test_single_pushes_several_pieces_at_once() -> None:
    s = game(side("E-2", s=("E2",)), side(t=("D4", "F4")))
    s.apply("red", "move S1 E2-E3")
    assert (at(s, "blue", "T1"), at(s, "blue", "T2")) == ("C5", "G5")


@pins("QB-PUSH-LIMIT")
def test_push_limits() -> None:
    s = game(side("E-2", d=("B3",)), side(t=("A3",)))
    rejected(s, "red", "move D1 B3-A3", "QB-PUSH-LIMIT")  # off the board
    s = game(side("E-2", d=("C2",)), side(t=("C3", "C4")))
    rejected(s, "red", "move D1 C2-C3", "QB-PUSH-LIMIT")  # onto an occupied square
    s = game(side("E-2", s=("D5",), d=("C2",)), side(t=("C3",)))
    rejected(s, "red", "move D1 C2-C3", "QB-PUSH-LIMIT")  # next to the pusher's Single


@pins("QB-R-PUSH-BLOCKED")
def test_single_cannot_move_next_to_an_unpushable_triple() -> None:
    s = game(side("E-2", s=("C2",)), side(t=("E3", "F4")))
    rejected(s, "red", "move S1 C2-D2", "QB-R-PUSH-BLOCKED")
    s = game(side("E-2", s=("G2",)), side(t=("I3",)))
    rejected(s, "red", "move S1 G2-H2", "QB-R-PUSH-BLOCKED")  # it would go off the board


@pins("QB-PUSH-CARRIER")
def test_ball_carrier_cannot_push() -> None:
    s = game(side("C-1", d=("C1",)), side(t=("C2",)))
    s.apply("red", "pass to C1")
    rejected(s, "red", "move D1 C1-C2", "QB-PUSH-CARRIER")
    s = game(side("C-1", s=("C0",)), side(t=("E2",)))
    s.apply("red", "pass to C0")
    rejected(s, "red", "move S1 C0-D1", "QB-PUSH-CARRIER")  # next to t1: a push it may not make


# ------------------------------------------------------------------ tackling
@pins("QB-TACKLE", "QB-SCORE")
def test_triple_tackles_a_double_carrier_row_plus_column() -> None:
    s = game(side("E-2", d=("E2",)), side(t=("E5",)))
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    ev = s.apply("blue", "move T1 E5-E2")
    assert "QB-TACKLE" in rules_of(ev) and "QB-SCORE" in rules_of(ev)
    assert s.points[0]["red"] == 2 + 5
    assert s.results[0] == {"game": 1, "half": 1, "attacker": "red", "how": "tackle", "square": "E2", "points": 7, "rounds": 1}
    assert s.attacker == "blue"  # the half is over


@pins("QB-SCORE")
def test_document_example_row_eight_column_four_scores_twelve() -> None:
    s = game(side("D8"), side(d=("D10",)))
    s.apply("red", "end")
    s.apply("blue", "move D1 D10-D8")  # a Double tackles the Quarterback
    assert s.results[0]["points"] == 12 == 8 + 4


@pins("QB-TACKLE")
def test_double_tackles_triple_and_single_tackles_double() -> None:
    s = game(side("E-2", d=("A1",), t=("E2",)), side(d=("E4",)))
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    s.apply("blue", "move D1 E4-E2")
    assert s.results[0]["how"] == "tackle"
    s = game(side("E-2", d=("E2",)), side(s=("E3",)))
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    s.apply("blue", "move S1 E3-E2")
    assert s.results[0]["how"] == "tackle" and s.results[0]["points"] == 7
    s = game(side("E-2", s=("E2",), d=("A1",)), side(d=("E4",)))
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    s.apply("blue", "move D1 E4-E2")
    assert s.results[0]["how"] == "tackle"


@pins("QB-TACKLE-SINGLE")
def test_single_tackles_quarterback_by_moving_next_to_it() -> None:
    s = game(side("E1"), side(s=("E3",)))
    s.apply("red", "end")
    ev = s.apply("blue", "move S1 E3-E2")
    assert "QB-TACKLE-SINGLE" in rules_of(ev)
    assert s.results[0]["square"] == "E1" and s.results[0]["points"] == 1 + 5


@pins("QB-TACKLE-SINGLE")
def test_single_tackles_triple_carrier_by_moving_next_to_it() -> None:
    s = game(side("E-2", t=("E2",)), side(s=("F0",)))
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    s.apply("blue", "move S1 F0-F1")
    assert s.results[0]["how"] == "tackle" and s.results[0]["square"] == "E2"


#: (tackler, carrier) -> whether it tackles by moving onto the carrier's square: by the default reading
#: ("groups") and by the old one ("pairs"); "QB*" is a defending Quarterback, which plays as a Triple (a Triple
#: never reaches a Single: it may not stand next to one, QB-ADJACENT)
TACKLE_TABLE = {
    ("T", "Q"): (True, False), ("T", "T"): (True, False), ("T", "D"): (True, True),
    ("QB*", "Q"): (True, False), ("QB*", "T"): (True, False), ("QB*", "D"): (True, True),
    ("D", "Q"): (True, True), ("D", "T"): (True, True), ("D", "D"): (True, False), ("D", "S"): (True, True),
    ("S", "D"): (True, True), ("S", "S"): (True, False),
}  # fmt: skip


def _tackle_attempt(tackler: str, carrier: str, reading: str | None) -> bool:
    """Whether blue's ``tackler`` may move onto red's ``carrier`` on E1 (the carrier gets the ball by a pass
    from E-2; the Quarterback carries it on E1 itself); a refusal is QB-R-TACKLE-PAIRS and changes nothing."""
    extra = {} if reading is None else {"tackle_reading": reading}
    kinds = {"S": "s", "D": "d", "T": "t"}
    attack = side("E1") if carrier == "Q" else side("E-2", **{kinds[carrier]: ("E1",)})
    released = carrier in "QD"
    start = "D2" if tackler in ("T", "QB*") or released else "D1"  # a Double or Single waits on row 1 until released
    defense = side(start) if tackler == "QB*" else side(**{kinds[tackler]: (start,)})
    s = game(attack, defense, **extra)
    if carrier != "Q":
        s.apply("red", "pass to E1")
    s.apply("red", "end")
    piece = "QB" if tackler == "QB*" else f"{tackler}1"
    move = f"move {piece} {start}-E1"
    if not s.is_legal("blue", move):
        rejected(s, "blue", move, "QB-R-TACKLE-PAIRS")
        return False
    s.apply("blue", move)
    assert s.results[0]["how"] == "tackle" and s.results[0]["square"] == "E1"
    return True


@pytest.mark.parametrize(("tackler", "carrier"), list(TACKLE_TABLE))
@pins("QB-R-TACKLE-PAIRS")
def test_tackle_pairs_ruling(tackler: str, carrier: str) -> None:
    """The default reading ("groups": any two of the kinds named tackle each other, same kinds included) and
    the old one kept as an option ("pairs": only different kinds named together)."""
    groups, pairs = TACKLE_TABLE[(tackler, carrier)]
    assert _tackle_attempt(tackler, carrier, None) is groups
    assert _tackle_attempt(tackler, carrier, "groups") is groups
    assert _tackle_attempt(tackler, carrier, "pairs") is pairs
