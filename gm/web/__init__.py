"""The browser page of ``gm serve``: static files (plain ES modules, no build step, nothing from a CDN)
and the few routes only the page needs (:mod:`gm.web.routes`): the board as drawable geometry, the
player's words to the offline referee, a ruleset's form, and the transcript viewer."""

from importlib.resources import files
from pathlib import Path

#: the page's files, inside the package (a wheel install serves them as a checkout does)
STATIC = Path(str(files(__name__) / "static"))

__all__ = ["STATIC"]
