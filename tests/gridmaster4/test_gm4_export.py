"""The exported documents of GridMaster4: every document renders for default, custom and tiny
rulesets, numbers come from the ruleset, and rules_md/gridmaster4.md is a fresh render."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gm4_helpers import GAME, new, opening, play
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.token import state_from_token
from gm.export import DOCS, render_doc
from gm.games.gridmaster4.ruleids import RULES

ROOT = Path(__file__).resolve().parents[2]
RULESETS = [
    None,
    {"columns": 12, "rows": 10, "players": 3, "orthogonal": 2, "diagonal": 1, "winning_tile": 40, "deactivate": "own"},
    {"columns": 2, "rows": 2, "players": 2},
    {"players": 1, "columns": 10, "rows": 10},
]


@pytest.mark.parametrize("rules", RULESETS, ids=["default", "custom", "tiny", "solo"])
@pytest.mark.parametrize("doc", DOCS)
def test_every_document_renders(doc: str, rules: object) -> None:
    text = render_doc(GAME, doc, rules)
    assert text.startswith("# GridMaster4") and "{{" not in text and "{%" not in text
    r = GAME.load_rules(rules)
    if doc in ("rules", "quickstart"):
        assert f"{r.columns}x{r.rows}" in text or f"{r.columns} columns by {r.rows} rows" in text


def test_custom_numbers_reach_the_rules() -> None:
    text = render_doc(GAME, "rules", RULESETS[1])
    assert "exactly 2 cells up, down, left or right, or exactly 1 cell diagonally" in text
    assert "differ from the default are:\ncolumns, rows, players, winning_tile, orthogonal, diagonal, deactivate." in text
    assert "at most 24 options" in text and "placing tile 40 this way wins" in text


def test_every_rule_id_is_in_the_rules_and_every_ruling_written_up() -> None:
    text = render_doc(GAME, "rules")
    assert not [rid for rid in RULES if f"`{rid}`" not in text and f"### {rid}:" not in text]
    before, rulings = text.split("\n## Rulings\n", 1)
    for rid in (r for r in RULES if r.startswith("GM4-R-")):
        assert f"**Ruling `{rid}`.**" in before, f"{rid} is not stated where it applies"
        m = re.search(rf"^### {re.escape(rid)}: [^\n]+\n\n(.*?)(?=^### |\Z)", rulings, flags=re.S | re.M)
        assert m, rid
        test = re.search(r"- \*\*Test:\*\* `tests/gridmaster4/(\w+\.py)::(\w+)`", m.group(1))
        assert test, rid
        assert f"def {test.group(2)}(" in (Path(__file__).parent / test.group(1)).read_text(encoding="utf-8")


def test_the_worked_example_is_what_the_engine_does() -> None:
    text = render_doc(GAME, "rules")
    s = new()
    opening(s, "J9", "M12", "T20", "S20")
    events = play(s, "place 2 at J12")
    for e in events:
        assert e.text in text
    assert "its moves are\nJ6, H7, L7, G9, M9, H11, L11 and J12" in text


def test_session_document_and_token_of_a_game_in_progress() -> None:
    s = new(4)
    bots = {seat: GAME.make_bot("random", seed=i) for i, seat in enumerate(GAME.seats)}
    for _ in range(60):
        (seat,) = s.to_act()
        s.apply(seat, bots[seat].choose(s, seat))
    text = render_doc(GAME, "session", state=s)
    token = re.search(r"```text\n(gm1\.gridmaster4\.[^\n]+)\n```", text)
    assert token and state_from_token(token.group(1)).snapshot() == s.snapshot()
    for p in s.snapshot()["players"]:
        assert f"| {p['seat']} | {p['colour']} | {p['score']} |" in text


def test_committed_rules_markdown_is_a_fresh_render() -> None:
    """rules_md/gridmaster4.md is what readers see; regenerate it with
    ``gm export rules --game gridmaster4 -o rules_md/gridmaster4.md``."""
    path = ROOT / "rules_md" / "gridmaster4.md"
    assert path.read_text(encoding="utf-8") == render_doc(GAME, "rules"), (
        "rules_md/gridmaster4.md is stale: gm export rules --game gridmaster4 -o rules_md/gridmaster4.md"
    )


def test_cli_exports_and_plays_bots(tmp_path: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["export", "glossary", "--game", "gridmaster4"])
    assert out.exit_code == 0 and out.stdout.startswith("# GridMaster4: Glossary")
    toml = tmp_path / "r.toml"
    toml.write_text("players = 7\n")
    bad = runner.invoke(app, ["export", "rules", "--game", "gm4", "--rules", str(toml)])
    assert bad.exit_code != 0 and "players" in bad.output and "Traceback" not in bad.output
