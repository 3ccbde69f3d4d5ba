"""Secret choices: a bot choosing alongside a human commits first, and nothing the human's
side can read depends on the bot's pick until the reveal (proved by counterfactual: the same
game with two different bot picks looks identical to the human, commitment hashes aside).

Covered: every kind of secret choice of Grid Football - kickoff pick, punt pick, play call,
number pick after a 0-match return, number pick after a colour match.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gm.core.actions import Action
from gm.core.errors import GameError
from gm.core.state import GameState
from gm.core.tools import call_for_action
from gm.games.grid_football import GridFootball
from gm.session import Session, commitment, verify

Policy = Callable[[Any, str], str]


@dataclass
class Scenario:
    name: str
    target: str  # the bot's decision kind whose pick is varied
    human: Policy  # (state, decision) -> action text for the human
    bot: Policy  # (state, decision) -> action text for the bot, away from the target
    variants: tuple[str, str]  # the two picks the bot makes at the target
    phase: str  # the engine phase in which the target pick is made
    when: Callable[[Any], bool] = lambda st: True  # extra condition on the state at the target
    rules: dict[str, Any] | None = None


def _human(kick: str = "left yellow", play: str = "play 1 black") -> Policy:
    def choose(st: Any, decision: str) -> str:
        return {"coin_call": "heads", "kick_choice": "receive", "kick_pick": kick, "number_pick": "number 5",
                "play_call": play}[decision]

    return choose


def _bot(kick: str = "left yellow", play: str = "play 2 red") -> Policy:
    def choose(st: Any, decision: str) -> str:
        return {"coin_call": "heads", "kick_choice": "kick", "kick_pick": kick, "number_pick": "number 1",
                "play_call": play}[decision]

    return choose


SCENARIOS = [
    Scenario("kickoff pick", "kick_pick", _human(), _bot(), ("left yellow", "right green"), "kickoff"),
    Scenario("number after 0-match return", "number_pick", _human(kick="right green"), _bot(kick="left yellow"),
             ("number 3", "number 8"), "return_number"),
    Scenario("play call", "play_call", _human(), _bot(), ("play 1 red", "play 3 black"), "play"),
    Scenario("number after colour match", "number_pick", _human(play="play 2 black"), _bot(play="play 1 black"),
             ("number 2", "number 9"), "number_check"),
    Scenario("punt pick", "kick_pick", _human(play="punt"), _bot(), ("center red", "left green"), "punt",
             when=lambda st: st.phase == "punt", rules={"punt_downs": [1]}),
]


class ScriptedBot:
    """A bot whose picks follow a policy; at the target decision it makes the variant pick."""

    name = "scripted"
    scenario: Scenario
    variant: str

    def __init__(self, seed: int = 0, shared: dict[str, Any] | None = None) -> None:
        # the session makes a fresh bot for every decision: what the script remembers is shared
        self.shared = shared if shared is not None else {"hit": False, "phase": ""}

    @property
    def hit(self) -> bool:
        return bool(self.shared["hit"])

    @property
    def phase(self) -> str:
        return str(self.shared["phase"])

    def choose(self, state: GameState[Any], seat: str) -> Action:
        decision = state.decision(seat)  # type: ignore[attr-defined]
        if not self.hit and decision == self.scenario.target and self.scenario.when(state):
            self.shared.update(hit=True, phase=state.phase)  # type: ignore[attr-defined]
            return state.parse_action(self.variant)
        return state.parse_action(self.scenario.bot(state, decision))


def _play_to_commit(sc: Scenario, variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Session, dict[str, Any], ScriptedBot]:
    """Play the scenario with the human's moves through tool calls until the bot has made
    (and committed) its target pick; return the session, the human's last result and the bot."""
    made: list[ScriptedBot] = []
    shared: dict[str, Any] = {"hit": False, "phase": ""}

    def factory(seed: int = 0) -> ScriptedBot:
        bot = ScriptedBot(seed, shared)
        bot.scenario, bot.variant = sc, variant
        made.append(bot)
        return bot

    orig = GridFootball.bots
    monkeypatch.setattr(GridFootball, "bots", lambda self: {**orig(self), "scripted": factory})
    s = Session.create("gf", seed=3, rules=sc.rules, players={"home": "human", "away": "bot:scripted"},
                       home=tmp_path / variant.replace(" ", "_"), id="counterfactual", nonce_seed=42)
    last: dict[str, Any] = {"ok": True, "opening": s.opening_events, "commitments": s.commitments()}
    for _ in range(200):
        if made and made[0].hit:
            return s, last, made[0]
        decision = s.state.decision("home")  # type: ignore[attr-defined]
        assert decision, s.expected()
        tool, args = call_for_action(s.tools, s.state.parse_action(sc.human(s.state, decision)))
        last = s.call(tool, args, "home")
        assert last["ok"], last
    raise AssertionError(f"{sc.name}: the bot never reached its target pick")


def _human_side(s: Session, last: dict[str, Any]) -> str:
    """Everything the human's side can read right now, as one JSON text."""
    seen: dict[str, Any] = {"last_result": last, "view": s.view("home"), "log": s.log("home")}
    queries = [("get_board", {}), ("get_board", {"full": True}), ("get_status", {}), ("legal_actions", {}),
               ("get_rules", {}), ("get_square", {"square": "K20"})]
    for tool, args in queries:
        seen[f"{tool} {args}"] = s.call(tool, args, "home")
        seen[f"{tool} {args} spectator"] = s.call(tool, args, None)
    seen["rejected"] = s.call("call_play", {"play": 9, "colour": "red"}, "home")
    seen["bot seat"] = s.call("get_status", {}, "away")
    seen["board"] = s.game.render(s.state, "home", full=True)
    seen["status"] = s.game.status(s.state, "home")
    return json.dumps(seen, sort_keys=True)


@pytest.mark.parametrize("sc", SCENARIOS, ids=[sc.name for sc in SCENARIOS])
def test_human_side_never_depends_on_the_bots_committed_pick(sc: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runs = []
    for variant in sc.variants:
        s, last, _bot_used = _play_to_commit(sc, variant, tmp_path, monkeypatch)
        assert _bot_used.phase == sc.phase
        secret = next(x for x in s.book.open if x.seat == "away" and x.digest)  # the session's own record
        assert secret.choice == variant and s.state.decision("away") is None  # type: ignore[attr-defined]
        digest = s.commitments()["away"]
        assert digest == commitment(variant, secret.nonce or "")
        assert last["commitments"]["away"] == digest  # the human was shown the hash
        seen = _human_side(s, last)
        assert secret.nonce not in seen
        runs.append((s, seen.replace(digest, "<commitment>"), digest, secret.nonce))
    (_, seen_a, digest_a, _), (_, seen_b, digest_b, _) = runs
    assert digest_a != digest_b
    assert seen_a == seen_b  # the human's side is identical whatever the bot picked

    # the file keeps the bot's pick sealed: its record says only "locked", and the two files differ only
    # in what is random (sealed blobs, commitments, the MACs over them)
    files = []
    for s, *_ in runs:
        assert s.path is not None
        text = s.path.read_text()
        records = [json.loads(line) for line in text.splitlines()[1:]]
        assert records[-1]["public"] == "locked" and records[-1]["seat"] == "away" and "action" not in records[-1]
        assert all(v not in text for v in sc.variants)
        files.append([{k: ("<random>" if k in ("sealed", "commitment", "mac", "created", "key_id") else v) for k, v in r.items()}
                      for r in map(json.loads, text.splitlines())])
    assert files[0] == files[1]

    # the human moves; the result reveals choice and nonce, and they verify
    for (s, _seen, digest, nonce), variant in zip(runs, sc.variants, strict=True):
        decision = s.state.decision("home")  # type: ignore[attr-defined]
        tool, args = call_for_action(s.tools, s.state.parse_action(sc.human(s.state, decision)))
        r = s.call(tool, args, "home")
        assert r["ok"], r
        rev = r["reveal"]["away"]
        assert rev == {"choice": variant, "nonce": nonce, "commitment": digest, "verified": True}
        assert verify(rev) and rev in [{k: v for k, v in x.items() if k not in ("seat", "index", "revealed_at")} for x in s.reveals()]
        assert "away" not in r["commitments"] or r["commitments"]["away"] != digest
        assert [m for m in s.log("home") if m[1] == "locked"] == [["away", "locked"]] * len(r["commitments"])
        reopened = Session.open(s.path)  # type: ignore[arg-type]
        assert reopened.reveals() == s.reveals() and reopened.commitments() == s.commitments()


def test_the_bot_commits_before_the_human_in_every_simultaneous_phase(tmp_path: Path) -> None:
    """Over whole random games: whenever the human faces a secret pick, the bot's is already
    committed (never the other way round), and every commitment verifies at its reveal."""
    import random

    from session_helpers import legal_call

    rng = random.Random(5)
    s = Session.create("gf", seed=8, players={"home": "human", "away": "bot:random"}, home=tmp_path, bot_seed=1)
    kinds: set[str] = set()
    reveals = 0
    while not s.state.is_terminal:
        decision = s.state.decision("home")  # type: ignore[attr-defined]
        if decision in ("kick_pick", "number_pick", "play_call"):
            assert "away" in s.commitments(), (decision, s.expected())
            kinds.add(decision)
        r = s.call(*legal_call(s, "home", rng), "home")
        for rev in r["reveal"].values():
            assert verify(rev)
            reveals += 1
    assert reveals >= len(kinds) >= 2


def test_a_human_cannot_move_or_look_for_the_bot(tmp_path: Path) -> None:
    s = Session.create("gf", seed=3, players={"away": "bot:random"}, home=tmp_path, bot_seed=1)
    for tool, args in (("pick_kick", {"position": "left", "colour": "red"}), ("get_status", {}), ("legal_actions", {})):
        r = s.call(tool, args, "away")
        assert not r["ok"] and r["error"]["rule"] == "CORE-SEAT"
    with pytest.raises(GameError, match="CORE-SEAT"):
        s.view("away")
