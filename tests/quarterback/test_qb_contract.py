"""The game contract on random positions: checking never changes the state, the legal list is exactly
the moves the check accepts (one per distinct outcome; other routes to an outcome are aliases), and the
kinds compared across modules are string enums with their old values."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from qb_helpers import G, frozen, pins

from gm.core.actions import Action
from gm.core.chance import MT19937
from gm.games.quarterback.actions import EndTurn, MovePiece, PassBall
from gm.games.quarterback.engine import DIRS, Decision, HalfEnd, IllegalStep, Kind, Phase, QuarterbackState, Walk
from gm.games.quarterback.rules import square_name

RULESETS: list[dict[str, Any]] = [
    {"format": "game", "max_rounds": 3},
    {"format": "game", "max_rounds": 3, "first_attacker": "blue", "triple_moves": 2},
    {
        "format": "game",
        "max_rounds": 3,
        "columns": 6,
        "field_rows": 6,
        "back_rows": 1,
        "attack": {"quarterback": ["C-1"], "singles": ["C0"], "doubles": ["B0"], "triples": ["F0"]},
        "defense": {"quarterback": ["E4"], "singles": ["C1", "D1"], "doubles": ["A1"], "triples": ["B3"]},
    },
]


def positions(games: int, every: int, seed: int = 0) -> Iterator[QuarterbackState]:
    """Positions along seeded random games (the random bot's walks, so pushes, loose balls and
    released defenses all come up), every ``every`` actions; each yielded state is then played on."""
    for k in range(games):
        s = G.new_state(RULESETS[k % len(RULESETS)], seed + k, MT19937)
        assert isinstance(s, QuarterbackState)
        bots = {seat: G.make_bot("random", 7 * (seed + k) + i) for i, seat in enumerate(G.seats)}
        n = 0
        while not s.is_terminal:
            if n % every == every // 2:
                yield s
            seat = s.to_act()[0]
            s.apply(seat, bots[seat].choose(s, seat))
            n += 1


def candidates(s: QuarterbackState, rng: random.Random, n: int) -> list[Action]:
    """Random actions, mostly illegal: any piece id to any square (some off the board), passes anywhere."""
    r = s.rules
    pids = ["QB", "S1", "S2", "S3", "D1", "D2", "T1", "T2", "T9"]
    out: list[Action] = [EndTurn()]
    for _ in range(n):
        sq = square_name((rng.randrange(-1, r.columns + 1), rng.randrange(r.min_row - 1, r.field_rows + 2)))
        if rng.random() < 0.2:
            out.append(PassBall(sq) if sq[0] >= "A" else PassBall("A0"))
            continue
        if sq[0] < "A":
            sq = "A" + sq[1:]
        via = () if rng.random() < 0.6 else (square_name((rng.randrange(r.columns), rng.randrange(r.min_row, r.field_rows + 1))),)
        out.append(MovePiece(rng.choice(pids), sq, via))
    return out


def outcome(s: QuarterbackState, w: Walk) -> tuple[Any, ...]:
    """What a move leaves behind: the board, the ball, how the half ends, the squares the piece has used
    (it may go on with the rest later in its sequence) and whether it freed the defense by crossing."""
    return (
        tuple(sorted(w.board().items())),
        w.carrier,
        w.loose,
        w.end,
        w.end_at,
        None if w.end else len(w.path),
        w.crossed and not s.released,
    )


def every_route(s: QuarterbackState, seat: str, pid: str) -> list[Walk]:
    """Brute force: every sequence of steps the piece may take now, walked with the engine's one step."""
    limit = s.steps_open(seat, pid)
    out: list[Walk] = []

    def extend(w: Walk) -> None:
        if len(w.path) == limit or w.end:
            return
        for dc, dr in DIRS:
            try:
                w2 = s.step(w, (w.at[0] + dc, w.at[1] + dr))
            except IllegalStep:
                continue
            out.append(w2)
            extend(w2)

    extend(s.start_walk((seat, pid)))
    return out


def test_checking_never_changes_the_state() -> None:
    """Checking legal and illegal actions, for the seat on turn and the other, listing the legal moves
    and summarising them leave ``snapshot()`` and ``to_json()`` byte-identical."""
    rng = random.Random(5)
    checked = accepted = 0
    for s in positions(games=30, every=9):
        before = frozen(s)
        seat = s.to_act()[0]
        legal = list(s.legal_actions(seat))
        assert frozen(s) == before
        for a in rng.sample(legal, min(8, len(legal))) + candidates(s, rng, 12):
            for who in G.seats:
                accepted += s.is_legal(who, a)
                checked += 1
                assert frozen(s) == before, f"checking {who}: {a} changed the state"
        s.legal_summary(seat, MovePiece("T1", "A0"))
        assert frozen(s) == before
    assert checked > 2000 and 0 < accepted < checked


@pytest.mark.parametrize("chunk", range(3))
@pins("QB-R-NOTATION")
def test_the_legal_list_is_exactly_what_the_check_accepts(chunk: int) -> None:
    """On random positions: the list counts what it iterates, names each action once, and every listed
    action is accepted.  Brute force over every step sequence of every piece that may move: the outcomes
    the check accepts are exactly the listed ones, one listed move each (a longer route to the same square
    is its own move: it leaves fewer squares for later).  Random candidates are accepted exactly when
    their outcome is listed."""
    rng = random.Random(11 + chunk)
    positions_seen = routes = 0
    for s in positions(games=8, every=7, seed=100 + 8 * chunk):
        positions_seen += 1
        seat = s.to_act()[0]
        legal = s.legal_actions(seat)
        listed = list(legal)
        assert len(legal) == len(listed) == len({str(a) for a in listed})
        assert all(s.is_legal(seat, a) for a in listed)
        # a log replays through the canonical forms' fast path: it reads as the phrasing pass does
        assert all(G.parse_action(str(a)) == G.parse_action(f" {a} ") == a for a in listed)
        by_piece: dict[str, dict[tuple[Any, ...], MovePiece]] = {}
        for a in listed:
            if isinstance(a, MovePiece):
                key = outcome(s, s.route(seat, a))
                assert key not in by_piece.setdefault(a.piece, {}), f"{a} repeats an outcome"
                by_piece[a.piece][key] = a
        for pid in s.movable(seat):
            walks = every_route(s, seat, pid)
            routes += len(walks)
            assert {outcome(s, w) for w in walks} == set(by_piece.get(pid, {})), pid
            for w in rng.sample(walks, min(6, len(walks))):
                assert s.move_action((seat, pid), w.path) in legal  # any route of an outcome is accepted
        assert set(by_piece) <= set(s.movable(seat))
        texts = {str(a) for a in listed}
        for a in candidates(s, rng, 30):
            if not s.is_legal(seat, a):
                assert str(a) not in texts
            elif isinstance(a, MovePiece):
                assert outcome(s, s.route(seat, a)) in by_piece[a.piece]
            else:
                assert str(a) in texts
    assert positions_seen > 20 and routes > 5_000, (positions_seen, routes)


def test_kinds_compared_across_modules_are_string_enums_with_their_old_values() -> None:
    s = G.new_state({"first_attacker": "red", "format": "game", "max_rounds": 1})
    assert isinstance(s.phase, Phase) and s.phase == "attack" and s.decision("red") == Decision.ATTACKER_TURN == "attacker_turn"
    assert s.kind[("red", "T1")] is Kind.TRIPLE and s.kind[("red", "QB")] == "Q"
    s.apply("red", "end")
    assert s.phase is Phase.DEFEND and s.decision("blue") == "defender_turn" and s.decision("red") is None
    s.apply("blue", "end")
    assert s.results[0]["how"] is HalfEnd.WHISTLE
    assert json.loads(json.dumps(s.snapshot()))["results"][0]["how"] == "whistle"


def test_quarter_back_has_no_secrets_for_a_bot_to_read() -> None:
    """Every seat sees the whole state: there is no other seat's secret a bot could peek at."""
    for s in positions(games=3, every=25, seed=7):
        assert s.view("red") == s.view("blue") == s.view(None) == s.snapshot()
        assert not s.has_locked_picks() and s.secret_moves() == set()


def test_a_walk_kept_from_an_earlier_position_is_walked_again() -> None:
    """The engine reuses the walks made in the position at hand only: a walk a caller kept from before
    the last move describes an old board, and checking its action walks it afresh."""
    s = G.new_state({"first_attacker": "red", "format": "game"})
    assert isinstance(s, QuarterbackState)
    old = s.start_walk(("red", "T1"))
    s.apply("red", "move D1 C0-B0")
    stale = s.step(old, (0, 1))  # on the board before D1 moved
    assert stale.board()[(2, 0)] == ("red", "D1")
    s.apply("red", s.action_of(stale))
    assert s.board[(1, 0)] == ("red", "D1") and (2, 0) not in s.board and s.board[(0, 1)] == ("red", "T1")


def test_try_step_is_step_with_the_refusal_returned() -> None:
    """``try_step`` (the random bot's step) returns what ``step`` raises, rule and words, and walks exactly
    as ``step`` does when the step is allowed, two steps deep from every piece that may move."""
    refused: dict[str, int] = {}
    allowed = 0
    for s in positions(games=6, every=11):
        seat = s.to_act()[0]
        for pid in s.movable(seat):
            frontier = [s.start_walk((seat, pid))]
            for _ in range(2):
                nxt = []
                for w in frontier:
                    for dc, dr in DIRS:
                        to = (w.at[0] + dc, w.at[1] + dr)
                        got = s.try_step(w, to)
                        try:
                            w2 = s.step(w, to)
                        except IllegalStep as exc:
                            assert isinstance(got, IllegalStep)
                            assert (got.rule, got.reason) == (exc.rule, exc.reason)
                            refused[exc.rule] = refused.get(exc.rule, 0) + 1
                            continue
                        assert isinstance(got, Walk)
                        assert outcome(s, got) == outcome(s, w2) and got.path == w2.path and got.log == w2.log
                        allowed += 1
                        nxt.append(w2)
                frontier = nxt
    assert (allowed, dict(sorted(refused.items()))) == (1590, {
        "QB-ADJACENT": 18, "QB-DIAGONAL": 120, "QB-OCCUPIED": 341, "QB-OFFSIDE-LINE": 48, "QB-PUSH": 105,
        "QB-PUSH-CARRIER": 2, "QB-PUSH-LIMIT": 4, "QB-R-BOARD": 296, "QB-R-PUSH-BLOCKED": 4, "QB-TACKLE": 24,
    })  # fmt: skip
