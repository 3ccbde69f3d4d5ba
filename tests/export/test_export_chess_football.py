"""The exported documents of the Chess-Football Hybrid: clean markdown for default, custom and tiny
rulesets, numbers from the ruleset, every rule id and ruling (each with the test that pins it), the
worked example played by the engine, a session document and token that never show a locked plan or
the secret holder of a hidden ball, and rules_md/chess_football.md a fresh render."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from export_helpers import check_markdown
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core import find_game
from gm.core.token import decode_token, settled, state_from_token
from gm.export import BUNDLE_FILES, DOCS, render_doc
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.export import EXAMPLE_CAPTAINS, EXAMPLE_PLANS
from gm.games.chess_football.ruleids import RULES

GAME = find_game("chess-football")
ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests" / "chess_football"

CUSTOM: dict[str, Any] = {
    "rows": 40, "columns": 15, "drive_start_square": 6, "first_down_squares": 5, "downs": 3, "punt_downs": [3],
    "touchdown_points": 6, "safety_points": 3, "possessions_per_half": 2, "overtime_possessions": 2, "overtime_periods": 2,
    "max_turns_per_down": 5, "plan_rows": 5, "snap_burst": 2, "ineligible_downfield": 2, "once_per_downs": 3,
    "toss_caller": "home", "collision_die": 8,
    "passing": {"die": 8, "complete_min": 4, "adjacent_defender": -2, "lead_blocker_range": 3},
}  # fmt: skip
#: two pieces a side on a short field: the examples no longer fit and are left out
TINY: dict[str, Any] = {
    "rows": 16,
    "drive_start_square": 4,
    "offense_lineup": [{"id": "HV1", "kind": "heavy", "column": "B", "depth": 0}, {"id": "QB", "kind": "qb", "column": "C", "depth": 1}],
    "defense_lineup": [{"id": "HV3", "kind": "heavy", "column": "B", "depth": 1}],
}
RULESETS = {"default": None, "custom": CUSTOM, "tiny": TINY}


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("doc", DOCS)
def test_every_document_renders_as_clean_markdown(doc: str, name: str) -> None:
    text = render_doc(GAME, doc, RULESETS[name])
    assert text.startswith("# Chess-Football Hybrid")
    tables = check_markdown(text)
    assert tables or doc == "glossary"


def test_custom_numbers_reach_the_documents() -> None:
    text = render_doc(GAME, "rules", CUSTOM)
    for needle in (
        "40 rows x 15 columns; columns A-O across, rows 1-40",
        "End zones: rows 1-4 and rows 37-40.",
        '"Square 6" counts from the team\'s own goal line: row 10 for home, row 31 for away.',
        "2 possessions per team per half; all drives begin from square 6.",
        "Overtime: 2 possessions per team",
        "2 overtime periods are played while the score is tied",
        "The first down line is the line of scrimmage + 5 squares; the offense has 3 downs to reach it.",
        "On 3rd down the offense first declares `punt` or `go for it`",
        "planning board of up to 5 rows",
        "get +2 movement. (`CF-SNAP-BURST`)",
        "A down lasts at most 5 turns (the snap and 4 reaction turns",
        "roll 1d8 + modifiers. 4-8 complete; 1-3 incomplete",
        "-2 per defender adjacent to the receiver",
        "within 3 squares of the QB",
        "may move only 2 rows past the line of scrimmage",
        "each rolls 1d8",
        "The home team calls heads or tails",
        "Touchdown: the ball enters the opponent's end zone: 6 points",
        "3 points to the defense",
        '"Once per 3 downs" is per piece',
        "| `rows` | 40 (changed) |",
        "| `passing.die` | 8 (changed) |",
    ):
        assert needle in text, needle
    assert "This edition is for a **custom ruleset**" in text
    quick = render_doc(GAME, "quickstart", CUSTOM)
    assert "The home team calls the coin\n   toss" in quick and "a plan of up to 5 rows" in quick
    assert "2 possessions per team each half; tied, an overtime of 2 each" in quick
    tiny = render_doc(GAME, "rules", TINY)
    assert "## 13. A worked example" not in tiny and "| HV1 | B, depth 0 | HV3 | B, depth 1 |" in tiny
    assert "The 2 standard pieces are QB, 1 Heavy on offense and 1 Heavy on defense." in tiny


def _pinned(rid: str, ref: str) -> bool:
    """Whether ``file.py::test`` exists and its ``rules`` marker names ``rid``."""
    file, _, name = ref.partition("::")
    source = (TESTS / file).read_text(encoding="utf-8")
    m = re.search(rf"@pytest\.mark\.rules\(([^)]*)\)\n(?:@[^\n]*\n)*def {re.escape(name)}\(", source)
    return m is not None and f'"{rid}"' in m.group(1)


def test_every_rule_id_is_in_the_rules_and_every_ruling_written_up_with_its_test() -> None:
    text = render_doc(GAME, "rules")
    assert [rid for rid in RULES if f"`{rid}`" not in text] == []
    before, rulings = text.split("\n## Rulings\n", 1)
    for rid in (r for r in RULES if r.startswith("CF-R-")):
        assert f"**Ruling `{rid}`.**" in before, f"{rid} is not stated where it applies"
        m = re.search(rf"^### {re.escape(rid)}: [^\n]+\n(.*?)(?=^### |\Z)", rulings, flags=re.S | re.M)
        assert m, rid
        for field in ("**The document:**", "**Ruling:**", "**Why:**"):
            assert field in m.group(1), (rid, field)
        test = re.search(r"- \*\*Test:\*\* `tests/chess_football/(\w+\.py::\w+)`", m.group(1))
        assert test and _pinned(rid, test.group(1)), rid


def test_the_examples_are_what_the_engine_does() -> None:
    text = render_doc(GAME, "rules")
    s = GAME.new_state(None, 0)
    assert isinstance(s, ChessFootballState)
    s.apply("home", EXAMPLE_CAPTAINS[0])
    s.apply("away", EXAMPLE_CAPTAINS[1])
    s.apply("away", "heads")
    assert s.offense == "home"
    before = GAME.render(s, None)
    s.apply("home", EXAMPLE_PLANS[0])
    events = s.apply("away", EXAMPLE_PLANS[1])
    assert before in text and GAME.render(s, None) in text
    assert "\n".join(e.text for e in events) in text
    assert "QB passes to DT: rolls 4" in text and "complete: the ball is with DT on L15 C" in text
    assert ("`[CF-MOVE-ORDER] 'HV1 to G13 C': movement order is captain -> heavy -> strong -> fast -> qb; "
            "HV1 (heavy) can no longer act this turn`") in text
    quick = render_doc(GAME, "quickstart")
    assert "\n".join(e.text for e in events) in quick and before in quick


def _first_snap(seed: int = 0) -> ChessFootballState:
    s = GAME.new_state(None, seed)
    assert isinstance(s, ChessFootballState)
    s.apply("home", "captains deep_threat safety")
    s.apply("away", "captains lead_blocker rusher")
    s.apply("away", "heads")
    assert s.offense == "home" and s.phase == "snap"
    return s


def test_a_session_document_never_shows_a_locked_plan() -> None:
    s = _first_snap()
    s.apply("home", "plan: DT to L15 C; QB pass to DT")  # locked, away has not planned yet
    text = render_doc(GAME, "session", state=s)
    check_markdown(text)
    assert "DT to L15" not in text and "pass to DT" not in text
    assert "1 move still secret is not recorded here" in text
    token = re.search(r"```text\n(gm1\.chess-football\.[^\n]+)\n```", text)
    assert token and all("DT to L15" not in m[1] for m in decode_token(token.group(1))["log"])
    assert state_from_token(token.group(1)).snapshot() == settled(s)[0].snapshot()


def test_a_session_document_never_shows_the_hidden_ball_holder() -> None:
    s = _first_snap()
    s.apply("home", "plan: hold")
    s.apply("away", "plan: hold")
    s.apply("home", "play action ST1 ball ST1")  # the hand-off: ST1 holds the ball, in secret
    s.apply("home", "done")
    s.apply("away", "FA3 to C15 C")
    assert s.field is not None and s.field.hidden
    text = render_doc(GAME, "session", state=s)
    check_markdown(text)
    assert "ball ST1" not in text and "ST1@" not in text
    assert "| Ball | QB on H11 C |" in text  # the last public state: before the play action
    assert "3 moves still secret are not recorded here" in text
    token = re.search(r"```text\n(gm1\.chess-football\.[^\n]+)\n```", text)
    assert token and not any("play action" in m[1] for m in decode_token(token.group(1))["log"])


@pytest.mark.parametrize("moves", [0, 40, 150])
def test_session_document_and_token_of_a_game_in_progress(moves: int) -> None:
    s = GAME.new_state({"possessions_per_half": 1}, 3)
    bots = {seat: GAME.make_bot("default", seed=i) for i, seat in enumerate(GAME.seats)}
    for _ in range(moves):
        if s.is_terminal:
            break
        seat = s.to_act()[0]
        s.apply(seat, bots[seat].choose(s, seat))
    text = render_doc(GAME, "session", state=s)
    check_markdown(text)
    public, dropped = settled(s)
    token = re.search(r"```text\n(gm1\.chess-football\.[^\n]+)\n```", text)
    assert token and state_from_token(token.group(1)).snapshot() == public.snapshot()
    view = public.view(None)
    for pc in view["pieces"]:
        assert f"| {pc['team']} | {pc['id']} | " in text and f"| {pc['square']} | {pc['position']} |" in text
    assert f"| Score | home {view['score']['home']} - {view['score']['away']} away |" in text
    assert (f"{dropped} move" in text) == bool(dropped)


def test_committed_rules_markdown_is_a_fresh_render() -> None:
    """rules_md/chess_football.md is what readers see; regenerate it with
    ``gm export rules --game chess-football -o rules_md/chess_football.md``."""
    path = ROOT / "rules_md" / "chess_football.md"
    assert path.read_text(encoding="utf-8") == render_doc(GAME, "rules"), (
        "rules_md/chess_football.md is stale: gm export rules --game chess-football -o rules_md/chess_football.md"
    )


def test_cli_bundle_and_documents(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["export", "bundle", "--game", "chess-football", "-o", str(tmp_path / "cf.zip")])
    assert res.exit_code == 0, res.output
    with zipfile.ZipFile(tmp_path / "cf.zip") as zf:
        assert sorted(n.split("/", 1)[1] for n in zf.namelist()) == sorted(BUNDLE_FILES.values())
        assert zf.read("cf/rules.md").decode() == render_doc(GAME, "rules")
    toml = tmp_path / "r.toml"
    toml.write_text("plan_rows = 0\n")
    bad = runner.invoke(app, ["export", "rules", "--game", "cf", "--rules", str(toml)])
    assert bad.exit_code != 0 and "plan_rows" in bad.output and "Traceback" not in bad.output
    glossary = runner.invoke(app, ["export", "glossary", "--game", "chess-football"])
    assert glossary.exit_code == 0 and glossary.stdout.startswith("# Chess-Football Hybrid: Glossary")
