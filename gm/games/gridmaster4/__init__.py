"""GridMaster4: four players build chains of numbered tiles on a 20x20 grid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gm.core.game import Game
from gm.core.tools import ToolSpec
from gm.games.gridmaster4.actions import Place
from gm.games.gridmaster4.engine import GridMaster4State
from gm.games.gridmaster4.ruleids import RULES
from gm.games.gridmaster4.rules import SEATS, GridMaster4Rules


# alike on purpose: every game declares itself in this shape (ids, seats, rules, state, examples); the
# values are each game's own
class GridMaster4(Game[GridMaster4Rules, GridMaster4State]):
    """GridMaster4 (rules document ``shared/seeds/002``); rulings in ``rules_md/gridmaster4.md``."""

    id = "gridmaster4"
    name = "GridMaster4"
    aliases = ("gm4", "gridmaster", "grid-master", "grid-master-4", "the-grid-master")
    seats = SEATS
    rules_model = GridMaster4Rules
    state_class = GridMaster4State
    rules_index = RULES
    tagline = "Two to four players place numbered tiles, each 3 cells straight or 2 diagonally from one of their active tiles."
    #: what the referee\'s rules summary must hold: scoring, the end of a down or half, passing and tackling
    summary_rules = ("GM4-FIRST", "GM4-NEXT", "GM4-MOVE", "GM4-R-OWN-TILES", "GM4-DEACTIVATE", "GM4-SCORE", "GM4-BLOCKED", "GM4-FREE", "GM4-WIN-TILE", "GM4-WIN-BLOCKED")
    move_examples = ("place 37 at K12", "place K12", "K12", "tile on k12", "row 12 column K")

    sim_headlines: ClassVar[Mapping[str, str]] = {"blocked": "players blocked", "deactivated": "tiles deactivated", "free_round": "free rounds"}
    # alike on purpose: every game has a table of this shape (a player's word -> the rule ids it means, read by
    # Game.rule_words and the rules lookup); the words and the rules are each game's own
    #: the words players use for GridMaster4's rules (``rules jump``, ``rules chain``), with the rules they mean
    rule_words: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "jump": ("GM4-MOVE", "GM4-R-REACH"),
        "jumps": ("GM4-MOVE", "GM4-R-REACH"),
        "chain": ("GM4-NEXT", "GM4-MOVE", "GM4-R-OWN-TILES"),
        "chains": ("GM4-NEXT", "GM4-MOVE", "GM4-R-OWN-TILES"),
        "reach": ("GM4-MOVE", "GM4-R-REACH"),
        "diagonal": ("GM4-MOVE", "GM4-R-REACH"),
        "stuck": ("GM4-BLOCKED", "GM4-R-BLOCK-CHECK"),
        "muted": ("GM4-ACTIVE", "GM4-DEACTIVATE", "GM4-R-INACTIVE-SHOW"),
        "win": ("GM4-WIN-TILE", "GM4-WIN-BLOCKED", "GM4-R-TIE"),
        "winning": ("GM4-WIN-TILE", "GM4-WIN-BLOCKED", "GM4-R-TIE"),
        "free": ("GM4-FREE", "GM4-R-FREE-ORDER", "GM4-R-FREE-TILE"),
        "pass": ("GM4-R-NO-PASS",),
    }

    def action_tools(self, rules: GridMaster4Rules | Mapping[str, Any] | None = None) -> list[ToolSpec]:
        from gm.games.gridmaster4.tools import gridmaster4_tools

        return gridmaster4_tools(self.load_rules(rules))


GAME = GridMaster4()
GridMaster4State.bind(GAME)

__all__ = ["GAME", "GridMaster4", "GridMaster4Rules", "GridMaster4State", "Place"]
