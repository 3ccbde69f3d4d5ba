"""Core commands: games, new, tools, call, show, sim.

``gm call`` is how a script, a shell-capable chatbot or a test plays a whole game:
one tool call per invocation, the JSON result on stdout, exit status 1 when the
call was rejected.  Sessions live in ``$GM_HOME/sessions`` (default ``~/.gm``).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from gm.cli.balance_cmds import (
    MAX_CAPPED,
    MAX_DRAWS,
    MAX_LINE,
    MAX_WIN,
    SCHEDULER,
    print_flags,
    progress_bar,
    thresholds,
)
from gm.cli.base import app, echo, echo_err, errors_to_exit, fail, seat_options, stdout_is_tty

if TYPE_CHECKING:
    from gm.session import Session

FORMATS = ("openai", "openai-responses", "anthropic", "mcp", "json")


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


def _players(game: Any, player: list[str] | None, *, sim: bool = False) -> dict[str, str]:
    """Seat -> player from the repeatable ``--player SEAT=SPEC``
    (:func:`gm.session.players.seat_players`): the first seat human and the others the default bot
    unless named (all bots for ``sim``)."""
    from gm.session.players import seat_players

    given = seat_options(player, lambda item: f"--player takes SEAT=human|bot[:STRATEGY], not {item!r}")
    return seat_players(game, opponent="bot", players=given, creator=not sim)


def _rules(game: Any, rules_file: str | None) -> Any:
    return game.load_rules_file(rules_file) if rules_file else None


def _query_seat(session: Session, as_: str | None) -> str | None:
    """Default viewer: the only human seat, else a spectator."""
    if as_:
        return as_
    humans = session.human_seats
    return humans[0] if len(humans) == 1 else None


def _action_seat(session: Session, as_: str | None) -> str | None:
    """Default caller: the only human seat, else the only human seat expected to act."""
    if as_:
        return as_
    humans = session.human_seats
    if len(humans) == 1:
        return humans[0]
    waiting = [e["seat"] for e in session.expected() if e.get("player") == "human"]
    return waiting[0] if len(waiting) == 1 else None


def _expected_line(expected: list[dict[str, Any]]) -> str:
    if not expected:
        return "next: nothing (the game is over)"
    parts = [f"{e['seat']} ({e.get('player', 'human')}) must {' or '.join(e['tools']) or e.get('decision')}" for e in expected]
    return "next: " + "; ".join(parts)


# ----------------------------------------------------------------- commands
@app.command()
@errors_to_exit
def games() -> None:
    """List the installed games; the default one is marked.

    The default game is the one gm play, sim and export use when none is named."""
    from gm.core.errors import GameError
    from gm.core.registry import all_games, broken_games, default_game

    try:
        default: str | None = default_game().id
    except GameError:
        default = None
    for g in all_games():
        aliases = f" (aliases: {', '.join(g.aliases)})" if g.aliases else ""
        mark = " [default]" if g.id == default else ""
        echo(f"{g.id:16} {g.name}{aliases}{mark}")
    for gid, why in broken_games().items():
        echo(f"{gid:16} cannot be loaded: {why}")


@app.command()
@errors_to_exit
def new(
    game: str = typer.Argument(..., metavar="GAME", help="game id or alias (gm games lists them)"),
    seed: int | None = typer.Option(
        None, "--seed", min=0, metavar="N", help="a practice game with this seed: reproducible, but the bot's picks are predictable (default: a hidden random seed)"
    ),
    rules: str | None = typer.Option(None, "--rules", metavar="FILE", help="TOML rules file overriding the defaults"),
    player: Annotated[list[str] | None, typer.Option("--player", metavar="SEAT=PLAYER", help="who plays a seat: human, bot or bot:STRATEGY; repeatable (default: the first seat human, the others the default bot)")] = None,
    as_json: bool = typer.Option(False, "--json", help="print the new session as JSON"),
) -> None:
    """Create a saved game (a session) and print its id.

    Standard output is the id alone when it is piped or captured (SID=$(gm new GAME)); the
    session file, the players and what happens first go to standard error then, and follow
    the id on a terminal."""
    from gm.core.registry import find_game
    from gm.session import Session

    g = find_game(game)
    players = _players(g, player)
    s = Session.create(g, seed=seed, rules=_rules(g, rules), players=players)
    if as_json:
        echo(_dump({"id": s.id, "path": str(s.path), "game": g.id, "players": s.players, "seed": s.public_seed,
                    "practice": s.practice, "seed_commitment": None if s.practice else s.seed_commitment,
                    "events": s.opening_events, **{k: v for k, v in s.view(_query_seat(s, None)).items() if k in ("status", "expected", "commitments")}}))
        return
    echo(s.id)
    # on a terminal the details follow the id; piped (SID=$(gm new ...)), standard output is the id alone
    detail = echo if stdout_is_tty() else echo_err
    detail(f"path: {s.path}")
    detail("players: " + ", ".join(f"{seat} {p}" for seat, p in s.players.items()))
    if s.practice:
        detail(f"practice game: the seed ({s.secret.seed}) is known, so the bot's picks are predictable")
    else:
        detail(f"seed hidden until the game ends; commitment sha256 {s.seed_commitment}")
    for ev in s.opening_events:
        detail(f"  {ev['text']}")
    detail(g.status(s.state, _query_seat(s, None)))
    detail(_expected_line(s.expected(_query_seat(s, None))))


@app.command()
@errors_to_exit
def tools(
    game: str = typer.Argument(..., metavar="GAME", help="game id or alias"),
    fmt: str = typer.Option("json", "--format", "-f", metavar="FORMAT", help="openai, openai-responses, anthropic, mcp or json (default: json)"),
) -> None:
    """Print a game's tool schemas for LLM APIs and MCP.

    One registry, several formats: the same tools whichever front end calls them."""
    from gm.core.registry import find_game
    from gm.core.schemas import export

    if fmt not in FORMATS:
        fail(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    echo(_dump(export(find_game(game).tools(), fmt)))


@app.command()
@errors_to_exit
def call(
    session: str = typer.Argument(..., metavar="SESSION", help="session id, id prefix or file path"),
    tool: str = typer.Argument(..., metavar="TOOL", help="tool name (gm tools GAME lists them)"),
    args: str | None = typer.Argument(None, metavar="ARGS", help='arguments as a JSON object, e.g. \'{"play": 1, "colour": "red"}\''),
    as_: str | None = typer.Option(None, "--as", metavar="SEAT", help="the side making the call (default: the only human side)"),
) -> None:
    """Make one tool call in a session and print the JSON result.

    The exit status is 1 when the call was rejected (the result says why; nothing changed)."""
    from gm.session import Session

    s = Session.open(session)
    spec = next((t for t in s.tools if t.name == tool), None)
    seat = _query_seat(s, as_) if spec is not None and spec.kind == "query" else _action_seat(s, as_)
    result = s.call(tool, args, seat, board=True)
    echo(_dump(result))
    if not result.get("ok"):
        raise typer.Exit(1)


@app.command()
@errors_to_exit
def show(
    session: str = typer.Argument(..., metavar="SESSION", help="session id, id prefix or file path"),
    full: bool = typer.Option(False, "--full", help="the whole board instead of the compact view"),
    as_json: bool = typer.Option(False, "--json", help="the seat's view of the state as JSON"),
    as_: str | None = typer.Option(None, "--as", metavar="SEAT", help="whose view (default: the only human side, else a spectator)"),
) -> None:
    """Show a session's board and status, or one side's view as JSON."""
    from gm.session import Session

    s = Session.open(session, record=False)  # reading writes nothing
    seat = _query_seat(s, as_)
    view = s.view(seat)
    if as_json:
        echo(_dump(view))
        return
    echo(s.game.render(s.state, seat, full=full))
    echo(view["status"])
    echo(_expected_line(view["expected"]))
    for who, digest in view["commitments"].items():
        echo(f"{who} has locked a secret pick: commitment sha256 {digest}")


@app.command()
@errors_to_exit
def sim(
    game: str | None = typer.Argument(None, metavar="GAME", help="game id or alias (default: the default game)"),
    n: int = typer.Option(100, "--games", "-n", min=1, metavar="N", help="number of games, at least 1 (default: 100)"),
    seed: int = typer.Option(0, "--seed", min=0, metavar="N", help="seed of game 1; game i uses seed + i (default: 0)"),
    rules: str | None = typer.Option(None, "--rules", metavar="FILE", help="TOML rules file"),
    player: Annotated[list[str] | None, typer.Option("--player", metavar="SEAT=BOT", help="the bot of a seat: bot or bot:STRATEGY; repeatable (default: every seat the default bot)")] = None,
    workers: int = typer.Option(0, "--workers", "-w", min=0, metavar="N", help="processes to play in (default 0: every core); the report is the same for any number"),
    as_json: bool = typer.Option(False, "--json", help="print the report as JSON"),
    lines: int = typer.Option(0, "--lines", min=0, max=100_000, metavar="N", help="also play N games of every simple scripted line of each seat against the default bot, to flag a dominant line (default: 0, none)"),
    scheduler: str | None = SCHEDULER,
    max_draws: float = MAX_DRAWS,
    max_win: float = MAX_WIN,
    max_capped: float = MAX_CAPPED,
    max_line_wins: float = MAX_LINE,
) -> None:
    """Play bot-vs-bot games and report win and event rates.

    The report: win rates, average length, the rates of the game's headline events, and the flags a
    designer must see (as gm balance flags them)."""
    from gm.core.registry import default_game, find_game
    from gm.sim import default_workers, simulate

    g = find_game(game) if game else default_game()
    players = _players(g, player, sim=True)
    bad = [s for s, p in players.items() if not p.startswith("bot")]
    if bad:
        fail(f"gm sim plays bots only: {bad[0]} is {players[bad[0]]!r} (use bot:STRATEGY)")
    ruleset = _rules(g, rules)
    from gm.balance.lines import line_names

    total = n + lines * len(g.seats) * len(line_names(g))
    with progress_bar() as bar:
        task = bar.add_task(f"{g.id}", total=total)
        report = simulate(g, games=n, seed=seed, rules=ruleset, players=players, workers=workers or default_workers(),
                          progress=lambda done: bar.update(task, completed=done), scheduler=scheduler, lines=lines,
                          thresholds=thresholds(max_draws, max_win, max_capped, max_line_wins))
    if as_json:
        echo(_dump(report))
        return
    _print_report(report)
    print_flags(report["flags"])


def _print_report(r: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    out = Console(highlight=False, soft_wrap=True)
    who = ", ".join(f"{s} {p}" for s, p in r["players"].items())
    out.print(f"{r['game']}: {r['games']} games, seeds {r['seed']}..{r['seed'] + r['games'] - 1} ({who})")
    t = Table(show_header=True, header_style="bold")
    t.add_column("result")
    t.add_column("games", justify="right")
    t.add_column("rate", justify="right")
    for seat, w in r["wins"].items():
        t.add_row(f"{seat} wins", str(w), f"{r['win_rate'][seat]:.1%}")
    t.add_row("draws", str(r["draws"]), f"{r['draw_rate']:.1%}")
    if r["unfinished"]:
        t.add_row("unfinished", str(r["unfinished"]), "")
    out.print(t)
    out.print(f"average length: {r['avg_length']:.1f} actions (min {r['min_length']}, max {r['max_length']}); "
              f"{r['distinct_games']} distinct games; {r['capped_rate']:.0%} ended by a cap or a whistle")
    rates = ", ".join(f"{r['headlines'][k]} {v:.2f}/game ({r['games_with'][k]:.0%} of games)" for k, v in r["rates"].items())
    if rates:
        out.print(f"rates: {rates}")
    ev = Table("event", "per game", show_header=True, header_style="bold")
    for kind, v in r["events_per_game"].items():
        ev.add_row(kind, f"{v:.2f}")
    out.print(ev)
    if r["end_reasons"]:
        out.print("endings: " + ", ".join(f"{k} {v}" for k, v in r["end_reasons"].items()))
