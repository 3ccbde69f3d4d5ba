"""A balance study: rulesets swept over fields, each played by the bots named, summed up and flagged.

Every ruleset plays the same seeds (game ``i``: seed + ``i``, bots seeded from the seed, ``i`` and the
seat), so rulesets are compared on common random numbers and a run is the same wherever its games are
played - in this process, on every local core, or on a Dask cluster.
"""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm.balance.flags import Flag, LineLabel, Thresholds, chunked, line_jobs, line_results, line_table, run_flags
from gm.balance.stats import rate, spread
from gm.core.errors import GameError, RulesetError
from gm.core.game import Game
from gm.sim import GameResult, Job, _report, _seed, make_player, run_jobs

RULE = "CORE-BALANCE"
#: the most rulesets one study sweeps (a grid grows as the product of its fields' values)
MAX_RULESETS = 200
#: the most values one field is swept over
MAX_VALUES = 100


@dataclass(frozen=True)
class Vary:
    """One swept field: its dotted name in the ruleset and the values it takes (as typed: the ruleset model
    reads them)."""

    field: str
    values: tuple[Any, ...]


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_vary(game: Game, spec: str) -> Vary:
    """``FIELD=LOW:HIGH:STEP`` (a range, both ends included) or ``FIELD=A,B,C`` (values); raises
    :class:`GameError` naming what would be right (an unknown field gets the nearest name)."""
    name, sep, values = spec.partition("=")
    name, values = name.strip(), values.strip()
    if not sep or not name or not values:
        raise GameError("--vary takes FIELD=LOW:HIGH:STEP or FIELD=A,B,C", rule=RULE, input=spec,
                        legal=["kick_distance=40:60:5", "first_down_rows=8,10,12"])  # fmt: skip
    _check_field(game, name, spec)
    if ":" in values:
        parts = values.split(":")
        if len(parts) not in (2, 3):
            raise GameError("a range is LOW:HIGH or LOW:HIGH:STEP", rule=RULE, input=spec)
        try:
            lo, hi = _number(parts[0]), _number(parts[1])
            step = _number(parts[2]) if len(parts) == 3 else 1
        except ValueError:
            raise GameError("a range is made of numbers", rule=RULE, input=spec) from None
        if step <= 0 or hi < lo:
            raise GameError("a range runs up from LOW to HIGH by a positive STEP", rule=RULE, input=spec)
        count = int((hi - lo) / step + 1e-9) + 1
        if count > MAX_VALUES:
            raise GameError(f"a field is swept over at most {MAX_VALUES} values", rule=RULE, input=spec)
        out: list[Any] = [lo + k * step for k in range(count)]
        if all(isinstance(v, int) for v in (lo, hi, step)):
            out = [int(v) for v in out]
        else:
            out = [round(float(v), 10) for v in out]
    else:
        out = [_typed(v.strip()) for v in values.split(",") if v.strip()]
        if not out or len(out) > MAX_VALUES:
            raise GameError(f"a list has 1 to {MAX_VALUES} values", rule=RULE, input=spec)
    return Vary(name, tuple(dict.fromkeys(out)))


def _typed(text: str) -> Any:
    """A value as written: a number when it reads as one, ``true``/``false``, else the text (the ruleset's
    model checks and converts it)."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return _number(text)
    except ValueError:
        return text


def _check_field(game: Game, name: str, spec: str) -> None:
    model = game.rules_model
    for part in name.split("."):
        fields = getattr(model, "model_fields", None)
        if not isinstance(fields, dict) or part not in fields:
            known = list(fields) if isinstance(fields, dict) else []
            guess = difflib.get_close_matches(part, known, n=1, cutoff=0.6)
            hint = f"; did you mean {guess[0]!r}?" if guess else ""
            raise GameError(f"{game.id}'s ruleset has no field {name!r}{hint}", rule=RULE, input=spec,
                            legal=sorted(known)[:40])  # fmt: skip
        model = fields[part].annotation


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    *path, last = dotted.split(".")
    cur = data
    for part in path:
        cur = cur.setdefault(part, {})
    cur[last] = value


@dataclass
class Ruleset:
    """One point of the sweep: the values of the swept fields, the ruleset (its JSON), or why it is not one."""

    id: str
    values: dict[str, Any]
    rules: dict[str, Any] | None
    error: str | None = None


def sweep(game: Game, base: Mapping[str, Any] | None, varies: Sequence[Vary]) -> list[Ruleset]:
    """Every combination of the swept values over ``base`` (overrides of the defaults), validated: a
    combination the ruleset refuses is kept with its reason (the study skips it)."""
    combos = list(itertools.product(*(v.values for v in varies))) if varies else [()]
    if len(combos) > MAX_RULESETS:
        raise GameError(f"the sweep makes {len(combos)} rulesets; at most {MAX_RULESETS}", rule=RULE)
    out = []
    for k, combo in enumerate(combos, start=1):
        data = _deep(dict(base or {}))
        values = {}
        for vary, value in zip(varies, combo, strict=True):
            _set(data, vary.field, value)
            values[vary.field] = value
        try:
            rules = game.load_rules(data).model_dump(mode="json")
            out.append(Ruleset(f"r{k}", values, rules))
        except RulesetError as exc:
            out.append(Ruleset(f"r{k}", values, None, exc.reason))
    if not any(r.rules is not None for r in out):
        raise GameError(f"no ruleset of the sweep is valid: {out[0].error}", rule=RULE)
    return out


def _deep(data: dict[str, Any]) -> dict[str, Any]:
    return {k: _deep(v) if isinstance(v, dict) else v for k, v in data.items()}


@dataclass
class Study:
    """What to play: the game, overrides every ruleset shares, the swept fields, the seats' bots, games per
    ruleset, the first seed, games per scripted line (0: none), the move limit and the flags' thresholds."""

    game: Game
    base: dict[str, Any] = field(default_factory=dict)
    varies: list[Vary] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    games: int = 100
    seed: int = 0
    line_games: int = 40
    max_moves: int = 100_000
    thresholds: Thresholds = field(default_factory=Thresholds)


def plan(study: Study, workers: int) -> tuple[list[Ruleset], list[Job], list[tuple[int, str, LineLabel | None]]]:
    """The rulesets and every job of the study, each job labelled with its ruleset (index), its run
    (``main`` or ``line``) and the line it plays."""
    from gm.session import normalise_player

    game = study.game
    rulesets = sweep(game, study.base, study.varies)
    specs = {s: normalise_player(game, study.players.get(s, "bot")) for s in game.seats}
    jobs: list[Job] = []
    labels: list[tuple[int, str, LineLabel | None]] = []
    for k, rs in enumerate(rulesets):
        if rs.rules is None:
            continue
        for chunk in chunked(range(study.games), workers):
            jobs.append((game.id, rs.rules, specs, study.seed, chunk, study.max_moves, True))
            labels.append((k, "main", None))
        if study.line_games > 0:
            more, names = line_jobs(game, rs.rules, study.seed, study.line_games, study.max_moves, workers)
            jobs += more
            labels += [(k, "line", name) for name in names]
    return rulesets, jobs, labels


def run_study(study: Study, *, workers: int = 1, scheduler: str | None = None,
              progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:  # fmt: skip
    """Play the study and sum it up (a JSON-ready dict: :func:`summarise`).  ``progress`` hears (games
    done, games in all)."""
    from gm.session import normalise_player

    rulesets, jobs, labels = plan(study, workers)
    total = sum(len(j[4]) for j in jobs)
    parts = run_jobs(jobs, workers=workers, scheduler=scheduler, progress=(lambda done: progress(done, total)) if progress else None)
    specs = {s: normalise_player(study.game, study.players.get(s, "bot")) for s in study.game.seats}
    main: dict[int, list[GameResult]] = {}
    line_parts: dict[int, tuple[list[LineLabel], list[list[GameResult]]]] = {}
    for (k, run, name), part in zip(labels, parts, strict=True):
        if run == "main":
            main.setdefault(k, []).extend(part)
        else:
            assert name is not None
            got = line_parts.setdefault(k, ([], []))
            got[0].append(name)
            got[1].append(part)
    return summarise(study, specs, rulesets, main, {k: line_results(*v) for k, v in line_parts.items()})


def summarise(study: Study, specs: Mapping[str, str], rulesets: list[Ruleset], main: Mapping[int, list[GameResult]],
              lines: Mapping[int, Mapping[LineLabel, list[GameResult]]]) -> dict[str, Any]:  # fmt: skip
    """The study as data: per ruleset each seat's win rate and the draw rate with 95% intervals, game
    length (median, quartiles, range, every game's), games ended by a cap, the headline event rates, how
    many games differ, the lines' results against the default bot, and the flags with their examples."""
    game = study.game
    out_sets = []
    for k, rs in enumerate(rulesets):
        entry: dict[str, Any] = {"id": rs.id, "values": rs.values, "error": rs.error}
        if rs.rules is None:
            out_sets.append(entry)
            continue
        results = main.get(k, [])
        n = len(results)
        base = _report(game, n, study.seed, specs, results)
        flags: list[Flag] = run_flags(game, specs, results, study.thresholds, lines.get(k))
        entry.update(
            rules=rs.rules,
            games=n,
            seats={s: rate(base["wins"][s], n) for s in game.seats},
            draws=rate(base["draws"], n),
            unfinished=base["unfinished"],
            capped=rate(sum(r.capped for r in results), n),
            length=spread([r.length for r in results]),
            lengths=[r.length for r in results],
            headlines={kind: {"label": label, "per_game": base["rates"][kind], "games_with": base["games_with"][kind]}
                       for kind, label in game.sim_headlines.items()},
            end_reasons=base["end_reasons"],
            distinct=len({r.digest for r in results}),
            lines=line_table(lines.get(k, {}), game),
            flags=[f.to_json() for f in flags],
        )
        out_sets.append(entry)
    return {
        "game": game.id,
        "seed": study.seed,
        "games": study.games,
        "line_games": study.line_games,
        "players": dict(specs),
        "base": study.base,
        "varied": [v.field for v in study.varies],
        "thresholds": study.thresholds.to_json(),
        "rulesets": out_sets,
    }


def example_specs(summary: Mapping[str, Any], flag: Mapping[str, Any], game: Game) -> dict[str, str]:
    """The seats' players in the game a flag names: the study's, or a line's against the default bot."""
    from gm.balance.lines import default_spec
    from gm.session import normalise_player

    if flag.get("kind") == "line":
        base = normalise_player(game, default_spec(game))
        return {s: (f"line:{flag['line']}" if s == flag["seat"] else base) for s in game.seats}
    return dict(summary["players"])


def record_example(game: Game, rules: Mapping[str, Any], specs: Mapping[str, str], seed: int, index: int,
                   path: Path, title: str, max_moves: int = 100_000) -> Path:  # fmt: skip
    """Game ``index`` of a run, played again exactly (the same seeds) through the session's tools and
    written as a transcript ``gm replay`` opens."""
    from gm.transcript.record import record_bot_game

    bots = {s: make_player(game, p, _seed(seed, index, s)) for s, p in specs.items()}
    tr = record_bot_game(game.id, seed + index, specs, rules=dict(rules), bots=bots, title=title, max_moves=max_moves)
    path.parent.mkdir(parents=True, exist_ok=True)
    tr.save(path)
    return path
