"""Chess-Football games played in a chatbot come back into gm with an audit."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from cf_logs import CLEAN, TABLE
from chat_helpers import assert_round_trip, edit, moves, played

from gm.chatlog.audit import audit
from gm.core.chance import MT19937
from gm.core.chatlog import exchanges
from gm.core.registry import find_game
from gm.core.state import GameState
from gm.export import render_doc

#: the logs here are of games gm played under the mt19937 generator (a seed and its generator name a game)
audit = partial(audit, chance=MT19937)
GAME = find_game("chess-football")
HEAD = "Audit of a Chess-Football Hybrid game from a chatbot: 5 move lines read, {r} replayed (seed 0)."
AWAY_PLAN = "plan: DT to L34 C; FA1 to F34 C; FA2 to K34 C; QB pass to DT"


HOME_PLAN = "plan: SF to K33 C; HV3 to G37 C; HV4 to G37 C; ST3 to G37 C; ST4 to N34 C; FA3 to C34 C; FA4 to N34 NW"
#: the game the default bots played when the logs were written (seed 0), before issue #31 gave them a choice
#: among equally good plans: what the engine writes of it does not depend on today's bots
TRUE_MOVES = ["away: captains deep_threat safety", "home: captains deep_threat safety", "away: tails",
              *[f"{seat}: {plan}" for _ in range(3) for seat, plan in (("away", AWAY_PLAN), ("home", HOME_PLAN))]]


def _true_game(n: int) -> GameState[Any]:
    state = GAME.new_state(None, 0, MT19937)
    for line in TRUE_MOVES[:n]:
        seat, _, text = line.partition(": ")
        state.apply(seat, text)
    return state


def test_the_engine_writes_the_clean_log() -> None:
    assert exchanges(GAME, _true_game(9)) == CLEAN.splitlines()[2:]


def test_a_clean_log_replays_without_a_finding_and_one_honour_note() -> None:
    a = audit(GAME, CLEAN)
    assert moves(a.state) == TRUE_MOVES
    lines = a.text().splitlines()
    assert lines[0] == HEAD.format(r=5) and len(lines) == 3
    assert lines[1].startswith("Honour system: captain picks and snap plans are secret and simultaneous")
    assert lines[2].startswith("Result: the chatbot kept the game exactly.")


def test_a_table_with_seat_columns_reads_the_same() -> None:
    a = audit(GAME, TABLE)
    assert a.state.snapshot() == _true_game(5).snapshot()  # home's column first: same picks
    assert (a.lines, a.divergences, a.unread) == (3, [], [])


def test_a_wrong_down_and_a_touchdown_never_scored_are_reported() -> None:
    text = edit(
        CLEAN,
        ("ball H38 (QB), away 2nd & 4 at row 37", "ball H38 (QB), away 1st & 4 at row 37"),
        ("away 3rd & 4 at row 37 | half 1, score home 0-0 away", "away 3rd & 4 at row 37 | touchdown away | half 1, score home 0-6 away"),
    )
    found = [(d.line, d.key, d.said, d.rules, d.rule) for d in audit(GAME, text).divergences]
    assert found == [
        (5, "down", "1st & 4", "2nd & 4", "CF-FIRST-DOWN"),
        (6, "touchdown", "away", "none", "CF-TOUCHDOWN"),
        (6, "score", "home 0-6 away", "home 0-0 away", "CF-TOUCHDOWN"),
    ]


def test_a_plan_row_the_rules_forbid_stops_the_replay() -> None:
    a = audit(GAME, edit(CLEAN, (f"T3 away: {AWAY_PLAN}", "T3 away: plan: DT to L20 C; QB pass to DT")))
    assert a.illegal is not None
    assert (a.illegal.line, a.illegal.move, a.illegal.rule) == (5, "away: plan: DT to L20 C; QB pass to DT", "CF-MOVE-RESTRICTED")
    assert a.illegal.legal[0] == "plan: hold"
    assert a.replayed == 2 and len(a.state.log) == 3


@pytest.mark.parametrize("bot_seed", [0, 5])
def test_a_game_played_in_gm_comes_back_from_its_session_document(bot_seed: int) -> None:
    state = played(GAME, 3, "random", bot_seed, 250)
    assert_round_trip(GAME, state, seed=3)  # the dice are the game's seed's


def test_the_documents_carry_the_format() -> None:
    for doc in ("quickstart", "session"):
        text = render_doc(GAME, doc)
        assert "## Move log" in text and "T1 away: captains deep_threat safety | home: captains deep_threat safety" in text
