"""Bookkeeping: every rule id is pinned by a test, the engine names only known ids, and
every ruling is written up in rules_md/gridmaster4.md."""

from __future__ import annotations

import re
from pathlib import Path

from gm.games.gridmaster4.ruleids import RULES

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
ID = re.compile(r"\"((?:GM4|CORE)-[A-Z0-9-]+)\"")


def test_every_rule_id_is_referenced_by_a_test() -> None:
    src = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    referenced = set(ID.findall(src))
    assert not sorted(set(RULES) - referenced)


def test_the_engine_names_only_known_rule_ids() -> None:
    src = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "gm/games/gridmaster4").glob("*.py"))
    named = {rid for rid in ID.findall(src) if rid.startswith("GM4-")}
    assert named and not sorted(named - set(RULES))


def test_rule_ids_follow_the_naming_scheme() -> None:
    for rid, title in RULES.items():
        assert re.fullmatch(r"GM4-(R-)?[A-Z0-9]+(-[A-Z0-9]+)*", rid), rid
        assert title and title[0].isupper() and "\n" not in title


def test_every_ruling_is_written_up() -> None:
    text = (ROOT / "rules_md" / "gridmaster4.md").read_text(encoding="utf-8")
    rulings = text.split("\n## Rulings\n", 1)[1]
    for rid in (r for r in RULES if r.startswith("GM4-R-")):
        m = re.search(rf"^### {re.escape(rid)}: [^\n]+\n\n(.*?)(?=^### |^## |\Z)", rulings, flags=re.S | re.M)
        assert m, f"{rid} has no write-up under Rulings"
        for part in ("- **The document:**", "- **Ruling:**", "- **Why:**", "- **Test:**"):
            assert part in m.group(1), f"{rid}: missing {part}"
    for rid in RULES:
        assert rid in text, f"{rid} is not in the rules"
