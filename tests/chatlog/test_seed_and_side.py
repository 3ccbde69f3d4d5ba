"""Seed and side from the chat itself: the toss, the first side and the cards a chatbot's log states decide
the seed it replays with; a blank session template's token never overrides the chat; when no seed fits,
the audit says so in one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from chat_helpers import edit, moves, played
from gf_logs import CLEAN as GF_CLEAN
from layouts import exchanges, line
from qb_logs import CLEAN as QB_CLEAN
from qb_logs import RED_FIRST
from typer.testing import CliRunner

from gm.chatlog.audit import SEEDS, audit
from gm.cli.app import app
from gm.core.chance import MT19937
from gm.core.registry import find_game

runner = CliRunner()
GF, QB, BR, CF = (find_game(g) for g in ("grid-football", "quarterback", "brawl", "chess-football"))


def test_the_first_line_says_who_moves_first() -> None:
    text = RED_FIRST.replace(" | red won the toss", "")
    a = audit(QB, text)
    assert (a.seed, a.illegal, a.divergences, a.seed_note) == (1, None, [], "")
    assert a.state.snapshot()["first_attacker"] == "red"


def test_the_toss_the_chat_states_decides_even_against_gms_first_guess() -> None:
    a = audit(QB, RED_FIRST)
    assert (a.seed, a.illegal, a.divergences) == (1, None, [])
    wrong = audit(QB, RED_FIRST.replace("T1 red:", "T1 blue:").replace("| red QB H-2 |", "| blue QB H-2 |"))
    assert wrong.seed == 1 and wrong.illegal is not None and (wrong.illegal.line, wrong.illegal.rule) == (3, "QB-TOSS")


def test_the_side_that_chooses_to_kick_is_the_side_that_won_the_toss() -> None:
    """No coin stated: who makes the kick choice is the toss's winner, and decides the seed."""
    text = "Toss away: heads\nChoice away: receive\nKickoff home: left red | away: right green\n"
    a = audit(GF, text)
    assert a.illegal is None and a.state.toss_winner == "away"  # type: ignore[attr-defined]
    assert audit(GF, text.replace("Choice away:", "Choice home:")).state.toss_winner == "home"  # type: ignore[attr-defined]


def test_when_no_seed_gives_the_chats_toss_the_audit_says_so_in_one_line() -> None:
    """The chat contradicts itself: away calls heads, the coin shows heads, and home wins.  The coin it states is
    used; the winner it claims is the chatbot's mistake (GF-TOSS), and home's kick choice then comes out of turn."""
    text = edit(GF_CLEAN, ("coin tails, home wins the toss", "coin heads, home wins the toss"))
    a = audit(GF, text)
    assert a.seed_note == (
        f"No seed of the {SEEDS} tried gives every outcome of chance the chat states (line 3: toss home); the chat's own "
        "outcomes are used where seed 1's differ."
    )
    assert [ln for ln in a.text().splitlines() if not ln.startswith("Honour")] == [
        "Audit of a Turn-Based Grid Football game from a chatbot: 10 move lines read, 1 replayed (seed 1).",
        a.seed_note,
        "line 3 Toss (away: heads): toss: the chatbot says home, the rules give away [GF-TOSS]",
        "line 4 Choice: illegal move home: kick: home has nothing to do now; waiting for away [CORE-TURN]",
        "  legal instead: away: kick; away: receive",
        "  the true game stops before this line; 8 later move lines were not replayed",
        "Result: 1 divergence, 1 illegal move. The engine's game: Q1 | 15 downs left | kick choice | home 0 - 0 away | to act: away",
    ]
    assert a.to_json()["seed_note"] == a.seed_note
    seeded = audit(GF, text, outcomes="seed")
    assert seeded.seed_note.endswith("; replayed with seed 1.")


def test_the_cards_a_gm_game_played_decide_its_seed() -> None:
    """brawl's deal comes from the seed: a log of a game gm dealt with seed 6 (away has the ball first) replays
    only with that seed, and the search finds it."""
    xs, state = exchanges(BR, played(BR, 6, "random", 1, 16))
    assert state.offense == "away" or "away has the ball first" in line(xs[0])  # type: ignore[attr-defined]
    a = audit(BR, "## Move log\n" + "\n".join(line(x) for x in xs), chance=MT19937)  # (the generator it was played with)
    assert (a.seed, a.illegal, a.divergences, a.seed_note) == (6, None, [], "")
    assert moves(a.state) == moves(state)


def test_chess_football_s_coin_decides_the_seed() -> None:
    xs, state = exchanges(CF, played(CF, 3, "default", 0, 9))
    text = "\n".join(line(x) for x in xs)
    assert "coin" in text
    a = audit(CF, text, chance=MT19937)
    assert a.seed_note == "" and a.illegal is None and not [d for d in a.divergences if d.key in ("coin", "toss")]
    assert a.state.toss_winner == state.toss_winner  # type: ignore[attr-defined]


# ------------------------------------------------------------------ a session template's token
def _cli(*args: str, input: str | bytes | None = None, code: int = 0) -> str:
    res = runner.invoke(app, list(args), input=input)
    assert res.exit_code == code, (res.output, res.stderr)
    return res.stdout if code == 0 else res.stderr


def _with_token(log: str, doc: str) -> str:
    """A chat keeping ``log`` under the token part of the session document ``doc`` (its status tables left out)."""
    return log + "\n" + doc[doc.index("## Continue in gm") :]


def _blank_template(game_id: str) -> str:
    """The session document gm exports for a new game: a token with the seed of a game with no moves."""
    out = runner.invoke(app, ["export", "session", "--game", game_id])
    assert out.exit_code == 0 and re.search(rf"\bgm[12]\.{game_id}\.", out.stdout)
    return out.stdout


def test_a_blank_templates_token_does_not_choose_the_seed(tmp_path: Path) -> None:
    """The template's token carries seed 0 (blue attacks first); the chat's coin fell the other way."""
    chat = _with_token(RED_FIRST, _blank_template("quarterback"))
    out = _cli("import", "-", "--gm-home", str(tmp_path), "--id", "q", input=chat)
    assert out.splitlines()[0] == "Audit of a Quarter Back game from a chatbot: 5 move lines read, 5 replayed (seed 1)."
    assert "Result: the chatbot kept the game exactly." in out
    from gm.session import Session

    s = Session.open("q", home=tmp_path)
    assert s.practice and s.state.seed == 1 and s.state.snapshot()["first_attacker"] == "red"


def test_a_blank_templates_token_whose_seed_agrees_keeps_its_seed(tmp_path: Path) -> None:
    chat = _with_token(QB_CLEAN, _blank_template("quarterback"))
    out = _cli("import", "-", "--gm-home", str(tmp_path), "--id", "q", input=chat)
    assert "5 replayed (seed 0)." in out.splitlines()[0]


def test_a_hidden_seed_template_keeps_its_secret_only_when_the_chat_agrees(tmp_path: Path) -> None:
    from gm.session import Session

    hidden = Session.create("quarterback", players={"red": "human", "blue": "human"}, home=tmp_path, id="blank")
    doc = tmp_path / "blank.md"
    _cli("export", "session", "--session", "blank", "--gm-home", str(tmp_path), "-o", str(doc))
    first = hidden.state.snapshot()["first_attacker"]
    text = doc.read_text(encoding="utf-8")
    log = QB_CLEAN if first == "blue" else RED_FIRST
    other = RED_FIRST if first == "blue" else QB_CLEAN
    assert "gm2.quarterback." in text
    _cli("import", "-", "--gm-home", str(tmp_path), "--id", "same", input=_with_token(log, text))
    same = Session.open("same", home=tmp_path)  # a copy of a running game: a fresh hidden seed, the toss kept
    assert not same.practice and same.state.seed != hidden.state.seed and same.state.snapshot()["first_attacker"] == first
    _cli("import", "-", "--gm-home", str(tmp_path), "--id", "other", input=_with_token(other, text))
    again = Session.open("other", home=tmp_path)
    assert again.practice and again.state.snapshot()["first_attacker"] != first


def test_a_token_of_a_game_with_moves_keeps_its_seed(tmp_path: Path) -> None:
    state = played(QB, 5, "default", 0, 9)
    src = tmp_path / "state.json"
    src.write_text(json.dumps(state.to_json()), encoding="utf-8")
    doc = tmp_path / "session.md"
    _cli("export", "session", "--session", str(src), "-o", str(doc))
    out = _cli("import", str(doc), "--gm-home", str(tmp_path), "--id", "m")
    assert "(seed 5)." in out.splitlines()[0] and "Result: the chatbot kept the game exactly." in out


# ------------------------------------------------------------------ encodings on the command line
def test_gm_import_reads_a_utf16_file_and_stdin_bytes(tmp_path: Path) -> None:
    chat = tmp_path / "chat.txt"
    chat.write_bytes(GF_CLEAN.replace("\n", "\r\n").encode("utf-16"))
    out = _cli("import", str(chat), "--gm-home", str(tmp_path), "--id", "u16")
    assert "Result: the chatbot kept the game exactly." in out
    out = _cli("import", "-", "--gm-home", str(tmp_path), "--id", "l1", input=(GF_CLEAN + "caf\u00e9\n").encode("latin-1"))
    assert "Result: the chatbot kept the game exactly." in out


def test_gm_import_of_a_binary_file_is_one_line_and_saves_nothing(tmp_path: Path) -> None:
    blob = tmp_path / "chat.md"
    blob.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01")
    err = _cli("import", str(blob), "--gm-home", str(tmp_path), code=2)
    assert err == (
        f"gm: error: [CORE-IMPORT] {blob} is not text gm can read (byte 8 is a NUL byte (a binary file, or UTF-16 without its "
        "byte-order mark)); save it as UTF-8, UTF-16 or Latin-1 text\n"
    )
    assert not (tmp_path / "sessions").exists()
