"""A whole game of each of the five games through `gm play`, read top to bottom (#17): no line the
player reads disagrees with the engine.

Each game is played to its end with scripted words (the scripts of the per-game play tests), then
its output is read against the recording and the engine, turn by turn:

- the referee's narration is printed as said, and every claim in it (squares, downs, tiles, scores,
  first downs, touchdowns, turnovers, winners: the game's own ``narration_claims``) agrees with that
  turn's engine events and statuses;
- the status printed after an accepted move is the engine's status after that move (and the bots'
  replies), and the boards printed are the engine's;
- no count reads "1 moves", no line is printed twice in a row, a seat's next pick is never said to be
  locked in before its last one is revealed, the game-over line is printed once and the summary's
  moves and status are the engine's;
- the recording replays, call by call and narration by narration, on a fresh session.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_play_brawl import MONO
from test_play_brawl import script as brawl_script
from test_play_chess_football import script as cf_script
from test_play_cli import script as gf_script
from test_play_gridmaster4 import script as gm4_script
from test_play_quarterback import script as qb_script
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.narration import build_facts, check
from gm.session import Session
from gm.transcript import Transcript
from gm.transcript.replay import replay

PROMPT = re.compile(r"^([a-z]+)(?: \([a-z ]+\))?> (.*)$")
#: a count of one said with a plural noun ("1 downs left", "1 moves played")
ONE_PLURAL = re.compile(r"(?<![0-9.,:-])\b1 (downs|moves|points|yards|rows|tiles|turns|rounds|cards|players|columns|squares)\b")


def _rules(tmp: Path, game: str) -> list[str]:
    texts = {
        "gridmaster4": "columns = 7\nrows = 7\n",
        "quarterback": 'format = "game"\nmax_rounds = 4\n',
        "chess-football": "possessions_per_half = 1\nmax_turns_per_down = 2\n",
        "brawl": "rounds = 3\n" + "".join(
            f'[positions.{pos}]\ndeck = [{", ".join([chr(34) + code + chr(34)] * 4)}]\n' for pos, code in MONO.items()
        ),
    }
    if game not in texts:
        return []
    path = tmp / f"{game}.toml"
    path.write_text(texts[game])
    return ["--rules", str(path)]


GAMES: dict[str, tuple[list[str], str]] = {
    "grid-football": (["--seed", "1"], gf_script()),
    "gridmaster4": (["--seed", "1"], gm4_script()),
    "quarterback": (["--seed", "7", "--seat", "blue"], qb_script()),
    "brawl": (["--seed", "3"], brawl_script()),
    "chess-football": (["--seed", "0"], cf_script()),
}


@dataclass
class Turn:
    """One line the player typed and everything the referee did with it."""

    seat: str
    text: str
    results: list[dict[str, Any]] = field(default_factory=list)
    narration: str = ""
    boards: list[str] = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return any(r.get("ok") and r.get("kind") == "action" for r in self.results)

    @property
    def status(self) -> str | None:
        """The engine's status after the turn's last move (and the bots' replies)."""
        done = [r for r in self.results if r.get("ok") and r.get("kind") == "action"]
        return str(done[-1]["status"]) if done else None


def _turns(tr: Transcript) -> list[Turn]:
    turns: list[Turn] = []
    for e in tr.entries:
        if e.type == "player":
            turns.append(Turn(e.seat, e.text))
        elif not turns:
            continue
        elif e.type == "tool_result":
            turns[-1].results.append(e.result)
        elif e.type == "narration":
            turns[-1].narration = e.text
        elif e.type == "board":
            turns[-1].boards.append(e.text)
    return turns


def _segments(output: str) -> tuple[list[str], list[tuple[str, str, list[str]]]]:
    """The lines before the first prompt, then (seat, typed text, lines printed after it) per prompt."""
    head: list[str] = []
    segs: list[tuple[str, str, list[str]]] = []
    for line in output.splitlines():
        m = PROMPT.match(line)
        if m:
            segs.append((m.group(1), m.group(2), []))
        elif segs:
            segs[-1][2].append(line)
        else:
            head.append(line)
    return head, segs


def _contains_block(lines: list[str], block: str) -> int:
    """Where the lines of ``block`` appear together in ``lines`` (-1: nowhere)."""
    want = block.splitlines()
    for i in range(len(lines) - len(want) + 1):
        if lines[i : i + len(want)] == want:
            return i
    return -1


def _locked_before_reveal(lines: list[str], turn: Turn) -> list[str]:
    """Lines saying a seat locked its next pick that come before the reveal of its last one."""
    locks = {
        str(ev.get("text")): str(ev.get("seat"))
        for r in turn.results for ev in r.get("events") or [] if ev.get("kind") == "locked" and ev.get("seat")
    }
    out = []
    for i, line in enumerate(lines):
        seat = locks.get(line)
        if seat and any(later.startswith(f"Reveal: {seat} chose") for later in lines[i + 1 :]):
            out.append(line)
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_a_whole_game_reads_true_top_to_bottom(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    args, words = GAMES[game]
    res = CliRunner().invoke(app, ["play", game, *args, *_rules(tmp_path, game)], input=words)
    assert res.exit_code == 0, res.output[-2000:]
    out = res.output
    assert "Traceback" not in out
    sid = re.search(r"Session (\S+)\.", out).group(1)  # type: ignore[union-attr]
    session = Session.open(sid)
    st, g = session.state, session.game
    assert st.is_terminal, f"{game}: the script did not finish the game"
    tr = Transcript.load(tmp_path / "transcripts" / f"{sid}.jsonl")
    assert replay(tr).ok  # the recording replays on a fresh session, results and narrations alike

    head, segs = _segments(out)
    turns = _turns(tr)
    assert [(s, t) for s, t, _ in segs] == [(t.seat, t.text) for t in turns]
    problems: list[str] = []
    claims = g.narration_claims()
    before = g.status(g.new_state(st.rules, st.seed), turns[0].seat)
    before = next((line for line in reversed(head) if line.startswith(before.split(" ")[0])), before)
    for n, ((seat, typed, lines), turn) in enumerate(zip(segs, turns, strict=True), 1):
        where = f"{game} line {n} ({seat}> {typed})"
        at = _contains_block(lines, turn.narration) if turn.narration else 0
        if at < 0:
            problems.append(f"{where}: the narration is not printed as the referee said it")
        for board in turn.boards:
            if _contains_block(lines, board) < 0:
                problems.append(f"{where}: a recorded board is not what was printed")
        if turn.accepted and turn.status is not None:
            if turn.status not in lines:
                problems.append(f"{where}: the engine's status {turn.status!r} is not printed after the move")
            elif lines.index(turn.status) < at:
                problems.append(f"{where}: the status is printed before the narration")
        after = turn.status or before
        facts = build_facts(
            results=turn.results, statuses=[before, after], views=[], rules_text="", seats=g.seats,
            over="game_over" in {str(ev.get("kind")) for r in turn.results for ev in r.get("events") or []},
            claims=claims,
        )
        if turn.results:  # (a line the referee could not read as a move makes no call: it gets help, not facts)
            problems += [f"{where}: {finding}" for finding in check(turn.narration, facts)]
        text_lines = [ln for ln in lines if ln.strip()]
        problems += [f"{where}: {m.group(0)!r}" for ln in text_lines for m in [ONE_PLURAL.search(ln)] if m]
        narration_lines = [ln for ln in turn.narration.splitlines() if ln.strip()]
        problems += [f"{where}: printed twice in a row: {a!r}" for a, b in itertools.pairwise(narration_lines) if a == b]
        problems += [f"{where}: {line!r} before the reveal of the pick before it" for line in _locked_before_reveal(lines, turn)]
        before = after
    assert not problems, "\n".join(problems[:20])

    # the end: said once, and the engine's
    assert out.count("Game over:") == 1 and f"Game over: {st.outcome}." in out
    assert f"{len(st.log)} moves played." in out
    summary = out[out.index("Game over:") :].splitlines()
    assert g.status(st, None) in summary
