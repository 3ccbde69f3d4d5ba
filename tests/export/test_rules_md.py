"""rules_md/<game>.md, the rules readers see on GitHub, is for every game a fresh render of its
export template with the default ruleset (the templates ship inside the game's package; these
files are documentation only, and nothing in gm reads them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.core.registry import all_games, find_game
from gm.export import render_doc, slug

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_of_gm_has_its_rules_document() -> None:
    own = sorted(g.id for g in all_games() if g.package.startswith("gm.games."))
    assert sorted(p.stem.replace("_", "-") for p in (ROOT / "rules_md").glob("*.md") if p.stem != "README") == own


@pytest.mark.parametrize("game_id", sorted(g.id for g in all_games() if g.package.startswith("gm.games.")))
def test_rules_md_is_a_fresh_render(game_id: str) -> None:
    game = find_game(game_id)
    path = ROOT / "rules_md" / f"{slug(game)}.md"
    assert path.read_text(encoding="utf-8") == render_doc(game, "rules"), (
        f"{path.relative_to(ROOT)} is stale: gm export rules --game {game_id} -o {path.relative_to(ROOT)}"
    )
