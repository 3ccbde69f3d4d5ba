"""Entry point of the ``gm`` command: registers every command module on the app."""

from __future__ import annotations

import typer

from gm import __version__
from gm.cli import (  # noqa: F401  (register commands)
    balance_cmds,
    core_cmds,
    eval_cmds,
    export_cmds,
    import_cmds,
    mcp_cmds,
    play_cmds,
    replay_cmds,
    serve_cmds,
    session_cmds,
)
from gm.cli.base import app


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gm {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit."),
) -> None:
    """gm: play board games with a deterministic rules engine and an AI (or offline) referee."""


def main() -> None:
    app()


if __name__ == "__main__":
    main()
