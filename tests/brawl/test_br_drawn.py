"""A placement the seat's space just drew is checked by what drawing it worked out
(:meth:`BrawlState._check_placement`): it plays exactly as the same placement read afresh, which the
full check sees, and only while nothing has moved and the seat holds the same cards - a hand replaced
or changed in place, or another move made, and the placement is checked in full again."""

from __future__ import annotations

import json
import random

import pytest
from br_helpers import G, deal, new

from gm.core.errors import IllegalActionError
from gm.games.brawl.actions import Placement
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.rules import parse_card


def _frozen(st: BrawlState) -> str:
    return json.dumps([st.to_json(), st.snapshot(), st.rng.getstate(), st.locked], sort_keys=True, default=str)


def _events(events: list[object]) -> str:
    return json.dumps([e.to_json() for e in events], sort_keys=True, default=str)  # type: ignore[attr-defined]


def test_a_drawn_placement_plays_as_the_same_placement_read_afresh() -> None:
    compared = 0
    for seed in range(6):
        st, fresh = G.new_state(None, seed), G.new_state(None, seed)
        assert isinstance(st, BrawlState) and isinstance(fresh, BrawlState)
        rng = random.Random(seed)
        while not st.is_terminal and compared < 400:
            seat = st.to_act()[0]
            action = st.legal_actions(seat).sample(rng)
            again = G.parse_action(str(action))  # the same placement, not the drawn object: the full check
            assert again == action and again is not action
            assert _events(st.apply(seat, action)) == _events(fresh.apply(seat, again))
            assert _frozen(st) == _frozen(fresh)
            compared += isinstance(action, Placement)
    assert compared == 400


def test_a_hand_replaced_after_the_draw_is_checked_again() -> None:
    st = new(seed=3)
    action = st.legal_actions("home").sample(random.Random(1))
    deal(st, "home", {p: ["F8", "F9"] for p in st.roster("home")})  # nobody holds what was drawn
    before = _frozen(st)
    with pytest.raises(IllegalActionError) as err:
        st.apply("home", action)
    assert err.value.rule == "BR-HAND" and "does not hold" in err.value.reason
    assert _frozen(st) == before


def test_a_hand_changed_in_place_after_the_draw_is_checked_again() -> None:
    st = new(seed=3)
    action = st.legal_actions("home").sample(random.Random(1))
    first = action.placements[0]
    assert isinstance(action, Placement) and first.card is not None
    held = st.hands["home"][first.player]
    held[:] = [parse_card("F9")] * len(held)  # the same list, other cards
    with pytest.raises(IllegalActionError) as err:
        st.apply("home", action)
    assert err.value.rule == "BR-HAND" and err.value.reason.startswith(f"{first.player} does not hold {first.card}")


def test_a_placement_drawn_before_another_move_is_checked_again() -> None:
    st = new(seed=3)
    rng = random.Random(2)
    stale = st.legal_actions("home").sample(rng)
    st.apply("home", stale)
    st.apply("away", st.legal_actions("away").sample(rng))  # the play is revealed: every player has played a card
    assert st.play_no == 2 and all(len(h) == 2 for h in st.hands["home"].values())
    held = {p: [c.code for c in h] for p, h in st.hands["home"].items()}
    gone = [cp for cp in stale.placements if cp.card is not None and cp.card not in held[cp.player]]
    assert gone  # some card drawn then is no longer held
    with pytest.raises(IllegalActionError) as err:
        st.apply("home", stale)
    assert err.value.rule in ("BR-HAND", "BR-R-CARD")
