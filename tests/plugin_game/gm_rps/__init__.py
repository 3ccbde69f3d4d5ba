"""Rock-paper-scissors, best of N: a tiny game with a secret simultaneous choice.

It lives in a package of its own and is written only against gm's public API (``gm.core``);
gm finds it through the ``gm.games`` entry point of this package's ``pyproject.toml``.  Its
export templates and rules summary are in ``templates/`` next to this file.
"""

from __future__ import annotations

from gm_rps.game import GAME, RockPaperScissors, RpsRules, RpsState, Throw

__all__ = ["GAME", "RockPaperScissors", "RpsRules", "RpsState", "Throw"]
