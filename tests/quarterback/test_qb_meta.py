"""Meta tests: every rule id is pinned by a test, every ruling is written up, the engine names only known ids."""

from __future__ import annotations

import re
from pathlib import Path

import gm.games.quarterback as pkg
from gm.games.quarterback import GAME
from gm.games.quarterback.ruleids import RULES

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
QUOTED_ID = re.compile(r"""["'](QB-[A-Z0-9]+(?:-[A-Z0-9]+)*)["']""")


def _ids_in(paths: list[Path]) -> set[str]:
    found: set[str] = set()
    for p in paths:
        found.update(QUOTED_ID.findall(p.read_text(encoding="utf-8")))
    return found


def test_every_rule_id_is_pinned_by_a_test() -> None:
    tests = [p for p in HERE.glob("test_*.py") if p.name != Path(__file__).name]
    referenced = _ids_in(tests)
    missing = sorted(set(RULES) - referenced)
    assert not missing, f"rule ids without a test: {missing}"
    unknown = sorted(referenced - set(RULES))
    assert not unknown, f"tests name rule ids that do not exist: {unknown}"


def test_every_rule_id_the_engine_names_is_in_the_index() -> None:
    named = _ids_in(list(Path(pkg.__file__).parent.glob("*.py")))
    assert named - set(RULES) == set()
    assert GAME.rules_index is RULES
    for rid, title in RULES.items():
        assert rid.startswith("QB-") and title and "\n" not in title


def test_every_ruling_is_written_up() -> None:
    text = (ROOT / "rules_md" / "quarterback.md").read_text(encoding="utf-8")
    rulings = text[text.index("## Rulings") :]
    for rid in RULES:
        if rid.startswith("QB-R-"):
            assert f"### {rid}" in rulings, f"{rid} is not written up under Rulings"
    for rid in RULES:
        assert rid in text, f"{rid} is not mentioned in rules_md/quarterback.md"


CUSTOM = {
    "columns": 7, "column_values": [4, 3, 2, 1, 2, 3, 4], "field_rows": 9, "back_rows": 1, "double_moves": 3,
    "triple_moves": 4, "quarterback_extra": 2, "attack_actions": 3, "defense_moves": 1, "max_rounds": 8,
    "format": "game", "first_attacker": "blue", "win_points": 3, "draw_points": 1,
    "attack": {"quarterback": ["D-1"], "singles": ["C0", "D0", "E0"], "doubles": ["B0", "F0"], "triples": ["A0"]},
    "defense": {"singles": ["C1", "D1", "E1"], "doubles": ["B1"], "triples": ["F3"]},
}  # fmt: skip


def test_the_rules_are_stated_as_the_session_s_ruleset_has_them() -> None:
    assert GAME.rules_text() is RULES and GAME.rules_text({}) == RULES
    texts = GAME.rules_text(CUSTOM)
    assert list(texts) == list(RULES)
    assert texts["QB-R-BOARD"] == (
        "Board: 7 columns A-G, numbered rows 0-9 and 1 unnumbered row (-1) behind row 0; the attacker plays up toward row 9"
    )
    assert texts["QB-R-COLUMNS"] == "Columns score 4, 3, 2, 1, 2, 3, 4 from the attacker's left; an unnumbered row counts 0"
    assert texts["QB-R-SETUP"] == (
        "Set-up: attack QB D-1, Singles C0 D0 E0, Doubles B0 F0, Triples A0; defense Singles C1 D1 E1, Doubles B1, Triples F3"
    )
    assert texts["QB-MOVE-DOUBLE"] == "A Double moves up to three squares, one at a time, in any direction"
    assert texts["QB-MOVE-TRIPLE"] == "A Triple moves as a Double with the option of yet another square in any direction"
    assert texts["QB-MOVE-QB"].endswith("starting on rows 1-9, as a Triple plus two squares")
    assert texts["QB-TURN"] == "The attacker has three actions a turn, each moving a piece or passing"
    assert texts["QB-R-DEFENSE-TURN"].startswith("The defender moves up to one different piece a turn")
    assert texts["QB-OFFSIDE-TRIPLE"].endswith("rows 1-9") and "rows 2-9" in texts["QB-OFFSIDE-LINE"]
    assert texts["QB-R-WHISTLE"].startswith("A half ends after 8 rounds:")
    assert texts["QB-MATCH"].endswith("game points: 3 a win, 1 a draw")
    assert texts["QB-R-MATCH-LIST"] == (
        "The lost list of match outcomes: W+W 6-0 and W+D 4-1 win, W+L 3-3 and D+D 2-2 draw, D+L 1-4 and L+L 0-6 lose"
    )
    assert texts["QB-R-TOSS"].endswith("this ruleset has no toss: blue attacks first")
    assert texts["QB-R-FORMAT"].endswith("(as this ruleset does)")
    assert GAME.rules_text({"back_rows": 0, "attack": {"quarterback": ["B0"]}})["QB-R-BOARD"].startswith(
        "Board: 9 columns A-I, numbered rows 0-12 and no unnumbered rows behind row 0"
    )


def test_the_words_players_use_lead_to_rules() -> None:
    assert GAME.rule_words
    for word, ids in GAME.rule_words.items():
        assert word == word.lower() and " " not in word and ids
        assert set(ids) <= set(RULES), word
    assert "QB-OFFSIDE-LINE" in GAME.rule_words["offside"] and "QB-TOSS" in GAME.rule_words["toss"]


def test_the_action_tools_say_what_the_ruleset_allows() -> None:
    default = {t.name: t.description for t in GAME.action_tools()}
    assert default["move_piece"].startswith(
        "Move one of your pieces square by square (any direction): a Single 1 square, a Double up to 2, a Triple up to 3, "
        "the Quarterback 3 (4 when it starts over the line)."
    )
    assert default["end_turn"] == "End your turn now (you may do less than your two actions)."
    custom = {t.name: t.description for t in GAME.action_tools(CUSTOM)}
    assert "a Double up to 3, a Triple up to 4, the Quarterback 4 (6 when it starts over the line)" in custom["move_piece"]
    assert custom["end_turn"] == "End your turn now (you may do less than your 3 actions; the defender moves up to 1 piece)."
    assert custom["pass_ball"].endswith("; rows run up to 9.")
