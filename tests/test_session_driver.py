"""The session's bot collaborator (:class:`gm.session.driver.BotDriver`).

Which seat's bot moves next, whether a bot owes a move, and a bot's move with its commitment when a
human chooses in the same round: a practice game's nonce is derived from its nonce seed (so the game
reproduces), otherwise drawn at random; a bot alone in its round commits to nothing.
"""

from __future__ import annotations

from gm.core.registry import find_game
from gm.session import Session, verify
from gm.session.commit import commitment, derive
from gm.session.driver import BotDriver


def test_who_moves_and_who_owes() -> None:
    game = find_game("brawl")
    state = game.new_state(game.load_rules(None), 7)
    assert state.to_act() == ("home", "away")  # (both choose in Brawl's first round)
    humans = BotDriver(game, {"home": "human", "away": "human"}, 1, {})
    assert not humans.has_bots and humans.next_mover(state) is None and not humans.owes_move(state)
    mixed = BotDriver(game, {"home": "human", "away": "bot:default"}, 1, {})
    assert mixed.has_bots and mixed.is_bot("away") and not mixed.is_bot("home")
    assert mixed.next_mover(state) == "away" and mixed.owes_move(state)


def test_a_bot_beside_a_human_commits_with_a_derived_nonce() -> None:
    game = find_game("brawl")
    state = game.new_state(game.load_rules(None), 7)
    driver = BotDriver(game, {"home": "human", "away": "bot:default"}, 11, {}, nonce_seed=13)
    action, nonce, digest = driver.move(state, "away")
    assert nonce == derive(13, "nonce", "away", 0)[:32] and digest == commitment(str(action), nonce)
    assert verify({"choice": str(action), "nonce": nonce, "commitment": digest})
    again = BotDriver(game, {"home": "human", "away": "bot:default"}, 11, {}, nonce_seed=13).move(state, "away")
    assert again == (action, nonce, digest)  # the same seeds: the same move and commitment
    hidden = BotDriver(game, {"home": "human", "away": "bot:default"}, 11, {})
    a2, n2, d2 = hidden.move(state, "away")
    assert a2 == action and n2 is not None and len(n2) == 32 and n2 != nonce and d2 == commitment(str(a2), n2)


def test_a_bot_alone_in_its_round_commits_to_nothing() -> None:
    game = find_game("brawl")
    state = game.new_state(game.load_rules(None), 7)
    bots = BotDriver(game, {"home": "bot:default", "away": "bot:default"}, 11, {}, nonce_seed=13)
    _, nonce, digest = bots.move(state, "away")
    assert nonce is None and digest is None


def test_the_session_publishes_the_drivers_commitment() -> None:
    """A practice session's bot commitment is the driver's, derived from the session's seeds."""
    s = Session.create("brawl", seed=7, players={"away": "bot"}, persist=False)
    shown = s.commitments()
    assert set(shown) == {"away"}
    fresh = find_game("brawl").new_state(s.state.rules, 7)
    _, nonce, digest = BotDriver(s.game, s.players, s.bot_seed, {}, s.nonce_seed).move(fresh, "away")
    assert shown["away"] == digest and nonce == derive(s.nonce_seed or 0, "nonce", "away", 0)[:32]
    assert s.bots_owe_move() is False
