"""Seeded random play: thousands of games, checked as they go and at the end.

Every game: the engine's own invariants after each action (board and piece list agree,
no Triple or Quarterback next to an opposition Single, one ball), a rejected random
action leaves the state byte-identical, the bots' actions are members of the lazy
legal view, the game ends (the whistle, ruling QB-R-WHISTLE), a finished game has no
legal actions, and the replayed log and the JSON round trip rebuild the same state.
"""

from __future__ import annotations

import json
import random

import pytest
from qb_helpers import G, frozen, pins

from gm.core import GameError, GameState
from gm.games.quarterback.bots import QuarterbackRandomBot
from gm.games.quarterback.engine import DIRS, QuarterbackState

VARIANTS = [
    {"format": "game", "max_rounds": 1},
    {"format": "game", "max_rounds": 2, "first_attacker": "blue"},
    {"format": "match", "max_rounds": 1},
    {
        "format": "game",
        "max_rounds": 2,
        "columns": 6,
        "field_rows": 6,
        "back_rows": 1,
        "attack": {"quarterback": ["C-1"], "singles": ["C0"], "doubles": ["B0"], "triples": ["F0"]},
        "defense": {"quarterback": ["E4"], "singles": ["C1", "D1"], "doubles": ["A1"], "triples": ["B3"]},
    },
]
GAMES = 2000
CHUNKS = 8  # run side by side (pytest-xdist): each chunk a few seconds
NOISE = ["move T1 A0-A9", "pass to Z9", "move QB E-2-E3", "move S1 D0-D2", "pass to E5", "move D9 C1", "move T2 I0-H1-G2-F3"]


def _consistent(s: QuarterbackState) -> None:
    assert {p: sq for sq, p in s.board.items()} == s.pos
    assert (s.carrier is None) != (s.loose is None) or s.is_terminal
    if s.loose is not None:
        assert s.loose not in s.board
    if s.is_terminal:  # the last half may end on a tackle that leaves a Single next to a Triple
        return
    for p, (c, r) in s.pos.items():
        if s.kind[p] in "TQ" and p != s.carrier:
            for dc, dr in DIRS:
                q = s.board.get((c + dc, r + dr))
                assert q is None or q[0] == p[0] or s.kind[q] != "S", f"{p} next to the Single {q}"


def _random_game(rules: dict, seed: int, check_every: int) -> QuarterbackState:
    s = G.new_state(rules, seed)
    assert isinstance(s, QuarterbackState)
    bots = {seat: QuarterbackRandomBot(seed * 7 + i) for i, seat in enumerate(G.seats)}
    noise = random.Random(seed)
    n = 0
    while not s.is_terminal:
        seat = s.to_act()[0]
        action = bots[seat].choose(s, seat)
        if n % check_every == 0:
            assert action in s.legal_actions(seat)
            before = frozen(s)
            bad = noise.choice(NOISE)
            try:
                s.apply(seat, bad)
            except GameError:
                assert frozen(s) == before
            else:  # it happened to be legal: fine, carry on from there
                _consistent(s)
                n += 1
                continue
        s.apply(seat, action)
        _consistent(s)
        n += 1
        assert n < 2000
    return s


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pins("QB-R-WHISTLE")
def test_thousands_of_random_games(chunk: int) -> None:  # guarantees they end
    games = 0
    for seed in range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS):
        s = _random_game(VARIANTS[seed % len(VARIANTS)], seed, check_every=7)
        games += 1
        assert s.outcome is not None and s.to_act() == ()
        assert list(s.legal_actions("red")) == [] and list(s.legal_actions("blue")) == []
        # the state is setup + seed + log: the JSON round trip replays the log to the same state
        data = s.to_json()
        again = GameState.from_json(json.loads(json.dumps(data)))
        assert again.snapshot() == s.snapshot() and again.to_json() == data
        if seed % 50 == 0:
            assert s.replay().snapshot() == s.snapshot()
    assert games == GAMES // CHUNKS


def test_full_legal_lists_are_legal_and_complete_on_samples() -> None:
    s = G.new_state({"format": "game", "max_rounds": 4}, seed=11)
    bots = {seat: QuarterbackRandomBot(i) for i, seat in enumerate(G.seats)}
    steps = 0
    while not s.is_terminal and steps < 60:
        seat = s.to_act()[0]
        legal = list(s.legal_actions(seat))
        assert len({str(a) for a in legal}) == len(legal)
        for a in legal[:: max(1, len(legal) // 15)]:
            assert s.is_legal(seat, a) and s.is_legal(seat, str(a))
        s.apply(seat, bots[seat].choose(s, seat))
        steps += 1
