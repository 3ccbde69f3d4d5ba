"""The LLM referee's prompts: jinja2 templates rendered from the session's ruleset.

- ``gm/prompts/referee_system.md.j2`` – the system prompt (role, tool discipline,
  hidden information, reply style) with the rules summary inside;
- the rules summary the referee may quote, every number taken from the session's
  ruleset so custom rules reach the model: the game's own ``templates/prompts/rules_summary.md.j2``
  (in the game's package), or, for a game that ships none, gm's
  ``prompts/rules_summary.md.j2`` (rule ids and titles, to a budget).

Templates get ``game``, ``seat``, ``others`` (``"away (bot:default)"``), ``r`` /
``rules`` (the ruleset), ``changed`` (fields that differ from the defaults),
``rules_index``, ``last_col`` (the last column letter, when the ruleset has
``columns``) and ``budget`` (characters for the default summary).  All of them load
through the one environment of :mod:`gm.templating`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm import templating

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.session import Session

SYSTEM_TEMPLATE = "referee_system.md.j2"
SUMMARY_TEMPLATE = "rules_summary.md.j2"
#: where a game keeps its own rules summary in its templates folder
GAME_SUMMARY_TEMPLATE = "prompts/rules_summary.md.j2"
DEFAULT_SUMMARY_BUDGET = 1800


def _changed(game: Game, rules: Any) -> list[str]:
    try:
        defaults = game.default_rules().model_dump(mode="json")
        now = rules.model_dump(mode="json")
    except Exception:
        return []
    return [k for k in now if now.get(k) != defaults.get(k)]


def context(game: Game, rules: Any, seat: str, players: dict[str, str]) -> dict[str, Any]:
    cols = getattr(rules, "columns", None)
    return {
        "game": game,
        "seat": seat,
        "others": [f"{s} ({players.get(s, 'human')})" for s in game.seats if s != seat],
        "r": rules,
        "rules": rules,
        "changed": _changed(game, rules),
        "rules_index": dict(game.rules_index),
        "last_col": chr(ord("A") + cols - 1) if isinstance(cols, int) else "?",
        "budget": DEFAULT_SUMMARY_BUDGET,
    }


def summary_template(game: Game) -> str:
    """The name of ``game``'s rules-summary template: its own, or gm's default for a game without one."""
    if templating.has_game_template(game, GAME_SUMMARY_TEMPLATE):
        return templating.game_name(game, GAME_SUMMARY_TEMPLATE)
    return templating.own_name(SUMMARY_TEMPLATE)


def rules_summary(game: Game, rules: Any, seat: str, players: dict[str, str]) -> str:
    """The rules summary for ``game`` under ``rules`` (the game's own template, or the default)."""
    return templating.render(summary_template(game), context(game, rules, seat, players)).strip()


def system_prompt(game: Game, rules: Any, seat: str, players: dict[str, str]) -> str:
    """The referee's system prompt for ``seat``."""
    ctx = context(game, rules, seat, players)
    ctx["rules_summary"] = rules_summary(game, rules, seat, players)
    return templating.render(templating.own_name(SYSTEM_TEMPLATE), ctx).strip()


def session_system_prompt(session: Session, seat: str) -> str:
    return system_prompt(session.game, session.state.rules, seat, dict(session.players))
