"""``gm serve``: many players at once over HTTP (MCP and a JSON API), and ``gm admin`` for its games.

The server (``gm.server``: Starlette, uvicorn, the ``mcp`` SDK, psycopg for PostgreSQL) is imported
only when a command runs.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

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
    from gm.session import KeyRing, MemoryStore, load_keyring
    from gm.session.sql import open_sql_store

    keys: KeyRing | None = None
    if key_file is not None:
        try:
            keys = KeyRing(bytes.fromhex(key_file.expanduser().read_text(encoding="ascii").strip()), source=str(key_file))
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            fail(f"cannot read the key file {key_file}: {exc}")
    text = spec.strip()
    if text in ("memory", "memory:"):
        mem = MemoryStore()
        mem.keys = keys or KeyRing.generate()  # type: ignore[attr-defined]
        return mem
    if text.startswith(("postgresql:", "postgres:")) and keys is None and not (os.environ.get("GM_SECRET_KEY") or os.environ.get("GM_KEY_FILE")):
        fail("a PostgreSQL store needs the server key given explicitly, the same for every process: --key-file FILE or $GM_SECRET_KEY (64 hex digits; gm admin new-key makes one)")
    if not text.startswith(("sqlite:", "postgresql:", "postgres:")):
        fail(f"gm serve keeps its games in a database: --store sqlite:PATH, postgresql://... or memory: (not {spec!r})")
    return open_sql_store(text, keys if keys is not None else load_keyring())


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
        try:
            admin_lines.extend(admin_token_file.expanduser().read_text(encoding="utf-8").splitlines())
        except OSError as exc:
            fail(f"cannot read the admin token file {admin_token_file}: {exc.strerror or exc}")
    if game is not None:
        from gm.core.registry import find_game

        game = find_game(game).id
    st = open_served_store(store, key_file)
    config = ServeConfig(host=host, port=port, player_keys=player_keys, admin=Keys(admin_lines), rate=rate, burst=max(3 * rate, 10), max_body=max_body, pinned_game=game, log_requests=not quiet,
                         full_gc_every=full_gc_every)
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

    def ready(url: str) -> None:
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
) -> None:
    """Serve many players at once, each in their own games.

    MCP (streamable HTTP at /mcp), a JSON API (/api) and the browser page (/)."""
    if home is not None:
        os.environ["GM_HOME"] = str(home)
    run_server(
        store=store or default_store(home), host=host, port=port, key_file=key_file, keys_file=keys_file,
        admin_token_file=admin_token_file, game=game, rate=rate, max_body=max_body, quiet=quiet,
        full_gc_every=full_gc_every,
    )


# ------------------------------------------------------------------- admin
def _admin_hub(store: str | None, key_file: Path | None) -> object:
    from gm.server.hub import GameHub

    return GameHub(open_served_store(store or default_store(), key_file))  # type: ignore[arg-type]


@admin_app.command("games")
@errors_to_exit
def admin_games(
    store: str | None = typer.Option(None, "--store", help="the server's store (default $GM_STORE, else sqlite:$GM_HOME/gm.sqlite)"),
    key_file: Path | None = typer.Option(None, "--key-file", help="the server key"),
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
    session: str = typer.Argument(..., help="the game id"),
    store: str | None = typer.Option(None, "--store", help="the server's store"),
    key_file: Path | None = typer.Option(None, "--key-file", help="the server key"),
    reason: str = typer.Option("ended by the server's admin", "--reason", help="what players are told"),
) -> None:
    """End a game: its seat tokens stop working (the game's record stays)."""
    hub = _admin_hub(store, key_file)
    done = hub.end(session, reason)  # type: ignore[attr-defined]
    echo(f"{session}: {'ended' if done else 'was already ended'}")


@admin_app.command("new-key")
def admin_new_key() -> None:
    """Print a new random secret: use it as a server key (--key-file), a player key or an admin token.
    The second line is its sha256: a --keys-file may hold that instead of the key."""
    import secrets

    from gm.server.access import digest

    key = secrets.token_hex(32)
    echo(key)
    echo(f"sha256:{digest(key)}")
