"""The rules lookup finds a rule by the words players use (``Game.rule_words``) as well as by the
words of its text (#17: GridMaster4's ``rules jump`` and ``rules chain`` found nothing)."""

from __future__ import annotations

import pytest

from gm.core.registry import all_games
from gm.referee.offline import OfflineReferee
from gm.session import Session


@pytest.mark.parametrize("game", [g.id for g in all_games()])
def test_every_rule_word_names_known_rules_and_finds_them(game: str) -> None:
    s = Session.create(game, seed=1, persist=False, record=False)
    index = s.game.rules_text(s.state.rules)
    for word, ids in s.game.rule_words.items():
        assert ids and set(ids) <= set(index), (word, ids)
        found = s.call("get_rules", {"topic": word}, None)["rules"]
        assert set(ids) <= set(found), (word, ids, sorted(found))


@pytest.mark.parametrize(("topic", "ids"), [
    ("jump", ["GM4-MOVE", "GM4-R-REACH"]),
    ("chain", ["GM4-NEXT", "GM4-MOVE", "GM4-R-OWN-TILES"]),
    ("stuck", ["GM4-BLOCKED", "GM4-R-BLOCK-CHECK"]),
])
def test_gridmaster4_players_words(topic: str, ids: list[str]) -> None:
    s = Session.create("gridmaster4", seed=1, persist=False, record=False)
    assert list(s.call("get_rules", {"topic": topic}, None)["rules"]) == ids
    turn = OfflineReferee().handle(s, "orange", f"rules {topic}")
    assert [line.split("]")[0] + "]" for line in turn.narration.splitlines()] == [f"[{i}]" for i in ids]
