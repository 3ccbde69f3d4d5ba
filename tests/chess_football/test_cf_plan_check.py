"""A snap plan's check (ruling CF-R-PLAN-CHECK) against the ruling written out plainly.

The engine checks a piece's only row on the board at the snap and plays a piece's several rows out on a
copy of its own (only the movement-order floor passes from one piece's rows to the next's).  The reference
here is the ruling as first written: every piece on a copy of its own, every row carried out.  Both must
accept the same plans and refuse the rest with the same rule and the same words, over plans drawn at every
snap of seeded games: the random bot's (about one row a piece) and plans of several rows a piece, drawn
row by row from each piece's options after its own earlier rows, in any order (so some break the movement
order), some with two rows swapped."""

from __future__ import annotations

import random

from cf_helpers import G

from gm.core.errors import IllegalActionError
from gm.games.chess_football import resolution
from gm.games.chess_football.actions import PieceAction, Plan
from gm.games.chess_football.checks import check, row_piece
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.field import Field
from gm.games.chess_football.options import PieceOptions


def _reference(s: ChessFootballState, seat: str, plan: Plan) -> tuple[str, str] | None:
    """CF-R-PLAN-CHECK as first written: ``None`` if ``plan`` is legal, else (rule, reason) of its first
    refused row (plans within the row limit and without a play-action holder)."""
    board = s.plan_board(seat)
    sims: dict[str | None, Field] = {}
    floor = board.floor
    for i, row in enumerate(plan.rows, start=1):
        pid = row_piece(board, row)
        sim = sims.get(pid)
        if sim is None:
            sim = sims[pid] = board.clone(sim=True)
        sim.floor = floor
        try:
            row_plan = check(sim, seat, row)
        except IllegalActionError as exc:
            return exc.rule, f"row {i} ({row}): {exc.reason}"
        resolution.apply(sim, seat, row, row_plan)
        floor = sim.floor
    return None


def _engine(s: ChessFootballState, seat: str, plan: Plan) -> tuple[str, str] | None:
    try:
        s.validate(seat, plan)
    except IllegalActionError as exc:
        return exc.rule, exc.reason
    return None


def _stacked_plan(s: ChessFootballState, seat: str, rng: random.Random) -> Plan:
    """Up to the row limit, each row one option of a piece picked at random, drawn on that piece's own
    board after its earlier rows (so a piece often has two or three rows)."""
    board = s.plan_board(seat)
    actors = list(board.actors(seat))
    sims: dict[str, Field] = {}
    rows: list[PieceAction] = []
    for _ in range(rng.randint(1, s.rules.plan_rows)):
        p = rng.choice(actors[: rng.randint(1, min(3, len(actors)))]) if rng.random() < 0.7 else rng.choice(actors)
        sim = sims.setdefault(p.id, board.clone(sim=True))
        piece = sim.pieces[p.id]
        opts = PieceOptions(sim, seat, piece, plan=True)
        if not opts.count:
            continue
        row = opts[rng.randrange(opts.count)]
        rows.append(row)
        try:
            resolution.apply(sim, seat, row, check(sim, seat, row))
        except IllegalActionError:
            continue  # (a row its own board refuses: the plan is drawn on regardless)
    if len(rows) > 1 and rng.random() < 0.3:
        i, j = rng.sample(range(len(rows)), 2)
        rows[i], rows[j] = rows[j], rows[i]
    return Plan(tuple(rows))


def test_the_plan_check_agrees_with_the_ruling_written_out() -> None:
    seen = {"accepted": 0, "refused": 0, "stacked": 0, "one-row-pieces": 0}
    rules: set[str] = set()
    for seed in range(4):
        s = G.new_state({"possessions_per_half": 1, "overtime_periods": 0}, seed)
        assert isinstance(s, ChessFootballState)
        rng = random.Random(seed)
        bots = {seat: G.make_bot("random", seed + i) for i, seat in enumerate(G.seats)}
        while not s.is_terminal:
            seat = s.to_act()[0]
            if s.phase == "snap":
                plans = [bots[seat].choose(s, seat)] + [_stacked_plan(s, seat, rng) for _ in range(6)]
                for plan in plans:
                    assert isinstance(plan, Plan)
                    want = _reference(s, seat, plan)
                    assert _engine(s, seat, plan) == want, str(plan)
                    seen["accepted" if want is None else "refused"] += 1
                    if want is not None:
                        rules.add(want[0])
                    board = s.plan_board(seat)
                    pids = [row_piece(board, row) for row in plan.rows]
                    seen["stacked"] += len(pids) != len(set(pids))
                    seen["one-row-pieces"] += any(pids.count(p) == 1 for p in pids)
            s.apply(seat, bots[seat].choose(s, seat))
    # the draw reaches both answers, plans with a piece of several rows and pieces of one, several rules
    assert min(seen.values()) >= 50, seen
    assert len(rules) >= 3, rules
