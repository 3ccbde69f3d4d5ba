"""Shared pieces of the command line: the typer app and the error edge.

Command modules import ``app`` from here and register their commands on it;
``gm.cli.app`` imports every command module.  Keep imports of heavy packages
(LLM SDKs, scipy) inside the command functions so ``gm --help`` stays fast.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import typer

from gm.core.errors import GameError

app = typer.Typer(
    name="gm",
    help="gm: play board games with a deterministic rules engine and an AI (or offline) referee.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one clear error line on stderr and exit non-zero."""
    typer.echo(f"gm: error: {message}", err=True)
    raise typer.Exit(code)


def errors_to_exit(func: F) -> F:
    """Turn domain errors (and unreadable files) raised by a command into one CLI error line."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except GameError as exc:
            fail(exc.message)
        except OSError as exc:
            fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))

    return wrapper  # type: ignore[return-value]


def echo(text: str = "") -> None:
    typer.echo(text)


def stdout_is_tty() -> bool:
    return sys.stdout.isatty()
