"""Random and malformed tool calls thrown at sessions: nothing escapes, every result is a
JSON-ready dict, and a rejected call changes neither the state nor the session file."""

from __future__ import annotations

import json
import random
import tempfile
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from session_helpers import legal_call

from gm.core.registry import find_game
from gm.session import Session

GAME = find_game("grid-football")
TOOL_NAMES = [t.name for t in GAME.tools()]
FIELDS = sorted({f for t in GAME.tools() for f in t.args.model_fields})
WORDS = ["red", "black", "left", "right", "center", "before", "after", "heads", "tails", "kick", "receive",
         "yellow", "green", "K20", "punt", "play 1 red", "", "null", "{}"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.integers(), st.floats(allow_nan=True),
    st.sampled_from(WORDS), st.text(max_size=6),
)
values = st.one_of(scalars, st.lists(scalars, max_size=2), st.dictionaries(st.text(max_size=3), scalars, max_size=2))
arg_dicts = st.dictionaries(st.sampled_from([*FIELDS, "extra", ""]), values, max_size=4)


def _pool() -> list[Any]:
    """A fixed pool of malformed and well-formed argument payloads (cheap to draw from)."""
    r = random.Random(0)
    junk: list[Any] = [None, "", " ", "{", "[]", "null", "42", '"x"', "{}", {"": None}, [], 3, 2.5, True, "play 1 red"]
    vals: list[Any] = [None, True, False, 0, 1, 2, 3, 4, 5, 9, 10, 11, -1, 1.0, "1", "red", "black", "left", "right",
                       "center", "before", "after", "heads", "tails", "kick", "receive", "yellow", "green", "K20",
                       "k3", "Z99", [], {}, [1], {"a": 1}, "x" * 300]
    for _ in range(400):
        d = {r.choice([*FIELDS, "extra"]): r.choice(vals) for _ in range(r.randrange(0, 5))}
        junk.append(d if r.random() < 0.7 else json.dumps(d))
    return junk


POOL = _pool()
args = st.one_of(st.sampled_from(POOL), st.sampled_from(POOL), st.sampled_from(POOL), arg_dicts, st.text(max_size=8))
tools = st.one_of(st.sampled_from([*TOOL_NAMES, "", "nope", "CALL_PLAY", "call_play ", "get_board\n", 7, None]), st.text(max_size=6))
seats = st.sampled_from(["home", "away", None, "", "HOME", "referee", 0])
#: each step is a random call, or (flag True) one legal move to move the game along
steps = st.lists(st.tuples(st.integers(0, 3).map(lambda x: x == 0), tools, args, seats), min_size=30, max_size=60)
CALLS = {"random": 0, "rejected": 0}


def _snapshot(s: Session) -> tuple[Any, ...]:
    return (
        json.dumps(s.state.to_json(), sort_keys=True),
        json.dumps(s.state.snapshot(), sort_keys=True),
        s.commitments(),
        s.path.read_bytes() if s.path else b"",
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    warmup=st.integers(0, 60),
    hot_seat=st.booleans(),
    plan=steps,
)
def test_random_and_malformed_calls(seed: int, warmup: int, hot_seat: bool, plan: list[tuple[bool, Any, Any, Any]]) -> None:
    rng = random.Random(seed)
    players = {"home": "human", "away": "human" if hot_seat else "bot:random"}
    with tempfile.TemporaryDirectory() as home:
        s = Session.create(GAME, seed=seed, players=players, home=home, bot_seed=seed, nonce_seed=seed)

        def legal_step() -> None:
            humans = [e["seat"] for e in s.expected() if e.get("player") == "human"]
            if humans:
                seat = rng.choice(humans)
                r = s.call(*legal_call(s, seat, rng), seat)
                assert r["ok"], r

        for _ in range(warmup):
            legal_step()
        for legal, tool, raw, seat in plan:
            if legal:
                legal_step()
                continue
            before = _snapshot(s)
            result = s.call(tool, raw, seat)
            CALLS["random"] += 1
            assert isinstance(result, dict) and isinstance(result["ok"], bool)
            json.dumps(result)
            if result["ok"]:
                assert isinstance(tool, str) and tool in TOOL_NAMES
                continue
            CALLS["rejected"] += 1
            err = result["error"]
            assert err["rule"] and err["reason"] and isinstance(err["legal"], list)
            assert err["rule"] != "CORE-INTERNAL", err
            assert _snapshot(s) == before, (tool, raw, seat, err)
        reopened = Session.open(s.path)  # type: ignore[arg-type]
        assert reopened.state.to_json() == s.state.to_json()
        assert reopened.commitments() == s.commitments()


def test_the_fuzz_threw_thousands_of_calls() -> None:
    """Runs after the fuzz test in this module (pytest keeps file order)."""
    if CALLS["random"]:  # skipped when the fuzz test was deselected
        assert CALLS["random"] >= 2000 and CALLS["rejected"] >= 1000, CALLS
