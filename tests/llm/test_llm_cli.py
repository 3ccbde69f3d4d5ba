"""`gm play --referee openai|anthropic`: keys, the offer of the offline referee, a game
through the real SDK client (over the mock transport), and its transcript replaying."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from llm_fakes import FakeLLM, RulesBrain
from typer.testing import CliRunner

import gm.referee.llm as llm
from gm.cli import play_cmds
from gm.cli.app import app
from gm.transcript import Transcript
from gm.transcript.replay import replay_path

LINES = ["heads", "receive", "left red", "4", "play 1 red 2 right before", "center green", "play 2 black", "9", "punt",
         "play 3 red 1 left after", "kick", "what can I do?", "board", "score"]


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "GM_OPENAI_MODEL", "GM_ANTHROPIC_MODEL"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def gm(*args: str, input: str = "") -> Any:
    return CliRunner().invoke(app, list(args), input=input)


@pytest.mark.parametrize(("referee", "env"), [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")])
def test_without_a_key_gm_says_how_to_set_one(referee: str, env: str) -> None:
    res = gm("play", "--referee", referee, "--seed", "1", input="quit\n")
    assert res.exit_code == 2
    err = res.stderr.strip()
    assert len(err.splitlines()) == 1 and env in err and "--referee offline" in err
    assert "Traceback" not in res.output


def test_without_a_key_an_interactive_player_is_offered_the_offline_referee(monkeypatch: pytest.MonkeyPatch, gm_home: Path) -> None:
    monkeypatch.setattr(play_cmds, "_interactive", lambda: True)
    res = gm("play", "--referee", "openai", "--seed", "1", input="y\nscore\nquit\n")
    assert res.exit_code == 0, res.output
    assert "OPENAI_API_KEY" in res.output and "offline referee instead?" in res.output
    assert "Game saved. Goodbye!" in res.output
    tr = Transcript.load(next((gm_home / "transcripts").glob("*.jsonl")))
    assert tr.header.referee.kind == "offline"


@pytest.mark.parametrize("args", [
    ["--referee", "gpt"],
    ["--referee", "openai", "--api", "assistants"],
    ["--referee", "anthropic", "--base-url", "http://localhost:1/v1"],
    ["--referee", "openai", "--base-url", "http://localhost:11434/v1"],
    ["--max-tokens", "500"],
    ["--referee", "openai", "--max-tokens", "5"],
])
def test_bad_referee_options_are_one_line_errors(args: list[str]) -> None:
    res = gm("play", *args, input="quit\n")
    assert res.exit_code == 2 and len(res.stderr.strip().splitlines()) == 1, res.output


@pytest.mark.parametrize(("referee", "extra", "kind"), [
    ("openai", [], "openai"),
    ("openai", ["--api", "responses"], "openai-responses"),
    ("anthropic", [], "anthropic"),
])
def test_a_game_with_an_llm_referee(monkeypatch: pytest.MonkeyPatch, gm_home: Path, referee: str, extra: list[str], kind: str) -> None:
    fake = FakeLLM(brain=RulesBrain())
    real = llm.make_client

    def make_client(*a: Any, **kw: Any) -> Any:
        kw["http_client"] = fake.client()
        return real(*a, **kw)

    monkeypatch.setattr(llm, "make_client", make_client)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    script = "\n".join(itertools.islice(itertools.cycle(LINES), 16)) + "\nquit\n"
    res = gm("play", "--referee", referee, *extra, "--model", "scripted", "--seed", "4", input=script)
    assert res.exit_code == 0, res.output
    assert fake.requests, "the model was asked"
    assert "Traceback" not in res.output
    path = next((gm_home / "transcripts").glob("*.jsonl"))
    tr = Transcript.load(path)
    assert (tr.header.referee.kind, tr.header.referee.model) == (kind, "scripted")
    assert any(e.type == "llm_response" for e in tr.entries)
    # the boards printed are the engine's (recorded as board entries) and the game replays offline
    res_replay = replay_path(path)
    assert res_replay.ok, res_replay.report()


def test_default_models_and_env_override(monkeypatch: pytest.MonkeyPatch) -> None:
    from gm.referee.llm.providers import DEFAULT_MODELS, resolve_model

    assert resolve_model("openai", None) == DEFAULT_MODELS["openai"]
    monkeypatch.setenv("GM_ANTHROPIC_MODEL", "claude-x")
    assert resolve_model("anthropic", None) == "claude-x"
    assert resolve_model("anthropic", "given") == "given"


def test_resuming_under_another_referee_is_noted_in_the_transcript(monkeypatch: pytest.MonkeyPatch, gm_home: Path) -> None:
    res = gm("play", "--seed", "4", input="left red\nquit\n")
    assert res.exit_code == 0, res.output
    sid = res.output.split("Session ", 1)[1].split(".", 1)[0]
    fake = FakeLLM(brain=RulesBrain())
    real = llm.make_client
    monkeypatch.setattr(llm, "make_client", lambda *a, **kw: real(*a, **{**kw, "http_client": fake.client()}))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    res = gm("play", "--resume", sid, "--referee", "openai", input="7\nquit\n")
    assert res.exit_code == 0, res.output
    path = gm_home / "transcripts" / f"{sid}.jsonl"
    tr = Transcript.load(path)
    assert tr.header.referee.kind == "offline" and tr.referee_kinds == ["offline", "openai"]
    assert {e.type for e in tr.entries} >= {"player", "tool_call", "llm_response", "referee"}
    res = replay_path(path)  # the engine replays it; no one referee can re-run every message
    assert res.ok and res.referee_divergence is None


def test_gm_play_streams_each_narration_once(monkeypatch: pytest.MonkeyPatch, gm_home: Path) -> None:
    """The LLM referee's narration is written as it streams (the model server streams), and once: the
    piped output reads as it would without streaming."""
    fake = FakeLLM(brain=RulesBrain())
    real = llm.make_client
    monkeypatch.setattr(llm, "make_client", lambda *a, **kw: real(*a, **{**kw, "http_client": fake.client()}))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    res = gm("play", "--referee", "openai", "--model", "scripted", "--seed", "4", input="left red\nplay 2 black\nquit\n")
    assert res.exit_code == 0, res.output
    assert fake.requests and all(r["body"].get("stream") for r in fake.requests)
    tr = Transcript.load(next((gm_home / "transcripts").glob("*.jsonl")))
    said = [e.text for e in tr.entries if e.type == "narration" and e.text != "Game saved. Goodbye!"]
    assert said and all(res.output.count(text) == 1 for text in said), res.output
