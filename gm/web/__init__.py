"""The browser page of ``gm serve`` (docs/page.md): static files (plain ES modules, no build step,
nothing from a CDN; ``board.js`` and ``builder.js`` also serve the MCP App view) and the routes only
the page needs (:mod:`gm.web.routes`): the table of a game in one answer - board, move builder, story
(:mod:`gm.web.table`) - for a page load, a move built by pointing and words for a referee; a
ruleset's form; the recorded-game viewer (:mod:`gm.web.replay`)."""

from importlib.resources import files
from pathlib import Path

#: the page's files, inside the package (a wheel install serves them as a checkout does)
STATIC = Path(str(files(__name__) / "static"))

__all__ = ["STATIC"]
