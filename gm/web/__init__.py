"""The browser page of ``gm serve``: static files (plain ES modules, no build step, nothing from a CDN)
and the few routes only the page needs (:mod:`gm.web.routes`): the board as drawable geometry, the
player's words to the offline referee, a ruleset's form, and the transcript viewer."""

from pathlib import Path

STATIC = Path(__file__).parent / "static"

__all__ = ["STATIC"]
