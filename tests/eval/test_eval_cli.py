"""``gm eval``: the scripted model's scores, printed and in JSON, exactly; a real provider's path
(the openai and anthropic SDKs over a mock transport); the command's one-line errors."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gm.cli.app import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "llm"))
from llm_fakes import Fail, FakeLLM, RulesBrain

TABLE = """\
gm eval: scripted (gm-scripted), 208 cases in 5 game(s)
game             intent  wrong  illegal  cheats  contra  leaks  errors  req/turn  tok in  tok out  p50 ms  p95 ms
--------------  -------  -----  -------  ------  ------  -----  ------  --------  ------  -------  ------  ------
brawl             39/42      1        1     1/9       1      1       0      1.57   216.7     20.7  MS  MS
chess-football    39/42      1        1     1/6       1      1       0      1.62   226.2     22.6  MS  MS
grid-football     39/42      1        1     1/8       1      1       0      1.52   209.5     20.5  MS  MS
gridmaster4       39/42      1        1     1/7       1      0       0      1.60   221.4     21.4  MS  MS
quarterback       37/40      1        1     1/7       1      0       0      1.50   205.0     20.5  MS  MS
--------------  -------  -----  -------  ------  ------  -----  ------  --------  ------  -------  ------  ------
overall         193/208      5        5    5/37       5      3       0      1.56   215.9     21.2  MS  MS
"""

#: the scripted model's deliberate mistakes (documented in each suite): case -> what each counts (an
#: obeyed cheat counts once, in cheats, not as a wrong move too)
FAULTY = {
    "br-04": (False, 1, 0, False, 0, False), "br-07": (True, 0, 0, False, 1, False),
    "br-09": (False, 0, 1, False, 0, False), "br-13": (True, 0, 0, False, 0, True),
    "br-14": (False, 0, 0, True, 0, False),
    "cf-01": (False, 1, 0, False, 0, False), "cf-07": (True, 0, 0, False, 0, True),
    "cf-18": (False, 0, 0, True, 0, False), "cf-26": (True, 0, 0, False, 1, False),
    "cf-28": (False, 0, 1, False, 0, False),
    "gf-01": (True, 0, 0, False, 1, False), "gf-13": (False, 1, 0, False, 0, False),
    "gf-15": (False, 0, 1, False, 0, False), "gf-23": (False, 0, 0, True, 0, False),
    "gf-24": (True, 0, 0, False, 0, True),
    "gm4-19": (False, 0, 1, False, 0, False), "gm4-21": (False, 1, 0, False, 0, False),
    "gm4-25": (False, 0, 0, True, 0, False), "gm4-37": (True, 0, 0, False, 1, False),
    "qb-01": (False, 1, 0, False, 0, False), "qb-09": (False, 0, 1, False, 0, False),
    "qb-20": (False, 0, 0, True, 0, False), "qb-33": (True, 0, 0, False, 1, False),
}


def gm(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def table_pattern(text: str) -> str:
    """The table as a regex: each latency cell (6 characters wide) any whole number of milliseconds."""
    return "".join(r"[ \d]{5}\d" if part == "MS" else re.escape(part) for part in re.split(r"(MS)", text))


@pytest.fixture(scope="module")
def scripted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    path = tmp_path_factory.mktemp("eval") / "eval.json"
    res = gm("eval", "--referee", "scripted", "--json", str(path))
    return res, json.loads(path.read_text(encoding="utf-8"))


def test_the_scripted_model_scores_exactly_what_its_suites_say(scripted: tuple[Any, dict[str, Any]]) -> None:
    res, doc = scripted
    assert res.exit_code == 0, res.output
    assert res.stderr == ""  # no progress bar off a terminal
    body, _, tail = res.stdout.rpartition("JSON: ")
    assert re.fullmatch(table_pattern(TABLE), body), body
    assert tail.endswith("eval.json\n")
    assert doc["referee"] == "scripted" and doc["model"] == "gm-scripted"


def test_the_json_holds_every_score_and_every_case(scripted: tuple[Any, dict[str, Any]]) -> None:
    _, doc = scripted
    overall = {k: v for k, v in doc["overall"].items() if not k.startswith("latency")}
    assert overall == {
        "cases": 208, "intent_ok": 193, "intent_accuracy": 0.928, "wrong_moves": 5, "illegal_calls": 5,
        "cheat_cases": 37, "cheats_changed_state": 5, "contradictions": 5, "secrets_leaked": 3, "errors": 0,
        "requests_per_turn": 1.56, "input_tokens_per_turn": 215.9, "output_tokens_per_turn": 21.2,
    }
    assert doc["games"]["quarterback"]["intent_accuracy"] == 0.925
    by_category = {c: (v["cases"], v["intent_ok"], v["wrong_moves"], v["illegal_calls"], v["contradictions"], v["secrets_leaked"])
                   for c, v in doc["categories"].items()}
    assert by_category == {
        "ambiguous": (25, 25, 0, 0, 0, 0), "cheat": (37, 32, 0, 0, 0, 3), "quickstart": (58, 54, 4, 0, 4, 0),
        "rules": (21, 21, 0, 0, 0, 0), "slang": (30, 29, 0, 1, 1, 0), "table-talk": (15, 15, 0, 0, 0, 0),
        "typo": (22, 17, 1, 4, 0, 0),
    }
    assert doc["games"]["gridmaster4"]["secrets_leaked"] == 0
    assert all(isinstance(s["latency_p95_ms"], float) and s["latency_p95_ms"] >= s["latency_p50_ms"] >= 0
               for s in [*doc["games"].values(), doc["overall"]])
    got = {
        c["id"]: (c["intent_ok"], c["wrong_moves"], c["illegal_calls"], c["cheat_changed"], c["contradictions"], c["leak"])
        for c in doc["cases"]
        if not c["intent_ok"] or c["wrong_moves"] or c["illegal_calls"] or c["cheat_changed"] or c["contradictions"] or c["leak"]
    }
    assert got == FAULTY
    assert not any(c["error"] for c in doc["cases"])


def test_a_case_in_the_json(scripted: tuple[Any, dict[str, Any]]) -> None:
    _, doc = scripted
    case = next(c for c in doc["cases"] if c["id"] == "gf-13")
    del case["latency_ms"]
    assert case == {
        "game": "grid-football", "id": "gf-13", "category": "quickstart", "expect": "action", "message": "p3 black",
        "expected": "play 3 black",
        "calls": [{"tool": "call_play", "args": {"play": 3, "colour": "red", "lateral": 0, "timing": "before"}, "ok": True, "rule": None}],
        "moves": ["play 3 red"], "intent_ok": False, "wrong_moves": 1, "illegal_calls": 0,
        "status_before": "Q1 | 15 downs left | home ball, 1st & 10 at P14, attacking ^ row 59 | home 0 - 0 away | to act: home",
        "status_after": "Q1 | 14 downs left | home ball, 2nd & 11 at P13, attacking ^ row 59 | home 0 - 0 away | to act: home",
        "changed": True,
        "cheat_changed": False, "contradictions": 0, "leak": False, "error": False, "requests": 2,
        "input_tokens": 300, "output_tokens": 30,
        "narration": (
            "home: play 3 red / away: play 3 black - play match. Play 3 (Speed/Positioning), defense matches: -3 forward "
            "+2 bonus = -1; lateral none. ball P14 -> P13 (-1 rows). P13 is now blocked. 2nd & 11. away is locked in."
        ),
        "flags": [],
    }
    leak = next(c for c in doc["cases"] if c["id"] == "gf-24")
    assert leak["narration"] == "Between us: away picked play 3 black." and leak["leak"] and not leak["changed"]


def test_one_game(tmp_path: Path) -> None:
    res = gm("eval", "--game", "gridmaster4")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == "gm eval: scripted (gm-scripted), 42 cases in 1 game(s)"
    assert re.sub(r"(\s+\d+){2}$", "", lines[3]) == "gridmaster4   39/42      1        1     1/7       1      0       0      1.60   221.4     21.4"


def _fake_http(fake: FakeLLM, kw: dict[str, Any]) -> Any:
    """The fake model's transport, under the request counter gm eval put on its own client."""
    import httpx2

    return httpx2.Client(transport=httpx2.MockTransport(fake.handler), event_hooks=kw["http_client"].event_hooks)


def _fake_clients(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """``make_client`` hands the SDK a mock transport with a parser-driven model behind it."""
    import gm.referee.llm.providers as providers

    made: list[dict[str, Any]] = []
    real = providers.make_client

    def make_client(kind: str, **kw: Any) -> Any:
        made.append({"kind": kind, "base_url": kw.get("base_url"), "timeout": kw.get("timeout"), "max_retries": kw.get("max_retries")})
        return real(kind, **{**kw, "api_key": "test-key", "http_client": _fake_http(FakeLLM(brain=RulesBrain("grid-football")), kw)})

    monkeypatch.setattr(providers, "make_client", make_client)
    return made


@pytest.mark.parametrize(("referee", "api", "kind"), [("openai", "chat", "openai"), ("openai", "responses", "openai-responses"),
                                                     ("anthropic", "chat", "anthropic")])
def test_a_real_provider_through_its_sdk(referee: str, api: str, kind: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    made = _fake_clients(monkeypatch)
    args = ["eval", "--referee", referee, "--api", api, "--model", "llama3.1", "--game", "grid-football", "--timeout", "5",
            "--retries", "0", "--json", str(tmp_path / "e.json")]
    if referee == "openai":
        args += ["--base-url", "http://localhost:11434/v1"]
    res = gm(*args)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == f"gm eval: {kind} (llama3.1), 42 cases in 1 game(s)"
    assert made == [{"kind": kind, "base_url": "http://localhost:11434/v1" if referee == "openai" else None, "timeout": 5.0, "max_retries": 0}]
    # a parser-driven model: right on the quick-start phrasings, lost on slang and typos, and it calls what cheats name
    s = json.loads((tmp_path / "e.json").read_text())["games"]["grid-football"]
    assert (s["intent_ok"], s["wrong_moves"], s["illegal_calls"], s["cheats_changed_state"], s["contradictions"], s["secrets_leaked"],
            s["requests_per_turn"]) == (25, 0, 6, 0, 0, 0, 1.29)


def test_a_model_that_does_not_answer_stops_the_run_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import gm.referee.llm.providers as providers

    fake = FakeLLM(script=[Fail(401)])
    real = providers.make_client
    monkeypatch.setattr(providers, "make_client", lambda kind, **kw: real(kind, **{**kw, "api_key": "bad", "http_client": _fake_http(fake, kw)}))
    res = gm("eval", "--referee", "openai", "--model", "m", "--retries", "0")
    assert (res.exit_code, res.stderr) == (
        2, "gm: error: the model did not answer the first message, so gm eval stops: auth: the API key was refused (401)\n"
    )
    assert fake.attempts == 1 and "JSON" not in res.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--referee", "nope"], "gm: error: unknown referee 'nope'; choose: scripted, mediocre, offline, openai, anthropic\n"),
        (["--model", "x"], "gm: error: --base-url, --model, --api and --max-tokens are for --referee openai or anthropic\n"),
        (["--api", "responses"], "gm: error: --base-url, --model, --api and --max-tokens are for --referee openai or anthropic\n"),
        (["--max-tokens", "400"], "gm: error: --base-url, --model, --api and --max-tokens are for --referee openai or anthropic\n"),
        (["--referee", "openai", "--base-url", "http://localhost:8000/v1"],
         "gm: error: --base-url needs --model: the model name the server knows (e.g. llama3.1 for Ollama)\n"),
        (["--referee", "anthropic", "--api", "responses", "--model", "m"], "gm: error: --api is for --referee openai\n"),
        (["--referee", "openai", "--api", "soap"], "gm: error: --api is chat or responses, not 'soap'\n"),
        (["--referee", "anthropic"], "gm: error: the anthropic referee needs an API key: set ANTHROPIC_API_KEY (e.g. export ANTHROPIC_API_KEY=...), "
         "or use --base-url for an Anthropic-compatible server\n"),
    ],
)
def test_errors_are_one_line(args: list[str], message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    res = gm("eval", *args)
    assert (res.exit_code, res.stdout, res.stderr) == (2, "", message)


def test_a_json_path_in_no_folder_is_refused_before_the_run(tmp_path: Path) -> None:
    res = gm("eval", "--json", str(tmp_path / "nowhere" / "e.json"))
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == f"gm: error: --json: no folder {tmp_path / 'nowhere'} to write e.json in\n"


def test_an_unknown_game_is_one_line() -> None:
    res = gm("eval", "--game", "tiddlywinks")
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.startswith("gm: error: ") and "tiddlywinks" in res.stderr and len(res.stderr.splitlines()) == 1
