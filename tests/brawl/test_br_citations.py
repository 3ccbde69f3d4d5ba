"""Events cite the rules that decided them (``rule`` plus ``also``), and only those:
what ``gm replay --coverage`` counts as a rule exercised."""

from __future__ import annotations

from br_helpers import deal, new, placement, play, series

from gm.core.events import Event
from gm.games.brawl.engine import BrawlState

#: one player a side, neither strong nor weak anywhere: nothing but the cards decides
SOLO = {"offense": {"QB": "QB"}, "defense": {"MLB": "MLB"}}
#: two a side
DUO = {"offense": {"QB": "QB", "QB2": "QB"}, "defense": {"MLB": "MLB", "MLB2": "MLB"}}


def cited(ev: Event) -> set[str]:
    return {ev.rule, *ev.data.get("also", ())}


def first(events: list[Event], kind: str) -> Event:
    return next(e for e in events if e.kind == kind)


def thrice(off: dict[str, str], de: dict[str, str]) -> list[tuple[dict[str, str], dict[str, str]]]:
    return [(off, de)] * 3


def test_the_first_move_reports_what_the_setup_decided() -> None:
    """BR-R-FIRST, BR-R-DECKS, BR-R-DECKBUILD, BR-R-SHUFFLE, BR-DRAW, BR-TEAMS, BR-R-HANDS, BR-R-FIELD."""
    st = new(seed=4, first_offense="toss")
    events = play(st)
    assert [e.kind for e in events][:4] == ["decks", "toss", "series", "locked"]
    assert cited(first(events, "decks")) == {"BR-R-SHUFFLE", "BR-R-DECKS", "BR-R-DECKBUILD"}
    assert "44 decks" in first(events, "decks").text
    assert cited(first(events, "toss")) == {"BR-R-FIRST"}
    assert cited(first(events, "series")) == {"BR-DRAW", "BR-TEAMS", "BR-R-HANDS", "BR-R-FIELD"}
    assert [e.kind for e in play(st)] == ["locked", "reveal"]  # reported once
    assert "toss" not in [e.kind for e in play(new(first_offense="away"))]


def test_a_reveal_cites_the_position_table_only_when_it_changed_a_card() -> None:
    """BR-POSITION, BR-R-TABLE, BR-STRONG, BR-WEAK on the reveal; BR-REPEAT while plays are left."""
    st = new(**SOLO)
    reveal = first(play(st, {"QB": "F2@DL"}, {"MLB": "F1@SM"}), "reveal")
    assert cited(reveal) == {"BR-REVEAL", "BR-REPEAT"}  # QB and MLB are never strong or weak
    wr = new(offense={"WR1": "WR"}, defense={"MLB": "MLB"})
    assert cited(first(play(wr, {"WR1": "F2@DL"}), "reveal")) == {"BR-REVEAL", "BR-REPEAT", "BR-POSITION", "BR-R-TABLE", "BR-STRONG"}
    assert "BR-WEAK" in cited(first(play(wr, {"WR1": "F2@SM"}), "reveal"))
    third = first(play(wr, {"WR1": "F2@MM"}), "reveal")
    assert "BR-REPEAT" not in cited(third) and "BR-WEAK" not in cited(third)


def test_a_placement_without_card_codes_cites_the_card_ruling() -> None:
    """BR-R-CARD: 'QB@SM' plays the only kind QB holds; the reveal says so."""
    st = new(**SOLO)
    deal(st, "home", {"QB": ["F2", "F2"]})
    st.apply("home", "QB@SM")
    deal(st, "away", {"MLB": ["S1"]})
    reveal = first(st.apply("away", "MLB:S1@SL"), "reveal")
    assert "BR-R-CARD" in cited(reveal) and "QB:F2@SM" in reveal.text


def test_agility_rolls_cite_the_modifier_only_for_a_strong_or_weak_card() -> None:
    """BR-AGILITY-ROLL with BR-R-AGILITY; BR-R-AGILITY-MOD when strong or weak changed a roll."""
    st = new(**SOLO)
    events = series(st, *thrice({"QB": "A1-4@SM"}, {"MLB": "F1@SL"}))
    assert cited(first(events, "agility")) == {"BR-AGILITY-ROLL", "BR-R-AGILITY"}
    wr = new(offense={"WR1": "WR"}, defense={"MLB": "MLB"})
    events = series(wr, *thrice({"WR1": "A1-4@DL"}, {"MLB": "F1@SL"}))
    assert cited(first(events, "agility")) == {"BR-AGILITY-ROLL", "BR-R-AGILITY", "BR-R-AGILITY-MOD"}


def test_won_zones_cite_adjacency_completions_and_chains_as_they_applied() -> None:
    """BR-WIN-ZONE with BR-ADJ; BR-COMPLETION and BR-R-ALONE; BR-R-CHAIN only through a completion."""
    st = new(**DUO)
    events = series(st, *thrice({"QB": "S3@SM", "QB2": "S3@MM"}, {"MLB": "A1@BL", "MLB2": "A1@BR"}))
    assert cited(first(events, "zones")) == {"BR-WIN-ZONE", "BR-ADJ"}
    st = new(**DUO)
    events = series(st, *thrice({"QB": "F3@DL", "QB2": "S3@ML"}, {"MLB": "A1@BL", "MLB2": "A1@BR"}))
    zones = first(events, "zones")
    assert "DL +9 (completion)" in zones.text and "ML +9" in zones.text
    assert cited(zones) == {"BR-WIN-ZONE", "BR-ADJ", "BR-COMPLETION", "BR-R-ALONE", "BR-R-CHAIN"}
    st = new(**DUO)
    events = series(st, *thrice({"QB": "F3@DL", "QB2": "S3@SM"}, {"MLB": "A1@BL", "MLB2": "A1@BR"}))
    assert "BR-R-CHAIN" not in cited(first(events, "zones"))  # SM touches the X


def test_the_yards_event_cites_margins_ties_empty_zones_and_spared_turnovers() -> None:
    """BR-YARDS with BR-MARGIN, BR-R-TIE, BR-R-EMPTY and BR-R-TURNOVER-ZONE where each decided a zone."""
    st = new(**SOLO)
    tie = first(series(st, *thrice({"QB": "S3@SM"}, {"MLB": "S3@SM"})), "yards")
    assert cited(tie) == {"BR-YARDS", "BR-R-TIE"}
    st = new(**SOLO)
    events = series(st, *thrice({"QB": "S4@SM"}, {"MLB": "S3@SL"}))
    assert cited(first(events, "yards")) == {"BR-YARDS", "BR-MARGIN", "BR-R-EMPTY"}
    st = new(**SOLO)  # the defense wins SM on Focus alone against a carry: no interception
    events = series(st, *thrice({"QB": "S1@SM"}, {"MLB": "F2@SM"}))
    assert cited(first(events, "yards")) == {"BR-YARDS", "BR-R-TURNOVER-ZONE"}
    assert "interception" not in [e.kind for e in events]


def test_turnovers_cite_priority_alone_and_the_turnover_zone_then_the_change_of_possession() -> None:
    """BR-INTERCEPTION with BR-R-PRIORITY, BR-R-ALONE, BR-R-TURNOVER-ZONE; BR-R-TURNOVER with BR-R-SEATS."""
    st = new(**SOLO)
    events = series(st, *thrice({"QB": "F1@SM"}, {"MLB": "F2@SM"}))
    assert cited(first(events, "interception")) == {"BR-INTERCEPTION", "BR-R-PRIORITY", "BR-R-ALONE", "BR-R-TURNOVER-ZONE"}
    assert cited(first(events, "possession")) == {"BR-R-TURNOVER", "BR-R-SEATS"}
    st = new(**SOLO)
    events = series(st, *thrice({"QB": "S1@SM"}, {"MLB": "S2@SM"}))
    assert cited(first(events, "fumble")) == {"BR-FUMBLE", "BR-R-PRIORITY", "BR-R-ALONE", "BR-R-TURNOVER-ZONE"}


def test_a_sack_cites_the_backfield_ruling_and_the_priority() -> None:
    """BR-SACK with BR-R-SACK and BR-R-PRIORITY (and BR-R-TURNOVER-ZONE when it spared the ball)."""
    st = new(**DUO)
    events = series(st, *thrice({"QB": "A0@BL", "QB2": "A0@BR"}, {"MLB": "A1@BL", "MLB2": "A1@BR"}))
    assert cited(first(events, "sack")) == {"BR-SACK", "BR-R-SACK", "BR-R-PRIORITY"}
    st = new(**DUO)
    events = series(st, *thrice({"QB": "A0@BL", "QB2": "A0@BR"}, {"MLB": "S1@BL", "MLB2": "S1@BR"}))
    assert cited(first(events, "sack")) == {"BR-SACK", "BR-R-SACK", "BR-R-PRIORITY", "BR-R-TURNOVER-ZONE"}


def test_fourth_down_going_for_it_and_kicks_cite_their_rulings() -> None:
    """BR-FOURTH with BR-R-SPOT and BR-R-FOURTH-WHO; BR-GO with BR-R-DOWN; BR-R-GO-RESCORE; BR-R-SCORE."""
    st = new(**SOLO)
    events = series(st, *thrice({"QB": "S1@SM"}, {"MLB": "A0@SL"}))
    assert cited(first(events, "fourth_down")) == {"BR-FOURTH", "BR-R-SPOT", "BR-R-FOURTH-WHO"}
    assert cited(first(st.apply("home", "go for it"), "go_for_it")) == {"BR-GO", "BR-R-DOWN", "BR-R-HANDS"}
    events = play(st, {"QB": "S1@SM"}, {"MLB": "A0@SL"})
    assert "BR-R-GO-RESCORE" in cited(first(events, "yards"))
    assert cited(first(events, "downs")) == {"BR-R-GO-FAIL"}
    assert cited(first(events, "possession")) == {"BR-R-GO-FAIL", "BR-R-SEATS"}

    def kick(odds: int) -> Event:
        st = new(field_goal_odds={60: odds}, **SOLO)
        st.los = 80
        series(st)
        return first(st.apply("home", "field goal"), "field_goal")

    assert cited(kick(100)) == {"BR-R-FIELD-GOAL", "BR-FIELD-GOAL", "BR-R-SCORE"}
    assert cited(kick(0)) == {"BR-R-FIELD-GOAL", "BR-FIELD-GOAL"}


def test_touchdowns_cite_the_score_and_the_field() -> None:
    """BR-TD with BR-R-SCORE and BR-R-FIELD (the end zone is 100 yards from the own goal line)."""
    st = new(**SOLO)
    st.los = 95
    events = series(st, *thrice({"QB": "S2@SM"}, {"MLB": "A0@SL"}))
    assert cited(first(events, "touchdown")) == {"BR-TD", "BR-R-SCORE", "BR-R-FIELD"}


def test_a_reshuffle_cites_the_deckbuilding_ruling() -> None:
    """BR-R-SHUFFLE with BR-R-DECKBUILD: the played cards come back, none gained or lost."""
    st: BrawlState = new(**SOLO, rounds=5)
    events: list[Event] = []
    while "reshuffle" not in [e.kind for e in events]:
        events = series(st)
        if st.phase == "fourth_down":
            events += st.apply(st.offense, "punt")
    assert cited(first(events, "reshuffle")) == {"BR-R-SHUFFLE", "BR-R-DECKBUILD"}
    assert placement(st, st.offense, {})  # the game goes on
