"""Bot-vs-bot simulation with game-agnostic statistics (counted from event kinds; each game
names the kinds worth a headline in ``Game.sim_headlines``), and the flags a designer must see
(:mod:`gm.balance.flags`: repeated games, lopsided or drawn results, games ended by a cap, a kind of
move a bot never uses, a simple scripted line that beats the default bot)."""

from __future__ import annotations

import hashlib
import os
import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.game import Game
from gm.core.playout import play_out

if TYPE_CHECKING:
    import multiprocessing.pool

    from gm.core.bots import Bot


def _seed(*parts: object) -> int:
    return int(hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:15], 16)


@dataclass(frozen=True)
class GameResult:
    """What one simulated game contributes to the report.  ``index``: game ``index`` of the run (its seed is
    the run's seed + index); ``digest``: SHA-256 of its log (repeated games share one); ``capped``: ended by
    a cap or a whistle rather than the rules' own end (the move limit, or a rule of ``Game.cap_rules``);
    ``kinds_open`` / ``kinds_used``: per seat, the kinds of move (``Action.type``) it could make at some
    decision, and those it made (tracked when asked)."""

    winner: str | None
    reason: str | None
    finished: bool
    length: int
    events: dict[str, int]
    index: int = 0
    digest: str = ""
    capped: bool = False
    kinds_open: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kinds_used: dict[str, tuple[str, ...]] = field(default_factory=dict)


def make_player(game: Game, spec: str, seed: int) -> Bot:
    """The bot a seat's spec names: a game's or the core's bot (``bot:NAME?params``), or a simple scripted
    line (``line:KIND``, ``line:NAME``: :mod:`gm.balance.lines`)."""
    if spec.startswith("line:"):
        from gm.balance.lines import make_line

        return make_line(game, spec, seed)
    return game.make_bot(spec, seed=seed)


def play_one(game: Game, ruleset: Any, specs: Mapping[str, str], seed: int, i: int, max_moves: int,
             track: bool = False) -> GameResult:  # fmt: skip
    """Game ``i`` of a simulation: seed ``seed + i``, bots seeded from (seed, i, seat).  ``track``: note the
    kinds of move each seat could make and made (for the flags)."""
    state = game.new_state(ruleset, seed + i)
    bots = {s: make_player(game, p, _seed(seed, i, s)) for s, p in specs.items()}
    events: Counter[str] = Counter()
    caps = game.cap_rules
    capped = False
    all_kinds = frozenset(game.action_types())
    open_: dict[str, set[str]] = {s: set() for s in game.seats}
    used: dict[str, set[str]] = {s: set() for s in game.seats}

    def count(seat: str, action: Any, evs: list[Any]) -> None:
        nonlocal capped
        for ev in evs:
            events[ev.kind] += 1
            if ev.rule in caps:
                capped = True
        if track:
            used[seat].add(action.type)

    def pick(seat: str) -> Bot | None:
        if track:
            missing = all_kinds - open_[seat]
            if missing:  # (only the kinds not yet seen open are looked for: a game whose list is long stops early)
                open_[seat] |= state.action_kinds(seat, missing)
        return bots.get(seat)

    play_out(state, pick if track else bots, max_moves=max_moves, on_move=count)
    out = state.outcome
    if out is not None and out.rule in caps:
        capped = True
    log = "\n".join(f"{m.seat}:{m.action}" for m in state.log)
    return GameResult(
        winner=out.winner if out else None,
        reason=out.reason if out else None,
        finished=out is not None,
        length=len(state.log),
        events=dict(events),
        index=i,
        digest=hashlib.sha256(log.encode()).hexdigest(),
        capped=capped or out is None,
        kinds_open={s: tuple(sorted(k)) for s, k in open_.items()} if track else {},
        kinds_used={s: tuple(sorted(k)) for s, k in used.items()} if track else {},
    )


#: one worker's share of a run: game id, ruleset (JSON), seat specs, seed, game indices, move limit, tracking
Job = tuple[str, dict[str, Any], dict[str, str], int, list[int], int, bool]


def play_chunk(job: Job) -> list[GameResult]:
    """A worker's share: some game indices (the game found again by id in the worker, so a process or a
    Dask worker plays it from the job alone)."""
    from gm.core.registry import find_game

    game_id, rules_data, specs, seed, indices, max_moves, track = job
    game = find_game(game_id)
    ruleset = game.load_rules(rules_data)
    return [play_one(game, ruleset, specs, seed, i, max_moves, track) for i in indices]


def default_workers() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def run_jobs(jobs: Sequence[Job], *, workers: int = 1, scheduler: str | None = None,
             progress: Callable[[int], None] | None = None) -> list[list[GameResult]]:  # fmt: skip
    """Play ``jobs`` and return their results in the jobs' order (whatever order they finish in): in this
    process (``workers`` <= 1), in a pool of ``workers`` processes, or on the Dask cluster at ``scheduler``
    (``tcp://host:8786``; the ``distributed`` package).  ``progress`` hears the games done so far."""
    done = 0
    out: list[list[GameResult] | None] = [None] * len(jobs)

    def note(k: int, part: list[GameResult]) -> None:
        nonlocal done
        out[k] = part
        done += len(part)
        if progress:
            progress(done)

    if scheduler:
        with closing(_on_dask(jobs, scheduler)) as parts:  # closed at once on an error: the client too
            for k, part in parts:
                note(k, part)
    elif workers <= 1 or len(jobs) < 2:
        for k, job in enumerate(jobs):
            note(k, play_chunk(job))
    else:
        with worker_pool(min(workers, len(jobs))) as pool:
            for k, part in enumerate(pool.imap(play_chunk, jobs)):
                note(k, part)
    return [part or [] for part in out]


@contextmanager
def worker_pool(workers: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``workers`` processes that never outlives its run: closed and joined when the run ends,
    terminated (workers killed, then joined) when it ends by an error or Ctrl-C; and each worker dies with
    the process that started it, even one killed outright (:func:`_worker_start`).  ``multiprocessing.Pool``
    rather than ``concurrent.futures.ProcessPoolExecutor``: its ``terminate()`` stops workers mid-game, where
    the executor's shutdown waits for every queued game to be played first."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")  # fork: registered games carry over
    pool = ctx.Pool(workers, initializer=_worker_start, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        pool.terminate()
        raise
    else:
        pool.close()
    finally:
        pool.join()


def _worker_start(parent: int) -> None:
    """A pool worker's first act: leave Ctrl-C to the parent (which terminates the pool), and on Linux ask
    the kernel for SIGTERM when the parent dies (``PR_SET_PDEATHSIG``), so a parent killed outright (a test
    run stopped, an out-of-memory kill) leaves no worker waiting for games forever with parent pid 1.  (The
    kernel sends it when the *thread* that started the worker ends: the pool's caller keeps its thread for
    the run, as :func:`run_jobs` does.)"""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        try:
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl
            pass
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


#: how long to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = "20s"


def _on_dask(jobs: Sequence[Job], scheduler: str) -> Generator[tuple[int, list[GameResult]], None, None]:
    """The jobs played on a Dask cluster, yielded as they finish (with their place in ``jobs``)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        from gm.core.errors import GameError

        raise GameError("--scheduler runs on a Dask cluster: install the extra, pip install 'gm[dask]'",
                        rule="CORE-SIM", input=scheduler) from None  # fmt: skip
    try:
        client = Client(scheduler, set_as_default=False, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        from gm.core.errors import GameError

        raise GameError(f"cannot reach the Dask scheduler at {scheduler} ({type(exc).__name__}); start one "
                        "(dask scheduler) or leave --scheduler out to play on this machine's cores",
                        rule="CORE-SIM", input=scheduler) from None  # fmt: skip
    with client:
        futures = client.map(play_chunk, list(jobs), pure=False)
        place = {f.key: k for k, f in enumerate(futures)}
        for fut in as_completed(futures, loop=client.loop):
            yield place[fut.key], fut.result()


def simulate(
    game: Game,
    *,
    games: int,
    seed: int = 0,
    rules: Any = None,
    players: Mapping[str, str] | None = None,
    progress: Callable[[int], None] | None = None,
    max_moves: int = 100_000,
    workers: int = 1,
    scheduler: str | None = None,
    lines: int = 0,
    thresholds: Any = None,
) -> dict[str, Any]:
    """Play ``games`` bot-vs-bot games (game ``i`` uses seed ``seed + i``) and report
    win rates, average length, per-game rates of every event kind and the flags
    (:mod:`gm.balance.flags`).  ``workers`` > 1 plays them in that many processes, ``scheduler`` on a Dask
    cluster; the report is the same either way (games are independent and are added up in their own
    order).  ``lines`` > 0 also plays that many games of every simple scripted line of every seat against
    the default bot (the dominant-line flag)."""
    from gm.balance.flags import Thresholds, chunked, line_jobs, line_results, run_flags
    from gm.session import normalise_player

    ruleset = game.load_rules(rules)
    specs = {s: normalise_player(game, (players or {}).get(s, "bot")) for s in game.seats}
    if any(not p.startswith("bot:") for p in specs.values()):
        raise ValueError("every seat needs a bot in a simulation")
    data = ruleset.model_dump(mode="json")
    jobs: list[Job] = [(game.id, data, specs, seed, c, max_moves, True) for c in chunked(range(games), workers)]
    extra, labels = line_jobs(game, data, seed, lines, max_moves, workers) if lines > 0 else ([], [])
    parts = run_jobs([*jobs, *extra], workers=workers, scheduler=scheduler, progress=progress)
    results = [r for part in parts[: len(jobs)] for r in part]
    report = _report(game, games, seed, specs, results)
    limits = thresholds or Thresholds()
    report["flags"] = [f.to_json() for f in run_flags(game, specs, results, limits, line_results(labels, parts[len(jobs):]))]
    report["capped_rate"] = sum(r.capped for r in results) / max(games, 1)
    report["distinct_games"] = len({r.digest for r in results})
    return report


def _report(game: Game, games: int, seed: int, specs: Mapping[str, str], results: list[GameResult]) -> dict[str, Any]:
    wins: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    events: Counter[str] = Counter()
    games_with: Counter[str] = Counter()
    draws = unfinished = 0
    for r in results:  # in game order, so ties in the counts list alike however the games were played
        events.update(r.events)
        games_with.update(r.events.keys())
        if not r.finished:
            unfinished += 1
        elif r.winner is None:
            draws += 1
            reasons[str(r.reason)] += 1
        else:
            wins[r.winner] += 1
            reasons[str(r.reason)] += 1
    lengths = [r.length for r in results]
    n = max(games, 1)
    return {
        "game": game.id,
        "games": games,
        "seed": seed,
        "players": dict(specs),
        "wins": {s: wins[s] for s in game.seats},
        "draws": draws,
        "unfinished": unfinished,
        "win_rate": {s: wins[s] / n for s in game.seats},
        "draw_rate": draws / n,
        "avg_length": sum(lengths) / n,
        "min_length": min(lengths, default=0),
        "max_length": max(lengths, default=0),
        "headlines": dict(game.sim_headlines),
        "rates": {k: events[k] / n for k in game.sim_headlines},
        "games_with": {k: games_with[k] / n for k in game.sim_headlines},
        "events_per_game": {k: v / n for k, v in sorted(events.items())},
        "end_reasons": dict(reasons.most_common()),
    }
