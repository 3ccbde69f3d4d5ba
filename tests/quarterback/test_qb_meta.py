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
