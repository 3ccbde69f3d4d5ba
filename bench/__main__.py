"""``python -m bench [--quick] [--json] [--only NAME ...] [--list]``: run the bench modules.

Prints one table (or, with ``--json``, one JSON document on stdout); progress goes to
stderr.  Exit code 1 if any module failed, 2 for a bad command line.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from typing import Any

from bench import ModuleResult, discover, format_table, load_recorded, met, run_module, save_recorded, select


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench", description="Run the gm benchmarks (bench/bench_*.py).")
    p.add_argument("--quick", action="store_true", help="fast smoke run (fewer games and repeats)")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON instead of a table")
    p.add_argument(
        "--only", action="append", default=[], metavar="NAME",
        help="run only this module (e.g. grid_football or bench_tools; repeat or comma-separate)",
    )
    p.add_argument("--list", action="store_true", help="list the bench modules and exit")
    p.add_argument("--record", action="store_true", help="record this run's figures in bench/recorded.json (the 'last' column)")
    return p.parse_args(argv)


def to_json(results: list[ModuleResult], quick: bool, seconds: float) -> dict[str, Any]:
    return {
        "meta": {
            "quick": quick,
            "python": platform.python_version(),
            "platform": platform.platform(),
            "machine": platform.machine(),
            "seconds": round(seconds, 3),
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "commit": _commit(),
        },
        "results": [
            {
                "module": r.module,
                "seconds": round(r.seconds, 3),
                "error": r.error,
                "rows": [{**row, "met": met(row["value"], row.get("target"))} for row in r.rows],
            }
            for r in results
        ],
    }


def _commit() -> str | None:
    """The checkout's commit (``None`` outside a git checkout)."""
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    available = discover()
    if args.list:
        print("\n".join(available))
        return 0
    try:
        names = select(available, args.only)
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    results: list[ModuleResult] = []
    for name in names:
        print(f"[bench] {name} ...", file=sys.stderr, flush=True)
        res = run_module(name, args.quick)
        status = f"error: {res.error}" if res.error else f"{len(res.rows)} rows"
        print(f"[bench] {name}: {status} in {res.seconds:.1f}s", file=sys.stderr, flush=True)
        results.append(res)
    total = time.perf_counter() - t0
    recorded = load_recorded()
    doc = to_json(results, args.quick, total)
    if args.record:
        save_recorded(results, doc["meta"])
    if args.json:
        for res in doc["results"]:
            for row in res["rows"]:
                last = recorded.get(f"{res['module']}/{row['name']}")
                row["last"] = last["value"] if last else None
        json.dump(doc, sys.stdout, indent=2, default=str)
        print()
    else:
        print(format_table(results, recorded))
        print(f"\n{len(results)} modules in {total:.1f}s{' (quick)' if args.quick else ''}")
    return 1 if any(r.error for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
