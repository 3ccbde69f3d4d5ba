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
        m = re.search(rf"^### {re.escape(rid)}: .+\n\n(.*?)(?=^### |\Z)", rulings, flags=re.S | re.M)
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
