"""The benchmark harness (``python -m bench``): discovery, selection, error isolation, output."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import bench  # noqa: E402
import bench.__main__ as bench_main  # noqa: E402


def test_discovers_the_bench_modules() -> None:
    names = bench.discover()
    assert "grid_football" in names and names == sorted(names)


def test_select_accepts_short_and_file_names_and_rejects_unknown() -> None:
    names = ["grid_football", "tools"]
    assert bench.select(names, []) == names
    assert bench.select(names, ["bench_tools", "grid_football.py"]) == ["tools", "grid_football"]
    assert bench.select(names, ["tools,grid_football", "tools"]) == ["tools", "grid_football"]
    with pytest.raises(ValueError, match="available: grid_football, tools"):
        bench.select(names, ["nope"])


@pytest.fixture
def fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    pkg = tmp_path / "fakebench"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "bench_ok.py").write_text(
        "def run(quick=False):\n    return [{'name': 'x', 'value': 1.5, 'unit': 'u', 'note': str(quick), 'target': '>= 2'},"
        " {'name': 'y', 'value': 2}]\n"
    )
    (pkg / "bench_boom.py").write_text("def run(quick=False):\n    raise RuntimeError('kaput')\n")
    (pkg / "bench_shape.py").write_text("def run(quick=False):\n    return {'name': 'x'}\n")
    (pkg / "bench_norun.py").write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "fakebench"


def test_run_module_collects_rows_and_isolates_errors(fake_package: str) -> None:
    ok = bench.run_module("ok", True, package=fake_package)
    assert ok.error is None
    assert ok.rows == [
        {"name": "x", "value": 1.5, "unit": "u", "note": "True", "target": ">= 2"},
        {"name": "y", "value": 2, "unit": "", "note": "", "target": None},
    ]
    boom = bench.run_module("boom", False, package=fake_package)
    assert boom.rows == [] and boom.error and "RuntimeError: kaput" in boom.error
    assert "run() must return a list" in (bench.run_module("shape", False, package=fake_package).error or "")
    assert "no run(quick)" in (bench.run_module("norun", False, package=fake_package).error or "")
    table = bench.format_table([ok, boom], {"ok/x": {"value": 3.25}})
    assert "ERROR" in table and "kaput" in table and "1.50" in table
    line = next(ln for ln in table.splitlines() if ln.startswith("ok") and " x " in ln)
    assert ">= 2 MISS" in line and "3.25" in line  # the figure, its target and the last recorded figure


def test_targets_and_recorded_figures(fake_package: str, tmp_path: Path) -> None:
    assert bench.met(60_000, ">= 50000") is True and bench.met(2.9, "<= 3") is True and bench.met(3.1, "<= 3") is False
    assert bench.met("n/a", ">= 1") is None and bench.met(5, None) is None
    with pytest.raises(ValueError):
        bench.row("x", 1, target="fast")
    ok = bench.run_module("ok", True, package=fake_package)
    path = tmp_path / "recorded.json"
    bench.save_recorded([ok], {"commit": "abc", "started": "now"}, path)
    assert bench.load_recorded(path)["ok/x"] == {"value": 1.5, "unit": "u", "commit": "abc", "date": "now"}


def test_main_prints_json_and_fails_when_a_module_fails(
    fake_package: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(bench_main, "discover", lambda: ["boom", "ok"])
    monkeypatch.setattr(bench_main, "run_module", lambda name, quick: bench.run_module(name, quick, package=fake_package))
    assert bench_main.main(["--json", "--quick", "--only", "ok"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["meta"]["quick"] is True
    assert [r["module"] for r in doc["results"]] == ["ok"] and doc["results"][0]["rows"][0]["name"] == "x"
    assert bench_main.main([]) == 1
    out = capsys.readouterr().out
    assert "ERROR" in out and "2 modules" in out
    assert bench_main.main(["--only", "nope"]) == 2
    assert bench_main.main(["--list"]) == 0
    assert capsys.readouterr().out.split() == ["boom", "ok"]


def test_wilson_interval() -> None:
    lo, hi = bench.wilson(50, 100)
    assert lo < 0.5 < hi and hi - lo == pytest.approx(0.19, abs=0.01)
    assert bench.wilson(0, 0) == (0.0, 1.0)
    lo, hi = bench.wilson(100, 100)
    assert hi == pytest.approx(1.0) and 0.95 < lo < 1.0
