"""The ruleset: the document's numbers as defaults, TOML rules files, validation."""

from __future__ import annotations

from pathlib import Path

import pytest
from br_helpers import G, new, series

from gm.core.errors import RulesetError
from gm.core.game import ruleset_hash
from gm.games.brawl.rules import BrawlRules


def test_defaults_are_the_documents_numbers() -> None:
    r = BrawlRules()
    assert r.multipliers == {"D": 4, "M": 2, "S": 1, "B": 0}
    assert (r.strong_factor, r.weak_divisor, r.series_cards, r.go_cards, r.first_down_yards) == (2, 2, 3, 1, 10)
    assert len(r.offense) == len(r.defense) == 11
    assert (r.field_length, r.drive_start, r.rounds, r.turnovers) == (100, 25, 20, "pure")


def test_a_toml_rules_file_changes_numbers_and_decks(tmp_path: Path) -> None:
    path = tmp_path / "brawl.toml"
    path.write_text(
        """
rounds = 6
first_down_yards = 8
turnovers = "any"
field_goal_odds = { 45 = 90, 55 = 50 }

[multipliers]
D = 5
M = 3
S = 1
B = 0

[positions.QB]
effects = { B = "-", S = "-", M = "S", D = "-" }
deck = ["F5", "F5", "A2-6", "S1"]

[positions.KR]
side = "offense"
effects = { B = "-", S = "-", M = "-", D = "S" }
deck = ["A1-6", "A1-6", "A1-6", "A1-6"]
""",
        encoding="utf-8",
    )
    r = G.load_rules_file(path)
    assert r.rounds == 6 and r.multipliers["D"] == 5 and r.field_goal_odds == {45: 90, 55: 50}
    assert r.positions["QB"].deck == ["F5", "F5", "A2-6", "S1"] and r.positions["QB"].side == "offense"
    assert r.positions["RB"] == BrawlRules().positions["RB"]  # the others keep their defaults
    assert r.positions["KR"].effects["D"] == "S"  # a new position (for a custom roster)
    st = G.new_state(r, seed=1)
    assert all(c.code in ("F5", "A2-6", "S1") for c in st.hands[st.offense]["QB"])
    twin = st.replay()
    assert twin.rules == r and ruleset_hash(twin.rules) == ruleset_hash(r)


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"rounds": 0}, "rounds"),
        ({"multipliers": {"D": 4, "M": 2}}, "regions D, M, S and B"),
        ({"positions": {"QB": {"side": "offense", "effects": {"B": "-", "S": "-", "M": "-", "D": "-"}, "deck": ["Q9"]}}}, "not a card"),
        ({"positions": {"QB": {"side": "offense", "effects": {"B": "-", "S": "-", "M": "-", "D": "X"}, "deck": ["F1"] * 8}}}, "effects"),
        ({"offense": {"QB": "MLB"}}, "defense position"),
        ({"offense": {"S1": "QB"}}, "card code"),
        ({"offense": {"SL": "SLOT"}}, "a zone"),
        ({"defense": {"X": "S"}}, "a zone"),
        ({"offense": {"qb": "QB"}}, "capital"),
        ({"offense": {f"P{i}": "QB" for i in range(12)}}, "between 1 and 11"),
        ({"defense": {"QB": "MLB"}}, "must differ"),
        ({"offense": {"QB": "KICKER"}}, "unknown position"),
        ({"series_cards": 6, "go_cards": 3}, "cards needed"),
        ({"field_goal_odds": {"40": 120}}, "percentages"),
        ({"turnovers": "sometimes"}, "turnovers"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_bad_rulesets_are_one_clear_error(data: dict, needle: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(RulesetError) as exc:
        G.load_rules(data)
    assert needle in exc.value.reason and exc.value.rule == "CORE-RULES"


def test_a_bad_rules_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("rounds = -3\n", encoding="utf-8")
    with pytest.raises(RulesetError) as exc:
        G.load_rules_file(path)
    assert "bad.toml" in exc.value.reason and "rounds" in exc.value.reason


def test_a_custom_series_length_and_go_cards() -> None:
    st = new(series_cards=2, go_cards=2)
    assert all(len(h) == 2 for h in st.hands["home"].values()) and st.plays_in_series == 2
    series(st, ({"QB": "F2@SM"}, {}), ({"QB": "F2@SM"}, {}))
    assert st.phase == "fourth_down"
    st.apply("home", "go for it")
    assert all(len(h) == 2 for h in st.hands["home"].values()) and st.plays_in_series == 4  # two more plays
    series(st)
    assert st.phase in ("play", "fourth_down") and st.round == 2  # the series was rescored after both
