"""Meta tests: every rule id has a test, every rule id the engine names is in RULES, and
rules_md/brawl.md states every rule and writes up every ruling."""

from __future__ import annotations

import re
from pathlib import Path

import gm.games.brawl as pkg
from gm.games.brawl import GAME
from gm.games.brawl.ruleids import RULES

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
RULE_ID = re.compile(r"\bBR-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
QUOTED_ID = re.compile(r"""["'](BR-[A-Z0-9]+(?:-[A-Z0-9]+)*)["']""")


def _found(paths: list[Path], pattern: re.Pattern[str]) -> set[str]:
    out: set[str] = set()
    for p in paths:
        out.update(pattern.findall(p.read_text(encoding="utf-8")))
    return out


def test_every_rule_id_is_pinned_by_a_test() -> None:
    tests = [p for p in HERE.glob("test_*.py") if p.name != Path(__file__).name]
    referenced = _found(tests, RULE_ID)
    missing = sorted(set(RULES) - referenced)
    assert not missing, f"rule ids without a test: {missing}"
    unknown = sorted(referenced - set(RULES))
    assert not unknown, f"tests name rule ids that do not exist: {unknown}"


def test_every_rule_id_the_engine_names_is_in_the_index() -> None:
    named = _found(list(Path(pkg.__file__).parent.glob("*.py")), QUOTED_ID)
    assert named and named <= set(RULES), sorted(named - set(RULES))
    assert GAME.rules_index is RULES
    for rid, title in RULES.items():
        assert rid.startswith("BR-") and title and "\n" not in title


def test_the_rules_document_states_every_rule_and_writes_up_every_ruling() -> None:
    text = (ROOT / "rules_md" / "brawl.md").read_text(encoding="utf-8")
    body, rulings = text.split("\n## Rulings\n", 1)
    missing = [rid for rid in RULES if f"`{rid}`" not in text and f"### {rid}:" not in text]
    assert not missing, missing
    for rid in (r for r in RULES if r.startswith("BR-R-")):
        m = re.search(rf"^### {re.escape(rid)}: [^\n]+\n\n(.*?)(?=^### |\Z)", rulings, flags=re.S | re.M)
        assert m, f"{rid} has no write-up under Rulings"
        for part in ("- **The document:**", "- **Ruling:**", "- **Why:**"):
            assert part in m.group(1), f"{rid}: missing {part}"
        assert f"**Ruling `{rid}`.**" in body, f"{rid} is not stated where it applies"
    written = set(re.findall(r"^### (BR-R-[A-Z0-9-]+):", rulings, flags=re.M))
    assert written == {r for r in RULES if r.startswith("BR-R-")}


def test_the_rules_document_lists_the_default_decks() -> None:
    text = (ROOT / "rules_md" / "brawl.md").read_text(encoding="utf-8")
    for pos, spec in GAME.default_rules().positions.items():
        assert f"| {pos} | {' '.join(spec.deck)} |" in text, pos


def test_the_game_is_registered() -> None:
    from gm.core.registry import find_game

    assert find_game("brawl") is GAME and find_game("Brawl") is GAME
    assert {t.name for t in GAME.action_tools()} == {"play_cards", "choose_fourth_down", "get_zone"}


def test_the_rules_text_is_the_rulesets() -> None:
    """Rule texts carry the session's ruleset: its numbers, rosters and choices (BR-R-PUNT, BR-R-SCORE, ...)."""
    default = GAME.rules_text(None)
    assert set(default) == set(RULES) and all(default.values())
    assert default["BR-R-PUNT"] == "Punt: 40 yards from the spot; past the goal line it is a touchback at the receiving team's 20"
    assert default["BR-YARDS"].endswith("(D 4x, M 2x, S 1x, B 0x)") and default["BR-STRONG"].endswith("by 2")
    custom = GAME.rules_text({"punt_distance": 35, "touchdown_points": 6, "rounds": 8, "turnovers": "any", "go_cards": 2,
                              "first_offense": "away", "offense": {"QB": "QB", "RB": "RB"}, "multipliers": {"D": 5, "M": 3, "S": 1, "B": 0}})
    assert custom["BR-R-PUNT"].startswith("Punt: 35 yards") and custom["BR-R-SCORE"].startswith("A touchdown scores 6")
    assert custom["BR-R-LENGTH"].startswith("A game is 8 series") and custom["BR-TEAMS"].startswith("2 players on offense and 11")
    assert custom["BR-R-TURNOVER-ZONE"].startswith("A defense win on Focus or Strength alone turns the ball over wherever")
    assert custom["BR-GO"].startswith("Go for it: each player draws 2 cards") and custom["BR-R-FIRST"] == "away has the ball first"
    assert custom["BR-YARDS"].endswith("(D 5x, M 3x, S 1x, B 0x)") and custom["BR-R-ROSTER"].startswith("Offense QB RB;")


def test_rule_words_name_real_rules() -> None:
    assert GAME.rule_words and all(ids and set(ids) <= set(RULES) for ids in GAME.rule_words.values())
    assert "BR-INTERCEPTION" in GAME.rule_words["pick"] and "BR-SACK" in GAME.rule_words["sack"]


def test_the_tools_describe_the_sessions_ruleset() -> None:
    """The action tools state what this ruleset allows: players, multipliers, punt, kick range, go-for-it cards."""
    tools = {t.name: t for t in GAME.action_tools(None)}
    assert "one card from each of your 11 players" in tools["play_cards"].description
    assert "Downfield 4x, Midfield 2x, Scrimmage 1x, Backfield 0x" in tools["play_cards"].description
    assert "punt (40 yards)" in tools["choose_fourth_down"].description and "up to 60 yards" in tools["choose_fourth_down"].description
    custom = {t.name: t for t in GAME.action_tools({"offense": {"QB": "QB", "RB": "RB"}, "punt_distance": 35, "go_cards": 2,
                                                    "field_goal_odds": {45: 80}})}
    assert "(2 on offense, 11 on defense)" in custom["play_cards"].description
    fourth = custom["choose_fourth_down"].description
    assert "punt (35 yards)" in fourth and "up to 45 yards" in fourth and "draws 2 more cards" in fourth
