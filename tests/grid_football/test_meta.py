"""Meta tests: every rule id has a test, and every rule id the engine names is in RULES."""

from __future__ import annotations

import re
from pathlib import Path

import gm.games.grid_football as pkg
from gm.games.grid_football import GAME
from gm.games.grid_football.ruleids import RULES

HERE = Path(__file__).parent
QUOTED_ID = re.compile(r"""["'](GF-[A-Z0-9]+(?:-[A-Z0-9]+)*)["']""")


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
    sources = list(Path(pkg.__file__).parent.glob("*.py"))
    named = _ids_in(sources) - {"GF-"}
    assert named - set(RULES) == set()
    assert GAME.rules_index is RULES
    for n in GAME.default_rules().plays:
        assert f"GF-PLAY-{n}" in RULES


def test_rule_titles_are_one_line() -> None:
    for rid, title in RULES.items():
        assert rid.startswith("GF-") and title and "\n" not in title
