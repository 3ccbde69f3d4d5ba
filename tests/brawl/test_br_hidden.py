"""Hidden information: locked placements and hands stay secret from the other side - in
views, boards, status lines, tool results - and the bots never read them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from br_helpers import G, new

from gm.core.tools import parse_args, tool_index
from gm.games.brawl.bots import BOTS, RandomBot
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.rules import parse_card


class Tripwire(dict):  # type: ignore[type-arg]
    """A dict that fails the test if anything reads the values of keys other than ``allowed``."""

    def __init__(self, data: dict[str, Any], allowed: str) -> None:
        super().__init__(data)
        self.allowed = allowed

    def _guard(self, key: object) -> None:
        if key != self.allowed:
            raise AssertionError(f"read the secret of {key!r}")

    def __getitem__(self, key: str) -> Any:
        self._guard(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._guard(key)
        return super().get(key, default)

    def values(self) -> Any:
        raise AssertionError("read every secret")

    def items(self) -> Any:
        raise AssertionError("read every secret")


def _locked(seed: int, home_bot_seed: int) -> BrawlState:
    st = new(seed=seed)
    st.apply("home", RandomBot(home_bot_seed).choose(st, "home"))
    return st


def test_the_other_sides_locked_placement_is_only_locked() -> None:
    """BR-SECRET: views, boards, status and tools show the other side's placement as 'locked'."""
    st = _locked(1, 5)
    secret = st.snapshot()["pending"]["home"]
    assert st.view("away")["pending"] == {"home": "locked"} and st.view(None)["pending"] == {"home": "locked"}
    assert st.view("home")["pending"] == {"home": secret}
    tools = tool_index(G.tools())
    for seat in ("away", None):
        texts = [
            G.render(st, seat, full=True), G.render(st, seat), G.status(st, seat),
            json.dumps(st.view(seat)),
            json.dumps(tools["get_status"].handler(st, seat, parse_args(tools["get_status"], {}))),
            json.dumps(tools["get_board"].handler(st, seat, parse_args(tools["get_board"], {"full": True}))),
            json.dumps(tools["get_zone"].handler(st, seat, parse_args(tools["get_zone"], {"zone": "MM"}))),
        ]
        for text in texts:
            assert secret not in text
            for entry in secret.split():
                assert entry not in text, (seat, entry)
    assert "locked: home" in G.status(st, "away") and "home holds 33 card(s) - locked in" in G.render(st, "away")


def test_hands_are_secret_from_the_other_side() -> None:
    """BR-R-HANDS: the other side's hand shows only as a count, in every form."""
    st = new(seed=6)
    home_view = json.dumps(st.view("home"))
    assert st.view("home")["hand"].keys() == set(st.roster("home"))
    assert st.view("home")["hand_sizes"]["away"] == 33
    for player in st.roster("away"):
        assert f'"{player}": [' not in home_view  # no defender's hand in home's view


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_never_read_the_other_sides_pending_placement_or_hand(name: str) -> None:
    """A bot's choice is the same whatever the other side locked or holds, and it never reads them."""
    choices = []
    for home_seed in (1, 2, 3):
        st = _locked(4, home_seed)
        st.hands["home"] = {p: [parse_card("F1")] * 3 for p in st.hands["home"]} if home_seed == 3 else st.hands["home"]
        choices.append(str(G.make_bot(name, seed=9).choose(st, "away")))
    fresh = new(seed=4)
    choices.append(str(G.make_bot(name, seed=9).choose(fresh, "away")))
    assert len(set(choices)) == 1
    st = _locked(4, 1)
    st.pending = Tripwire(st.pending, allowed="away")  # type: ignore[assignment]
    st.hands = Tripwire(st.hands, allowed="away")  # type: ignore[assignment]
    assert st.is_legal("away", G.make_bot(name, seed=9).choose(st, "away"))


def _what_home_sees(st: BrawlState) -> list[str]:
    tools = tool_index(G.tools())
    out = [G.render(st, "home", full=True), G.render(st, "home"), G.status(st, "home"), json.dumps(st.view("home")),
           json.dumps(st.view(None)), G.render(st, None, full=True), json.dumps(st.legal_summary("home"))]
    for name, args in [("get_status", {}), ("get_board", {"full": True}), ("legal_actions", {}),
                       *(("get_zone", {"zone": z}) for z in ("DL", "MM", "SR", "BR"))]:
        out.append(json.dumps(tools[name].handler(st, "home", parse_args(tools[name], args)), default=str))
    out += [str(G.make_bot(name, seed=4).choose(st, "home")) for name in sorted(BOTS) if "home" in st.to_act()]
    return out


@pytest.mark.parametrize("seed", [2, 7])
def test_states_that_differ_only_in_the_other_sides_hand_and_pile_look_the_same(seed: int) -> None:
    """BR-R-HANDS: swap cards between away's hands and draw piles (and shuffle its piles): everything home and
    a spectator see - views, boards, status, tool results, help, its bots' choices, the events of its moves -
    is identical, before and after away locks a placement, until the reveal."""
    a, b = new(seed=seed), new(seed=seed)
    for p, hand in b.hands["away"].items():
        pile = b.piles["away"][p]
        hand[0], pile[0] = pile[0], hand[0]
        pile.reverse()
    assert a.hands["away"] != b.hands["away"] and a.hands["home"] == b.hands["home"]
    assert _what_home_sees(a) == _what_home_sees(b)
    home = RandomBot(3).choose(a, "home")
    assert [e.text for e in a.apply("home", home)] == [e.text for e in b.apply("home", home)]
    assert _what_home_sees(a) == _what_home_sees(b)
    a.apply("away", RandomBot(5).choose(a, "away"))  # the other side's placements differ too
    b.apply("away", RandomBot(6).choose(b, "away"))
    assert a.view("home")["zones"] != b.view("home")["zones"]  # revealed: now public
    assert a.view("home")["hand"] == b.view("home")["hand"] and a.view("home")["hand_sizes"] == b.view("home")["hand_sizes"]


def test_a_locked_placement_and_hand_of_the_other_side_change_nothing_home_sees() -> None:
    """BR-SECRET: away locks first, with different hands and different placements in two games: home's
    views, boards, tool results and bots' choices are the same, and so are the events of home's move up to
    the reveal."""
    a, b = new(seed=4), new(seed=4)
    b.hands["away"] = {p: list(reversed(b.piles["away"][p][:3])) for p in b.hands["away"]}
    a.apply("away", RandomBot(1).choose(a, "away"))
    b.apply("away", RandomBot(2).choose(b, "away"))
    assert a.snapshot()["pending"] != b.snapshot()["pending"]
    assert _what_home_sees(a) == _what_home_sees(b)
