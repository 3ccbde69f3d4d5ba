"""Every legal placement of one side, as an :class:`~gm.core.state.ActionSpace`.

A placement gives every player on the field one card choice and one zone of its own, so a
side has up to ``3^11 x 11!`` (about 7 x 10^12) of them: far too many to list, but easy to
count, index and sample exactly.

- A player's *choices* are the distinct card codes it holds, in code order, and - when it
  holds one kind of card only - the card left out (``QB@MM``, ruling BR-R-CARD): exactly
  the cards :meth:`BrawlState._check` accepts for it.
- The zones are an injective assignment of the players (roster order) to the playable
  zones: player ``j`` takes the ``d_j``-th zone still free, in zone order (``d_j`` counts
  ``0 .. Z-1-j`` for ``Z`` playable zones: the Lehmer code of the assignment).

Index ``i`` is the mixed-radix number ``card_index * zone_assignments + zone_index`` with
``card_index`` and ``zone_index`` read most significant first (the first player's digit
first), so consecutive indices move the last players first.  :meth:`PlacementSpace.index`
is the inverse, and an action is in the space exactly when it has an index.

Speed: a zone index is decoded through two precomputed tables (the first players' zones and
the zones they leave free; the last players' order among those), and each play is a shared
:class:`CardPlay` looked up by player, card and zone, so indexing builds only the drawn placement,
and remembers its check plan (each hand's :class:`HandOptions` says the code each choice plays).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import permutations
from math import perm
from operator import itemgetter

from gm.core.actions import Action
from gm.core.state import ActionSpace
from gm.games.brawl.actions import CardPlay, Placement, card_play
from gm.games.brawl.rules import PLAYABLE, Card

_N = len(PLAYABLE)
_POS = {z: i for i, z in enumerate(PLAYABLE)}
_ASSIGNMENTS = [perm(_N, m) for m in range(_N + 1)]
#: (player, card) -> that play in each playable zone, in zone order
_ROWS: dict[tuple[str, str | None], tuple[CardPlay, ...]] = {}
_ROWS_MAX = 20_000

#: a player's card choices (see the module doc)
Choices = tuple[str | None, ...]
#: the choices of a hand of three by its codes in hand order (the common case, looked up, not sorted)
_CHOICES3: dict[tuple[str, str, str], Choices] = {}


def card_choices(held: Sequence[Card]) -> Choices:
    """The ways a player holding ``held`` may name its card: each distinct code (in code order), and
    ``None`` (the card left out) when it holds one kind only (BR-R-CARD)."""
    n = len(held)
    if n == 1:
        return (held[0].code, None)
    if n == 3:
        key = (held[0].code, held[1].code, held[2].code)
        hit = _CHOICES3.get(key)
        if hit is not None:
            return hit
    codes = sorted({c.code for c in held})
    out = (codes[0], None) if len(codes) == 1 else tuple(codes)
    if n == 3:
        if len(_CHOICES3) >= _ROWS_MAX:
            _CHOICES3.clear()
        _CHOICES3[key] = out
    return out


def _row(player: str, card: str | None) -> tuple[CardPlay, ...]:
    key = (player, card)
    row = _ROWS.get(key)
    if row is None:
        if len(_ROWS) >= _ROWS_MAX:
            _ROWS.clear()
        row = _ROWS[key] = tuple(card_play(player, card, z) for z in PLAYABLE)
    return row


#: picks the zones of the later players out of the zones left free (a tuple of them, in player order)
_Pick = Callable[[tuple[int, ...]], tuple[int, ...]]
#: m -> (high table, low table): the zone index of ``m`` players is ``high * len(low_table) + low``;
#: ``high_table[high]`` is (the zones of the first players, the zones they leave free in zone order) and
#: ``low_table[low]`` picks each later player's zone among those left free
_ZONE_TABLES: dict[int, tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[_Pick]]] = {}


def _picker(order: tuple[int, ...]) -> _Pick:
    """``free -> tuple(free[k] for k in order)``, as one C-level call where it can be."""
    if len(order) > 1:
        return itemgetter(*order)
    if order:
        k = order[0]
        return lambda free: (free[k],)
    return lambda free: ()


def _zone_tables(m: int) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], list[_Pick]]:
    tables = _ZONE_TABLES.get(m)
    if tables is None:
        split = m // 2 if m < 8 else m - 7  # the low table: at most 7! = 5,040 orders
        # (taken, free) for every ``split`` first zones, lexicographic (the Lehmer code's order): each level
        # takes every zone still free in turn
        high: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), tuple(range(_N)))]
        for _ in range(split):
            high = [((*taken, z), free[:k] + free[k + 1 :]) for taken, free in high for k, z in enumerate(free)]
        low = [_picker(order) for order in permutations(range(_N - split), m - split)]
        tables = _ZONE_TABLES[m] = (high, low)
    return tables


class HandOptions:
    """The ways to name a card from one hand: its :func:`card_choices` and the code each choice plays
    (the card left out: the one kind held).  A pure function of the hand's codes: see :func:`hand_options`."""

    __slots__ = ("choices", "codes", "n")

    def __init__(self, held: Sequence[Card]) -> None:
        self.choices: Choices = card_choices(held)
        self.codes: tuple[str, ...] = tuple(c if c is not None else str(self.choices[0]) for c in self.choices)
        self.n = len(self.choices)


_HANDS: dict[tuple[str, ...], HandOptions] = {}


def hand_options(held: Sequence[Card]) -> HandOptions:
    """The :class:`HandOptions` of a hand, worked out once per hand codes (in hand order)."""
    n = len(held)
    if n == 3:
        key: tuple[str, ...] = (held[0].code, held[1].code, held[2].code)
    elif n == 2:
        key = (held[0].code, held[1].code)
    else:
        key = tuple([c.code for c in held])
    hit = _HANDS.get(key)
    if hit is None:
        if len(_HANDS) >= _ROWS_MAX:
            _HANDS.clear()
        hit = _HANDS[key] = HandOptions(held)
    return hit


class PlacementSpace(ActionSpace):
    """One side's legal placements: counted, indexed in a fixed order, paged and sampled without
    listing them (see the module doc for the order).  ``options`` (each player's :func:`hand_options`,
    roster order) may be given when the caller has them already.

    The space remembers the placement it built last (``drawn``) with its check plan (``plan``: every
    entry's card code, the card left out resolved), so the engine's check of that very placement reads
    what indexing worked out instead of working it out again."""

    def __init__(
        self, players: Sequence[str], hands: Mapping[str, Sequence[Card]], options: Sequence[HandOptions] | None = None
    ) -> None:
        self.players: tuple[str, ...] = tuple(players)
        if options is None:
            options = [hand_options(hands[p]) for p in self.players]
        self.options: Sequence[HandOptions] = options
        card_count = 1
        for o in options:
            card_count *= o.n
        self.card_count = card_count
        m = len(self.players)
        self.zone_count = _ASSIGNMENTS[m] if m <= _N else 0  # injective assignments
        self._len = card_count * self.zone_count
        self.drawn: Placement | None = None
        self.plan: tuple[str, ...] = ()

    @property
    def choices(self) -> tuple[Choices, ...]:
        """Each player's :func:`card_choices`, roster order."""
        return tuple([o.choices for o in self.options])

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i: int) -> Placement:
        n = self._len
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"placement index {i} out of range (0 to {n - 1})")
        q, z = divmod(i, self.zone_count)
        m = len(self.players)
        high, low = _ZONE_TABLES.get(m) or _zone_tables(m)
        hi, lo = divmod(z, len(low))
        taken, free = high[hi]
        zones = taken + low[lo](free)
        slots: list[CardPlay | None] = [None] * _N
        codes: list[str | None] = [None] * _N
        known, players = _ROWS, self.players
        j = m
        for o in reversed(self.options):  # the last player's digit first
            j -= 1
            q, c = divmod(q, o.n)
            choice = o.choices[c]
            zi = zones[j]
            row = known.get((players[j], choice))
            slots[zi] = (row if row is not None else _row(players[j], choice))[zi]
            codes[zi] = o.codes[c]
        if m == _N:
            action = Placement.in_zone_order(tuple(slots))  # type: ignore[arg-type]
            self.plan = tuple(codes)  # type: ignore[arg-type]
        else:
            action = Placement.in_zone_order(tuple([s for s in slots if s is not None]))
            self.plan = tuple([c for c in codes if c is not None])
        self.drawn = action
        return action

    def index(self, action: Action) -> int:
        """The index of ``action`` in the space (``self[self.index(a)] == a``); ``ValueError`` if it is
        not one of the space's placements."""
        if not isinstance(action, Placement):
            raise ValueError("not a placement")
        by_player = {cp.player: cp for cp in action.placements}
        if len(by_player) != len(action.placements) or len(by_player) != len(self.players):
            raise ValueError("not one card from each player")
        q = z = 0
        free = list(range(_N))
        for j, (player, opts) in enumerate(zip(self.players, self.choices, strict=True)):
            cp = by_player.get(player)
            if cp is None:
                raise ValueError(f"{player} plays no card")
            if cp.card not in opts:
                raise ValueError(f"{player} cannot play {cp.card}")
            zi = _POS.get(cp.zone)
            if zi is None or zi not in free:
                raise ValueError(f"{cp.zone} is not a free playable zone")
            q = q * len(opts) + opts.index(cp.card)
            d = free.index(zi)
            free.pop(d)
            z = z * (_N - j) + d
        return q * self.zone_count + z

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        try:
            self.index(action)
        except ValueError:
            return False
        return True

    def __repr__(self) -> str:
        return f"<PlacementSpace {len(self)} placements of {' '.join(self.players)}>"
