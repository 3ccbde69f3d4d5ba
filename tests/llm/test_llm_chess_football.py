"""The Chess-Football Hybrid through the LLM referee: the real SDK clients over a mock transport, a
scripted model that calls the game's own tools (snap plans, moves, play action with an optional
holder); every move is made by a tool call, nothing is flagged, and the transcript replays offline
at the engine and referee level.  Its rules summary fits the prompt budget and reads the ruleset."""

from __future__ import annotations

import pytest
from llm_fakes import FakeLLM, RulesBrain
from llm_game import make_referee, record

from gm.core import find_game
from gm.referee.llm.prompts import DEFAULT_SUMMARY_BUDGET, rules_summary
from gm.session import Session
from gm.transcript.replay import replay

GAME = "chess-football"
SHORT = {"possessions_per_half": 1, "max_turns_per_down": 1}  # every down is just the snap


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_whole_game_through_the_llm_referee(kind: str) -> None:
    fake = FakeLLM(brain=RulesBrain(game_id=GAME))
    ref = make_referee(kind, fake)
    session = Session.create(GAME, seed=2, rules=SHORT, players={"away": "bot:default"}, persist=False, bot_seed=2, nonce_seed=0, record=False)
    rec = record(session, kind, fake.model)
    rec.sync_bot_moves(session)
    me = session.game.make_bot("random", seed=5)
    turns = 0
    while not session.state.is_terminal and turns < 200:
        turn = ref.handle(session, "home", str(me.choose(session.state, "home")))
        if turn.board:
            rec.board(turn.board, "home")
        assert turn.accepted and turn.flags == [], turn.narration
        turns += 1
    rec.sync_bot_moves(session, final=True)
    assert session.state.is_terminal and turns > 0
    tools = {e.tool for e in rec.transcript.entries if e.type == "tool_call"}
    assert {"choose_captains", "submit_snap_plan"} <= tools <= {t.name for t in session.game.tools()}
    res = replay(rec.transcript)
    assert res.ok, res.report()


def test_the_rules_summary_is_the_rulesets_and_fits_the_budget() -> None:
    game = find_game(GAME)
    players = {"home": "human", "away": "bot:default"}
    text = rules_summary(game, game.default_rules(), "home", players)
    assert len(text) <= DEFAULT_SUMMARY_BUDGET
    assert "end zones rows 1-4 and 45-48" in text and "up to 7 rows (submit_snap_plan)" in text
    assert "offense: scrambler, deep_threat, lead_blocker, lineman" in text
    custom = game.load_rules({"rows": 40, "plan_rows": 5, "touchdown_points": 6, "toss_caller": "home"})
    text = rules_summary(game, custom, "home", players)
    assert "end zones rows 1-4 and 37-40" in text and "up to 5 rows" in text and "Touchdown 6" in text
    assert "Home calls the toss" in text
