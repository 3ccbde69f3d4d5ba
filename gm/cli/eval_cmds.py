"""``gm eval``: a referee benchmark - how well a model turns players' words into the right tool calls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from gm.cli.base import app, check_llm_options, errors_to_exit, fail

if TYPE_CHECKING:
    from gm.eval import Scripted
    from gm.eval.runner import CaseResult

REFEREES = ("scripted", "mediocre", "offline", "openai", "anthropic")


@app.command("eval")
@errors_to_exit
def eval_(
    referee: str = typer.Option("scripted", "--referee", metavar="KIND", help="openai (any OpenAI-compatible server with --base-url), anthropic, offline (gm's own referee, no model), or a built-in scripted model, no network: scripted (the default: right but for a few documented mistakes) or mediocre (many faults of every kind, known in advance)"),
    model: str | None = typer.Option(None, "--model", metavar="NAME", help="the model to evaluate (default: GM_OPENAI_MODEL / GM_ANTHROPIC_MODEL or a small model)"),
    base_url: str | None = typer.Option(None, "--base-url", metavar="URL", help="the model server: OpenAI-compatible for --referee openai (e.g. http://localhost:11434/v1, Ollama; http://localhost:8000/v1, vLLM), Anthropic-compatible for --referee anthropic"),
    api: str = typer.Option("chat", "--api", metavar="API", help="openai only: chat (the default: Chat Completions) or responses"),
    game: list[str] = typer.Option([], "--game", "-g", metavar="GAME", help="only this game's suite (repeatable; default: every game's)"),
    json_path: Path | None = typer.Option(None, "--json", metavar="PATH", help="also write the scores and every case's result as JSON"),
    timeout: float = typer.Option(60.0, "--timeout", min=1, max=3600, metavar="SECONDS", help="how long to wait for each model answer (default: 60)"),
    retries: int = typer.Option(2, "--retries", min=0, max=10, metavar="N", help="retries of a model request that timed out or failed (default: 2)"),
    max_tokens: int | None = typer.Option(None, "--max-tokens", min=16, max=200_000, metavar="N", help="the most output tokens of each reply, sent to the server (a local server's own default may cut replies short)"),
) -> None:
    """Score a model as a referee.

    Every game's suite of player messages is refereed by the model: each message (moves in the players' words, typos, slang, ambiguous asks, rules questions,
    table talk, cheating attempts) is sent through the LLM referee at a position built by the
    engine; the table shows, per game, how often the engine got exactly the right call, the moves
    and calls that were wrong, cheats that changed the game, narrations the engine contradicted,
    hidden picks leaked, and requests, tokens and time per message."""
    from gm.core.registry import all_games, find_game
    from gm.eval import evaluate, report
    from gm.eval.suite import load_suite

    games = [find_game(g) for g in game] if game else all_games()
    games = [g for g in games if load_suite(g)] if not game else games
    for g in games:
        if not load_suite(g):
            fail(f"{g.id} has no eval suite")
    if json_path is not None and not json_path.resolve().parent.is_dir():
        fail(f"--json: no folder {json_path.parent} to write {json_path.name} in")  # found out before a long run, not after
    total = sum(len(load_suite(g)) for g in games)
    if referee.strip().lower() == "offline":
        if base_url or model or api != "chat" or max_tokens is not None:
            fail("--base-url, --model, --api and --max-tokens are for --referee openai or anthropic")
        from gm.eval import evaluate_offline

        with _progress(total) as advance:
            results = evaluate_offline(games, after_case=lambda _result: advance())
        _show(report(results, referee="offline", model=None), total, len(games), json_path)
        return
    setup = _provider(referee, model, base_url, api, timeout, retries, max_tokens)
    asked: list[bool] = []

    def after(result: CaseResult) -> None:
        advance()
        if result.requests and not asked:  # the first message the model was asked about
            asked.append(True)
            if result.error:
                why = next(f for f in result.flags if f.startswith("llm-error"))
                fail(f"the model did not answer the first message, so gm eval stops: {why.removeprefix('llm-error: ')}")

    with _progress(total) as advance:
        results = evaluate(games, setup.provider, requests=setup.requests, before_case=setup.before_case, on_session=setup.on_session,
                           after_case=after)
    provider = setup.provider
    name = referee.strip().lower()
    _show(report(results, referee=name if name in ("scripted", "mediocre") else provider.kind, model=provider.model), total, len(games),
          json_path)


def _show(doc: dict[str, Any], total: int, games: int, json_path: Path | None) -> None:
    """Print the scores (and write them as JSON when asked)."""
    from gm.eval import table

    typer.echo(f"gm eval: {doc['referee']} ({doc['model']}), {total} cases in {games} game(s)")
    typer.echo(table(doc))
    if json_path is not None:
        json_path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        typer.echo(f"JSON: {json_path}")


def _provider(referee: str, model: str | None, base_url: str | None, api: str, timeout: float,
              retries: int, max_tokens: int | None) -> Scripted:
    """The model for ``--referee``, with the counter of its HTTP requests and the hooks a scripted
    model is told the case and the session by."""
    name = referee.strip().lower()
    if name not in REFEREES:
        fail(f"unknown referee {referee!r}; choose: {', '.join(REFEREES)}")
    if name in ("scripted", "mediocre"):
        if base_url or model or api != "chat" or max_tokens is not None:
            fail("--base-url, --model, --api and --max-tokens are for --referee openai or anthropic")
        from gm.eval import scripted_provider

        return scripted_provider(name)
    check_llm_options(name, model, base_url, api)
    from gm.eval import Scripted
    from gm.eval.runner import Requests, counting_client
    from gm.referee.llm import MissingKeyError, referee_kind
    from gm.referee.llm.providers import SDKProvider, make_client, resolve_model

    kind = referee_kind(name, api)
    counter = Requests()
    try:
        client = make_client(kind, base_url=base_url, timeout=timeout, max_retries=retries, http_client=counting_client(kind, counter))
    except MissingKeyError as exc:
        fail(exc.help)
    return Scripted(SDKProvider(kind, resolve_model(kind, model), client, max_tokens=max_tokens), counter, None)


class _progress:
    """A progress bar on a terminal (standard error); nothing otherwise."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.bar: Any = None

    def __enter__(self) -> Any:
        import sys

        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            self.bar = Progress(console=Console(stderr=True), transient=True)
            self.bar.start()
            task = self.bar.add_task("refereeing", total=self.total)
            return lambda: self.bar.advance(task)
        return lambda: None

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
