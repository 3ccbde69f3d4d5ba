"""The balance report opened in headless Chromium shows its plots: every figure's SVG is drawn with a size,
with its axes, lines and text, and nothing on the page asks for the network."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gm.balance.report import write_report
from gm.balance.study import Study, parse_vary, run_study
from gm.core.registry import find_game


def test_the_report_shows_its_plots_in_chromium(browser: Any, tmp_path: Path) -> None:
    gf = find_game("grid-football")
    study = Study(gf, base={"quarters": 2, "downs_per_quarter": 3, "switch_after_quarters": [1], "warning_quarters": [2]},
                  varies=[parse_vary(gf, "kick_distance=40:60:10")], games=8, seed=1, line_games=0)
    paths = write_report(run_study(study), tmp_path / "report")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    try:
        page.goto(paths["html"].as_uri())
        figures = page.locator("figure.plot")
        assert figures.count() == 3
        for i in range(3):
            svg = figures.nth(i).locator("svg")
            box = svg.bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 150, (i, box)
            assert svg.locator("path").count() > 10  # axes, ticks, lines, boxes: drawn, not an empty frame
        rates = figures.nth(0)
        assert "kick_distance" in rates.inner_text() and "home wins" in rates.inner_text()
        assert rates.locator("svg").evaluate("s => s.getBBox().width") > 100  # laid out by the browser
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        assert (tmp_path / "report.png").stat().st_size > 20_000
    finally:
        page.close()
    assert all(url.startswith("file://") for url in requests)
