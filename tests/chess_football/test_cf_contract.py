"""The game contract (issues #15, #16, #22): checking never changes the state; the legal actions are
exactly what the check accepts (a reaction turn's space listed whole and compared with a brute-force
sweep of candidates; snap plans counted, indexed and sampled, and counted by brute force on a small
board); nothing of the other seat's secrets shows; bots choose alike made afresh for every decision;
the largest ruleset still plays."""

from __future__ import annotations

import random
import tracemalloc
from typing import Any

import pytest
from cf_helpers import G, frozen, new, reaction, start

from gm.core.actions import Action
from gm.core.playout import play_out
from gm.games.chess_football.actions import ABILITY_WORDS, Ability, BallChoice, Done, Move, Pass, Plan, PlayAction
from gm.games.chess_football.bots import BOTS, RandomBot
from gm.games.chess_football.checks import legal as check_legal
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.geometry import POSITIONS, sq

SHORT = {"possessions_per_half": 1, "downs": 2, "punt_downs": [2], "max_turns_per_down": 2, "overtime_periods": 0}


def _turn_positions(count: int, seed: int) -> list[ChessFootballState]:
    """Reaction-turn positions met in seeded random play."""
    out: list[ChessFootballState] = []
    rng = random.Random(seed)
    game = 0
    while len(out) < count:
        s = new(SHORT, seed * 100 + game)
        bots = {seat: RandomBot(seed * 10 + i + game) for i, seat in enumerate(G.seats)}
        while not s.is_terminal and len(out) < count:
            seat = s.to_act()[0]
            if s.decision(seat) == "turn" and rng.random() < 0.15:
                out.append(s.copy())  # type: ignore[arg-type]
            s.apply(seat, bots[seat].choose(s, seat))
        game += 1
    return out


def _candidates(s: ChessFootballState, seat: str) -> list[Action]:
    """Every action worth asking about in a reaction turn: a superset of the legal ones."""
    f = s.field
    assert f is not None
    ids = sorted(f.pieces)
    out: list[Action] = [Done(), *(BallChoice(h) for h in ids)]
    for p in f.team_pieces(seat):
        reach = f.mp.get(p.id, 0) + 1
        c0, r0 = p.sq
        squares = [(c, r) for c in range(c0 - reach, c0 + reach + 1) for r in range(r0 - reach, r0 + reach + 1)
                   if 0 <= c < s.rules.columns and 1 <= r <= s.rules.rows]
        for c, r in squares:
            for pos in POSITIONS:
                for rush, route in ((False, False), (True, False), (False, True), (True, True)):
                    out.append(Move.trusted(p.id, sq((c, r)), pos, rush, route))
        for name in ABILITY_WORDS:
            if name in ("push", "chop_block", "chip_block", "engage", "impact", "anchor"):
                out += [Ability.trusted(p.id, name, t) for t in ids]
            elif name == "retreat":
                out += [Ability.trusted(p.id, name, to=sq((c, r)), position=pos) for c, r in squares
                        if max(abs(c - c0), abs(r - r0)) <= s.rules.retreat_squares for pos in POSITIONS]
            else:
                out.append(Ability.trusted(p.id, name))
        out += [Pass.trusted(r, passer) for r in ids for passer in (p.id, None)]
    out += [PlayAction.trusted(t, h) for t in ids for h in (None, *ids)]
    return out


@pytest.mark.rules("CF-REACTION", "CF-R-POSITION", "CF-R-TEAMMATE-POS")
@pytest.mark.parametrize("seed", range(6))
def test_a_turns_legal_actions_are_exactly_what_the_check_accepts(seed: int) -> None:
    for s in _turn_positions(2, seed):
        seat = s.to_act()[0]
        legal = s.legal_actions(seat)
        listed = [str(a) for a in legal]
        assert len(listed) == len(legal) == len(set(listed))
        cands = _candidates(s, seat)
        accepted = {str(a) for a in cands if check_legal(s.field, seat, a)}  # the check itself (``in`` adds the summary)
        assert set(listed) == accepted
        rng = random.Random(seed)
        assert all((str(a) in accepted) == (a in legal) for a in rng.sample(cands, 100))
        for i in rng.sample(range(len(legal)), min(20, len(legal))):
            assert str(legal[i]) == listed[i] and legal[i] in legal


@pytest.mark.parametrize("seed", range(3))
def test_checking_never_changes_the_state(seed: int) -> None:
    """Legal and illegal actions alike: snapshot and log are byte-identical after every check."""
    rng = random.Random(seed)
    for s in _turn_positions(3, 10 + seed):
        seat = s.to_act()[0]
        before = frozen(s)
        cands = _candidates(s, seat)
        for a in [*rng.sample(cands, 150), *s.legal_actions(seat).page(0, 30)]:
            s.is_legal(seat, a)
            s.is_legal("home" if seat == "away" else "away", a)  # out of turn too
            assert frozen(s) == before, str(a)
    s = start()
    before = frozen(s)
    for text in ("plan: FA1 to C15 C; HV1 push HV3; QB pass to FA1", "plan: QB to H12 C", "plan: ZZ1 to A1 C", "heads"):
        s.is_legal("home", text)
        assert frozen(s) == before


@pytest.mark.rules("CF-PLAN", "CF-R-PLAN-CHECK")
def test_sampled_and_indexed_snap_plans_are_all_legal() -> None:
    s = start()
    for seat in ("home", "away"):
        space = s.legal_actions(seat)
        assert space.is_space and len(space) > 10**15
        assert space[0] == Plan(()) and str(space[1]).startswith("plan: ")
        rng = random.Random(3)
        for _ in range(25):
            assert space.sample(rng) in space
        for i in (1, 2, len(space) // 3, len(space) - 1):
            assert space[i] in space
        assert len({str(space[i]) for i in range(200)}) == 200


def _tiny() -> dict[str, Any]:
    """A small board with slow pieces and two-row plans: small enough to count every plan by brute force."""
    kinds = {k: {**v, "movement": 1} for k, v in G.default_rules().model_dump()["kinds"].items()}
    return {
        "rows": 16, "columns": 8, "end_zone_rows": 2, "drive_start_square": 5, "first_down_squares": 2, "plan_rows": 2,
        "snap_burst": 0, "kinds": kinds,
        "offense_lineup": [{"id": "QB", "kind": "qb", "column": "D", "depth": 1}],
        "defense_lineup": [{"id": "HV3", "kind": "heavy", "column": "D", "depth": 1}],
        "captains": {n: {**c, "movement": 1} for n, c in G.default_rules().model_dump()["captains"].items()
                     if n in ("lineman", "rusher")},
        "captain_slots": {"lineman": {"column": "E", "depth": 0}, "rusher": {"column": "E", "depth": 1}},
        "ineligible_pieces": ["heavy", "strong", "lineman", "rusher"],
    }


@pytest.mark.rules("CF-PLAN", "CF-R-PLAN-CHECK", "CF-MOVE-ORDER")
@pytest.mark.parametrize("half", [0, 1])
@pytest.mark.parametrize("seat", ["home", "away"])
def test_the_plan_count_equals_a_brute_force_count_on_a_small_board(seat: str, half: int) -> None:
    """Every plan of up to two rows found by asking the check about every pair of candidate rows (the
    plans whose first row is in one half of the legal single rows) is in the space, and nothing else."""
    s = start(home=("lineman", "rusher"), away=("lineman", "rusher"), rules=_tiny())
    space = s.plan_space(seat)
    board = s.plan_board(seat)
    rows: list[Any] = []
    for p in board.team_pieces(seat):
        c0, r0 = p.sq
        for c in range(c0 - 2, c0 + 3):
            for r in range(r0 - 2, r0 + 3):
                if 0 <= c < 8 and 1 <= r <= 16:  # (every piece moves 1 here; a retreat goes up to 2)
                    if max(abs(c - c0), abs(r - r0)) <= 1:
                        rows += [Move.trusted(p.id, sq((c, r)), pos, rush, route) for pos in POSITIONS
                                 for rush in (False, True) for route in (False, True)]
                    rows += [Ability.trusted(p.id, "retreat", to=sq((c, r)), position=pos) for pos in POSITIONS]
        rows += [Ability.trusted(p.id, n, t) for n in ABILITY_WORDS for t in sorted(board.pieces)
                 if n in ("push", "chop_block", "chip_block", "engage", "impact", "anchor")]
        rows += [Ability.trusted(p.id, n) for n in ("react", "juke", "jam", "seal")]
        rows += [Pass.trusted(r, passer) for r in sorted(board.pieces) for passer in (p.id, None)]
    rows += [PlayAction.trusted(t) for t in sorted(board.pieces)]
    rows = list({str(r): r for r in rows}.values())
    ones = [r for r in rows if s.is_legal(seat, Plan((r,)))]  # a plan's first row is checked alone
    mine = ones[half::2]
    expected = {str(Plan((r,))) for r in mine}
    expected |= {str(Plan((a, b))) for a in mine for b in rows if s.is_legal(seat, Plan((a, b)))}
    texts = [str(space[i]) for i in range(len(space))]
    assert len(set(texts)) == len(texts) == len(space) and texts[0] == "plan: hold"
    firsts = {str(r) for r in mine}
    assert {t for t in texts[1:] if t.removeprefix("plan: ").split("; ")[0] in firsts} == expected


@pytest.mark.rules("CF-PLAY-ACTION", "CF-R-PA")
def test_a_hidden_holder_looks_the_same_to_the_defense() -> None:
    def seen(holder: str) -> list[Any]:
        s = reaction(start())
        s.apply("home", f"play action ST1 ball {holder}")
        s.apply("home", "done")
        out: list[Any] = []
        for who in ("away", None):
            out += [s.view(who), G.render(s, who), G.render(s, who, full=True), G.status(s, who), s.public_log(who)]
        out += [s.legal_summary("away"), [str(a) for a in s.legal_actions("away")]]
        return out

    assert seen("QB") == seen("ST1")


@pytest.mark.rules("CF-SNAP")
def test_a_locked_plan_looks_the_same_to_the_other_seat() -> None:
    def seen(plan: str) -> list[Any]:
        s = start()
        s.apply("home", plan)
        out: list[Any] = []
        for who in ("away", None):
            out += [s.view(who), G.render(s, who), G.status(s, who), s.public_log(who)]
        out += [s.legal_summary("away"), [str(a) for a in s.legal_actions("away").page(0, 50)], len(s.legal_actions("away"))]
        return out

    assert seen("plan: hold") == seen("plan: DT to L15 C; HV1 push HV3; QB pass to DT")


@pytest.mark.parametrize("name", ["random", "default"])
def test_a_bot_made_afresh_for_every_decision_chooses_alike(name: str) -> None:
    for seed in range(3):
        kept = new(SHORT, seed)
        bots = {seat: G.make_bot(name, seed=seed * 7 + i) for i, seat in enumerate(G.seats)}
        play_out(kept, bots)
        fresh = new(SHORT, seed)
        play_out(fresh, lambda seat, seed=seed: G.make_bot(name, seed=seed * 7 + G.seats.index(seat)))
        assert fresh.to_json() == kept.to_json() and fresh.is_terminal


@pytest.mark.parametrize("name", list(BOTS))
def test_bots_decide_the_same_whatever_the_other_seats_secret(name: str) -> None:
    picks = []
    for plan in ("plan: hold", "plan: DT to L15 C; HV1 push HV3; QB pass to DT"):
        s = start(seed=5)
        s.apply("home", plan)
        picks.append(str(G.make_bot(name, seed=4).choose(s, "away")))
    assert picks[0] == picks[1]


def _largest() -> dict[str, Any]:
    """Every size at its maximum: field, end zones, line-ups, movement, bonuses, plan rows (the game short)."""
    d = G.default_rules().model_dump()
    kinds = {k: {**v, "movement": 9} for k, v in d["kinds"].items()}
    captains = {n: {**c, "movement": 9} for n, c in d["captains"].items()}
    cols = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    off = [{"id": "QB", "kind": "qb", "column": "M", "depth": 1}]
    off += [{"id": f"{code}{i}", "kind": kind, "column": cols[2 * i], "depth": 0}
            for i, (code, kind) in enumerate((("HV", "heavy"), ("ST", "strong"), ("FA", "fast")) * 3)]
    de = [{"id": f"{code}{i}", "kind": kind, "column": cols[2 * i + 1], "depth": 3}
          for i, (code, kind) in enumerate((("HW", "heavy"), ("SU", "strong"), ("FB", "fast")) * 3 + (("FC", "fast"),))]
    return {
        "rows": 99, "columns": 26, "end_zone_rows": 10, "plan_rows": 12, "snap_burst": 5, "retreat_squares": 5,
        "move_bonus": {k: 9 for k in d["move_bonus"]}, "kinds": kinds, "captains": captains,
        "offense_lineup": off, "defense_lineup": de,
        "possessions_per_half": 1, "downs": 1, "punt_downs": [1], "max_turns_per_down": 2, "overtime_periods": 0,
    }


def test_the_largest_ruleset_still_plays_a_random_game() -> None:
    rules = G.load_rules(_largest())
    tracemalloc.start()
    s = G.new_state(rules, 3)
    made = play_out(s, {seat: RandomBot(i) for i, seat in enumerate(G.seats)}, max_moves=5000)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert s.is_terminal and made < 5000
    assert peak < 200 * 2**20
