"""A bounded load generator for ``gm serve`` on loopback (MCP and the JSON API), and its report.

Players are asyncio tasks over plain HTTP/1.1 keep-alive connections (a hand-rolled client: a few
dozen lines, so the generator itself stays cheap, and its cost is measured and reported: CPU seconds
per call).  Each player connects (TCP + the MCP ``initialize`` handshake, timed as the *connect*),
starts its own game against the random bot, then makes one tool call after another at exponential
intervals (``legal_actions``, then a random legal move, ...), starting a new game when one ends.  At
the end every player reads its games back through the API and checks that the moves stored for its
seat are exactly the moves it made, in order (*cross-talk* otherwise).  Everything is bounded: a run
lasts ``seconds`` and stops, connections only go to 127.0.0.1.

``python -m bench.serve_load --help`` runs one scenario by hand; ``bench/bench_serve.py`` runs the
measures of the docs.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm.core.registry import find_game
from gm.core.tools import call_for_action

HANDSHAKE = "2025-06-18"


class HttpError(Exception):
    pass


class Conn:
    """One HTTP/1.1 keep-alive connection to 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    async def request(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        if self.writer is None:
            await self.open()
        assert self.reader is not None and self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head.extend(f"{k}: {v}" for k, v in (headers or {}).items())
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
        status_line = await self.reader.readuntil(b"\r\n")
        parts = status_line.split(b" ", 2)
        if len(parts) < 2:
            raise HttpError(f"bad status line {status_line!r}")
        status = int(parts[1])
        hdrs: dict[str, str] = {}
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            k, _, v = line.decode("latin-1").partition(":")
            hdrs[k.strip().lower()] = v.strip()
        if "content-length" in hdrs:
            payload = await self.reader.readexactly(int(hdrs["content-length"]))
        elif hdrs.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                if size == 0:
                    await self.reader.readuntil(b"\r\n")
                    break
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            payload = b"".join(chunks)
        else:
            payload = b""
        if hdrs.get("connection", "").lower() == "close":
            self.close()
        return status, hdrs, payload

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Stats:
    calls: list[float] = field(default_factory=list)  # seconds per call
    #: calls begun once every player is connected and playing its game (and the ramp is over): what
    #: the percentiles are of; a call made while the server still works through the connects measures
    #: the connect burst, which the connect percentiles report
    steady: list[float] = field(default_factory=list)
    steady_from: float = 0.0
    #: when the steady window ends (``steady_from`` + the run's seconds)
    steady_until: float = float("inf")
    ready: int = 0
    connects: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    crosstalk: int = 0
    games: int = 0
    moves: int = 0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q / 100 * len(s)) - 1))]


class Player:
    """One player: its own games, one call at a time."""

    def __init__(self, k: int, ports: list[int], kind: str, game: str, stats: Stats, rng: random.Random) -> None:
        self.k = k
        self.ports = ports
        self.kind = kind
        self.game = find_game(game)
        self.stats = stats
        self.rng = rng
        self.conns = [Conn(p) for p in ports]
        self.turn = 0
        self.sid = ""
        self.games: list[tuple[str, str, str, list[str]]] = []  # (session, token, seat, moves made)
        self.legal: list[str] = []
        self.mcp_session = ""
        self._id = 0

    def _conn(self) -> Conn:
        """API players alternate processes on every request (any process serves any request); an MCP
        session stays with the process that opened it."""
        if self.kind == "mcp":
            return self.conns[0]
        self.turn += 1
        return self.conns[self.turn % len(self.conns)]

    async def _rpc(self, method: str, params: dict[str, Any] | None, notify: bool = False) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        if not notify:
            msg["id"] = self._id
        headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": HANDSHAKE}
        if self.mcp_session:
            headers["Mcp-Session-Id"] = self.mcp_session
        status, hdrs, body = await self._conn().request("POST", "/mcp", msg, headers)
        if status >= 300:
            raise HttpError(f"MCP {method}: HTTP {status} {body[:200]!r}")
        if "mcp-session-id" in hdrs:
            self.mcp_session = hdrs["mcp-session-id"]
        if notify:
            return {}
        data = json.loads(body)
        if "error" in data:
            raise HttpError(f"MCP {method}: {data['error']}")
        result: dict[str, Any] = data["result"]
        return result

    async def connect(self) -> None:
        t0 = time.perf_counter()
        if self.kind == "mcp":
            await self.conns[0].open()
            await self._rpc("initialize", {"protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": {"name": "gm-load", "version": "1"}})
            await self._rpc("notifications/initialized", None, notify=True)
        else:
            for c in self.conns:
                await c.open()
        self.stats.connects.append(time.perf_counter() - t0)

    async def call(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        t0 = time.perf_counter()
        if self.kind == "mcp":
            result = await self._rpc("tools/call", {"name": tool, "arguments": args})
            data: dict[str, Any] = result.get("structuredContent") or {}
            if result.get("isError") and data.get("ok") is not False:
                data = {"ok": False, "error": result.get("content")}
        else:
            path = "/api/games" if tool == "new_game" else f"/api/games/{self.sid}/call"
            body = args if tool == "new_game" else {"tool": tool, "args": args}
            status, _, raw = await self._conn().request("POST", path, body, {"Authorization": f"Bearer {self.games[-1][1]}"} if self.games and tool != "new_game" else None)
            if status not in (200, 201):
                raise HttpError(f"API {tool}: HTTP {status} {raw[:200]!r}")
            data = json.loads(raw)
        if tool != "new_game":
            took = time.perf_counter() - t0
            self.stats.calls.append(took)
            if self.stats.steady_from and t0 >= self.stats.steady_from:
                self.stats.steady.append(took)
        return data

    async def new_game(self) -> None:
        args: dict[str, Any] = {"game": self.game.id, "seed": self.rng.randrange(2**31), "opponent": "random" if self.kind == "mcp" else "bot:random"}
        data = await self.call("new_game", args)
        if not data.get("ok"):
            raise HttpError(f"new_game failed: {data}")
        seat = data["seat"]
        self.sid = data["session"]
        self.games.append((self.sid, data["token"], seat, []))
        self.legal = []
        self.stats.games += 1

    async def step(self) -> None:
        if not self.legal:
            data = await self.call("legal_actions", {})
            if not data.get("ok"):
                self.stats.errors.append(f"legal_actions: {str(data)[:200]}")
                return
            if data.get("outcome") or not data.get("legal"):
                await self.new_game()
                return
            self.legal = [str(x) for x in data["legal"]]
            return
        action = self.game.parse_action(self.rng.choice(self.legal))
        name, args = call_for_action(self.game.tools(), action)
        data = await self.call(name, args)
        self.legal = []
        if not data.get("ok"):
            self.stats.errors.append(f"{name}: {str(data.get('error'))[:200]}")
            return
        self.games[-1][3].append(str(action))
        self.stats.moves += 1
        if data.get("outcome"):
            await self.new_game()

    async def verify(self) -> None:
        """The moves stored for this player's seat in each of its games are exactly its own."""
        conn = Conn(self.ports[-1])
        try:
            for sid, token, seat, moves in self.games:
                status, _, raw = await conn.request("GET", f"/api/games/{sid}", None, {"Authorization": f"Bearer {token}"})
                if status != 200:
                    self.stats.errors.append(f"view {sid}: HTTP {status}")
                    continue
                view = json.loads(raw)
                stored = [text for s, text in view["log"] if s == seat]
                if stored != moves:
                    self.stats.crosstalk += 1
        finally:
            conn.close()

    def close(self) -> None:
        for c in self.conns:
            c.close()


async def run_load(ports: list[int], *, players: int, seconds: float, interval: float, kind: str = "mcp", game: str = "grid-football", ramp: float = 2.5, seed: int = 1,
                   warmup: float = 5.0) -> dict[str, Any]:
    """``players`` players for ``seconds`` (after a ``ramp`` of connects and, once every player is in
    its game, a ``warmup``), each calling every ``interval`` seconds on average; returns the report."""
    stats = Stats()
    rng = random.Random(seed)
    ps = [Player(k, ports, kind, game, stats, random.Random(rng.randrange(2**31))) for k in range(players)]
    start = time.perf_counter()
    ramp_end = start + ramp
    ru0 = resource.getrusage(resource.RUSAGE_SELF)
    pauses = GcPauses()  # the generator's own collector, paced like the server's, its passes timed
    pauses.install()

    async def begin_steady() -> None:
        # after the ramp, and a warm-up in which the server works off the connect burst
        await asyncio.sleep(max(0.0, ramp_end - time.perf_counter()) + warmup)
        if not stats.steady_from:
            stats.steady_from = time.perf_counter()
            stats.steady_until = stats.steady_from + seconds

    async def life(p: Player) -> None:
        await asyncio.sleep(p.rng.uniform(0, ramp))
        counted = False
        try:
            await p.connect()
            await p.new_game()
            counted = True
            stats.ready += 1
            if stats.ready == players:  # every player is in its game: the steady window opens
                await begin_steady()
            while True:
                await asyncio.sleep(p.rng.expovariate(1.0 / interval))
                if time.perf_counter() >= stats.steady_until:
                    break
                await p.step()
        except Exception as exc:
            stats.errors.append(f"player {p.k}: {type(exc).__name__}: {str(exc)[:200]}")
            if not counted:  # a player that never got to play does not hold the window shut
                stats.ready += 1
                if stats.ready == players:
                    await begin_steady()
        finally:
            p.close()

    await asyncio.gather(*(life(p) for p in ps))
    wall = time.perf_counter() - start
    ru1 = resource.getrusage(resource.RUSAGE_SELF)
    gen_cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    pauses.uninstall()
    measured = stats.steady
    await asyncio.gather(*(p.verify() for p in ps))
    n = len(measured)
    return {
        "players": players,
        "kind": kind,
        "processes": len(ports),
        "offered_per_s": round(players / interval, 1),
        "calls": n,
        "calls_all": len(stats.calls),
        "ramp_s": ramp,
        "steady_after_s": round(stats.steady_from - start, 2) if stats.steady_from else None,
        "calls_per_s": round(n / seconds, 1) if seconds else 0.0,
        "p50_ms": round(pct(measured, 50) * 1000, 2),
        "p99_ms": round(pct(measured, 99) * 1000, 2),
        "max_ms": round(max(measured) * 1000, 2) if measured else float("nan"),
        "connect_p99_ms": round(pct(stats.connects, 99) * 1000, 2),
        "errors": len(stats.errors),
        "error_sample": stats.errors[:3],
        "crosstalk": stats.crosstalk,
        "games": stats.games,
        "moves": stats.moves,
        "generator_cpu_s": round(gen_cpu, 2),
        "generator_cpu_ms_per_call": round(gen_cpu / max(1, n + len(stats.connects)) * 1000, 3),
        "generator_gc_max_ms": round(pauses.longest * 1000, 1),
        "wall_s": round(wall, 1),
    }


class GcPauses:
    """The generator's own garbage collector: paced as ``gm serve`` paces its own
    (:class:`gm.server.gcpace.GcPacer`: 500 players' waiting state is not walked by full passes
    that would stall every player's clock at once), and the longest pass timed (a stall of the
    generator's event loop counts in every latency it measures)."""

    def __init__(self) -> None:
        from gm.server.gcpace import GcPacer

        self.pacer = GcPacer(full_every=float("inf"))
        self.longest = 0.0
        self._t = 0.0

    def _time(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t = time.perf_counter()
        else:
            self.longest = max(self.longest, time.perf_counter() - self._t)

    def install(self) -> None:
        self.pacer.install()
        gc.callbacks.append(self._time)

    def uninstall(self) -> None:
        gc.callbacks.remove(self._time)
        self.pacer.uninstall()


async def single(port: int, *, calls: int = 200, kind: str = "mcp", tool: str = "get_status", opponent: str = "random") -> dict[str, Any]:
    """One client, one call after another: the latency of a call with nothing else going on."""
    stats = Stats()
    p = Player(0, [port], kind, "grid-football", stats, random.Random(7))
    await p.connect()
    if kind == "api" and not opponent.startswith("bot:"):
        opponent = f"bot:{opponent}"
    data = await p.call("new_game", {"game": "grid-football", "seed": 7, "opponent": opponent})
    p.sid = data["session"]
    p.games.append((p.sid, data["token"], data["seat"], []))
    for _ in range(10):  # warm up
        await p.call("get_status", {})
    stats.calls.clear()
    if tool == "move":
        while len(stats.calls) < calls:
            await p.step()
            if len(p.games) > 40:
                break
        moves = [c for i, c in enumerate(stats.calls) if i % 2 == 1]
        values = moves
    else:
        for _ in range(calls):
            await p.call(tool, {})
        values = stats.calls
    p.close()
    return {"kind": kind, "tool": tool, "calls": len(values), "p50_ms": round(pct(values, 50) * 1000, 2), "p99_ms": round(pct(values, 99) * 1000, 2), "errors": len(stats.errors)}


# ------------------------------------------------------------------ servers
class Served:
    """``gm serve`` processes for a run (quiet, no rate limit), stopped at the end."""

    def __init__(self, store: str, count: int = 1, home: Path | None = None, key: str | None = None, threads: int | None = None,
                 extra: tuple[str, ...] = ()) -> None:
        self.home = home or Path(tempfile.mkdtemp(prefix="gm-bench-"))
        self.key = key or os.urandom(32).hex()
        self.procs: list[subprocess.Popen[str]] = []
        self.ports: list[int] = []
        env = {**os.environ, "GM_HOME": str(self.home), "GM_SECRET_KEY": self.key, "PYTHONUNBUFFERED": "1"}
        for _ in range(count):
            proc = subprocess.Popen(
                [sys.executable, "-m", "gm", "serve", "--port", "0", "--store", store, "--rate", "0", "--quiet", *extra],
                env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            )
            self.procs.append(proc)
            port = self._port(proc)
            self.ports.append(port)

    @staticmethod
    def _port(proc: subprocess.Popen[str]) -> int:
        assert proc.stderr is not None
        box: list[str] = []

        seen: list[str] = []

        def read() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                if len(seen) < 50:
                    seen.append(line)
                if " MCP at http://" in line and not box:
                    box.append(line)

        t = threading.Thread(target=read, daemon=True)
        t.start()
        deadline = time.monotonic() + 60
        while not box and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        if not box:
            proc.kill()
            raise RuntimeError("gm serve did not start: " + "".join(seen)[-2000:])
        url = box[0].split(" MCP at ", 1)[1].split(";", 1)[0].strip()
        return int(url.rsplit(":", 1)[1].split("/", 1)[0])

    def cpu_seconds(self) -> float:
        total = 0.0
        tick = os.sysconf("SC_CLK_TCK")
        for p in self.procs:
            try:
                fields = Path(f"/proc/{p.pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
            except (OSError, IndexError, ValueError):
                pass
        return total

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.serve_load", description="Load a gm serve on loopback (started here) and report.")
    ap.add_argument("--store", default="sqlite", help="sqlite | postgresql | memory")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--players", type=int, default=500)
    ap.add_argument("--interval", type=float, default=2.5, help="mean seconds between a player's calls")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--kind", default="mcp", choices=("mcp", "api"))
    ap.add_argument("--single", action="store_true", help="one client's call latency instead")
    ap.add_argument("--full-gc-every", default=None, help="passed to gm serve (0: Python's own collector)")
    args = ap.parse_args(argv)
    cluster = None
    home = Path(tempfile.mkdtemp(prefix="gm-bench-"))
    if args.store == "postgresql":
        from gm.server.pgcluster import PgCluster

        cluster = PgCluster(durable=True).start()
        store = cluster.dsn()
    elif args.store == "sqlite":
        store = f"sqlite:{home / 'gm.sqlite'}"
    else:
        store = "memory:"
    served = Served(store, args.processes, home, extra=("--full-gc-every", args.full_gc_every) if args.full_gc_every else ())
    try:
        if args.single:
            for kind in ("mcp", "api"):
                for tool in ("get_status", "move"):
                    print(json.dumps(asyncio.run(single(served.ports[0], kind=kind, tool=tool))))
        else:
            c0 = served.cpu_seconds()
            report = asyncio.run(run_load(served.ports, players=args.players, seconds=args.seconds, interval=args.interval, kind=args.kind))
            report["server_cpu_s"] = round(served.cpu_seconds() - c0, 2)
            report["store"] = args.store
            print(json.dumps(report))
    finally:
        served.stop()
        if cluster is not None:
            cluster.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["Served", "pct", "run_load", "single", "statistics"]
