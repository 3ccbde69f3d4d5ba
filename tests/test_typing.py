"""Typing across the plugin boundary: mypy --strict on gm/core, ``py.typed`` shipped and seen."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]


def _mypy_config() -> dict[str, Any]:
    config: dict[str, Any] = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["mypy"]
    return config


def _strict_flags(where: Path) -> dict[str, bool]:
    """What mypy's own ``--strict`` changes, flag by flag (read from the installed mypy, so a flag a
    newer mypy adds to ``--strict`` shows up here)."""
    from mypy.main import process_options

    _, plain = process_options(["--config-file", str(where), "-c", "x"])
    _, strict = process_options(["--config-file", str(where), "--strict", "-c", "x"])
    names = [n for n in dir(strict) if not n.startswith("_") and not callable(getattr(strict, n))]
    return {n: getattr(strict, n) for n in names if getattr(plain, n) != getattr(strict, n)}


def test_gm_core_is_checked_with_every_flag_of_mypy_strict(tmp_path: Path) -> None:
    """The ``gm.core.*`` override sets every per-module flag ``--strict`` sets, and the global section
    the rest (mypy reads ``strict = true`` in an override as the global --strict, so it is spelt out)."""
    from mypy.options import PER_MODULE_OPTIONS

    empty = tmp_path / "mypy.ini"
    empty.write_text("[mypy]\n")
    flags = _strict_flags(empty)
    assert {"disallow_untyped_defs", "warn_return_any", "implicit_reexport"} <= set(flags)
    config = _mypy_config()
    (core,) = [o for o in config["overrides"] if o["module"] == "gm.core.*"]
    assert "strict" not in core
    for name, value in flags.items():
        where = core if name in PER_MODULE_OPTIONS else config
        assert where.get(name) == value, f"{name} = {value} missing for gm.core"


def test_the_package_is_marked_typed_and_ships_the_marker() -> None:
    """``gm/py.typed`` exists and is package data (so the wheel carries it; scripts/wheel_smoke.py
    checks the built wheel), so a plugin's mypy reads gm's annotations."""
    assert (REPO / "gm" / "py.typed").is_file()
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["gm"]


def _games() -> list[Any]:
    from gm.core.registry import all_games

    return list(all_games())


@pytest.mark.parametrize("game", _games(), ids=lambda g: g.id)
def test_every_game_states_its_ruleset_and_state_types(game: Any) -> None:
    """Each game is a ``Game[RulesT, StateT]`` naming its own ruleset model and state class, the ones
    it really uses (so a game's hooks are checked against them)."""
    _check_type_arguments(game)


def test_the_plugin_game_states_its_ruleset_and_state_types(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same for the test-only plugin game (``tests/plugin_game``), a package outside gm."""
    import importlib

    monkeypatch.syspath_prepend(str(REPO / "tests" / "plugin_game"))
    _check_type_arguments(importlib.import_module("gm_rps").GAME)


def _check_type_arguments(game: Any) -> None:
    import typing

    from gm.core.game import Game

    (base,) = [b for b in type(game).__orig_bases__ if typing.get_origin(b) is Game]
    rules_t, state_t = typing.get_args(base)
    assert rules_t is game.rules_model
    state = game.new_state()
    assert type(state) is state_t
    assert isinstance(game.load_rules(None), rules_t)


def test_an_editable_install_is_a_path_mypy_can_follow(tmp_path: Path) -> None:
    """``pip install -e`` of gm puts the checkout on ``sys.path`` through a plain ``.pth`` line, not
    setuptools' import hook (mypy reads ``sys.path`` and cannot follow a hook), so a plugin checked by
    mypy next to an editable gm sees ``gm.core``'s types.  Built as pip would: setuptools' PEP 660
    ``build_editable`` on a copy of what the wheel is made of."""
    import shutil
    import subprocess
    import sys
    import zipfile

    src = tmp_path / "src"
    shutil.copytree(REPO / "gm", src / "gm", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    out = tmp_path / "dist"
    out.mkdir()
    build = f"import setuptools.build_meta as b; print(b.build_editable({str(out)!r}))"
    done = subprocess.run([sys.executable, "-c", build], cwd=src, capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = out / done.stdout.strip().splitlines()[-1]
    with zipfile.ZipFile(wheel) as z:
        pth = [n for n in z.namelist() if n.endswith(".pth")]
        assert len(pth) == 1, z.namelist()
        lines = z.read(pth[0]).decode().split()
    assert lines == [str(src)], lines  # the checkout itself, no `import` hook line
    assert (src / "gm" / "py.typed").is_file()
