"""Shared pieces of the command line: the typer app and the error edge.

Command modules import ``app`` from here and register their commands on it;
``gm.cli.app`` imports every command module.  Keep imports of heavy packages
(LLM SDKs, scipy) inside the command functions so ``gm --help`` stays fast.

The edge: every error is one line on stderr (``gm: error: ...``), never a traceback:
domain errors (:func:`errors_to_exit`), and the command line's own usage errors (a
missing argument, an unknown option: :class:`GmGroup`).  A reader that stops reading
(``gm new ... | head -1``) is not an error: gm stops writing and exits 0.  Help is
click's plain layout (typer's boxed panels put a default or ``[required]`` on a line of
its own and show ``<bool>`` after flags that take no value).
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any, NoReturn, TypeVar

import typer
from typer.core import TyperCommand, TyperGroup

from gm.core.errors import GameError

F = TypeVar("F", bound=Callable[..., Any])


def _typed(path: str) -> str:
    """``path`` as a shell here takes it: its name when the shell finds this very file by that name,
    else relative to the working folder when it lies below it (``.venv/bin/gm``), else absolute."""
    import shutil

    name = os.path.basename(path)
    found = shutil.which(name)
    if found and os.path.realpath(found) == os.path.realpath(path):
        return name
    full = os.path.abspath(path)
    rel = os.path.relpath(full)
    return rel if not rel.startswith("..") and os.sep in rel else full


def gm_command() -> str:
    """``gm`` as the user can type it where they are, for the hints gm prints ("Resume with: ... play
    --resume ID"): ``gm`` when the shell's ``gm`` is this one; the script as it was run when it is not
    on the PATH (``.venv/bin/gm`` after ``make play``); ``python -m gm`` with this interpreter when run
    that way.  Run from inside another program (a test runner), the command's own name, ``gm``."""
    argv0 = sys.argv[0] if sys.argv and sys.argv[0] else ""
    if os.path.basename(argv0) == "__main__.py" and os.path.basename(os.path.dirname(os.path.abspath(argv0))) == "gm":
        return f"{_typed(sys.executable)} -m gm"
    if os.path.basename(argv0) != "gm":
        return "gm"
    return _typed(argv0)


def reader_gone() -> NoReturn:
    """The reader of our output went away (``| head``): write nothing more, exit 0.  Standard
    output and error are pointed at the null device so the interpreter's last flush is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):  # not a real file (a test runner's buffer)
            continue
    os.close(devnull)
    raise typer.Exit(0)


class GmGroup(TyperGroup):
    """The ``gm`` group: the command line's own errors in one line, like gm's domain errors."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, *more: Any, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, *more, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, *more, **extra)
        except Exception as exc:
            if type(exc).__name__ == "Abort":  # typer's (or click's) Abort: Ctrl-C at a confirm prompt
                typer.echo("gm: aborted", err=True)
                sys.exit(1)
            if not hasattr(exc, "format_message") or not hasattr(exc, "exit_code"):
                raise
            if type(exc).__name__ == "NoArgsIsHelpError":  # a group run bare: its help, as --help gives it
                typer.echo(exc.format_message())
                sys.exit(0)
            # a usage error (click's ClickException family: missing argument, bad value, unknown option)
            ctx = getattr(exc, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            message = " ".join(str(exc.format_message()).split())
            typer.echo(f"gm: error: {message}{hint}", err=True)
            sys.exit(int(exc.exit_code))
        sys.exit(code if isinstance(code, int) else 0)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_params(self, ctx, formatter)
        self.format_commands(ctx, formatter)


def _format_params(command: Any, ctx: Any, formatter: Any) -> None:
    """The Arguments and Options sections of a command's help (see :class:`GmCommand`)."""
    args, opts = [], []
    for p in command.get_params(ctx):
        if getattr(p, "hidden", False):
            continue
        if p.param_type_name == "argument":
            args.append((_argument_name(p) + ("..." if p.nargs != 1 else ""), p.help or ""))
        elif p.param_type_name == "option":
            names = ", ".join(sorted(p.opts, key=len))
            opts.append((names if p.is_flag else f"{names} {p.metavar or _option_metavar(p)}", p.help or ""))
    for title, rows in (("Arguments", args), ("Options", opts)):
        if rows:
            with formatter.section(title):
                formatter.write_dl(rows)


def _option_metavar(param: Any) -> str:
    """An option's value named after the option (``--store STORE``) when it gives no metavar."""
    return max(param.opts, key=len).lstrip("-").replace("-", "_").upper()


def _argument_name(param: Any) -> str:
    return str(param.metavar or (param.name or "").upper())


def _argument_usage(param: Any) -> str:
    name = _argument_name(param) + ("..." if param.nargs != 1 else "")
    return name if param.required else f"[{name}]"


class GmCommand(TyperCommand):
    """A ``gm`` command: arguments shown by their names (``GAME``, ``[GAME]``) in the usage line and
    in the help, without a type tag; options by their metavars (``--seed N``); flags bare.  An
    option's help says its default and range in words (click's ``[default: ...]`` tags wrap onto
    lines of their own)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        return pieces + [_argument_usage(p) for p in self.get_params(ctx) if p.param_type_name == "argument"]

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_params(self, ctx, formatter)


class GmTyper(typer.Typer):
    """The typer app, with gm's group and command classes and plain (click-style) help."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("cls", GmGroup)
        super().__init__(rich_markup_mode=None, **kwargs)

    def command(self, *args: Any, cls: Any = None, **kwargs: Any) -> Any:
        return super().command(*args, cls=cls or GmCommand, **kwargs)


app = GmTyper(
    name="gm",
    help="gm: play board games with a deterministic rules engine and an AI (or offline) referee.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"max_content_width": 100},
)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one clear error line on stderr and exit non-zero."""
    typer.echo(f"gm: error: {message}", err=True)
    raise typer.Exit(code)


def seat_options(items: Iterable[str] | None, mistake: Callable[[str], str], *, seats: Collection[str] | None = None,
                 value: Callable[[str], bool] = bool) -> dict[str, str]:
    """Seat -> value from a repeatable ``SEAT=VALUE`` option (``--player home=bot``), both sides stripped;
    the first item that is not one (no ``=``, no seat, a seat not in ``seats``, a value ``value`` refuses:
    by default an empty one) fails with the one line ``mistake(item)``, each command's own wording."""
    out: dict[str, str] = {}
    for item in items or []:
        seat, sep, spec = (part.strip() for part in item.partition("="))
        if not sep or not seat or (seats is not None and seat not in seats) or not value(spec):
            fail(mistake(item))
        out[seat] = spec
    return out


def check_llm_options(name: str, model: str | None, base_url: str | None, api: str) -> None:
    """The options of an LLM referee (``--referee openai|anthropic``) that go together, or one
    error line (``gm play`` and ``gm eval`` take the same ones)."""
    if api not in ("chat", "responses"):
        fail(f"--api is chat or responses, not {api!r}")
    if name == "anthropic" and api != "chat":
        fail("--api is for --referee openai")
    if base_url and not model:
        fail("--base-url needs --model: the model name the server knows (e.g. llama3.1 for Ollama)")


def error_line(exc: GameError) -> str:
    """A domain error as one CLI line: its message, then what would be right (its legal options)."""
    legal = [str(x) for x in exc.legal]
    if not legal or all(x in exc.message for x in legal):  # none, or the message lists them already
        return exc.message
    shown = ", ".join(legal[:20]) + (f" ... ({len(legal)} in all)" if len(legal) > 20 else "")
    return f"{exc.message.rstrip('.')}; choose from: {shown}"


def errors_to_exit(func: F) -> F:
    """Turn domain errors (and unreadable files) raised by a command into one CLI error line; a command
    run with ``--json`` (its ``as_json``) also prints a refusal as ``{"ok": false, "error": ...}`` on
    stdout (:func:`gm.core.errors.error_json`)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BrokenPipeError:
            reader_gone()
        except GameError as exc:
            if kwargs.get("as_json") is True:  # a --json command: the refusal in the one JSON shape too
                import json

                from gm.core.errors import error_json

                typer.echo(json.dumps({"ok": False, "error": error_json(exc)}, ensure_ascii=False))
            fail(error_line(exc))
        except OSError as exc:
            fail(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))

    return wrapper  # type: ignore[return-value]


def echo(text: str = "") -> None:
    typer.echo(text)


def echo_err(text: str = "") -> None:
    typer.echo(text, err=True)


def stdout_is_tty() -> bool:
    """Whether standard output is a terminal (``gm new`` prints only the id when it is not)."""
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed, or a test runner's buffer
        return False
