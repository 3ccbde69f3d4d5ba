"""Grid Football games played in a chatbot come back into gm: the move log is read however the
chatbot wrote it, replayed by the engine, and every mistake is listed with its rule id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chat_helpers import edit as edit_text
from gf_logs import CHAT, CLEAN, TABLE
from typer.testing import CliRunner

from gm.chatlog.audit import audit
from gm.cli.app import app
from gm.core.chance import MT19937
from gm.core.chatlog import example_lines, exchanges
from gm.core.registry import find_game
from gm.core.token import encode_state, settled
from gm.export import render_doc

GAME = find_game("grid-football")
runner = CliRunner()

#: the moves of the game every log below describes
TRUE_MOVES = [
    "away: heads", "home: kick", "home: left red", "away: right green", "home: number 2", "away: number 3",
    "home: play 2 red", "away: play 1 black 3 left before", "home: play 1 black", "away: play 3 red 2 right before",
    "home: play 3 black", "away: play 3 red", "home: play 3 black", "away: play 3 red 2 right after",
    "home: play 3 black 3 left after", "away: play 3 red", "home: play 1 black 2 left before", "away: play 1 red",
    "home: play 1 black 1 left after", "away: play 3 red",
]  # fmt: skip
HEAD = "Audit of a Turn-Based Grid Football game from a chatbot: {n} move lines read, {r} replayed (seed 0)."
HONOUR = (
    "Honour system: play calls, kick and punt picks and number picks are secret and simultaneous; in a chatbot they "
    "are on the honour system (the chatbot sees both, and whoever answers second may have read the first). `gm play` "
    "fixes that: a bot's pick is locked first (you see its SHA-256 commitment before you choose, the reveal after) and "
    "a second player at the keyboard types hidden; `gm serve` lets two people on two computers pick in secret, each from their own link, and `gm mcp` keeps every pick inside the engine, out of the chat."
)
END_STATUS = "Q1 | 8 downs left | home ball, 4th & 10 at A38, attacking ^ row 59 | home 0 - 0 away | to act: home, away"


def _moves(text: str) -> list[str]:
    return [f"{m.seat}: {m.action}" for m in audit(GAME, text).state.log]


def _edit(*pairs: tuple[str, str]) -> str:
    text = CLEAN
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return text


def test_the_engine_writes_the_clean_log_line_for_line() -> None:
    state = GAME.new_state(None, 0)
    for move in TRUE_MOVES:
        seat, _, act = move.partition(": ")
        state.apply(seat, act)
    assert exchanges(GAME, state) == CLEAN.splitlines()[2:]


def test_a_clean_log_replays_without_a_finding() -> None:
    a = audit(GAME, CLEAN)
    assert a.text() == "\n".join(
        [HEAD.format(n=10, r=10), HONOUR, f"Result: the chatbot kept the game exactly. The engine's game: {END_STATUS}"]
    )
    assert _moves(CLEAN) == TRUE_MOVES
    assert a.seed == 0 and not a.divergences and a.illegal is None


def test_a_markdown_table_with_bold_curly_quotes_and_upper_case_reads_the_same() -> None:
    a = audit(GAME, TABLE)
    assert [f"{m.seat}: {m.action}" for m in a.state.log] == TRUE_MOVES[:10]
    assert a.lines == 5 and a.replayed == 5 and not a.divergences and not a.unread


def test_a_whole_chat_uses_the_last_move_log_and_skips_the_chatter() -> None:
    a = audit(GAME, CHAT)
    assert [f"{m.seat}: {m.action}" for m in a.state.log] == TRUE_MOVES[:8]
    assert (a.lines, a.replayed, a.divergences, a.illegal) == (4, 4, [], None)


def test_the_seed_is_chosen_to_agree_with_the_chatbots_coin() -> None:
    heads = CLEAN.replace("coin tails", "coin heads").replace("home wins the toss", "away wins the toss")
    a = audit(GAME, heads.replace("Choice home: kick", "Choice away: kick"))
    assert a.seed == 1 and a.state.toss_winner == "away"  # type: ignore[attr-defined]
    assert not [d for d in a.divergences if d.key in ("coin", "toss")]


def test_a_run_that_enters_a_blocked_square_is_reported() -> None:
    text = _edit(("| ball D38, home 2nd & 10 | blocked D38", "| ball D37, home 2nd & 11 | blocked D37"))
    line = "line 10 D5 (home: play 3 black 3 left after | away: play 3 red)"
    assert audit(GAME, text).text().splitlines()[1:3] == [
        f"{line}: ball: the chatbot says D37, the rules give D38 [GF-BLOCK]",
        f"{line}: down: the chatbot says 2nd & 11, the rules give 2nd & 10 [GF-DOWNS]",
    ]


def test_a_wrong_down_after_a_gain_is_reported() -> None:
    a = audit(GAME, _edit(("ball D36, away 3rd & 1", "ball D36, away 1st & 10")))
    assert a.text().splitlines()[1] == (
        "line 7 D2 (home: play 1 black | away: play 3 red 2 right before): down: the chatbot says 1st & 10, the rules give "
        "3rd & 1 [GF-DOWNS]"
    )
    assert len(a.divergences) == 1 and a.state.log == audit(GAME, CLEAN).state.log


def test_play_4_in_quarter_1_stops_the_replay_with_the_legal_calls() -> None:
    a = audit(GAME, _edit(("D3 home: play 3 black | away: play 3 red |", "D3 home: play 3 black | away: play 4 red |")))
    assert a.text() == "\n".join([
        HEAD.format(n=10, r=5),
        "line 8 D3: illegal move away: play 4 red: play 4 is locked until quarter 2 [GF-PLAY4-LOCK]",
        "  legal instead: play 1 red|black; play 2 red|black; play 3 red|black; lateral N left|right before|after "
        "(play 1 up to 3, play 2 up to 0, play 3 up to 3)",
        "  the true game stops before this line; 4 later move lines were not replayed",
        HONOUR,
        "Result: 0 divergences, 1 illegal move. The engine's game: Q1 | 13 downs left | away ball, 3rd & 1 at D36, "
        "attacking v row 5 | home 0 - 0 away | to act: home, away",
    ])  # fmt: skip
    assert [f"{m.seat}: {m.action}" for m in a.state.log] == TRUE_MOVES[:10]  # home's call of that down is dropped too


def test_a_score_never_earned_is_reported() -> None:
    text = _edit(("| ball B39, away 2nd & 4 | blocked B39 | Q1, 14 downs left | score home 0-0 away",
                  "| touchdown away | ball B39, away 2nd & 4 | blocked B39 | Q1, 14 downs left | score home 0-1 away"))  # fmt: skip
    line = "line 6 D1 (home: play 2 red | away: play 1 black 3 left before)"
    assert audit(GAME, text).text().splitlines()[1:3] == [
        f"{line}: touchdown: the chatbot says away, the rules give none [GF-TD]",
        f"{line}: score: the chatbot says home 0-1 away, the rules give home 0-0 away [GF-TD]",
    ]


def test_a_position_that_drifts_is_reported_on_every_line() -> None:
    text = _edit(
        ("ball D36, away 3rd & 1 | blocked D36", "ball D35, away 2nd & 1 | blocked D35"),
        ("ball D37, away 4th & 2 | blocked D37", "ball D36, away 3rd & 2 | blocked D36"),
        ("ball D38, home 1st & 10 | blocked D38 | Q1, 11", "ball D37, away 4th & 3 | blocked D37 | Q1, 11"),
    )
    found = [(d.line, d.key, d.said, d.rules, d.rule) for d in audit(GAME, text).divergences]
    assert found == [
        (7, "ball", "D35", "D36", "GF-MATCH-NONE"),
        (7, "down", "2nd & 1", "3rd & 1", "GF-DOWNS"),
        (7, "blocked D35", "blocked", "not blocked", "GF-BLOCK"),
        (8, "ball", "D36", "D37", "GF-MATCH-PLAY"),
        (8, "down", "3rd & 2", "4th & 2", "GF-DOWNS"),
        (9, "ball", "D37", "D38", "GF-MATCH-PLAY"),
        (9, "offense", "away", "home", "GF-R-DOWNS-FAIL"),
        (9, "down", "4th & 3", "1st & 10", "GF-R-DOWNS-FAIL"),
    ]


def test_a_move_that_does_not_read_is_reported_with_the_syntax_rule() -> None:
    a = audit(GAME, _edit(("D2 home: play 1 black |", "D2 home: play one blak |")))
    assert a.illegal is not None and (a.illegal.line, a.illegal.rule, a.illegal.move) == (7, "GF-SYNTAX", "home: play one blak")
    assert a.illegal.legal[0] == "play 1 red|black"


def test_an_unfinished_exchange_at_the_end_is_left_out() -> None:
    a = audit(GAME, CLEAN + "D8 home: play 3 red 2 left after\n")
    assert a.left_out == ["home: play 3 red 2 left after"] and a.state.log == audit(GAME, CLEAN).state.log
    assert "left out (an exchange not finished): home: play 3 red 2 left after; these picks are made again" in a.text()


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_a_game_played_in_gm_comes_back_from_its_session_document(seed: int) -> None:
    state = GAME.new_state(None, 0)
    bots = {s: GAME.make_bot("default", seed=seed + i) for i, s in enumerate(GAME.seats)}
    while state.to_act() and len(state.log) < 40 + seed * 7:
        seat = state.to_act()[-1]
        state.apply(seat, bots[seat].choose(state, seat))
    a = audit(GAME, render_doc(GAME, "session", None, state))
    public = settled(state)[0]
    assert not a.divergences and a.illegal is None and a.unread == []
    assert a.state.snapshot() == public.snapshot()
    assert [str(m.action) for m in a.state.log] == [str(m.action) for m in public.log]


def test_the_documents_explain_the_log_with_lines_the_engine_computed() -> None:
    quick = render_doc(GAME, "quickstart")
    session = render_doc(GAME, "session")
    for doc in (quick, session):
        assert "## Move log" in doc and all(line in doc for line in example_lines(GAME))
    assert example_lines(GAME)[3] == (
        "D1 home: play 1 red 2 right before | away: play 3 black | ball G20, home 2nd & 4 | blocked G20 | Q1, 14 downs left "
        "| score home 0-0 away"
    )
    # the examples in the documents are not read back as the game's moves
    assert audit(GAME, session + "\n## Move log\n" + CLEAN).state.log == audit(GAME, CLEAN).state.log


# ------------------------------------------------------------------ the command line
def _cli(*args: str, input: str | None = None, code: int = 0) -> str:
    res = runner.invoke(app, list(args), input=input)
    assert res.exit_code == code, (res.output, res.stderr)
    return res.stdout if code == 0 else res.stderr


def test_gm_import_audits_a_file_saves_the_true_game_and_writes_the_corrected_document(tmp_path: Path) -> None:
    from gm.session import Session

    log = tmp_path / "chat.md"
    log.write_text(_edit(("ball D36, away 3rd & 1", "ball D36, away 1st & 10")), encoding="utf-8")
    doc = tmp_path / "fixed.md"
    out = _cli("import", str(log), "--gm-home", str(tmp_path), "--id", "chat", "--export", str(doc))
    assert out.splitlines()[-3:] == [
        "saved the engine's game as grid-football session chat (20 moves; home human, away human)",
        "continue with: gm play --resume chat (hot seat; to play against a bot, import with --player away=bot:default)",
        f"wrote the corrected session document to {doc}",
    ]
    assert "the chatbot says 1st & 10, the rules give 3rd & 1 [GF-DOWNS]" in out
    s = Session.open("chat", home=tmp_path)
    assert [f"{m.seat}: {m.action}" for m in s.state.log] == TRUE_MOVES
    fixed = doc.read_text(encoding="utf-8")
    assert "D2 home: play 1 black | away: play 3 red 2 right before | ball D36, away 3rd & 1" in fixed
    assert audit(GAME, fixed).divergences == []


def test_gm_import_json_reads_stdin(tmp_path: Path) -> None:
    out = _cli("import", "-", "--json", "--gm-home", str(tmp_path), "--id", "j", input=_edit(("ball B39,", "ball B40,")))
    data = json.loads(out)
    assert data["divergences"] == [{
        "line": 6, "label": "D1", "moves": "home: play 2 red | away: play 1 black 3 left before", "what": "ball",
        "chatbot": "B40", "rules": "B39", "rule": "GF-MATCH-NONE", "roll": False,
    }]  # fmt: skip
    assert (data["session"], data["game"], data["illegal"], data["moves"]) == ("j", "grid-football", None, 20)
    assert data["honour_system"].startswith("play calls, kick and punt picks")


def test_gm_import_still_reads_a_token_and_a_token_inside_a_document(tmp_path: Path) -> None:
    state = GAME.new_state(None, 4, MT19937)  # (under mt19937, seed 4's coin makes home the toss winner)
    state.run([("away", "tails"), ("home", "kick")])
    token = encode_state(state)
    assert "imported grid-football session t1 (2 moves" in _cli("import", token, "--gm-home", str(tmp_path), "--id", "t1")
    doc = f"Here is my game, no log kept.\n\n```\n{token}\n```\n"
    assert "imported grid-football session t2 (2 moves" in _cli("import", "-", "--gm-home", str(tmp_path), "--id", "t2", input=doc)


def test_gm_import_of_text_without_a_log_or_token_is_one_error_line(tmp_path: Path) -> None:
    err = _cli("import", "-", "--gm-home", str(tmp_path), input="we talked about football all day\n", code=2)
    assert err.strip() == (
        "gm: error: [CORE-IMPORT] no move log found: neither a gm token nor move lines of any game's chatbot log"
    )
    assert not (tmp_path / "sessions").exists()


def test_renumbered_labels_and_a_pipe_after_the_label_read_the_same() -> None:
    text = CLEAN.replace("D1 home:", "D1 | home:").replace("D2 ", "D7 ").replace("D3 ", "D7 ").replace("Kickoff ", "3. ")
    a = audit(GAME, text)
    assert _moves(text) == TRUE_MOVES and a.divergences == [] and a.lines == 10


def test_a_whole_chat_with_the_quick_start_pasted_in_skips_its_example_lines() -> None:
    chat = "User: here are the rules\n\n" + render_doc(GAME, "quickstart") + "\nAssistant: let's play!\n\n" + CLEAN.split("\n", 2)[2]
    a = audit(GAME, chat)
    assert _moves(chat) == TRUE_MOVES and a.lines == 10 and a.divergences == []


@pytest.mark.parametrize(
    ("line", "moves_read", "claims"),
    [
        (  # the issue's own example
            "D7 home: Play 1 Red 2 right before | away: Play 3 Black | ball M26, 2nd & 4",
            [("home", "play 1 red 2 right before"), ("away", "play 3 black")],
            [("ball", "M26"), ("down", "2nd & 4")],
        ),
        (
            "D9 away: punt, left red | home: center yellow | ball E40, home 1st & 10 | score: home 7, away 0 | TD home",
            [("away", "punt"), ("away", "left red"), ("home", "center yellow")],
            [("touchdown", "home"), ("ball", "E40"), ("offense", "home"), ("down", "1st & 10"), ("score", "home 7-0 away")],
        ),
        (
            "Q2 | home: 1 red 2R before (a pass) | away: p3 black | ball is at K20 - K20 is now blocked | score 0-7 | away wins",
            [("home", "1 red 2r before"), ("away", "p3 black")],
            [("ball", "K20"), ("blocked K20", "blocked"), ("quarter", "2"), ("score", "home 0-7 away"), ("result", "away wins")],
        ),
    ],
)
def test_a_line_reads_into_moves_and_claims(line: str, moves_read: list[tuple[str, str]], claims: list[tuple[str, str]]) -> None:
    from gm.chatlog.text import clean

    chatlog = GAME.chatlog()
    assert chatlog is not None
    parsed = chatlog.parse_line(clean(line))
    assert parsed is not None
    assert list(parsed.moves) == moves_read
    assert [(c.key, c.said) for c in parsed.claims] == claims


def test_commentary_that_names_a_seat_is_not_a_move() -> None:
    from gm.chatlog.text import clean

    chatlog = GAME.chatlog()
    assert chatlog is not None
    assert chatlog.parse_line(clean("Great call! home: you picked the long pass again")) is None


def test_the_status_table_and_blocked_list_of_a_session_document_are_checked_too() -> None:
    state = GAME.new_state(None, 0)
    for move in TRUE_MOVES:
        seat, _, act = move.partition(": ")
        state.apply(seat, act)
    doc = render_doc(GAME, "session", None, state)
    assert audit(GAME, doc).divergences == []
    wrong = edit_text(doc, ("| Ball | A38 |", "| Ball | A37 |"), ("| Down and distance | 4th & 10 |", "| Down and distance | 3rd & 10 |"),
                 ("6 blocked: A38, B38", "5 blocked: B38"), ("| Score | home 0 - 0 away |", "| Score | home 7 - 0 away |"))  # fmt: skip
    found = [(d.label, d.key, d.said, d.rules, d.rule) for d in audit(GAME, wrong).divergences]
    assert found == [
        ("status", "score", "home 7-0 away", "home 0-0 away", "GF-TD"),
        ("status", "down", "3rd & 10", "4th & 10", "GF-DOWNS"),
        ("status", "ball", "A37", "A38", "GF-DIRECTION"),
        ("status", "blocked list", "B38 B39 D36 D37 D38", "A38 B38 B39 D36 D37 D38", "GF-BLOCK"),
    ]


def test_gm_import_of_a_missing_file_says_so(tmp_path: Path) -> None:
    err = _cli("import", str(tmp_path / "chat.md"), "--gm-home", str(tmp_path), code=2)
    assert err.strip() == f"gm: error: no such file: {tmp_path / 'chat.md'}"
