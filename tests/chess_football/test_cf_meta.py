"""Every rule id is pinned by a test and written up in rules_md; the game is registered."""

from __future__ import annotations

import re
from pathlib import Path

from gm.core import find_game
from gm.core.registry import game_ids
from gm.games.chess_football.ruleids import RULES

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


def _test_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(HERE.glob("test_cf_*.py")) if p.name != "test_cf_meta.py")


def test_every_rule_id_is_referenced_by_a_test() -> None:
    text = _test_text()
    missing = [rid for rid in RULES if not re.search(rf'"{re.escape(rid)}"', text)]
    assert not missing, f"rule ids no test pins: {missing}"


def test_every_rule_id_is_written_up_and_every_ruling_has_its_section() -> None:
    md = (ROOT / "rules_md" / "chess_football.md").read_text(encoding="utf-8")
    assert [rid for rid in RULES if f"`{rid}`" not in md] == []
    rulings = [rid for rid in RULES if rid.startswith("CF-R-")]
    assert [rid for rid in rulings if f"### {rid}:" not in md] == []
    written = re.findall(r"### (CF-R-[A-Z0-9-]+):", md)
    assert sorted(written) == sorted(rulings)
    for rid in rulings:
        section = md.split(f"### {rid}:")[1].split("\n### ")[0]
        assert "**The document:**" in section and "**Ruling:**" in section and "**Why:**" in section, rid


def test_rule_ids_in_the_engine_are_known() -> None:
    pkg = ROOT / "gm" / "games" / "chess_football"
    used = set()
    for p in pkg.glob("*.py"):
        used |= set(re.findall(r'"(CF-[A-Z0-9-]+)"', p.read_text(encoding="utf-8")))
    assert used - set(RULES) == set()


def test_registered_with_a_readme_row() -> None:
    assert "chess-football" in game_ids()
    g = find_game("chess-football")
    assert find_game("cf") is g and g.rules_index is RULES
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "| `chess-football` |" in readme and "rules_md/chess_football.md" in readme
