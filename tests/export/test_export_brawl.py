"""The exported documents of brawl: valid markdown for default, custom and tiny rulesets, numbers
from the ruleset, the worked example played by the engine, a session document and token that keep
every revealed play and never a hand or a locked placement, and rules_md/brawl.md a fresh render."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from export_helpers import check_markdown
from typer.testing import CliRunner

from gm.cli.app import app
from gm.core.token import decode_token, settled, state_from_token
from gm.export import DOCS, render_doc
from gm.games.brawl import GAME
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.export import EXAMPLE_CHANCE, EXAMPLE_SEED
from gm.games.brawl.ruleids import RULES

ROOT = Path(__file__).resolve().parents[2]
CUSTOM = {
    "rounds": 9, "series_cards": 2, "go_cards": 2, "first_down_yards": 12, "field_length": 80, "drive_start": 20,
    "punt_distance": 35, "punt_touchback": 15, "field_goal_extra": 12, "field_goal_odds": {35: 90, 45: 55},
    "touchdown_points": 6, "field_goal_points": 4, "strong_factor": 3, "weak_divisor": 3, "turnovers": "reach",
    "first_offense": "away", "multipliers": {"D": 5, "M": 3, "S": 1, "B": 0},
}  # fmt: skip
TINY = {"offense": {"QB": "QB"}, "defense": {"MLB": "MLB"}, "series_cards": 1, "rounds": 1}
RULESETS = {"default": None, "custom": CUSTOM, "tiny": TINY}


def played(seed: int, moves: int, rules: object = None) -> BrawlState:
    state = GAME.new_state(rules, seed)
    assert isinstance(state, BrawlState)
    bots = {seat: GAME.make_bot("random", seed=seed + i) for i, seat in enumerate(GAME.seats)}
    for _ in range(moves):
        if state.is_terminal:
            break
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("doc", DOCS)
def test_every_document_renders_as_valid_markdown(doc: str, name: str) -> None:
    text = render_doc(GAME, doc, RULESETS[name])
    assert text.startswith("# brawl") and "{{" not in text and "{%" not in text
    tables = check_markdown(text)
    assert tables or doc == "glossary"


def test_a_changed_ruleset_changes_every_number_that_depends_on_it() -> None:
    text = render_doc(GAME, "rules", CUSTOM)
    for needle in (
        "A game is 9 series",
        "A touchdown scores 6 (no conversion is played), a field goal 4. After any score the other team starts a drive at its own 20.",
        "The ball moves on a 80-yard field",
        "Inside the opponent's 12",
        "| Downfield (D) | 5x |",
        "multiplies the values on the card by 3",
        "rolls 3 and is worth 9",
        "Each round is a 2-play series and begins with every player on the field drawing 2",
        "Then, twice:",
        "draws 2 cards; both sides\n  play and reveal 2 more times",
        "A punt travels 35 yards from the spot; the other team takes over where it lands, or at its own 15",
        "up to 35 yards 90%, up to 45 yards 55%",
        "This ruleset gives the ball first to away",
        'This ruleset reads it as `turnovers = "reach"`',
        "with all 4 plays' cards",
    ):
        assert needle in text, needle
    assert "changed" in text and "(changed)" in text
    quick = render_doc(GAME, "quickstart", CUSTOM)
    assert "Most points after 9 series wins!" in quick and "Twice:" in quick and "(35 yards)" in quick


def test_the_decks_and_rosters_are_the_rulesets() -> None:
    rules = {"positions": {"QB": {"deck": ["F5", "F5", "F5", "F5"]}}, "offense": {"QB": "QB", "RB1": "RB"}}
    text = render_doc(GAME, "rules", rules)
    assert "| QB | F5 F5 F5 F5 |" in text and "The offense is QB and RB1 (RB);" in text
    assert "With 2 offense and 11 defense players and 11 zones, some zones stay open." in text


def test_every_rule_id_is_in_the_rules_and_every_ruling_written_up() -> None:
    text = render_doc(GAME, "rules")
    assert not [rid for rid in RULES if f"`{rid}`" not in text and f"### {rid}:" not in text]
    before, rulings = text.split("\n## Rulings\n", 1)
    for rid in (r for r in RULES if r.startswith("BR-R-")):
        assert f"**Ruling `{rid}`.**" in before, rid
        m = re.search(rf"^### {re.escape(rid)}: [^\n]+\n\n(.*?)(?=^### |\Z)", rulings, flags=re.S | re.M)
        assert m and all(part in m.group(1) for part in ("- **The document:**", "- **Ruling:**", "- **Why:**")), rid


def test_the_worked_example_is_what_the_engine_does() -> None:
    """The example is the first series of a seeded game, both sides' cards chosen by the default bot."""
    text = render_doc(GAME, "rules")
    state = GAME.new_state(None, EXAMPLE_SEED, EXAMPLE_CHANCE)
    bots = {seat: GAME.make_bot("default", seed=i) for i, seat in enumerate(GAME.seats)}
    events = []
    while state.round == 1:
        seat = state.to_act()[0]
        events += state.apply(seat, bots[seat].choose(state, seat))
    for e in events:
        if e.kind in ("reveal", "agility", "zones", "unconnected", "yards", "first_down"):
            assert e.text in text, e.text
    assert "home wins DL +4 (completion)" in text and "home leads DR but cannot connect them to the X" in text
    assert re.search(r"\[BR-ZONE-ONE\] '[^']+': DL: one card per zone", text)
    assert render_doc(GAME, "quickstart").count("home gains 36 yards (9 x4)") == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_session_document_shows_no_hand_and_no_locked_placement(seed: int) -> None:
    state = played(seed, 8)
    bot = GAME.make_bot("random", seed=seed)
    while not state.pending:  # play on until a placement is locked while the other side has not chosen
        seat = state.to_act()[0]
        state.apply(seat, bot.choose(state, seat))
    ((seat, pick),) = state.pending.items()
    text = render_doc(GAME, "session", state=state)
    check_markdown(text)
    assert str(pick) not in text and "your hand" not in text and "your locked play" not in text
    for side in ("home", "away"):
        for player, cards in state.hands[side].items():
            assert f"{player} {' '.join(c.code for c in cards)}" not in text
    assert "A placement that was locked but not yet revealed is not recorded here" in text
    public, dropped = settled(state)
    assert dropped == 1 and len(public.log) == len(state.log) - 1
    for move in public.log:  # every revealed placement is kept
        assert f"{move.seat}: {move.action}" in text
    token = re.search(r"```text\n(gm1\.brawl\.[^\n]+)\n```", text)
    assert token and state_from_token(token.group(1)).to_json() == public.to_json()
    assert str(pick) not in str(decode_token(token.group(1)))


def test_a_settled_game_keeps_every_move_in_its_token() -> None:
    state = played(4, 40)
    while state.pending:
        seat = state.to_act()[0]
        state.apply(seat, GAME.make_bot("random", seed=1).choose(state, seat))
    public, dropped = settled(state)
    assert dropped == 0 and public is state
    assert "No moves yet" not in render_doc(GAME, "session", state=state)


def test_committed_rules_markdown_is_a_fresh_render() -> None:
    """rules_md/brawl.md is what readers see; regenerate it with
    ``gm export rules --game brawl -o rules_md/brawl.md``."""
    path = ROOT / "rules_md" / "brawl.md"
    assert path.read_text(encoding="utf-8") == render_doc(GAME, "rules"), (
        "rules_md/brawl.md is stale: gm export rules --game brawl -o rules_md/brawl.md"
    )


def test_cli_exports_a_bundle_and_a_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path / "home"))
    runner = CliRunner()
    out = runner.invoke(app, ["export", "bundle", "--game", "brawl", "-o", str(tmp_path / "brawl.zip")])
    assert out.exit_code == 0, out.output
    with zipfile.ZipFile(tmp_path / "brawl.zip") as zf:
        names = sorted(n.split("/", 1)[1] for n in zf.namelist())
    assert names == ["glossary.md", "quick_start_new_chat.md", "rules.md", "session_template.md"]
    toml = tmp_path / "r.toml"
    toml.write_text("rounds = 0\n")
    bad = runner.invoke(app, ["export", "rules", "--game", "brawl", "--rules", str(toml)])
    assert bad.exit_code != 0 and "rounds" in bad.output and "Traceback" not in bad.output
