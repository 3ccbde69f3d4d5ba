"""Rendering of a game's export templates (jinja2 markdown) and the download bundle.

Templates live in ``rules_md/templates/<game slug>/<doc>.md.j2`` (slug: the game id
with ``-`` as ``_``).  Every template gets:

- ``game`` (the :class:`Game`), ``r`` / ``rules`` (the ruleset), ``defaults`` (the
  default ruleset), ``changed`` (names of the fields that differ from it) and
  ``ruleset_fields`` (name, value, description, changed of every field);
- ``rules_index`` (rule id -> title) and ``rulings`` (the ``-R-`` ids among them);
- filters ``signed`` (``+4``/``-2``), ``ordinal`` (``1st``), ``join_and`` and ``ids``
  (rule ids as inline code; an id the game does not know is a render error, so a
  template cannot cite a rule that does not exist);
- whatever :meth:`Game.export_context` adds (worked examples computed by the engine);
- for the ``session`` document also ``state`` (settled: no unrevealed secret picks),
  ``view`` (the spectator view), ``board`` (full ASCII board), ``status``, ``log``,
  ``token`` and ``dropped`` (how many unrevealed picks were left out).
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2

from gm.core.errors import GameError

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.state import GameState

#: the documents every game exports, in bundle order
DOCS = ("quickstart", "rules", "session", "glossary")
#: file names inside a bundle (as in the original download)
BUNDLE_FILES = {
    "quickstart": "quick_start_new_chat.md",
    "rules": "rules.md",
    "session": "session_template.md",
    "glossary": "glossary.md",
}


class ExportError(GameError):
    """A document cannot be exported (no templates for the game, a template error)."""

    kind = "export_error"


def rules_md_dir() -> Path:
    """The ``rules_md/`` folder of this checkout."""
    return Path(__file__).resolve().parents[2] / "rules_md"


def slug(game: Game) -> str:
    return game.id.replace("-", "_")


def template_dir(game: Game) -> Path:
    return rules_md_dir() / "templates" / slug(game)


def rules_md_path(game: Game) -> Path:
    """Where the rendered default rules of ``game`` are committed (``rules_md/<slug>.md``)."""
    return rules_md_dir() / f"{slug(game)}.md"


# ------------------------------------------------------------------ filters
def _signed(n: int) -> str:
    return f"{n:+d}"


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def _join_and(items: Iterable[Any], word: str = "and") -> str:
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


_ENVS: dict[tuple[str, str], jinja2.Environment] = {}


def _env(game: Game) -> jinja2.Environment:
    """The jinja2 environment of ``game``'s templates (cached: compiling them is the slow part)."""
    folder = template_dir(game)
    key = (game.id, str(folder))
    if key in _ENVS:
        return _ENVS[key]
    if not folder.is_dir():
        raise ExportError("this game has no export templates", rule="CORE-EXPORT", input=game.id, legal=_games_with_templates())
    env = _ENVS[key] = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    index = dict(game.rules_index)

    def ids(*rule_ids: str) -> str:
        for rid in rule_ids:
            if rid not in index:
                raise ExportError("a template cites a rule id the game does not define", rule="CORE-EXPORT", input=rid)
        return ", ".join(f"`{rid}`" for rid in rule_ids)

    env.filters.update(signed=_signed, ordinal=_ordinal, join_and=_join_and, cell=_cell, natural=_natural)
    env.globals.update(ids=ids)
    return env


def _games_with_templates() -> list[str]:
    root = rules_md_dir() / "templates"
    return sorted(p.name.replace("_", "-") for p in root.iterdir() if p.is_dir()) if root.is_dir() else []


def _tidy(text: str) -> str:
    """No trailing spaces, at most one blank line in a row, one final newline."""
    lines = [ln.rstrip() for ln in text.splitlines()]
    out: list[str] = []
    for ln in lines:
        if ln == "" and (not out or out[-1] == ""):
            continue
        out.append(ln)
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out) + "\n"


def _context(game: Game, rules: Any) -> dict[str, Any]:
    from gm import __version__

    defaults = game.default_rules()
    index = dict(game.rules_index)
    changed: list[str] = []
    mine: dict[str, Any] = {}
    if hasattr(rules, "model_dump"):
        mine, base = rules.model_dump(mode="json"), defaults.model_dump(mode="json")
        changed = [k for k in mine if mine[k] != base.get(k)]
    fields: list[dict[str, Any]] = []
    if hasattr(rules, "model_dump"):
        for name, info in type(rules).model_fields.items():
            value = mine[name]
            shown = value if isinstance(value, str) else json.dumps(value, separators=(", ", ": "))
            fields.append({"name": name, "value": shown, "description": info.description or "", "changed": name in changed})
    return {
        "game": game,
        "r": rules,
        "ruleset_fields": fields,
        "rules": rules,
        "defaults": defaults,
        "changed": changed,
        "rules_index": index,
        "rulings": {k: v for k, v in index.items() if "-R-" in k},
        "gm_version": __version__,
    }


def _session_context(game: Game, state: GameState[Any]) -> dict[str, Any]:
    from gm.core.token import encode_state, settled

    public, dropped = settled(state)
    return {
        "state": public,
        "view": public.view(None),
        "board": game.render(public, None, full=True),
        "status": game.status(public, None),
        "log": [f"{m.seat}: {m.action}" for m in public.log],
        "token": encode_state(public),
        "dropped": dropped,
    }


def render_doc(
    game: Game,
    doc: str,
    rules: Any = None,
    state: GameState[Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> str:
    """Render one document (``quickstart``, ``rules``, ``glossary`` or ``session``).

    ``rules`` defaults to the state's ruleset, else the game's defaults; ``session``
    shows ``state`` (a fresh game when ``None``).
    """
    if doc not in DOCS:
        raise ExportError("unknown document", rule="CORE-EXPORT", input=doc, legal=DOCS)
    if rules is None:
        rules = state.rules if state is not None else game.default_rules()
    rules = game.load_rules(rules)
    env = _env(game)
    ctx = _context(game, rules)
    ctx.update(game.export_context(rules))
    if doc == "session":
        ctx.update(_session_context(game, state if state is not None else game.new_state(rules, 0)))
    ctx.update(extra or {})
    try:
        text = env.get_template(f"{doc}.md.j2").render(ctx)
    except jinja2.TemplateNotFound as exc:
        raise ExportError(f"template {exc.name} is missing", rule="CORE-EXPORT", input=game.id) from None
    except jinja2.TemplateError as exc:
        raise ExportError(f"template error in {doc}: {exc}", rule="CORE-EXPORT", input=game.id) from None
    return _tidy(text)


def render_all(
    game: Game, rules: Any = None, state: GameState[Any] | None = None, extra: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """Every document of the bundle by bundle file name."""
    return {BUNDLE_FILES[d]: render_doc(game, d, rules, state, extra) for d in DOCS}


def write_bundle(
    game: Game,
    dest: str | Path,
    rules: Any = None,
    state: GameState[Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> list[str]:
    """Write every document into the folder ``dest`` (created), or into a zip file when
    ``dest`` ends with ``.zip``.  Returns the file names written."""
    files = render_all(game, rules, state, extra)
    path = Path(dest)
    if path.suffix.lower() == ".zip":
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            top = re.sub(r"\.zip$", "", path.name, flags=re.IGNORECASE)
            for name, text in files.items():
                zf.writestr(f"{top}/{name}", text)
        path.write_bytes(buf.getvalue())
    else:
        path.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (path / name).write_text(text, encoding="utf-8")
    return list(files)
