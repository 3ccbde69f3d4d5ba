"""The rules a player or a model reads come from the session's ruleset (issue #17, item 6): the
rules lookup (``rules kick``, the ``get_rules`` tool), the tool descriptions and the exported
rules; and the words players use for the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gf_helpers import G

from gm.export.render import render_doc
from gm.games.grid_football.ruleids import RULES
from gm.games.grid_football.rulestext import RULE_WORDS, rules_text
from gm.referee.offline import OfflineReferee
from gm.session import Session

GOLDEN = Path(__file__).parent / "golden" / "rules_text_default.json"
#: the ruleset of the issue: a 50-row kick, 8 rows for a first down, points mode, no play 4
CUSTOM: dict[str, Any] = {"kick_distance": 50, "first_down_rows": 8, "win": "points", "plays": {4: False}}


def test_the_default_ruleset_words_the_rules_as_the_guide() -> None:
    """The rule index is the default ruleset's wording, unchanged (golden file)."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert rules_text(G.default_rules()) == golden == RULES == dict(G.rules_index)
    assert G.rules_text(None) == golden


def test_a_custom_ruleset_words_the_rules_with_its_own_numbers() -> None:
    text = G.rules_text(G.load_rules(CUSTOM))
    assert text["GF-KICK-DIST"] == "A kickoff travels 50 rows from the kicking team's goal line"
    assert text["GF-FIRST-DOWN"] == "Start at 1st & 8; gaining 8+ rows resets to 1st & 8"
    assert text["GF-WIN"] == "Most points after Quarter 4 wins; a touchdown scores 7"
    assert text["GF-R-SCORELESS"] == "If regulation ends with equal points the game is a draw"
    assert text["GF-R-NEW-SERIES"] == "After a turnover or a kick the new offense starts 1st & 8 from the ball"
    assert "GF-PLAY-4" not in text and "GF-PLAY4-LOCK" not in text
    assert not [rid for rid, t in text.items() if "Play 4" in t or "55" in t or "1st & 10" in t]
    assert set(text) == set(RULES) - {"GF-PLAY-4", "GF-PLAY4-LOCK"}


def test_every_number_and_table_of_a_ruleset_reaches_the_rules() -> None:
    r = G.load_rules({
        "columns": 12, "rows": 40, "low_goal_line": 3, "high_goal_line": 36, "kick_distance": 30, "punt_distance": 20,
        "kick_columns": {"left": "B", "center": "F", "right": "K"}, "return_steps": {2: 4, 1: 8, 0: 12}, "number_max": 6,
        "punt_downs": [3, 4, 5], "downs": 5, "quarters": 6, "downs_per_quarter": 9, "switch_after_quarters": [2],
        "warning_quarters": [3], "warning_downs_left": 1, "no_match_bonus": 1, "play_match_bonus": 3,
        "colour_match_forward": 4, "toss_caller": "home", "first_down_rows": 7,
        "plays": {2: {"unlock_quarter": 3}, 6: {"name": "Bomb", "wrong": {"forward": 9, "lateral": 4},
                                                "matched": {"forward": -6, "lateral": 1}, "unlock_quarter": 2}},
    })
    t = G.rules_text(r)
    assert t["GF-BOARD"] == "Board: columns A-L, rows 1-40; goal lines rows 3 and 36; end zones rows 1-3 and 36-40"
    assert t["GF-KICK-RETURN"] == "Return distance by matches: 2 matches = 4 steps, 1 match = 8, 0 matches = 12"
    assert t["GF-KICK-NUMBER"] == "0 matches: number check 1-6; a match is a return touchdown"
    assert t["GF-LOCK"].endswith(
        "; Play 6 Bomb: defense wrong +9 forward, up to 4 lateral; matches -6 backward, up to 1 lateral (from Quarter 2)")
    assert t["GF-PLAY-2"] == "Play 2 Interior Run: defense wrong +2 forward; matches -2 backward, no lateral (from Quarter 3)"
    assert t["GF-MATCH-NONE"] == "No match: base play result, +1 bonus forward steps"
    assert t["GF-MATCH-PLAY"] == "Play match only: matched result, +3 bonus forward steps"
    assert t["GF-MATCH-COLOUR"].startswith("Colour match only: ignore the play, move exactly +4 forward")
    assert t["GF-DOWNS"] == "Five downs to make progress or punt"
    assert t["GF-QUARTERS"] == "Six quarters of 9 downs each"
    assert t["GF-SWITCH"] == "Switch ends after Quarter 2"
    assert t["GF-WARNING"] == "Warning at 1 down remaining in Q3"
    assert t["GF-R-TOSS-CALL"].startswith("The home team calls the toss")
    assert t["GF-R-ENDS"] == "Home defends the low end zone (rows 1-3) in Quarter 1"
    assert t["GF-R-END-ZONE"] == "End zones are rows 1-3 and 36-40 as the board says (the high one is 5 rows deep)"
    assert t["GF-R-KICK-COLUMN"].endswith("left B, center F, right K")
    assert t["GF-R-LEFT-RIGHT"].endswith("left toward column A, right toward column L")
    assert t["GF-R-EDGE"] == "Lateral movement stops at the board edge (columns A and L)"
    assert t["GF-R-LATERAL-TABLE"] == (
        "The plays table governs lateral caps; 'reduced by 1' is how it was built (Plays 1 and 4) and Play 3 matched allows "
        "none and Play 6 matched allows 1"
    )
    assert t["GF-R-PUNT"] == "Punt: on 3rd, 4th or 5th down instead of a play; travels 20 rows from the ball and is returned like a kickoff"
    assert t["GF-R-DOWNS-FAIL"] == "Failing on 5th down is a turnover on downs at the spot"
    assert t["GF-R-DOWN-COUNT"].startswith("Each play call or punt resolved is one of the quarter's 9 downs")
    assert t["GF-R-SWITCH-MAP"].endswith("row r becomes row 39 - r")
    assert t["GF-R-CARRY"] == "A drive carries over the Q1/Q2, Q2/Q3, Q4/Q5 and Q5/Q6 breaks with its down and distance"
    assert t["GF-R-NUMBER"] == "Number checks: both teams secretly pick 1-6; equal numbers are a match"
    assert t["GF-R-LINE-TO-GAIN"].startswith("The 7 rows are counted")
    assert t["GF-R-COLOUR-MOVE"].startswith("The colour-match +4 has no lateral")


def _session(tmp_path: Path) -> Session:
    return Session.create("grid-football", seed=1, rules=CUSTOM, home=tmp_path)


@pytest.mark.rules("GF-KICK-DIST", "GF-FIRST-DOWN", "GF-WIN", "GF-PLAY-4")
def test_the_in_game_rules_lookup_reads_the_sessions_ruleset(tmp_path: Path) -> None:
    s = _session(tmp_path)
    ref = OfflineReferee()
    kick = ref.handle(s, "home", "rules kick").narration
    assert "[GF-KICK-DIST] A kickoff travels 50 rows from the kicking team's goal line" in kick
    assert "55" not in kick
    first = s.call("get_rules", {"topic": "first"}, "home")["rules"]
    assert first["GF-FIRST-DOWN"] == "Start at 1st & 8; gaining 8+ rows resets to 1st & 8"
    win = s.call("get_rules", {"topic": "GF-WIN"}, "home")["rules"]
    assert win == {"GF-WIN": "Most points after Quarter 4 wins; a touchdown scores 7"}
    plays = ref.handle(s, "home", "rules play").narration
    assert "Play 1 Power/Sweep" in plays and "Play 4" not in plays and "Breakaway" not in plays
    assert "Play 4" not in json.dumps(s.call("get_rules", {}, "home")["rules"])


def test_tool_descriptions_state_what_the_ruleset_allows() -> None:
    rules = G.load_rules({**CUSTOM, "number_max": 6, "punt_downs": [3, 4], "plays": {4: False, 3: {"wrong": {"forward": 1, "lateral": 1}}}})
    tools = {t.name: t for t in G.tools(rules)}
    call = tools["call_play"]
    assert call.description.startswith("Secretly lock a play (1-3) and colour")
    props = call.args.model_json_schema()["properties"]
    assert props["play"]["description"] == "play number: 1 Power/Sweep, 2 Interior Run, 3 Speed/Positioning"
    assert props["lateral"]["description"] == "offense only: columns of lateral movement (play 1 up to 3, play 3 up to 1, play 2 none); null or 0 for none"
    assert "Breakaway" not in json.dumps(props) and "play 4" not in json.dumps(props)
    assert tools["punt"].description == "Offense on 3rd or 4th down: punt instead of calling a play."
    assert tools["pick_number"].description.startswith("Secretly pick a number 1-6 ")
    assert tools["pick_number"].args.model_json_schema()["properties"]["number"]["description"] == "your secret number, 1-6"
    # the default ruleset keeps the default descriptions, and no punting downs means no punt tool
    default = {t.name: t.description for t in G.tools()}
    assert default["call_play"].startswith("Secretly lock a play (1-4) and colour") and default["punt"].startswith("Offense on 4th down")
    assert "punt" not in {t.name for t in G.tools(G.load_rules({"punt_downs": []}))}


def test_the_rendered_rules_follow_the_ruleset_on_touchbacks() -> None:
    text = render_doc(G, "rules", rules=CUSTOM)
    ruling = text.split("### GF-R-TOUCHBACK")[1].split("###")[0]
    assert "55" not in ruling and "(50 rows in this ruleset)" in ruling
    assert "which leaves a kickoff short of the receiving team's end zone, but a punt can still come down inside it" in ruling
    default = render_doc(G, "rules").split("### GF-R-TOUCHBACK")[1].split("###")[0]
    assert "“55 rows from kicking team's goal line”, which puts it inside the receiving team's end zone" in default


def test_rule_words_name_existing_rules_and_cover_the_words_players_use() -> None:
    assert G.rule_words is RULE_WORDS
    for word in ("kick", "punt", "blocked", "lateral", "colour", "color", "touchback", "touchdown", "first", "turnover",
                 "number", "incomplete", "halftime", "breakaway", "safety"):
        assert RULE_WORDS[word], word
    for word, ids in RULE_WORDS.items():
        assert word == word.lower() and ids and len(set(ids)) == len(ids), word
        assert set(ids) <= set(RULES), (word, set(ids) - set(RULES))
    assert "GF-R-TOUCHBACK" in RULE_WORDS["kick"] and "GF-MATCH-COLOUR" in RULE_WORDS["color"]
