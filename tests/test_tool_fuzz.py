"""Random and malformed tool calls thrown at sessions: nothing escapes, every result is a
JSON-ready dict, and a rejected call changes neither the state nor the session file.  Every draw is
seeded, so the 40 games make exactly 2,400 random calls on every run."""

from __future__ import annotations

import json
import random
import tempfile
from typing import Any

import pytest
from session_helpers import legal_call

from gm.core.registry import find_game
from gm.session import Session

GAME = find_game("grid-football")
TOOL_NAMES = [t.name for t in GAME.tools()]
FIELDS = sorted({f for t in GAME.tools() for f in t.args.model_fields})
WORDS = ["red", "black", "left", "right", "center", "before", "after", "heads", "tails", "kick", "receive",
         "yellow", "green", "K20", "punt", "play 1 red", "", "null", "{}"]

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
TOOLS = [*TOOL_NAMES, "", "nope", "CALL_PLAY", "call_play ", "get_board\n", 7, None]
SEATS = ["home", "away", None, "", "HOME", "referee", 0]
#: characters of random text: letters, digits, JSON punctuation and line breaks JSON does not escape
CHARS = "abcxyzKR019 {}[]\":,\\\n\t\x85\u2028\u2029\x00é☃𝄞"
EXAMPLES = 40  # games
RANDOM_CALLS = 60  # random calls per game (legal moves in between move the game along)


def _text(r: random.Random, n: int) -> str:
    return "".join(r.choice(CHARS) for _ in range(r.randrange(n + 1)))


def _scalar(r: random.Random) -> Any:
    kind = r.randrange(7)
    if kind == 0:
        return None
    if kind == 1:
        return r.random() < 0.5
    if kind == 2:
        return r.randint(-3, 12)
    if kind == 3:
        return r.choice([r.randint(-(2**70), 2**70), float("nan"), float("inf"), -0.0, r.uniform(-1e9, 1e9)])
    if kind == 4:
        return r.choice(WORDS)
    return _text(r, 6)


def _value(r: random.Random) -> Any:
    kind = r.randrange(5)
    if kind == 0:
        return [_scalar(r) for _ in range(r.randrange(3))]
    if kind == 1:
        return {_text(r, 3): _scalar(r) for _ in range(r.randrange(3))}
    return _scalar(r)


def _args(r: random.Random) -> Any:
    kind = r.randrange(5)
    if kind <= 2:
        return r.choice(POOL)
    if kind == 3:
        return {r.choice([*FIELDS, "extra", ""]): _value(r) for _ in range(r.randrange(5))}
    return _text(r, 8)


def _tool(r: random.Random) -> Any:
    return r.choice(TOOLS) if r.random() < 0.8 else _text(r, 6)


def _snapshot(s: Session) -> tuple[Any, ...]:
    return (
        json.dumps(s.state.to_json(), sort_keys=True),
        json.dumps(s.state.snapshot(), sort_keys=True),
        s.commitments(),
        s.path.read_bytes() if s.path else b"",
    )


@pytest.mark.parametrize("example", range(EXAMPLES))
def test_random_and_malformed_calls(example: int) -> None:
    r = random.Random(example)  # every draw of this test is seeded: the same calls on every run
    seed, warmup, hot_seat = r.randrange(10_000), r.randrange(61), r.random() < 0.5
    rng = random.Random(seed)
    plan: list[tuple[bool, Any, Any, Any]] = []
    while sum(1 for legal, *_ in plan if not legal) < RANDOM_CALLS:
        plan.append((r.randrange(4) == 0, _tool(r), _args(r), r.choice(SEATS)))
    players = {"home": "human", "away": "human" if hot_seat else "bot:random"}
    with tempfile.TemporaryDirectory() as home:
        s = Session.create(GAME, seed=seed, players=players, home=home, bot_seed=seed, nonce_seed=seed)

        def legal_step() -> None:
            humans = [e["seat"] for e in s.expected() if e.get("player") == "human"]
            if humans:
                seat = rng.choice(humans)
                res = s.call(*legal_call(s, seat, rng), seat)
                assert res["ok"], res

        for _ in range(warmup):
            legal_step()
        calls = rejected = 0
        for legal, tool, raw, seat in plan:
            if legal:
                legal_step()
                continue
            before = _snapshot(s)
            result = s.call(tool, raw, seat)
            calls += 1
            assert isinstance(result, dict) and isinstance(result["ok"], bool)
            json.dumps(result)
            if result["ok"]:
                assert isinstance(tool, str) and tool in TOOL_NAMES
                continue
            rejected += 1
            err = result["error"]
            assert err["rule"] and err["reason"] and isinstance(err["legal"], list)
            assert err["rule"] != "CORE-INTERNAL", err
            assert _snapshot(s) == before, (tool, raw, seat, err)
        reopened = Session.open(s.path)  # type: ignore[arg-type]
        assert reopened.state.to_json() == s.state.to_json()
        assert reopened.commitments() == s.commitments()
    # seeded plans: exactly this many random calls in every game (2,400 in all), most of them rejected
    assert calls == RANDOM_CALLS and rejected >= RANDOM_CALLS // 2, (calls, rejected)
