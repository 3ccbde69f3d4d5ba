"""`gm play brawl`: whole games through the terminal with scripted input - against the default bot
(its placement committed, the hash shown before the human places, revealed after) and hot seat
(placements typed hidden, each side shown its own hand before it types)."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gm.cli.app import app
from gm.games.brawl import GAME
from gm.session import Session
from gm.transcript import Transcript
from gm.transcript.replay import replay

#: every position's deck holds one kind of card (a placement may leave the card out: BR-R-CARD)
MONO = {"QB": "F3", "RB": "S3", "WR": "A1-4", "SLOT": "F2", "TE": "A1-3", "OT": "A2",
        "MLB": "F3", "DT": "S3", "CB": "A1-4", "S": "F2", "OLB": "S2", "DE": "S3"}  # fmt: skip
#: the ways people state a placement and a 4th-down choice, cycled: whatever the game asks, one fits soon
#: (the offense's players move round the zones, so no zone holds one kind of card alone: no turnovers)
OFFENSE = (
    "QB F3 deep left, RB S3 to DM, WR 1 DR, WR2 in ML, SLOT F2 to the middle of the midfield, TE MR, "
    "OT1 scrimmage left, OT2 SM, OT3 SR, OT4 A2 backfield left, OT5 BR",
    "QB:F3@SM RB:S3@SL WR1:A1-4@DL WR2:A1-4@DM SLOT:F2@DR TE:A1-3@ML OT1:A2@MM OT2:A2@MR OT3@BL OT4@BR OT5@SR",
    "QB F3 SM, RB S3 SL, WR1 DL, WR2 DM, SLOT DR, TE ML, OT1 MM, OT2 MR, OT3 at the X, OT4 BR, OT5 SR",
    "F3 QB BL; WR1 SM; WR2 SR; SLOT SL; TE DL; OT1 DM; OT2 DR; OT3 ML; OT4 MM; OT5 MR; RB BR",
)
DEFENSE = "MLB plays F3 in DM; DT1 SM; DT2 SR; DE1 BL; DE2 BR; OLB1 MR; OLB2 ML; CB1 DL; CB2 DR; FS MM; SS SL"
CYCLE = (OFFENSE[0], DEFENSE, "kick a field goal", OFFENSE[1], OFFENSE[2], "let's go for it", DEFENSE, OFFENSE[3], "we punt")


def script(lines: int = 400) -> str:
    return "\n".join(CYCLE[i % len(CYCLE)] for i in range(lines)) + "\n"


@pytest.fixture(autouse=True)
def gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GM_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    return tmp_path


@pytest.fixture
def mono(tmp_path: Path) -> Path:
    rules = tmp_path / "mono.toml"
    decks = "".join(f'[positions.{pos}]\ndeck = [{", ".join([repr(code).replace(chr(39), chr(34))] * 4)}]\n' for pos, code in MONO.items())
    rules.write_text("rounds = 3\n" + decks)
    return rules


def _session_id(output: str) -> str:
    m = re.search(r"Session (\S+)\.", output)
    assert m, output[:500]
    return m.group(1)


def test_a_whole_game_against_the_default_bot(gm_home: Path, mono: Path) -> None:
    res = CliRunner().invoke(app, ["play", "brawl", "--seed", "3", "--rules", str(mono)], input=script())
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Game over:" in out and "Traceback" not in out
    session = Session.open(_session_id(out))
    assert session.state.is_terminal and session.players == {"home": "human", "away": "bot:default"}
    # the human sees its own hand, never the bot's
    assert "your hand (home offense): QB F3 F3 F3 | RB S3 S3 S3" in out and "your hand (away" not in out
    # every bot placement is committed (hash shown before the human's prompt) and revealed after it
    digests = re.findall(r"away has locked in its choice\. Commitment: ([0-9a-f]{64})", out)
    reveals = re.findall(r"Reveal: away chose (.+?) \(nonce ([0-9a-f]+); verified\)", out)
    assert digests and len(reveals) == len(digests)
    for digest, (choice, nonce) in zip(digests, reveals, strict=True):
        assert hashlib.sha256(f"{nonce}:{choice}".encode()).hexdigest() == digest
        committed = out.index(digest)
        prompt = out.index("home (placement)> ", committed)
        assert choice not in out[committed:prompt]  # nothing of the bot's pick shows before the human placed
    # the 4th-down choices and the rejections read naturally
    assert "home (fourth down)> " in out and "home goes for it" in out and " punts " in out
    assert "Not allowed [BR-R-ROSTER]" in out  # the defense's line typed while on offense
    assert "Not allowed [BR-X]: OT3: no cards are played on the X (BM)" in out
    tr = Transcript.load(gm_home / "transcripts" / f"{session.id}.jsonl")
    assert replay(tr).ok


def test_hot_seat_placements_are_typed_hidden_and_each_side_sees_its_own_hand(gm_home: Path, mono: Path) -> None:
    res = CliRunner().invoke(app, ["play", "brawl", "--seed", "5", "--opponent", "human", "--rules", str(mono)], input=script())
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Game over:" in out
    assert Session.open(_session_id(out)).players == {"home": "human", "away": "human"}
    prompts = list(re.finditer(r"^(home|away) \(placement\)> (.*)$", out, flags=re.M))
    assert prompts and all(m.group(2) == "(hidden)" for m in prompts)  # placements are typed hidden
    assert {m.group(1) for m in prompts} == {"home", "away"}
    for m in prompts:  # the last hand on the screen before a side types is its own
        hands = re.findall(r"your hand \((home|away) ", out[: m.start()])
        assert hands and hands[-1] == m.group(1), out[: m.start()][-600:]
    assert "is locked in. Pass the keyboard." in out


def test_the_first_series_with_the_default_decks(gm_home: Path) -> None:
    """Default rules: the placements name the cards of the hand the seed deals, in the players' words."""
    hand = GAME.new_state(None, 4).hands  # (seed 4: away has the ball first, so home defends)
    seat = "home"
    zones = ["deep left", "DM", "DR", "midfield left", "MM", "MR", "SL", "the line middle", "SR", "BL", "right backfield"]
    lines = []
    for k in range(3):
        entries = [f"{p} {cards[k].code} {zones[(i + k) % 11]}" for i, (p, cards) in enumerate(hand[seat].items())]
        lines.append(", ".join(entries))
    res = CliRunner().invoke(app, ["play", "brawl", "--seed", "4"], input="help\nboard\n" + "\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Type your move" in out and "Game paused (input ended)" in out
    assert f"your hand (home defense): MLB {' '.join(c.code for c in hand[seat]['MLB'])} |" in out
    assert [f"play {n} revealed" in out for n in (1, 2, 3)] == [True, True, True]
    assert "Not allowed" not in out and "couldn't read" not in out
