"""The one tool registry: Grid Football's tools, argument checking, schema export formats."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gm.core.errors import InvalidActionError
from gm.core.registry import find_game
from gm.core.schemas import (
    FORMATS,
    export,
    json_schema,
    strict_schema,
    to_anthropic,
    to_json_schema,
    to_mcp,
    to_openai,
    to_openai_responses,
)
from gm.core.tools import call_for_action, parse_args
from gm.games.grid_football.engine import DECISIONS
from gm.games.grid_football.tools import KickPickArgs, NumberPickArgs, PlayCallArgs

GAME = find_game("grid-football")
TOOLS = GAME.tools()
BY_NAME = {t.name: t for t in TOOLS}


def test_grid_football_tools_in_the_games_words() -> None:
    names = [t.name for t in TOOLS]
    assert len(names) == len(set(names))
    assert {"get_board", "get_status", "legal_actions", "get_rules", "get_square", "call_coin_toss",
            "choose_kick_or_receive", "pick_kick", "call_play", "punt", "pick_number"} == set(names)
    for t in TOOLS:
        assert t.description and "\n" not in t.description and len(t.description) <= 160, t.name
        assert t.args.model_config.get("extra") == "forbid"
    # every decision the engine can ask for is answered by at least one action tool
    for decision in set(DECISIONS.values()):
        assert any(decision in t.decisions for t in TOOLS if t.kind == "action"), decision
    assert set(PlayCallArgs.model_fields) == {"play", "colour", "lateral", "direction", "timing"}
    assert PlayCallArgs.model_json_schema()["properties"]["colour"]["enum"] == ["red", "black"]
    assert KickPickArgs.model_json_schema()["properties"]["colour"]["enum"] == ["yellow", "red", "green"]


def _states() -> list[Any]:
    """States in every phase, from seeded random play."""
    out, seen = [], set()
    for seed in range(6):
        st = GAME.new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_terminal:
            if st.phase not in seen or rng.random() < 0.05:
                seen.add(st.phase)
                out.append(st.copy())
            seat = rng.choice(st.to_act())
            st.apply(seat, rng.choice(list(st.legal_actions(seat))))
    return out


def test_every_legal_action_round_trips_through_its_tool() -> None:
    count = 0
    for st in _states():
        for seat in st.to_act():
            decision = st.decision(seat)
            for action in st.legal_actions(seat):
                name, args = call_for_action(TOOLS, action)
                spec = BY_NAME[name]
                assert decision in spec.decisions
                assert spec.handler(st, seat, parse_args(spec, args)) == action
                count += 1
    assert count > 500


def test_parse_args_rejections_name_the_field() -> None:
    spec = BY_NAME["call_play"]
    cases = {
        '{"play": 1}': "colour: missing (required)",
        '{"play": 1, "colour": "blue"}': "colour: Input should be 'red' or 'black'",
        '{"play": 0, "colour": "red"}': "play: Input should be greater than or equal to 1",
        '{"play": 1.0, "colour": "red"}': "play: Input should be a valid integer",
        '{"play": 1, "colour": "red", "pass": true}': "pass: unknown argument",
        "[1]": "arguments must be a JSON object, not list",
        "play 1 red": "arguments must be a JSON object",
    }
    for raw, reason in cases.items():
        with pytest.raises(InvalidActionError) as info:
            parse_args(spec, raw)
        assert info.value.rule == "CORE-ARGS" and info.value.reason.startswith(reason), (raw, info.value.reason)
        assert any(item.startswith("play (required)") for item in info.value.legal)
    assert parse_args(spec, {"play": 2, "colour": "black", "lateral": None, "direction": None, "timing": None}).model_dump() == {
        "play": 2, "colour": "black", "lateral": None, "direction": None, "timing": None}
    assert parse_args(BY_NAME["punt"], None).model_dump() == {} and parse_args(BY_NAME["punt"], "  ").model_dump() == {}


def _walk(node: Any):  # type: ignore[no-untyped-def]
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_openai_strict_form() -> None:
    for entry in to_openai(TOOLS):
        assert entry["type"] == "function"
        fn = entry["function"]
        assert fn["strict"] is True and fn["name"] in BY_NAME and fn["description"] == BY_NAME[fn["name"]].description
        for node in _walk(fn["parameters"]):
            assert "default" not in node and "title" not in node and "maxLength" not in node
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert node["required"] == list(node["properties"])
        spec = BY_NAME[fn["name"]]
        for name, f in spec.args.model_fields.items():
            prop = fn["parameters"]["properties"][name]
            nullable = any(s.get("type") == "null" for s in prop.get("anyOf", []))
            assert nullable == (not f.is_required()), (fn["name"], name)


def test_openai_form_equals_the_sdks_own_helper() -> None:
    """Where the argument model is already strict-shaped (optional = nullable), our export
    is what ``openai.pydantic_function_tool`` makes, titles aside."""
    openai = pytest.importorskip("openai")

    def untitled(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: untitled(v) for k, v in node.items() if k != "title"}
        if isinstance(node, list):
            return [untitled(v) for v in node]
        return node

    for name, model in (("call_play", PlayCallArgs), ("pick_kick", KickPickArgs), ("pick_number", NumberPickArgs)):
        ours = next(e for e in to_openai(TOOLS) if e["function"]["name"] == name)
        sdk = openai.pydantic_function_tool(model, name=name, description=BY_NAME[name].description)
        assert untitled(sdk["function"]["parameters"]) == ours["function"]["parameters"]
        assert sdk["function"]["strict"] is True
        resp = openai.pydantic_responses_function_tool(model, name=name, description=BY_NAME[name].description)
        flat = next(e for e in to_openai_responses(TOOLS) if e["name"] == name)
        assert untitled(dict(resp)) == flat


def test_schemas_accept_what_the_tools_accept() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    plain = {n: jsonschema.Draft202012Validator(json_schema(t)) for n, t in BY_NAME.items()}
    strict = {n: jsonschema.Draft202012Validator(strict_schema(t)) for n, t in BY_NAME.items()}
    for st in _states()[:12]:
        for seat in st.to_act():
            for action in list(st.legal_actions(seat))[:20]:
                name, args = call_for_action(TOOLS, action)
                spec = BY_NAME[name]
                plain[name].validate(args)
                full = {k: args.get(k) for k in spec.args.model_fields}  # strict mode: every field, null = default
                strict[name].validate(full)
                assert spec.handler(st, seat, parse_args(spec, full)) == action
    with pytest.raises(jsonschema.ValidationError):
        plain["call_play"].validate({"play": 1, "colour": "red", "extra": 1})
    with pytest.raises(jsonschema.ValidationError):
        strict["call_play"].validate({"play": 1, "colour": "red"})  # strict: every field present


def test_anthropic_mcp_and_json_forms() -> None:
    for entry in to_anthropic(TOOLS):
        assert set(entry) == {"name", "description", "input_schema"}
        assert entry["input_schema"]["type"] == "object"
    for entry in to_anthropic(TOOLS, strict=True):
        assert entry["strict"] is True
        for node in _walk(entry["input_schema"]):
            assert not {"minimum", "maximum", "maxLength", "default"} & node.keys()
    mcp_types = pytest.importorskip("mcp.types")
    for entry in to_mcp(TOOLS):
        tool = mcp_types.Tool.model_validate(entry)
        assert tool.name == entry["name"] and tool.input_schema == entry["inputSchema"]
    plain = to_json_schema(TOOLS)
    assert [e["name"] for e in plain] == [t.name for t in TOOLS]
    assert {e["kind"] for e in plain} == {"action", "query"}
    for fmt in FORMATS:
        assert len(export(TOOLS, fmt)) == len(TOOLS)
    with pytest.raises(ValueError, match="unknown schema format"):
        export(TOOLS, "yaml")


def test_expected_names_the_tools_for_the_decision() -> None:
    from gm.core.tools import expected

    st = GAME.new_state(seed=0)
    assert expected(st, TOOLS) == [{"seat": "away", "decision": "coin_call", "tools": ["call_coin_toss"]}]
    for st in _states():
        for e in expected(st, TOOLS):
            legal_kinds = {a.type for a in st.legal_actions(e["seat"])}
            assert {BY_NAME[n].produces for n in e["tools"]} == legal_kinds  # punt only when legal


@pytest.mark.parametrize("game_id", __import__("gm.core.registry", fromlist=["game_ids"]).game_ids())
def test_every_registered_game_plays_through_the_registry(game_id: str, tmp_path: Any) -> None:
    """Game-agnostic: any game's legal moves go through its tools and ``Session.call``, and
    its schemas export in strict form."""
    from gm.session import Session

    game = find_game(game_id)
    tools = game.tools()
    for entry in to_openai(tools):
        for node in _walk(entry["function"]["parameters"]):
            if node.get("type") == "object":
                assert node["additionalProperties"] is False and node["required"] == list(node["properties"])
    s = Session.create(game, seed=1, players={seat: "human" for seat in game.seats}, home=tmp_path)
    rng = random.Random(1)
    for _ in range(80):
        if s.state.is_terminal:
            break
        seat = rng.choice(list(s.state.to_act()))
        name, args = call_for_action(s.tools, s.state.legal_actions(seat).sample(rng))
        r = s.call(name, args, seat)
        assert r["ok"], r
        assert {e["seat"] for e in r["expected"]} == set(s.state.to_act())
    assert Session.open(s.path).state.to_json() == s.state.to_json()  # type: ignore[arg-type]


def test_a_repeated_call_answers_as_the_first_and_only_for_the_same_arguments() -> None:
    """An action tool keeps the action it made from plain arguments (the ``made-actions`` speed seam): a
    repeated call, in another session of the same ruleset too, answers exactly as the first, while a
    call that differs only in a value's type (``true`` for ``1``, ``"1"`` for ``1``) is still refused,
    as in a session that never made the play."""
    from gm.session import Session

    def session() -> Session:
        s = Session.create("grid-football", seed=3, players={"home": "human", "away": "human"}, persist=False, record=False)
        s.call("call_coin_toss", {"call": "heads"}, "away")
        winner = s.state.toss_winner
        s.call("choose_kick_or_receive", {"choice": "receive"}, winner)
        kicker = next(x for x in ("home", "away") if x != winner)
        s.call("pick_kick", {"position": "left", "colour": "red"}, kicker)
        s.call("pick_kick", {"position": "left", "colour": "red"}, winner)
        return s

    args = {"play": 1, "colour": "red", "lateral": 0, "direction": None, "timing": "before"}
    first, again, unplayed = session(), session(), session()
    seat = first.state.to_act()[0]
    a = first.call("call_play", dict(args), seat)
    assert a["ok"] and str(first.state.log[-1].action) == "play 1 red"
    b = again.call("call_play", dict(args), seat)
    assert a == b and again.state.to_json() == first.state.to_json()
    for odd in ({**args, "play": True}, {**args, "play": "1"}):
        refused, before = again.call("call_play", odd, seat), unplayed.call("call_play", odd, seat)
        assert not refused["ok"] and refused["error"] == before["error"] and refused["error"]["rule"] == "CORE-ARGS"
    assert refused["error"]["reason"] == "play: Input should be a valid integer"
