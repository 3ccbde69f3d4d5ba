"""The Chess-Football Hybrid: chess-like pieces on a 48 x 16 football field (``shared/seeds/004``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gm.core.game import Game
from gm.core.tools import ToolSpec
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.ruleids import RULE_WORDS, RULES, rules_text
from gm.games.chess_football.rules import ChessFootballRules

#: the reaction-turn tools a language model reaches through ``turn_action``
TURN_TOOLS = ("move_piece", "use_ability", "pass_ball", "play_action", "choose_ball_holder", "end_turn")
TURN_ACTION = (
    "Reaction turn: one piece action as legal_actions and piece_options write it: 'FA1 to C14 NW' (a move; add "
    "'rush' or 'route'), 'HV1 push HV3', 'SF react', 'QB pass to FA1', 'play action FA2' then 'ball QB' (who "
    "secretly holds it), or 'done' (end your side's part of the turn)."
)


# alike on purpose: every game declares itself in this shape (ids, seats, rules, state, examples); the
# values are each game's own
class ChessFootball(Game[ChessFootballRules, ChessFootballState]):
    """Chess-Football Hybrid, official rules v2.0."""

    id = "chess-football"
    name = "Chess-Football Hybrid"
    aliases = ("cf", "chessfootball", "chess-football-hybrid")
    seats = ("home", "away")
    simultaneous = True  # secret picks revealed together
    rules_model = ChessFootballRules
    state_class = ChessFootballState
    rules_index = RULES
    tagline = "Chess-like pieces with abilities, secret snap plans and reaction turns on a 48-row field."
    #: what the referee\'s rules summary must hold: scoring, the end of a down or half, passing and tackling
    summary_rules = ("CF-SNAP", "CF-REACTION", "CF-TACKLE", "CF-PASS", "CF-PASS-TABLE", "CF-FIRST-DOWN", "CF-FOURTH-DOWN", "CF-TOUCHDOWN", "CF-SAFETY", "CF-R-DOWN-LIMIT", "CF-POSSESSIONS")
    move_examples = (
        "captains deep_threat safety",
        "plan: HV1 push HV3; FA1 to C15 NW; QB pass to FA1",
        "FA1 to H20 NW",
        "HV1 push HV3",
        "QB pass to FA2",
        "play action ST1 ball ST1",
        "done",
    )

    rule_words = RULE_WORDS
    sim_headlines: ClassVar[Mapping[str, str]] = {"touchdown": "touchdowns", "interception": "interceptions", "turnover": "turnovers", "first_down": "first downs", "tackle": "tackles"}
    cap_rules: ClassVar[frozenset[str]] = frozenset({"CF-R-OT-TIE"})  # (a down's whistle, CF-R-DOWN-LIMIT, ends a down, not the game)

    def action_tools(self, rules: ChessFootballRules | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        from gm.games.chess_football.tools import chess_football_tools

        return chess_football_tools(None if rules is None else self.load_rules(rules))

    def model_tools(self, rules: ChessFootballRules | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        """For a language model one ``turn_action`` tool, a reaction-turn move written as text,
        stands in for the six structured reaction-turn tools (their schemas alone would take the
        prompt past its budget); the move is made through the structured tool all the same."""
        from gm.core.tools import text_action_tool

        tools = self.tools(rules)
        at = next(i for i, t in enumerate(tools) if t.name in TURN_TOOLS)
        turn = text_action_tool("turn_action", TURN_ACTION, TURN_TOOLS, ("turn",))
        rest = [t for t in tools if t.name not in TURN_TOOLS]
        return [*rest[:at], turn, *rest[at:]]

    def rules_text(self, rules: ChessFootballRules | Mapping[str, Any] | None = None) -> Mapping[str, str]:
        """Rule id -> its text with the numbers of ``rules`` (default: the default ruleset)."""
        return rules_text(self.load_rules(rules))


GAME = ChessFootball()
ChessFootballState.bind(GAME)

__all__ = ["GAME", "ChessFootball", "ChessFootballRules", "ChessFootballState"]
