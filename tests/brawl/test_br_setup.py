"""Setup: teams and rosters, the grid, the cards, the position table, the decks, shuffling
and drawing, and what each side may see."""

from __future__ import annotations

from collections import Counter

import pytest
from br_helpers import new, series

from gm.games.brawl.bots import RandomBot
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.rules import ADJACENT, PLAYABLE, ZONES, parse_card

#: the document's position table, exactly as written (columns B | S | M | D)
DOCUMENT_TABLE = """\
QB | - | - | - | -
RB | - | S | - | W
WR | W | W | S | S
SLOT | W | - | - | S
TE | - | - | S | W
OT | S | - | - | W
MLB | - | - | - | -
DT | - | S | - | W
CB | W | W | S | S
S | W | - | - | S
OLB | - | - | S | W
DE | S | - | - | W"""


def test_two_teams_field_eleven_players_a_side_each_with_a_deck() -> None:
    """BR-TEAMS and BR-R-SEATS: home and away; 11 on offense and 11 on defense, every player a deck."""
    st = new()
    assert st.seats == ("home", "away")
    assert len(st.roster("home")) == 11 and len(st.roster("away")) == 11
    assert st.unit("home") == "offense" and st.unit("away") == "defense"
    for seat in ("home", "away"):
        assert len(st.piles[seat]) == 22  # both units of every team keep their decks
        assert all(len(st.piles[seat][p]) + len(st.hands[seat].get(p, [])) == 8 for p in st.piles[seat])


def test_the_roster_ruling() -> None:
    """BR-R-ROSTER: QB RB WR1 WR2 SLOT TE OT1-5 against MLB DT1-2 DE1-2 OLB1-2 CB1-2 FS SS."""
    r = new().rules
    assert list(r.offense) == ["QB", "RB", "WR1", "WR2", "SLOT", "TE", "OT1", "OT2", "OT3", "OT4", "OT5"]
    assert Counter(r.offense.values()) == {"QB": 1, "RB": 1, "WR": 2, "SLOT": 1, "TE": 1, "OT": 5}
    assert list(r.defense) == ["MLB", "DT1", "DT2", "DE1", "DE2", "OLB1", "OLB2", "CB1", "CB2", "FS", "SS"]
    assert r.defense["FS"] == r.defense["SS"] == "S"


def test_the_grid_is_four_regions_by_three_columns_with_the_x() -> None:
    """BR-GRID and BR-X: 12 zones, 11 playable (BM is the X); multipliers 4, 2, 1, 0."""
    assert len(ZONES) == 12 and len(PLAYABLE) == 11 and "BM" not in PLAYABLE
    assert new().rules.multipliers == {"D": 4, "M": 2, "S": 1, "B": 0}
    assert set(ADJACENT["BM"]) == {"BL", "BR", "SM"}
    assert set(ADJACENT["MM"]) == {"DM", "SM", "ML", "MR"}


def test_three_kinds_of_card() -> None:
    """BR-CARDS: Strength and Focus are flat, Agility is a range rolled later."""
    s3, f2, a14 = parse_card("S3"), parse_card("f2"), parse_card("A1-4")
    assert (s3.kind, s3.lo, s3.hi, s3.rolled) == ("S", 3, 3, False)
    assert (f2.kind, f2.code, f2.rolled) == ("F", "F2", False)
    assert (a14.kind, a14.lo, a14.hi, a14.rolled, a14.code) == ("A", 1, 4, True, "A1-4")
    assert parse_card("A2").rolled is False
    for bad in ("S3-4", "X1", "A4-1", ""):
        with pytest.raises(ValueError):
            parse_card(bad)


def test_the_position_table_is_the_documents() -> None:
    """BR-R-TABLE: read by column B, S, M, D; S is the safety; the OLB row ends in W."""
    r = new().rules
    for line in DOCUMENT_TABLE.splitlines():
        pos, *cells = [c.strip() for c in line.split("|")]
        assert [r.positions[pos].effects[reg] for reg in "BSMD"] == cells, pos
    assert r.positions["OLB"].effects["D"] == "W"
    assert r.positions["S"].side == "defense" and r.positions["SLOT"].side == "offense"


def test_the_default_decks() -> None:
    """BR-R-DECKS: eight cards per position, as listed in rules_md/brawl.md."""
    r = new().rules
    assert all(len(p.deck) == 8 for p in r.positions.values())
    assert r.positions["QB"].deck == ["F3", "F3", "F2", "F2", "F4", "S1", "A1-3", "A2-4"]
    assert r.positions["DE"].deck == ["S3", "S3", "S2", "A1-4", "S2", "S4", "A0-3", "F1"]
    kinds = {pos: Counter(parse_card(c).kind for c in p.deck) for pos, p in r.positions.items()}
    assert kinds["OT"]["S"] > kinds["OT"]["F"] and kinds["WR"]["A"] > kinds["WR"]["S"]


def _all_cards(st: BrawlState, seat: str, player: str) -> Counter[str]:
    held = st.hands[seat].get(player, [])
    played = [p.card for z in ZONES for u in ("offense", "defense") for p in st.zones[z][u]
              if p.player == player and (u == "offense") == (st.offense == seat)]
    return Counter(c.code for c in [*st.piles[seat][player], *st.discards[seat][player], *held, *played])


def test_decks_never_change_during_play() -> None:
    """BR-R-DECKBUILD: through a whole game every player's cards stay its deck's (no card gained or lost)."""
    st = new(seed=7)
    bots = {"home": RandomBot(1), "away": RandomBot(2)}
    decks = {pos: Counter(spec.deck) for pos, spec in st.rules.positions.items()}
    steps = 0
    while not st.is_terminal:
        for seat in st.to_act():
            st.apply(seat, bots[seat].choose(st, seat))
        steps += 1
        if steps % 5 == 0 and not st.is_terminal:
            for seat in ("home", "away"):
                for player, pos in st.positions.items():
                    assert _all_cards(st, seat, player) == decks[pos], (seat, player)


def test_decks_are_shuffled_by_the_seed_and_reshuffled_when_empty() -> None:
    """BR-R-SHUFFLE: the seed orders the decks; an empty draw pile takes back the discards."""
    a, b, c = new(seed=1), new(seed=1), new(seed=2)
    assert a.piles == b.piles and a.piles != c.piles
    st = new(seed=3)
    st.piles["home"]["QB"] = []
    st.discards["home"]["QB"] = [parse_card(x) for x in ("F3", "F2", "S1", "F4")]
    # 12 yards: a first down keeps home on offense, and the next series draws from the empty pile
    events = series(st, *[({"QB": "F4@SM"}, {})] * 3)
    assert st.offense == "home" and st.round == 2
    shuffle = [e for e in events if e.kind == "reshuffle"]
    assert shuffle and shuffle[0].rule == "BR-R-SHUFFLE" and "home QB" in shuffle[0].text
    assert len(st.hands["home"]["QB"]) == 3 and len(st.piles["home"]["QB"]) + len(st.discards["home"]["QB"]) == 1 + 3


def test_each_side_sees_only_its_own_hand() -> None:
    """BR-R-HANDS: a seat's view and board show its hand, the other's only as a count."""
    st = new(seed=2)
    home, away, spectator = st.view("home"), st.view("away"), st.view(None)
    assert set(home["hand"]) == set(st.roster("home")) and set(away["hand"]) == set(st.roster("away"))
    assert spectator["hand"] is None and "hands" not in home and "piles" not in home
    assert home["hand_sizes"] == {"home": 33, "away": 33}
    board = st.game.render(st, "home", full=True)
    assert "your hand (home offense)" in board and "away holds 33 card(s)" in board
    for p, cards in st.hands["away"].items():
        assert f"{p} {' '.join(c.code for c in cards)}" not in board
    assert "your hand" not in st.game.render(st, None, full=True)
    assert set(st.snapshot()["hands"]) == {"home", "away"}  # the engine's own snapshot has everything
