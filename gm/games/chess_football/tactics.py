"""Helpers for bots: the board read the way a player scans it, built on the engine's public
functions (the one path search, the one option lister).  Nothing here decides legality - a bot
still hands its choice to the engine, which checks it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence

from gm.games.chess_football.actions import Move
from gm.games.chess_football.field import Field, Piece
from gm.games.chess_football.geometry import POSITIONS, Square, sq
from gm.games.chess_football.options import VARIANTS, move_groups

#: a candidate move as plain values: (square, its name, position, speed rush, route running)
Spot5 = tuple[Square, str, str, bool, bool]
#: a square's candidate positions: (square, its name, the positions in listing order, speed rush, route running)
SquareSpots = tuple[Square, str, tuple[str, ...], bool, bool]
_FIRST = (POSITIONS[0],)
#: the move variants a player weighs: plain, Speed Rush, Route Running (not both at once)
_CONSIDERED = VARIANTS[:3]


def candidate_moves(f: Field, team: str, p: Piece) -> Iterator[Move]:
    """A short list of ``p``'s moves a player would consider: for each square it can end on (plain
    moves first, then the squares only Speed Rush or Route Running reach), the first free position
    and every position an opponent holds there (a tackle or a collision).  Squares by row, then column."""
    pid = p.id
    for _, name, pos, rush, route in candidate_spots(f, team, p):
        yield Move.trusted(pid, name, pos, rush, route)


def candidate_spots(f: Field, team: str, p: Piece, *, plain: bool = False) -> Iterator[Spot5]:
    """:func:`candidate_moves` as plain values (a bot weighing many builds only the move it picks);
    ``plain``: only the plain moves (the first part of the list)."""
    for s, name, spots, rush, route in candidate_squares(f, team, p, plain=plain):
        for pos in spots:
            yield s, name, pos, rush, route


def free_spots(f: Field, team: str, p: Piece, *, plain: bool = False) -> Iterator[Spot5]:
    """The candidate spots no piece holds (moves that end in neither a tackle nor a collision): of each square
    its first candidate position, when free, for the others are held by opponents."""
    occ = f.occupancy()
    for s, name, spots, rush, route in candidate_squares(f, team, p, plain=plain):
        pos = spots[0]
        if s not in occ or f.holder_at(s, pos) is None:
            yield s, name, pos, rush, route


def candidate_squares(f: Field, team: str, p: Piece, *, plain: bool = False) -> Iterator[SquareSpots]:
    """:func:`candidate_spots` a square at a time: each square (once per variant) with its candidate positions
    in listing order (never none)."""
    seen: Collection[Square] = ()
    occ = f.occupancy()
    for g in move_groups(f, team, p, VARIANTS[:1] if plain else _CONSIDERED):
        rush, route = g.rush, g.route
        is_plain = not (rush or route)
        if is_plain:
            seen = g.squares  # (the plain group comes first: the others offer only the squares it lacks)
        for s in g.order():
            if not is_plain and s in seen:
                continue
            on = occ.get(s)
            if not on:  # an empty square: its first position
                if s != p.sq:
                    yield s, sq(s), _FIRST, rush, route
                continue
            here = [q for q in on if q is not p]
            spots: list[str] = []
            if s != p.sq:
                taken = {q.pos for q in here}
                free = next((x for x in POSITIONS if x not in taken), None)
                if free:
                    spots.append(free)
            spots += [q.pos for q in here if q.team != team]
            if spots:
                yield s, sq(s), tuple(spots), rush, route


def threat_reaches(f: Field, team: str) -> list[tuple[Piece, dict[Square, int]]]:
    """Each piece of ``team`` that can move next turn (not wrapped up), with the squares it reaches with
    its full movement: the one statement of who threatens what that the views below read."""
    return [(p, f.reach(p, p.spec[0])) for p in f.team_pieces(team) if p.id not in f.wrapped]


def threat_map(f: Field, team: str) -> dict[Square, list[Piece]]:
    """Squares each piece of ``team`` can reach next turn with its full movement."""
    out: dict[Square, list[Piece]] = {}
    for p, reach in threat_reaches(f, team):
        for s in reach:
            out.setdefault(s, []).append(p)
    return out


def threat_counts(f: Field, team: str, areas: Sequence[Iterable[Square]]) -> list[int]:
    """For each area, how many (square, piece) pairs :func:`threat_map` lists on its squares."""
    reaches = [reach for _, reach in threat_reaches(f, team)]
    return [sum(1 for s in area for reach in reaches if s in reach) for area in areas]


def threatened_squares(f: Field, team: str) -> set[Square]:
    """The squares of :func:`threat_map` (for a bot that asks only whether a square is threatened)."""
    return set().union(*(reach for _, reach in threat_reaches(f, team)))


def threats_to(f: Field, team: str, squares: Collection[Square]) -> list[Piece]:
    """``team``'s pieces that :func:`threat_map` lists on one of ``squares`` (movement order)."""
    return [p for p, reach in threat_reaches(f, team) if not reach.keys().isdisjoint(squares)]


def pieces_in_lineup_order(f: Field, team: str) -> list[Piece]:
    """``team``'s pieces in the order they lined up (the line-up, then the captain)."""
    return [p for p in f.pieces.values() if p.team == team]


__all__ = [
    "Spot5",
    "SquareSpots",
    "candidate_moves",
    "candidate_spots",
    "candidate_squares",
    "free_spots",
    "pieces_in_lineup_order",
    "threat_counts",
    "threat_map",
    "threat_reaches",
    "threatened_squares",
    "threats_to",
]
