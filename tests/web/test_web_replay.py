"""The transcript viewer in the browser: step through a corpus game with the board drawn; a
recording that no longer matches the engine has its divergence marked on the step where it is."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import ServerProcess

from gm.web.replay import corpus, steps
from web.web_helpers import Player

ROOT = Path(__file__).resolve().parents[2]
GAME = ("grid_football", "scripted_human_vs_default_seed21")


def test_the_viewer_lists_the_corpus_games_and_not_its_fixtures() -> None:
    """The corpus' viewer.toml: games worth watching, in every game's folder; the regression fixtures (a
    referee's edge cases, one rule at a time) stay out."""
    listed = corpus()
    manifest = tomllib.loads((ROOT / "transcripts" / "viewer.toml").read_text(encoding="utf-8"))["games"]
    assert [(x["game"], x["name"], x["title"]) for x in listed] == [(g["folder"], g["name"], g["title"]) for g in manifest]
    assert {"game": GAME[0], "name": GAME[1], "title": "Grid Football: a player against the default bot (seed 21)"} in listed
    assert {item["game"] for item in listed} == {p.name for p in (ROOT / "transcripts").iterdir() if p.is_dir()}
    assert not any(x["name"].startswith("llm_local") or "literal" in x["name"] for x in listed)
    assert steps("grid_football", "../../etc/passwd")["error"]["status"] == 404
    assert steps("grid_football", "llm_local_cut_off")["error"]["status"] == 404  # a fixture is not offered


@pytest.mark.parametrize("folder", sorted(p.name for p in (ROOT / "transcripts").iterdir() if p.is_dir()))
def test_every_corpus_game_opens_in_the_viewer(folder: str) -> None:
    listed = [item for item in corpus() if item["game"] == folder]
    assert listed
    for item in listed:
        r = steps(item["game"], item["name"])
        assert r["ok"] and r["divergence"] is None, (item, r.get("error"))
        assert r["steps"][0]["move"] is None and all(s["move"] for s in r["steps"][1:])


def _tampered(folder: Path) -> int:
    """A copy of the corpus game whose 5th tool result says something the engine does not: returns
    how many moves the game had made by then."""
    src = ROOT / "transcripts" / GAME[0] / f"{GAME[1]}.jsonl"
    (folder / GAME[0]).mkdir(parents=True)
    lines = src.read_text().splitlines()
    results = [i for i, line in enumerate(lines) if json.loads(line).get("type") == "tool_result"]
    i = results[4]
    entry = json.loads(lines[i])
    entry["result"]["status"] = "something else"
    lines[i] = json.dumps(entry)
    (folder / GAME[0] / f"{GAME[1]}.jsonl").write_text("\n".join(lines) + "\n")
    shutil.copy(src, folder / GAME[0] / "untouched.jsonl")
    return i


def test_step_through_a_recorded_game(browser: Any, tmp_path: Path, artifacts: Path) -> None:
    _tampered(tmp_path / "corpus")
    home = tmp_path / "home"
    home.mkdir()
    with ServerProcess(f"sqlite:{home / 'gm.sqlite'}", home, "--rate", "0", "--quiet", env={"GM_TRANSCRIPTS": str(tmp_path / "corpus")}) as srv:
        ctx = browser.new_context()
        me = Player(ctx.new_page(), srv.url).open()
        me.page.click("#transcripts a >> text=untouched")
        p = me.page
        p.wait_for_selector("#rp-board svg.gm-board")
        assert p.text_content("#rp-move") == "start"
        total = len(steps(GAME[0], GAME[1])["steps"])
        p.click("#rp-next")
        p.wait_for_selector("#rp-move[data-step='1']")
        assert (p.text_content("#rp-move") or "").startswith("away: ")
        p.keyboard.press("ArrowRight")  # keyboard: the arrows step
        p.wait_for_selector("#rp-move[data-step='2']")
        p.click("#rp-last")
        p.wait_for_selector(f"#rp-move[data-step='{total - 1}']")
        assert "FINAL" in (p.text_content("#rp-pos") or "")
        assert p.locator("#rp-board circle.piece[data-kind=ball]").count() <= 1 and p.locator("#rp-board rect.cell[data-kind=blocked]").count() > 0
        assert p.locator(".divergence").count() == 0
        me.screenshot(artifacts, "transcript-viewer")
        # the tampered copy: its divergence is marked on the step the replay had reached
        p.click("#start-link")
        p.wait_for_selector("#start:not([hidden])")
        p.click(f"#transcripts a >> text={GAME[1].replace('_', ' ')}")
        p.wait_for_selector("#rp-move[data-step='0']")
        seen = None
        for k in range(total):
            if p.locator("#rp-move.divergence").count():
                seen = k
                break
            p.click("#rp-next")
            p.wait_for_selector(f"#rp-move[data-step='{min(k + 1, total - 1)}']")
        assert seen is not None and seen > 0
        assert "differs from the recording" in (p.text_content("#rp-move") or "")
        assert not me.errors
        ctx.close()
