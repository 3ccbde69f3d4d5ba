"""brawl through the referees: the LLM referee's rules summary (prompts/rules_summary/brawl.md.j2)
and the offline referee turning the players' words into tool calls."""

from __future__ import annotations

from gm.games.brawl import GAME
from gm.referee.llm.prompts import DEFAULT_SUMMARY_BUDGET, rules_summary, system_prompt
from gm.referee.offline import OfflineReferee
from gm.session import Session

PLAYERS = {"home": "human", "away": "bot:default"}


def test_the_llm_rules_summary_is_the_rulesets_and_fits_the_budget() -> None:
    """BR-SYNTAX: the summary names the tools and the zones; its numbers follow the ruleset."""
    text = rules_summary(GAME, GAME.default_rules(), "home", PLAYERS)
    assert len(text) <= DEFAULT_SUMMARY_BUDGET
    for needle in ("play_cards", "choose_fourth_down", "get_zone", "BM is the X", "Downfield 4x", "touchdown 7", "20 series"):
        assert needle in text, needle
    custom = GAME.load_rules({"rounds": 8, "touchdown_points": 6, "multipliers": {"D": 5, "M": 2, "S": 1, "B": 0}})
    text = rules_summary(GAME, custom, "home", PLAYERS)
    assert "Downfield 5x" in text and "touchdown 6" in text and "8 series" in text
    assert text in system_prompt(GAME, custom, "home", PLAYERS)


def test_the_offline_referee_reads_a_placement_and_a_fourth_down_choice_in_words() -> None:
    """BR-SYNTAX and BR-FOURTH: the player's words become play_cards / choose_fourth_down calls."""
    rules = {"first_offense": "home", "offense": {"QB": "QB"}, "defense": {"MLB": "MLB"},
             "positions": {"QB": {"deck": ["S1"] * 8}, "MLB": {"deck": ["A1"] * 8}}}  # at most 3 yards, no turnover
    s = Session.create("brawl", seed=3, rules=rules, players=PLAYERS, persist=False, nonce_seed=0, bot_seed=0)
    ref = OfflineReferee()
    turn = ref.handle(s, "home", "the QB's strength 1 to the line middle")
    assert [(c.tool, c.args) for c in turn.calls] == [("play_cards", {"placements": [{"player": "QB", "card": "S1", "zone": "SM"}]})]
    for _ in range(2):
        assert ref.handle(s, "home", "QB SM").accepted
    assert s.state.phase == "fourth_down"
    turn = ref.handle(s, "home", "we'll go for it!")
    assert [(c.tool, c.args) for c in turn.calls] == [("choose_fourth_down", {"option": "go_for_it"})] and turn.accepted


def test_the_offline_help_is_short_and_names_each_players_cards() -> None:
    """Issue #17: help and 'what can I do?' give the legal summary (a line per player and the zones), the
    number of legal placements and one of them - not a list of whole placements."""
    s = Session.create("brawl", seed=3, rules={"first_offense": "home"}, players=PLAYERS, persist=False, nonce_seed=0, bot_seed=0)
    ref = OfflineReferee()
    summary = s.state.legal_summary("home")
    help_text = ref.help_text(s, "home")
    lines = [f"  {line}" for line in summary]
    assert help_text.endswith("\n".join(["Your options in short:", *lines, "('what can I do?' counts your moves and shows one, 'help' for more)"]))
    assert max(len(line) for line in help_text.split("\n")) < 400
    turn = ref.handle(s, "home", "what can I do?")
    count = len(s.state.legal_actions("home"))
    first = str(s.state.legal_actions("home")[0])
    assert turn.narration == f"You can choose from {count:,} moves: {'; '.join(summary)}. For example: {first}"
