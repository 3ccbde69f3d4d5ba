"""The words that claim a move was made (gm's own and each game's), and how many moves a message asks for."""

from __future__ import annotations

import pytest

from gm.core.narration import move_claim
from gm.core.registry import find_game
from gm.referee.llm.referee import call_key, requested_moves


@pytest.mark.parametrize(("text", "claim"), [
    ("Done! I've made your move: play 1 red", "Done"),
    ("Placed your tile in the middle.", "Placed"),
    ("Your quarterback moved up one square.", "Your quarterback moved"),
    ("Your cards are down.", "Your cards are down"),
    ("OK, your play is in.", "your play is in"),
    ("Locked in: play 2 black.", "Locked in"),
    ("I placed it at K12 for you.", "I placed"),
    ("All set!", "All set"),
    ("Your move has been made.", "Your move has been made"),
    ("Shall I place your tile at K12?", None),
    ("If you want, I can move your QB.", None),
    ("You moved there last turn.", None),
    ("away has locked in.", None),
    ("The bot moved its S2 to E-1.", None),
    ("Your opponent moved first.", None),
    ("I haven't made your move yet.", None),
    ("When you are done, say so.", None),
    ("I'll lock in play 2 black.", None),
    ("Their cards stay locked until you have placed yours.", None),
    ("Play 2 black gains 4 rows to E18.", None),
    ("You can place a tile in any open cell.", None),
])
def test_gms_own_words_for_a_move_made(text: str, claim: str | None) -> None:
    assert move_claim(text, seats=("home", "away"), seat="home") == claim


@pytest.mark.parametrize(("game", "text", "claim"), [
    ("gridmaster4", "Tile 3 is down on K7.", "Tile 3 is down"),
    ("quarterback", "The QB moved up to E-1.", "QB moved"),
    ("grid-football", "The ball is snapped!", "The ball is snapped"),
    ("brawl", "We went for it.", "went for it"),
    ("chess-football", "Captains are named.", "Captains are named"),
])
def test_each_games_own_words_for_a_move_made(game: str, text: str, claim: str) -> None:
    g = find_game(game)
    assert move_claim(text, g.narration_claims(), seats=g.seats, seat=g.seats[0]) == claim
    assert move_claim(text, seats=g.seats, seat=g.seats[0]) != claim  # the game's words, not gm's


@pytest.mark.parametrize(("text", "moves"), [
    ("play 2 black", 1),
    ("play 1 red, 2 right before", 1),  # one move, a comma and all
    ("play 2 black, then play 2 black again", 2),
    ("play 2 black twice", 2),
    ("play 2 black 3 times", 3),
    ("play 2 black and play 3 red", 2),
    ("what can I do?", 1),
])
def test_how_many_moves_a_message_asks_for(text: str, moves: int) -> None:
    assert requested_moves(find_game("grid-football"), text) == moves


def test_a_brawl_lineup_with_commas_is_one_move() -> None:
    lineup = "MLB S3 BL, DT1 S3 SL, DT2 S3 SM, DE1 S2 SR, DE2 S4 BR, OLB1 S3 ML, OLB2 F1 MM, CB1 F2 DL, CB2 F2 DR, FS F3 DM, SS S2 MR"
    assert requested_moves(find_game("brawl"), lineup) == 1


def test_the_same_call_is_the_same_tool_with_the_same_arguments() -> None:
    assert call_key("call_play", {"play": 2, "colour": "black"}) == call_key("call_play", {"colour": "black", "play": 2})
    assert call_key("call_play", {"play": 2}) != call_key("call_play", {"play": 3}) != call_key("punt", {"play": 3})
