"""``turn_action``, the move-as-text tool a language model gets for Chess-Football's reaction turns:
the same move through the same structured tool, the same results, and clear refusals that change
nothing."""

from __future__ import annotations

import json
import random

from gm.core.tools import call_for_action
from gm.session import Session

SHORT = {"possessions_per_half": 1, "max_turns_per_down": 2}


def _pair(seed: int) -> tuple[Session, Session]:
    make = lambda: Session.create("chess-football", seed=seed, rules=SHORT, players={"home": "human", "away": "bot:default"},  # noqa: E731
                                  persist=False, bot_seed=0, nonce_seed=0)
    return make(), make()


def _strip(result: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in result.items() if k != "tool"}


def test_a_game_by_text_is_the_game_by_structured_tools() -> None:
    for seed in (1, 2):
        text, structured = _pair(seed)
        rng = random.Random(seed)
        by_text = 0
        while not structured.state.is_terminal:
            if "home" not in structured.state.to_act():
                assert structured.advance() == text.advance()
                continue
            action = structured.state.legal_actions("home").sample(rng)
            name, args = call_for_action(structured.tools, action)
            turn = structured.state.decision("home") == "turn"
            want = structured.call(name, args, "home")
            if turn:
                got = text.call("turn_action", {"action": str(action)}, "home")
                by_text += 1
                assert got["tool"] == name
            else:
                got = text.call(name, args, "home")
            assert _strip(got) == _strip(want)
        assert text.state.to_json() == structured.state.to_json() and by_text > 30


def test_refusals_name_the_rule_and_change_nothing() -> None:
    s, _ = _pair(1)
    while s.state.decision("home") != "turn":
        if "home" not in s.state.to_act():
            s.advance()
            continue
        a = s.state.legal_actions("home")[0]
        s.call(*call_for_action(s.tools, a), "home")
    before = json.dumps(s.state.to_json(), sort_keys=True)
    punt = s.call("turn_action", {"action": "punt"}, "home")
    assert punt["ok"] is False and punt["error"]["rule"] == "CORE-TOOL"
    assert punt["error"]["reason"] == "'punt' is not a turn_action move; fourth_down makes it"
    assert punt["error"]["legal"] == ["fourth_down"]
    nonsense = s.call("turn_action", {"action": "teleport the QB to the end zone"}, "home")
    assert nonsense["ok"] is False and nonsense["error"]["rule"].startswith("CF-") and nonsense["error"]["legal"]
    far = s.call("turn_action", {"action": "QB to A48 C"}, "home")
    assert far["ok"] is False and far["error"]["rule"].startswith("CF-")
    spectator = s.call("turn_action", {"action": "done"}, None)
    assert spectator["error"]["rule"] == "CORE-SEAT"
    wrong = s.call("turn_action", {"move": "done"}, "home")
    assert wrong["error"]["rule"] == "CORE-ARGS"
    assert json.dumps(s.state.to_json(), sort_keys=True) == before
