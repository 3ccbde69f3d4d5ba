"""`gm play chess-football`: whole games through the terminal with scripted input, on a short ruleset
(one possession a team each half, two turns a down) - against the default bot (its captains and every
snap plan committed before the human chooses, revealed after) and hot seat (plans typed hidden)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session
from gm.transcript import Transcript
from gm.transcript.replay import replay

#: the ways people state their moves, cycled: whatever the game asks, a line that fits comes soon
#: (a lone move at the snap is a one-row plan; the rest is rejected with one line each)
CYCLE = (
    "deep threat and safety",
    "heads",
    "FA1 to C15",
    "QB pass to FA2",
    "done",
    "hold",
    "let's go for it",
    "FA3 to C14 and SF to H16",
    "I'm done",
    "we punt",
    "HV1 pushes HV3",
    "that's it",
)


def script(lines: int = 600) -> str:
    return "\n".join(CYCLE[i % len(CYCLE)] for i in range(lines)) + "\n"


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


@pytest.fixture
def short(tmp_path: Path) -> Path:
    rules = tmp_path / "short.toml"
    rules.write_text("possessions_per_half = 1\nmax_turns_per_down = 2\n")
    return rules


def _session_id(output: str) -> str:
    m = re.search(r"Session (\S+)\.", output)
    assert m, output[:500]
    return m.group(1)


def test_a_whole_game_against_the_default_bot(gm_home: Path, short: Path) -> None:
    res = CliRunner().invoke(app, ["play", "chess-football", "--seed", "0", "--rules", str(short)], input=script())
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Game over: away wins (more points)." in out and "Traceback" not in out
    session = Session.open(_session_id(out))
    assert session.state.is_terminal and session.players == {"home": "human", "away": "bot:default"}
    # every secret pick of the bot (captains, snap plans) is committed before the human chooses and revealed after
    digests = re.findall(r"away has locked in its choice\. Commitment: ([0-9a-f]{64})", out)
    reveals = re.findall(r"Reveal: away chose (.+?) \(nonce ([0-9a-f]+); verified\)", out)
    assert len(digests) > 10 and len(reveals) == len(digests)
    for digest, (choice, nonce) in zip(digests, reveals, strict=True):
        assert hashlib.sha256(f"{nonce}:{choice}".encode()).hexdigest() == digest
        committed = out.index(digest)
        prompt = out.index("home (", committed)
        assert choice not in out[committed:prompt]  # nothing of the bot's pick shows before the human chose
    # people's words: captains named in any order, a lone move at the snap as a one-row plan, 4th-down talk
    assert "captains: home Deep Threat (offense) / Safety (defense)" in out
    assert "the snap - home: plan: QB pass to FA2 |" in out
    assert "home goes for it on 4th down" in out and "home punts: away starts at its square 8" in out
    assert "one action at a time in a reaction turn: 'FA3 to C14 C', then 'SF to H16 C'" in out
    assert "Not allowed [CF-SNAP]: now is the time for: snap plan" in out  # 'heads' at the snap, one line
    assert "home (snap plan)> " in out and "home (turn)> " in out and "home (fourth down)> " in out
    tr = Transcript.load(gm_home / "transcripts" / f"{session.id}.jsonl")
    assert {"player", "tool_call", "tool_result", "narration", "board", "bot_move"} <= {e.type for e in tr.entries}
    accepted = [e for e in tr.entries if e.type == "tool_result" and e.result.get("ok") and e.result.get("kind") == "action"]
    assert len(accepted) == sum(1 for m in session.state.log if m.seat == "home")
    assert replay(tr).ok  # the recording replays at the tool and the referee level


def test_hot_seat_plans_are_typed_hidden(gm_home: Path, short: Path) -> None:
    res = CliRunner().invoke(app, ["play", "cf", "--seed", "4", "--opponent", "human", "--rules", str(short)], input=script())
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Game over:" in out and "Traceback" not in out
    session = Session.open(_session_id(out))
    assert session.players == {"home": "human", "away": "human"} and session.state.is_terminal
    hidden = re.findall(r"^(home|away) \((captains|snap plan)\)> (.*)$", out, flags=re.M)
    assert hidden and all(typed == "(hidden)" for _, _, typed in hidden)  # secret picks are typed hidden
    assert {seat for seat, _, _ in hidden} == {"home", "away"}
    assert "is locked in. Pass the keyboard." in out
    assert re.search(r"^(home|away) \(turn\)> done$", out, flags=re.M)  # reaction turns are typed in the open
    tr = Transcript.load(gm_home / "transcripts" / f"{session.id}.jsonl")
    assert replay(tr).ok


def test_table_talk_help_and_quit(gm_home: Path) -> None:
    lines = "help\nscore\nrules play action\ncaptains deep threat and safety\nfull board\nfly away\nquit\n"
    res = CliRunner().invoke(app, ["play", "chess-football", "--seed", "3"], input=lines)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "'plan: HV1 push HV3; FA1 to C15 NW; QB pass to FA1'" in out  # the game's own move examples
    assert "[CF-PLAY-ACTION] Play action:" in out
    assert "I couldn't read 'fly away' as a move" in out
    assert "end zone rows 1-4" in out  # the full board
    assert "Game paused (quit)" in out
