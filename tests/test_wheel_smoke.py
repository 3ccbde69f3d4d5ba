"""scripts/wheel_smoke.py (run by CI after make test): its checks accept what a good install prints and
report each failure of a broken one on one line, exiting 1.  (The whole run builds and installs a
wheel, about 1.5 minutes: CI runs it, not pytest.)"""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wheel_smoke", ROOT / "scripts" / "wheel_smoke.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["wheel_smoke"] = mod
    spec.loader.exec_module(mod)
    return mod


smoke = _load()


def test_ci_runs_it_after_make_test() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert lines[-2:] == ["make test", ".venv/bin/python scripts/wheel_smoke.py"]


def test_the_checks_accept_a_good_install(tmp_path: Path) -> None:
    s = smoke.Smoke(tmp_path)
    s.gm = str(Path(sys.executable).parent / "gm")  # the checkout's gm stands in for the wheel's
    s.env["PYTHONPATH"] = os.environ.get("PYTHONPATH", "")
    assert s.check_export("gridmaster4", "GridMaster4", "rules") is None  # equal to rules_md/gridmaster4.md
    assert s.check_export("gridmaster4", "GridMaster4", "prompt") is None
    assert s.check_export("gridmaster4", "Quarter Back", "quickstart").startswith(
        "does not start with a title naming Quarter Back: # GridMaster4"
    )


def test_a_broken_install_gets_one_line_per_failure_and_exit_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A 'gm' that lists the games but whose every other command fails (as one missing template would)."""
    listing = "\\n".join(f"{g:16} {g.title()}" for g in ("grid-football", "gridmaster4", "brawl", "quarterback", "chess-football"))

    def fake_install(self: object) -> None:
        bin_ = tmp_path / "fake-venv" / "bin"
        bin_.mkdir(parents=True)
        gm = bin_ / "gm"
        gm.write_text(f'#!/bin/sh\nif [ "$1" = games ]; then printf "{listing}\\n"; exit 0; fi\n'
                      'echo "gm: error: [CORE-TEMPLATE] gm\'s template \'x\' is missing" >&2\necho "second line" >&2\nexit 2\n')
        gm.chmod(gm.stat().st_mode | stat.S_IEXEC)
        (bin_ / "python").symlink_to(sys.executable)
        self.venv, self.gm = bin_.parent, str(gm)  # type: ignore[attr-defined]

    monkeypatch.setattr(smoke.Smoke, "build_and_install", fake_install)
    assert smoke.main([]) == 1
    out = capsys.readouterr().out.splitlines()
    fails = [ln for ln in out if ln.startswith("wheel smoke: FAIL ")]
    assert len(fails) == 25 and out[-1].startswith("wheel smoke: 0/25 checks passed for 5 games in ")
    assert "wheel smoke: FAIL export rules --game brawl: exit 2: gm: error: [CORE-TEMPLATE] gm's template 'x' is missing" in fails
    assert "wheel smoke: FAIL play + replay: gm play: exit 2: gm: error: [CORE-TEMPLATE] gm's template 'x' is missing" in fails
    assert any(ln.startswith("wheel smoke: FAIL import: gm is imported from ") for ln in fails)
    assert any(ln.startswith("wheel smoke: FAIL mcp: the mcp client failed: ") for ln in fails)
    assert "wheel smoke: FAIL serve: gm serve did not answer: second line" in fails
    assert "wheel smoke: FAIL eval: gm eval: exit 2: gm: error: [CORE-TEMPLATE] gm's template 'x' is missing" in fails
