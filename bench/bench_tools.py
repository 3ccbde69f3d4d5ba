"""Tool-call throughput through the registry vs raw engine applies, and ``gm --help`` cold start.

``run(quick)`` returns rows ``{name, value, unit, note}`` for ``python -m bench``.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

GAME_ID = "grid-football"


def _recorded_games(n: int) -> list[tuple[int, list[tuple[str, Any]]]]:
    """Seeded random bot-vs-bot games as (seed, [(seat, action)])."""
    from gm.core.registry import find_game

    game = find_game(GAME_ID)
    out = []
    for seed in range(n):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        moves = []
        while not st.is_terminal:
            seat = st.to_act()[0]
            action = rng.choice(list(st.legal_actions(seat)))
            st.apply(seat, action)
            moves.append((seat, action))
        out.append((seed, moves))
    return out


def _rate(count: int, seconds: float) -> float:
    return count / seconds if seconds > 0 else float("inf")


def _throughput(quick: bool) -> list[dict[str, Any]]:
    from gm.core.registry import find_game
    from gm.core.tools import call_for_action
    from gm.session import Session

    game = find_game(GAME_ID)
    games = _recorded_games(8 if quick else 40)
    tools = game.tools()
    calls = [(seed, [(seat, *call_for_action(tools, a)) for seat, a in moves]) for seed, moves in games]
    total = sum(len(m) for _, m in games)
    hot_seat = {s: "human" for s in game.seats}

    t0 = time.perf_counter()
    for seed, moves in games:
        st = game.new_state(seed=seed)
        for seat, action in moves:
            st.apply(seat, action)
    raw = _rate(total, time.perf_counter() - t0)

    t0 = time.perf_counter()
    for seed, moves in games:
        st = game.new_state(seed=seed)
        for seat, action in moves:
            st.apply(seat, str(action))
    raw_text = _rate(total, time.perf_counter() - t0)

    t0 = time.perf_counter()
    for seed, seq in calls:
        s = Session.create(game, seed=seed, players=hot_seat, persist=False)
        for seat, name, args in seq:
            s.call(name, args, seat)
    mem = _rate(total, time.perf_counter() - t0)

    with tempfile.TemporaryDirectory() as home:
        longest = None
        t0 = time.perf_counter()
        for seed, seq in calls:
            s = Session.create(game, seed=seed, players=hot_seat, home=home)
            for seat, name, args in seq:
                s.call(name, args, seat)
            if longest is None or len(s.state.log) > len(longest.state.log):
                longest = s
        disk = _rate(total, time.perf_counter() - t0)
        assert longest is not None and longest.path is not None
        t0 = time.perf_counter()
        reopen_n = 10 if quick else 50
        for _ in range(reopen_n):
            Session.open(longest.path)
        reopen_ms = (time.perf_counter() - t0) / reopen_n * 1000
        moves_last = len(longest.state.log)
        final = longest.state

    n_r = 200 if quick else 1000
    t0 = time.perf_counter()
    for _ in range(n_r):
        game.render(final, "home")
    render_us = (time.perf_counter() - t0) / n_r * 1e6

    s = Session.create(game, seed=0, players=hot_seat, persist=False)
    n_q = 300 if quick else 2000
    t0 = time.perf_counter()
    for _ in range(n_q):
        s.call("get_status", {}, "home")
    queries = _rate(n_q, time.perf_counter() - t0)
    t0 = time.perf_counter()
    for _ in range(n_q):
        s.call("call_play", '{"play": 9, "colour": "purple"}', "home")
    rejected = _rate(n_q, time.perf_counter() - t0)

    note = f"{len(games)} seeded random games, {total} actions"
    return [
        {"name": "tools.raw_apply", "value": round(raw), "unit": "applies/s", "note": f"engine state.apply(seat, Action); {note}"},
        {"name": "tools.raw_apply_text", "value": round(raw_text), "unit": "applies/s", "note": "engine apply of the action's text form (parse + check)"},
        {"name": "tools.call_memory", "value": round(mem), "unit": "calls/s", "note": f"Session.call (JSON args checked, result with events, board window, expected), in memory; {mem / raw:.2f}x raw"},
        {"name": "tools.call_disk", "value": round(disk), "unit": "calls/s", "note": f"Session.call saved to an append-only file per call; {disk / raw:.2f}x raw"},
        {"name": "tools.query_status", "value": round(queries), "unit": "calls/s", "note": "get_status query (a seat's view)"},
        {"name": "tools.rejected_call", "value": round(rejected), "unit": "calls/s", "note": "malformed call answered with ok: false"},
        {"name": "tools.render_window", "value": round(render_us), "unit": "us",
         "note": f"the board window every action result carries (game.render); {render_us / (1e6 / mem):.0%} of a call"},
        {"name": "tools.session_open", "value": round(reopen_ms, 2), "unit": "ms", "note": f"Session.open replaying a {moves_last}-action log"},
    ]


def _cold_start(quick: bool) -> list[dict[str, Any]]:
    n = 3 if quick else 10

    def timed(args: list[str]) -> float:
        samples = []
        for _ in range(n):
            t0 = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True)
            samples.append(time.perf_counter() - t0)
        return statistics.median(samples) * 1000

    help_ms = timed([sys.executable, "-m", "gm", "--help"])
    base_ms = timed([sys.executable, "-c", "pass"])
    probe = (
        "import sys, gm.cli.app\n"
        "print(','.join(m for m in ('openai', 'anthropic', 'scipy', 'mcp') if m in sys.modules) or 'none')"
    )
    heavy = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout.strip()
    return [
        {"name": "cli.help_cold_start", "value": round(help_ms, 1), "unit": "ms",
         "note": f"median of {n} `python -m gm --help` runs; bare interpreter {base_ms:.0f} ms; heavy modules imported: {heavy}"},
    ]


def run(quick: bool) -> list[dict[str, Any]]:
    """Benchmark rows: tool-call throughput vs raw applies, and the CLI's cold start."""
    return [*_throughput(quick), *_cold_start(quick)]


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(f"{row['name']:24} {row['value']:>12} {row['unit']:10} {row['note']}")
