"""Text and JSON forms, tolerant parsing, tools and the ruleset file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cf_helpers import G, reaction, start

from gm.core import GameError, InvalidActionError, RulesetError
from gm.core.tools import call_for_action, parse_args, tool_index
from gm.games.chess_football.actions import (
    Ability,
    BallChoice,
    CaptainPick,
    CoinCall,
    Done,
    FourthDown,
    Move,
    Pass,
    Plan,
    PlayAction,
)
from gm.games.chess_football.bots import RandomBot

SAMPLES = [
    CaptainPick("deep_threat", "safety"),
    CoinCall("tails"),
    FourthDown("punt"),
    FourthDown("go"),
    Move("FA1", "H20", "NW"),
    Move("FA1", "H20", "C", rush=True),
    Move("DT", "K19", "SE", route=True),
    Ability("HV1", "push", "HV3"),
    Ability("HV1", "chop_block", "HV3"),
    Ability("HV1", "chip_block", "HV2"),
    Ability("HV1", "retreat", to="G10", position="SW"),
    Ability("SF", "react"),
    Ability("LM", "anchor", "HV1"),
    Pass("FA2", "QB"),
    Pass("FA2"),
    PlayAction("FA1", "FA1"),
    PlayAction("ST1"),
    BallChoice("QB"),
    Done(),
    Plan(()),
    Plan((Move("LB", "H14", "C"), Ability("HV1", "push", "HV3"), Pass("FA1", "QB"), PlayAction("ST1"))),
]


@pytest.mark.rules("CF-SYNTAX", "CF-PLAN")
@pytest.mark.parametrize("action", SAMPLES, ids=str)
def test_text_and_json_forms_round_trip(action: object) -> None:
    assert G.parse_action(str(action)) == action
    assert G.action_from_json(action.to_json()) == action  # type: ignore[attr-defined]


NATURAL = {
    "move FA1 to h20 northwest": Move("FA1", "H20", "NW"),
    "fa1 -> H20": Move("FA1", "H20", "C"),
    "FA1 H20 centre": Move("FA1", "H20", "C"),
    "speed rush FA1 to H20": Move("FA1", "H20", "C", rush=True),
    "DT route running to K19 se": Move("DT", "K19", "SE", route=True),
    "deep threat route to K19 south east": Move("DT", "K19", "SE", route=True),
    "HV1 chop block HV3": Ability("HV1", "chop_block", "HV3"),
    "hv1 chip-block hv2": Ability("HV1", "chip_block", "HV2"),
    "HV1 retreats to g10": Ability("HV1", "retreat", to="G10", position="C"),
    "safety react": Ability("SF", "react"),
    "the Nickelback jams": Ability("NB", "jam"),
    "HV1 pushes HV3": Ability("HV1", "push", "HV3"),
    "throw to FA2": Pass("FA2"),
    "QB passes to FA2": Pass("FA2", "QB"),
    "QB throws the ball to FA2": Pass("FA2", "QB"),
    "end turn": Done(),
    "end my turn": Done(),
    "Done.": Done(),
    "go for it": FourthDown("go"),
    "Punt": FourthDown("punt"),
    "captains deep threat, safety": CaptainPick("deep_threat", "safety"),
    "captain lead blocker and rusher": CaptainPick("lead_blocker", "rusher"),
    "captains DT SF": CaptainPick("deep_threat", "safety"),
    "play action with FA1, ball to FA1": PlayAction("FA1", "FA1"),
    "QB play action ST1": PlayAction("ST1"),
    "hand off to FA1": BallChoice("FA1"),
    "give the ball to ST1": BallChoice("ST1"),
    "plan: 1. LB to H14 C 2. HV1 push HV3": Plan((Move("LB", "H14", "C"), Ability("HV1", "push", "HV3"))),
    "plan:\nHV1 push HV3\nQB pass to FA1": Plan((Ability("HV1", "push", "HV3"), Pass("FA1", "QB"))),
    "Plan: hold": Plan(()),
    "heads": CoinCall("heads"),
    "I call heads": CoinCall("heads"),
    "tails please": CoinCall("tails"),
    "let's go for it": FourthDown("go"),
    "we punt the ball": FourthDown("punt"),
    "I'm done": Done(),
    "that's it": Done(),
    "deep threat and safety": CaptainPick("deep_threat", "safety"),
    "safety and deep threat": CaptainPick("deep_threat", "safety"),  # named defense first
    "nickel and lineman": CaptainPick("lineman", "nickelback"),
    "captains: lineman and nickel": CaptainPick("lineman", "nickelback"),
    "fast 1 to H-20 nw": Move("FA1", "H20", "NW"),
    "move the heavy #2 up to I13": Move("HV2", "I13", "C"),
    "FA1 speed rushes to C16": Move("FA1", "C16", "C", rush=True),
    "QB throws it to FA2": Pass("FA2", "QB"),
    "play action with ST1, ST1 keeps the ball": PlayAction("ST1", "ST1"),
    "play action ST1 hand off": PlayAction("ST1", "ST1"),
    "play action ST1 fake": PlayAction("ST1"),
    "play action ball QB with FA1": PlayAction("FA1", "QB"),
    "FA1 has the ball": BallChoice("FA1"),
    "the QB keeps it": BallChoice("QB"),
    "hold": Plan(()),
    "everyone holds": Plan(()),
    "no moves": Plan(()),
}


@pytest.mark.rules("CF-SYNTAX")
@pytest.mark.parametrize("text", [t for t, a in NATURAL.items() if a is not None])
def test_natural_phrasings(text: str) -> None:
    assert G.parse_action(text) == NATURAL[text]


@pytest.mark.rules("CF-SYNTAX")
@pytest.mark.parametrize("text", ["", "   ", "dance", "FA1 to", "FA1 to H20 ZZ", "captains safety", "play action",
                                  "HV1 push", "SF react HV1", "plan: FA1 to H20 C; heads", "QB pass", "FA1 rush push HV3"])
def test_unreadable_actions_are_rejected_with_the_forms(text: str) -> None:
    with pytest.raises(InvalidActionError) as info:
        G.parse_action(text)
    assert info.value.rule == "CF-SYNTAX" and info.value.legal


@pytest.mark.rules("CF-SYNTAX", "CF-SNAP", "CF-PLAN")
def test_the_state_reads_text_in_context() -> None:
    """At the snap a lone piece action, or several joined by commas or 'and', is the snap plan;
    in a reaction turn 'hold' means done.  The game's own parser stays context-free."""
    s = start()
    assert s.parse_action("FA1 to C15") == Plan((Move("FA1", "C15", "C"),))
    assert s.parse_action("HV1 push HV3, FA1 to C15 and then QB pass to FA1") == Plan(
        (Ability("HV1", "push", "HV3"), Move("FA1", "C15", "C"), Pass("FA1", "QB")))
    assert s.parse_action("hold") == Plan(()) and s.parse_action("heads") == CoinCall("heads")
    with pytest.raises(InvalidActionError):
        s.parse_action("FA1 to C15 and dance")
    assert G.parse_action("FA1 to C15") == Move("FA1", "C15", "C")
    s.apply("home", "FA1 to D14")  # a one-row plan
    assert s.pending["home"] == Plan((Move("FA1", "D14", "C"),))
    t = reaction(start())
    assert t.parse_action("FA1 to C15") == Move("FA1", "C15", "C")
    assert t.parse_action("hold") == Done()
    with pytest.raises(InvalidActionError) as info:
        t.parse_action("FA1 to C15 and HV1 push HV3")
    assert info.value.reason == "one action at a time in a reaction turn: 'FA1 to C15 C', then 'HV1 push HV3'"


@pytest.mark.rules("CF-SYNTAX")
def test_rejections_name_the_rule_quote_the_input_and_list_alternatives() -> None:
    s = reaction(start())
    with pytest.raises(GameError) as info:
        s.apply("home", "FA2 to N15 C")
    err = info.value.to_json()
    assert err["rule"] == "CF-R-PASS-THROUGH" and err["input"] == "FA2 to N15 C"
    assert err["legal"][0] == "done" and any(line.startswith("FA2: move to one of") for line in err["legal"])
    s = start()
    with pytest.raises(GameError) as info:
        s.apply("home", "plan: FA2 to N15 C")
    assert info.value.legal[0] == "plan: hold"


def test_action_tools_cover_every_decision_and_round_trip() -> None:
    tools = G.tools()
    idx = tool_index(tools)
    names = [t.name for t in G.action_tools()]
    assert names == ["choose_captains", "call_coin_toss", "fourth_down", "submit_snap_plan", "move_piece", "use_ability",
                     "pass_ball", "play_action", "choose_ball_holder", "end_turn", "piece_options"]
    decisions = {d for t in tools for d in t.decisions}
    assert decisions == {"captains", "coin_call", "fourth_down", "snap_plan", "turn"}
    rng = random.Random(1)
    s = G.new_state({"possessions_per_half": 1, "max_turns_per_down": 2}, 4)
    bots = {seat: RandomBot(i) for i, seat in enumerate(G.seats)}
    seen = set()
    while not s.is_terminal and len(s.log) < 400:
        for seat in s.to_act():
            a = bots[seat].choose(s, seat) if rng.random() < 0.7 else s.legal_actions(seat).sample(rng)
            name, args = call_for_action(tools, a)
            spec = idx[name]
            assert s.decision(seat) in spec.decisions
            again = spec.handler(s, seat, parse_args(spec, args))
            assert again == a, (name, args)
            seen.add(name)
            s.apply(seat, again)
    assert {"choose_captains", "call_coin_toss", "submit_snap_plan", "move_piece", "end_turn"} <= seen


def test_tool_arguments_are_checked() -> None:
    idx = tool_index(G.tools())
    with pytest.raises(InvalidActionError) as info:
        parse_args(idx["move_piece"], {"piece": "FA1", "to": "H200"})
    assert info.value.rule == "CORE-ARGS"
    with pytest.raises(InvalidActionError):
        parse_args(idx["choose_captains"], {"offense": "safety", "defense": "safety"})
    with pytest.raises(InvalidActionError):
        parse_args(idx["submit_snap_plan"], {"rows": ["x"] * 21})


def test_piece_options_lists_what_one_of_your_pieces_may_do() -> None:
    idx = tool_index(G.tools())
    s = reaction(start())
    spec = idx["piece_options"]
    out = spec.handler(s, "home", parse_args(spec, {"piece": "qb"}))
    assert out["piece"] == "QB" and out["movement_left"] == 1 and "QB pass to FA1" in out["options"]
    with pytest.raises(GameError):
        spec.handler(s, "home", parse_args(spec, {"piece": "HV3"}))
    snap_state = start()
    out = spec.handler(snap_state, "away", parse_args(spec, {"piece": "HV3"}))
    assert out["movement_left"] == 2 and out["options"]


def test_the_ruleset_has_the_documents_numbers_and_loads_from_toml(tmp_path: Path) -> None:
    r = G.default_rules()
    assert (r.first_down_squares, r.downs, r.touchdown_points, r.safety_points, r.possessions_per_half) == (4, 4, 7, 2, 4)
    assert (r.passing.complete_min, r.passing.incomplete_min, r.passing.interception_max, r.passing.safety_interception_max) == (3, 1, -1, 0)
    assert (r.passing.adjacent_defender, r.passing.safety_adjacent, r.passing.rusher_adjacent_passer,
            r.passing.deep_threat_receiver, r.passing.lead_blocker_near_passer, r.passing.lead_blocker_range) == (-1, -2, -1, 1, 1, 2)
    assert r.movement_order == ["captain", "heavy", "strong", "fast", "qb"] and r.plan_rows == 7
    path = tmp_path / "short.toml"
    path.write_text('possessions_per_half = 2\nmax_turns_per_down = 3\n\n[passing]\ncomplete_min = 4\n', encoding="utf-8")
    rules = G.load_rules_file(path)
    assert (rules.possessions_per_half, rules.max_turns_per_down, rules.passing.complete_min) == (2, 3, 4)
    s = G.new_state(rules, 1)
    assert s.rules.passing.complete_min == 4
    bad = tmp_path / "bad.toml"
    bad.write_text("possessions_per_halves = 2\n", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        G.load_rules_file(bad)
    assert "possessions_per_halves" in info.value.reason
    for data in ({"drive_start_square": 60}, {"offense_lineup": []}, {"passing": {"interception_max": 2}},
                 {"movement_order": ["heavy"]}, {"punt_downs": [5]}):
        with pytest.raises(RulesetError):
            G.load_rules(data)


def test_help_in_a_reaction_turn_shows_the_options_in_short(tmp_path: Path) -> None:
    """Issue #17: a reaction turn offers thousands of actions; help names a few and then the game's
    summary, one line per piece that may act (legal_summary)."""
    from gm.referee.offline import OfflineReferee
    from gm.session import Session

    s = Session.create(G, seed=0, players={"home": "human", "away": "human"}, home=tmp_path)
    for seat, tool, args in (("home", "choose_captains", {"offense": "deep_threat", "defense": "safety"}),
                             ("away", "choose_captains", {"offense": "lead_blocker", "defense": "rusher"}),
                             ("away", "call_coin_toss", {"call": "heads"}), ("home", "submit_snap_plan", {"rows": []}),
                             ("away", "submit_snap_plan", {"rows": []})):
        assert s.call(tool, args, seat)["ok"]
    text = OfflineReferee().help_text(s, "home")
    assert text.split("\n")[2:] == [
        "Your options in short:",
        "  done",
        "  DT: move to one of 31 squares (movement 3)",
        "  HV1: move to one of 8 squares (movement 1); chop HV3; chop RU; push HV3; push RU; retreat to H11 NW",
        "  HV2: move to one of 8 squares (movement 1); chop HV4; chop RU; push HV4; push RU; retreat to H11 NW",
        "  ST1: move to one of 19 squares (movement 2); chip HV1; chip HV2; engage HV3; engage HV4; engage RU; push HV3; ... 2 more",
        "  FA1: move to one of 28 squares (movement 3)",
        "  FA2: move to one of 28 squares (movement 3)",
        "  QB: move to one of 8 squares (movement 1); pass to DT; pass to FA1; pass to FA2; play action ST1 ball ST1; "
        "play action ST1 ball QB",
        "('what can I do?' counts your moves and shows one, 'help' for more)",
    ]
    assert s.state.legal_summary("home") == [line.strip() for line in text.split("\n")[3:-1]]
