"""Quarter Back: Singles, Doubles, Triples and a Quarterback on a grid (``shared/seeds/001``)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from gm.core.chance import Chance
from gm.core.game import Game
from gm.core.tools import ToolSpec
from gm.games.quarterback.engine import QuarterbackState
from gm.games.quarterback.ruleids import RULE_WORDS, RULES, rule_texts
from gm.games.quarterback.rules import QuarterbackRules


@cache
def _default_rules() -> QuarterbackRules:
    return QuarterbackRules()


# alike on purpose: every game declares itself in this shape (ids, seats, rules, state, examples); the
# values are each game's own
class Quarterback(Game[QuarterbackRules, QuarterbackState]):
    """Quarter Back (rules document ``shared/seeds/001``; rulings in ``rules_md/quarterback.md``)."""

    id = "quarterback"
    name = "Quarter Back"
    aliases = ("qb", "quarter-back")
    seats = ("red", "blue")
    rules_model = QuarterbackRules
    state_class = QuarterbackState
    rules_index = RULES
    tagline = "A quarterback and his pieces run, push and pass against a defence on a 9-column field."
    #: what the referee\'s rules summary must hold: scoring, the end of a down or half, passing and tackling
    summary_rules = ("QB-SCORE", "QB-WIN", "QB-HALVES", "QB-R-WHISTLE", "QB-TURN", "QB-R-DEFENSE-TURN", "QB-TACKLE", "QB-TACKLE-SINGLE", "QB-R-TACKLE-PAIRS", "QB-PASS", "QB-PASS-FORWARD", "QB-PASS-LINE", "QB-PASS-LOOSE", "QB-INTERCEPT", "QB-OFFSIDE-TRIPLE", "QB-OFFSIDE-LINE")
    move_examples = (
        "move T1 C3-C5", "T1 from C3 to C5", "move the quarterback to E1", "D1 to D2 via C1", "S2 forward",
        "T1 2 forward 1 left", "pass to E7", "throw to E7", "end", "I'm done",
    )  # fmt: skip
    rule_words = RULE_WORDS

    sim_headlines: ClassVar[Mapping[str, str]] = {"score": "scores", "tackle": "tackles"}
    cap_rules: ClassVar[frozenset[str]] = frozenset({"QB-R-WHISTLE"})

    def rules_text(self, rules: QuarterbackRules | Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """Every rule as ``rules`` has it (its numbers, board and set-up); the defaults are :data:`RULES`."""
        return RULES if rules is None else rule_texts(self.load_rules(rules))

    def new_state(self, rules: QuarterbackRules | Mapping[str, Any] | None = None, seed: int = 0, chance: Chance | str | None = None) -> QuarterbackState:
        # the default ruleset validated once (rulesets are frozen), not for every match
        return QuarterbackState(_default_rules() if rules is None else self.load_rules(rules), seed, chance)

    def action_tools(self, rules: QuarterbackRules | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        from gm.games.quarterback.tools import action_tools

        return action_tools(self.load_rules(rules))


GAME = Quarterback()
QuarterbackState.bind(GAME)

__all__ = ["GAME", "Quarterback", "QuarterbackRules", "QuarterbackState"]
