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
