"""``gm replay``: replay recorded transcripts and scenarios against the engine."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from gm.cli.base import app, echo, errors_to_exit, fail, seat_options


@app.command()
@errors_to_exit
def replay(
    paths: list[Path] = typer.Argument(..., metavar="PATH", help="transcript files (.jsonl), scenarios (.md) or folders of them"),
    update: bool = typer.Option(False, "--update", help="re-record the expected results of recordings that changed"),
    coverage: bool = typer.Option(False, "--coverage", help="list every rule id with the number of transcripts exercising it"),
    as_json: bool = typer.Option(False, "--json", help="machine-readable summary"),
    fail_fast: bool = typer.Option(False, "-x", "--exitfirst", help="stop at the first divergence"),
) -> None:
    """Replay transcripts against the engine and report divergences.

    The first divergence of each transcript is printed with a diff."""
    from rich.console import Console
    from rich.progress import Progress
    from rich.table import Table

    from gm.transcript.coverage import coverage as rule_coverage
    from gm.transcript.replay import iter_transcript_files, replay_path

    files = iter_transcript_files(paths)
    missing = [p for p in files if not p.exists()]
    if missing:
        fail(f"no such file: {missing[0]}")
    if not files:
        fail("no transcripts (.jsonl) or scenarios (.md) found")
    console = Console(stderr=as_json, highlight=False, soft_wrap=True)
    results = []
    with Progress(console=console, transient=True, disable=as_json) as progress:
        task = progress.add_task("replaying", total=len(files))
        for f in files:
            res = replay_path(f, update=update)
            results.append(res)
            progress.advance(task)
            if not res.ok:
                console.print(res.report(), markup=False, highlight=False)
                if fail_fast:
                    break
            elif res.changes:
                console.print(f"{f}: updated {len(res.changes)} recorded result(s):", markup=False)
                for ch in res.changes[:5]:
                    console.print(str(ch), markup=False)
    failed = [r for r in results if not r.ok]
    cov = rule_coverage(results) if coverage else {}
    if as_json:
        echo(json.dumps({
            "transcripts": len(results),
            "failed": [r.source for r in failed],
            "updated": [r.source for r in results if r.changes],
            "coverage": {g: {"hits": c.hits, "unexercised": c.unexercised} for g, c in cov.items()},
        }, indent=1))
    else:
        table = Table(title="gm replay")
        for col in ("transcript", "game", "calls", "result"):
            table.add_column(col)
        for r in results:
            verdict = "[red]DIVERGED[/red]" if not r.ok else f"updated ({len(r.changes)})" if r.changes else "[green]ok[/green]"
            table.add_row(r.source, r.game, str(r.calls), verdict)
        console.print(table)
        console.print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
        for game, c in cov.items():
            ct = Table(title=f"rule coverage: {game}")
            ct.add_column("rule")
            ct.add_column("transcripts", justify="right")
            ct.add_column("title")
            for rid, title in c.rules.items():
                n = c.hits[rid]
                ct.add_row(rid if n else f"[red]{rid}[/red]", str(n), title)
            console.print(ct)
            console.print(f"{game}: {len(c.rules) - len(c.unexercised)}/{len(c.rules)} rules exercised; never: {', '.join(c.unexercised) or 'none'}")
    if failed:
        raise typer.Exit(1)


@app.command()
@errors_to_exit
def record(
    game: str | None = typer.Argument(None, metavar="GAME", help="game id (default: the default game)"),
    output: Path = typer.Option(..., "--output", "-o", metavar="FILE", help="the transcript file to write (.jsonl); required"),
    seed: int = typer.Option(0, "--seed", min=0, metavar="N", help="game seed (default: 0)"),
    bots: list[str] = typer.Option([], "--bot", metavar="SEAT=BOT", help="bot:STRATEGY of a seat for a bot-vs-bot recording; repeatable (default: every seat bot:default)"),
    script: Path | None = typer.Option(None, "--script", metavar="FILE", help="lines 'SEAT: text' played through the offline referee"),
    players: list[str] = typer.Option([], "--player", metavar="SEAT=PLAYER", help="human or bot:STRATEGY of a seat in a scripted game; repeatable (default: all human)"),
    rules: Path | None = typer.Option(None, "--rules", metavar="FILE", help="TOML rules file"),
    title: str | None = typer.Option(None, "--title", metavar="TITLE", help="a title for the transcript header"),
) -> None:
    """Record a transcript of a bot game or a scripted game.

    Bot against bot through the tool registry, or a script of players' lines through the
    offline referee."""
    from gm.core.registry import default_game, find_game
    from gm.transcript.record import record_bot_game, record_script

    g = find_game(game) if game else default_game()
    ruleset = g.load_rules_file(rules) if rules else None

    def pairs(items: list[str], what: str) -> dict[str, str]:
        return seat_options(items, lambda item: f"{what} takes SEAT=PLAYER with a seat of {g.id} ({', '.join(g.seats)}): {item!r}", seats=g.seats)

    if script is not None:
        from gm.core.files import TRANSCRIPT_LIMIT, read_text

        lines = []
        try:
            script_text = read_text(script, TRANSCRIPT_LIMIT, "script")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read the script {script}: {getattr(exc, 'strerror', None) or exc}")
        for n, raw in enumerate(script_text.splitlines(), start=1):
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            seat, sep, text = raw.partition(":")
            if not sep or seat.strip() not in g.seats:
                fail(f"{script}:{n}: lines read 'SEAT: text' with a seat of {g.id}")
            lines.append((seat.strip(), text.strip()))
        tr = record_script(g.id, seed, lines, players=pairs(players, "--player") or None, rules=ruleset, title=title)
    else:
        chosen = pairs(bots, "--bot")
        strategies = {s: chosen.get(s, "bot:default") for s in g.seats}
        tr = record_bot_game(g.id, seed, strategies, rules=ruleset, title=title)
    output.parent.mkdir(parents=True, exist_ok=True)
    tr.save(output)
    echo(f"{output}: {len(tr.entries)} entries")
