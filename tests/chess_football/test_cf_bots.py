"""Bots: the default bot beats random, random games end, and no bot reads hidden information."""

from __future__ import annotations

import random

import pytest
from cf_helpers import G, new, reaction, start

from gm.games.chess_football.actions import Move, Plan
from gm.games.chess_football.bots import BOTS, DefaultBot, RandomBot
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.geometry import parse_square

SHORT = {"possessions_per_half": 1, "overtime_periods": 0}


def play(rules: dict[str, object] | None, seed: int, home: str, away: str) -> ChessFootballState:
    s = new(rules, seed)
    bots = {"home": BOTS[home](seed=seed * 3 + 1), "away": BOTS[away](seed=seed * 3 + 2)}
    while not s.is_terminal:
        assert len(s.log) < 20_000
        seat = s.to_act()[0]
        s.apply(seat, bots[seat].choose(s, seat))
    return s


def test_both_strategies_are_registered() -> None:
    assert set(G.bots()) == {"random", "default"}
    assert G.make_bot("default", seed=1).name == "default" and G.make_bot("bot:random").name == "random"


def test_the_default_bot_beats_random() -> None:
    """Never loses, wins most.  (With the Scrambler its passing game draws a little more often against random
    than the Deep Threat's did - 9 of 80 short games against 2, no loss either way - and beats it head to head
    in 67 of 80.)"""
    wins = 0
    for seed in range(6):
        dflt = "home" if seed % 2 == 0 else "away"
        s = play(SHORT, seed, "default" if dflt == "home" else "random", "default" if dflt == "away" else "random")
        assert s.outcome is not None
        assert s.outcome.winner in (dflt, None), seed
        wins += s.outcome.winner == dflt
    assert wins >= 4


def test_the_default_bot_tackles_and_varies_its_snap_plans() -> None:
    """Issue #31: the default bot never tackled (its pursuers chased from behind, the carrier always found a
    square out of reach) and ran the same snap plan every down.  Now its pursuers head ahead of the carrier,
    fanned out, and its plans draw lanes, depths, targets, runs and blitzes from its seed."""
    tackles = downs = 0
    plans: dict[str, set[str]] = {"home": set(), "away": set()}
    for seed in range(4):
        s = new(SHORT, seed)
        bots = {"home": BOTS["default"](seed=seed * 3 + 1), "away": BOTS["default"](seed=seed * 3 + 2)}
        while not s.is_terminal:
            seat = s.to_act()[0]
            action = bots[seat].choose(s, seat)
            if action.type == "plan":
                plans[seat].add(str(action))
                downs += seat == s.offense
            tackles += sum(e.kind in ("tackle", "sack") for e in s.apply(seat, action))
    assert tackles * 8 >= downs > 40, (tackles, downs)  # (11 tackles in 55 downs of these seeds; there were none)
    assert all(len(p) >= 10 for p in plans.values()), {k: len(v) for k, v in plans.items()}


def _relative(s: ChessFootballState, offense: str, plan: Plan) -> list[tuple[str, ...]]:
    """A plan's rows with each square as (column, rows beyond the line of scrimmage toward the offense's goal)."""
    out: list[tuple[str, ...]] = []
    for row in plan.rows:
        if isinstance(row, Move):
            col, r = parse_square(row.to)
            out.append((row.piece, str(col), str((r - s.los) * s.direction(offense)), row.position))
        else:
            out.append((str(row),))
    return out


@pytest.mark.parametrize("side", ["offense", "defense"])
def test_the_default_bot_plays_the_same_at_either_end(side: str) -> None:
    """The two ends of the field are mirror images (home attacks toward the high rows, away toward the low
    ones): the default bot, given the same draws, plans the mirror image of its snap at the other end.  Its
    defense broke ties between equally near squares by square name (row order), so the away defense crowded
    the line and the home one stayed deep: home won 106 of 200 default-bot games to away's 66."""
    states = {o: start(o, home=("scrambler", "safety"), away=("scrambler", "safety")) for o in ("home", "away")}
    for k in range(12):
        plans = []
        for offense, s in states.items():
            seat = offense if side == "offense" else ("away" if offense == "home" else "home")
            bot = DefaultBot(seed=0)
            bot.rng = random.Random(k)  # (the same draws at both ends)
            plans.append(_relative(s, offense, bot._plan(s, seat)))
        assert plans[0] == plans[1], (side, k)


@pytest.mark.rules("CF-R-DOWN-LIMIT", "CF-POSSESSIONS")
def test_a_full_random_game_ends() -> None:
    s = play(None, 7, "random", "random")
    assert s.outcome is not None and s.drives >= 16


@pytest.mark.rules("CF-SNAP", "CF-R-CAPTAINS")
def test_bots_ignore_the_other_sides_locked_pick() -> None:
    for bot in (RandomBot, DefaultBot):
        picks = []
        for home_pick in ("captains deep_threat safety", "captains lineman rusher"):
            s = new(seed=2)
            s.apply("home", home_pick)
            picks.append(str(bot(seed=9).choose(s, "away")))
        assert picks[0] == picks[1]
        plans = []
        for offense_plan in ("plan: hold", "plan: DT to L15 C; HV1 push HV3; QB pass to DT"):
            s = start(seed=2)
            s.apply("home", offense_plan)
            plans.append(str(bot(seed=9).choose(s, "away")))
        assert plans[0] == plans[1]


@pytest.mark.rules("CF-PLAY-ACTION")
def test_bots_ignore_the_hidden_holder() -> None:
    for bot in (RandomBot, DefaultBot):
        choices = []
        for holder in ("QB", "ST1"):
            s = reaction(start())
            s.apply("home", f"play action ST1 ball {holder}")
            s.apply("home", "done")
            choices.append([str(bot(seed=k).choose(s, "away")) for k in range(8)])
        assert choices[0] == choices[1]
