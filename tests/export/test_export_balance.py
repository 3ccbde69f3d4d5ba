"""The "Balance" note of each rules document: the game's recorded balance study (``templates/balance.toml``)
under Rulings for the default ruleset, and left out for any other (its figures hold for the default only)."""

from __future__ import annotations

import pytest

from gm.core.registry import find_game
from gm.export import render_doc
from gm.export.render import balance_study

GAMES = ["grid-football", "gridmaster4", "quarterback", "brawl", "chess-football"]
CHANGED = {"grid-football": {"rows": 72}, "gridmaster4": {"rows": 18}, "quarterback": {"max_rounds": 9},
           "brawl": {"rounds": 16}, "chess-football": {"possessions_per_half": 2}}


@pytest.mark.parametrize("gid", GAMES)
def test_the_default_rules_show_the_games_balance_study_under_rulings(gid: str) -> None:
    game = find_game(gid)
    study = balance_study(game)
    assert study is not None and study["intro"] and study["found"]
    text = render_doc(game, "rules")
    rulings = text.split("\n## Rulings\n", 1)[1]
    note = rulings.split("\n### Balance\n", 1)[1]
    assert "\n## " not in note and "\n### " not in note, "the note closes the Rulings"
    assert note.strip() == "\n".join([study["intro"], "", *(f"- {item}" for item in study["found"])])
    assert f"gm balance {gid} " in note or f"gm sim {gid} " in note, "the note says how it was measured"


@pytest.mark.parametrize("gid", GAMES)
def test_another_ruleset_has_no_balance_note(gid: str) -> None:
    game = find_game(gid)
    changed = game.default_rules().model_dump(mode="json") | CHANGED[gid]
    assert game.load_rules(changed) != game.default_rules()
    assert "### Balance" not in render_doc(game, "rules", changed)
