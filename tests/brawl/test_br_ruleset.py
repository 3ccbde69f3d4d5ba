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
        ({"offense": {f"P{i}": "QB" for i in range(12)}}, "offense: Dictionary should have at most 11 items"),
        ({"offense": {}}, "between 1 and 11"),
        ({"defense": {"QB": "MLB"}}, "must differ"),
        ({"offense": {"QB": "KICKER"}}, "unknown position"),
        ({"series_cards": 6, "go_cards": 3}, "cards needed"),
        ({"field_goal_odds": {"40": 120}}, "field_goal_odds.40: Input should be less than or equal to 100"),
        ({"field_goal_odds": {}}, "field_goal_odds: Dictionary should have at least 1 item"),
        ({"positions": {"QB": {"deck": ["F1"] * 41}}}, "positions.QB.deck: List should have at most 40 items"),
        ({"multipliers": {"D": 21, "M": 2, "S": 1, "B": 0}}, "multipliers.D: Input should be less than or equal to 20"),
        ({"multipliers": {"D": 4, "M": 2, "S": 1, "B": 0, "X": 1}}, "multipliers.X.[key]"),
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


def _largest() -> BrawlRules:
    """Every size at its maximum: 11 a side, 32 positions with 40-card decks of the largest values, the
    longest field, series and game, the largest multipliers, factors and odds table."""
    from gm.games.brawl.rules import MAX_DECK, MAX_MULTIPLIER, MAX_POSITIONS, PLAYABLE

    deck = ["A0-99", "S99", "F99", "A1-2"] * (MAX_DECK // 4)
    positions = {f"P{i}": {"side": "offense" if i % 2 else "defense", "effects": {"B": "S", "S": "W", "M": "-", "D": "S"},
                           "deck": deck} for i in range(MAX_POSITIONS - len(BrawlRules().positions))}
    n = len(positions)
    roster = {unit: {f"{unit[0].upper()}{i}": f"P{(2 * i + (unit == 'offense')) % n}" for i in range(len(PLAYABLE))}
              for unit in ("offense", "defense")}
    return G.load_rules({
        "positions": positions, **roster, "multipliers": dict.fromkeys("DMSB", MAX_MULTIPLIER),
        "strong_factor": 10, "weak_divisor": 10, "series_cards": 6, "go_cards": 3, "first_down_yards": 99,
        "field_length": 200, "drive_start": 199, "punt_distance": 200, "punt_touchback": 199, "field_goal_extra": 100,
        "field_goal_odds": {300 - i: 100 - i for i in range(20)}, "touchdown_points": 99, "field_goal_points": 99,
        "rounds": 500,
    })


def test_the_largest_ruleset_still_plays_a_whole_random_game_in_sane_time_and_memory() -> None:
    """Issue #15: the bounds keep the largest allowed ruleset playable: 500 series of 22 players with
    40-card decks play to the end (about a second), and the whole state stays small."""
    import pickle

    from gm.core.playout import play_out
    from gm.games.brawl.bots import RandomBot

    rules = _largest()
    assert len(rules.positions) == 32 and all(len(p.deck) <= 40 for p in rules.positions.values())
    st = G.new_state(rules, 7)
    moves = play_out(st, {s: RandomBot(i) for i, s in enumerate(G.seats)})
    assert st.is_terminal and st.round == 500 and moves > 3000
    assert len(pickle.dumps(st)) < 8 * 2**20
