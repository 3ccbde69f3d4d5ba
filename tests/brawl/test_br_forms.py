"""Action forms (text and JSON, both ways), the tolerant parser, and the tools."""

from __future__ import annotations

import json

import pytest
from br_helpers import G, new, series
from hypothesis import given, settings
from hypothesis import strategies as hs

from gm.core.errors import GameError, InvalidActionError
from gm.core.tools import call_for_action, expected, parse_args, tool_index
from gm.games.brawl.actions import CardPlay, FourthDown, Placement, parse_action
from gm.games.brawl.bots import RandomBot

TOOLS = tool_index(G.tools())


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QB:F3@MM RB:A1-4@SM", "QB:F3@MM RB:A1-4@SM"),
        ("QB:F3@MM RB:A1-4@SM", "QB:F3@MM RB:A1-4@SM"),
        ("qb f3 mm, rb a1-4 sm", "QB:F3@MM RB:A1-4@SM"),
        ("QB plays focus 3 at midfield middle; RB agility 1 to 4 -> scrimmage middle", "QB:F3@MM RB:A1-4@SM"),
        ("QB - F3 - MM\nRB a1 - 4 to MS", "QB:F3@MM RB:A1-4@SM"),
        ("WR1 strength 2 into deep left, TE@LM", "WR1:S2@DL TE@ML"),
        ("OT1: S3 @ left backfield", "OT1:S3@BL"),
        ("CB2 F2 in DR", "CB2:F2@DR"),
        ("RB S2 RB", "RB:S2@BR"),  # the zone slot reads column-first RB as Backfield Right
        ("F3 QB MM", "QB:F3@MM"),  # an entry in any order
        ("QB MM F3", "QB:F3@MM"),
        ("QB to MM with F3, RB in SM with S2", "QB:F3@MM RB:S2@SM"),
        ("QB's F 3 to the middle of the midfield.", "QB:F3@MM"),
        ("WR 1 agility 1 - 4 deep left and OT 5 S 3 backfield right", "WR1:A1-4@DL OT5:S3@BR"),
        ("QB throws F3 to DL; RB runs S2 into the line middle", "QB:F3@DL RB:S2@SM"),
        ("QB F3 at the X", "QB:F3@BM"),  # readable; the rules then refuse it (BR-X)
        ("RB S2 SM QB F3 LD", "QB:F3@DL RB:S2@SM"),
        ("punt", "punt"),
        ("Punt it.", "punt"),
        ("FG", "field goal"),
        ("kick the field goal", "field goal"),
        ("let's go for it!", "go for it"),
        ("GO", "go for it"),
    ],
)
def test_text_forms_parse_tolerantly_and_print_canonically(text: str, canonical: str) -> None:
    """BR-SYNTAX: looser phrasings read as the canonical form, which parses back to itself."""
    a = parse_action(text)
    assert str(a) == canonical
    assert parse_action(str(a)) == a


@pytest.mark.parametrize(
    "text",
    ["", "   ", "QB", "QB F3", "F3@MM", "QB:F3@XX", "punt and go for it", "QB:F3@MM RB", "hello there", "QB F3 MM S2",
     "QB F3 MM DL"],
)
def test_unreadable_text_is_a_syntax_error(text: str) -> None:
    with pytest.raises(InvalidActionError) as exc:
        parse_action(text)
    assert exc.value.rule == "BR-SYNTAX" and exc.value.legal


def test_json_forms_round_trip() -> None:
    st = new(seed=1)
    a = RandomBot(0).choose(st, "home")
    data = a.to_json()
    assert data["type"] == "placement" and len(data["placements"]) == 11
    assert set(data["placements"][0]) == {"player", "card", "zone"}
    assert G.action_from_json(json.loads(json.dumps(data))) == a
    f = FourthDown("go_for_it")
    assert f.to_json() == {"type": "fourth_down", "option": "go_for_it"} and G.action_from_json(f.to_json()) == f
    assert FourthDown("go for it") == f
    with pytest.raises(InvalidActionError):
        G.action_from_json({"type": "placement", "placements": "QB:F3@MM"})
    with pytest.raises(InvalidActionError):
        G.action_from_json({"type": "placement", "placements": [{"player": "QB", "zone": "MM", "extra": 1}]})
    with pytest.raises(InvalidActionError):
        G.action_from_json({"type": "fourth_down", "option": "pass"})


def test_placements_compare_by_content_not_order() -> None:
    a = Placement((CardPlay("QB", "F3", "MM"), CardPlay("RB", None, "SM")))
    b = Placement(({"player": "rb", "zone": "ms"}, ["QB", "f3", "MM"]))
    assert a == b and hash(a) == hash(b) and str(a) == "QB:F3@MM RB@SM"


def test_play_cards_tool_makes_the_placement_and_converts_back() -> None:
    st = new(seed=4)
    a = RandomBot(3).choose(st, "home")
    name, args = call_for_action(G.tools(), a)
    assert name == "play_cards"
    parsed = parse_args(TOOLS[name], json.dumps(args))
    made = TOOLS[name].handler(st, "home", parsed)
    assert made == a
    st.apply("home", made)
    assert expected(st, G.tools()) == [{"seat": "away", "decision": "placement", "tools": ["play_cards"]}]


def test_choose_fourth_down_tool() -> None:
    st = new()
    series(st, *[({"QB": "F2@SM"}, {})] * 3)
    assert expected(st, G.tools()) == [{"seat": "home", "decision": "fourth_down", "tools": ["choose_fourth_down"]}]
    parsed = parse_args(TOOLS["choose_fourth_down"], {"option": "punt"})
    action = TOOLS["choose_fourth_down"].handler(st, "home", parsed)
    assert action == FourthDown("punt") and call_for_action(G.tools(), action) == ("choose_fourth_down", {"option": "punt"})
    with pytest.raises(GameError) as exc:
        parse_args(TOOLS["choose_fourth_down"], {"option": "pass"})
    assert exc.value.rule == "CORE-ARGS"


def test_play_cards_tool_rejects_bad_arguments_with_a_rule_id() -> None:
    st = new()
    spec = TOOLS["play_cards"]
    for raw in ({}, {"placements": []}, {"placements": [{"player": "QB"}]}, {"placements": "QB:F3@MM"}):
        with pytest.raises(GameError) as exc:
            spec.handler(st, "home", parse_args(spec, raw))
        assert exc.value.rule == "CORE-ARGS"
    for bad, rule in (({"zone": "nowhere"}, "BR-GRID"), ({"card": "F2-4"}, "BR-CARDS"), ({"card": "X3"}, "BR-CARDS"),
                      ({"player": "qb!"}, "BR-SYNTAX")):
        parsed = parse_args(spec, {"placements": [{"player": "QB", "card": "F3", "zone": "MM", **bad}]})
        with pytest.raises(InvalidActionError) as exc:
            spec.handler(st, "home", parsed)
        assert exc.value.rule == rule


def test_get_zone_query_shows_what_the_caller_may_see() -> None:
    st = new(seed=2)
    spec = TOOLS["get_zone"]
    out = spec.handler(st, "home", parse_args(spec, {"zone": "dl"}))
    assert out["zone"] == "DL" and out["multiplier"] == 4 and set(out["adjacent"]) == {"DM", "ML"}
    assert set(out["your_cards_here"]) == set(st.roster("home"))
    assert out["your_cards_here"]["WR1"]["effect"] == "strong x2"
    assert "your_cards_here" not in spec.handler(st, None, parse_args(spec, {"zone": "DL"}))
    assert "X" in spec.handler(st, "home", parse_args(spec, {"zone": "BM"}))["note"]
    assert spec.handler(st, "home", parse_args(spec, {"zone": "middle of midfield"}))["zone"] == "MM"
    assert spec.handler(st, "home", parse_args(spec, {"zone": "deep left"}))["zone"] == "DL"


_WORDS = ["QB", "RB", "WR1", "CB2", "FS", "S3", "F2", "A1-4", "A2", "MM", "DL", "BM", "ld", "@", ":", "->", "to",
          "punt", "field goal", "go for it", "strength", "agility 1-4", "focus", "deep", "left", "-", ",", "\n", "9", "x"]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(hs.one_of(hs.text(max_size=40), hs.lists(hs.sampled_from(_WORDS), max_size=12).map(" ".join)))
def test_the_parser_never_raises_anything_but_invalid_action(text: str) -> None:
    """BR-SYNTAX: any text parses to an action whose text form parses back, or is one InvalidActionError."""
    try:
        a = parse_action(text)
    except InvalidActionError as exc:
        assert exc.rule == "BR-SYNTAX"
        return
    assert parse_action(str(a)) == a


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(hs.dictionaries(hs.sampled_from(["type", "placements", "option", "x"]),
                       hs.one_of(hs.none(), hs.text(max_size=8), hs.integers(), hs.sampled_from(["placement", "fourth_down", "punt"]),
                                 hs.lists(hs.dictionaries(hs.sampled_from(["player", "card", "zone", "y"]),
                                                          hs.one_of(hs.none(), hs.integers(), hs.sampled_from(_WORDS)), max_size=4),
                                          max_size=3)),
                       max_size=3))
def test_json_actions_are_built_or_rejected_cleanly(data: dict) -> None:  # type: ignore[type-arg]
    try:
        a = G.action_from_json(data)
    except InvalidActionError:
        return
    assert G.action_from_json(a.to_json()) == a and parse_action(str(a)) == a
