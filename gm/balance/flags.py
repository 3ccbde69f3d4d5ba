"""What a designer must see in a run of games: each flag says what is wrong in one line and names an
example game (its index in the run: seed = the run's seed + index; ``gm balance`` writes it as a
transcript ``gm replay`` opens).

- ``repeats``: games that are move for move the same although their seeds differ (the bots ignore them);
- ``draws``: a draw rate above the threshold;
- ``wins``: a seat's win rate above the threshold;
- ``capped``: games ended by a cap or a whistle (the move limit, ``Game.cap_rules``) above the threshold;
- ``unused``: a kind of move a seat's bot could make but never made;
- ``line``: a seat's simple scripted line (:mod:`gm.balance.lines`) that beats the default bot more often
  than the threshold beyond doubt (the whole 95% interval of its win rate above it) - a sign of a dominant
  line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.balance.lines import default_spec, describe, line_names
from gm.balance.stats import wilson

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.sim import GameResult, Job


def chunked(indices: Sequence[int], workers: int) -> list[list[int]]:
    """Game indices cut into chunks for ``workers`` (several chunks each, so the pool stays busy)."""
    size = max(1, min(50, len(indices) // (max(workers, 1) * 8)))
    return [list(indices[k : k + size]) for k in range(0, len(indices), size)]


@dataclass(frozen=True)
class Thresholds:
    """The rates above which a run is flagged (each 0 to 1)."""

    draws: float = 0.5
    wins: float = 0.8
    capped: float = 0.5
    line: float = 0.5

    def to_json(self) -> dict[str, float]:
        return {"draws": self.draws, "wins": self.wins, "capped": self.capped, "line": self.line}


@dataclass(frozen=True)
class Flag:
    """One thing a designer must see: its kind, one line saying it, the rate that tripped it, the seat (and
    line) concerned, and an example game (index in its run; ``line``: a game of the line's own run)."""

    kind: str
    message: str
    value: float | None = None
    seat: str | None = None
    line: str | None = None
    example: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "value": self.value, "seat": self.seat, "line": self.line,
                "example": self.example}


#: the label of a line's games: (seat, line name)
LineLabel = tuple[str, str]


def line_jobs(game: Game, rules: dict[str, Any], seed: int, games: int, max_moves: int,
              workers: int) -> tuple[list[Job], list[LineLabel]]:  # fmt: skip
    """The games of every line of every seat against the default bot at the other seats (``games`` each),
    as jobs, with the label of each job."""
    from gm.session import normalise_player

    base = normalise_player(game, default_spec(game))
    jobs: list[Job] = []
    labels: list[LineLabel] = []
    for seat in game.seats:
        for name in line_names(game):
            specs = {s: (f"line:{name}" if s == seat else base) for s in game.seats}
            for chunk in chunked(range(games), workers):
                jobs.append((game.id, rules, specs, seed, chunk, max_moves, False))
                labels.append((seat, name))
    return jobs, labels


def line_results(labels: Sequence[LineLabel], parts: Sequence[list[GameResult]]) -> dict[LineLabel, list[GameResult]]:
    """The results of :func:`line_jobs` by line, in game order."""
    out: dict[LineLabel, list[GameResult]] = {}
    for label, part in zip(labels, parts, strict=True):
        out.setdefault(label, []).extend(part)
    return out


def line_table(lines: Mapping[LineLabel, list[GameResult]], game: Game | None = None) -> list[dict[str, Any]]:
    """Each line's games against the default bot: wins, draws, games, the win rate and its 95% interval."""
    out = []
    for (seat, name), results in lines.items():
        n = len(results)
        wins = sum(r.winner == seat for r in results)
        draws = sum(r.finished and r.winner is None for r in results)
        low, high = wilson(wins, n)
        out.append({"seat": seat, "line": name, "text": describe(game, name) if game else name, "games": n, "wins": wins, "draws": draws,
                    "win_rate": wins / n if n else 0.0, "low": low, "high": high})
    return out


def run_flags(game: Game, specs: Mapping[str, str], results: Sequence[GameResult], limits: Thresholds,
              lines: Mapping[LineLabel, list[GameResult]] | None = None) -> list[Flag]:  # fmt: skip
    """The flags of one run (``results`` in game order) and of its lines' runs."""
    n = len(results)
    if not n:
        return []
    out: list[Flag] = []
    first: dict[str, int] = {}
    repeats = 0
    example: int | None = None
    for r in results:
        if r.digest in first:
            repeats += 1
            if example is None:
                example = r.index
                twin = first[r.digest]
        else:
            first[r.digest] = r.index
    if repeats and example is not None:
        out.append(Flag("repeats", f"{repeats} of {n} games repeat another move for move (games {twin} and {example} "
                        "are the same game on different seeds)", repeats / n, example=example))
    draws = [r for r in results if r.finished and r.winner is None]
    if len(draws) / n > limits.draws:
        out.append(Flag("draws", f"{len(draws) / n:.0%} of games are drawn (threshold {limits.draws:.0%})",
                        len(draws) / n, example=draws[0].index))
    for seat in game.seats:
        won = [r for r in results if r.winner == seat]
        if len(won) / n > limits.wins:
            out.append(Flag("wins", f"{seat} ({specs.get(seat, '?')}) wins {len(won) / n:.0%} of games "
                            f"(threshold {limits.wins:.0%})", len(won) / n, seat=seat, example=won[0].index))
    capped = [r for r in results if r.capped]
    if len(capped) / n > limits.capped:
        caps = ", ".join(sorted(game.cap_rules)) or "the move limit"
        out.append(Flag("capped", f"{len(capped) / n:.0%} of games end by a cap or a whistle ({caps}), not the "
                        f"rules' own end (threshold {limits.capped:.0%})", len(capped) / n, example=capped[0].index))
    for seat in game.seats:
        open_ = set().union(*(r.kinds_open.get(seat, ()) for r in results))
        used = set().union(*(r.kinds_used.get(seat, ()) for r in results))
        for kind in sorted(open_ - used):
            where = next(r.index for r in results if kind in r.kinds_open.get(seat, ()))
            times = sum(kind in r.kinds_open.get(seat, ()) for r in results)
            out.append(Flag("unused", f"{seat} ({specs.get(seat, '?')}) never makes a move of kind {kind!r}, open to it "
                            f"in {times} of {n} games", times / n, seat=seat, example=where))
    for row, (label, games) in zip(line_table(lines or {}, game), (lines or {}).items(), strict=True):
        seat, name = label
        if row["games"] and row["low"] > limits.line:  # (beyond doubt: the whole 95% interval above the threshold)
            won_at = next(r.index for r in games if r.winner == seat)
            out.append(Flag("line", f"{seat} playing the line '{describe(game, name)}' beats the default bot in "
                            f"{row['win_rate']:.0%} of {row['games']} games (95% interval {row['low']:.0%}-{row['high']:.0%}, "
                            f"above the threshold {limits.line:.0%}): a dominant line", row["win_rate"], seat=seat,
                            line=name, example=won_at))
    return out
