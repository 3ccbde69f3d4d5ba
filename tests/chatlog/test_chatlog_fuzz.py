"""Whatever a chatbot pastes, reading it never crashes: ``audit`` answers, or refuses with a
``GameError`` naming its rule (the CLI turns that into one line)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.chatlog.audit import audit
from gm.core.errors import GameError
from gm.core.registry import find_game

WORDS = [
    "home:", "away:", "red:", "blue:", "orange:", "|", "play", "1", "red", "black", "2", "right", "before", "ball",
    "K20", "2nd", "&", "4", "blocked", "score", "7-0", "punt", "number", "heads", "kick", "move", "QB", "E-2", "end",
    "place", "at", "H13", "plan:", "DT", "to", "L34", "C;", "CB2:S1@DL", "touchdown", "wins", "**", "```", "\n",
    "## Move log\n", "\u201c", "\u2014", "-", "1.", "D7", "T1", "M1", "P1", "draw", "Q2", "downs left",
]  # fmt: skip
GAMES = ["grid-football", "quarterback", "gridmaster4", "chess-football", "brawl"]


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(words=st.lists(st.sampled_from(WORDS), max_size=60))
def test_any_text_is_audited_or_refused_with_a_rule(game_id: str, words: list[str]) -> None:
    game = find_game(game_id)
    try:
        a = audit(game, " ".join(words))
    except GameError as exc:
        assert exc.rule
        return
    assert a.replayed <= a.lines and (a.illegal is None or a.illegal.rule)
    assert a.state.replay().snapshot() == a.state.snapshot()
