"""Mistakes injected into logs of seeded gm games, one kind at a time at a known line (a wrong ball, score,
down, spot or tile, a forgotten block, a skipped turn, a forbidden move), each with its exact audit: the
line, what the chatbot said, what the rules give and the rule that decided it; or the move the replay
stops at, why, and what was legal instead.  Lines the chatbot shortened (no ``end`` before the other
side's line) are no mistake."""

from __future__ import annotations

from functools import cache

import pytest
from chat_helpers import played
from layouts import Exchange, exchanges, line

from gm.chatlog.audit import audit
from gm.core.chance import MT19937
from gm.core.errors import GameError
from gm.core.registry import find_game

#: game -> (seed, bot, moves at most) of the game whose log the cases edit
GAMES = {
    "grid-football": (2, "default", 60),
    "quarterback": (2, "random", 60),
    "gridmaster4": (1, "random", 40),
    "brawl": (3, "random", 30),
    "chess-football": (4, "random", 40),
}

#: the games' rulesets where not the default: Quarter Back's cases were written on a game played under the
#: first reading of QB-R-TACKLE-PAIRS (its ruleset option since the ruling was re-read), and edit its moves
RULES = {"quarterback": {"tackle_reading": "pairs"}}


@cache
def _log(game_id: str) -> tuple[Exchange, ...]:
    seed, bot, limit = GAMES[game_id]
    game = find_game(game_id)
    return tuple(exchanges(game, played(game, seed, bot, seed, limit, RULES.get(game_id)))[0])


def _moves(game_id: str, label: str) -> str:
    """How the audit names the moves of the exchange labelled ``label`` (as the engine writes each)."""
    x = next(x for x in _log(game_id) if x.label == label)
    return " | ".join(f"{seat}: {a}" for seat, acts in x.moves for a in acts)


def _audit(game_id: str, *edits: tuple[str, str | None, str | None], outcomes: str = "from-log") -> list[str]:
    """The audit (its honour-system note aside) of the game's log with ``edits``: (the start of a line,
    old, new); ``old`` None drops the line."""
    lines = [line(x) for x in _log(game_id)]
    for start, old, new in edits:
        i = next(i for i, ln in enumerate(lines) if ln.startswith(start))
        if old is None:
            del lines[i]
        else:
            assert old in lines[i] and new is not None, (old, lines[i])
            lines[i] = lines[i].replace(old, new)
    a = audit(find_game(game_id), "## Move log\n\n" + "\n".join(lines) + "\n", RULES.get(game_id), seed=GAMES[game_id][0], chance=MT19937,
              outcomes=outcomes)
    return [ln for ln in a.text().splitlines() if not ln.startswith("Honour system:")]


# ------------------------------------------------------------------ Grid Football
GF_HEAD = "Audit of a Turn-Based Grid Football game from a chatbot: {n} move lines read, {r} replayed (seed 2)."
GF_END = ("The engine's game: Q2 | 9 downs left | home ball, 4th & 6 at K49, attacking v row 5 | home 0 - 0 away | to act: "
          "home, away")  # fmt: skip


def test_gf_wrong_ball_names_the_square_the_rules_give() -> None:
    line_ = "line 7 D2 (away: play 2 black | home: play 1 red)"
    assert _audit("grid-football", ("D2 away:", "ball E51, home 2nd & 4 | blocked E51", "ball E52, home 2nd & 3 | blocked E52")) == [
        GF_HEAD.format(n=24, r=24),
        f"{line_}: ball: the chatbot says E52, the rules give E51 [GF-MATCH-NONE]",
        f"{line_}: down: the chatbot says 2nd & 3, the rules give 2nd & 4 [GF-DOWNS]",
        f"{line_}: blocked E52: the chatbot says blocked, the rules give not blocked [GF-BLOCK]",
        f"Result: 3 divergences, 0 illegal moves. {GF_END}",
    ]


def test_gf_a_run_through_a_forgotten_block_is_stopped_by_it() -> None:
    """D9: the run would pass E51, blocked since D2; the rules stop it on E50 (GF-BLOCK)."""
    line_ = "line 14 D9 (away: play 1 black | home: play 2 black | away: number 9 | home: number 10)"
    assert _audit("grid-football", ("D9 away:", "ball E50, home 2nd & 8 | blocked E50", "ball E53, home 1st & 10 | blocked E53")) == [
        GF_HEAD.format(n=24, r=24),
        f"{line_}: ball: the chatbot says E53, the rules give E50 [GF-BLOCK]",
        f"{line_}: down: the chatbot says 1st & 10, the rules give 2nd & 8 [GF-DOWNS]",
        f"{line_}: blocked E53: the chatbot says blocked, the rules give not blocked [GF-BLOCK]",
        f"Result: 3 divergences, 0 illegal moves. {GF_END}",
    ]


@pytest.mark.parametrize(
    ("edit", "finding"),
    [
        (("D4 away:", "away 2nd & 6", "away 1st & 10"),
         "line 9 D4 (away: play 2 red | home: play 3 black): down: the chatbot says 1st & 10, the rules give 2nd & 6 [GF-DOWNS]"),
        (("D5 away:", "score home 0-0 away", "score home 0-7 away"),
         "line 10 D5 (away: play 3 black 1 left after | home: play 3 black): score: the chatbot says home 0-7 away, the rules "
         "give home 0-0 away [GF-TD]"),
        (("D14 away:", "Q1, 1 down left", "Q1, 2 downs left"),
         "line 19 D14 (away: play 2 red | home: play 3 black): downs left: the chatbot says 2, the rules give 1 [GF-R-DOWN-COUNT]"),
    ],
    ids=["down", "score", "downs-left"],
)
def test_gf_one_wrong_claim_is_one_finding(edit: tuple[str, str, str], finding: str) -> None:
    assert _audit("grid-football", edit) == [GF_HEAD.format(n=24, r=24), finding, f"Result: 1 divergence, 0 illegal moves. {GF_END}"]


def _refusal(game_id: str, moves: list[tuple[str, str]], seat: str, move: str) -> str:
    """The engine's own reason and rule for refusing ``move`` after ``moves`` of the game the tests play."""
    state = find_game(game_id).new_state(None, GAMES[game_id][0], MT19937)
    for s, m in moves:
        state.apply(s, m)
    with pytest.raises(GameError) as err:
        state.apply(seat, move)
    return f"{err.value.reason} [{err.value.rule}]"


def test_gf_a_skipped_kick_choice_stops_at_the_kickoff() -> None:
    why = _refusal("grid-football", [("away", "tails")], "home", "left green")
    assert why.startswith("now is the time for a kick choice")  # (the engine's words, shown as they are)
    assert _audit("grid-football", ("Choice home:", None, None)) == [
        GF_HEAD.format(n=23, r=1),
        f"line 4 Kickoff: illegal move home: left green: {why}",
        "  legal instead: kick; receive",
        "  the true game stops before this line; 21 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: Q1 | 15 downs left | kick choice | home 0 - 0 away | to act: home",
    ]


def test_gf_a_forbidden_call_stops_the_replay_with_the_legal_calls() -> None:
    assert _audit("grid-football", ("D4 away:", "away: play 2 red", "away: play 4 red")) == [
        GF_HEAD.format(n=24, r=6),
        "line 9 D4: illegal move away: play 4 red: play 4 is locked until quarter 2 [GF-PLAY4-LOCK]",
        "  legal instead: play 1 red|black; play 2 red|black; play 3 red|black; lateral N left|right before|after (play 1 up "
        "to 3, play 2 up to 0, play 3 up to 3)",
        "  the true game stops before this line; 17 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: Q1 | 12 downs left | away ball, 1st & 10 at E51, attacking "
        "v row 5 | home 0 - 0 away | to act: home, away",
    ]


def test_gf_the_down_of_a_winning_touchdown_counts() -> None:
    """GF-R-DOWN-COUNT: the play that scores is one of the quarter's downs, though the game ends on it."""
    game = find_game("grid-football")
    xs, _ = exchanges(game, played(game, 5, "default", 5, 160))
    last = line(xs[-1])
    assert last == ("D8 away: play 2 black | home: play 1 black | touchdown home | home wins | ball J59 | Q1, 7 downs left | "
                    "score home 1-0 away")  # fmt: skip
    text = "## Move log\n" + "\n".join(line(x) for x in xs)
    assert audit(game, text, seed=5, chance=MT19937).divergences == []
    [d] = audit(game, text.replace("Q1, 7 downs left", "Q1, 8 downs left"), seed=5, chance=MT19937).divergences
    assert (d.key, d.said, d.rules, d.rule) == ("downs left", "8", "7", "GF-R-DOWN-COUNT")


# ------------------------------------------------------------------ Quarter Back
QB_HEAD = "Audit of a Quarter Back game from a chatbot: {n} move lines read, {r} replayed (seed 2)."
QB_END = ("The engine's game: game 1/2, half 1/2, round 15/15 | red attacks, blue defends | ball: loose on D-2 (the first "
          "piece to reach it picks it up) | game 1: red 0 - 0 blue | to act: red (2 actions left)")  # fmt: skip


@pytest.mark.parametrize(
    ("edit", "finding"),
    [
        (("T3 red:", "ball B0 (D1)", "ball B1 (D1)"),
         "line 5 T3 (red: move S3 F0-G-1 | red: move D1 C0-B0 | red: end): ball: the chatbot says B1, the rules give B0 "
         "[QB-MOVE-DOUBLE]"),
        (("T5 red:", "red T2 E4", "red T2 E5"),
         "line 7 T5 (red: move D2 G0-H0 | red: move T2 H3-F3-E4): piece red T2: the chatbot says E5, the rules give E4 "
         "[QB-MOVE-TRIPLE]"),
    ],
    ids=["ball", "piece"],
)
def test_qb_a_wrong_square_is_one_finding(edit: tuple[str, str, str], finding: str) -> None:
    assert _audit("quarterback", edit) == [QB_HEAD.format(n=28, r=28), finding, f"Result: 1 divergence, 0 illegal moves. {QB_END}"]


def test_qb_a_skipped_turn_stops_at_the_side_that_moves_twice() -> None:
    assert _audit("quarterback", ("T4 blue:", None, None)) == [
        QB_HEAD.format(n=27, r=3),
        "line 6 T5: illegal move red: move D2 G0-H0: blue (defending) is on turn: red has had its turn; the sides alternate "
        "[QB-R-DEFENSE-TURN]",
        "  legal instead: wait for blue",
        "  the true game stops before this line; 23 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: game 1/2, half 1/2, round 2/15 | red attacks, blue defends | "
        "ball: red Double D1 on B0, worth 2 if tackled there | game 1: red 0 - 0 blue | to act: blue (2 actions left)",
    ]


def test_qb_a_move_too_long_stops_the_replay() -> None:
    assert _audit("quarterback", ("T6 blue:", "move D1 C1-A1", "move D1 C1-A1-A2-A3")) == [
        QB_HEAD.format(n=28, r=5),
        "line 8 T6: illegal move blue: move D1 C1-A1-A2-A3: D1 may move 2 squares now; this path is 4 [QB-MOVE-DOUBLE]",
        "  legal instead: move <piece> <squares> - pieces that may move now: S1, S2, S3, D1, D2, T1, T2; end",
        "  the true game stops before this line; 22 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: game 1/2, half 1/2, round 3/15 | red attacks, blue defends | "
        "ball: red Double D1 on B0, worth 2 if tackled there | game 1: red 0 - 0 blue | to act: blue (2 actions left)",
    ]


def test_qb_a_turn_that_ends_at_the_other_sides_line_needs_no_end() -> None:
    got = _audit("quarterback", ("T2 blue:", "G1, end |", "G1 |"), ("T4 blue:", "F0, end |", "F0 |"))
    assert got == [QB_HEAD.format(n=28, r=28), f"Result: the chatbot kept the game exactly. {QB_END}"]


# ------------------------------------------------------------------ GridMaster4
GM4_HEAD = "Audit of a GridMaster4 game from a chatbot: {n} move lines read, {r} replayed (seed 1)."
GM4_END = "The engine's game: move 40 | normal play | aqua to place 13 | scores: orange 13, magenta 2 (blocked), lime 13, aqua 12"


@pytest.mark.parametrize(
    ("edit", "finding"),
    [
        (("M11 aqua:", "aqua active P3 E5", "aqua active P3"),
         "line 13 M11 (aqua: place 3 at P3): active aqua: the chatbot says P3, the rules give E5 P3 [GM4-FREE]"),
        (("M12 orange:", "scores orange 4,", "scores orange 5,"),
         "line 14 M12 (orange: place 4 at F4): score orange: the chatbot says 5, the rules give 4 [GM4-SCORE]"),
    ],
    ids=["tile", "score"],
)
def test_gm4_a_wrong_tile_or_score_is_one_finding(edit: tuple[str, str, str], finding: str) -> None:
    assert _audit("gridmaster4", edit) == [GM4_HEAD.format(n=40, r=40), finding, f"Result: 1 divergence, 0 illegal moves. {GM4_END}"]


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (("M10 lime:", "M10 lime: place 3 at S10", "M10 magenta: place 3 at H2"),  # magenta was blocked at M9
         [GM4_HEAD.format(n=40, r=9),
          "line 12 M10: illegal move magenta: place 3 at H2: magenta is blocked and out of play; it is lime's turn [GM4-BLOCKED]",
          "  legal instead: lime: place 3 at any open cell (391 open)",
          "  the true game stops before this line; 30 later move lines were not replayed",
          "Result: 0 divergences, 1 illegal move. The engine's game: move 9 | free placements | lime to place 3 | scores: "
          "orange 3, magenta 2 (blocked), lime 2, aqua 2"]),
        (("M6 magenta:", None, None),
         [GM4_HEAD.format(n=39, r=5),
          "line 8 M7: illegal move lime: place 2 at F5: it is magenta's turn, not lime's [GM4-TURN]",
          "  legal instead: magenta: place 2 at F2; magenta: place 2 at L2; magenta: place 2 at G4; magenta: place 2 at K4; "
          "magenta: place 2 at I5",
          "  the true game stops before this line; 33 later move lines were not replayed",
          "Result: 0 divergences, 1 illegal move. The engine's game: move 5 | normal play | magenta to place 2 | scores: "
          "orange 2, magenta 1, lime 1, aqua 1"]),
        (("M7 lime:", "place 2 at F5", "place 2 at T20"),
         [GM4_HEAD.format(n=40, r=6),
          "line 9 M7: illegal move lime: place 2 at T20: T20 is not exactly 3 cells up/down/left/right or 2 diagonally from an "
          "active tile of lime (D7) [GM4-MOVE]",
          "  legal instead: place 2 at D4; place 2 at B5; place 2 at F5; place 2 at A7; place 2 at G7; place 2 at B9; place 2 "
          "at F9; place 2 at D10",
          "  the true game stops before this line; 33 later move lines were not replayed",
          "Result: 0 divergences, 1 illegal move. The engine's game: move 6 | normal play | lime to place 2 | scores: orange 2, "
          "magenta 2, lime 1, aqua 1"]),
    ],
    ids=["forgotten-block", "skipped-turn", "forbidden"],
)  # fmt: skip
def test_gm4_a_move_the_rules_forbid_stops_the_replay(edit: tuple[str, str | None, str | None], expected: list[str]) -> None:
    assert _audit("gridmaster4", edit) == expected


# ------------------------------------------------------------------ brawl
BR_HEAD = "Audit of a brawl game from a chatbot: {n} move lines read, {r} replayed (seed 3)."
BR_END = "The engine's game: Round 5/20 | home 14 - 0 away | away ball, 1st & 10 at own 25 - play 1 of 3 | to act: away, home"


@pytest.mark.parametrize(
    ("edit", "line_", "finding"),
    [
        (("P2 away:", "home ball, 3rd & 10", "home ball, 2nd & 10"), "line 4 P2", "down: the chatbot says 2nd & 10, the rules give 3rd & 10 [BR-REVEAL]"),
        # the 4th-down choice: the true spot is named (the series' line, or where the ball now stands), never "no series"
        (("P3 away:", "4th & 10 at own 25", "4th & 10 at own 30"), "line 5 P3", "spot: the chatbot says own 30, the rules give own 25 (or own 29) [BR-FOURTH]"),
        (("P5 away:", "1st & 10 at own 36", "1st & 10 at own 35"), "line 7 P5", "spot: the chatbot says own 35, the rules give own 36 [BR-FIRST-DOWN]"),
        (("P8 away:", "score home 7-0 away", "score home 6-0 away"), "line 10 P8", "score: the chatbot says home 6-0 away, the rules give home 7-0 away [BR-TD]"),
    ],
    ids=["down", "spot-at-the-choice", "spot", "score"],
)  # fmt: skip
def test_br_one_wrong_claim_is_one_finding(edit: tuple[str, str, str], line_: str, finding: str) -> None:
    label = line_.split()[-1]
    assert _audit("brawl", edit) == [
        BR_HEAD.format(n=16, r=16), f"{line_} ({_moves('brawl', label)}): {finding}", f"Result: 1 divergence, 0 illegal moves. {BR_END}"
    ]


def test_br_the_4th_down_choice_line_as_gm_writes_it_is_true() -> None:
    assert line(_log("brawl")[2]).endswith("| home ball, 4th & 10 at own 25 | round 1, score home 0-0 away")
    assert _audit("brawl", ("P3 away:", "4th & 10 at own 25", "4th & 10 at own 29")) == [
        BR_HEAD.format(n=16, r=16), f"Result: the chatbot kept the game exactly. {BR_END}"
    ]


def test_br_a_card_not_in_hand_stops_the_replay() -> None:
    got = _audit("brawl", ("P1 away:", "CB2:S1@DL", "CB2:F3@DL"), outcomes="seed")
    assert got[:2] == [
        BR_HEAD.format(n=16, r=0),
        f"line 3 P1: illegal move away: {_moves('brawl', 'P1').split(' | ')[0].removeprefix('away: ').replace('CB2:S1@DL', 'CB2:F3@DL')}: "
        "CB2 does not hold F3 (holds F2 S1 A1-4) [BR-HAND]",
    ]
    assert got[2].startswith("  legal instead: MLB: F3 S2 F2; DT1: S4 S3 S2;") and got[3:] == [
        "  the true game stops before this line; 15 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: Round 1/20 | home 0 - 0 away | home ball, 1st & 10 at own 25 "
        "- play 1 of 3 | to act: home, away",
    ]


def test_br_a_skipped_4th_down_choice_stops_at_the_next_play() -> None:
    got = _audit("brawl", ("P4 home:", None, None))
    assert got[0] == BR_HEAD.format(n=15, r=3)
    assert got[1].startswith("line 6 P5: illegal move home: WR2@DL QB@DM") and got[1].endswith(
        ": the offense must choose: punt, field goal or go for it [BR-FOURTH]"
    )
    assert got[2:] == [
        "  legal instead: punt; go for it",
        "  the true game stops before this line; 11 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: Round 1/20 | home 0 - 0 away | home ball, 4th-down choice "
        "after 4 yards (series from own 25, ball now at own 29) | to act: home",
    ]


# ------------------------------------------------------------------ Chess-Football
CF_HEAD = "Audit of a Chess-Football Hybrid game from a chatbot: {n} move lines read, {r} replayed (seed 4)."
CF_END = ("The engine's game: half 1 | home 0 - 0 away | away ball (possession 1/4), 2nd & 7 at row 40, attacking rows 1-4 | "
          "turn 2/4 | to act: home")  # fmt: skip


@pytest.mark.parametrize(
    ("edit", "finding"),
    [
        (("T13 away:", "ball D38 (FA1)", "ball D39 (FA1)"),
         "line 15 T13 (away: FA1 to D38 SE): ball: the chatbot says D39, the rules give D38 [CF-MOVEMENT]"),
        (("T3 away:", "away 1st & 4 at row 37", "away 2nd & 4 at row 37"),
         "line 5 T3 ({T3}): down: the chatbot says 2nd & 4, the rules give 1st & 4 [CF-FIRST-DOWN]"),
        (("T5 away:", "score home 0-0 away", "score home 0-6 away"),
         "line 7 T5 (away: QB pass to FA1): score: the chatbot says home 0-6 away, the rules give home 0-0 away [CF-TOUCHDOWN]"),
    ],
    ids=["ball", "down", "score"],
)
def test_cf_one_wrong_claim_is_one_finding(edit: tuple[str, str, str], finding: str) -> None:
    finding = finding.replace("{T3}", _moves("chess-football", "T3"))
    assert _audit("chess-football", edit) == [CF_HEAD.format(n=37, r=37), finding, f"Result: 1 divergence, 0 illegal moves. {CF_END}"]


def test_cf_a_skipped_reaction_turn_stops_at_the_side_that_moves_again() -> None:
    got = _audit("chess-football", *[(f"T{n} home:", None, None) for n in (7, 8, 9, 10)])
    assert got[:2] == [
        CF_HEAD.format(n=33, r=6),
        "line 9 T11: illegal move away: LM to I36 SW: it is home's part of the turn [CF-REACTION]",
    ]
    assert got[2].startswith("  legal instead: home: done; home: NB: move to one of 24 squares (movement 2); seal;")
    assert got[3:] == [
        "  the true game stops before this line; 26 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: half 1 | home 0 - 0 away | away ball (possession 1/4), 1st & 4 "
        "at row 37, attacking rows 1-4 | turn 2/4 | to act: home",
    ]


def test_cf_a_move_out_of_reach_stops_the_replay() -> None:
    got = _audit("chess-football", ("T11 away:", "LM to I36 SW", "LM to I20 SW"))
    assert got[:2] == [CF_HEAD.format(n=37, r=10), "line 13 T11: illegal move away: LM to I20 SW: I20 is out of reach for LM (2 movement left) [CF-MOVEMENT]"]
    assert got[2].startswith("  legal instead: done; LM: move to one of 24 squares (movement 2);") and got[3:] == [
        "  the true game stops before this line; 26 later move lines were not replayed",
        "Result: 0 divergences, 1 illegal move. The engine's game: half 1 | home 0 - 0 away | away ball (possession 1/4), 1st & 4 "
        "at row 37, attacking rows 1-4 | turn 3/4 | to act: away",
    ]


def test_cf_a_side_done_at_the_other_sides_line_needs_no_done() -> None:
    got = _audit("chess-football", ("T6 away: done", None, None), ("T21 home: done", None, None))
    assert got == [CF_HEAD.format(n=35, r=35), f"Result: the chatbot kept the game exactly. {CF_END}"]


# ------------------------------------------------------------------ dice the chatbot rolled itself
def test_cf_a_pass_roll_that_is_not_gms_shows_both_rolls() -> None:
    got = _audit("chess-football", ("T10 home: done", "pass roll 3", "pass roll 6"), outcomes="seed")
    assert got == [
        CF_HEAD.format(n=37, r=37),
        "line 12 T10 (home: done): pass roll: the chatbot rolled 6; gm's roll is 3 [CF-PASS]",
        f"Result: 1 divergence, 0 illegal moves. {CF_END}",
    ]


def test_br_agility_rolls_that_are_not_gms_show_both() -> None:
    rolls = ("CB1@ML {}, CB1@ML 4, CB2@BR 2, DE2@MM 1, DT2@BL 1, FS@DM 1, OLB1@MR 3, OLB2@SL 1, OLB2@SL 3, OT3@SL 1, QB@BR 2, "
             "RB@SL 2, SLOT@BL 4, SS@BL 3, TE@MM 1, WR1@SM 4, WR2@SL 3")  # fmt: skip
    got = _audit("brawl", ("P3 away:", f"rolls {rolls.format(1)}", f"rolls {rolls.format(2)}"), outcomes="seed")
    assert got[1] == (
        f"line 5 P3 ({_moves('brawl', 'P3')}): rolls: the chatbot rolled {rolls.format(2)}; gm's rolls are {rolls.format(1)} "
        "[BR-AGILITY-ROLL]"
    )
    assert got[2:] == [f"Result: 1 divergence, 0 illegal moves. {BR_END}"]


# ------------------------------------------------------------------ impossible rolls, and the chatbot's own dice
def test_cf_an_impossible_pass_roll_is_flagged_and_gms_roll_used() -> None:
    assert _audit("chess-football", ("T10 home: done", "pass roll 3", "pass roll 7")) == [
        CF_HEAD.format(n=37, r=37),
        "line 12 T10: impossible pass roll: pass roll (1-6, QB to FA1) cannot come out 7; possible: 1, 2, 3, 4, 5, 6; gm's "
        "seed drew it instead [CORE-CHANCE]",
        f"Result: 0 divergences, 0 illegal moves, 1 impossible outcome of chance. {CF_END}",
    ]


def test_br_an_agility_roll_the_card_cannot_show_is_flagged() -> None:
    assert _audit("brawl", ("P3 away:", "rolls CB1@ML 1,", "rolls CB1@ML 9,")) == [
        BR_HEAD.format(n=16, r=16),
        "line 5 P3: impossible agility roll: agility roll (1-4, CB1 A1-4@ML) cannot come out 9; possible: 1, 2, 3, 4; gm's "
        "seed drew it instead [CORE-CHANCE]",
        f"Result: 0 divergences, 0 illegal moves, 1 impossible outcome of chance. {BR_END}",
    ]


def test_cf_the_rules_are_checked_on_the_chatbots_own_roll() -> None:
    """The chatbot rolled 1 for the pass (gm's seed gave 3): the pass is incomplete on the chatbot's own die, so
    its account of a completed pass is wrong - and says so with the roll's cause."""
    got = _audit("chess-football", ("T10 home: done", "pass roll 3", "pass roll 1"))
    assert got[:4] == [
        CF_HEAD.format(n=37, r=11),
        "The chat's own dice and deals: 1 outcome of chance came from its log, not from seed 4 (the first: line 12 T10, "
        "pass roll (1-6, QB to FA1): the chatbot's 1, gm's 3).",
        "line 12 T10 (home: done): ball: the chatbot says B38, the rules give H38 [CF-LOS]",
        "line 12 T10 (home: done): down: the chatbot says 1st & 4, the rules give 2nd & 4 [CF-FIRST-DOWN]",
    ]
