"""Chess-Football test configuration: the ``rules`` marker names the rule ids a test pins."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rules(*ids): the rule ids (RULES of the game under test) a test pins")
