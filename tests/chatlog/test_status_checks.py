"""The status table of a session document is what the chatbot believes now: gm checks it against
the end of the replay, for every game that states it."""

from __future__ import annotations

from functools import partial

import pytest
from chat_helpers import edit, played

from gm.chatlog.audit import audit
from gm.core.chance import MT19937
from gm.core.registry import find_game
from gm.export import render_doc

#: the games here are played under the mt19937 generator (chat_helpers.played)
audit = partial(audit, chance=MT19937)

CASES = [
    ("quarterback", 9, ("| Ball | QB on I-1 |", "| Ball | QB on H-1 |"), [("ball", "H-1", "I-1")]),
    ("chess-football", 9, ("| Score | home 0 - 0 away |", "| Score | home 6 - 0 away |"), [("score", "home 6-0 away", "home 0-0 away")]),
    ("brawl", 7, ("| Ball | own 35 (", "| Ball | own 40 ("), [("spot", "own 40", "own 35")]),
    ("brawl", 7, ("| Down | 1st & 10,", "| Down | 2nd & 10,"), [("down", "2nd & 10", "1st & 10")]),
    ("gridmaster4", 8, ("| lime | lime green | 2 | 3 | playing | I7 |", "| lime | lime green | 3 | 3 | playing | I7 L7 |"),
     [("score lime", "3", "2"), ("active lime", "I7 L7", "I7")]),
]  # fmt: skip


@pytest.mark.parametrize(("game_id", "n", "change", "findings"), CASES)
def test_a_status_row_that_disagrees_with_the_engine_is_reported(
    game_id: str, n: int, change: tuple[str, str], findings: list[tuple[str, str, str]]
) -> None:
    game = find_game(game_id)
    doc = render_doc(game, "session", None, played(game, 0, "default", 0, n))
    assert audit(game, doc).divergences == []
    found = [(d.label, d.key, d.said, d.rules) for d in audit(game, edit(doc, change)).divergences]
    assert found == [("status", *f) for f in findings]
