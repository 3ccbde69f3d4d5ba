"""Turn-Based Grid Football: the flagship game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gm.core.game import Game
from gm.core.tools import ToolSpec
from gm.games.grid_football.engine import GridFootballState
from gm.games.grid_football.ruleids import RULES
from gm.games.grid_football.rules import GridFootballRules
from gm.games.grid_football.rulestext import RULE_WORDS, rules_text


# alike on purpose: every game declares itself in this shape (ids, seats, rules, state, examples); the
# values are each game's own
class GridFootball(Game[GridFootballRules, GridFootballState]):
    """Turn-Based Grid Football (quick-start guide, ``shared/seeds/000``)."""

    id = "grid-football"
    name = "Turn-Based Grid Football"
    default = True  # the flagship: what `gm play` plays when no game is named
    aliases = ("gf", "football", "grid", "gridfootball")
    seats = ("home", "away")
    simultaneous = True  # secret picks revealed together
    rules_model = GridFootballRules
    state_class = GridFootballState
    rules_index = RULES
    tagline = "Two sides call plays in secret and move the ball down a 20 x 64 field of blocked squares."
    #: what the referee\'s rules summary must hold: scoring, the end of a down or half, passing and tackling
    summary_rules = ("GF-LOCK", "GF-MATCH-NONE", "GF-MATCH-PLAY", "GF-MATCH-COLOUR", "GF-MATCH-BOTH", "GF-R-NUMBER", "GF-FIRST-DOWN", "GF-DOWNS", "GF-QUARTERS", "GF-TD", "GF-WIN")
    move_examples = (
        "Play 1, Red, 2 right before", "1 red 2R before", "p3 black", "play 4 pass 1 left after", "left yellow",
        "kick", "receive", "heads", "tails", "7", "punt",
    )  # fmt: skip

    sim_headlines: ClassVar[Mapping[str, str]] = {"touchdown": "touchdowns", "turnover": "turnovers", "first_down": "first downs"}
    cap_rules: ClassVar[frozenset[str]] = frozenset({"GF-R-SCORELESS"})
    rule_words: ClassVar[Mapping[str, tuple[str, ...]]] = RULE_WORDS

    def rules_text(self, rules: GridFootballRules | Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """Every rule id in one line, worded from ``rules`` (a play the ruleset removed is left out)."""
        return rules_text(self.load_rules(rules))

    def action_tools(self, rules: GridFootballRules | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        from gm.games.grid_football.tools import grid_football_tools

        return grid_football_tools(self.load_rules(rules))


GAME = GridFootball()
GridFootballState.bind(GAME)

__all__ = ["GAME", "GridFootball", "GridFootballRules", "GridFootballState"]
