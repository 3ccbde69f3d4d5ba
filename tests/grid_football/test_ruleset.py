"""The ruleset model: defaults are the quick-start numbers; bad rulesets are one clear error."""

from __future__ import annotations

import pytest
from gf_helpers import G

from gm.core import RulesetError


@pytest.mark.rules("GF-BOARD", "GF-R-KICK-COLUMN", "GF-KICK-DIST", "GF-QUARTERS")
def test_the_defaults_are_the_quick_start_numbers() -> None:
    r = G.default_rules()
    assert (r.columns, r.rows, r.low_goal_line, r.high_goal_line) == (20, 64, 5, 59)
    assert (r.kick_distance, r.return_steps, r.kick_columns) == (55, {2: 5, 1: 10, 0: 15}, {"left": "E", "center": "K", "right": "P"})
    assert (r.quarters, r.downs_per_quarter, r.downs, r.first_down_rows) == (4, 15, 4, 10)
    assert {n: (p.wrong.forward, p.wrong.lateral, p.matched.forward, p.matched.lateral) for n, p in r.plays.items()} == {
        1: (4, 3, 0, 2), 2: (2, 0, -2, 0), 3: (1, 3, -3, 0), 4: (5, 2, -4, 1)
    }


def test_rulesets_do_not_share_their_plays_table() -> None:
    a, b = G.load_rules(None), G.load_rules(None)
    assert a == b and a.plays is not b.plays
    del a.plays[4]
    assert 4 in b.plays and 4 in G.load_rules(None).plays


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"kick_columns": {"left": "E", "center": "K", "right": "Z"}}, "kick_columns.right"),
        ({"kick_columns": {"left": "EE", "center": "K", "right": "P"}}, "kick_columns.left"),
        ({"columns": 10}, "kick_columns.center"),
        ({"quarters": 3, "warning_quarters": [2], "switch_after_quarters": [1]}, "even"),
        ({"punt_downs": [5]}, "punt_downs"),
        ({"low_goal_line": 30, "high_goal_line": 31}, "no field of play"),
        ({"plays": {1: False, 2: False, 3: False, 4: False}}, "at least one play"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_bad_rulesets_are_one_clear_error(data: dict[str, object], words: str) -> None:
    with pytest.raises(RulesetError) as info:
        G.load_rules(data)
    assert words in info.value.reason and info.value.rule == "CORE-RULES"


#: the largest ruleset: every size at the maximum its bounds allow (the low goal line and the
#: kickoff returns as large as the rest permits: returns must stop short of the end zone)
LARGEST: dict[str, object] = {
    "columns": 26, "rows": 99, "low_goal_line": 1, "high_goal_line": 99, "kick_distance": 99, "punt_distance": 99,
    "kick_columns": {"left": "A", "center": "M", "right": "Z"}, "return_steps": {0: 97, 1: 97, 2: 97},
    "number_max": 100, "punt_downs": list(range(1, 11)),
    "plays": {
        n: {"name": "X" * 40, "wrong": {"forward": 20, "lateral": 10}, "matched": {"forward": -20, "lateral": 10},
            "unlock_quarter": 1 if n == 9 else 1 + n}
        for n in range(1, 10)
    },
    "no_match_bonus": 20, "play_match_bonus": 20, "colour_match_forward": 20, "first_down_rows": 99, "downs": 10,
    "quarters": 12, "downs_per_quarter": 100, "switch_after_quarters": list(range(1, 13)),
    "warning_quarters": list(range(1, 13)), "warning_downs_left": 100, "touchdown_points": 100, "win": "points",
}


def test_the_largest_ruleset_plays_a_random_game_to_the_end_in_little_memory() -> None:
    import random
    import time
    import tracemalloc

    rules = G.load_rules(LARGEST)
    props = G.rules_model.model_json_schema()["properties"]
    at_max = [n for n, p in props.items() if "maximum" in p and getattr(rules, n) == p["maximum"]]
    assert set(at_max) >= {"columns", "rows", "high_goal_line", "kick_distance", "punt_distance", "number_max", "first_down_rows",
                           "downs", "quarters", "downs_per_quarter", "warning_downs_left", "touchdown_points",
                           "no_match_bonus", "play_match_bonus", "colour_match_forward"}
    rng = random.Random(1)
    tracemalloc.start()
    t0 = time.perf_counter()
    s = G.new_state(rules, 1)
    moves = 0
    while not s.is_terminal and moves < 20_000:
        seat = s.to_act()[0]
        legal = s.legal_actions(seat)
        assert len(legal) <= 1 + 9 * (3 + 2 * 2 * 10 * 2)  # punt + every play, colour and lateral
        s.apply(seat, legal.sample(rng))
        moves += 1
    seconds = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert s.is_terminal and s.quarter == 12 and s.outcome is not None
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MB"
    assert seconds < 15, seconds  # a sanity guard, not a speed test (bench/bench_grid_football.py measures speed)


def test_a_first_down_a_million_rows_away_is_refused_with_its_range() -> None:
    with pytest.raises(RulesetError) as info:
        G.load_rules({"first_down_rows": 1_000_000})
    assert info.value.message == "[CORE-RULES] first_down_rows: 1000000 is out of range; allowed 1 to 99"


def test_a_kickoff_return_that_always_scores_is_refused() -> None:
    """Points mode kicks off after every touchdown: returns that always score would never end."""
    with pytest.raises(RulesetError) as info:
        G.load_rules({"return_steps": {2: 5, 1: 10, 0: 56}})
    assert info.value.reason == (
        "(top level): Value error, return_steps: a kickoff return of 56 steps reaches the end zone on an open board; "
        "with these goal lines and kick distance a return may be at most 54 steps"
    )
    assert G.load_rules({"return_steps": {2: 5, 1: 10, 0: 54}}).return_steps[0] == 54
