"""Export context of Grid Football: derived tables and worked examples computed by the engine.

The templates in ``templates/`` (next to this module) never type a game number by
hand: they read the ruleset, and the examples here are produced by actually playing
the moves on a :class:`GridFootballState` built from that ruleset (the worked down is
played from where the example kickoff's return left the ball).
"""

from __future__ import annotations

from typing import Any

from gm.core.errors import GameError
from gm.core.events import Event
from gm.games.grid_football.actions import FORMS, PlayCall
from gm.games.grid_football.board import render, status_line
from gm.games.grid_football.engine import AWAY, HOME, PLAY, GridFootballState, col_letter, sq
from gm.games.grid_football.rules import GridFootballRules


def export_context(rules: GridFootballRules) -> dict[str, Any]:
    """Template context for the Grid Football documents."""
    r = rules
    first, last = r.field_rows
    state, kick_events = _kicked_off(r)
    return {
        "columns": [col_letter(c) for c in range(r.columns)],
        "first_col": col_letter(0),
        "last_col": col_letter(r.columns - 1),
        "field_first": first,
        "field_last": last,
        "low_depth": r.low_goal_line,
        "high_depth": r.rows - r.high_goal_line + 1,
        "kick_land_up": _clamp(r.low_goal_line + r.kick_distance, r),
        "kick_land_down": _clamp(r.high_goal_line - r.kick_distance, r),
        "mirror": r.low_goal_line + r.high_goal_line,
        "halftime_after": r.quarters // 2,
        "plays": _plays(r),
        "open_q1": [n for n in sorted(r.plays) if r.plays[n].unlock_quarter <= 1],
        "locked_plays": [(n, r.plays[n].unlock_quarter) for n in sorted(r.plays) if r.plays[n].unlock_quarter > 1],
        "forms": FORMS,
        "kick_example": _kick_example(state, kick_events),
        "rejection": rejection_example(r),
        "example": worked_example(r),
    }


def _clamp(row: int, r: GridFootballRules) -> int:
    return max(1, min(r.rows, row))


def _plays(r: GridFootballRules) -> list[dict[str, Any]]:
    out = []
    for n in sorted(r.plays):
        s = r.plays[n]
        out.append(
            {
                "n": n,
                "name": s.name,
                "wrong": s.wrong,
                "matched": s.matched,
                "unlock_quarter": s.unlock_quarter,
                "net_wrong": s.wrong.forward + r.no_match_bonus,
                "net_matched": s.matched.forward + r.play_match_bonus,
                "reduced_by_one": s.matched.lateral == max(s.wrong.lateral - 1, 0),
            }
        )
    return out


def _kicked_off(r: GridFootballRules) -> tuple[GridFootballState, list[Event]]:
    """A game played from the coin toss through a kickoff that home returns: the toss
    winner arranges for away to kick; the kick picks match on the position only."""
    state = GridFootballState(r, 0, None)
    caller = state.to_act()[0]
    state.apply(caller, "heads")
    winner = state.toss_winner
    assert winner is not None
    state.apply(winner, "receive" if winner == HOME else "kick")
    events = state.apply(AWAY, "center yellow")
    events += state.apply(HOME, "center red")
    return state, events


def _kick_example(state: GridFootballState, events: list[Event]) -> dict[str, Any]:
    by_kind = {e.kind: e for e in events}
    kick, reveal = by_kind["kick"], by_kind["kick_reveal"]
    ret = by_kind.get("kick_return") or by_kind.get("touchdown")
    return {
        "kicker": AWAY,
        "receiver": HOME,
        "kick_pick": reveal.data["kpick"],
        "receive_pick": reveal.data["rpick"],
        "from_row": kick.data["start"],
        "spot": kick.data["spot"],
        "matches": reveal.data["matches"],
        "steps": reveal.data["steps"],
        "end": ret.data["at"] if ret is not None else None,
        "events": [e.text for e in events if e.kind != "locked"],
    }


def example_calls(r: GridFootballRules) -> tuple[str, str]:
    """The example's calls: Play 1 (else the first open play) Red with up to 2 right before,
    against Play 3 (else another open play) Black, as in the quick-start guide."""
    open_q1 = [n for n in sorted(r.plays) if r.plays[n].unlock_quarter <= 1]
    off = 1 if 1 in open_q1 else open_q1[0]
    others = [n for n in open_q1 if n != off]
    de = 3 if 3 in others else others[0] if others else off
    lateral = min(2, r.plays[off].wrong.lateral)
    call = PlayCall(off, "red", lateral, "right" if lateral else None, "before")
    return str(call), str(PlayCall(de, "black"))


def example_state(r: GridFootballRules) -> GridFootballState:
    """The game after the example kickoff: home on offense, 1st down where its return ended,
    attacking the high end zone (so the worked example's first down starts where the kickoff
    example leaves the ball)."""
    state, _ = _kicked_off(r)
    # one match: no number check, and a return stops short of the end zone (ruleset validation)
    assert state.phase == PLAY and state.offense == HOME and state.ball is not None, state.phase
    return state


def worked_example(r: GridFootballRules) -> dict[str, Any]:
    """The quick-start example played by the engine: the calls, the result and the new square."""
    state = example_state(r)
    start = state.ball
    assert start is not None
    off_call, def_call = example_calls(r)
    before = render(state)
    events = state.apply(HOME, off_call) + state.apply(AWAY, def_call)
    by_kind = {e.kind: e for e in events}
    res = by_kind.get("play_result")
    end = state.ball
    assert end is not None
    return {
        "offense": HOME,
        "defense": AWAY,
        "start": sq(start),
        "start_col": col_letter(start[0]),
        "start_row": start[1],
        "offense_call": off_call,
        "defense_call": def_call,
        "result": state.last.get("result"),
        "play": res.data["play"] if res else None,
        "play_name": res.data["name"] if res else None,
        "how": res.data["how"] if res else None,
        "base": res.data["base"] if res else None,
        "bonus": res.data["bonus"] if res else None,
        "total": res.data["total"] if res else None,
        "lateral": res.data["lat"] if res else None,
        "lateral_cap": _lateral_cap(r, res),
        "end": sq(end),
        "end_col": col_letter(end[0]),
        "end_row": end[1],
        "rows": (end[1] - start[1]) * state.direction(HOME),
        "blocked": sorted(sq(b) for b in state.blocked),
        "events": [e.text for e in events if e.kind != "locked"],
        "down_text": by_kind["down"].text if "down" in by_kind else None,
        "rules_cited": sorted({e.rule for e in events}),
        "status": status_line(state),
        "board_before": before,
        "board_after": render(state),
    }


def _lateral_cap(r: GridFootballRules, res: Event | None) -> int | None:
    if res is None:
        return None
    spec = r.plays[res.data["play"]]
    return spec.matched.lateral if res.data["how"] == "matches" else spec.wrong.lateral


def rejection_example(r: GridFootballRules) -> str:
    """An engine error message as a player sees it: a play called before it unlocks, else
    a lateral beyond the play's cap, else a defense call with movement intent."""
    state = example_state(r)
    locked = [n for n in sorted(r.plays) if r.plays[n].unlock_quarter > 1]
    widest = max(sorted(r.plays), key=lambda k: r.plays[k].wrong.lateral)
    cap = r.plays[widest].wrong.lateral
    if locked:
        seat, call = HOME, f"play {locked[0]} red"
    elif cap < 10:
        seat, call = HOME, f"play {widest} red {cap + 1} left before"
    else:
        seat, call = AWAY, f"play {widest} red 1 left before"
    try:
        state.apply(seat, call)
    except GameError as exc:
        return exc.message
    raise AssertionError(f"{call!r} was not rejected")  # pragma: no cover
