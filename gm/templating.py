"""The one jinja2 environment of gm: every template of gm and of every game, read from the
installed packages through :mod:`importlib.resources` (a wheel carries them; no checkout needed).

Template names say whose template it is:

- ``gm/<path>``: gm's own, in the ``prompts/`` folder of the gm package (the referee prompts
  and the default rules summary);
- ``games/<game id>/<path>``: a game's, in the ``templates/`` folder of the package that
  defines the game (:attr:`gm.core.game.Game.package`), whichever distribution installed it.

Inside a template, a name without one of these prefixes is relative to the template's own
folder (``{% import "_macros.md.j2" as m %}`` in a game's template is that game's macros).

Every template gets the filters ``signed`` (``+4``/``-2``), ``ordinal`` (``1st``),
``join_and``, ``cell`` (safe in a markdown table cell) and ``natural`` (``H8`` before ``H11``),
and in a game's templates ``ids(...)`` (rule ids as inline code; an id the game does not
define is a render error, so a template cannot cite a rule that does not exist).

A template that is not there is a :class:`TemplateError` naming the game, the file and the
package folder it was looked for in; nothing falls back silently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

import jinja2

from gm.core.errors import GameError
from gm.core.wording import ordinal

if TYPE_CHECKING:
    from gm.core.game import Game

#: prefix of gm's own templates, and the folder of the gm package that holds them
OWN = "gm"
OWN_FOLDER = "prompts"
#: prefix of the games' templates, and the folder of a game's package that holds them
GAMES = "games"
GAME_FOLDER = "templates"
TEMPLATE_RULE = "CORE-TEMPLATE"


class TemplateError(GameError):
    """A template is missing or does not render."""

    kind = "template_error"


# ------------------------------------------------------------------ names
def own_name(path: str) -> str:
    """The environment's name of gm's own template ``path`` (``gm/referee_system.md.j2``)."""
    return f"{OWN}/{path}"


def game_name(game: Game, path: str) -> str:
    """The environment's name of ``game``'s template ``path`` (``games/grid-football/rules.md.j2``)."""
    return f"{GAMES}/{game.id}/{path}"


def own_folder() -> Traversable:
    """gm's own template folder (``gm/prompts``)."""
    return resources.files("gm").joinpath(OWN_FOLDER)


def game_folder(game: Game) -> Traversable:
    """``game``'s template folder: ``templates/`` of the package that defines it."""
    try:
        root = resources.files(game.package)
    except (ModuleNotFoundError, TypeError, ValueError) as exc:
        raise TemplateError(
            f"the package {game.package!r} of game {game.id} cannot be read: {exc}", rule=TEMPLATE_RULE, input=game.id
        ) from None
    return root.joinpath(GAME_FOLDER)


def game_templates(game: Game) -> list[str]:
    """The file names in ``game``'s template folder (sorted; empty when it has none)."""
    folder = game_folder(game)
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if p.is_file() and p.name.endswith(".j2"))


def has_game_template(game: Game, path: str) -> bool:
    """Whether ``game`` ships the template ``path``."""
    return _resource(game_folder(game), path).is_file()


def _resource(folder: Traversable, path: str) -> Traversable:
    parts = [p for p in path.split("/") if p]
    if not parts or any(p in (".", "..") for p in parts):
        return folder.joinpath("..", "no such template")  # never a file
    return folder.joinpath(*parts)


def _game_of(name: str) -> Game:
    """The game whose template ``name`` (``games/<id>/...``) is."""
    from gm.core.registry import find_game

    prefix, _, rest = name.partition("/")
    gid = rest.partition("/")[0]
    if prefix != GAMES or not gid:
        raise TemplateError("not a game's template", rule=TEMPLATE_RULE, input=name)
    return find_game(gid)


# ----------------------------------------------------------------- loader
class ResourceLoader(jinja2.BaseLoader):
    """Loads ``gm/<path>`` from gm's package and ``games/<id>/<path>`` from the game's package."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str | None, Any]:
        prefix, _, rest = template.partition("/")
        if prefix == OWN:
            where, path = own_folder(), rest
        elif prefix == GAMES:
            where, path = game_folder(_game_of(template)), rest.partition("/")[2]
        else:
            raise jinja2.TemplateNotFound(template)
        res = _resource(where, path)
        if not res.is_file():
            raise jinja2.TemplateNotFound(template)
        source = res.read_text(encoding="utf-8")
        filename = str(res) if not str(res).startswith("<") else None
        return source, filename, lambda: True

    def list_templates(self) -> list[str]:
        """gm's own templates and those of every game that loads."""
        from gm.core.registry import all_games

        out = [own_name(p) for p in _walk(own_folder())]
        for game in all_games():
            out.extend(game_name(game, p) for p in _walk(game_folder(game)))
        return sorted(out)


def _walk(folder: Traversable, prefix: str = "") -> Iterable[str]:
    if not folder.is_dir():
        return
    for p in folder.iterdir():
        if p.is_dir():
            yield from _walk(p, f"{prefix}{p.name}/")
        elif p.name.endswith(".j2"):
            yield f"{prefix}{p.name}"


class _Environment(jinja2.Environment):
    def join_path(self, template: str, parent: str) -> str:
        """A name without a ``gm/`` or ``games/`` prefix is relative to its parent's folder."""
        if template.partition("/")[0] in (OWN, GAMES):
            return template
        folder = parent.rpartition("/")[0]
        return f"{folder}/{template}" if folder else template


# ---------------------------------------------------------------- filters
def _signed(n: int) -> str:
    return f"{n:+d}"


def join_and(items: Iterable[Any], word: str = "and") -> str:
    """``a, b and c`` (``word``: another joining word, e.g. ``or``; the ``join_and`` filter; games' texts use it too)."""
    xs = [str(x) for x in items]
    if len(xs) <= 1:
        return "".join(xs)
    return f"{', '.join(xs[:-1])} {word} {xs[-1]}"


def _cell(text: Any) -> str:
    """Text made safe for a markdown table cell."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _natural(items: Iterable[Any]) -> list[Any]:
    """Sorted with digit runs compared as numbers (``H8`` before ``H11``)."""

    def key(x: Any) -> list[Any]:
        return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(x))]

    return sorted(items, key=key)


@jinja2.pass_context
def _ids(context: jinja2.runtime.Context, *rule_ids: str) -> str:
    """Rule ids of the template's game as inline code; an unknown id is an error."""
    index = _game_of(context.name or "").rules_index
    for rid in rule_ids:
        if rid not in index:
            raise TemplateError("a template cites a rule id the game does not define", rule=TEMPLATE_RULE, input=rid)
    return ", ".join(f"`{rid}`" for rid in rule_ids)


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The environment (created once; compiled templates are cached in it)."""
    env = _Environment(
        loader=ResourceLoader(),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        auto_reload=False,
    )
    env.filters.update(signed=_signed, ordinal=ordinal, join_and=join_and, cell=_cell, natural=_natural)
    env.globals.update(ids=_ids)
    return env


# ---------------------------------------------------------------- render
def template(name: str) -> jinja2.Template:
    """The template ``name`` (``gm/...`` or ``games/<id>/...``); :class:`TemplateError` if missing."""
    try:
        return environment().get_template(name)
    except jinja2.TemplateNotFound as exc:
        raise _missing(str(exc.name) if isinstance(exc.name, str) else name) from None
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"template syntax error at line {exc.lineno}: {exc.message}", rule=TEMPLATE_RULE, input=name) from None


def render(name: str, context: Mapping[str, Any]) -> str:
    """Render the template ``name`` with ``context``; every failure is a :class:`TemplateError`
    (or the :class:`GameError` a template function raised)."""
    tpl = template(name)
    try:
        return tpl.render(context)
    except GameError:
        raise
    except jinja2.TemplateNotFound as exc:
        raise _missing(str(exc.name) if isinstance(exc.name, str) else name) from None
    except jinja2.TemplateError as exc:
        raise TemplateError(f"template error in {name}: {exc}", rule=TEMPLATE_RULE, input=name) from None


def _missing(name: str) -> TemplateError:
    prefix, _, rest = name.partition("/")
    if prefix == GAMES:
        gid, _, path = rest.partition("/")
        game = _game_of(name)
        have = ", ".join(game_templates(game)) or "none"
        return TemplateError(
            f"game {gid} has no template {path!r} (looked in the {GAME_FOLDER}/ folder of package "
            f"{game.package}; it has: {have})",
            rule=TEMPLATE_RULE,
            input=name,
        )
    if prefix == OWN:
        return TemplateError(
            f"gm's template {rest!r} is missing from the {OWN_FOLDER}/ folder of the gm package (a broken install?)",
            rule=TEMPLATE_RULE,
            input=name,
        )
    return TemplateError(f"no template {name!r}: names start with {OWN}/ or {GAMES}/<game id>/", rule=TEMPLATE_RULE, input=name)


__all__ = [
    "TemplateError",
    "environment",
    "game_folder",
    "game_name",
    "game_templates",
    "has_game_template",
    "join_and",
    "ordinal",
    "own_folder",
    "own_name",
    "render",
    "template",
]
