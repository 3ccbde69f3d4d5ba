"""Benchmarks: ``python -m bench`` (``make bench``) runs every ``bench/bench_*.py`` module.

A bench module is any ``bench/bench_NAME.py`` exposing::

    def run(quick: bool = False) -> list[dict[str, Any]]:
        ...  # rows {"name", "value", "unit", "note", "target"}: see :func:`row`

``quick`` asks for a fast smoke run (CI, a minute or less for everything).  Modules are
discovered by file name and imported one at a time; a module that fails to import, raises
or returns malformed rows is reported as an error row and the run goes on (the exit code
is then 1).  Speed is measured here and never in timed tests.

Shared helpers for modules: :func:`wilson` (95% interval of a proportion) and :func:`row`.

A row may carry a ``target`` (``">= 50000"``, ``"<= 3"``): the table shows it beside the figure,
whether it was met, and the figure last recorded in ``bench/recorded.json`` (``python -m bench
--record`` writes a run there, so figures can be compared across commits).
"""

from __future__ import annotations

import importlib
import json
import re
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
PREFIX = "bench_"
FIELDS = ("name", "value", "unit", "note", "target")
RECORDED = BENCH_DIR / "recorded.json"
_TARGET = re.compile(r"^\s*(>=|<=|>|<|==)\s*(-?[0-9][0-9_,.]*)\s*$")


def row(name: str, value: float | int | str, unit: str = "", note: str = "", target: str | None = None) -> dict[str, Any]:
    """One result row; ``target`` is a comparison the figure should meet, e.g. ``">= 50000"``."""
    if target is not None and not _TARGET.match(target):
        raise ValueError(f"a target is a comparison like '>= 50000', not {target!r}")
    return {"name": name, "value": value, "unit": unit, "note": note, "target": target}


def met(value: Any, target: str | None) -> bool | None:
    """Whether ``value`` meets ``target`` (``None`` when there is no target or no number)."""
    m = _TARGET.match(target or "")
    if not m or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    goal = float(m.group(2).replace(",", "").replace("_", ""))
    return {">=": value >= goal, "<=": value <= goal, ">": value > goal, "<": value < goal, "==": value == goal}[m.group(1)]


def load_recorded(path: Path = RECORDED) -> dict[str, Any]:
    """The last recorded figures: ``{"module/name": {"value", "unit", "commit", "date"}}``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data.get("figures", {}) if isinstance(data, dict) else {}


def save_recorded(results: list[ModuleResult], meta: dict[str, Any], path: Path = RECORDED) -> None:
    """Record this run's numeric figures (merged into what is there: modules not run keep theirs)."""
    figures = load_recorded(path)
    for res in results:
        for r in res.rows:
            if isinstance(r["value"], int | float) and not isinstance(r["value"], bool):
                figures[f"{res.module}/{r['name']}"] = {
                    "value": r["value"], "unit": r["unit"], "commit": meta.get("commit"), "date": meta.get("started"),
                }
    path.write_text(json.dumps({"figures": dict(sorted(figures.items()))}, indent=1) + "\n", encoding="utf-8")


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval (95% by default) of ``successes`` out of ``n`` (:func:`gm.balance.stats.wilson`)."""
    from gm.balance.stats import wilson as interval

    return interval(successes, n, z)


def play_out(state: Any, bots: dict[str, Any]) -> int:
    """Play a game to its end with ``bots`` (seat -> bot); the number of actions (the core's loop)."""
    from gm.core.playout import play_out as core_play_out

    return core_play_out(state, bots)


def discover(directory: Path = BENCH_DIR) -> list[str]:
    """Names of the bench modules (``bench_tools.py`` -> ``tools``), sorted."""
    return sorted(p.stem[len(PREFIX):] for p in directory.glob(f"{PREFIX}*.py"))


def select(available: Iterable[str], only: Iterable[str]) -> list[str]:
    """The modules named in ``only`` (``tools`` or ``bench_tools``; comma lists allowed).

    Raises :class:`ValueError` naming the available modules for an unknown name."""
    names = list(available)
    wanted: list[str] = []
    for item in only:
        for part in item.split(","):
            name = part.strip().removeprefix(PREFIX).removesuffix(".py")
            if not name:
                continue
            if name not in names:
                raise ValueError(f"no bench module {part.strip()!r}; available: {', '.join(names) or '(none)'}")
            if name not in wanted:
                wanted.append(name)
    return wanted or names


@dataclass
class ModuleResult:
    """What one module produced: its rows, wall time and error (if any)."""

    module: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None


def check_rows(rows: object) -> list[dict[str, Any]]:
    """Validate a module's return value; raise :class:`TypeError` saying what is wrong."""
    if not isinstance(rows, list):
        raise TypeError(f"run() must return a list of rows, got {type(rows).__name__}")
    out = []
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise TypeError(f"row {i} is a {type(r).__name__}, not a dict")
        missing = [f for f in ("name", "value") if f not in r]
        if missing:
            raise TypeError(f"row {i} lacks {', '.join(missing)}")
        target = r.get("target")
        out.append({"name": str(r["name"]), "value": r["value"], "unit": str(r.get("unit", "")), "note": str(r.get("note", "")),
                    "target": str(target) if target else None})
    return out


def run_module(name: str, quick: bool, package: str = "bench") -> ModuleResult:
    """Import ``bench.bench_NAME`` and run it; errors become :attr:`ModuleResult.error`."""
    res = ModuleResult(name)
    t = time.perf_counter()
    try:
        mod = importlib.import_module(f"{package}.{PREFIX}{name}")
        fn = getattr(mod, "run", None)
        if not callable(fn):
            raise TypeError("module has no run(quick) function")
        res.rows = check_rows(fn(quick=quick))
    except Exception as exc:  # a broken module must not stop the others
        tb = traceback.extract_tb(exc.__traceback__)
        where = f" ({Path(tb[-1].filename).name}:{tb[-1].lineno})" if tb else ""
        res.error = f"{type(exc).__name__}: {exc}{where}"
    res.seconds = time.perf_counter() - t
    return res


def format_value(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}" if abs(value) < 1 else f"{value:.2f}"


def format_table(results: list[ModuleResult], recorded: dict[str, Any] | None = None) -> str:
    """One plain-text table of every module's rows (errors included): each figure beside its
    target (``ok``/``MISS``) and the figure last recorded."""
    recorded = recorded or {}
    lines: list[tuple[str, ...]] = []
    for res in results:
        for r in res.rows:
            ok = met(r["value"], r.get("target"))
            last = recorded.get(f"{res.module}/{r['name']}")
            lines.append((
                res.module, r["name"], format_value(r["value"]), r["unit"],
                (r.get("target") or "") + ("" if ok is None else (" ok" if ok else " MISS")),
                format_value(last["value"]) if last else "",
                r["note"],
            ))
        if res.error:
            lines.append((res.module, "ERROR", "-", "", "", "", res.error))
        lines.append((res.module, "(module time)", f"{res.seconds:.1f}", "s", "", "", ""))
    head = ("module", "benchmark", "value", "unit", "target", "last", "note")
    widths = [max(len(h), *(len(line[i]) for line in lines)) if lines else len(h) for i, h in enumerate(head[:6])]
    out = []

    def fmt(cells: tuple[str, ...]) -> str:
        w = widths
        return (
            f"{cells[0]:<{w[0]}}  {cells[1]:<{w[1]}}  {cells[2]:>{w[2]}}  {cells[3]:<{w[3]}}  {cells[4]:<{w[4]}}  "
            f"{cells[5]:>{w[5]}}  {cells[6]}"
        ).rstrip()

    out.append(fmt(head))
    out.append("-" * min(180, sum(widths) + 12 + 40))
    prev = None
    for line in lines:
        if prev is not None and line[0] != prev:
            out.append("")
        out.append(fmt(line))
        prev = line[0]
    return "\n".join(out)


__all__ = [
    "FIELDS",
    "ModuleResult",
    "check_rows",
    "discover",
    "format_table",
    "load_recorded",
    "met",
    "row",
    "run_module",
    "save_recorded",
    "select",
    "wilson",
]
