"""Reading a log the way chatbots write it: table layouts (a ``#`` column with the whole line in a cell,
escaped pipes, a column per seat with empty cells written every way, a side column), line prefixes, a log
restated, rewritten or begun again, and text in any encoding."""

from __future__ import annotations

import codecs

import pytest
from gf_logs import CLEAN as GF_CLEAN
from qb_logs import CLEAN as QB_CLEAN

from gm.chatlog.audit import audit, read_log
from gm.chatlog.text import blank, clean, clean_lines, decode, score_claim, split_cells
from gm.core.errors import StateError
from gm.core.registry import find_game

GF = find_game("grid-football")
QB = find_game("quarterback")
GF_LINES = GF_CLEAN.splitlines()[2:]


def _texts(text: str, seats: tuple[str, ...] = ("home", "away")) -> list[tuple[int, str]]:
    return [(ln.number, ln.text) for ln in clean_lines(text, seats)]


# ------------------------------------------------------------------ tables
def test_a_hash_column_and_the_whole_line_in_one_cell_with_escaped_pipes() -> None:
    text = "| # | Line |\n|---|---|\n| 1 | Toss away: heads \\| coin tails, home wins the toss |\n| 2 | Choice home: kick |\n"
    assert _texts(text) == [(3, "1 | toss away: heads | coin tails, home wins the toss"), (4, "2 | choice home: kick")]
    moves = [p.moves for _, p in read_log(GF, text).lines]
    assert moves == [(("away", "heads"),), (("home", "kick"),)]
    assert [p.label for _, p in read_log(GF, text).lines] == ["toss", "choice"]


def test_split_cells_reads_escaped_pipes_and_optional_outer_pipes() -> None:
    assert split_cells("| a \\| b | c |") == [" a | b ", " c "]
    assert split_cells("a | b") == ["a ", " b"]


@pytest.mark.parametrize("empty", ["", " ", "-", "\u2014", "\u2013", "n/a", "N/A", "none", "\u2026", "**-**"])
def test_an_empty_cell_of_a_seat_column_is_no_move(empty: str) -> None:
    text = f"| Turn | Home | Away | After |\n| --- | --- | --- | --- |\n| 1 | {empty} | heads | coin tails, home wins the toss |\n"
    assert blank(empty)
    [(ln, p)] = read_log(GF, text).lines
    assert p.moves == (("away", "heads"),) and ln.text == "1 | away: heads | coin tails, home wins the toss"


def test_a_seat_column_header_may_say_more_than_the_seat() -> None:
    text = "| # | Home (you) | Away's call | Result |\n|:-:|:--|:--|:--|\n| 1 | - | Heads | coin tails - home wins the toss |\n"
    assert _texts(text) == [(3, "1 | away: heads | coin tails - home wins the toss")]


def test_a_side_column_beside_a_move_column() -> None:
    text = "| T | Side | Move | Ball | Score |\n|---|---|---|---|---|\n| T1 | **Blue** | move QB E-2-F-1-G-1-H-2, end | H-2 | red 0 - 0 blue |\n"
    assert _texts(text, ("red", "blue")) == [(3, "t1 | blue: move qb e-2-f-1-g-1-h-2, end | ball h-2 | score red 0 - 0 blue")]
    [(_, p)] = read_log(QB, text).lines
    assert p.moves == (("blue", "move qb e-2-f-1-g-1-h-2"), ("blue", "end"))
    assert [(c.key, c.said) for c in p.claims] == [("ball", "H-2"), ("score", "red 0-0 blue")]


def test_a_status_table_is_read_as_it_is() -> None:
    text = "| Item | Value |\n| --- | --- |\n| Ball | K20 |\n| Score | home 0 - 0 away |\n"
    assert _texts(text) == [(3, "ball | k20"), (4, "score | home 0 - 0 away")]


def test_a_table_whose_row_does_not_line_up_is_read_cell_after_cell() -> None:
    text = "| # | Move |\n|---|---|\n| 4 | D1 home: play 2 red | away: play 1 black 3 left before | ball B39 |\n"
    assert _texts(text) == [(3, "4 | d1 home: play 2 red | away: play 1 black 3 left before | ball b39")]


def test_a_data_row_of_dashes_is_not_a_header_rule() -> None:
    text = "| 1 | home: kick | - |\n| - | - | - |\n| 2 | away: heads | - |\n"
    assert _texts(text) == [(1, "1 | home: kick"), (3, "2 | away: heads")]


# ------------------------------------------------------------------ line prefixes
@pytest.mark.parametrize(
    "prefix", ["Log: ", "Move 12: ", "- ", "* ", "12. ", "**Turn 12** \u2014 ", "> ", "Log - ", "Move log: ", "`", "Entry 3) "]
)
def test_a_prefix_before_the_line_is_no_part_of_it(prefix: str) -> None:
    text = "\n".join(prefix + ln for ln in GF_LINES)
    a = audit(GF, text)
    assert (a.lines, a.replayed, a.divergences, a.illegal, a.unread) == (10, 10, [], None, [])
    assert [str(m.action) for m in a.state.log] == [str(m.action) for m in audit(GF, GF_CLEAN).state.log]


def test_the_label_keeps_its_case_and_loses_a_log_prefix() -> None:
    [(_, p)] = read_log(GF, "Log: D1 home: play 2 red | away: play 1 black 3 left before").lines
    assert p.label == "d1"
    a = audit(GF, GF_CLEAN.replace("D1 home: play 2 red", "Log: D1 home: play 2 red").replace("ball B39,", "ball B40,"))
    assert [(d.line, d.label) for d in a.divergences] == [(6, "D1")]


# ------------------------------------------------------------------ restated, rewritten, begun again
def test_a_log_restated_mid_chat_without_its_heading_is_read_once() -> None:
    restated = "\n".join(GF_LINES[:6])
    text = GF_CLEAN + "\nAssistant: to recap, here is everything so far:\n\n" + restated + "\n\nUser: thanks\n"
    a = audit(GF, text)
    assert (a.lines, a.divergences, a.illegal) == (10, [], None)
    assert [r.text() for r in a.restated] == ["lines 16-21 restate lines 3-8 (read once)"]
    assert a.to_json()["restated"] == [{"lines": [16, 21], "restate": [3, 8]}]


def test_a_restated_log_that_goes_on_adds_only_its_new_lines() -> None:
    text = "\n".join(GF_LINES[:4]) + "\n\nNice!\n\n" + "\n".join(f"- {ln}" for ln in GF_LINES)
    a = audit(GF, text)
    assert (a.lines, a.replayed, a.divergences, a.illegal) == (10, 10, [], None)
    assert [r.text() for r in a.restated] == ["lines 8-11 restate lines 1-4 (read once)"]


def test_a_restated_last_line_is_read_once() -> None:
    text = GF_CLEAN + GF_LINES[-1] + "\n"
    a = audit(GF, text)
    assert (a.lines, a.divergences, a.illegal) == (10, [], None)
    assert [r.text() for r in a.restated] == ["line 13 restates line 12 (read once)"]


def test_identical_lines_under_their_own_labels_are_two_plays() -> None:
    """Two plays can read alike (same calls, same claims): a line from the middle of the log restates it only
    under the same label."""
    two = "D5 home: play 3 black | away: play 3 red | ball D38\nD6 home: play 3 black | away: play 3 red | ball D38"
    parsed = read_log(GF, two).lines
    assert len(parsed) == 2 and read_log(GF, two).restated == []


def test_a_restated_log_that_changes_a_line_counts_from_the_change() -> None:
    changed = [*GF_LINES[:4], GF_LINES[4].replace("ball D36, away 3rd & 1 | blocked D36", "ball D35, away 3rd & 2 | blocked D35")]
    assert changed[4] != GF_LINES[4]
    text = GF_CLEAN + "\n\nLet me correct that:\n\n" + "\n".join(changed) + "\n"
    a = audit(GF, text)
    assert [r.text() for r in a.restated] == ["lines 17-20 restate lines 3-6 (read once)"]
    assert [r.text() for r in a.rewrites] == [
        "line 21 rewrites line 7 of the log: the chat's later account is replayed from there (6 earlier lines set aside)"
    ]
    assert a.lines == 5 and [(d.line, d.key, d.said, d.rules) for d in a.divergences] == [
        (21, "ball", "D35", "D36"), (21, "down", "3rd & 2", "3rd & 1"), (21, "blocked D35", "blocked", "not blocked")
    ]  # fmt: skip
    assert a.text().splitlines()[1] == a.rewrites[0].text()


def test_a_log_begun_again_under_its_first_label_replaces_the_old_one() -> None:
    old = "T1 red: move QB E-2-F-1, end | ball F-1 (QB)\nT2 blue: move D2 G1-H1-H0 | ball F-1 (QB)"
    a = audit(QB, old + "\n\nLet's start over.\n\n" + QB_CLEAN.split("\n", 2)[2])
    assert [r.text() for r in a.rewrites] == [
        "line 6 rewrites line 1 of the log: the chat's later account is replayed from there (2 earlier lines set aside)"
    ]
    assert (a.lines, a.divergences, a.illegal) == (5, [], None)


# ------------------------------------------------------------------ scores
@pytest.mark.parametrize(
    ("text", "bare", "said"),
    [
        ("score home 7-0 away", True, "home 7-0 away"), ("score: home 7, away 0", True, "home 7-0 away"),
        ("score: away 3 - home 7", True, "home 7-0 away".replace("0", "3")), ("score 0-7", True, "home 0-7 away"),
        ("home 0 - 1 away", True, "home 0-1 away"), ("away 2 - 0 home", True, "home 0-2 away"),
        ("home 0 - 1 away", False, None), ("score home 1 home 2", True, None), ("the home team", True, None),
    ],
)  # fmt: skip
def test_a_score_reads_in_every_wording(text: str, bare: bool, said: str | None) -> None:
    assert score_claim(text, ("home", "away"), bare=bare) == said


# ------------------------------------------------------------------ encodings
CHAT = "## Move log\n\nToss away: heads | coin tails, home wins the toss \u2014 \u00e9l\u00e8ve \u201cok\u201d\nChoice home: kick\n"


@pytest.mark.parametrize(
    "data",
    [
        CHAT.encode("utf-8"), codecs.BOM_UTF8 + CHAT.encode("utf-8"), CHAT.encode("utf-16"), CHAT.encode("utf-16-be"),
        codecs.BOM_UTF16_BE + CHAT.encode("utf-16-be"), CHAT.encode("utf-32"), CHAT.encode("utf-16-le"),
    ],
    ids=["utf8", "utf8-bom", "utf16-bom", "utf16be-no-bom", "utf16be-bom", "utf32-bom", "utf16le-no-bom"],
)  # fmt: skip
def test_unicode_text_is_read_in_any_of_its_encodings(data: bytes) -> None:
    assert decode(data) == CHAT


def test_a_latin1_or_windows_1252_file_is_read() -> None:
    latin = "Toss away: heads | coin tails, home wins the toss - \u00e9l\u00e8ve\r\n"
    assert decode(latin.encode("latin-1")) == latin
    cp = "Choice home: kick \u2014 \u201cok\u201d \u20ac"
    assert decode(cp.encode("cp1252")) == cp
    assert clean(decode(cp.encode("cp1252"))) == 'choice home: kick - "ok" \u20ac'


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "byte 8 is a NUL byte (a binary file, or UTF-16 without its byte-order mark)"),
        (b"caf\xe9\x81 \x8d", "character 4 is the control character U+0081"),
        (codecs.BOM_UTF8 + b"ok \xff\xfe", "it starts with a UTF-8 byte-order mark but byte 6 is not UTF-8"),
        (b"ok\x1b[31m red", "character 2 is the control character U+001B"),
    ],
    ids=["png", "c1-controls", "bad-utf8-after-bom", "escape-codes"],
)
def test_bytes_that_are_no_text_are_one_clear_error(data: bytes, why: str) -> None:
    with pytest.raises(StateError) as exc:
        decode(data, "chat.md")
    assert exc.value.message == (
        f"[CORE-IMPORT] chat.md is not text gm can read ({why}); save it as UTF-8, UTF-16 or Latin-1 text"
    )
