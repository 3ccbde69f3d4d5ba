"""A play: secret simultaneous placements, one card from each player into its own zone,
the reveal, three plays a series, Agility rolls, position effects, and the rejections."""

from __future__ import annotations

import json
import random

import pytest
from br_helpers import deal, new, placement, play, series

from gm.core.errors import IllegalActionError, InvalidActionError
from gm.games.brawl.bots import RandomBot
from gm.games.brawl.rules import parse_card


def _frozen(st) -> str:  # type: ignore[no-untyped-def]
    return json.dumps([st.to_json(), st.snapshot(), st.rng.getstate()], sort_keys=True, default=str)


def _reject(st, seat: str, text: str, rule: str, cls: type = IllegalActionError) -> Exception:  # type: ignore[no-untyped-def]
    before = _frozen(st)
    with pytest.raises(cls) as exc:
        st.apply(seat, text)
    assert exc.value.rule == rule, exc.value.message
    assert _frozen(st) == before
    return exc.value


def test_both_sides_lock_in_secret_and_the_first_waits() -> None:
    """BR-SECRET: the first placement is locked, unseen by the other side, until both lock."""
    st = new()
    text = placement(st, "home", {})
    deal(st, "home", {p: ["A0"] for p in st.roster("home")})
    events = st.apply("home", text)
    # the first move's result also reports what the setup decided: the decks and the first draw
    assert [e.rule for e in events] == ["BR-R-SHUFFLE", "BR-DRAW", "BR-SECRET"]
    deal(st, "away", {p: ["A0"] for p in st.roster("away")})
    assert [e.rule for e in st.apply("away", placement(st, "away", {}))][:1] == ["BR-REVEAL"]
    st = new()
    deal(st, "home", {p: ["A0"] for p in st.roster("home")})
    assert [e.rule for e in st.apply("home", text)][-1] == "BR-SECRET"
    assert st.to_act() == ("away",)
    assert st.view("away")["pending"] == {"home": "locked"}
    assert st.view("home")["pending"] == {"home": str(st.parse_action(text))}
    assert "A0@" not in st.game.render(st, "away", full=True).split("your hand")[0]
    assert st.zones["DL"]["offense"] == []  # nothing revealed yet


def test_every_player_plays_exactly_one_card() -> None:
    """BR-PLACE: missing and doubled players are rejected; BR-R-ROSTER: unknown and wrong-side players."""
    st = new()
    full = placement(st, "home", {})
    deal(st, "home", {p: ["A0"] for p in st.roster("home")})
    missing = " ".join(e for e in full.split() if not e.startswith("QB:"))
    err = _reject(st, "home", missing, "BR-PLACE")
    assert "missing: QB" in err.reason and any(line.startswith("QB:") for line in err.legal)
    _reject(st, "home", full.replace("QB:", "MLB:"), "BR-R-ROSTER")  # a defender on offense
    _reject(st, "home", full.replace("RB:", "QB:"), "BR-PLACE")  # QB twice, no RB
    _reject(st, "home", full + " XX:A0@BM", "BR-R-ROSTER")


def test_a_player_plays_a_card_it_holds() -> None:
    """BR-HAND: QB holding F3 S1 cannot play F4."""
    st = new()
    deal(st, "home", {"QB": ["F3", "S1"]})
    text = placement(st, "home", {"QB": "F4@MM"})
    deal(st, "home", {p: ["A0"] for p in st.roster("home") if p != "QB"})
    err = _reject(st, "home", text, "BR-HAND")
    assert "QB does not hold F4 (holds F3 S1)" in err.reason


def test_one_card_per_zone() -> None:
    """BR-ZONE-ONE: two players into MM is rejected."""
    st = new()
    text = placement(st, "home", {"QB": "A0@MM"})
    deal(st, "home", {p: ["A0"] for p in st.roster("home")})
    dl = next(e for e in text.split() if e.endswith("@DL"))
    _reject(st, "home", text.replace(dl, dl.replace("@DL", "@MM")), "BR-ZONE-ONE")


def test_no_cards_on_the_x() -> None:
    """BR-X: BM is the X; a card there is rejected even if another zone is left open."""
    st = new()
    text = placement(st, "home", {})
    deal(st, "home", {p: ["A0"] for p in st.roster("home")})
    dl = next(e for e in text.split() if e.endswith("@DL"))
    err = _reject(st, "home", text.replace(dl, dl.replace("@DL", "@BM")), "BR-X")
    assert "X" in err.reason


def test_both_placements_are_revealed_together() -> None:
    """BR-REVEAL: after the second lock every zone shows both sides' cards and the event names them."""
    st = new()
    events = play(st, {"QB": "F3@MM"}, {"MLB": "S2@MM"})
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.rule == "BR-REVEAL" and "QB:F3@MM" in reveal.text and "MLB:S2@MM" in reveal.text
    cell = st.view("away")["zones"]["MM"]
    assert [c["card"] for c in cell["offense"]] == ["F3"] and [c["card"] for c in cell["defense"]] == ["S2"]
    assert st.pending == {} and st.play_no == 2


def test_three_plays_use_all_three_cards_then_the_series_is_scored() -> None:
    """BR-DRAW and BR-REPEAT: 3 cards drawn per player, one played per play, scored after the 3rd."""
    st = new(seed=3)
    assert all(len(h) == 3 for seat in ("home", "away") for h in st.hands[seat].values())
    bots = {s: RandomBot(i) for i, s in enumerate(("home", "away"))}
    for n in (1, 2, 3):
        assert st.play_no == n and st.series_score is None
        for seat in st.to_act():
            st.apply(seat, bots[seat].choose(st, seat))
        assert all(len(h) == 3 - n for h in st.hands["home"].values()) or n == 3
    scored = st.history[0]["score"] if st.history else st.series_score  # a new series, or the 4th-down choice
    assert scored is not None and (st.history or st.phase == "fourth_down")


def test_agility_is_rolled_only_at_the_end_of_the_series() -> None:
    """BR-AGILITY-ROLL: an Agility card's value is unknown (a range) until the 3rd play is revealed."""
    st = new(seed=5)
    play(st, {"QB": "A1-4@MM"}, {})
    card = st.zones["MM"]["offense"][0]
    assert card.value is None and st.total_range("MM", "offense") == (1, 4)
    assert "1-4 v 0" in st.game.render(st, "home")
    play(st)
    assert st.zones["MM"]["offense"][0].value is None
    events = play(st)
    roll = next(e for e in events if e.kind == "agility")
    assert roll.rule == "BR-AGILITY-ROLL" and "QB A1-4@MM rolls" in roll.text
    assert 1 <= st.zones["MM"]["offense"][0].value <= 4


def test_an_agility_range_rolls_every_value_evenly() -> None:
    """BR-R-AGILITY: A1-4 rolls 1, 2, 3 or 4, each about a quarter of the time (seeded)."""
    counts = {v: 0 for v in range(1, 5)}
    for seed in range(400):
        st = new(seed=seed)
        series(st, ({"QB": "A1-4@MM"}, {}))
        counts[st.zones["MM"]["offense"][0].roll] += 1
    assert set(counts) == {1, 2, 3, 4} and min(counts.values()) > 60


def test_strong_and_weak_apply_to_the_rolled_agility() -> None:
    """BR-R-AGILITY-MOD: a WR's A1-4 in Downfield is worth twice the roll, in Backfield half (down)."""
    st = new(seed=11)
    series(st, ({"WR1": "A1-4@DL", "WR2": "A1-4@BL"}, {}))
    strong = st.zones["DL"]["offense"][0]
    weak = next(p for p in st.zones["BL"]["offense"] if p.player == "WR2")
    assert strong.value == 2 * strong.roll and weak.value == weak.roll // 2


@pytest.mark.parametrize(
    ("player", "card", "zone", "value"),
    [("WR1", "F3", "DL", 6), ("WR1", "F3", "ML", 6), ("WR1", "F3", "SL", 1), ("WR1", "F3", "BL", 1),
     ("QB", "F3", "DL", 3), ("RB", "S3", "SM", 6), ("RB", "S3", "DM", 1), ("TE", "S3", "MM", 6),
     ("OT1", "S3", "BR", 6), ("OT1", "S3", "DR", 1), ("SLOT", "F3", "DM", 6), ("SLOT", "F3", "BL", 1)],
)
def test_position_effects_double_or_halve_card_values(player: str, card: str, zone: str, value: int) -> None:
    """BR-POSITION, BR-STRONG (x2) and BR-WEAK (/2, rounded down) as the table says."""
    st = new()
    play(st, {player: f"{card}@{zone}"}, {})
    assert st.zones[zone]["offense"][0].value == value
    eff = st.zones[zone]["offense"][0].effect
    assert eff == ("S" if value > 3 else "W" if value < 3 else "-")


def test_the_defense_table_mirrors_the_offense_and_applies_to_defenders() -> None:
    """BR-POSITION for the defense: CB strong Downfield, DE strong in the Backfield, DT weak Downfield."""
    st = new()
    play(st, {}, {"CB1": "F3@DL", "DE1": "S2@BL", "DT1": "S3@DM", "MLB": "F2@MM"})
    values = {z: st.zones[z]["defense"][0].value for z in ("DL", "BL", "DM", "MM")}
    assert values == {"DL": 6, "BL": 4, "DM": 1, "MM": 2}


def test_a_card_may_be_left_out_only_when_the_player_holds_one_kind() -> None:
    """BR-R-CARD: equal codes are interchangeable; 'QB@MM' works with S2 S2, not with S2 F1."""
    st = new()
    text = placement(st, "home", {"QB": "S2@MM"}).replace("QB:S2@MM", "QB@MM")
    deal(st, "home", {p: ["A0"] for p in st.roster("home")})
    deal(st, "home", {"QB": ["S2", "F1"]})
    err = _reject(st, "home", text, "BR-R-CARD")
    assert "name the card" in err.reason
    deal(st, "home", {"QB": ["S2", "S2"]})
    st.apply("home", text)
    assert "QB@MM" in st.view("home")["pending"]["home"]
    play_def = placement(st, "away", {})
    deal(st, "away", {p: ["A0"] for p in st.roster("away")})
    st.apply("away", play_def)
    assert [c.code for c in st.hands["home"]["QB"]] == ["S2"]
    assert st.zones["MM"]["offense"][0].card == parse_card("S2")


def test_malformed_placements_are_syntax_errors() -> None:
    """BR-SYNTAX: text that is not a placement or a 4th-down choice, quoting the input."""
    st = new()
    for text in ("", "hello", "QB F3", "QB:F3@ZZ", "QB:X9@MM", "QB:S3-4@MM"):
        err = _reject(st, "home", text, "BR-SYNTAX", InvalidActionError)
        assert err.input == text


def test_downs_are_the_plays_of_the_series() -> None:
    """BR-R-DOWN: the status reads 1st, 2nd, 3rd down as the plays go by."""
    st = new()
    assert "1st & 10 at own 25 - play 1 of 3" in st.game.status(st)
    play(st)
    assert "2nd & 10" in st.game.status(st)
    play(st)
    assert "3rd & 10" in st.game.status(st) and st.view(None)["down"] == 3


def test_random_placements_are_always_legal() -> None:
    """BR-PLACE: the random bot's placements pass the exact check on real hands."""
    rng = random.Random(1)
    for seed in range(20):
        st = new(seed=seed)
        bot = RandomBot(rng.randrange(1000))
        for seat in ("home", "away"):
            a = bot.choose(st, seat)
            assert st.is_legal(seat, a)
