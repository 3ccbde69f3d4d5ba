"""Seeded random play: invariants that hold in every state of thousands of games."""

from __future__ import annotations

import json
from typing import Any

import pytest
from gf_helpers import new

from gm.core import RandomBot
from gm.games.grid_football.engine import GridFootballState, other

Square = tuple[int, int]
GAMES_PER_CHUNK = 500  # 4 chunks: 2,000 first-touchdown games
POINTS_GAMES = 80  # full four-quarter games


def _total_downs(s: GridFootballState) -> int:
    return (s.quarter - 1) * s.rules.downs_per_quarter + s.quarter_downs


def _expected_count(s: GridFootballState, events: list[Any]) -> int:
    """How many of the quarter's downs an action used up (first-touchdown mode)."""
    if s.outcome is not None and s.outcome.reason == "touchdown":
        return 0
    n = 0
    for e in events:
        if e.kind == "play_reveal" and s.phase != "number_check":
            n += 1
        elif e.kind == "number_reveal" and e.rule == "GF-MATCH-COLOUR":
            n += 1
        elif e.kind == "kick" and e.rule == "GF-R-PUNT" and s.phase != "return_number":
            n += 1
        elif e.kind == "number_reveal" and e.rule == "GF-KICK-NUMBER" and s.last.get("kind") == "punt":
            n += 1
    return n


def _check_step(s: GridFootballState, before: dict[str, Any], events: list[Any], points: bool) -> None:
    r = s.rules
    first, last = r.field_rows
    # the ball is on the board; between downs it rests in the field of play
    if s.ball is not None:
        c, row = s.ball
        assert 0 <= c < r.columns and 1 <= row <= r.rows
        if s.phase in ("play", "number_check", "punt", "return_number"):
            assert first <= row <= last, (s.phase, s.ball)
    else:
        assert s.phase in ("kickoff", "halftime_choice", "game_over", "coin_toss", "kick_choice")
    # blocked squares only grow; switching ends mirrors them and keeps their count
    old: set[Square] = before["blocked"]
    now = s.blocked
    if s.up_team != before["up_team"]:
        m = r.low_goal_line + r.high_goal_line
        mirrored = {(c, m - row) for c, row in now}
        assert old <= mirrored and len(now) - len(old) in (0, 1)
        added = now
    else:
        assert old <= now and len(now) - len(old) in (0, 1)
        added = now - old
    assert all(first <= row <= last for _, row in added)  # blocked squares are all in the field of play
    # the clock
    assert 1 <= s.quarter <= r.quarters and s.quarter >= before["quarter"]
    assert 0 <= s.quarter_downs <= r.downs_per_quarter
    assert s.quarter_downs < r.downs_per_quarter or s.outcome is not None
    delta = _total_downs(s) - before["total"]
    assert delta in (0, 1)
    if not points:
        assert delta == _expected_count(s, events), [str(e) for e in events]
    # downs and series
    if s.phase == "play":  # (a colour match may carry the ball past the line before its number check)
        assert s.offense is not None and 1 <= s.down <= r.downs
        d = s.direction(s.offense)
        assert s.ball is not None
        assert (s.to_gain - s.ball[1]) * d > 0, "the line to gain is ahead of the ball"
    # hidden choices
    if s.pending:
        (seat,) = s.pending  # one seat has locked: its pick is hidden from the other (and spectators)
        assert s.view(other(seat))["pending"] == {seat: "locked"}
        assert s.view(None)["pending"] == {seat: "locked"}
        assert s.view(seat)["pending"] == {seat: str(s.pending[seat])}
    # whose move
    acting = s.to_act()
    if s.outcome is None:
        assert acting and all(seat not in s.pending for seat in acting)
    else:
        assert acting == () and s.phase == "game_over" and not s.pending


def _play_checked(seed: int, points: bool) -> GridFootballState:
    s = new({"win": "points"} if points else None, seed)
    bots = {"home": RandomBot(3 * seed + 1), "away": RandomBot(3 * seed + 2)}
    while not s.is_terminal:
        for seat in s.to_act():
            before = {"blocked": set(s.blocked), "up_team": s.up_team, "quarter": s.quarter, "total": _total_downs(s)}
            events = s.apply(seat, bots[seat].choose(s, seat))
            _check_step(s, before, events, points)
    return s


def _check_finished(s: GridFootballState) -> None:
    assert s.to_act() == ()
    for seat in ("home", "away"):
        assert list(s.legal_actions(seat)) == [] and s.decision(seat) is None
    snap = s.snapshot()
    assert s.replay().snapshot() == snap
    again = GridFootballState.from_json(json.loads(json.dumps(s.to_json())))
    assert again.snapshot() == snap and again.outcome == s.outcome


@pytest.mark.rules("GF-R-SWITCH-MAP", "GF-BLOCK", "GF-QUARTERS", "GF-R-DOWN-COUNT")
@pytest.mark.parametrize("chunk", range(4))
def test_random_first_touchdown_games(chunk: int) -> None:
    outcomes: dict[str, int] = {}
    for seed in range(chunk * GAMES_PER_CHUNK, (chunk + 1) * GAMES_PER_CHUNK):
        s = _play_checked(seed, points=False)
        _check_finished(s)
        assert s.outcome is not None
        outcomes[s.outcome.reason] = outcomes.get(s.outcome.reason, 0) + 1
    assert set(outcomes) == {"touchdown", "regulation ended scoreless"}


@pytest.mark.rules("GF-R-POINTS")
def test_random_points_games() -> None:
    for seed in range(POINTS_GAMES):
        s = _play_checked(seed, points=True)
        _check_finished(s)
        assert s.quarter == 4 and s.downs_left_in_quarter == 0


def test_replay_mid_game() -> None:
    """Replaying any prefix of a game gives the same state, pending secret picks included."""
    for seed in range(20):
        s = new(seed=seed)
        bots = {"home": RandomBot(seed), "away": RandomBot(seed + 1)}
        step = 0
        while not s.is_terminal:
            for seat in s.to_act():
                s.apply(seat, bots[seat].choose(s, seat))
                step += 1
                if step % 7 == 0:
                    assert s.replay().snapshot() == s.snapshot()
