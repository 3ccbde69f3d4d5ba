"""Core commands: games (more arrive with the tool registry issue)."""

from __future__ import annotations

from gm.cli.base import app, echo, errors_to_exit


@app.command()
@errors_to_exit
def games() -> None:
    """List the registered games."""
    from gm.core.registry import all_games

    for g in all_games():
        aliases = f" (aliases: {', '.join(g.aliases)})" if g.aliases else ""
        echo(f"{g.id:16} {g.name}{aliases}")
