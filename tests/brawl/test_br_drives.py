"""From a series to the next: first downs, touchdowns, turnovers, the 4th-down choice
(punt, field goal, go for it), the field, the score and the end of the game."""

from __future__ import annotations

import pytest
from br_helpers import kinds, new, play, series

from gm.core.errors import IllegalActionError
from gm.games.brawl.actions import FourthDown

SIX = ({"QB": "F2@SM"}, {})  # QB F2 into SM: three of them gain 6 yards (1x)
FOUR = ({"QB": "F4@SM"}, {})  # three of them: 12 yards


def test_ten_yards_is_a_first_down_from_the_new_spot() -> None:
    """BR-FIRST-DOWN: 12 yards from the own 25 -> a new series, same offense, at the own 37."""
    st = new()
    events = series(st, FOUR, FOUR, FOUR)
    assert "first_down" in kinds(events)
    assert (st.offense, st.los, st.round, st.play_no) == ("home", 37, 2, 1)
    assert st.last["result"] == "first_down" and st.last["yards"] == 12


def test_reaching_the_end_zone_is_a_touchdown_worth_seven() -> None:
    """BR-TD and BR-R-SCORE: 6 yards from the opp 5 score 7; the other team starts at its 25."""
    st = new()
    st.los = 95
    events = series(st, SIX, SIX, SIX)
    td = next(e for e in events if e.kind == "touchdown")
    assert td.rule == "BR-TD" and st.score == {"home": 7, "away": 0}
    assert (st.offense, st.los) == ("away", 25)


def test_short_of_ten_the_offense_chooses_punt_field_goal_or_go() -> None:
    """BR-FOURTH: 6 yards -> the offense must choose; the legal list is the options."""
    st = new()
    events = series(st, SIX, SIX, SIX)
    assert st.phase == "fourth_down" and "fourth_down" in kinds(events)
    assert [str(a) for a in st.legal_actions("home")] == ["punt", "go for it"]  # no field goal from the own 31
    assert st.decision("home") == "fourth_down"
    st.los = 70
    assert [str(a) for a in st.legal_actions("home")] == ["punt", "field goal", "go for it"]


def test_the_fourth_down_choice_is_the_offense_alone() -> None:
    """BR-R-FOURTH-WHO: the defense has nothing to do; a placement now is not the choice."""
    st = new()
    series(st, SIX, SIX, SIX)
    assert st.to_act() == ("home",) and st.decision("away") is None
    with pytest.raises(IllegalActionError) as exc:
        st.apply("away", "punt")
    assert exc.value.rule == "CORE-TURN"
    with pytest.raises(IllegalActionError) as exc:
        st.apply("home", "QB:A0@MM")
    assert exc.value.rule == "BR-FOURTH"
    fresh = new()
    with pytest.raises(IllegalActionError) as exc:
        fresh.apply("home", "punt")
    assert exc.value.rule == "BR-PLACE"


def test_yards_move_the_ball_before_the_choice() -> None:
    """BR-R-SPOT: after 6 yards from the own 25 a punt goes from the own 31."""
    st = new()
    series(st, SIX, SIX, SIX)
    assert st.fourth_spot == 31 and "ball now at own 31" in st.game.status(st)
    events = st.apply("home", "punt")
    assert next(e for e in events if e.kind == "punt").rule == "BR-R-PUNT"
    assert (st.offense, st.los) == ("away", 100 - (31 + 40))


def test_a_punt_travels_forty_yards_or_is_a_touchback() -> None:
    """BR-PUNT and BR-R-PUNT: from the opp 30 a 40-yard punt reaches the end zone -> own 20."""
    st = new()
    st.los = 70
    series(st)
    assert st.series_score is not None and st.series_score.yards == 0
    events = st.apply("home", FourthDown("punt"))
    assert "touchback" in next(e for e in events if e.kind == "punt").text
    assert (st.offense, st.los) == ("away", 20)
    assert "BR-PUNT" in next(e for e in events if e.kind == "punt").data["also"]


def test_a_good_field_goal_scores_three() -> None:
    """BR-FIELD-GOAL and BR-R-FIELD-GOAL: distance = to the goal + 17; a sure kick scores 3."""
    st = new(field_goal_odds={60: 100})
    st.los = 80
    series(st)
    assert st.field_goal_distance() == 37
    events = st.apply("home", "field goal")
    fg = next(e for e in events if e.kind == "field_goal")
    assert fg.rule == "BR-R-FIELD-GOAL" and "from 37 yards" in fg.text and "GOOD" in fg.text
    assert "BR-FIELD-GOAL" in fg.data["also"]
    assert st.score["home"] == 3 and (st.offense, st.los) == ("away", 25)


def test_a_missed_field_goal_gives_the_ball_over_at_the_spot() -> None:
    """BR-R-FIELD-GOAL: a miss -> the other team at the spot (the opp 20 is its own 20)."""
    st = new(field_goal_odds={60: 0})
    st.los = 80
    series(st)
    st.apply("home", "field goal")
    assert st.score == {"home": 0, "away": 0} and (st.offense, st.los) == ("away", 20)


def test_the_field_goal_odds_table_and_range() -> None:
    """BR-R-FIELD-GOAL: 95/85/70/40% up to 30/40/50/60 yards; longer kicks may not be tried."""
    r = new().rules
    assert [r.field_goal_chance(d) for d in (20, 30, 31, 40, 50, 60, 61)] == [95, 95, 85, 85, 70, 40, None]
    st = new()
    st.los = 40  # 60 + 17 = 77 yards
    series(st)
    with pytest.raises(IllegalActionError) as exc:
        st.apply("home", "field goal")
    assert exc.value.rule == "BR-R-FIELD-GOAL" and "from 77 yards" in exc.value.reason
    assert exc.value.legal == ("punt", "go for it")


def test_field_goal_rolls_are_seeded() -> None:
    """BR-R-FIELD-GOAL: the same seed kicks the same; about 85% of 37-yard kicks are good."""
    def kick(seed: int) -> int:
        st = new(seed=seed)
        st.los = 80
        series(st)
        st.apply("home", "field goal")
        return st.score["home"]

    results = [kick(seed) for seed in range(200)]
    assert results[:20] == [kick(seed) for seed in range(20)]
    assert 150 <= results.count(3) <= 190


def test_going_for_it_plays_one_more_card_each_and_rescores() -> None:
    """BR-GO and BR-R-GO-RESCORE: every player draws 1; the 4th play's F4 makes SM 10 -> first down at the 35."""
    st = new()
    series(st, SIX, SIX, SIX)
    events = st.apply("home", "go for it")
    assert next(e for e in events if e.kind == "go_for_it").rule == "BR-GO"
    assert st.phase == "play" and st.play_no == 4 and st.going
    assert all(len(h) == 1 for seat in ("home", "away") for h in st.hands[seat].values())
    assert "4th & 10" in st.game.status(st)
    assert [p.value for p in st.zones["SM"]["offense"]] == [2, 2, 2]
    play(st, {"QB": "F4@SM"}, {})
    assert st.last["score"]["won"]["SM"] == 2 + 2 + 2 + 4  # earlier cards keep their values
    assert st.last["yards"] == 10 and st.last["result"] == "first_down" and st.last["went_for_it"]
    assert (st.offense, st.los) == ("home", 35)  # 25 + 10, not 25 + 6 + 10


def test_falling_short_after_going_for_it_is_a_turnover_on_downs() -> None:
    """BR-R-GO-FAIL: still 6 yards -> the other team takes over at the new spot (own 31 -> its 69)."""
    st = new()
    series(st, SIX, SIX, SIX)
    st.apply("home", "go for it")
    events = play(st)
    assert next(e for e in events if e.kind == "downs").rule == "BR-R-GO-FAIL"
    assert (st.offense, st.los) == ("away", 69)


def test_an_interception_gives_the_ball_over_at_the_line_of_scrimmage() -> None:
    """BR-R-TURNOVER: QB throws F1 into DL three times, CB1 covers with F3 (x2): interception."""
    st = new()
    st.los = 40
    pick = ({"QB": "F1@DL"}, {"CB1": "F3@DL"})
    events = series(st, pick, pick, pick)
    ev = next(e for e in events if e.kind == "interception")
    assert ev.rule == "BR-INTERCEPTION" and "BR-R-PRIORITY" in ev.data["also"]
    assert (st.offense, st.los) == ("away", 60) and st.last["result"] == "interception"


def test_a_fumble_gives_the_ball_over_too() -> None:
    """BR-R-TURNOVER: RB carries S1 into SL, DT1 stuffs with S3 (x1): fumble."""
    st = new()
    stuff = ({"RB": "S1@SL"}, {"DT1": "S3@SL"})
    events = series(st, stuff, stuff, stuff)
    assert "fumble" in kinds(events) and (st.offense, st.los) == ("away", 75)


def test_the_field_is_a_hundred_yards_with_drives_from_the_25() -> None:
    """BR-R-FIELD: spots read from the offense's side; inside the 10 it is '& goal'."""
    st = new()
    assert (st.los, st.field_text(25), st.field_text(50), st.field_text(70)) == (25, "own 25", "midfield", "opp 30")
    st.los = 95
    assert "1st & goal at opp 5" in st.game.status(st)
    assert st.view("home")["ball"] == {"spot": 95, "at": "opp 5", "to_goal": 5}


def test_a_coin_toss_decides_who_has_the_ball_first() -> None:
    """BR-R-FIRST: a seeded toss (both teams start in some games), or fixed by the ruleset."""
    firsts = {new(seed=s, first_offense="toss").offense for s in range(20)}
    assert firsts == {"home", "away"}
    st = new(seed=4, first_offense="toss")
    toss = next(e for e in st.setup_events if e.kind == "toss")
    assert toss.rule == "BR-R-FIRST" and st.offense in toss.text
    assert new(seed=4, first_offense="toss").offense == st.offense
    assert new(first_offense="away").offense == "away"


def test_the_game_lasts_a_fixed_number_of_series() -> None:
    """BR-R-LENGTH: with rounds = 2 the game ends after the second series (its choice included)."""
    st = new(rounds=2)
    series(st, FOUR, FOUR, FOUR)
    assert st.round == 2 and not st.is_terminal
    series(st, SIX, SIX, SIX)
    assert not st.is_terminal and st.phase == "fourth_down"
    events = st.apply("home", "punt")
    assert st.is_terminal and events[-1].rule == "BR-R-LENGTH" and st.to_act() == ()
    assert new().rules.rounds == 20


def test_more_points_win_and_equal_points_draw() -> None:
    """BR-R-WIN: a touchdown in a one-series game wins it; a scoreless one is a draw."""
    st = new(rounds=1)
    st.los = 95
    series(st, SIX, SIX, SIX)
    assert st.outcome is not None and st.outcome.winner == "home" and st.outcome.rule == "BR-R-WIN"
    assert st.outcome.score == {"home": 7, "away": 0}
    st = new(rounds=1)
    series(st)
    st.apply("home", "punt")
    assert st.outcome is not None and st.outcome.is_draw
