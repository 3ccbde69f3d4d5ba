"""The one rule for who plays each seat of a new game (gm.session.players), used by every front end."""

from __future__ import annotations

import pytest

from gm.core.errors import GameError
from gm.core.registry import find_game
from gm.session.players import check_seat, opponent_player, seat_players

GF = find_game("grid-football")


def test_the_creator_is_human_and_the_others_the_default_bot() -> None:
    assert seat_players(GF) == {"home": "human", "away": "bot:default"}
    assert seat_players(GF, " Away ") == {"home": "bot:default", "away": "human"}


@pytest.mark.parametrize(
    ("opponent", "player"),
    [(None, "bot:default"), ("", "bot:default"), ("bot", "bot:default"), ("random", "bot:random"), ("BOT:random", "bot:random"), ("human", "human")],
)
def test_an_opponent_is_human_a_bot_or_a_bare_strategy_name(opponent: str | None, player: str) -> None:
    assert opponent_player(GF, opponent) == player
    assert seat_players(GF, "home", opponent=opponent)["away"] == player


def test_named_players_win_over_the_opponent_and_a_bots_only_game_has_no_creator() -> None:
    assert seat_players(GF, opponent="human", players={"Away": "bot:random"}) == {"home": "human", "away": "bot:random"}
    assert seat_players(GF, players={"home": "bot"}) == {"home": "bot:default", "away": "bot:default"}
    assert seat_players(GF, creator=False, opponent="bot:random") == {"home": "bot:random", "away": "bot:random"}


@pytest.mark.parametrize(
    ("call", "rule", "quoted"),
    [
        (lambda: check_seat(GF, "left"), "CORE-SEAT", "left"),
        (lambda: seat_players(GF, players={"left": "human"}), "CORE-SEAT", "left"),
        (lambda: seat_players(GF, opponent="robot"), "CORE-BOT", "bot:robot"),
        (lambda: seat_players(GF, players={"away": "alien"}), "CORE-PLAYER", "alien"),
    ],
)
def test_bad_input_names_what_is_legal(call: object, rule: str, quoted: str) -> None:
    with pytest.raises(GameError) as err:
        call()  # type: ignore[operator]
    data = err.value.to_json()
    assert data["rule"] == rule and data["input"] == quoted and data["legal"]
