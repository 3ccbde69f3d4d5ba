"""One English ordinal for every game's text and every template (``gm.core.wording.ordinal``)."""

from __future__ import annotations

import pytest

from gm.core.wording import ordinal
from gm.templating import environment


@pytest.mark.parametrize(("n", "said"), [(0, "0th"), (1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"),
                                          (13, "13th"), (20, "20th"), (21, "21st"), (22, "22nd"), (23, "23rd"), (101, "101st"),
                                          (111, "111th"), (112, "112th"), (122, "122nd")])
def test_ordinals_are_english(n: int, said: str) -> None:
    assert ordinal(n) == said
    assert environment().from_string("{{ n | ordinal }}").render(n=n) == said
