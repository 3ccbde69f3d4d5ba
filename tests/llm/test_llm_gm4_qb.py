"""GridMaster4 (four seats) and Quarter Back through the LLM referee: the real SDK clients over a
mock transport, a scripted model that calls the games' own tools; every move is made by a tool
call, nothing is flagged, and the transcript replays offline at the engine and referee level."""

from __future__ import annotations

from typing import Any

import pytest
from llm_fakes import FakeLLM, RulesBrain
from llm_game import make_referee, record

from gm.session import Session
from gm.transcript.replay import replay

CASES = [
    ("gridmaster4", "openai", {"magenta": "bot:default", "lime": "bot:random", "aqua": "bot:default"}, {"columns": 9, "rows": 9}),
    ("gridmaster4", "anthropic", {"orange": "bot:random", "lime": "bot:default", "aqua": "bot:random"}, {"columns": 9, "rows": 9}),
    ("quarterback", "openai-responses", {"blue": "bot:default"}, {"format": "game", "max_rounds": 3}),
    ("quarterback", "anthropic", {"red": "bot:default"}, {"format": "game", "max_rounds": 3}),
]


@pytest.mark.parametrize(("game", "kind", "players", "rules"), CASES, ids=[f"{g}-{k}" for g, k, _, _ in CASES])
def test_a_whole_game_through_the_llm_referee(game: str, kind: str, players: dict[str, str], rules: dict[str, Any]) -> None:
    fake = FakeLLM(brain=RulesBrain(game_id=game))
    ref = make_referee(kind, fake)
    session = Session.create(game, seed=2, rules=rules, players=players, persist=False, bot_seed=2, nonce_seed=0)
    (human,) = session.human_seats
    rec = record(session, kind, fake.model)
    rec.sync_bot_moves(session)
    me = session.game.make_bot("random", seed=5)
    turns = 0
    while not session.state.is_terminal and turns < 200:
        turn = ref.handle(session, human, str(me.choose(session.state, human)))
        if turn.board:
            rec.board(turn.board, human)
        assert turn.accepted and turn.flags == [], turn.narration
        assert [c.tool for c in turn.calls if c.result.get("kind") == "action"] != []
        turns += 1
    rec.sync_bot_moves(session)
    assert session.state.is_terminal and turns > 0
    tools = {e.tool for e in rec.transcript.entries if e.type == "tool_call"}
    assert tools <= {t.name for t in session.game.tools()}
    res = replay(rec.transcript)
    assert res.ok, res.report()
