"""Seeded random play: 1,000 short games (a shortened ruleset - 1 possession per half, 2 downs,
2 turns a down, no overtime - because full games take ~1,000 actions), in chunks run in parallel -
every game ends, replays to the same state, round-trips through JSON, has no legal actions once
over, and every rejected action leaves the state byte-identical."""

from __future__ import annotations

import json
import random

import pytest
from cf_helpers import G

from gm.core import GameError
from gm.games.chess_football.bots import RandomBot
from gm.games.chess_football.engine import ChessFootballState

SHORT = {"possessions_per_half": 1, "downs": 2, "punt_downs": [2], "max_turns_per_down": 2, "overtime_periods": 0}
GAMES = 1000
CHUNKS = 50
#: never legal (no piece ZZ1, no eighth captain): each must be rejected and change nothing
BAD = ("ZZ1 to A1 C", "plan: ZZ1 to A1 C", "captains eighth safety", "QB pass to ZZ1", "ZZ1 push QB", "ball ZZ1")


def _frozen(s: ChessFootballState) -> str:
    return json.dumps(s.snapshot(), sort_keys=True) + json.dumps(s.to_json(), sort_keys=True)


@pytest.mark.rules("CF-R-DOWN-LIMIT", "CF-R-POSSESSION-END")
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    rules = G.load_rules(SHORT)
    outcomes = {"home": 0, "away": 0, None: 0}
    games = range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS)
    for seed in games:
        s = G.new_state(rules, seed)
        assert isinstance(s, ChessFootballState)
        bots = {seat: RandomBot(seed * 2 + i) for i, seat in enumerate(G.seats)}
        probe = random.Random(seed)
        while not s.is_terminal:
            assert len(s.log) < 3000, f"seed {seed} does not end"
            seat = s.to_act()[0]
            if probe.random() < 0.03:
                before = _frozen(s)
                text = probe.choice(BAD)
                with pytest.raises(GameError):
                    s.apply(seat, text)
                assert _frozen(s) == before, (seed, text)
            s.apply(seat, bots[seat].choose(s, seat))
        assert s.outcome is not None
        outcomes[s.outcome.winner] += 1
        assert s.to_act() == () and not list(s.legal_actions("home")) and not list(s.legal_actions("away"))
        data = json.loads(json.dumps(s.to_json()))
        again = ChessFootballState.from_json(data)
        assert again.snapshot() == s.snapshot() and again.to_json() == s.to_json()
    assert sum(outcomes.values()) == len(games)
