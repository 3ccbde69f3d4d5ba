"""The ``referee`` prompt of ``gm mcp``: gm's ``prompts/mcp_referee.md.j2`` with the game's rules summary.

The rules summary is the LLM referee's (:func:`gm.referee.llm.prompts.rules_summary`, every
number from the ruleset), so both referees quote the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.tools import ToolSpec

TEMPLATE = "mcp_referee.md.j2"


def referee_prompt(
    game: Game,
    rules: Any,
    seat: str,
    players: Mapping[str, str],
    *,
    session_id: str | None,
    tools: Sequence[ToolSpec],
) -> str:
    """The referee prompt for a client playing ``seat`` (of session ``session_id``, or of a game to start)."""
    from gm import templating
    from gm.referee.llm.prompts import context, rules_summary

    ctx = context(game, rules, seat, dict(players))
    ctx.update(
        session_id=session_id,
        action_tools=[t.name for t in tools if t.kind == "action"],
        query_tools=[t.name for t in tools if t.kind == "query"],
        rules_summary=rules_summary(game, rules, seat, dict(players)),
    )
    return templating.render(templating.own_name(TEMPLATE), ctx).strip() + "\n"
