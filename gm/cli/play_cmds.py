"""``gm play``: a complete game in the terminal against the built-in bot (or hot seat)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from gm.cli.base import app, check_llm_options, errors_to_exit, fail, gm_command

if TYPE_CHECKING:
    from gm.referee.base import Referee


@app.command()
@errors_to_exit
def play(
    game: str | None = typer.Argument(None, metavar="GAME", help="game id (gm games lists them; default: the default game)"),
    opponent: str = typer.Option("bot", "--opponent", "-o", metavar="PLAYER", help="bot (the default: the game's default bot), bot:STRATEGY, or human (two people at one keyboard)"),
    seat: str | None = typer.Option(None, "--seat", metavar="SEAT", help="the seat you play (default: the first seat)"),
    seed: int | None = typer.Option(
        None, "--seed", min=0, metavar="N", help="a practice game with this seed: reproducible, but the bot's picks are predictable (default: a hidden random seed)"
    ),
    rules: Path | None = typer.Option(None, "--rules", metavar="FILE", help="TOML rules file"),
    resume: str | None = typer.Option(None, "--resume", metavar="SESSION", help="continue a saved game (id, id prefix or path; gm sessions lists them)"),
    record: Path | None = typer.Option(None, "--record", metavar="FILE", help="also write the transcript to this file (it is always kept with the session)"),
    referee: str = typer.Option("offline", "--referee", metavar="KIND", help="offline (the default: no API key needed), openai or anthropic"),
    model: str | None = typer.Option(None, "--model", metavar="NAME", help="model name for an LLM referee (default: GM_OPENAI_MODEL / GM_ANTHROPIC_MODEL or a small model)"),
    base_url: str | None = typer.Option(None, "--base-url", metavar="URL", help="the model server: OpenAI-compatible for --referee openai (e.g. http://localhost:11434/v1, Ollama), Anthropic-compatible for --referee anthropic"),
    api: str = typer.Option("chat", "--api", metavar="API", help="openai only: chat (the default: Chat Completions, any compatible server) or responses"),
    timeout: float = typer.Option(60.0, "--timeout", min=1, max=3600, metavar="SECONDS", help="LLM referee: how long to wait for each model answer (default: 60)"),
    retries: int = typer.Option(2, "--retries", min=0, max=10, metavar="N", help="LLM referee: retries of a model request that timed out or failed (default: 2)"),
    max_tokens: int | None = typer.Option(None, "--max-tokens", min=16, max=200_000, metavar="N", help="LLM referee: the most output tokens of each reply, sent to the server (a local server's own default may cut replies short)"),
) -> None:
    """Play a game in the terminal against the bot, or hot seat.

    Against the built-in bot, or two people at one keyboard (secret picks typed hidden). The
    game is saved after every move. With --referee openai or anthropic a language model
    referees: it reads what you type and acts through the game's tools (keys from
    OPENAI_API_KEY / ANTHROPIC_API_KEY)."""
    from gm.core.registry import default_game, find_game
    from gm.play.terminal import INPUT_TOO_LONG, Terminal, play_game, transcript_path
    from gm.session import Session
    from gm.session.players import seat_players

    ref = _make_referee(referee, model, base_url, api, timeout=timeout, retries=retries, max_tokens=max_tokens)
    if resume:
        session = Session.open(resume)
    else:
        g = find_game(game) if game else default_game()
        players = seat_players(g, seat, opponent=opponent)
        session = Session.create(g, seed=seed, rules=str(rules) if rules else None, players=players, referee=ref.kind, model=ref.model)
    summary = play_game(session, ref, Terminal(command=gm_command()))
    path = transcript_path(session)
    if record is not None and session.recorder is not None:
        lines = session.store.transcript_read(session.id)
        record.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        path = record
    if path:
        typer.echo(f"Transcript: {path}")
    if summary.ended in ("bot error", "stuck", INPUT_TOO_LONG):
        raise typer.Exit(1)
    if summary.ended == "Ctrl-C":
        raise typer.Exit(130)  # what a shell expects of a program stopped by Ctrl-C (the game is saved)


def _interactive() -> bool:
    import sys

    return sys.stdin.isatty()


def _make_referee(referee: str, model: str | None, base_url: str | None, api: str, *, timeout: float = 60.0,
                  retries: int = 2, max_tokens: int | None = None) -> Referee:
    """The referee for ``--referee``; without an API key, say how to set one and offer the offline referee."""
    from gm.referee.offline import OfflineReferee

    name = referee.strip().lower()
    if name == "offline":
        if model or base_url or max_tokens is not None:
            fail("--model, --base-url and --max-tokens are for --referee openai or anthropic")
        return OfflineReferee()
    if name not in ("openai", "anthropic"):
        fail(f"unknown referee {referee!r}; choose: offline, openai, anthropic")
    check_llm_options(name, model, base_url, api)
    from gm.referee.llm import MissingKeyError, build_referee

    try:
        return build_referee(name, model=model, base_url=base_url, api=api, timeout=timeout, max_retries=retries,
                             max_tokens=max_tokens)
    except MissingKeyError as exc:
        if _interactive() and typer.confirm(f"{exc.help}.\nPlay with the offline referee instead?", default=True):
            return OfflineReferee()
        fail(f"{exc.help}; or play with --referee offline")
