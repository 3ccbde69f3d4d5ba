"""The options a reaction turn keeps from one decision to the next (options._turn_options) are exactly
the ones listed afresh: along seeded games, every turn's action space equals the one listed on a copy
of the field (a copy keeps nothing)."""

from __future__ import annotations

import pytest
from cf_helpers import G

from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.options import TurnSpace

SHORT = {"possessions_per_half": 1, "overtime_periods": 0}


@pytest.mark.parametrize(("home", "away", "seed"), [("random", "random", 1), ("random", "random", 2),
                                                    ("default", "random", 3), ("random", "default", 4)])
def test_kept_options_equal_fresh_ones(home: str, away: str, seed: int) -> None:
    s = G.new_state(SHORT, seed)
    assert isinstance(s, ChessFootballState)
    bots = {"home": G.make_bot(home, seed), "away": G.make_bot(away, seed + 1)}
    turns = kept = 0
    while not s.is_terminal:
        seat = s.to_act()[0]
        if s.decision(seat) == "turn":
            assert s.field is not None
            before = {k: dict(v[2]) for k, v in s.field.options_memo.items()}
            listed = [str(a) for a in s.legal_actions(seat)]
            fresh = [str(a) for a in TurnSpace(s.field.clone(sim=False), seat)]
            assert listed == fresh, (len(s.log), seat)
            after = s.field.options_memo[seat][2]
            old = before.get(seat, {})
            kept += sum(1 for pid, entry in after.items()
                        if pid in old and (old[pid][1] is entry[1] or old[pid][2] is entry[2]))
            turns += 1
        s.apply(seat, bots[seat].choose(s, seat))
    assert turns > 50 and kept > 20, (turns, kept)  # the kept options were put to the test
