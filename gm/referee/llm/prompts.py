"""The LLM referee's prompts: jinja2 templates rendered from the session's ruleset.

- ``gm/prompts/referee_system.md.j2`` – the system prompt (role, tool discipline,
  hidden information, reply style) with the rules summary inside;
- ``gm/prompts/text_tools.md.j2`` – for a server that takes no tool definitions: the
  tools listed in the prompt and gm's JSON-only call protocol (:func:`text_tools_prompt`);
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
    from collections.abc import Iterable

    from gm.core.game import Game
    from gm.core.tools import ToolSpec
    from gm.session import Session

SYSTEM_TEMPLATE = "referee_system.md.j2"
TEXT_TOOLS_TEMPLATE = "text_tools.md.j2"
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


def _type(schema: dict[str, Any]) -> str:
    options = schema.get("anyOf") or [schema]
    parts = []
    for o in options:
        if "enum" in o:
            parts.append("|".join(str(v) for v in o["enum"]))
        elif o.get("type") == "integer" and "minimum" in o and "maximum" in o:
            parts.append(f"integer {o['minimum']}-{o['maximum']}")
        else:
            parts.append(str(o.get("type", "any")))
    return "|".join(parts)


def tool_params(tool: ToolSpec) -> str:
    """A tool's arguments in one line: ``play* integer 1-9, colour* red|black, lateral integer 0-10|null``."""
    from gm.core.schemas import json_schema

    schema = json_schema(tool)
    required = set(schema.get("required") or [])
    return ", ".join(
        f"{name}{'*' if name in required else ''} {_type(prop)}" for name, prop in (schema.get("properties") or {}).items()
    )


def text_tools_prompt(tools: Iterable[ToolSpec]) -> str:
    """The instruction added to the system prompt when the server takes no tools: every tool
    with its arguments, and how to call one in JSON (the engine still checks every call)."""
    listed = [{"name": t.name, "description": t.description, "params": tool_params(t)} for t in tools]
    return templating.render(templating.own_name(TEXT_TOOLS_TEMPLATE), {"tools": listed}).strip()
