"""The bots' board readings (:mod:`.tactics`) agree with each other: the per-square and free-spot views are
the candidate list regrouped and filtered, and the threat helpers answer what the threat map says.
Checked on every piece of both teams at every reaction-turn decision of seeded random games."""

from __future__ import annotations

from collections.abc import Iterator

from cf_helpers import G

from gm.games.chess_football.field import Field
from gm.games.chess_football.tactics import (
    candidate_spots,
    candidate_squares,
    free_spots,
    threat_counts,
    threat_map,
    threatened_squares,
    threats_to,
)


def _positions() -> Iterator[Field]:
    """The field at each reaction-turn decision of two seeded random games (short ones)."""
    for seed in (3, 4):
        s = G.new_state({"possessions_per_half": 1, "overtime_periods": 0}, seed)
        bots = {seat: G.make_bot("random", seed + i) for i, seat in enumerate(G.seats)}
        n = 0
        while not s.is_terminal and n < 150:
            seat = s.to_act()[0]
            if s.decision(seat) == "turn" and s.field is not None:
                yield s.field
            s.apply(seat, bots[seat].choose(s, seat))
            n += 1


def test_square_and_free_views_are_the_candidate_list_regrouped() -> None:
    checked = free_seen = held_seen = 0
    for f in _positions():
        for team in (f.offense, f.defense):
            for p in f.team_pieces(team):
                spots = list(candidate_spots(f, team, p))
                flat = [(s, name, pos, rush, route) for s, name, poss, rush, route in candidate_squares(f, team, p)
                        for pos in poss]
                assert flat == spots
                free = [a for a in spots if f.holder_at(a[0], a[2]) is None]
                assert list(free_spots(f, team, p)) == free
                plain = [a for a in free if not (a[3] or a[4])]
                assert list(free_spots(f, team, p, plain=True)) == plain
                checked += 1
                free_seen += len(free)
                held_seen += len(spots) - len(free)
    assert checked > 500 and free_seen > 5000 and held_seen > 20  # (tackles and collisions were among them)


def test_threat_helpers_read_the_threat_map() -> None:
    for f in _positions():
        for team in (f.offense, f.defense):
            tm = threat_map(f, team)
            assert threatened_squares(f, team) == set(tm)
            for p in f.pieces.values():
                area = f.grid.around[p.sq]
                assert {q.id for q in threats_to(f, team, area)} == {q.id for s in area for q in tm.get(s, ())}
            areas = [[(p.sq[0] + dc, p.sq[1] + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)] for p in f.pieces.values()]
            assert threat_counts(f, team, areas) == [sum(len(tm.get(s, ())) for s in a) for a in areas]
