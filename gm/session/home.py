"""Where gm keeps its files: the home (``$GM_HOME`` or ``~/.gm``) and its sessions folder (its own
module, so the key (:mod:`gm.session.keys`) and the stores (:mod:`gm.session.store`), which uses the
key, both find them without importing each other)."""

from __future__ import annotations

import os
from pathlib import Path


def default_home() -> Path:
    """``$GM_HOME`` or ``~/.gm``."""
    env = os.environ.get("GM_HOME")
    return Path(env).expanduser() if env else Path.home() / ".gm"


def sessions_dir(home: str | Path | None = None) -> Path:
    return (Path(home).expanduser() if home is not None else default_home()) / "sessions"
