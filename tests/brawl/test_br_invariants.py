"""Seeded random play over thousands of games: the engine's invariants hold throughout.

- replay (setup + seed + log) rebuilds exactly the same state; the state and every action
  round-trip through JSON and text;
- a terminal game has no legal actions and nobody to act; the outcome matches the score;
- a rejected action leaves the state byte-identical;
- hands hold exactly the cards still to play; the ball stays on the field.
"""

from __future__ import annotations

import json
import random

import pytest
from br_helpers import G

from gm.core.errors import IllegalActionError, InvalidActionError
from gm.core.state import GameState
from gm.games.brawl.actions import CardPlay, FourthDown, Placement
from gm.games.brawl.bots import RandomBot
from gm.games.brawl.engine import BrawlState


def _frozen(st: BrawlState) -> str:
    return json.dumps([st.to_json(), st.snapshot(), st.rng.getstate(), st.view("home"), st.view("away")], sort_keys=True, default=str)


def _mutants(st: BrawlState, seat: str, action: object, rng: random.Random) -> list[tuple[str, object]]:
    """Illegal variants of a legal action (and other seats' turns)."""
    out: list[tuple[str, object]] = []
    other = "away" if seat == "home" else "home"
    if other not in st.to_act():
        out.append((other, action))
    if isinstance(action, Placement):
        plays = list(action.placements)
        i, j = rng.sample(range(len(plays)), 2)
        out.append((seat, Placement((*plays[:i], CardPlay(plays[i].player, plays[i].card, plays[j].zone), *plays[i + 1 :]))))
        out.append((seat, Placement((*plays[:i], CardPlay(plays[i].player, "F9", plays[i].zone), *plays[i + 1 :]))))
        out.append((seat, Placement((*plays[:i], CardPlay(plays[i].player, plays[i].card, "BM"), *plays[i + 1 :]))))
        out.append((seat, Placement(tuple(plays[1:]))))
        out.append((seat, FourthDown("punt")))
        out.append((seat, "QB:F3@QQ"))
    else:
        out.append((seat, Placement((CardPlay("QB", "F3", "MM"),))))
        if "field_goal" not in st.fourth_options():
            out.append((seat, FourthDown("field_goal")))
    return out


def _check_step(st: BrawlState) -> None:
    r = st.rules
    assert 1 <= st.los < r.field_length
    if st.phase == "play":
        left = st.plays_in_series - st.play_no + 1
        for seat in ("home", "away"):
            sizes = {len(h) for h in st.hands[seat].values()}
            assert sizes == {left}, (seat, sizes, left)


def _play(seed: int, rounds: int, checks: bool) -> BrawlState:
    rng = random.Random(seed)
    st = G.new_state({"rounds": rounds}, seed)
    assert isinstance(st, BrawlState)
    bots = {"home": RandomBot(seed * 2 + 1), "away": RandomBot(seed * 2 + 2)}
    while not st.is_terminal:
        seat = rng.choice(st.to_act())
        action = bots[seat].choose(st, seat)
        if checks:
            assert G.parse_action(str(action)) == action
            assert G.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            if rng.random() < 0.3:
                before = _frozen(st)
                for who, bad in _mutants(st, seat, action, rng):
                    with pytest.raises((IllegalActionError, InvalidActionError)) as exc:
                        st.apply(who, bad)  # type: ignore[arg-type]
                    assert exc.value.rule and (exc.value.rule.startswith(("BR-", "CORE-")))
                    assert _frozen(st) == before
        st.apply(seat, action)
        _check_step(st)
    return st


def _check_end(st: BrawlState) -> None:
    assert st.to_act() == () and list(st.legal_actions("home")) == [] and list(st.legal_actions("away")) == []
    assert st.outcome is not None and st.phase == "game_over"
    s = st.score
    assert st.outcome.winner == (None if s["home"] == s["away"] else max(s, key=s.__getitem__))
    assert st.round == st.rules.rounds and len(st.history) == st.rules.rounds


@pytest.mark.parametrize("chunk", range(4))
def test_thousands_of_short_random_games(chunk: int) -> None:
    """2000 one-series games in four chunks (run in parallel), each reaching every common result."""
    results = set()
    for seed in range(500 * chunk, 500 * (chunk + 1)):
        st = _play(seed, rounds=1, checks=False)
        _check_end(st)
        results.update(h["result"] for h in st.history)
    assert {"first_down", "touchdown", "punt", "downs", "fumble"} <= results


@pytest.mark.parametrize("seed", range(12))
def test_random_games_replay_round_trip_and_reject_cleanly(seed: int) -> None:
    st = _play(1000 + seed, rounds=4 if seed % 3 else 20, checks=True)
    _check_end(st)
    twin = st.replay()
    assert json.dumps(twin.snapshot(), sort_keys=True) == json.dumps(st.snapshot(), sort_keys=True)
    data = json.loads(json.dumps(st.to_json()))
    again = GameState.from_json(data)
    assert again.to_json() == st.to_json() and again.snapshot() == st.snapshot()
    assert G.render(again, "home", full=True) == G.render(st, "home", full=True)
