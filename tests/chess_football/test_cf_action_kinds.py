"""The tool layer asks which kinds of action a seat has (to list the tools that answer now); in a
reaction turn Chess-Football reads them off its pieces instead of walking the turn's few thousand
actions, and the answer is exactly the legal space's, over seeded random play."""

from __future__ import annotations

from collections import Counter

from cf_helpers import G

from gm.core.chance import MT19937
from gm.core.state import GameState
from gm.games.chess_football.bots import RandomBot

SHORT = {"possessions_per_half": 1, "max_turns_per_down": 2}
WANTED = ({"move"}, {"pass", "play_action"}, {"ability", "ball_choice", "done"})


def test_turn_action_kinds_agree_with_the_legal_space() -> None:
    rules = G.load_rules(SHORT)
    seen: Counter[str] = Counter()
    for seed in range(4):
        st = G.new_state(rules, seed, MT19937)
        bots = {seat: RandomBot(seed * 2 + i) for i, seat in enumerate(G.seats)}
        while not st.is_terminal and len(st.log) < 300:
            seat = st.to_act()[0]
            if st.phase in ("offense_turn", "defense_turn"):
                for s in G.seats:
                    walked = GameState.action_kinds(st, s)  # the default: every legal action looked at
                    assert st.action_kinds(s) == walked, (seed, len(st.log), s)
                    for wanted in WANTED:
                        assert st.action_kinds(s, wanted) & wanted == walked & wanted
                    seen.update(walked)
            st.apply(seat, bots[seat].choose(st, seat))
    assert seen == Counter({"done": 700, "move": 498, "ability": 334, "pass": 261, "play_action": 168, "ball_choice": 30})
