"""``gm balance``: a balance study of a game's ruleset (see :mod:`gm.balance`), and the flags ``gm sim``
shares with it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from gm.cli.base import app, echo, errors_to_exit, seat_options


def thresholds(max_draws: float, max_win: float, max_capped: float, max_line_wins: float) -> Any:
    from gm.balance.flags import Thresholds

    return Thresholds(draws=max_draws, wins=max_win, capped=max_capped, line=max_line_wins)


MAX_DRAWS = typer.Option(0.5, "--max-draws", min=0.0, max=1.0, metavar="RATE", help="flag a draw rate above this (default: 0.5)")
MAX_WIN = typer.Option(0.8, "--max-win", min=0.0, max=1.0, metavar="RATE", help="flag a seat winning more often than this (default: 0.8)")
MAX_CAPPED = typer.Option(0.5, "--max-capped", min=0.0, max=1.0, metavar="RATE",
                          help="flag games ended by a cap or a whistle more often than this (default: 0.5)")
MAX_LINE = typer.Option(0.5, "--max-line-wins", min=0.0, max=1.0, metavar="RATE",
                        help="flag a simple scripted line beating the default bot more often than this, beyond doubt (default: 0.5)")
SCHEDULER = typer.Option(None, "--scheduler", metavar="ADDRESS",
                         help="play on the Dask cluster at this scheduler (tcp://HOST:8786; pip install 'gm[dask]'); the results are the same as on local cores")


def progress_bar() -> Any:
    """The progress bar ``gm balance`` and ``gm sim`` show on standard error while they play (count,
    elapsed, ETA); nothing when standard error is not a terminal."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    err = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("eta"), TimeRemainingColumn(), console=err, transient=True, disable=not err.is_terminal)


def print_flags(flags: list[dict[str, Any]], where: str = "", examples: dict[int, str] | None = None) -> None:
    """One line per flag, with its example (a transcript, or the game's seed)."""
    from rich.console import Console

    out = Console(highlight=False, soft_wrap=True)
    if not flags:
        out.print(f"flags{where}: none")
        return
    out.print(f"flags{where}:")
    for i, f in enumerate(flags):
        ex = (examples or {}).get(i)
        tail = f" - example: gm replay {ex}" if ex else (f" - example: game {f['example']}" if f.get("example") is not None else "")
        out.print(f"  [{f['kind']}] {f['message']}{tail}", markup=False)


@app.command()
@errors_to_exit
def balance(
    game: str | None = typer.Argument(None, metavar="GAME", help="game id or alias (default: the default game)"),
    vary: Annotated[list[str] | None, typer.Option("--vary", metavar="FIELD=SPEC", help="sweep a ruleset field: FIELD=LOW:HIGH:STEP or FIELD=A,B,C; repeatable (every combination is played)")] = None,
    player: Annotated[list[str] | None, typer.Option("--player", metavar="SEAT=BOT", help="the bot of a seat: bot, bot:STRATEGY or bot:search?iters=N; repeatable (default: every seat the default bot)")] = None,
    n: int = typer.Option(200, "--games", "-n", min=1, max=1_000_000, metavar="N", help="games per ruleset (default: 200)"),
    seed: int = typer.Option(0, "--seed", min=0, metavar="N", help="seed of game 1 of every ruleset; game i uses seed + i (default: 0)"),
    rules: str | None = typer.Option(None, "--rules", metavar="FILE", help="TOML rules file every ruleset starts from"),
    lines: int = typer.Option(40, "--lines", min=0, max=100_000, metavar="N", help="games per simple scripted line of each seat against the default bot; 0: none (default: 40)"),
    out: Path | None = typer.Option(None, "--out", "-o", metavar="DIR", help="where report.html, results.json, results.csv and the example games go (default: balance-GAME)"),
    workers: int = typer.Option(0, "--workers", "-w", min=0, metavar="N", help="processes to play in (default 0: every core)"),
    scheduler: str | None = SCHEDULER,
    max_moves: int = typer.Option(100_000, "--max-moves", min=1, metavar="N", help="stop a game after this many moves (counted as capped; default: 100000)"),
    max_draws: float = MAX_DRAWS,
    max_win: float = MAX_WIN,
    max_capped: float = MAX_CAPPED,
    max_line_wins: float = MAX_LINE,
    examples: bool = typer.Option(True, "--examples/--no-examples", help="write each flag's example game as a transcript (default: on)"),
) -> None:
    """Sweep ruleset fields, play them and flag what breaks a game.

    Per ruleset: each seat's win and draw rate with 95% intervals, game length, the game's headline
    events; flags (repeated games, lopsided or drawn results, games ended by a cap, a kind of move a
    bot never uses, a simple scripted line that beats the default bot) each with an example game
    gm replay opens; an HTML page with plots, JSON and CSV."""
    from gm.balance.report import write_report
    from gm.balance.study import Study, example_specs, parse_vary, record_example, run_study
    from gm.core.registry import default_game, find_game
    from gm.sim import default_workers

    g = find_game(game) if game else default_game()
    players = seat_options(player, lambda item: f"--player takes SEAT=bot[:STRATEGY] with a seat of {g.id} ({', '.join(g.seats)}), not {item!r}",
                           seats=g.seats, value=lambda spec: spec.startswith("bot"))
    base = g.load_rules_file(rules).model_dump(mode="json") if rules else {}
    study = Study(g, base=base, varies=[parse_vary(g, v) for v in vary or []], players=players, games=n, seed=seed,
                  line_games=lines, max_moves=max_moves, thresholds=thresholds(max_draws, max_win, max_capped, max_line_wins))
    target = out or Path(f"balance-{g.id}")
    with progress_bar() as bar:
        task = bar.add_task(f"{g.id} balance", total=None)
        summary = run_study(study, workers=workers or default_workers(), scheduler=scheduler,
                            progress=lambda done, total: bar.update(task, completed=done, total=total))
    found: dict[tuple[str, int], str] = {}
    if examples:
        for rs in summary["rulesets"]:
            for i, f in enumerate(rs.get("flags", [])):
                if f.get("example") is None:
                    continue
                name = "-".join(str(x) for x in (rs["id"], f["kind"], f.get("seat"), f.get("line"), f"game{f['example']}") if x)
                rel = Path("examples") / f"{name}.jsonl"
                specs = example_specs(summary, f, g)
                record_example(g, rs["rules"], specs, seed, f["example"], target / rel,
                               f"{g.id} balance {rs['id']} {f['kind']}: game {f['example']} (seed {seed + f['example']})", max_moves)
                found[(rs["id"], i)] = rel.as_posix()
    paths = write_report(summary, target, found)
    _print_summary(summary, found, target)
    echo(f"wrote {paths['html']}, {paths['json']}, {paths['csv']}")


def _print_summary(summary: dict[str, Any], found: dict[tuple[str, int], str], target: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    out = Console(highlight=False, soft_wrap=True)
    seats = list(summary["players"])
    t = Table(show_header=True, header_style="bold")
    for h in ["ruleset", *summary["varied"], *(f"{s} wins" for s in seats), "draws", "length", "flags"]:
        t.add_column(h)
    for rs in summary["rulesets"]:
        vals = [str(rs["values"].get(f)) for f in summary["varied"]]
        if rs.get("error"):
            t.add_row(rs["id"], *vals, *([""] * len(seats)), "", "", f"invalid: {rs['error']}")
            continue
        pct = [f"{rs['seats'][s]['rate']:.0%} [{rs['seats'][s]['low']:.0%}-{rs['seats'][s]['high']:.0%}]" for s in seats]
        t.add_row(rs["id"], *vals, *pct, f"{rs['draws']['rate']:.0%}", f"{rs['length']['median']:g}", str(len(rs["flags"])))
    out.print(f"{summary['game']}: {summary['games']} games per ruleset, seeds {summary['seed']}..{summary['seed'] + summary['games'] - 1}")
    out.print(t)
    for rs in summary["rulesets"]:
        if rs.get("flags"):
            ex = {i: (target / p).as_posix() for (rid, i), p in found.items() if rid == rs["id"]}
            print_flags(rs["flags"], f" of {rs['id']}", ex)
