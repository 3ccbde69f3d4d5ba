"""The exported documents of Quarter Back: every document renders as clean markdown for default and
custom rulesets, numbers come from the ruleset, every rule id and ruling is there, the examples are
what the engine does, and rules_md/quarterback.md is a fresh render."""

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
from gm.core.bots import RandomBot
from gm.core.token import state_from_token
from gm.export import BUNDLE_FILES, DOCS, render_doc
from gm.games.quarterback.engine import QuarterbackState
from gm.games.quarterback.ruleids import RULES

GAME = find_game("quarterback")
ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests" / "quarterback"

#: a ruleset in which most numbers and the set-up differ from the default one
CUSTOM: dict[str, Any] = {
    "columns": 7,
    "column_values": [4, 3, 2, 1, 2, 3, 4],
    "field_rows": 9,
    "back_rows": 1,
    "double_moves": 3,
    "triple_moves": 4,
    "quarterback_extra": 2,
    "attack_actions": 3,
    "defense_moves": 1,
    "max_rounds": 8,
    "format": "game",
    "first_attacker": "blue",
    "win_points": 3,
    "draw_points": 1,
    "attack": {"quarterback": ["D-1"], "singles": ["C0", "D0", "E0"], "doubles": ["B0", "F0"], "triples": ["A0"]},
    "defense": {"singles": ["C1", "D1", "E1"], "doubles": ["B1"], "triples": ["F3"]},
}
RULESETS = {"default": None, "custom": CUSTOM, "no back rows": {"back_rows": 0, "attack": {"quarterback": ["B0"]}}}


@pytest.fixture(scope="module", params=list(RULESETS))
def docs(request: pytest.FixtureRequest) -> tuple[Any, dict[str, str]]:
    rules = RULESETS[request.param]
    return rules, {d: render_doc(GAME, d, rules) for d in DOCS}


@pytest.mark.parametrize("doc", DOCS)
def test_every_document_is_clean_markdown(doc: str, docs: tuple[Any, dict[str, str]]) -> None:
    text = docs[1][doc]
    assert text.startswith("# Quarter Back")
    tables = check_markdown(text)
    assert tables or doc == "glossary"


def test_custom_numbers_reach_the_documents() -> None:
    text = render_doc(GAME, "rules", CUSTOM)
    assert "7 columns, A-G; numbered rows 0-9 and one unnumbered row behind row 0, written -1" in text
    assert "worth 4, 3, 2, 1, 2, 3, 4 from the attacker's left to right" in text
    assert "| Double | D | 3 squares" in text and "as a Triple plus two more squares" in text
    assert "The attacker has three actions a turn" in text and "up to one different piece a turn" in text
    assert "at most 8 rounds" in text and "won 6-0 or 4-1, drawn 3-3 or 2-2, lost 1-4 or 0-6" in text
    assert "In this ruleset there is no toss: blue attacks first" in text and "This ruleset plays a single game" in text
    assert "attack Quarterback D-1, Singles C0 D0 E0, Doubles B0 F0, Triple A0" in text
    assert "columns = 7\ncolumn_values = [4, 3, 2, 1, 2, 3, 4]" in text
    quick = render_doc(GAME, "quickstart", CUSTOM)
    assert "this ruleset fixes it: blue" in quick and "after 8 rounds" in quick and "rows 0-9" in quick
    assert "Red attacks. Its Double" not in quick  # the default example does not fit this set-up


def test_every_rule_id_is_in_the_rules_and_every_ruling_written_up_with_its_test() -> None:
    text = render_doc(GAME, "rules")
    assert [rid for rid in RULES if f"`{rid}`" not in text] == []
    before, rulings = text.split("\n## Rulings\n", 1)
    for rid in (r for r in RULES if r.startswith("QB-R-")):
        assert f"**Ruling `{rid}`.**" in before, f"{rid} is not stated where it applies"
        m = re.search(rf"^### {re.escape(rid)}: [^\n]+\n\n(.*?)(?=^### |\Z)", rulings, flags=re.S | re.M)
        assert m, rid
        test = re.search(r"- \*\*Test:\*\* `tests/quarterback/(\w+\.py)::(\w+)`", m.group(1))
        assert test, rid
        source = (TESTS / test.group(1)).read_text(encoding="utf-8")
        assert f"def {test.group(2)}(" in source
        assert re.search(rf"@pins\([^)]*\"{re.escape(rid)}\"[^)]*\)\ndef {test.group(2)}\(", source), (rid, test.group(2))


def test_the_examples_are_what_the_engine_does() -> None:
    text = render_doc(GAME, "rules")
    s = GAME.new_state({"first_attacker": "red"}, 0)
    assert isinstance(s, QuarterbackState)
    lines = []
    for seat, move in (("red", "move D2 G0-H0-H1"), ("red", "pass to H1"), ("blue", "move T2 H4-H1")):
        lines.append(f"{seat}: {move}")
        lines += [f"  {e.text}" for e in s.apply(seat, move)]
    assert "\n".join(lines) in text
    assert s.results[0]["points"] == 9 and "tackled on H1: red scores 9 (row + column)" in text
    assert GAME.render(GAME.new_state({"first_attacker": "red"}, 0), None) in text
    assert "`[QB-OFFSIDE-TRIPLE] 'move T1 C2-C0': a defending Triple stays on rows 1-12: C0 is over the line`" in text
    assert "on row 8, column 4: 8 + 4 = 12 points" in text and "one on I12 scores 21" in text


@pytest.mark.parametrize("moves", [0, 25, 400])
def test_session_document_and_token_of_a_game_in_progress(moves: int) -> None:
    s = GAME.new_state(None, 4)
    bots = {seat: RandomBot(i) for i, seat in enumerate(GAME.seats)}
    for _ in range(moves):
        if s.is_terminal:
            break
        seat = s.to_act()[0]
        s.apply(seat, bots[seat].choose(s, seat))
    text = render_doc(GAME, "session", state=s)
    check_markdown(text)
    token = re.search(r"```text\n(gm1\.quarterback\.[^\n]+)\n```", text)
    assert token and state_from_token(token.group(1)).snapshot() == s.snapshot()
    view = s.view(None)
    for seat, pieces in view["pieces"].items():
        assert f"| {seat} | " + ", ".join(f"{pid} {sq}" for pid, sq in pieces.items()) + " |" in text
    if s.is_terminal:
        assert "| Result |" in text


def test_committed_rules_markdown_is_a_fresh_render() -> None:
    """rules_md/quarterback.md is what readers see; regenerate it with
    ``gm export rules --game quarterback -o rules_md/quarterback.md``."""
    path = ROOT / "rules_md" / "quarterback.md"
    assert path.read_text(encoding="utf-8") == render_doc(GAME, "rules"), (
        "rules_md/quarterback.md is stale: gm export rules --game quarterback -o rules_md/quarterback.md"
    )


def test_cli_bundle_and_import(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["export", "bundle", "--game", "quarterback", "-o", str(tmp_path / "qb.zip")])
    assert res.exit_code == 0, res.output
    with zipfile.ZipFile(tmp_path / "qb.zip") as zf:
        names = sorted(n.split("/", 1)[1] for n in zf.namelist())
        assert names == sorted(BUNDLE_FILES.values())
        assert zf.read("qb/rules.md").decode() == render_doc(GAME, "rules")
    toml = tmp_path / "r.toml"
    toml.write_text("max_rounds = 0\n")
    bad = runner.invoke(app, ["export", "rules", "--game", "qb", "--rules", str(toml)])
    assert bad.exit_code != 0 and "max_rounds" in bad.output and "Traceback" not in bad.output
    glossary = runner.invoke(app, ["export", "glossary", "--game", "quarter-back"])
    assert glossary.exit_code == 0 and glossary.stdout.startswith("# Quarter Back: Glossary")
