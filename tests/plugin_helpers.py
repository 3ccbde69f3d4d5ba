"""The test-only plugin game (``tests/plugin_game``), installed by pip into a folder of its own (no
build isolation: no network), for the tests that serve it from a real ``gm`` process."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

PLUGIN = Path(__file__).resolve().parent / "plugin_game"


def install_plugin(tmp: Path, source: Path = PLUGIN) -> Path:
    """Install the plugin (or another game package's ``source`` folder) into ``tmp/site`` (put it on
    ``PYTHONPATH``); returns that folder."""
    src = tmp / "src"
    shutil.copytree(source, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = tmp / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target", str(target), str(src)],
        check=True, capture_output=True, text=True, timeout=120,
    )
    return target
