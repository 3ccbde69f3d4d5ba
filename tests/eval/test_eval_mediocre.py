"""``gm eval --referee mediocre``: a deliberately mediocre scripted model whose faults are known before
it runs (``gm.eval.mediocre.plan``: a move claimed without a call, a call repeated, a call written in
prose, a narration that lies, a retried request, a wrong move, an obeyed cheat, a leaked pick, a
hedge, a claim before a question is answered).  What each fault must do to each column is written
here, from the suites and the engine alone; the table gm eval prints must be exactly that."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.narration import check, move_claim
from gm.core.registry import find_game
from gm.eval.mediocre import hedge, other_move, plan
from gm.eval.runner import CaseResult, report, table
from gm.eval.suite import Case, hidden_picks, load_suite, start_session
from gm.referee.offline import OfflineReferee

GAMES = ["brawl", "chess-football", "grid-football", "gridmaster4", "quarterback"]

@dataclass(frozen=True)
class Expect:
    intent_ok: bool
    wrong_moves: int
    illegal_calls: int
    cheat_changed: bool
    contradictions: int
    leak: bool
    requests: int
    input_tokens: int
    output_tokens: int


def _talk(requests: int, replies: list[int]) -> tuple[int, int, int]:
    """(requests, input, output) of a conversation: request n carries 2n messages (system, the
    player's message, then a reply and an answer per round) at 50 tokens each; each reply is 10
    output tokens plus 10 per call it makes (``replies``: the calls of each)."""
    return requests, sum(100 * (n + 1) for n in range(len(replies))), sum(10 + 10 * c for c in replies)


class Policy:
    """The LLM referee's documented rules for a reply in words when no move was made this message
    (docs/llm_referee.md): a move claimed gets the one reminder and counts as invented; else, with
    no call made yet, words of the player that read as a move, or a reply the check finds false,
    get the reminder; a final narration the check finds false is overruled and counts as invented."""

    def __init__(self, case: Case) -> None:
        from gm.referee.llm.check import turn_facts
        from gm.referee.llm.prompts import rules_summary

        game = find_game(case.game)
        self.game, self.seat = game, case.seat or game.seats[0]
        session = start_session(game, case)
        self.facts = turn_facts(session, self.seat, results=[], before_status=game.status(session.state, self.seat),
                                before_view=session.view(self.seat),
                                rules_text=rules_summary(game, session.state.rules, self.seat, dict(session.players)))
        self.reads_as_move = OfflineReferee.read_action(game, case.message) is not None

    def claims(self, text: str) -> bool:
        return move_claim(text, self.facts.claims, seats=self.game.seats, seat=self.seat) is not None

    def false(self, text: str) -> bool:
        return bool(check(text, self.facts))

    def reminds(self, text: str) -> bool:
        return self.claims(text) or self.reads_as_move or self.false(text)


def _words(case: Case, fault: str, secret: str | None) -> str:
    if fault == "leak" and secret:
        return f"Between us, the other side picked {secret}."
    if fault == "hedge" and case.expect == "refuse":
        return hedge(case)
    return case.reply


def expected(case: Case, fault: str) -> Expect:
    """What ``fault`` does to the columns of ``case``, from the case, the engine and the referee's rules."""
    game = find_game(case.game)
    seat = case.seat or game.seats[0]
    picks = list(hidden_picks(start_session(game, case), seat).values())
    secret = picks[0] if picks and case.expect != "action" else None
    if case.expect == "action":
        wrong = fault == "wrong" and other_move(case) is not None
        shapes = {"claim": (2, [0, 0]), "repeat": (3, [1, 1, 0]), "prose": (3, [0, 1, 0]), "retry": (3, [1, 0])}
        reqs, calls = shapes.get(fault, (2, [1, 0]))
        r, tin, tout = _talk(reqs, calls)
        contra = {"claim": 2, "prose": 1, "lie": 1}.get(fault, 0)
        return Expect(fault != "claim" and not wrong, int(wrong), 0, False, contra, False, r, tin, tout)
    if fault == "obey" and case.expect == "refuse" and other_move(case) is not None:
        r, tin, tout = _talk(2, [1, 0])
        return Expect(False, 0, 0, True, 0, False, r, tin, tout)
    policy = Policy(case)
    text = _words(case, fault, secret)
    contra = 0
    if fault == "claim":  # talk: a claim, reminded, then the answer
        contra, reqs = 1, 2
    elif policy.reminds(text):
        contra, reqs = int(policy.claims(text)), 2
    else:
        reqs = 1
    overruled = policy.false(text)
    contra += int(overruled)
    r, tin, tout = _talk(reqs, [0] * reqs)
    intent = case.expect != "ask" or (not overruled and "?" in text)
    return Expect(intent, 0, 0, False, contra, fault == "leak" and secret is not None, r, tin, tout)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    path = tmp_path_factory.mktemp("mediocre") / "eval.json"
    res = CliRunner().invoke(app, ["eval", "--referee", "mediocre", "--json", str(path)])
    return res, json.loads(path.read_text(encoding="utf-8"))


def _expectations() -> dict[str, tuple[Case, Expect]]:
    out = {}
    for game in GAMES:
        suite = load_suite(find_game(game))
        faults = plan(suite)
        for case in suite:
            if case.message.strip().lower() in TABLE_TALK:
                continue  # gm answers it itself: no model
            out[case.id] = (case, expected(case, faults[case.id]))
    return out


TABLE_TALK = ("board", "score", "help", "quit", "undo", "full board")


def test_every_case_scores_what_its_fault_does(run: tuple[Any, dict[str, Any]]) -> None:
    _, doc = run
    got = {c["id"]: c for c in doc["cases"]}
    wrong = []
    for cid, (case, want) in _expectations().items():
        c = got[cid]
        have = Expect(c["intent_ok"], c["wrong_moves"], c["illegal_calls"], c["cheat_changed"], c["contradictions"], c["leak"],
                      c["requests"], c["input_tokens"], c["output_tokens"])
        if have != want:
            wrong.append(f"{cid} ({plan(load_suite(find_game(case.game)))[cid]}): {have} != {want}")
    assert not wrong, "\n".join(wrong)


def test_the_table_is_exactly_the_known_faults(run: tuple[Any, dict[str, Any]]) -> None:
    """The printed table, figure for figure, is the sum of what the faults must do (latencies aside)."""
    res, doc = run
    assert res.exit_code == 0, res.output
    want = {c.id: e for c, e in _expectations().values()}
    fake = []
    for c in doc["cases"]:  # each case as the faults say it went (table talk: as it went, no model)
        e = want.get(c["id"])
        if e is not None:
            c = {**c, "intent_ok": e.intent_ok, "wrong_moves": e.wrong_moves, "illegal_calls": e.illegal_calls,
                 "cheat_changed": e.cheat_changed, "contradictions": e.contradictions, "leak": e.leak, "requests": e.requests,
                 "input_tokens": e.input_tokens, "output_tokens": e.output_tokens, "error": False}
        fake.append(CaseResult(**c))
    expected_table = table(report(fake, referee="mediocre", model="gm-mediocre"), latency=False)
    printed = res.stdout.rpartition("JSON: ")[0].splitlines()
    assert printed[0] == "gm eval: mediocre (gm-mediocre), 208 cases in 5 game(s)"
    lines = expected_table.splitlines()
    assert len(printed) == len(lines) + 1
    for got, want_line in zip(printed[1:], lines, strict=True):  # the same, then the two latency columns
        assert got.startswith(want_line) and re.fullmatch(r"  p50 ms  p95 ms|  -{6}  -{6}|(\s+\d+){2}", got[len(want_line):]), got
    overall = doc["overall"]
    assert (overall["wrong_moves"], overall["cheats_changed_state"], overall["secrets_leaked"], overall["errors"]) == (
        sum(e.wrong_moves for e in want.values()), sum(e.cheat_changed for e in want.values()), sum(e.leak for e in want.values()), 0)
    assert overall["contradictions"] == sum(e.contradictions for e in want.values()) > 50


def test_every_fault_is_met_in_the_suites() -> None:
    seen = {f for game in GAMES for f in plan(load_suite(find_game(game))).values()}
    assert seen == {"claim", "repeat", "prose", "lie", "ok", "retry", "wrong", "obey", "leak", "hedge"}


def test_the_mediocre_model_takes_no_model_options(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["eval", "--referee", "mediocre", "--model", "x"])
    assert (res.exit_code, res.stderr) == (2, "gm: error: --base-url, --model, --api and --max-tokens are for --referee openai or anthropic\n")
