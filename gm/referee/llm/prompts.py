"""The LLM referee's prompts: jinja2 templates in ``prompts/`` rendered from the ruleset.

- ``prompts/referee_system.md.j2`` – the system prompt (role, tool discipline,
  hidden information, reply style) with the rules summary inside;
- ``prompts/rules_summary/<game slug>.md.j2`` – the rules summary the referee may
  quote, every number taken from the session's ruleset so custom rules reach the
  model; games without one get ``default.md.j2`` (rule ids and titles, to a budget).

Templates get ``game``, ``seat``, ``others`` (``"away (bot:default)"``), ``r`` /
``rules`` (the ruleset), ``changed`` (fields that differ from the defaults),
``rules_index``, ``last_col`` (the last column letter, when the ruleset has
``columns``) and ``budget`` (characters for the default summary).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.session import Session

SYSTEM_TEMPLATE = "referee_system.md.j2"
DEFAULT_SUMMARY_BUDGET = 1800


def prompts_dir() -> Path:
    """The ``prompts/`` folder of this checkout."""
    return Path(__file__).resolve().parents[3] / "prompts"


@lru_cache(maxsize=4)
def _env(folder: str) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        autoescape=False,
    )


def _slug(game: Game) -> str:
    return game.id.replace("-", "_")


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


def rules_summary(game: Game, rules: Any, seat: str, players: dict[str, str], folder: Path | None = None) -> str:
    """The rules summary for ``game`` under ``rules`` (the game's own template, or the default)."""
    env = _env(str(folder or prompts_dir()))
    name = f"rules_summary/{_slug(game)}.md.j2"
    try:
        template = env.get_template(name)
    except jinja2.TemplateNotFound:
        template = env.get_template("rules_summary/default.md.j2")
    return template.render(**context(game, rules, seat, players)).strip()


def system_prompt(game: Game, rules: Any, seat: str, players: dict[str, str], folder: Path | None = None) -> str:
    """The referee's system prompt for ``seat``."""
    env = _env(str(folder or prompts_dir()))
    ctx = context(game, rules, seat, players)
    ctx["rules_summary"] = rules_summary(game, rules, seat, players, folder)
    return env.get_template(SYSTEM_TEMPLATE).render(**ctx).strip()


def session_system_prompt(session: Session, seat: str) -> str:
    return system_prompt(session.game, session.state.rules, seat, dict(session.players))
