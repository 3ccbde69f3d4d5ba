"""A check's plan is carried out without a second check only for the very action just checked, in the
very position it was checked in (gm.core.state: ``GameState._checked``): a bot's ``action in legal``
followed by ``apply`` checks once, and plays exactly as a fresh ``apply``; any move in between, by
any seat, makes ``apply`` check again."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
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


def _count_checks(state: GameState[Any]) -> list[int]:
    """Count the state's calls of its game's ``_check`` (the real one, wrapped on the instance)."""
    calls = [0]
    real: Callable[..., Any] = state._check

    def counted(seat: str, action: Any) -> Any:
        calls[0] += 1
        return real(seat, action)

    state._check = counted  # type: ignore[method-assign]
    return calls


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


@pytest.mark.parametrize("game_id", GAMES)
def test_a_checked_action_plays_as_a_fresh_apply_and_is_checked_once(game_id: str) -> None:
    for seed in range(6):
        asked, fresh = _state(game_id, seed), _state(game_id, seed)
        checks = _count_checks(asked)
        rng = random.Random(seed)
        moves = 0
        while not asked.is_terminal and moves < 400:
            seat = asked.to_act()[rng.randrange(len(asked.to_act()))]
            action = _pick(asked, seat, rng)
            before = checks[0]
            assert action in asked.legal_actions(seat)
            got = asked.apply(seat, action)
            assert checks[0] == before + 1  # the ``in`` checked it; ``apply`` carried that plan out
            assert _events(got) == _events(fresh.apply(seat, fresh.parse_action(str(action))))
            assert asked.snapshot() == fresh.snapshot()
            moves += 1
        assert asked.to_json() == fresh.to_json() and moves > 3


@pytest.mark.parametrize("game_id", GAMES)
def test_any_move_in_between_makes_apply_check_again(game_id: str) -> None:
    """Check an action, let a move be made (by the same or another seat), then apply the action
    checked before: it is checked afresh, and is accepted or refused exactly as by a state that
    never checked it."""
    rechecked = 0
    for seed in range(30):
        rng = random.Random(100 + seed)
        asked, fresh = _twins(game_id, seed, rng, rng.randrange(1, 60))  # somewhere into the game
        if asked.is_terminal:
            continue
        checks = _count_checks(asked)
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
        before = checks[0]
        outcomes = [_outcome(st, seat, stale) for st in (asked, fresh)]
        assert outcomes[0] == outcomes[1]
        assert asked.to_json() == fresh.to_json()
        if asked.is_terminal or (seat not in asked.to_act() and outcomes[0][0] == "refused"):
            continue  # the game is over, or the seat has nothing to do now: refused before any check
        assert checks[0] == before + 1  # checked again, not carried out on the old check
        rechecked += 1
    assert rechecked >= 10


@pytest.mark.parametrize("game_id", ("grid-football", "quarterback", "chess-football"))
def test_a_refused_check_keeps_the_plan_of_the_last_accepted_one(game_id: str) -> None:
    """A check that fails in the rules (an action of a later position) neither keeps a plan nor drops
    the last accepted one: that action is still carried out on its check, once."""
    rng = random.Random(3)
    s, later = _twins(game_id, 3, rng, 8)  # a position some way into the game
    seat = s.to_act()[0]
    probe = s.copy()  # the same position, to find an action the rules refuse here
    probe_checks = _count_checks(probe)
    refused = None
    while refused is None and not later.is_terminal:
        mover = later.to_act()[0]
        a = _pick(later, mover, rng)
        if mover == seat:
            before = probe_checks[0]
            try:
                probe.validate(seat, probe.parse_action(str(a)))
            except GameError:
                if probe_checks[0] == before + 1:  # refused by the rules' check, not by the parser
                    refused = s.parse_action(str(a))
        later.apply(mover, a)
    assert refused is not None
    checks = _count_checks(s)
    action = _pick(s, seat, rng)
    assert action in s.legal_actions(seat)
    assert refused not in s.legal_actions(seat)
    assert checks[0] == 2
    s.apply(seat, action)
    assert checks[0] == 2  # carried out on the check of ``action in legal``
    assert s._checked is None


@pytest.mark.parametrize("game_id", GAMES)
def test_a_plan_checked_for_one_seat_is_never_carried_out_for_another(game_id: str) -> None:
    """Another seat applying the very action object one seat had checked is checked for itself
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
