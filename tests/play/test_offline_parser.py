"""The offline referee reads the ways people write Grid Football moves."""

from __future__ import annotations

import pytest

from gm.core import find_game
from gm.games.grid_football.actions import CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt
from gm.referee.offline import OfflineReferee

GF = find_game("grid-football")

PHRASES = [
    ("Play 1, Red, 2 right before", PlayCall(1, "red", 2, "right", "before")),
    ("play 1 red 2 right before", PlayCall(1, "red", 2, "right", "before")),
    ("1 red 2R before", PlayCall(1, "red", 2, "right", "before")),
    ("1 red 2r", PlayCall(1, "red", 2, "right", "before")),
    ("p3 black", PlayCall(3, "black")),
    ("P3 Black", PlayCall(3, "black")),
    ("play 4 pass 1 left after", PlayCall(4, "red", 1, "left", "after")),
    ("play two run", PlayCall(2, "black")),
    ("I'll call play 2, black please", PlayCall(2, "black")),
    ("play 1 red after", PlayCall(1, "red", timing="after")),
    ("play 3 red 3 l after", PlayCall(3, "red", 3, "left", "after")),
    ("left yellow", KickPick("left", "yellow")),
    ("Center, Green", KickPick("center", "green")),
    ("yellow right", KickPick("right", "yellow")),
    ("kick", KickChoice("kick")),
    ("we'll receive", KickChoice("receive")),
    ("I choose to kick", KickChoice("kick")),
    ("heads", CoinCall("heads")),
    ("Tails!", CoinCall("tails")),
    ("call heads please", CoinCall("heads")),
    ("7", NumberPick(7)),
    ("number 7", NumberPick(7)),
    ("I pick 3", NumberPick(3)),
    ("punt", Punt()),
    ("let's punt", Punt()),
]


@pytest.mark.parametrize(("text", "expected"), PHRASES, ids=[p[0] for p in PHRASES])
def test_phrasings_read_as_the_intended_action(text: str, expected: object) -> None:
    assert OfflineReferee.read_action(GF, text) == expected


JUNK = ["zorp", "play", "play red", "play 1", "left", "yellow", "number", "number seven eight", "2 right before", "blue", "heads tails"]


@pytest.mark.parametrize("text", JUNK)
def test_junk_is_not_read_as_a_move(text: str) -> None:
    assert OfflineReferee.read_action(GF, text) is None


def test_every_phrase_maps_to_a_registry_tool_call() -> None:
    """Moves become tool calls of the one registry (never direct engine calls)."""
    from gm.referee.offline import tool_call_for

    state = GF.new_state(seed=0)
    names = {t.name for t in GF.action_tools()}
    for _text, action in PHRASES:
        call = tool_call_for(GF, state, "home", action)  # type: ignore[arg-type]
        assert call is not None, action
        assert call[0] in names
