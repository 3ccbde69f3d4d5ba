"""Every text a player reads is exact (#37): each fact in a quick start, banner, board legend, rules
summary and tool schema is made from the ruleset, or checked here against the engine."""

from __future__ import annotations

import json
import random
import re

import pytest

from gm.core import find_game
from gm.core.registry import all_games
from gm.export import render_doc

GAMES = ("grid-football", "gridmaster4", "quarterback", "brawl", "chess-football")


# ------------------------------------------------------------------ rules summaries
@pytest.mark.parametrize("game_id", GAMES)
def test_the_referee_summary_holds_the_rules_the_game_declares(game_id: str) -> None:
    """Each game names the rules its summary must hold (scoring, the end of a down or half, passing,
    tackling); the summary holds them all, whatever the budget leaves of the rest."""
    from gm.referee.llm.prompts import rules_summary

    game = find_game(game_id)
    assert len(game.summary_rules) >= 8 and set(game.summary_rules) <= set(game.rules_index)
    summary = rules_summary(game, game.default_rules(), game.seats[0], {})
    missing = [rid for rid in game.summary_rules if rid not in summary]
    assert missing == []


def test_the_quarterback_summary_speaks_of_passing_and_interceptions_worded_from_the_ruleset() -> None:
    from gm.referee.llm.prompts import rules_summary

    game = find_game("quarterback")
    text = rules_summary(game, game.load_rules({"max_rounds": 9}), "red", {})
    assert "QB-PASS-FORWARD: Only the Quarterback passes forward" in text and "QB-INTERCEPT: A defender picking up a pass" in text
    assert "QB-R-WHISTLE: A half ends after 9 rounds" in text  # the session's ruleset, not the default's


# ------------------------------------------------------------------ Quarter Back offside
def test_the_quarterback_offside_words_are_the_engines_rows() -> None:
    """The board legend and the quick start name the rows a defending Single or Double may not stand on
    before the release; the engine's offside check agrees on every row of the board."""
    game = find_game("quarterback")
    for rules in ({}, {"field_rows": 8}):
        st = game.new_state(rules, seed=1)
        board = game.render(st, "red")
        m = re.search(r"defending Doubles and Singles: kept off rows 2-(\d+) \(row 1 and behind allowed\)", board)
        assert m, board
        single = next(p for p in st.pos if p[0] == st.defender and st.kind[p] == "S")
        rows = range(-st.rules.back_rows, st.rules.field_rows + 1)
        assert [r for r in rows if st.offside(single, (0, r))] == list(range(2, int(m.group(1)) + 1))
        qs = render_doc(game, "quickstart", game.load_rules(rules))
        assert f"may not stand on rows 2-{m.group(1)} (row 1 and the rows behind the line are allowed)" in qs
        assert "stay on row 1" not in qs and "held at row 1" not in board


# ------------------------------------------------------------------ Chess-Football pass table
@pytest.mark.parametrize("rules", [{}, {"passing": {"complete_min": 4, "incomplete_min": 2, "interception_max": -2,
                                                   "safety_interception_max": 1, "deep_threat_receiver": 2}}])
def test_every_pass_total_from_the_lowest_to_the_highest_has_a_row(rules: dict[str, object]) -> None:
    from gm.games.chess_football.passing import pass_outcome, pass_table

    game = find_game("chess-football")
    r = game.load_rules(rules)
    p = r.passing
    defenders = len(r.defense_lineup) + 1
    low = 1 + defenders * min(0, p.adjacent_defender) + min(0, p.safety_adjacent) + min(0, p.rusher_adjacent_passer)
    high = p.die + max(0, p.deep_threat_receiver) + max(0, p.lead_blocker_near_passer)
    rows = pass_table(r)
    covered = [t for row in rows for t in range(int(row["high"]), int(row["low"]) - 1, -1)]
    assert covered == list(range(high, low - 1, -1))  # every total once, highest first, none left out
    for row in rows:
        for t in range(int(row["low"]), int(row["high"]) + 1):
            assert (row["open"], row["defender"], row["safety"]) == (
                pass_outcome(p, t, safety_near=False, defender_near=False),
                pass_outcome(p, t, safety_near=False, defender_near=True),
                pass_outcome(p, t, safety_near=True, defender_near=True))
    docs = render_doc(game, "quickstart", r) + render_doc(game, "rules", r)
    for row in rows:
        assert f"| {row['totals']} | {row['open']} | {row['defender']} | {row['safety']} |" in docs


def test_the_default_pass_table_reads_as_the_issue_wants_it() -> None:
    qs = render_doc(find_game("chess-football"), "quickstart")
    assert "possible (-9) to the highest (8)" in qs
    assert "| 0 | incomplete | incomplete | interception |" in qs  # 0, with and without the Safety
    assert "| -9 to -1 | incomplete | interception | interception |" in qs


# ------------------------------------------------------------------ Grid Football number check
@pytest.mark.parametrize("number_max", [10, 20])
def test_the_grid_football_quick_start_explains_the_number_check(number_max: int) -> None:
    qs = render_doc(find_game("grid-football"), "quickstart", find_game("grid-football").load_rules({"number_max": number_max}))
    assert (f"both sides secretly pick a number from 1 to {number_max} (`number {min(7, number_max)}`); the two picks are revealed\n"
            "together, and equal numbers are a match.") in qs
    colour_row = next(ln for ln in qs.splitlines() if ln.startswith("| the colour only |"))
    assert f"both sides secretly pick a number from 1 to {number_max}; equal numbers are a match" in colour_row


def test_a_move_of_the_wrong_kind_cites_the_decision_due() -> None:
    from gm.referee.corpus import Position, start

    s = start(find_game("grid-football"), Position(id="p", moves=("receive", "left red")))
    err = s.call("pick_number", {"number": 5}, "home")["error"]
    assert (err["rule"], err["reason"]) == ("GF-R-DECISION", "now is the time for a play call, not a number pick")
    s = start(find_game("grid-football"), Position(id="p", moves=("receive",)))
    err = s.call("choose_kick_or_receive", {"choice": "receive"}, "home")["error"]
    assert (err["rule"], err["reason"]) == ("GF-R-DECISION", "now is the time for a kick pick, not a kick choice")
    assert "GF-R-DECISION" in find_game("grid-football").rules_index


@pytest.mark.parametrize(("series_cards", "go_cards", "downs"), [(3, 1, "4th"), (4, 2, "5th and 6th")])
def test_brawl_downs_of_a_go_for_it_are_the_rulesets_in_the_documents_and_the_engine(series_cards: int, go_cards: int,
                                                                                       downs: str) -> None:
    """BR-R-DOWN: the plays of a go-for-it go on counting the downs; the documents say which, and so do
    the engine's go-for-it and turnover-on-downs lines (seeded random play that always goes for it)."""
    from gm.core.wording import ordinal

    game, rules = find_game("brawl"), {"series_cards": series_cards, "go_cards": go_cards}
    doc = " ".join(render_doc(game, "rules", rules).split())
    plays = "one more play" if go_cards == 1 else f"{go_cards} more plays"
    assert f"the extra play{'s' * (go_cards != 1)} of a go-for-it (section 8) {'is' if go_cards == 1 else 'are'} {downs} down." in doc
    assert plays in render_doc(game, "glossary", rules) and plays in render_doc(game, "quickstart", rules)
    assert ("keeps football's name: the 4th-down choice" in doc) == (series_cards != 3)
    rng, said = random.Random(3), {}
    st = game.new_state(rules, seed=0)
    while st.to_act() and len(said) < 2:
        seat = st.to_act()[0]
        action = st.legal_actions(seat).sample(rng)
        for e in st.apply(seat, st.parse_action("go for it") if str(action) in ("punt", "field goal") else action):
            if e.kind == "go_for_it":
                said[e.kind] = (e.text, ordinal(st.play_no))
            if e.kind == "downs":
                said[e.kind] = (e.text, ordinal(series_cards + go_cards))
    assert said["go_for_it"][0].endswith(f"; {said['go_for_it'][1]} down") and said["go_for_it"][1] == f"{series_cards + 1}th"
    assert said["downs"][0].startswith(f"short on {said['downs'][1]} down: turnover on downs")


# ------------------------------------------------------------------ banners
@pytest.mark.parametrize("game_id", GAMES)
def test_a_game_declares_simultaneous_picks_exactly_when_its_engine_has_them(game_id: str) -> None:
    """Seeded random play: two seats to act at once happens in a game that says it does, never in one
    that says it does not."""
    game = find_game(game_id)
    rng = random.Random(7)
    seen = False
    for seed in range(3):
        st = game.new_state(seed=seed)
        for _ in range(300):
            acting = st.to_act()
            if not acting:
                break
            seen = seen or len(acting) > 1
            seat = acting[0]
            st.apply(seat, st.legal_actions(seat).sample(rng))
    assert seen == game.simultaneous


@pytest.mark.parametrize("game_id", GAMES)
def test_the_banner_explains_commitments_only_where_bots_pick_alongside(game_id: str) -> None:
    from gm.play.terminal import seed_line
    from gm.session import Session

    game = find_game(game_id)
    s = Session.create(game, players={seat: "bot:default" for seat in game.seats[1:]}, persist=False)
    line = seed_line(s)
    assert line.startswith("Seed hidden until the game ends; its SHA-256 commitment is ")
    assert ("it locks its pick first" in line) == game.simultaneous
    assert find_game("gridmaster4").simultaneous is False and find_game("quarterback").simultaneous is False


# ------------------------------------------------------------------ tool schemas
def _props(game_id: str, tool: str, rules: dict[str, object] | None = None) -> dict[str, object]:
    spec = next(t for t in find_game(game_id).tools(rules) if t.name == tool)
    props: dict[str, object] = spec.args.model_json_schema()["properties"]
    return props


def _bounds(prop: object) -> tuple[int | None, int | None]:
    d = json.loads(json.dumps(prop))
    for part in [d, *d.get("anyOf", [])]:
        if "maximum" in part or "maxItems" in part:
            return part.get("minimum"), part.get("maximum", part.get("maxItems"))
    return None, None


@pytest.mark.parametrize("number_max", [10, 37])
def test_grid_football_schema_bounds_are_the_rulesets(number_max: int) -> None:
    rules = {"number_max": number_max}
    assert _bounds(_props("grid-football", "pick_number", rules)["number"]) == (1, number_max)
    desc = next(t for t in find_game("grid-football").tools(rules) if t.name == "pick_number").description
    assert f"1-{number_max}" in desc
    r = find_game("grid-football").load_rules(rules)
    play = _props("grid-football", "call_play", rules)
    assert _bounds(play["play"]) == (min(r.plays), max(r.plays))
    assert _bounds(play["lateral"]) == (0, max(p.wrong.lateral for p in r.plays.values()))


@pytest.mark.parametrize("rules", [None, {"tiles": 40, "winning_tile": 40, "orthogonal": 4, "diagonal": 3}])
def test_gridmaster4_tool_words_and_bounds_are_the_rulesets(rules: dict[str, object] | None) -> None:
    game = find_game("gridmaster4")
    r = game.load_rules(rules)
    assert _bounds(_props("gridmaster4", "place_tile", rules)["number"]) == (1, r.tiles)
    desc = next(t for t in game.tools(rules) if t.name == "place_tile").description
    assert f"exactly {r.orthogonal} cells up/down/left/right or exactly {r.diagonal} cells diagonally" in desc


@pytest.mark.parametrize("plan_rows", [7, 4])
def test_chess_football_plan_rows_and_pass_words_are_the_rulesets(plan_rows: int) -> None:
    rules = {"plan_rows": plan_rows}
    assert _bounds(_props("chess-football", "submit_snap_plan", rules)["rows"])[1] == plan_rows
    desc = next(t for t in find_game("chess-football").tools(rules) if t.name == "pass_ball").description
    assert "lower: intercepted with the Safety next to the receiver at 0 or less, by another defender next to it at -1 or less, else incomplete" in desc


# ------------------------------------------------------------------ tokens
@pytest.mark.parametrize("game_id", GAMES)
def test_the_blank_session_template_carries_a_current_token(game_id: str) -> None:
    from gm.session.token import decode

    game = find_game(game_id)
    doc = render_doc(game, "session")
    tokens = re.findall(r"\bgm\d\.[a-z0-9-]+\.[A-Za-z0-9_-]+\.[0-9a-f]{16}\b", doc)
    assert tokens and all(t.startswith(f"gm2.{game.id}.") for t in tokens)
    assert decode(tokens[0])["game"] == game.id and "gm1." not in render_doc(game, "glossary")


# ------------------------------------------------------------------ cross-references
#: a changed ruleset per game (the session template then points to the ruleset's section)
CHANGED = {"grid-football": {"number_max": 20}, "gridmaster4": {"tiles": 40, "winning_tile": 40},
           "quarterback": {"max_rounds": 10}, "brawl": {"rounds": 10}, "chess-football": {"plan_rows": 4}}
#: the words next to a pointer to a section -> a word of that section's heading in rules.md
TOPICS = {"for every value": "ruleset", "plays table": "plays", "pick a number": "number check",
          "1st & ": "downs", "special rules": "completions", "series is scored": "scoring",
          "go-for-it": "4th down", "rosters are the tables of": "positions", "table in section": "positions",
          "once more as in": "series", "blocked": "blocked", "free placement": "free placements",
          "first tile": "first tile", "free tile": "free placements", "line-up table": "pieces",
          "number check and touchback": "kickoff", "every ability is in the tables of": "pieces"}


def _all_at(text: str, word: str) -> list[int]:
    """Where ``word`` starts and ends in ``text``, every time."""
    return [i for m in re.finditer(re.escape(word), text) for i in (m.start(), m.end())]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_section_a_document_points_to_is_there_and_about_it(game_id: str) -> None:
    """'See section 16 of rules.md', 'the plays table, section 7': every section number in every
    document (of a changed ruleset too) is a heading of the rules, on what the words next to it speak of."""
    game = find_game(game_id)
    for rules in (None, CHANGED[game_id]):
        heads = {int(n): title.lower() for n, title in re.findall(r"^## (\d+)\. (.+)$", render_doc(game, "rules", rules), re.M)}
        seen = 0
        for doc in ("quickstart", "rules", "glossary", "session"):
            text = " ".join(render_doc(game, doc, rules).split())
            for m in re.finditer(r"\bsection (\d+)", text):
                start = max(0, m.start() - 60)
                near = text[start:m.end() + 30]
                assert int(m.group(1)) in heads, f"{doc}: {near!r} points to no section {m.group(1)}"
                at = m.start() - start  # the key nearest the pointer says what it points to
                key = min((k for k in TOPICS if k in near), key=lambda k: min(abs(i - at) for i in _all_at(near, k)), default=None)
                assert key is not None, f"{doc}: what does {near!r} point to?"
                assert TOPICS[key] in heads[int(m.group(1))], f"{doc}: {near!r} -> {heads[int(m.group(1))]!r}"
                seen += 1
        assert seen >= (1 if rules else 0)


def test_every_game_is_checked_here() -> None:
    assert {g.id for g in all_games()} >= set(GAMES)
