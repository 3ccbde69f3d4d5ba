"""The LLM referee's fixed prompt fits its budget in every game and wire format (#19): system prompt +
tool schemas at most 6,000 characters.  Chess-Football gets there by offering the model one
``turn_action`` tool (a reaction-turn move written as text) in place of its six structured
reaction-turn tools; a move made through it is the same move, made through the same structured tool,
and the model is only ever told of tools it has.  The real openai and anthropic SDKs carry it."""

from __future__ import annotations

import json
import random

import pytest
from llm_fakes import Call, Conv, FakeLLM, Say, Step
from llm_game import make_referee, record

from gm.core import find_game
from gm.core.registry import all_games
from gm.referee.llm.prompts import system_prompt
from gm.referee.llm.providers import tool_schemas
from gm.referee.llm.referee import model_tools, state_block
from gm.session import Session
from gm.transcript.replay import replay

BUDGET = 6000
GAMES = ("grid-football", "gridmaster4", "quarterback", "brawl", "chess-football")
TURN_TOOLS = {"move_piece", "use_ability", "pass_ball", "play_action", "choose_ball_holder", "end_turn"}


def _session(game_id: str, **kw: object) -> Session:
    game = find_game(game_id)
    players = {s: ("human" if i == 0 else "bot:default") for i, s in enumerate(game.seats)}
    return Session.create(game_id, players=players, persist=False, bot_seed=0, nonce_seed=0, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["openai", "openai-responses", "anthropic"])
@pytest.mark.parametrize("game_id", GAMES)
def test_system_prompt_and_tools_fit_the_budget(game_id: str, kind: str) -> None:
    s = _session(game_id, seed=1)
    seat = s.game.seats[0]
    system = system_prompt(s.game, s.state.rules, seat, dict(s.players))
    schemas = json.dumps(tool_schemas(kind, tuple(model_tools(s))), separators=(",", ":"))
    assert len(system) + len(schemas) <= BUDGET, (len(system), len(schemas))


def test_every_game_offers_all_its_tools_but_chess_football_its_turn_in_one() -> None:
    for game in all_games():
        s = _session(game.id, seed=1)
        offered = {t.name for t in model_tools(s)}
        if game.id == "chess-football":
            assert "turn_action" in offered and not offered & TURN_TOOLS
            assert offered | TURN_TOOLS == {t.name for t in s.tools} - {"get_board", "get_status"} | {"turn_action"}
        else:
            assert offered == {t.name for t in s.tools} - {"get_board", "get_status"}


@pytest.mark.parametrize("game_id", GAMES)
def test_the_model_is_told_only_of_tools_it_has(game_id: str) -> None:
    """Over seeded random play, every tool the state block names as due is one the model was given."""
    s = _session(game_id, seed=3)
    seat, rng = s.game.seats[0], random.Random(3)
    offered = {t.name for t in model_tools(s)}
    for _ in range(150):
        if s.state.is_terminal:
            break
        block = state_block(s, seat)
        for named in (part.split("(", 1)[1].rstrip(")") for part in block.splitlines()[1].split("; ") if "(" in part):
            assert set(filter(None, named.split(", "))) <= offered, block
        if seat not in s.state.to_act():
            s.advance()
            continue
        action = s.state.legal_actions(seat).sample(rng)
        from gm.core.tools import call_for_action

        name, args = call_for_action(model_tools(s), action)
        assert s.call(name, args, seat)["ok"]


class TurnBrain:
    """A model that answers a Chess-Football player's move: ``turn_action`` with the move as text in a
    reaction turn, the structured tool otherwise; then one line of narration."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def __call__(self, conv: Conv) -> Step:
        if conv.tool_outputs is not None:
            return Say("Done.")
        from gm.core.tools import call_for_action

        action = self.session.game.parse_action(conv.player_text)
        name, args = call_for_action(model_tools(self.session), action)
        if conv.api != "anthropic":  # OpenAI strict mode sends every field
            spec = {t.name: t for t in model_tools(self.session)}[name]
            args = {k: args.get(k) for k in spec.args.model_fields}
        return Call([(name, args)])


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_a_chess_football_game_through_turn_action_on_the_real_sdks(kind: str) -> None:
    s = _session("chess-football", seed=2, rules={"possessions_per_half": 1, "max_turns_per_down": 2}, record=False)
    fake = FakeLLM(brain=TurnBrain(s))
    ref = make_referee(kind, fake)
    rec = record(s, kind, fake.model)
    rec.sync_bot_moves(s)
    me = s.game.make_bot("random", seed=5)
    texts = 0
    while not s.state.is_terminal:
        if "home" not in s.state.to_act():
            s.advance()
            continue
        move = str(me.choose(s.state, "home"))
        turn = ref.handle(s, "home", move)
        assert turn.accepted and turn.flags == [], (move, turn.narration)
        texts += turn.calls[0].tool == "turn_action"
    rec.sync_bot_moves(s, final=True)
    assert texts > 20
    sent = {t["function"]["name"] if "function" in t else t["name"] for t in fake.requests[0]["body"]["tools"]}
    assert "turn_action" in sent and not sent & TURN_TOOLS
    # the session made each text move through its structured tool; the recording replays
    made = [e.result["tool"] for e in rec.transcript.entries if e.type == "tool_result" and e.result.get("ok")]
    assert {"move_piece", "end_turn"} <= set(made) and "turn_action" not in made
    res = replay(rec.transcript)
    assert res.ok, res.report()
