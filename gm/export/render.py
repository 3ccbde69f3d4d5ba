"""Rendering of a game's export templates (jinja2 markdown) and the download bundle.

Templates live in the ``templates/`` folder of the game's package (``<doc>.md.j2``, loaded
through :mod:`gm.templating`, so they come with whatever installed the game).  Every template gets:

- ``game`` (the :class:`Game`), ``r`` / ``rules`` (the ruleset), ``defaults`` (the
  default ruleset), ``changed`` (names of the fields that differ from it) and
  ``ruleset_fields`` (name, value, description, changed of every field);
- ``rules_index`` (rule id -> title) and ``rulings`` (the ``-R-`` ids among them);
- the filters and ``ids(...)`` of :mod:`gm.templating` (rule ids as inline code; an id
  the game does not know is a render error, so a template cannot cite a rule that does
  not exist);
- ``chatlog`` (the game's move-log format, :meth:`Game.chatlog`) and ``chatlog_example``
  (the log lines of its example opening, played by the engine under the ruleset);
- whatever :meth:`Game.export_context` adds (worked examples computed by the engine);
- for the ``session`` document also ``state`` (settled: no unrevealed secret picks),
  ``view`` (the spectator view), ``board`` (full ASCII board), ``status``, ``log``,
  ``token``, ``dropped`` (how many unrevealed picks were left out) and ``move_log`` (the
  chatbot move log of the game so far).
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Mapping
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm import templating
from gm.core.chatlog import example_lines, exchanges
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


def slug(game: Game) -> str:
    return game.id.replace("-", "_")


def template_dir(game: Game) -> Traversable:
    """The folder of ``game``'s templates (``templates/`` of the game's package)."""
    return templating.game_folder(game)


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
    from gm.session.token import PREFIX as TOKEN_PREFIX

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
        "token_prefix": TOKEN_PREFIX,
        "chatlog": game.chatlog(),
        "chatlog_example": example_lines(game, rules),
        "balance": None if changed else balance_study(game),
    }


def balance_study(game: Game) -> dict[str, Any] | None:
    """The game's recorded balance study of its default ruleset (``templates/balance.toml``: ``intro`` and
    the ``found`` items, measured with ``gm balance``), or ``None``; the rules document shows it under
    "Balance" for the default ruleset only (the figures are not the engine's and hold for that ruleset)."""
    import tomllib

    path = template_dir(game) / "balance.toml"
    if not path.is_file():
        return None
    return tomllib.loads(path.read_text(encoding="utf-8"))


def blank_token(game: Game, rules: Any = None) -> str:
    """The token of a game not yet begun (no session behind it): a practice game with seed 0 and the
    ruleset, in the current token format (``gm2``, :func:`gm.session.token.session_token`), so
    ``gm import`` starts it."""
    from gm.session import Session
    from gm.session.token import session_token

    return session_token(Session.create(game, seed=0, rules=rules, persist=False, record=False))


def _session_context(game: Game, state: GameState[Any], *, blank: bool = False) -> dict[str, Any]:
    from gm.core.token import encode_state, settled

    public, dropped = settled(state)
    return {
        "state": public,
        "view": public.view(None),
        "board": game.render(public, None, full=True),
        "status": game.status(public, None),
        "log": [f"{m.seat}: {m.action}" for m in public.log],
        # the blank template (no game behind it) carries a current token; a bare state has only the state format
        "token": blank_token(game, public.rules) if blank else encode_state(public),
        "dropped": dropped,
        "move_log": exchanges(game, public),
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
    ctx = _context(game, rules)
    ctx.update(game.export_context(rules))
    if doc == "session":
        ctx.update(_session_context(game, state if state is not None else game.new_state(rules, 0), blank=state is None))
    ctx.update(extra or {})
    try:
        text = templating.render(templating.game_name(game, f"{doc}.md.j2"), ctx)
    except templating.TemplateError as exc:
        raise ExportError(exc.reason, rule="CORE-EXPORT", input=exc.input) from None
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
