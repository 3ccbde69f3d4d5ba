"""Replay: recordings replay exactly; any change is reported at its line with a diff."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session
from gm.transcript import Transcript
from gm.transcript.record import record_bot_game, record_script
from gm.transcript.replay import replay, replay_path

BOTS = {"home": "bot:random", "away": "bot:default"}
SCRIPT = [("home", "receive"), ("home", "kick"), ("home", "left red"), ("home", "5"), ("home", "play 1 red 2 right before"),
          ("home", "play 4 red"), ("home", "zorp"), ("home", "board"), ("home", "p2 black"), ("home", "what can I do?")]


@pytest.fixture(scope="module")
def bot_game() -> Transcript:
    return record_bot_game("grid-football", 5, BOTS)


@pytest.fixture(scope="module")
def scripted() -> Transcript:
    return record_script("grid-football", 2, SCRIPT, players={"home": "human", "away": "bot:default"})


def _tamper(tr: Transcript, pick: str, change: object) -> tuple[Transcript, int]:
    """Copy of ``tr`` with the first entry of type ``pick`` changed; returns its line number."""
    data = [json.loads(line) for line in tr.to_jsonl().splitlines()]
    for i, entry in enumerate(data[1:], start=1):
        if entry["type"] == pick and (pick != "tool_result" or entry["result"].get("kind") == "action"):
            change(entry)  # type: ignore[operator]
            return Transcript.from_jsonl("\n".join(json.dumps(d) for d in data)), i + 1
    raise AssertionError(pick)


def test_a_bot_game_replays_exactly(bot_game: Transcript) -> None:
    res = replay(bot_game)
    assert res.ok, res.report()
    assert res.calls == sum(1 for e in bot_game.entries if e.type == "tool_call")
    assert "GF-TOSS" in res.rules and "GF-LOCK" in res.rules


def test_scripted_game_replays_at_tool_and_referee_level(scripted: Transcript) -> None:
    res = replay(scripted)
    assert res.ok, res.report()
    assert any(e.type == "bot_move" for e in scripted.entries)
    rejected = {e.result["error"]["rule"] for e in scripted.entries if e.type == "tool_result" and not e.result["ok"]}
    assert rejected and rejected <= res.rules  # rejections count as exercising their rule


def test_a_changed_result_is_reported_at_its_line_with_a_diff(bot_game: Transcript) -> None:
    def change(e: dict) -> None:
        e["result"]["narration"][0] = "something else happened"

    tampered, line = _tamper(bot_game, "tool_result", change)
    res = replay(tampered)
    assert not res.ok and res.divergence is not None
    assert res.divergence.line == line
    diff = res.divergence.diff()
    assert '-  "something else happened"' in diff and "+" in diff
    assert f"line {line}" in res.report()


def test_a_changed_board_shows_a_board_diff(scripted: Transcript) -> None:
    def change(e: dict) -> None:
        e["text"] = e["text"].replace(".", "#", 1)

    tampered, line = _tamper(scripted, "board", change)
    res = replay(tampered)
    assert res.divergence is not None and res.divergence.line == line
    assert "board shown to" in res.divergence.what
    assert any(ln.startswith("-") and "#" in ln for ln in res.divergence.diff().splitlines())


def test_update_rewrites_changed_results(bot_game: Transcript, tmp_path: Path) -> None:
    def change(e: dict) -> None:
        e["result"]["status"] = "stale"

    tampered, _ = _tamper(bot_game, "tool_result", change)
    path = tmp_path / "t.jsonl"
    tampered.save(path)
    assert not replay_path(path).ok
    res = replay_path(path, update=True)
    assert res.changes and res.ok
    assert replay_path(path).ok
    assert Transcript.load(path) == bot_game


def test_referee_replay_reports_different_tool_calls(scripted: Transcript) -> None:
    def change(e: dict) -> None:
        if e["tool"] == "call_play":
            e["args"]["play"] = 2

    data = [json.loads(line) for line in scripted.to_jsonl().splitlines()]
    for entry in data[1:]:
        if entry["type"] == "tool_call" and entry["tool"] == "call_play":
            change(entry)
            break
    tampered = Transcript.from_jsonl("\n".join(json.dumps(d) for d in data))
    res = replay(tampered)
    # the tool replay follows the recorded (changed) call and diverges on its result,
    assert res.divergence is not None
    # and the referee-level replay alone also sees the referee calling something else
    from gm.transcript.replay import referee_replay

    d = referee_replay(tampered)
    assert d is not None and "other tool calls" in d.what


def test_recorded_games_never_hold_a_bot_secret_before_its_reveal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mid-round, the bot's locked pick is in no transcript line, and no bot seed is written."""
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    res = CliRunner().invoke(app, ["play", "--seed", "9"], input="heads\nreceive\nkick\n")
    assert res.exit_code == 0, res.output
    sid = res.output.split("Session ")[1].split(".")[0]
    session = Session.open(sid)
    secret = {seat: rev for seat, rev in session.commitments().items()}
    assert secret, "the bot should have a committed pick pending"
    text = (tmp_path / "transcripts" / f"{sid}.jsonl").read_text()
    pending = session.book.open[-1]  # gm's own copy (it holds the key to the sealed record)
    assert pending.nonce and pending.nonce not in text
    lines = [json.loads(ln) for ln in text.splitlines()]
    assert not any(e.get("type") == "bot_move" and e.get("action") == pending.choice and e is lines[-1] for e in lines)
    assert all("bot_seed" not in json.dumps(e) for e in lines)
    bot_moves = [e for e in lines if e.get("type") == "bot_move"]
    assert len(bot_moves) == len([m for m in session.log(None) if m[0] == "away" and m[1] != "locked"])


def test_gm_replay_cli(bot_game: Transcript, tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    bot_game.save(good)

    def change(e: dict) -> None:
        e["result"]["board"] = "nothing"

    bad_tr, _ = _tamper(bot_game, "tool_result", change)
    bad = tmp_path / "bad.jsonl"
    bad_tr.save(bad)
    runner = CliRunner()
    ok = runner.invoke(app, ["replay", str(good), "--coverage"])
    assert ok.exit_code == 0, ok.output
    assert "1 passed, 0 failed" in ok.output and "rule coverage: grid-football" in ok.output
    res = runner.invoke(app, ["replay", str(tmp_path)])
    assert res.exit_code == 1 and "DIVERGED" in res.output and "bad.jsonl: diverged at line" in res.output
    js = runner.invoke(app, ["replay", str(tmp_path), "--json"])
    assert json.loads(js.stdout)["failed"] == [str(bad)]
    missing = runner.invoke(app, ["replay", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "Traceback" not in missing.output
    (tmp_path / "junk.jsonl").write_text("{not a transcript\n")
    junk = runner.invoke(app, ["replay", str(tmp_path / "junk.jsonl")])
    assert junk.exit_code == 1 and "not a gm transcript header" in junk.output


def test_gm_record_cli(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    res = CliRunner().invoke(app, ["record", "-o", str(out), "--seed", "4", "--bot", "home=bot:random"])
    assert res.exit_code == 0, res.output
    assert replay_path(out).ok
    script = tmp_path / "s.txt"
    script.write_text("# a comment\naway: heads\naway: kick\n")
    out2 = tmp_path / "s.jsonl"
    res2 = CliRunner().invoke(app, ["record", "-o", str(out2), "--script", str(script)])
    assert res2.exit_code == 0, res2.output
    assert Transcript.load(out2).header.referee.kind == "offline" and replay_path(out2).ok
    bad = CliRunner().invoke(app, ["record", "-o", str(out2), "--bot", "left=bot:random"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output


def test_pytest_collects_transcripts(pytester: pytest.Pytester, bot_game: Transcript) -> None:
    folder = pytester.mkdir("transcripts")
    bot_game.save(folder / "alpha.jsonl")

    def change(e: dict) -> None:
        e["result"]["status"] = "stale"

    bad, _ = _tamper(bot_game, "tool_result", change)
    bad.save(folder / "beta.jsonl")
    (folder / "README.md").write_text("# not a scenario\n")
    result = pytester.runpytest("transcripts")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*beta.jsonl: diverged at line*", "*-*stale*"])
    only = pytester.runpytest("transcripts", "-k", "alpha")
    only.assert_outcomes(passed=1)
    first = pytester.runpytest("transcripts", "-x", "-k", "beta or alpha")
    assert first.ret == 1
