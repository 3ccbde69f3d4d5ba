"""Asking whether an action is legal (``action in legal``, ``is_legal``, ``validate``) never changes the
game: ``apply`` checks the action for itself, so a bot that asks, then plays, plays exactly as a fresh
``apply`` of the same move read from its text; an action asked about before another move is accepted
or refused as by a state never asked; and an action checked for one seat is checked afresh for
another.  (Core once kept the plan of the last check to spare ``apply`` a second one: the search
bench showed no gain, so the state keeps nothing of a question - docs/architecture.md, "Speed
seams".)"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gm.core.errors import GameError
from gm.core.registry import find_game
from gm.core.state import GameState

GAMES = ("grid-football", "gridmaster4", "quarterback", "brawl", "chess-football")
SHORT: dict[str, dict[str, Any]] = {"chess-football": {"possessions_per_half": 1}, "brawl": {"rounds": 3}}


def _state(game_id: str, seed: int) -> GameState[Any]:
    game = find_game(game_id)
    return game.new_state(game.load_rules(SHORT.get(game_id, {})), seed)


def _pick(state: GameState[Any], seat: str, rng: random.Random) -> Any:
    """A seeded random choice: the game's ``random`` bot (a uniform draw among legal actions; at a
    Chess-Football snap a plan built piece by piece, where a uniform draw would count every plan)."""
    return state.game.make_bot("random", rng.randrange(2**31)).choose(state, seat)


def _twins(game_id: str, seed: int, rng: random.Random, moves: int) -> tuple[GameState[Any], GameState[Any]]:
    """Two states of one seeded game, ``moves`` seeded random moves into it (fewer if it ends)."""
    asked, fresh = _state(game_id, seed), _state(game_id, seed)
    for _ in range(moves):
        if asked.is_terminal:
            break
        seat = asked.to_act()[0]
        action = _pick(asked, seat, rng)
        asked.apply(seat, action)
        fresh.apply(seat, action)
    return asked, fresh


def _outcome(state: GameState[Any], seat: str, action: Any) -> tuple[str, str]:
    """What applying ``action`` for ``seat`` gives: its events, or the rule it is refused by."""
    try:
        return "ok", _events(state.apply(seat, action))
    except GameError as exc:
        return "refused", exc.rule


def _events(evs: list[Any]) -> str:
    return json.dumps([e.to_json() if hasattr(e, "to_json") else e for e in evs], sort_keys=True, default=str)


def _frozen(state: GameState[Any]) -> str:
    return json.dumps([state.to_json(), state.snapshot(), state.rng.getstate()], sort_keys=True, default=str)


@pytest.mark.parametrize("game_id", GAMES)
def test_an_action_asked_about_plays_as_a_fresh_apply(game_id: str) -> None:
    for seed in range(6):
        asked, fresh = _state(game_id, seed), _state(game_id, seed)
        rng = random.Random(seed)
        moves = 0
        while not asked.is_terminal and moves < 400:
            seat = asked.to_act()[rng.randrange(len(asked.to_act()))]
            action = _pick(asked, seat, rng)
            before = _frozen(asked)
            assert action in asked.legal_actions(seat) and asked.is_legal(seat, action)
            assert asked.validate(seat, action) is action
            assert _frozen(asked) == before  # asking wrote nothing
            got = asked.apply(seat, action)
            assert _events(got) == _events(fresh.apply(seat, fresh.parse_action(str(action))))
            assert asked.snapshot() == fresh.snapshot()
            moves += 1
        assert asked.to_json() == fresh.to_json() and moves > 3


@pytest.mark.parametrize("game_id", GAMES)
def test_an_action_asked_about_before_another_move_is_judged_afresh(game_id: str) -> None:
    """Ask about an action, let a move be made (by the same or another seat), then apply the action
    asked about: it is accepted or refused exactly as by a state that was never asked."""
    compared = 0
    for seed in range(30):
        rng = random.Random(100 + seed)
        asked, fresh = _twins(game_id, seed, rng, rng.randrange(1, 60))  # somewhere into the game
        if asked.is_terminal:
            continue
        seat = asked.to_act()[0]
        stale = _pick(asked, seat, rng)
        assert stale in asked.legal_actions(seat)
        for _ in range(12):  # a move by another seat where several act at once; until the seat acts again
            mover = asked.to_act()[-1]
            between = _pick(asked, mover, rng)
            asked.apply(mover, between)
            fresh.apply(mover, between)
            if asked.is_terminal or seat in asked.to_act():
                break
        outcomes = [_outcome(st, seat, stale) for st in (asked, fresh)]
        assert outcomes[0] == outcomes[1]
        assert asked.to_json() == fresh.to_json()
        compared += 1
    assert compared >= 10


@pytest.mark.parametrize("game_id", GAMES)
def test_an_action_checked_for_one_seat_is_checked_afresh_for_another(game_id: str) -> None:
    """Another seat applying the very action object one seat had asked about is checked for itself
    (refused as a fresh state refuses it, or played as a fresh state plays it)."""
    tried = 0
    for seed in range(20):
        rng = random.Random(200 + seed)
        asked, fresh = _twins(game_id, seed, rng, rng.randrange(0, 30))
        if asked.is_terminal:
            continue
        seat = asked.to_act()[0]
        action = _pick(asked, seat, rng)
        assert action in asked.legal_actions(seat)
        other = next(s for s in asked.seats if s != seat)
        outcomes = [_outcome(st, other, action) for st in (asked, fresh)]
        assert outcomes[0] == outcomes[1]
        assert asked.to_json() == fresh.to_json()
        tried += 1
    assert tried >= 10
