"""``gm export``: documents for any chatbot (``gm import`` is in :mod:`gm.cli.import_cmds`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from gm.cli.base import app, echo, errors_to_exit, fail

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.state import GameState

WHAT = ("quickstart", "rules", "glossary", "session", "bundle", "token", "prompt")


def load_state(spec: str, home: Path | None = None) -> GameState[Any]:
    """The game state of ``--session``: a saved session (id, id prefix or path), or a
    ``.json`` file holding a state's JSON (game, rules, seed, log)."""
    return _load(spec, home)[0]


def _load(spec: str, home: Path | None = None) -> tuple[GameState[Any], Any]:
    """The state of ``--session`` and its session (``None`` for a state ``.json`` file)."""
    from gm.core.errors import StateError
    from gm.core.state import GameState

    path = Path(spec).expanduser()
    if path.suffix.lower() == ".json":
        from gm.core.files import JSON_LIMIT, read_text

        try:
            data = json.loads(read_text(path, JSON_LIMIT, "state file"))
        except ValueError as exc:
            raise StateError(f"{path} is not JSON: {exc}", rule="CORE-SESSION") from None
        if not isinstance(data, dict):
            raise StateError(f"{path} is not a gm state (game, rules, seed, log)", rule="CORE-SESSION")
        return GameState.from_json(data), None
    from gm.session import Session

    s = Session.open(spec, home=home, record=False)
    return s.state, s


@app.command("export")
@errors_to_exit
def export(
    what: str = typer.Argument(..., metavar="WHAT", help="quickstart, rules, glossary, session, bundle, token or prompt"),
    game: str | None = typer.Option(None, "--game", "-g", metavar="GAME", help="game id (default: the session's game, else the default game)"),
    rules: Path | None = typer.Option(None, "--rules", metavar="FILE", help="a TOML ruleset file (default: the game's rules)"),
    session: str | None = typer.Option(None, "--session", "-s", metavar="SESSION", help="a saved session (id or path) or a state .json file"),
    output: Path | None = typer.Option(None, "--output", "-o", metavar="PATH", help="write here (bundle: a folder, or a .zip file)"),
    home: Path | None = typer.Option(None, "--gm-home", metavar="DIR", help="gm home folder holding the sessions (default: $GM_HOME or ~/.gm)"),
) -> None:
    """Export a game's documents or state for any chatbot.

    quickstart, rules, glossary and session are Markdown documents rendered from the ruleset the
    engine runs; bundle writes them all (a folder or a .zip); token is a checksummed state token
    to paste into a chat (gm import brings it back); prompt is the system prompt the LLM referee
    of gm play --referee sends, for the first seat."""
    from gm.core.registry import default_game, find_game
    from gm.core.token import encode_state
    from gm.export import ExportError, render_doc, write_bundle
    from gm.export.render import blank_token

    kind = what.strip().lower()
    if kind not in WHAT:
        raise ExportError(f"unknown export; choose {', '.join(WHAT)}", rule="CORE-EXPORT", input=what, legal=WHAT)
    state, sess = _load(session, home) if session else (None, None)
    g: Game
    if state is not None:
        g = state.game
        if game is not None and find_game(game).id != g.id:
            fail(f"--game {game} does not match the session's game {g.id}")
        if rules is not None:
            fail("--rules cannot be combined with --session: the session has its own ruleset")
    else:
        g = find_game(game) if game else default_game()
    ruleset = g.load_rules_file(rules) if rules is not None else (state.rules if state is not None else None)

    token = None
    if sess is not None:
        from gm.session.token import session_token

        token = session_token(sess)
    if kind == "bundle":
        from gm.export import slug

        dest = output or Path(f"{slug(g)}_chatbot")
        names = write_bundle(g, dest, ruleset, state, {"token": token} if token else None)
        echo(f"wrote {len(names)} files to {dest}: {', '.join(names)}")
        return
    if kind == "token":
        text = (token or (encode_state(state) if state is not None else blank_token(g, ruleset))) + "\n"
    elif kind == "prompt":
        from gm.referee.llm.prompts import system_prompt

        players = {s: "human" if i == 0 else "bot:default" for i, s in enumerate(g.seats)}
        text = system_prompt(g, g.load_rules(ruleset), g.seats[0], players) + "\n"
    else:
        text = render_doc(g, kind, ruleset, state, {"token": token} if token else None)
    if output is None:
        typer.echo(text, nl=False)
        return
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    echo(f"wrote {output}")
