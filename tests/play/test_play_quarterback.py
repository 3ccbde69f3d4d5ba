"""`gm play quarterback`: whole matches through the terminal, with scripted input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.session import Session
from gm.transcript import Transcript
from gm.transcript.replay import replay

# Moves in people's words, cycled: for attacker and defender alike some are legal, some are
# not (each rejection is one line), and the turn-enders keep the match moving to its end.
CYCLE = [
    "move the quarterback to E-1",
    "T1 from A0 to A3",
    "pass to D0",
    "end",
    "move S2 to E1",
    "D1 to D2 via C1",
    "throw to E7",
    "I'm done",
    "move s1 d2",
    "triple 2 to H5",
    "the first double to C2",
    "that's it",
    "QB to E1",
    "end my turn",
]


def script(repeats: int = 120) -> str:
    return "\n".join(CYCLE * repeats) + "\n"


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


def _session_id(output: str) -> str:
    m = re.search(r"Session (\S+)\.", output)
    assert m, output[:500]
    return m.group(1)


@pytest.fixture
def short(tmp_path: Path) -> Path:
    """One game of two short halves: whole games in a fraction of a match's time."""
    rules = tmp_path / "short.toml"
    rules.write_text('format = "game"\nmax_rounds = 4\n')
    return rules


@pytest.mark.parametrize(("seed", "seat", "ruleset"), [(1, "red", "match"), (7, "blue", "short")])
def test_a_whole_match_against_the_bot(seed: int, seat: str, ruleset: str, gm_home: Path, short: Path) -> None:
    rules = ["--rules", str(short)] if ruleset == "short" else []
    res = CliRunner().invoke(app, ["play", "quarterback", "--seed", str(seed), "--seat", seat, *rules], input=script())
    assert res.exit_code == 0, res.output
    assert "Game over:" in res.output and "Traceback" not in res.output
    sid = _session_id(res.output)
    session = Session.open(sid)
    st = session.state
    assert st.is_terminal and st.outcome is not None
    assert st.outcome.rule == ("QB-MATCH" if ruleset == "match" else "QB-WIN")
    assert len(st.results) == (4 if ruleset == "match" else 2)  # two games of two halves, or one game
    other = "blue" if seat == "red" else "red"
    assert session.players == {seat: "human", other: "bot:default"}
    tr = Transcript.load(gm_home / "transcripts" / f"{sid}.jsonl")
    assert {"player", "tool_call", "tool_result", "narration", "board"} <= {e.type for e in tr.entries}
    accepted = [e for e in tr.entries if e.type == "tool_result" and e.result.get("ok") and e.result.get("kind") == "action"]
    assert len(accepted) == sum(1 for m in st.log if m.seat == seat)
    assert {e.result["tool"] for e in accepted} >= {"move_piece", "end_turn"}
    assert replay(tr).ok  # the recording replays at the tool and the referee level
    # the human both attacked and defended: prompts for both decisions
    assert f"{seat} (attacker turn)> " in res.output and f"{seat} (defender turn)> " in res.output


def test_two_people_at_one_keyboard(gm_home: Path, short: Path) -> None:
    res = CliRunner().invoke(app, ["play", "qb", "--seed", "4", "--opponent", "human", "--rules", str(short)], input=script())
    assert res.exit_code == 0, res.output
    assert "Game over:" in res.output
    session = Session.open(_session_id(res.output))
    assert session.players == {"red": "human", "blue": "human"}
    assert {m.seat for m in session.state.log} == {"red", "blue"}
    assert "(hidden)" not in res.output  # nothing in Quarter Back is secret


def test_help_table_talk_rejections_and_quit(gm_home: Path) -> None:
    lines = "help\nscore\nwhat can I do?\nfly away\nmove QB E0\nQB to E-1\nfull board\nquit\n"
    res = CliRunner().invoke(app, ["play", "quarterback", "--seed", "3"], input=lines)
    assert res.exit_code == 0, res.output
    out = res.output
    assert "'move T1 C3-C5'" in out and "Play 1, Red" not in out  # the game's own examples
    assert "I couldn't read 'fly away' as a move: name the piece first" in out
    assert "Not allowed [QB-OCCUPIED]: E0 is occupied by your S2" in out
    assert "red Quarterback QB moves E-2-E-1" in out
    assert "row points" in out  # the full board
    assert "Game paused (quit)" in out


@pytest.mark.parametrize(
    ("seed", "seat", "said"),
    [
        (1, "red", ["red won the coin toss and attacks first"]),
        # blue won: the bot attacks at once, after the toss is said
        (0, "red", ["blue won the coin toss and attacks first", "blue Quarterback QB moves E-2-F-1-G-1-H-2",
                    "blue ends the turn"]),
    ],
)  # fmt: skip
def test_the_toss_is_said_as_the_match_opens(seed: int, seat: str, said: list[str], gm_home: Path) -> None:
    """Issue #17: who won the coin toss is known from the start, not after the first move."""
    res = CliRunner().invoke(app, ["play", "quarterback", "--seed", str(seed), "--seat", seat], input="quit\n")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[1].startswith(f"Practice game: the seed ({seed}) is known")
    assert lines[2] == "Type 'help' for commands, 'quit' to stop (the game is saved)."
    assert lines[3 : 3 + len(said)] == said
    assert lines[3 + len(said)].startswith("Quarter Back - game 1 of 2, half 1 of 2, round 1 of 15")
    assert res.output.count("coin toss") == 1
