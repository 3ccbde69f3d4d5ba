"""``gm mcp``: serve the engine to an MCP client (desktop chat apps, coding assistants, agents).

The ``mcp`` SDK (and uvicorn for HTTP) is imported only when the command runs.
"""

from __future__ import annotations

from pathlib import Path

import typer

from gm.cli.base import app, errors_to_exit, fail

TRANSPORTS = ("stdio", "http")
DEFAULT_PORT = 8765


@app.command("mcp")
@errors_to_exit
def mcp(
    game: str | None = typer.Option(None, "--game", "-g", metavar="GAME", help="serve only this game (default: any; the default game until a game starts)"),
    session: str | None = typer.Option(None, "--session", "-s", metavar="SESSION", help="resume this saved session (id, id prefix or path) at start"),
    seat: str | None = typer.Option(None, "--seat", metavar="SEAT", help="with --session: the human side the client plays (default: its only one)"),
    transport: str = typer.Option("stdio", "--transport", "-t", metavar="KIND", help="stdio (the default), or http: the same server as gm serve, on 127.0.0.1 (every client its own games)"),
    port: int = typer.Option(DEFAULT_PORT, "--port", "-p", min=0, max=65535, metavar="PORT", help=f"HTTP port on 127.0.0.1; 0: any free port (default: {DEFAULT_PORT})"),
    home: Path | None = typer.Option(None, "--gm-home", metavar="DIR", help="gm home folder holding the sessions (default: $GM_HOME or ~/.gm)"),
) -> None:
    """Serve the engine to any MCP client.

    Tools (new_game, list_sessions, resume_session and the game's own), resources (board,
    state, rules, quick start) and a referee prompt, over stdio or HTTP."""
    import sys

    kind = transport.strip().lower()
    if kind not in TRANSPORTS:
        fail(f"unknown transport {transport!r}; choose {' or '.join(TRANSPORTS)}")
    if seat is not None and session is None:
        fail("--seat needs --session (new games choose their side with the new_game tool)")
    if kind == "http":
        if session is not None:
            fail("over HTTP every client starts or resumes its own games (new_game, resume_session with its seat token); --session is for stdio")
        from gm.cli.serve_cmds import default_store, run_server

        if home is not None:
            import os

            os.environ["GM_HOME"] = str(home)
        run_server(
            store=default_store(home), host="127.0.0.1", port=port, key_file=None, keys_file=None, admin_token_file=None,
            game=game, rate=20.0, max_body=64 * 1024, quiet=True, what="gm mcp",
        )
        return
    try:
        import anyio

        from gm.mcp_server import server as mcp_server
    except ImportError as exc:
        fail(f"gm mcp needs the mcp SDK version 2 ({exc.name or exc} is missing): pip install 'mcp>=2,<3'")
    from gm.mcp_server import GameHost
    from gm.session import sessions_dir

    host = GameHost(game=game, session=session, seat=seat, home=home)
    where = host.game.id + (f" (session {host.session.id} as {host.seat})" if host.session else "")
    note = f"gm mcp: serving {where} {{}}; sessions in {sessions_dir(home)}"
    if kind == "stdio":
        print(note.format("on stdio"), file=sys.stderr, flush=True)  # stdout is the protocol channel
        anyio.run(mcp_server.serve_stdio, host)
        return
    raise AssertionError(f"unknown transport {kind}")  # pragma: no cover - checked above
