"""``gm sessions``: list, show, delete and repair saved games.

Reading writes nothing: a session is opened with ``record=False`` (no transcript line, no bot
move), so listing or showing a game leaves its files as they were.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from gm.cli.base import GmTyper, app, echo, errors_to_exit, fail

if TYPE_CHECKING:
    from gm.session import Session, SessionStore

sessions_app = GmTyper(no_args_is_help=False, subcommand_metavar="[COMMAND] [ARGS]...", context_settings={"max_content_width": 100})
app.add_typer(sessions_app, name="sessions")

HOME_HELP = "gm home folder holding the sessions (default: $GM_HOME or ~/.gm)"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 move``, ``2 moves``."""
    return f"{n} {word if n == 1 else many or word + 's'}"


def age(seconds: float) -> str:
    """How long ago, in words: ``just now``, ``5 min ago``, ``1 hour ago``, ``3 days ago``."""
    s = max(0, int(seconds))
    if s < 60:
        return "just now"
    if s < 3600:
        return f"{s // 60} min ago"
    if s < 86400:
        return f"{plural(s // 3600, 'hour')} ago"
    return f"{plural(s // 86400, 'day')} ago"


def viewer(session: Session) -> str | None:
    """Whose eyes a listing reads with: the only human seat, else a spectator's."""
    humans = session.human_seats
    return humans[0] if len(humans) == 1 else None


def last_move(session: Session, seat: str | None) -> str | None:
    """The last move as ``seat`` may read it (another seat's unrevealed pick reads ``locked``)."""
    log = session.log(seat)
    return f"{log[-1][0]}: {log[-1][1]}" if log else None


def summary_row(store: SessionStore, sid: str, now: float) -> dict[str, Any]:
    """What the listing shows of one session (opened read-only)."""
    from gm.core.errors import GameError
    from gm.session import Session

    info = store.info(sid)
    row: dict[str, Any] = {"id": sid, "game": info.game, "players": info.players, "updated": info.updated,
                           "age": age(now - info.updated)}
    try:
        s = Session.open(sid, store=store, record=False)
    except GameError as exc:
        row["error"] = exc.message
        return row
    seat = viewer(s)
    row.update(moves=len(s.state.log), status=s.game.status(s.state, seat), last_move=last_move(s, seat),
               over=s.state.is_terminal)
    return row


def can_ask() -> bool:
    """Whether a question can be put to someone at a terminal."""
    import sys

    return sys.stdin.isatty()


def _store(home: Path | None) -> SessionStore:
    from gm.session import FileStore

    return FileStore(home)


@sessions_app.callback(invoke_without_command=True)
@errors_to_exit
def sessions(
    ctx: typer.Context,
    game: str | None = typer.Option(None, "--game", "-g", metavar="GAME", help="only the saved games of this game"),
    limit: int = typer.Option(20, "--limit", "-n", min=0, metavar="N", help="list at most N, newest first (default: 20; 0: all)"),
    as_json: bool = typer.Option(False, "--json", help="print the list as JSON"),
    home: Path | None = typer.Option(None, "--gm-home", metavar="DIR", help=HOME_HELP),
) -> None:
    """List, show or delete saved games.

    Without a subcommand: the saved games, newest first, each with its players, number of
    moves, age, last move and where the game stands (continue one with gm play --resume ID)."""
    if ctx.invoked_subcommand is not None:
        return
    from gm.core.registry import find_game
    from gm.session.session import store_keys
    from gm.session.store import iter_infos

    store = _store(home)
    wanted = find_game(game).id if game else None
    infos = sorted((i for i in iter_infos(store) if wanted is None or i.game == wanted), key=lambda i: i.updated, reverse=True)
    if infos:
        store_keys(store, create=False)  # (a missing or shared key: one line, not one per game)
    total = len(infos)
    shown = infos[:limit] if limit else infos
    now = time.time()
    rows = [summary_row(store, i.id, now) for i in shown]
    if as_json:
        echo(json.dumps({"sessions": rows, "total": total, "folder": str(getattr(store, "dir", ""))}, indent=2, ensure_ascii=False))
        return
    if not rows:
        where = getattr(store, "dir", store.description)
        echo(f"No saved games{f' of {wanted}' if wanted else ''} in {where}. Start one with: gm play")
        return
    for row in rows:
        players = ", ".join(f"{seat} {p}" for seat, p in row["players"].items())
        if "error" in row:
            echo("  ".join(x for x in (row["id"], row["game"].strip("?"), players, row["age"]) if x))
            echo(f"    unreadable: {row['error']}")
            continue
        echo(f"{row['id']}  {row['game']}  {players}  {plural(row['moves'], 'move')}  {row['age']}")
        echo(f"    last move: {row['last_move'] or 'none yet'}")
        echo(f"    {row['status']}")
    more = f" (the newest {len(rows)} of {total}; --limit 0 lists all)" if total > len(rows) else ""
    echo(f"{plural(len(rows), 'saved game')}{more}. Continue one with: gm play --resume ID")


@sessions_app.command("show")
@errors_to_exit
def show_session(
    session: str = typer.Argument(..., metavar="SESSION", help="session id, id prefix or file path"),
    moves: int = typer.Option(10, "--moves", "-m", min=0, metavar="N", help="list the last N moves (default: 10; 0: none)"),
    full: bool = typer.Option(False, "--full", help="the whole board instead of the compact view"),
    home: Path | None = typer.Option(None, "--gm-home", metavar="DIR", help=HOME_HELP),
) -> None:
    """Show a saved game: players, seed, moves, board and status."""
    from gm.session import Session

    s = Session.open(session, home=home, record=False)
    seat = viewer(s)
    players = ", ".join(f"{name} {p}" for name, p in s.players.items())
    n = len(s.state.log)
    echo(f"{s.id}: {s.game.name} ({s.game.id}), {plural(n, 'move')}, created {s.created or 'unknown'}")
    echo(f"players: {players}")
    if s.practice:
        echo(f"seed: {s.secret.seed} (a practice game)")
    elif s.state.is_terminal:
        echo(f"seed: {s.secret.seed} (revealed; commitment sha256 {s.seed_commitment})")
    else:
        echo(f"seed: hidden until the game ends (commitment sha256 {s.seed_commitment})")
    if s.path:
        echo(f"file: {s.path}")
    if moves and n:
        log = s.log(seat)
        first = max(0, n - moves)
        echo(f"last {plural(n - first, 'move')}:" if first else "moves:")
        for i in range(first, n):
            echo(f"  {i + 1:4}. {log[i][0]}: {log[i][1]}")
    echo(s.game.render(s.state, seat, full=full))
    status = s.game.status(s.state, seat)
    echo(status)
    if s.state.outcome is not None:
        if str(s.state.outcome) not in status:
            echo(f"Game over: {s.state.outcome}.")
    else:
        echo(f"Continue with: gm play --resume {s.id}")


@sessions_app.command("delete")
@errors_to_exit
def delete_sessions(
    session: list[str] = typer.Argument(..., metavar="SESSION", help="session ids or id prefixes"),
    yes: bool = typer.Option(False, "--yes", "-y", help="do not ask before deleting"),
    home: Path | None = typer.Option(None, "--gm-home", metavar="DIR", help=HOME_HELP),
) -> None:
    """Delete saved games and their transcripts."""
    from gm.session.store import resolve

    store = _store(home)
    ids = list(dict.fromkeys(resolve(store, ref) for ref in session))  # every reference checked before any delete
    infos = [store.info(sid) for sid in ids]
    now = time.time()
    if not yes:
        if not can_ask():
            fail(f"deleting {plural(len(ids), 'saved game')} needs --yes when gm cannot ask at a terminal")
        names = ", ".join(f"{i.id} ({i.game}, saved {age(now - i.updated)})" for i in infos)
        if not typer.confirm(f"Delete {names}?", default=False):
            echo("Nothing deleted.")
            raise typer.Exit(1)
    for info in infos:
        store.delete(info.id)
        echo(f"deleted {info.id} ({info.game}, saved {age(now - info.updated)})")


@sessions_app.command("repair")
@errors_to_exit
def repair_sessions(
    session: list[str] = typer.Argument(None, metavar="[SESSION]...", help="session ids or id prefixes"),
    every: bool = typer.Option(False, "--all", help="every session of the gm home (rebuilds the home's anchor index)"),
    yes: bool = typer.Option(False, "--yes", "-y", help="do not ask before accepting a loss"),
    home: Path | None = typer.Option(None, "--gm-home", metavar="DIR", help=HOME_HELP),
) -> None:
    """Accept saved games as they are now, saying what is lost.

    A game whose last moves were cut off (a file put back from a backup, a copy from an older day)
    is refused on every load, because a player could otherwise take back moves already seen
    answered. This accepts each named game as its file now holds it: the moves past that are lost
    for good. An edited game stays refused: nothing makes an edit check out."""
    from gm.session import FileStore
    from gm.session.repair import inspect, repair, repair_all
    from gm.session.store import resolve

    store = FileStore(home)
    if every == bool(session):
        fail("name the sessions to repair, or give --all (not both)")
    ids = store.ids() if every else list(dict.fromkeys(resolve(store, ref) for ref in session))
    if every:
        if not yes:
            if not can_ask():
                fail("rebuilding the anchor index of every session needs --yes when gm cannot ask at a terminal")
            if not typer.confirm(f"Accept all {plural(len(ids), 'saved game')} in {store.dir} as they are now?", default=False):
                echo("Nothing repaired.")
                raise typer.Exit(1)
        done, skipped = repair_all(store, ids)
        for one in done:
            echo(one.describe())
        for sid, why in skipped:
            echo(f"{sid}: left out: {why}")
        echo(f"anchor index rebuilt: {plural(len(done), 'saved game')}" + (f", {len(skipped)} left out" if skipped else ""))
        return
    found = [inspect(store, sid) for sid in ids]  # every session checked before any is repaired
    todo = [f for f in found if f.problem is not None]
    for f in found:
        if f.problem is None:
            echo(f.describe())
    if not todo:
        return
    for f in todo:
        echo(f"{f.session}: refused: {f.problem}")
    if not yes:
        if not can_ask():
            fail(f"accepting {plural(len(todo), 'saved game')} as they are needs --yes when gm cannot ask at a terminal")
        lost = sum(f.lost for f in todo)
        loss = f" ({plural(lost, 'record')} lost for good)" if lost else ""
        if not typer.confirm(f"Accept {plural(len(todo), 'saved game')} as they are now{loss}?", default=False):
            echo("Nothing repaired.")
            raise typer.Exit(1)
    for f in todo:
        echo(repair(store, f.session).describe())
