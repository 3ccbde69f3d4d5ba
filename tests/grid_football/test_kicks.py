"""Coin toss, kickoffs, punts and their returns (one test per rule / ruling, ids in the markers)."""

from __future__ import annotations

import json

import pytest
from gf_helpers import at_down, blocked, first, kick, kinds, new, numbers, rejects, rules_of, to_kickoff

from gm.core import IllegalActionError
from gm.games.grid_football.engine import parse_square

# ------------------------------------------------------------------ coin toss


def _toss(seed: int, call: str = "heads") -> tuple[str, str]:
    s = new(seed=seed)
    ev = s.apply("away", call)
    toss = first(ev, "coin_toss")
    return toss.data["flip"], toss.data["winner"]


@pytest.mark.rules("GF-TOSS", "GF-R-TOSS-CALL")
def test_the_away_team_calls_the_toss_and_the_seeded_coin_decides() -> None:
    seen = set()
    for seed in range(20):
        for call in ("heads", "tails"):
            flip, winner = _toss(seed, call)
            assert winner == ("away" if flip == call else "home")
            assert _toss(seed, call) == (flip, winner), "the coin comes from the seeded generator"
            seen.add(flip)
    assert seen == {"heads", "tails"}
    s = new()
    assert s.to_act() == ("away",) and s.decision("away") == "coin_call" and s.decision("home") is None
    rejects(s, "home", "heads", "CORE-TURN", kind=IllegalActionError)


@pytest.mark.rules("GF-R-TOSS-CALL")
def test_the_toss_caller_is_a_ruleset_option() -> None:
    s = new({"toss_caller": "home"})
    assert s.to_act() == ("home",)


@pytest.mark.rules("GF-TOSS")
@pytest.mark.parametrize("choice", ["kick", "receive"])
def test_the_toss_winner_chooses_to_kick_or_receive(choice: str) -> None:
    s = new(seed=0)
    s.apply("away", "heads")
    winner = s.toss_winner
    assert winner and s.phase == "kick_choice" and s.to_act() == (winner,)
    loser = "home" if winner == "away" else "away"
    rejects(s, loser, choice, "CORE-TURN")
    ev = s.apply(winner, choice)
    assert s.kicker == (winner if choice == "kick" else loser)
    assert s.phase == "kickoff" and set(s.to_act()) == {"home", "away"}
    assert "GF-TOSS" in rules_of(ev)


# ------------------------------------------------------------------- kickoff


@pytest.mark.rules("GF-KICK-DIST", "GF-R-ENDS", "GF-R-NEW-SERIES")
@pytest.mark.parametrize(
    ("kicker", "spot", "end", "to_gain"),
    [("home", "K60", "K55", 45), ("away", "K4", "K9", 19)],
    ids=["home-kicks-up", "away-kicks-down"],
)
def test_a_kickoff_travels_55_rows_from_the_kickers_goal_line(kicker: str, spot: str, end: str, to_gain: int) -> None:
    s = to_kickoff(kicker)
    assert s.snapshot()["attacking"] == {"home": 59, "away": 5}  # GF-R-ENDS: home attacks up in Q1
    ev = kick(s, "center red", "center red")  # 2 matches: 5 steps
    assert first(ev, "kick").data["spot"] == spot
    receiver = "away" if kicker == "home" else "home"
    assert (s.offense, s.ball, s.down, s.to_gain, s.phase) == (receiver, parse_square(end), 1, to_gain, "play")


@pytest.mark.rules("GF-R-KICK-COLUMN", "GF-KICK-PICK")
@pytest.mark.parametrize(("position", "column"), [("left", "E"), ("center", "K"), ("right", "P")])
def test_the_kick_comes_down_in_the_column_of_the_kickers_position(position: str, column: str) -> None:
    s = to_kickoff("home")
    ev = kick(s, f"{position} red", "center yellow")  # the receiver's position never moves the ball
    assert first(ev, "kick").data["spot"] == f"{column}60"
    assert s.ball is not None and s.ball[0] == parse_square(f"{column}1")[0]


@pytest.mark.rules("GF-KICK-PICK", "GF-LOCK")
def test_kick_picks_are_simultaneous_and_secret() -> None:
    s = to_kickoff("home")
    assert s.decision("home") == s.decision("away") == "kick_pick"
    ev = s.apply("away", "left green")  # the receiver may pick first
    assert kinds(ev) == ["locked"] and s.to_act() == ("home",)
    assert s.view("home")["pending"] == {"away": "locked"}
    assert s.view("away")["pending"] == {"away": "left green"}
    assert "left green" not in json.dumps(s.view("home"))
    ev = s.apply("home", "right red")
    reveal = first(ev, "kick_reveal")
    assert (reveal.data["kpick"], reveal.data["rpick"], reveal.data["matches"]) == ("right red", "left green", 0)


@pytest.mark.rules("GF-KICK-RETURN")
@pytest.mark.parametrize(
    ("kicker_pick", "receiver_pick", "matches", "end"),
    [
        ("center red", "center red", 2, "K55"),
        ("center red", "left red", 1, "K50"),
        ("center red", "center green", 1, "K50"),
        ("center red", "right yellow", 0, "K45"),
    ],
    ids=["2-matches-5-steps", "colour-match-10-steps", "position-match-10-steps", "0-matches-15-steps"],
)
def test_return_steps_by_matches(kicker_pick: str, receiver_pick: str, matches: int, end: str) -> None:
    s = to_kickoff("home")
    ev = kick(s, kicker_pick, receiver_pick)
    assert first(ev, "kick_reveal").data["matches"] == matches
    assert s.ball == parse_square(end)
    assert s.phase == ("return_number" if matches == 0 else "play")


@pytest.mark.rules("GF-KICK-RETURN", "GF-DIRECTION")
def test_a_return_runs_toward_the_kicking_teams_end_zone_both_ways() -> None:
    s = to_kickoff("away")
    kick(s, "right red", "left yellow")  # 0 matches from P4: up 15
    assert s.ball == parse_square("P19")


@pytest.mark.rules("GF-KICK-NUMBER", "GF-R-NUMBER", "GF-TD", "GF-WIN")
def test_no_match_return_number_match_is_a_touchdown() -> None:
    s = to_kickoff("home")
    kick(s, "center red", "right yellow")
    assert s.phase == "return_number" and s.decision("away") == "number_pick"
    s.apply("home", "number 7")
    assert s.view("away")["pending"] == {"home": "locked"}
    ev = s.apply("away", "number 7")
    assert "touchdown" in kinds(ev) and "GF-KICK-NUMBER" in rules_of(ev)
    assert s.outcome is not None and s.outcome.winner == "away" and s.outcome.rule == "GF-WIN"
    assert s.to_act() == () and s.phase == "game_over"


@pytest.mark.rules("GF-KICK-NUMBER", "GF-R-NUMBER")
def test_no_match_return_numbers_differ_the_receiver_gets_the_ball() -> None:
    s = to_kickoff("home")
    kick(s, "center red", "right yellow")
    ev = numbers(s, 3, 4)
    assert first(ev, "number_reveal").data["result"] == "no match"
    assert (s.outcome, s.offense, s.ball, s.down, s.to_gain) == (None, "away", parse_square("K45"), 1, 35)
    assert s.last["numbers"] == {"home": 3, "away": 4}


@pytest.mark.rules("GF-R-NUMBER")
@pytest.mark.parametrize("bad", ["number 0", "number 11", "number 99"])
def test_numbers_are_picked_from_1_to_10(bad: str) -> None:
    s = to_kickoff("home")
    kick(s, "center red", "right yellow")
    err = rejects(s, "home", bad, "GF-R-NUMBER")
    assert err.legal == ("number 1..10",)
    s.apply("home", "number 10")  # the bounds are inclusive
    s.apply("away", "number 1")


@pytest.mark.rules("GF-R-TOUCHBACK")
@pytest.mark.parametrize(("kicker", "end"), [("home", "K58"), ("away", "K6")])
def test_a_return_ending_in_the_receivers_end_zone_is_a_touchback(kicker: str, end: str) -> None:
    s = to_kickoff(kicker, rules={"return_steps": {2: 1, 1: 10, 0: 15}})
    ev = kick(s, "center red", "center red")  # lands K60 / K4, returned 1 step: still in the end zone
    assert "touchback" in kinds(ev)
    assert s.ball == parse_square(end) and s.phase == "play"


@pytest.mark.rules("GF-R-KICK-GROUND", "GF-BLOCK")
def test_a_return_is_stopped_by_a_blocked_square() -> None:
    s = to_kickoff("home")
    s.blocked = {parse_square("K56")}
    ev = kick(s, "center red", "center red")  # K60 -> 5 steps, but K56 is blocked
    assert first(ev, "stopped").rule == "GF-R-KICK-GROUND"
    assert s.ball == parse_square("K57")


@pytest.mark.rules("GF-R-BALL-ON-BLOCK", "GF-R-TOUCHBACK", "GF-R-KICK-GROUND")
def test_a_touchback_may_place_the_ball_on_a_blocked_square() -> None:
    s = to_kickoff("home")
    s.blocked = {parse_square("K58")}
    ev = kick(s, "center red", "center red")  # K60 -> K59, stopped by K58: touchback onto K58
    assert "touchback" in kinds(ev)
    assert s.ball == parse_square("K58") and s.ball in s.blocked
    down_ev = s.apply("away", "play 2 black") + s.apply("home", "play 1 red")  # the ball may leave it
    assert s.ball == parse_square("K54") and "touchdown" not in kinds(down_ev)


@pytest.mark.rules("GF-R-KICK-SQUARE")
def test_kick_spots_are_not_blocked() -> None:
    s = to_kickoff("home")
    kick(s, "center red", "center red")
    assert s.blocked == set()


# ---------------------------------------------------------------------- punts


@pytest.mark.rules("GF-R-PUNT", "GF-DOWNS")
def test_a_punt_is_allowed_only_on_4th_down_and_only_for_the_offense() -> None:
    for d in (1, 2, 3):
        s = at_down("K10", down=d)
        err = rejects(s, "home", "punt", "GF-R-PUNT")
        assert "punt" not in err.legal
        assert "punt" not in [str(a) for a in s.legal_actions("home")]
    s = at_down("K10", down=4)
    assert "punt" in [str(a) for a in s.legal_actions("home")]
    assert "punt" not in [str(a) for a in s.legal_actions("away")]
    rejects(s, "away", "punt", "GF-DOWNS")
    ev = s.apply("home", "punt")
    assert s.phase == "punt" and s.kicker == "home" and set(s.to_act()) == {"home", "away"}
    assert first(ev, "punt_called").data["void"] == []  # the defense had not called yet


@pytest.mark.rules("GF-R-PUNT", "GF-R-NEW-SERIES", "GF-R-DOWN-COUNT")
@pytest.mark.parametrize(
    ("ball", "offense", "up", "spot", "end", "to_gain"),
    [("K10", "home", "home", "K50", "K45", 35), ("K54", "away", "home", "K14", "K19", 29)],
    ids=["up", "down"],
)
def test_a_punt_travels_40_rows_and_is_returned(ball: str, offense: str, up: str, spot: str, end: str, to_gain: int) -> None:
    s = at_down(ball, offense, down=4, up_team=up, quarter_downs=3)
    s.apply(offense, "punt")
    ev = kick(s, "center red", "center red")
    assert first(ev, "kick").data["spot"] == spot
    receiver = "away" if offense == "home" else "home"
    assert (s.offense, s.ball, s.down, s.to_gain) == (receiver, parse_square(end), 1, to_gain)
    assert s.quarter_downs == 4  # the punt is a down


@pytest.mark.rules("GF-R-PUNT", "GF-LOCK")
def test_a_punt_voids_the_defenses_locked_call_without_revealing_it() -> None:
    s = at_down("K10", down=4)
    s.apply("away", "play 3 black")  # the defense locks first
    ev = s.apply("home", "punt")
    text = json.dumps([e.to_json() for e in ev]) + json.dumps(s.view("home")) + json.dumps(s.view(None))
    assert "play 3" not in text and s.pending == {}
    assert first(ev, "punt_called").data["void"] == ["away"]  # which seat's secret call is void (for sessions)
    assert s.snapshot()["last"] == {}
    assert s.phase == "punt" and set(s.to_act()) == {"home", "away"}


@pytest.mark.rules("GF-R-PUNT", "GF-KICK-NUMBER", "GF-TD")
def test_a_punt_return_number_match_is_a_touchdown() -> None:
    s = at_down("K10", down=4)
    s.apply("home", "punt")
    kick(s, "center red", "left yellow")
    assert s.phase == "return_number"
    numbers(s, 5, 5)
    assert s.outcome is not None and s.outcome.winner == "away"


@pytest.mark.rules("GF-R-KICK-LANDING", "GF-R-KICK-SQUARE")
def test_a_punt_may_come_down_on_a_blocked_square() -> None:
    s = at_down("K10", down=4, blocked=["K50"])
    s.apply("home", "punt")
    kick(s, "center red", "center red")
    assert s.ball == parse_square("K45")
    assert blocked(s) == ["K50"]  # neither the landing spot nor the return's end becomes blocked
