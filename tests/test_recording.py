"""Recording belongs to the session: a game played through any front end (``gm call``, the MCP
host, ``gm play``) is a transcript that ``gm replay`` accepts, with no front end doing anything for
it; a game with a hidden seed replays once its end has revealed the seed, and not before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from session_helpers import legal_call
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session, verify_seed
from gm.transcript.format import Transcript
from gm.transcript.replay import replay_path

runner = CliRunner()
#: a short Grid Football: first touchdown wins on a short field would still be long; a few downs suffice
SHORT = "downs_per_quarter = 3\n"


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path / "home"


def _transcript(home: Path, sid: str) -> Path:
    return home / "transcripts" / f"{sid}.jsonl"


def test_a_game_played_through_gm_call_is_a_transcript_that_replays(gm_home: Path, tmp_path: Path) -> None:
    rules = tmp_path / "short.toml"
    rules.write_text(SHORT)
    res = runner.invoke(app, ["new", "grid-football", "--rules", str(rules), "--player", "away=bot:random", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    sid, commitment = data["id"], data["seed_commitment"]
    assert data["seed"] is None and data["practice"] is False and len(commitment) == 64
    rng = random.Random(4)
    calls = 0
    while True:
        s = Session.open(sid, record=False)
        if s.state.is_terminal:
            break
        tool, args = legal_call(s, "home", rng)
        res = runner.invoke(app, ["call", sid, tool, json.dumps(args)])
        assert res.exit_code == 0, res.output
        calls += 1
    last = json.loads(res.stdout)
    assert last["outcome"] and verify_seed(last["seed"]) and last["seed"]["commitment"] == commitment
    path = _transcript(gm_home, sid)
    tr = Transcript.load(path)
    assert tr.header.seed is None and tr.header.seed_commitment == commitment  # hidden while it ran
    assert tr.seed == last["seed"]["seed"] and [e.type for e in tr.entries].count("tool_call") == calls
    result = replay_path(path)
    assert result.ok and result.calls == calls, result.report()


def test_a_hidden_seed_transcript_does_not_replay_before_the_end(gm_home: Path) -> None:
    s = Session.create("grid-football", players={"away": "bot:random"})
    s.call("get_status", {}, "home")
    result = replay_path(_transcript(gm_home, s.id))
    assert not result.ok and "still hidden" in (result.error or "")


def test_a_game_played_through_the_mcp_host_is_a_transcript_that_replays(gm_home: Path, tmp_path: Path) -> None:
    from gm.mcp_server.host import GameHost

    host = GameHost()
    r = host.call("new_game", {"game": "quarterback", "opponent": "random", "rules": {"max_rounds": 1}}).result
    assert r["ok"], r
    sid = r["session"]
    rng = random.Random(2)
    s = host.session
    assert s is not None
    while not s.state.is_terminal:
        tool, args = legal_call(s, host.seat or "", rng)
        assert host.call(tool, args).result["ok"]
    tr = Transcript.load(_transcript(gm_home, sid))
    assert tr.header.referee.kind == "mcp" and tr.seed is not None
    assert replay_path(_transcript(gm_home, sid)).ok


def test_gm_play_records_and_the_practice_seed_is_in_the_header(gm_home: Path) -> None:
    res = runner.invoke(app, ["play", "--seed", "5"], input="heads\nreceive\nquit\n")
    assert res.exit_code == 0, res.output
    assert "Practice game: the seed (5) is known" in res.output
    sid = res.output.split("Session ")[1].split(".")[0]
    tr = Transcript.load(_transcript(gm_home, sid))
    assert tr.header.seed == 5 and tr.header.referee.kind == "offline"
    assert {"player", "tool_call", "tool_result", "narration"} <= {e.type for e in tr.entries}
    assert replay_path(_transcript(gm_home, sid)).ok


def test_reading_the_transcript_back_parses_each_line_once(gm_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A recorder that holds nothing in memory reads its transcript back from the store; after each
    message it parses only the lines written since (a referee reads it after every message), and it
    reads the same transcript as a whole parse would, also after a line it had read was rewritten."""
    import gm.transcript.recorder as recorder

    parsed: list[int] = []
    real = recorder.parse_entries

    def counting(lines: list[str], *args: object, **kwargs: object) -> list[object]:
        parsed.append(len(lines))
        return real(lines, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(recorder, "parse_entries", counting)
    s = Session.create("quarterback", seed=3, players={"red": "human", "blue": "bot:random"}, record=True)
    rec = s.recorder
    assert rec is not None and not rec.keep
    rng = random.Random(3)
    s.call(*legal_call(s, "red", rng), "red")
    first = len([ln for ln in s.store.transcript_read(s.id) if ln.strip()])
    assert first > 1 and len(rec.transcript.entries) == first - 1 and parsed == []  # the first read parses it whole
    for _ in range(40):
        if s.state.is_terminal:
            break
        s.call(*legal_call(s, "red", rng), "red")
        lines = [ln for ln in s.store.transcript_read(s.id) if ln.strip()]
        assert rec.transcript == Transcript.from_jsonl("\n".join(lines))
    assert len(parsed) >= 20 and sum(parsed) == len(lines) - first  # each line once, never the whole again
    # a line already read changes (a store rewritten under the recorder): the whole transcript is read again
    original = s.store.transcript_read
    monkeypatch.setattr(s.store, "transcript_read", lambda sid: [*original(sid)[:-1], original(sid)[-2]])
    parsed.clear()
    again = rec.transcript
    assert sum(parsed) == 0 and again.entries[-1] == again.entries[-2]  # from_jsonl parsed it, not the cache
