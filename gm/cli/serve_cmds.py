"""``gm serve``: many players at once over HTTP (MCP and a JSON API), and ``gm admin`` for its games.

The server (``gm.server``: Starlette, uvicorn, the ``mcp`` SDK, psycopg for PostgreSQL) is imported
only when a command runs.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from gm.cli.base import GmTyper, app, echo, errors_to_exit, fail

DEFAULT_PORT = 8765

admin_app = GmTyper(help="Administer the games of a gm serve store.\n\nLocal: reads the store directly.", no_args_is_help=True)
app.add_typer(admin_app, name="admin")


def default_store(home: Path | None = None) -> str:
    """``$GM_STORE``, else SQLite in the gm home (``$GM_HOME/gm.sqlite``)."""
    from gm.session import default_home

    env = os.environ.get("GM_STORE")
    if env:
        return env
    return f"sqlite:{(home.expanduser() if home else default_home()) / 'gm.sqlite'}"


def open_served_store(spec: str, key_file: Path | None) -> object:
    """The store ``spec`` names, sealed with the server's key: ``--key-file``, ``$GM_SECRET_KEY`` or
    ``$GM_KEY_FILE`` (required for PostgreSQL: many processes must share it), else for SQLite the gm
    home's key file.  Never a key kept in the database."""
    from gm.session import KeyRing, MemoryStore
    from gm.session.keys import read_key_file
    from gm.session.sql import open_sql_store

    keys: KeyRing | None = None
    if key_file is not None:
        keys = read_key_file(key_file.expanduser(), "the server key")
    text = spec.strip()
    if text in ("memory", "memory:"):
        mem = MemoryStore()
        mem.keys = keys or KeyRing.generate()  # type: ignore[attr-defined]
        return mem
    if text.startswith(("postgresql:", "postgres:")) and keys is None and not (os.environ.get("GM_SECRET_KEY") or os.environ.get("GM_KEY_FILE")):
        fail("a PostgreSQL store needs the server key given explicitly, the same for every process: --key-file FILE or $GM_SECRET_KEY (64 hex digits; gm admin new-key makes one)")
    if not text.startswith(("sqlite:", "postgresql:", "postgres:")):
        fail(f"gm serve keeps its games in a database: --store sqlite:PATH, postgresql://... or memory: (not {spec!r})")
    return open_sql_store(text, keys)  # (no key given: $GM_SECRET_KEY, $GM_KEY_FILE, or for SQLite the gm home's)


def run_server(
    *,
    store: str,
    host: str,
    port: int,
    key_file: Path | None,
    keys_file: Path | None,
    admin_token_file: Path | None,
    game: str | None,
    rate: float,
    max_body: int,
    quiet: bool,
    what: str = "gm serve",
    full_gc_every: float = 600.0,
    header_timeout: float = 10.0,
    body_timeout: float = 20.0,
    allowed_hosts: tuple[str, ...] = (),
    allowed_origins: tuple[str, ...] = (),
    reload: bool = False,
) -> None:
    try:
        from gm.server.access import Keys
        from gm.server.app import ServeConfig, bind, is_loopback, serve
        from gm.server.hub import GameHub
    except ImportError as exc:
        fail(f"gm serve needs the server libraries ({exc.name or exc} is missing): pip install -e .")
    player_keys = None
    if keys_file is not None:
        try:
            player_keys = Keys.from_file(keys_file)
        except OSError as exc:
            fail(f"cannot read the keys file {keys_file}: {exc.strerror or exc}")
        if not player_keys:
            fail(f"the keys file {keys_file} holds no key")
    if not is_loopback(host) and player_keys is None:
        fail(f"refusing to serve on {host} without authentication: give --keys-file FILE (player keys; gm admin new-key makes one), or bind to 127.0.0.1")
    admin_lines: list[str] = []
    if os.environ.get("GM_ADMIN_TOKEN"):
        admin_lines.append(os.environ["GM_ADMIN_TOKEN"])
    if admin_token_file is not None:
        from gm.core.files import KEY_LIMIT, read_text, refuse_shared

        try:
            refuse_shared(admin_token_file.expanduser(), "the admin token file")
            admin_lines.extend(read_text(admin_token_file.expanduser(), KEY_LIMIT, "the admin token file").splitlines())
        except OSError as exc:
            fail(f"cannot read the admin token file {admin_token_file}: {exc.strerror or exc}")
    if game is not None:
        from gm.core.registry import find_game

        game = find_game(game).id
    st = open_served_store(store, key_file)
    config = ServeConfig(host=host, port=port, player_keys=player_keys, admin=Keys(admin_lines), rate=rate, burst=max(3 * rate, 10), max_body=max_body, pinned_game=game, log_requests=not quiet,
                         full_gc_every=full_gc_every, header_timeout=header_timeout, body_timeout=body_timeout,
                         allowed_hosts=tuple(allowed_hosts), allowed_origins=tuple(allowed_origins))
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(message)s"))
    access = logging.getLogger("gm.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    access.propagate = False
    try:
        sock = bind(host, port)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
    hub = GameHub(st)  # type: ignore[arg-type]
    if reload:
        from gm.core.game import reload_view_hooks

        reload_view_hooks()

    def ready(url: str) -> None:
        if reload:
            print(f"{what}: --reload: the games' board and move-builder hooks are read again when their files change", file=sys.stderr, flush=True)
        if what == "gm serve":  # people come to play: where first
            line = f"{what}: play in a browser at {url}/ ; MCP at {url}/mcp; API at {url}/api; games in {hub.store.description}"
        else:  # gm mcp --transport http: an MCP server first (the page is there too)
            line = f"{what}: serving MCP at {url}/mcp; API at {url}/api; the page at {url}/ ; games in {hub.store.description}"
        print(line, file=sys.stderr, flush=True)

    try:
        serve(hub, config, sock, ready)
    finally:
        sock.close()
        close = getattr(st, "close", None)
        if callable(close):
            close()


@app.command("serve")
@errors_to_exit
def serve_cmd(
    store: str | None = typer.Option(None, "--store", help="sqlite:PATH | postgresql://... | memory: (default $GM_STORE, else sqlite:$GM_HOME/gm.sqlite)"),
    host: str = typer.Option("127.0.0.1", "--host", help="address to bind (anything but loopback needs --keys-file)"),
    port: int = typer.Option(DEFAULT_PORT, "--port", "-p", min=0, max=65535, help="port (0: any free port)"),
    key_file: Path | None = typer.Option(None, "--key-file", help="the server key (64 hex digits) that seals the games; default $GM_SECRET_KEY / $GM_KEY_FILE, for SQLite the gm home's key"),
    keys_file: Path | None = typer.Option(None, "--keys-file", help="player keys allowed to create and join games (one per line, or sha256:HEX)"),
    admin_token_file: Path | None = typer.Option(None, "--admin-token-file", help="the admin token (also $GM_ADMIN_TOKEN): lists and ends games over the API"),
    game: str | None = typer.Option(None, "--game", "-g", help="serve only this game"),
    rate: float = typer.Option(20.0, "--rate", min=0, help="requests per second per token/session/address (0: no limit); bursts of 3x"),
    max_body: int = typer.Option(64 * 1024, "--max-body", min=1024, help="largest request body in bytes"),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="no access log"),
    home: Path | None = typer.Option(None, "--home", help="gm home (default $GM_HOME or ~/.gm) for the default SQLite store and key"),
    full_gc_every: float = typer.Option(600.0, "--full-gc-every", min=0, metavar="SECONDS",
                                        help="seconds between the garbage collector's complete passes, the only full passes it makes (0: Python's own collector)"),
    header_timeout: float = typer.Option(10.0, "--header-timeout", min=0.1, max=600, metavar="SECONDS",
                                         help="seconds a request's line and headers may take to arrive (a slower client is dropped)"),
    body_timeout: float = typer.Option(20.0, "--body-timeout", min=0.1, max=600, metavar="SECONDS",
                                       help="seconds a request's body may take to arrive after its headers (408)"),
    allowed_host: list[str] = typer.Option([], "--allowed-host", metavar="NAME",
                                           help="a Host name to answer besides loopback ones, e.g. the public name a TLS proxy passes on (repeatable)"),
    allow_origin: list[str] = typer.Option([], "--allow-origin", metavar="ORIGIN",
                                           help="another site whose pages may call the API, e.g. https://gm.example.org (repeatable)"),
    reload: bool = typer.Option(False, "--reload",
                                help="for game authors: read a game's board_json and move_builder hooks again when their files change (its rules need a restart)"),
) -> None:
    """Serve many players at once, each in their own games.

    MCP (streamable HTTP at /mcp), a JSON API (/api) and the browser page (/)."""
    if home is not None:
        os.environ["GM_HOME"] = str(home)
    run_server(
        store=store or default_store(home), host=host, port=port, key_file=key_file, keys_file=keys_file,
        admin_token_file=admin_token_file, game=game, rate=rate, max_body=max_body, quiet=quiet,
        full_gc_every=full_gc_every, header_timeout=header_timeout, body_timeout=body_timeout,
        allowed_hosts=tuple(allowed_host), allowed_origins=tuple(allow_origin), reload=reload,
    )


# ------------------------------------------------------------------- admin
def _admin_hub(store: str | None, key_file: Path | None) -> object:
    from gm.server.hub import GameHub

    return GameHub(_existing_store(store, key_file))  # type: ignore[arg-type]


def _existing_store(store: str | None, key_file: Path | None) -> object:
    """The server's store, which must exist already (gm admin reads or mends one; it makes none)."""
    spec = store or default_store()
    if spec.startswith("sqlite:"):
        path = Path(spec.removeprefix("sqlite:").removeprefix("//")).expanduser()
        if not path.is_file():
            fail(f"no database at {path} (give the server's --store)")
    return open_served_store(spec, key_file)


#: the options of every admin command that opens the server's store
Store = Annotated[str | None, typer.Option("--store", help="the server's store (default $GM_STORE, else sqlite:$GM_HOME/gm.sqlite)")]
KeyFile = Annotated[Path | None, typer.Option("--key-file", help="the server key")]
GameId = Annotated[str, typer.Argument(help="the game id")]


@admin_app.command("games")
@errors_to_exit
def admin_games(
    store: Store = None,
    key_file: KeyFile = None,
    as_json: bool = typer.Option(False, "--json", help="JSON lines"),
) -> None:
    """List the games of a server's store, newest first."""
    import json

    hub = _admin_hub(store, key_file)
    for row in hub.games():  # type: ignore[attr-defined]
        if as_json:
            echo(json.dumps(row))
        else:
            ended = f"  ENDED: {row['ended']}" if row["ended"] else ""
            echo(f"{row['session']}  {row['game']}  {row['records']} records  updated {row['updated']}  {row['players']}{ended}")


@admin_app.command("end")
@errors_to_exit
def admin_end(
    session: GameId,
    store: Store = None,
    key_file: KeyFile = None,
    reason: str = typer.Option("ended by the server's admin", "--reason", help="what players are told"),
) -> None:
    """End a game: its seat tokens stop working (the game's record stays)."""
    hub = _admin_hub(store, key_file)
    done = hub.end(session, reason)  # type: ignore[attr-defined]
    echo(f"{session}: {'ended' if done else 'was already ended'}")


@admin_app.command("repair")
@errors_to_exit
# alike on purpose: admin_end's signature; each command's own options after the shared aliases (Store, KeyFile, GameId)
def admin_repair(
    session: GameId,
    store: Store = None,
    key_file: KeyFile = None,
    yes: bool = typer.Option(False, "--yes", "-y", help="do not ask before accepting a loss"),
) -> None:
    """Accept a game as the database holds it now, saying what is lost.

    A game whose last moves were deleted from the database (or whose rows were put back from an
    older copy) is refused; this accepts it as it is: the moves past that are lost for good."""
    import sys

    from gm.session.repair import inspect, repair

    st = _existing_store(store, key_file)
    found = inspect(st, session)  # type: ignore[arg-type]
    if found.problem is None:
        echo(found.describe())
        return
    echo(f"{session}: refused: {found.problem}")
    if not yes:
        if not sys.stdin.isatty():
            fail("accepting a game as it is needs --yes when gm cannot ask at a terminal")
        if not typer.confirm(f"Accept {session} as it is now?", default=False):
            echo("Nothing repaired.")
            raise typer.Exit(1)
    echo(repair(st, session).describe())  # type: ignore[arg-type]


@admin_app.command("new-key")
def admin_new_key() -> None:
    """Print a new random secret: use it as a server key (--key-file), a player key or an admin token.
    The second line is its sha256: a --keys-file may hold that instead of the key."""
    import secrets

    from gm.server.access import digest

    key = secrets.token_hex(32)
    echo(key)
    echo(f"sha256:{digest(key)}")
