"""Events cite the rules that decided them (``rule`` plus ``also``), and only those; a seat out
of turn hears the rule that gives the other side the move.  What ``gm replay --coverage``
counts as a rule exercised."""

from __future__ import annotations

from typing import Any

from qb_helpers import G, game, pins, rejected, side

from gm.core.events import Event


def cited(ev: Event) -> set[str]:
    return {ev.rule, *ev.data.get("also", ())}


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def everything(events: list[Event]) -> set[str]:
    return set().union(*(cited(e) for e in events))


@pins("QB-TOSS", "QB-R-TOSS", "QB-HALVES", "QB-BALL-START")
def test_the_match_opens_telling_who_won_the_toss() -> None:
    for seed, who in ((1, "red"), (0, "blue")):
        s = G.new_state(None, seed)
        assert s.attacker == who
        (kick,) = s.opening_events()
        assert kick.kind == "kickoff" and cited(kick) == {"QB-TOSS", "QB-R-TOSS", "QB-HALVES", "QB-BALL-START"}
        assert kick.text == f"{who} won the coin toss and attacks first"
        assert "kickoff" not in [e.kind for e in s.apply(who, "end") + s.apply(s.defender, "end")]
    (fixed,) = G.new_state({"first_attacker": "blue"}, 1).opening_events()
    assert (fixed.rule, fixed.text) == ("QB-HALVES", "blue attacks first (the ruleset's first_attacker)")


@pins("QB-TOSS", "QB-HALVES", "QB-TURN", "QB-R-DEFENSE-TURN")
def test_a_seat_out_of_turn_hears_the_rule_that_gives_the_other_side_the_move() -> None:
    tossed = G.new_state(None, 1)
    err = rejected(tossed, "blue", "move S1 D1-D2", "QB-TOSS")
    assert "red won the coin toss and attacks first" in err.reason
    s = game(side("E-2", d=("C0",)), side(s=("E1",)))  # red attacks first by the ruleset: no toss
    rejected(s, "blue", "move S1 E2", "QB-HALVES")
    assert first(s.opening_events(), "kickoff").rule == "QB-HALVES"
    s.apply("red", "move D1 C0-C-1")
    rejected(s, "blue", "end", "QB-TURN")
    s.apply("red", "end")
    rejected(s, "red", "end", "QB-R-DEFENSE-TURN")
    s.apply("blue", "end")
    rejected(s, "blue", "end", "QB-TURN")
    one = game(side("E-2"), side(s=("E1",)), max_rounds=1)
    one.apply("red", "end")
    ev = one.apply("blue", "end")  # the whistle: the second half starts, blue attacks
    assert one.attacker == "blue" and "QB-HALVES" in cited(first(ev, "half_start"))
    rejected(one, "red", "end", "QB-HALVES")


@pins("QB-R-SETUP", "QB-BALL-START", "QB-MATCH", "QB-R-FORMAT", "QB-R-MATCH-LIST", "QB-WIN")
def test_halves_and_the_end_of_a_match_cite_the_set_up_and_the_match_rules() -> None:
    s = G.new_state({"max_rounds": 1, "first_attacker": "red"}, 0)
    starts: list[Event] = []
    over: list[Event] = []
    while not s.is_terminal:
        ev = s.apply(s.to_act()[0], "end")
        starts += [e for e in ev if e.kind == "half_start"]
        over += [e for e in ev if e.kind in ("game_over", "match_over")]
    assert [cited(e) for e in starts] == [
        {"QB-HALVES", "QB-R-SETUP", "QB-BALL-START"},
        {"QB-HALVES", "QB-R-SETUP", "QB-BALL-START", "QB-MATCH"},  # game two's first attacker: blue
        {"QB-HALVES", "QB-R-SETUP", "QB-BALL-START"},
    ]
    assert [cited(e) for e in over] == [{"QB-WIN"}, {"QB-WIN"}, {"QB-MATCH", "QB-R-FORMAT", "QB-R-MATCH-LIST"}]
    g = game(side("E-2"), side(s=("E1",)), max_rounds=1)
    ev: list[Event] = []
    while not g.is_terminal:
        ev += g.apply(g.to_act()[0], "end")
    assert cited(first(ev, "match_over")) == {"QB-WIN", "QB-R-FORMAT"}


@pins("QB-MOVE-DOUBLE", "QB-JUMP", "QB-SEQUENCE", "QB-MOVE-QB", "QB-LOS")
def test_a_move_cites_the_path_rules_it_was_checked_against() -> None:
    s = game(side("E1", d=("C0",), t=("A0",)), side(s=("I1",)))
    ev = s.apply("red", "move D1 C0-C1")
    assert cited(first(ev, "move")) == {"QB-MOVE-DOUBLE"}  # one square: nothing to jump
    ev = s.apply("red", "move D1 C2")  # the same Double goes on: one sequence
    assert cited(first(ev, "move")) == {"QB-MOVE-DOUBLE", "QB-SEQUENCE"}
    s.apply("red", "end")
    s.apply("blue", "end")
    ev = s.apply("red", "move QB E1-E5")  # from over the line: a Triple's 3 plus 1
    assert cited(first(ev, "move")) == {"QB-MOVE-QB", "QB-LOS", "QB-JUMP"}
    ev = s.apply("red", "move T1 A0-A3")
    assert cited(first(ev, "move")) == {"QB-MOVE-TRIPLE", "QB-JUMP"}


@pins("QB-SEQUENCE", "QB-PASS", "QB-R-PASS", "QB-PASS-LINE")
def test_a_pass_between_a_pieces_squares() -> None:
    s = game(side("E-2", t=("A0",), d=("C-2",)), side(s=("I1",)))
    ev = s.apply("red", "move T1 A0-A1")
    ev = s.apply("red", "pass to C-2")  # sideways along row -2, over D-2
    assert cited(first(ev, "pass")) == {"QB-PASS", "QB-R-PASS", "QB-PASS-LINE"}
    ev = s.apply("red", "move T1 A3")
    assert "QB-SEQUENCE" in cited(first(ev, "move"))


@pins("QB-PASS-FORWARD", "QB-PASS-LOOSE", "QB-R-PICKUP", "QB-INTERCEPT")
def test_forward_and_loose_passes() -> None:
    s = game(side("E-2", d=("E2",)), side(s=("A1",)))
    ev = s.apply("red", "pass to E2")
    assert cited(first(ev, "pass")) == {"QB-PASS-FORWARD", "QB-R-PASS", "QB-LOS", "QB-PASS-LINE"}
    s = game(side("E-2", d=("C0",)), side(s=("A1",), d=("H1",)))
    ev = s.apply("red", "pass to E1")
    assert cited(first(ev, "pass")) == {"QB-PASS-LOOSE", "QB-PASS-FORWARD", "QB-R-PASS", "QB-LOS", "QB-PASS-LINE"}
    ev = s.apply("red", "move D1 C0-D1-E1")
    assert cited(first(ev, "pick_up")) == {"QB-PASS-LOOSE", "QB-R-PICKUP"}
    s = game(side("E-2", d=("C0",)), side(s=("A1",), d=("F1",)))
    s.apply("red", "pass to E1")
    s.apply("red", "end")
    ev = s.apply("blue", "move D1 F1-E1")
    assert cited(first(ev, "intercept")) == {"QB-INTERCEPT", "QB-PASS-LOOSE", "QB-R-PICKUP"}


@pins("QB-STRENGTH", "QB-R-PUSH-STEP", "QB-PUSH-LIMIT", "QB-R-ADJACENT", "QB-R-OFFSIDE")
def test_pushes_cite_strengths_limits_and_an_offside_left_behind() -> None:
    s = game(side("E-2", d=("C2",)), side(t=("C3",)))
    push = first(s.apply("red", "move D1 C2-C3"), "push")
    assert cited(push) == {"QB-PUSH", "QB-STRENGTH", "QB-R-PUSH-STEP", "QB-PUSH-LIMIT"}
    s = game(side("E-2", s=("C2",)), side(t=("E3",)))
    push = first(s.apply("red", "move S1 C2-D2"), "push")
    assert cited(push) == {"QB-PUSH-SINGLE", "QB-R-PUSH-STEP", "QB-PUSH-LIMIT", "QB-R-ADJACENT"}
    s = game(side("E-2", s=("C0",)), side(d=("C1",)))
    push = first(s.apply("red", "move S1 C0-C1"), "push")  # the Double is pushed offside onto C2
    assert "QB-R-OFFSIDE" in cited(push)


@pins("QB-DIAGONAL", "QB-R-DIAGONAL")
def test_a_diagonal_step_past_a_weaker_piece_cites_the_diagonal_rules() -> None:
    s = game(side("E-2", d=("B2",)), side(t=("C2",)))  # the Triple (1) is weaker than the Double (2)
    mv = first(s.apply("red", "move D1 B2-C3"), "move")  # passes beside C2
    assert cited(mv) == {"QB-MOVE-DOUBLE", "QB-DIAGONAL", "QB-R-DIAGONAL", "QB-STRENGTH"}
    s = game(side("E-2", d=("B2",)), side(t=("H2",)))
    assert cited(first(s.apply("red", "move D1 B2-C3"), "move")) == {"QB-MOVE-DOUBLE"}


@pins("QB-TACKLE", "QB-R-TACKLE-PAIRS", "QB-OCCUPIED", "QB-TACKLE-SINGLE", "QB-SCORE", "QB-R-COLUMNS")
def test_tackles_and_their_score() -> None:
    s = game(side("E3"), side(d=("E5",), s=("A1",)))
    s.apply("red", "end")
    ev = s.apply("blue", "move D1 E5-E4-E3")
    assert cited(first(ev, "tackle")) == {"QB-TACKLE", "QB-R-TACKLE-PAIRS", "QB-OCCUPIED"}
    assert cited(first(ev, "score")) == {"QB-SCORE", "QB-R-COLUMNS"}
    s = game(side("E3"), side(s=("E5",)))
    s.apply("red", "end")
    ev = s.apply("blue", "move S1 E5-E4")
    assert cited(first(ev, "tackle")) == {"QB-TACKLE-SINGLE", "QB-R-ADJACENT"}


@pins("QB-R-WHISTLE", "QB-R-END", "QB-TURN", "QB-R-DEFENSE-TURN")
def test_turns_and_the_whistle() -> None:
    s = game(side("E-2", d=("C0", "G0")), side(d=("C1", "G1")), max_rounds=1)
    ev = s.apply("red", "move D1 C0-C-1")
    ev = s.apply("red", "move D2 G0-G-1-G-2")
    assert cited(first(ev, "turn_done")) == {"QB-R-END", "QB-TURN"}
    ev = s.apply("blue", "move D1 C1-B1-A1")
    ev = s.apply("blue", "move D2 G1-H1-I1")
    assert cited(first(ev, "turn_done")) == {"QB-R-END", "QB-R-DEFENSE-TURN"}
    assert cited(first(ev, "score")) == {"QB-R-WHISTLE", "QB-SCORE", "QB-R-COLUMNS"}


@pins("QB-OFFSIDE-LINE", "QB-OFFSIDE-TRIPLE", "QB-R-DEFENSE-QB")
def test_defenders_moves_cite_the_offside_rule_in_force_and_a_defending_quarterback() -> None:
    s = game(side("E-2", d=("A0",)), side(s=("E1",), t=("C3",), qb="G4"))
    s.apply("red", "end")
    ev: list[Any] = s.apply("blue", "move S1 E1-D1")
    assert cited(first(ev, "move")) == {"QB-MOVE-SINGLE", "QB-OFFSIDE-LINE"}
    ev = s.apply("blue", "move T1 C3-C1-B1")
    assert cited(first(ev, "move")) == {"QB-MOVE-TRIPLE", "QB-JUMP", "QB-OFFSIDE-TRIPLE"}
    ev = s.apply("red", "move D1 A0-A1")  # released: the Single's next move is free
    assert cited(first(ev, "released")) == {"QB-OFFSIDE-LINE", "QB-LOS", "QB-R-OFFSIDE"}
    s.apply("red", "end")
    ev = s.apply("blue", "move QB G4-G3")
    assert cited(first(ev, "move")) == {"QB-MOVE-TRIPLE", "QB-R-DEFENSE-QB"}
    assert "QB-OFFSIDE-LINE" not in everything(s.apply("blue", "move S1 D1-D2"))
