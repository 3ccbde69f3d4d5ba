"""The search bot in brawl cannot see the other side's hand or anyone's draw pile: brawl's determinizer deals
what a seat cannot see afresh.  Attacked as the opponent: two games differing only in which cards the
other side holds (and in the order of every pile) get the very same worlds and the same seeded choice."""

from __future__ import annotations

import random
from collections import Counter

from br_helpers import G, new

from gm.core.playout import play_out
from gm.games.brawl.engine import BrawlState


def _swapped(state: BrawlState, seat: str, rng: random.Random) -> BrawlState:
    """``state`` with the other side's hands and piles dealt again and ``seat``'s own piles reordered: a game
    that looks exactly the same to ``seat``."""
    twin = state.clone()
    opp = "away" if seat == "home" else "home"
    for name, pile in twin.piles[opp].items():
        hand = twin.hands[opp].get(name, [])
        pool = hand + pile
        rng.shuffle(pool)
        hand[:] = pool[: len(hand)]
        pile[:] = pool[len(hand):]
    for pile in twin.piles[seat].values():
        pile.reverse()
    return twin


def _positions() -> list[tuple[BrawlState, str]]:
    out = []
    for seed in range(3):
        s = new(seed)
        play_out(s, {seat: G.make_bot("random", seed * 3 + i) for i, seat in enumerate(G.seats)}, max_moves=4 + 5 * seed)
        if not s.is_terminal:
            out.append((s, s.to_act()[-1]))
    return out


def test_a_world_keeps_the_seat_s_hand_and_deals_the_rest_from_what_it_cannot_have_seen() -> None:
    for s, seat in _positions():
        opp = "away" if seat == "home" else "home"
        draw = s.determinizer(seat)
        rng = random.Random(1)
        seen_other_hands = set()
        for _ in range(6):
            w = draw(rng)
            assert w.view(seat) == s.view(seat)
            assert w.hands[seat] == s.hands[seat]
            for name in s.piles[opp]:  # each of the other side's players: the same cards in hand and pile together
                real = Counter(c.code for c in s.hands[opp].get(name, []) + s.piles[opp][name])
                drawn = Counter(c.code for c in w.hands[opp].get(name, []) + w.piles[opp][name])
                assert real == drawn and len(w.hands[opp].get(name, [])) == len(s.hands[opp].get(name, []))
            seen_other_hands.add(repr(sorted((n, [c.code for c in h]) for n, h in w.hands[opp].items())))
        assert len(seen_other_hands) > 1  # dealt afresh, not copied


def test_the_search_cannot_see_the_other_side_s_cards_or_the_piles() -> None:
    for s, seat in _positions():
        twin = _swapped(s, seat, random.Random(7))
        opp = "away" if seat == "home" else "home"
        assert twin.view(seat) == s.view(seat) and twin.hands[opp] != s.hands[opp]
        w1 = s.determinizer(seat)(random.Random(3))
        w2 = twin.determinizer(seat)(random.Random(3))
        assert w1.snapshot() == w2.snapshot()
        spec = "bot:search?iters=10&depth=4"
        assert G.make_bot(spec, 5).choose(s, seat) == G.make_bot(spec, 5).choose(twin, seat)


def test_a_lock_of_the_other_side_is_drawn_again_from_the_hands_dealt() -> None:
    s = new(4)
    first, second = s.to_act()[0], s.to_act()[1]
    s.apply(first, G.make_bot("random", 1).choose(s, first))
    assert s.has_locked_picks() and s.to_act() == (second,)
    twin = _swapped(s, second, random.Random(2))
    draw = s.determinizer(second)
    for k in range(4):
        w = draw(random.Random(k))
        assert w.view(second) == s.view(second) and first in w.pending and w.to_act() == (second,)
    assert s.determinizer(second)(random.Random(9)).snapshot() == twin.determinizer(second)(random.Random(9)).snapshot()
