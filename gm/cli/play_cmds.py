"""``gm play``: a complete game in the terminal against the built-in bot (or hot seat)."""

from __future__ import annotations

import secrets
from pathlib import Path

import typer

from gm.cli.base import app, errors_to_exit, fail


@app.command()
@errors_to_exit
def play(
    game: str = typer.Argument("grid-football", help="game id (see `gm games`)"),
    opponent: str = typer.Option("bot", "--opponent", "-o", help="bot (the default strategy), bot:NAME, or human for hot seat"),
    seat: str | None = typer.Option(None, "--seat", help="the seat you play (default: the first seat)"),
    seed: int | None = typer.Option(None, "--seed", help="random seed (default: a fresh one)"),
    rules: Path | None = typer.Option(None, "--rules", help="TOML rules file"),
    resume: str | None = typer.Option(None, "--resume", help="continue a saved session (id, prefix or path)"),
    record: Path | None = typer.Option(None, "--record", help="transcript file (default: next to the session)"),
    referee: str = typer.Option("offline", "--referee", help="offline (no API key needed)"),
) -> None:
    """Play a game in the terminal: against the built-in bot, or two people at one keyboard."""
    from gm.core.registry import find_game
    from gm.play.terminal import Terminal, play_game, transcript_path
    from gm.referee.offline import OfflineReferee
    from gm.session import Session
    from gm.transcript.format import Header, RefereeInfo
    from gm.transcript.recorder import Recorder

    if referee != "offline":
        fail(f"unknown referee {referee!r}; choose: offline")
    if resume:
        session = Session.open(resume)
    else:
        g = find_game(game)
        me = seat or g.seats[0]
        if me not in g.seats:
            fail(f"{g.id} has no seat {me!r}; seats: {', '.join(g.seats)}")
        players = {s: ("human" if s == me or opponent == "human" else opponent) for s in g.seats}
        session = Session.create(
            g,
            seed=seed if seed is not None else secrets.randbelow(10**6),
            rules=str(rules) if rules else None,
            players=players,
        )
    from gm import __version__
    from gm.core.game import ruleset_hash

    st = session.state
    header = Header(
        game=session.game.id,
        rules=st.rules.model_dump(mode="json"),
        rules_hash=ruleset_hash(st.rules),
        seed=st.seed,
        players=dict(session.players),
        gm_version=__version__,
        referee=RefereeInfo(kind="offline"),
    )
    path = transcript_path(session, record)
    recorder = Recorder(header, path, append=bool(resume))
    summary = play_game(session, OfflineReferee(), Terminal(), recorder)
    if path:
        typer.echo(f"Transcript: {path}")
    if summary.ended in ("bot error", "stuck"):
        raise typer.Exit(1)
