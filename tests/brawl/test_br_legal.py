"""The legal actions agree exactly with the check: the placement space counts, indexes, pages and samples
exactly the placements ``_check`` accepts (BR-PLACE, BR-ZONE-ONE, BR-X, BR-HAND, BR-R-CARD), and checking
never changes the state."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest
from br_helpers import G, deal, new

from gm.core.chance import MT19937
from gm.core.errors import IllegalActionError, InvalidActionError
from gm.core.state import ActionSpace
from gm.core.tools import parse_args, tool_index
from gm.games.brawl.actions import CardPlay, FourthDown, Placement
from gm.games.brawl.bots import RandomBot
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.legal import PlacementSpace, card_choices
from gm.games.brawl.rules import PLAYABLE, ZONES, parse_card

TOOLS = tool_index(G.tools())
#: two players a side with small decks: small enough to list every candidate placement
DUO = {
    "first_offense": "home",
    "offense": {"QB": "QB", "TE": "TE"},
    "defense": {"CB1": "CB", "FS": "S"},
    "positions": {p: {"deck": d} for p, d in {"QB": ["F3", "F3", "F2", "S1"], "RB": ["S2"] * 4, "TE": ["A1-3", "F1", "S2", "F1"],
                                             "MLB": ["F2"] * 4, "CB": ["A1-4", "F2", "S1", "F2"], "S": ["S1", "F1", "F1", "A2"]}.items()},
}


def _positions(rules: dict | None, seeds: range, every: int = 3) -> list[BrawlState]:  # type: ignore[type-arg]
    """States in every phase, from seeded random play (copies taken along the way)."""
    out = []
    for seed in seeds:
        st = G.new_state({**(rules or {}), "rounds": 3}, seed, MT19937)
        assert isinstance(st, BrawlState)
        bots = {s: RandomBot(seed * 7 + i) for i, s in enumerate(G.seats)}
        n = 0
        while not st.is_terminal:
            if n % every == 0:
                out.append(st.copy())  # type: ignore[arg-type]
            seat = st.to_act()[-1 if n % 2 else 0]
            st.apply(seat, bots[seat].choose(st, seat))
            n += 1
    return out


def _frozen(st: BrawlState) -> str:
    return json.dumps([st.to_json(), st.snapshot(), st.rng.getstate(), st.view("home"), st.view("away"), st.locked],
                      sort_keys=True, default=str)


def _candidates(st: BrawlState, seat: str) -> list[Placement]:
    """Every placement of the seat's players with any card they hold, one nobody holds, or none, into any zone."""
    players = list(st.roster(seat))
    cards: list[str | None] = [*sorted({c.code for p in players for c in st.hands[seat][p]} | {"F9"}), None]
    entries = [[CardPlay(p, c, z) for c in cards for z in ZONES] for p in players]
    return [Placement(combo) for combo in itertools.product(*entries)]


def test_the_space_is_exactly_what_the_check_accepts_brute_force() -> None:
    """On small positions every candidate placement (any card of the ruleset or none, any zone, the X too)
    is accepted by the check exactly when it is in the space; the count is the space's length."""
    checked = 0
    for st in _positions(DUO, range(3), every=3)[:6]:
        for seat in st.to_act():
            legal = st.legal_actions(seat)
            if not legal.is_space:
                continue
            space = st._legal(seat)
            assert isinstance(space, PlacementSpace)
            accepted = [a for a in _candidates(st, seat) if st.is_legal(seat, a)]
            assert len(accepted) == len(legal) == len(space) > 0
            assert set(accepted) == set(legal) and all(a in space for a in accepted)
            assert [space.index(a) for a in legal] == list(range(len(space)))  # iteration order = index order
            checked += 1
    assert checked >= 4


def test_a_single_kind_hand_may_leave_the_card_out() -> None:
    """BR-R-CARD: a player holding one kind of card has two spellings of its play, both legal, both listed."""
    assert card_choices([parse_card("F3")] * 2) == ("F3", None)
    assert card_choices([parse_card("S2"), parse_card("F1"), parse_card("S2")]) == ("F1", "S2")
    st = new(seed=1, offense={"QB": "QB", "RB": "RB", "TE": "TE"})
    deal(st, "home", {"QB": ["F3", "F3"], "RB": ["S2", "S2"], "TE": ["F1", "S2"]})
    space = st.legal_actions("home")
    assert len(space) == 2 * 2 * 2 * 11 * 10 * 9
    assert st.is_legal("home", "QB@DL RB@DM TE:F1@DR") and "QB@DL RB@DM TE:F1@DR" in [str(a) for a in space]
    assert not st.is_legal("home", "QB@DL RB@DM TE@DR")  # TE holds two kinds: name the card


def test_the_default_space_counts_indexes_and_samples_exactly() -> None:
    """11 players: the count is the product of each player's choices times 11!; every indexed or sampled
    placement passes the check, index and position round-trip, and pages are slices of the order."""
    rng = random.Random(4)
    seen = 0
    for st in _positions(None, range(4), every=5):
        for seat in st.to_act():
            legal = st.legal_actions(seat)
            if not legal.is_space:
                assert [str(a) for a in legal] == [str(FourthDown(o)) for o in st.fourth_options()]
                continue
            space = st._legal(seat)
            assert isinstance(space, ActionSpace) and isinstance(space, PlacementSpace)
            want = 39916800
            for p in st.roster(seat):
                want *= len(card_choices(st.hands[seat][p]))
            assert len(legal) == len(space) == want
            for i in [0, len(space) - 1, *(rng.randrange(len(space)) for _ in range(6))]:
                action = space[i]
                assert st.is_legal(seat, action) and space.index(action) == i and action in space
                assert G.parse_action(str(action)) == action
            assert list(legal.page(5, 3)) == [space[5], space[6], space[7]] and legal.page(len(space), 5) == ()
            assert st.is_legal(seat, legal.sample(rng))
            with pytest.raises(IndexError):
                space[len(space)]
            seen += 1
    assert seen >= 20


def test_illegal_placements_are_neither_accepted_nor_in_the_space() -> None:
    """Mutants of legal placements (a zone taken twice, the X, a card not held, a player missing, a player not
    on the field) are refused by the check, are not in the space, and checking them changes nothing."""
    rng = random.Random(8)
    refused = 0
    for st in _positions(None, range(3), every=4):
        for seat in st.to_act():
            legal = st.legal_actions(seat)
            if not legal.is_space:
                continue
            space = st._legal(seat)
            assert isinstance(space, PlacementSpace)
            before = _frozen(st)
            plays = list(legal.sample(rng).placements)  # type: ignore[attr-defined]
            i, j = rng.sample(range(len(plays)), 2)
            other = "CB1" if st.unit(seat) == "offense" else "QB"
            mutants = [
                (*plays[:i], CardPlay(plays[i].player, plays[i].card, plays[j].zone), *plays[i + 1:]),
                (*plays[:i], CardPlay(plays[i].player, plays[i].card, "BM"), *plays[i + 1:]),
                (*plays[:i], CardPlay(plays[i].player, "F9", plays[i].zone), *plays[i + 1:]),
                tuple(plays[1:]),
                (*plays[:i], CardPlay(other, "F1", plays[i].zone), *plays[i + 1:]),
                (*plays, CardPlay(plays[0].player, plays[0].card, plays[0].zone)),
            ]
            for m in mutants:
                action = Placement(m)
                with pytest.raises(IllegalActionError) as exc:
                    st.validate(seat, action)
                assert exc.value.rule in ("BR-ZONE-ONE", "BR-X", "BR-HAND", "BR-PLACE", "BR-R-ROSTER", "BR-R-CARD")
                assert action not in space and action not in legal
                refused += 1
            assert _frozen(st) == before
    assert refused >= 60


def test_checking_never_changes_the_state() -> None:
    """Many legal and illegal actions checked on random positions: snapshot, log, generator, views and the
    locked plans are byte-identical after each check (the plan is returned, never stored)."""
    rng = random.Random(2)
    checks = 0
    for st in _positions(None, range(4), every=2):
        before = _frozen(st)
        for seat in G.seats:
            legal = st.legal_actions(seat)
            candidates: list[object] = [FourthDown("punt"), FourthDown("field_goal"), FourthDown("go_for_it"), "QB:F3@MM"]
            if legal:
                candidates.append(legal.sample(rng))
            for action in candidates:
                try:
                    st.validate(seat, action)  # type: ignore[arg-type]
                except (IllegalActionError, InvalidActionError):
                    pass
                assert _frozen(st) == before
                checks += 1
    assert checks > 400


def test_a_card_left_out_is_revealed_as_the_one_kind_held() -> None:
    """BR-R-CARD: the check resolves a card left out to the one kind the player holds, so the reveal
    names it without a second look."""
    st = new(seed=2)
    deal(st, "home", {"QB": ["F3", "F3"]})
    space = st._legal("home")
    assert isinstance(space, PlacementSpace)
    first = space[0]
    action = Placement(tuple(CardPlay(cp.player, None, cp.zone) if cp.player == "QB" else cp for cp in first.placements))
    assert action in space and space.index(action) == len(space) // 2  # the first player is the top digit
    zone = next(cp.zone for cp in action.placements if cp.player == "QB")
    assert "QB@" in str(action) and "QB:F3@" not in str(action)
    st.apply("home", action)
    events = st.apply("away", st.legal_actions("away").sample(random.Random(2)))
    (reveal,) = [e for e in events if e.kind == "reveal"]
    assert f"QB:F3@{zone}" in reveal.text and [c.code for c in st.hands["home"]["QB"]] == ["F3"]


def test_random_sampling_is_uniform() -> None:
    """Seeded draws from a small space hit every placement about equally often (chi-square, 1 player)."""
    st = new(seed=3, offense={"QB": "QB"}, defense={"MLB": "MLB"})
    deal(st, "home", {"QB": ["F3", "S1", "A1-3"]})
    legal = st.legal_actions("home")
    assert len(legal) == 33
    rng = random.Random(11)
    counts = Counter(str(legal.sample(rng)) for _ in range(33 * 300))
    assert len(counts) == 33
    chi2 = sum((c - 300) ** 2 / 300 for c in counts.values())
    assert chi2 < 70  # 32 degrees of freedom: p < 0.0002 above this


def test_the_summary_is_short_and_structured() -> None:
    """legal_summary: one line per player (its hand) and one for the zones; on 4th down the options."""
    st = new(seed=1)
    summary = st.legal_summary("home")
    assert summary[0] == "QB: " + " ".join(c.code for c in st.hands["home"]["QB"])
    assert summary[-1] == f"zones: {' '.join(PLAYABLE)} (one card each; BM is the X)"
    assert len(summary) == 12 and sum(map(len, summary)) < 300
    out = TOOLS["legal_actions"].handler(st, "home", parse_args(TOOLS["legal_actions"], {}))
    assert out["count"] == len(st.legal_actions("home")) and out["summary"] == summary
    assert out["decision"] == "placement" and len(out["legal"]) == 20 and all(st.is_legal("home", a) for a in out["legal"])
