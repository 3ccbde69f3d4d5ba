"""``gm play`` (interim: a bot-vs-bot game printing the final board)."""

from __future__ import annotations

import typer

from gm.cli.base import app, echo, errors_to_exit


@app.command()
@errors_to_exit
def play(
    game: str = typer.Option("grid-football", "--game", "-g", help="game id"),
    seed: int = typer.Option(0, "--seed", help="random seed"),
) -> None:
    """Play a game (for now: the built-in bots against each other)."""
    from gm.core.registry import find_game

    g = find_game(game)
    state = g.new_state(seed=seed)
    bots = {seat: g.make_bot("random", seed=seed * 10 + i) for i, seat in enumerate(g.seats)}
    while not state.is_terminal:
        for seat in state.to_act():
            for ev in state.apply(seat, bots[seat].choose(state, seat)):
                echo(f"  {ev.text}")
    echo(g.render(state, full=True))
    echo(g.status(state))
