"""Quarter Back flow and set-up: halves, games, the match, the whistle, the toss, the ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest
from qb_helpers import G, at, game, pins, rejected, rules_of, side, texts

from gm.core import RulesetError
from gm.games.quarterback.engine import game_points


def _whistle_half(s, seat_order=("red", "blue")) -> list:  # type: ignore[no-untyped-def]
    """Both sides end their turns until the half's whistle (max_rounds rounds)."""
    events = []
    half = s.half
    while s.half == half and not s.is_terminal:
        events += s.apply(s.to_act()[0], "end")
    return events


@pins("QB-HALVES")
def test_two_halves_roles_swap_pieces_reset_attacker_first() -> None:
    s = game(side("E-2", t=("A0",)), side(t=("A8",)), max_rounds=1)
    s.apply("red", "move T1 A0-A3")
    s.apply("red", "end")
    ev = s.apply("blue", "end")
    assert "QB-HALVES" in rules_of(ev)
    assert (s.attacker, s.defender, s.phase, s.round) == ("blue", "red", "attack", 1)
    assert s.to_act() == ("blue",)
    assert at(s, "blue", "T1") == "A0" and at(s, "red", "T1") == "A8"  # set out afresh, roles swapped


@pins("QB-R-WHISTLE")
def test_whistle_scores_the_carrier_where_it_stands() -> None:
    s = game(side("E-2"), side(t=("A8",)), max_rounds=2)
    s.apply("red", "move QB E-2-E1")
    s.apply("red", "end")
    s.apply("blue", "end")
    assert s.round == 2 and s.half == 0
    s.apply("red", "move QB E1-E5")
    s.apply("red", "end")
    ev = s.apply("blue", "end")
    assert "QB-R-WHISTLE" in rules_of(ev)
    assert s.results[0] == {"game": 1, "half": 1, "attacker": "red", "how": "whistle", "square": "E5", "points": 10, "rounds": 2}


@pins("QB-R-WHISTLE")
def test_whistle_with_a_loose_ball_scores_nothing() -> None:
    s = game(side("E-2"), side(t=("A8",)), max_rounds=1)
    s.apply("red", "pass to E3")
    s.apply("red", "end")
    ev = s.apply("blue", "end")
    assert s.results[0]["how"] == "whistle" and s.results[0]["points"] == 0
    assert "scores nothing" in texts(ev)


@pins("QB-WIN")
def test_game_winner_has_more_points() -> None:
    s = game(side("E-2"), side(t=("A8",)), max_rounds=1)
    s.apply("red", "move QB E-2-E1")
    _whistle_half(s)
    _whistle_half(s)  # blue's Quarterback stays on E-2: 5 points against red's 6
    assert s.is_terminal and s.outcome is not None
    assert (s.outcome.winner, s.outcome.rule, s.outcome.score) == ("red", "QB-WIN", {"red": 6, "blue": 5})
    s = game(side("E-2"), side(t=("A8",)), max_rounds=1)
    _whistle_half(s)
    _whistle_half(s)
    assert s.outcome is not None and s.outcome.is_draw


@pins("QB-MATCH", "QB-R-FORMAT")
def test_full_match_two_games_game_points() -> None:
    s = G.new_state({"first_attacker": "blue", "max_rounds": 1})
    assert s.rules.format == "match" and s.order == ["blue", "red", "red", "blue"]
    attackers = []
    while not s.is_terminal:
        attackers.append(s.attacker)
        if s.attacker == "red" and s.half == 2:
            s.apply("red", "move QB E-2-F-2")  # red wins game 2 by 6-5, game 1 is drawn 5-5
        _whistle_half(s)
    assert attackers == ["blue", "red", "red", "blue"]
    assert s.points == [{"red": 5, "blue": 5}, {"red": 6, "blue": 5}]
    assert s.outcome is not None
    assert (s.outcome.winner, s.outcome.rule, s.outcome.score) == ("red", "QB-MATCH", {"red": 3, "blue": 1})
    assert "3-1" in s.outcome.reason


@pins("QB-R-MATCH-LIST")
def test_match_outcomes_list_ruling() -> None:
    w, d, lose = {"red": 9, "blue": 1}, {"red": 4, "blue": 4}, {"red": 1, "blue": 9}
    table = {
        (0, 0): (4, 0),  # win both
        (0, 1): (3, 1),  # win and draw
        (0, 2): (2, 2),  # win and lose: a drawn match
        (1, 1): (2, 2),  # two draws
        (1, 2): (1, 3),
        (2, 2): (0, 4),
    }
    for (a, b), (red, blue) in table.items():
        games = [(w, d, lose)[a], (w, d, lose)[b]]
        assert game_points(games) == {"red": red, "blue": blue}


@pins("QB-TOSS", "QB-R-TOSS")
def test_coin_toss_decides_who_attacks_first() -> None:
    firsts = {G.new_state(seed=seed).first_attacker for seed in range(12)}
    assert firsts == {"red", "blue"}
    s1, s2 = G.new_state(seed=5), G.new_state(seed=5)
    assert s1.first_attacker == s2.first_attacker == s1.attacker  # seeded: the same every time
    assert G.new_state({"first_attacker": "blue"}, seed=5).attacker == "blue"
    assert G.seats == ("red", "blue")


@pins("QB-R-BOARD", "QB-R-SETUP")
def test_default_board_and_setup_rulings() -> None:
    s = G.new_state({"first_attacker": "red"})
    snap = s.snapshot()["pieces"]
    assert snap["red"] == {"QB": "E-2", "S1": "D0", "S2": "E0", "S3": "F0", "D1": "C0", "D2": "G0", "T1": "A0", "T2": "I0"}
    assert snap["blue"] == {"S1": "D1", "S2": "E1", "S3": "F1", "D1": "C1", "D2": "G1", "T1": "B4", "T2": "H4"}
    assert (s.rules.columns, s.rules.min_row, s.rules.field_rows) == (9, -2, 12)


@pins("QB-R-COLUMNS", "QB-SCORE")
def test_column_points_and_unnumbered_rows() -> None:
    s = G.new_state()
    assert s.value((3, 8)) == 12  # D8: the document's example
    assert s.value((0, 0)) == 1 and s.value((8, 12)) == 21
    assert s.value((4, -2)) == 5  # an unnumbered row counts 0
    s = G.new_state({"column_values": [5, 4, 3, 2, 1, 2, 3, 4, 5]})
    assert s.value((0, 3)) == 8


@pins("QB-R-SETUP")
def test_setup_from_a_toml_file(tmp_path: Path) -> None:
    f = tmp_path / "printed.toml"
    f.write_text(
        'columns = 7\nfield_rows = 10\nback_rows = 1\nmax_rounds = 8\nformat = "game"\n'
        '[attack]\nquarterback = ["D-1"]\nsingles = ["C0", "D0", "E0"]\ntriples = ["A0", "G0"]\n'
        '[defense]\nsingles = ["C1", "D1", "E1"]\ndoubles = ["B1", "F1"]\ntriples = ["D5"]\n'
    )
    rules = G.load_rules_file(f)
    s = G.new_state(rules, seed=3)
    assert s.snapshot()["pieces"][s.attacker]["QB"] == "D-1"
    assert s.value((6, 10)) == 17 and not s.rules.on_board((7, 0))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"attack": {"quarterback": []}}, "exactly one Quarterback"),
        ({"attack": {"quarterback": ["E-2"], "singles": ["E-2"]}}, "already taken"),
        ({"attack": {"quarterback": ["E-3"]}}, "off the board"),
        ({"defense": {"triples": ["B-1"]}}, "offside"),
        ({"defense": {"doubles": ["C3"]}}, "offside"),
        ({"defense": {"singles": ["B2"]}}, "offside"),
        ({"attack": {"quarterback": ["E-2"], "triples": ["C2"]}, "defense": {"singles": ["D1"]}}, "next to an opposition Single"),
        ({"columns": 5}, "off the board"),
        ({"column_values": [1, 2]}, "one value per column"),
        ({"double_strength": 4}, "order"),
        ({"moves": 3}, "no such field"),
    ],
)
@pins("QB-R-SETUP")
def test_setup_validation(data: dict, words: str) -> None:
    with pytest.raises(RulesetError) as info:
        G.load_rules(data)
    assert words in info.value.reason


@pins("QB-R-DEFENSE-QB")
def test_defending_quarterback_plays_as_a_triple() -> None:
    s = game(side("E-2", d=("E2",)), side("E5"))
    assert s.kind[("blue", "QB")] == "T"
    s.apply("red", "pass to E2")
    s.apply("red", "end")
    s.apply("blue", "move QB E5-E2")  # tackles a Double like a Triple does
    assert s.results[0]["how"] == "tackle"
    s = game(side("E-2"), side("E5"))
    s.apply("red", "end")
    rejected(s, "blue", "move QB E5-E1", "QB-MOVE-TRIPLE")  # no extra square over the line
    s = game(side("E-2"), side("E2"))
    s.apply("red", "end")
    rejected(s, "blue", "move QB E2-E0", "QB-OFFSIDE-TRIPLE")
    with pytest.raises(RulesetError):
        G.load_rules({"defense": {"quarterback": ["E0"]}})


@pins("QB-STRENGTH")
def test_strengths_are_the_documents() -> None:
    r = G.default_rules()
    assert [r.strength(k) for k in "SDTQ"] == [3, 2, 1, 1]
    assert (r.single_moves, r.double_moves, r.triple_moves, r.quarterback_extra, r.attack_actions) == (1, 2, 3, 1, 2)
    assert (r.win_points, r.draw_points) == (2, 1)
