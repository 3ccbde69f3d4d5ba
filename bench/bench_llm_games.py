"""The LLM referee's budget in every game and wire format (issue #19), measured on whole games.

For each game and provider:

- ``prompt_chars``: system prompt + tool schemas (compact JSON), the fixed part of every request;
  target at most 6,000 characters;
- ``request_chars_turn60_vs_turn5``: the size of the first request of the player's 60th message
  over that of the 5th (the conversation is kept short, so requests stay flat); target at most 1.2;
- ``requests_per_move``: model requests per move the engine accepted; target at most 2 (one to act,
  one to narrate).

The games are played by the real :class:`~gm.referee.llm.referee.LLMReferee` against a scripted
model that answers every player message with a tool call for the move the game's default bot would make
(the engine's own ``call_for_action``) and then a one-line narration; the rulesets and strategies are
chosen so that every game runs past 60 messages: the measure is of gm's requests,
not of a model.  Each request is built in the provider's wire format (``PAYLOADS``) and counted.

``run(quick)`` returns rows for ``python -m bench``.
"""

from __future__ import annotations

import json
from typing import Any

from bench import row

GAMES = ("grid-football", "gridmaster4", "quarterback", "brawl", "chess-football")
KINDS = ("openai", "openai-responses", "anthropic")
TURNS = 64
#: rulesets that make a game last past 60 messages
LONG: dict[str, dict[str, Any]] = {"grid-football": {"win": "points"}, "gridmaster4": {"players": 2}}
#: the scripted player's strategy where the default one ends a game early
STRATEGY = {"quarterback": "random"}


class ScriptedModel:
    """A provider whose answer to a player's message is a legal move (as a tool call), and whose
    answer to tool results is a short narration; every request is measured in the wire format."""

    def __init__(self, kind: str, session: Any, seat: str, seed: int) -> None:
        self.kind = kind
        self.model = "scripted"
        self.session = session
        self.seat = seat
        self.bot = session.game.make_bot(STRATEGY.get(session.game.id, "default"), seed)
        self.chars: list[int] = []
        self.calls = 0

    def complete(self, request: Any) -> Any:
        from gm.core.tools import call_for_action
        from gm.referee.llm.providers import PAYLOADS
        from gm.referee.llm.types import Reply, ToolUse, Usage, UserText

        payload = PAYLOADS[self.kind](self.model, request)
        self.chars.append(len(json.dumps(payload, separators=(",", ":"), ensure_ascii=False)))
        last = request.messages[-1] if request.messages else None
        st = self.session.state
        if isinstance(last, UserText) and self.seat in st.to_act():
            action = self.bot.choose(st, self.seat)
            name, args = call_for_action(request.tools, action)
            self.calls += 1
            return Reply("", (ToolUse(f"call_{self.calls}", name, json.dumps(args)),), Usage(), {}, "tool_calls")
        return Reply("Done: the engine has it.", (), Usage(), {}, "stop")


def _game_rows(game_id: str, kind: str) -> list[dict[str, Any]]:
    from gm.core.registry import find_game
    from gm.referee.llm.referee import LLMReferee
    from gm.session import Session

    game = find_game(game_id)
    seat = game.seats[0]
    players = {s: ("human" if s == seat else "bot:default") for s in game.seats}
    rules = LONG.get(game_id)
    session = Session.create(game_id, seed=1, rules=rules, players=players, persist=False, bot_seed=0, nonce_seed=0)
    model = ScriptedModel(kind, session, seat, seed=5)
    referee = LLMReferee(model, kind=kind)  # type: ignore[arg-type]
    firsts: list[int] = []
    moves = 0
    requests_before = 0
    for _ in range(TURNS):
        if session.state.is_terminal:
            break
        if seat not in session.state.to_act():
            session.advance()
            if seat not in session.state.to_act():
                break
        at = len(model.chars)
        log = len(session.state.log)
        referee.handle(session, seat, "my move, please")
        if len(model.chars) > at:
            firsts.append(model.chars[at])
        moves += any(m.seat == seat for m in session.state.log[log:])
        requests_before = len(model.chars)
    name = f"llm.{game_id}[{kind}]"
    rows = []
    if len(firsts) >= 60:
        rows.append(row(f"{name}.request_chars_turn60_vs_turn5", round(firsts[59] / firsts[4], 3), "x",
                        f"first request of message 60 / message 5: {firsts[4]} -> {firsts[59]} characters", "<= 1.2"))
    else:
        rows.append(row(f"{name}.messages", len(firsts), "messages", "the game ended before message 60"))
    rows.append(row(f"{name}.requests_per_move", round(requests_before / max(1, moves), 3), "requests",
                    f"{requests_before} requests for {moves} moves the engine accepted", "<= 2"))
    return rows


def prompt_chars(game_id: str) -> tuple[int, int, dict[str, int]]:
    """The fixed part of every request in ``game_id``: the system prompt's characters, the number of
    tools offered, and their schemas' characters (compact JSON) per wire format."""
    from gm.core.registry import find_game
    from gm.referee.llm.prompts import system_prompt
    from gm.referee.llm.providers import tool_schemas
    from gm.referee.llm.referee import model_tools
    from gm.session import Session

    game = find_game(game_id)
    seat = game.seats[0]
    players = {s: ("human" if s == seat else "bot:default") for s in game.seats}
    session = Session.create(game_id, seed=1, players=players, persist=False, bot_seed=0, nonce_seed=0)
    system = system_prompt(game, session.state.rules, seat, dict(session.players))
    tools = tuple(model_tools(session))
    return len(system), len(tools), {kind: len(json.dumps(tool_schemas(kind, tools), separators=(",", ":"))) for kind in KINDS}


def _prompt_rows(game_id: str) -> list[dict[str, Any]]:
    system, count, schemas = prompt_chars(game_id)
    return [
        row(f"llm.{game_id}[{kind}].prompt_chars", system + schema, "chars",
            f"system prompt {system} + {count} tool schemas {schema}", "<= 6000")
        for kind, schema in schemas.items()
    ]


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Rows for every game: prompt characters per wire format, request growth and requests per move."""
    rows: list[dict[str, Any]] = []
    for game_id in GAMES:
        rows += _prompt_rows(game_id)
        for kind in (("openai",) if quick else ("openai", "anthropic")):
            rows += _game_rows(game_id, kind)
    return rows


if __name__ == "__main__":
    for r in run():
        print(f"{r['name']:60} {r['value']:>10} {r['unit']:8} {r.get('target') or '':8} {r['note']}")
