"""brawl: an American-football deckbuilder (``shared/seeds/003``).

Eleven players a side play Strength, Agility and Focus cards secretly into a 4x3 grid
of zones; the offense gains yards by winning a connected chain of zones from the X.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from gm.core.chance import Chance
from gm.core.game import Game
from gm.core.tools import ToolSpec
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.ruleids import RULE_WORDS, RULES, rules_text
from gm.games.brawl.rules import BrawlRules


# alike on purpose: every game declares itself in this shape (ids, seats, rules, state, examples); the
# values are each game's own
class Brawl(Game[BrawlRules, BrawlState]):
    """brawl (``shared/seeds/003``), with the rulings of ``rules_md/brawl.md``."""

    id = "brawl"
    name = "brawl"
    aliases = ("brawl-football", "deckbuilder")
    seats = ("home", "away")
    simultaneous = True  # secret picks revealed together
    rules_model = BrawlRules
    state_class = BrawlState
    rules_index = RULES
    #: what the referee\'s rules summary must hold: scoring, the end of a down or half, passing and tackling
    summary_rules = ("BR-PLACE", "BR-WIN-ZONE", "BR-ADJ", "BR-YARDS", "BR-COMPLETION", "BR-INTERCEPTION", "BR-FUMBLE", "BR-SACK", "BR-FIRST-DOWN", "BR-TD", "BR-FOURTH", "BR-R-WIN")
    rule_words = RULE_WORDS
    tagline = "Each side plays one card from every player into the zones of a 4 x 3 field; totals decide the yards."
    move_examples = (
        "QB F3 MM, RB S2 SM, WR1 A1-4 DL, ... (one card and zone per player)",
        "QB plays focus 3 in the middle of the midfield; RB strength 2 to the line middle; ...",
        "QB:F3@MM RB:S2@SM WR1:A1-4@DL ...",
        "punt",
        "field goal",
        "go for it",
    )

    sim_headlines: ClassVar[Mapping[str, str]] = {"touchdown": "touchdowns", "field_goal": "field goals", "first_down": "first downs", "punt": "punts", "sack": "sacks"}

    def new_state(self, rules: BrawlRules | Mapping[str, Any] | None = None, seed: int = 0, chance: Chance | str | None = None) -> BrawlState:
        return BrawlState(self._default_rules() if rules is None else self.load_rules(rules), seed, chance)

    @cache  # noqa: B019 - one game object per process; the ruleset is frozen
    def _default_rules(self) -> BrawlRules:
        """The default ruleset, validated once (a fresh game need not validate it again)."""
        rules: BrawlRules = self.load_rules(None)
        return rules

    def action_tools(self, rules: BrawlRules | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        from gm.games.brawl.tools import brawl_tools

        return brawl_tools(self.load_rules(rules))

    def rules_text(self, rules: BrawlRules | Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """Every rule id with its rule as ``rules`` has it (the ruleset's numbers, rosters and choices)."""
        return rules_text(self.load_rules(rules))


GAME = Brawl()
BrawlState.bind(GAME)

__all__ = ["GAME", "Brawl", "BrawlRules", "BrawlState"]
