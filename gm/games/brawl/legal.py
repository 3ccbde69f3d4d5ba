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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import perm

from gm.core.actions import Action
from gm.core.state import ActionSpace
from gm.games.brawl.actions import CardPlay, Placement, card_play
from gm.games.brawl.rules import PLAYABLE, Card

_N = len(PLAYABLE)
_POS = {z: i for i, z in enumerate(PLAYABLE)}
_ZONE_INDICES = list(range(_N))
_ASSIGNMENTS = [perm(_N, m) for m in range(_N + 1)]
#: (player, card) -> that play in each playable zone, in zone order
_ROWS: dict[tuple[str, str | None], tuple[CardPlay, ...]] = {}
_ROWS_MAX = 20_000


def card_choices(held: Sequence[Card]) -> tuple[str | None, ...]:
    """The ways a player holding ``held`` may name its card: each distinct code (in code order), and
    ``None`` (the card left out) when it holds one kind only (BR-R-CARD)."""
    if len(held) == 1:
        return (held[0].code, None)
    codes = sorted({c.code for c in held})
    return (codes[0], None) if len(codes) == 1 else tuple(codes)


def _row(player: str, card: str | None) -> tuple[CardPlay, ...]:
    key = (player, card)
    row = _ROWS.get(key)
    if row is None:
        if len(_ROWS) >= _ROWS_MAX:
            _ROWS.clear()
        row = _ROWS[key] = tuple(card_play(player, card, z) for z in PLAYABLE)
    return row


class PlacementSpace(ActionSpace):
    """One side's legal placements: counted, indexed in a fixed order, paged and sampled without
    listing them (see the module doc for the order)."""

    def __init__(self, players: Sequence[str], hands: Mapping[str, Sequence[Card]]) -> None:
        self.players: tuple[str, ...] = tuple(players)
        choices: list[tuple[str | None, ...]] = []
        card_count = 1
        for p in self.players:
            opts = card_choices(hands[p])
            choices.append(opts)
            card_count *= len(opts)
        self.choices: tuple[tuple[str | None, ...], ...] = tuple(choices)
        self.card_count = card_count
        self.zone_count = _ASSIGNMENTS[len(self.players)] if len(self.players) <= _N else 0  # injective assignments
        self._len = card_count * self.zone_count

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, i: int) -> Placement:
        n = self._len
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"placement index {i} out of range (0 to {n - 1})")
        q, z = divmod(i, self.zone_count)
        players, choices = self.players, self.choices
        m = len(players)
        picked: list[tuple[CardPlay, ...]] = [()] * m
        digits = [0] * m
        for j in range(m - 1, -1, -1):
            options = choices[j]
            q, c = divmod(q, len(options))
            picked[j] = _row(players[j], options[c])
            z, digits[j] = divmod(z, _N - j)
        free = _ZONE_INDICES.copy()
        slots: list[CardPlay | None] = [None] * _N
        for j in range(m):
            zi = free.pop(digits[j])
            slots[zi] = picked[j][zi]
        return Placement.in_zone_order(tuple([s for s in slots if s is not None]))

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
