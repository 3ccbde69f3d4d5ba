"""Grid Football test configuration.

``@pytest.mark.rules("GF-...")`` names the rule ids (gm/games/grid_football/ruleids.py) a test
pins; the ids become keywords, so ``pytest tests/grid_football -k GF-R-PUNT`` runs the tests of
one rule.  test_meta.py checks that every rule id is pinned by some test.
"""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "rules(*ids): the Grid Football rule ids (gm/games/grid_football/ruleids.py) a test pins"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for mark in item.iter_markers("rules"):
            item.extra_keyword_matches.update(str(rid) for rid in mark.args)
