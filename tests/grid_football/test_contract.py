"""The game contract: checking never changes the state, the legal listing is exactly what the
check accepts, the check's fast membership test agrees with the rules stated in full, and the
phases and decisions are string enums whose values are what texts and transcripts show."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from gf_helpers import new

from gm.core import GameError
from gm.core.actions import Action
from gm.core.bots import RandomBot
from gm.games.grid_football.actions import CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt
from gm.games.grid_football.engine import DECISIONS, Decision, GridFootballState, Phase
from gm.games.grid_football.rules import KICK_COLOURS, PLAY_COLOURS, POSITIONS

RULESETS = [
    None,
    {"win": "points"},
    {"punt_downs": [2, 3, 4], "number_max": 4, "plays": {4: False, 5: {"name": "Bomb", "wrong": {"forward": 9, "lateral": 5},
                                                                       "matched": {"forward": -6, "lateral": 2}, "unlock_quarter": 3}}},
]


def universe(number_max: int) -> list[Action]:
    """Every well-formed action worth trying: all of each kind, plays 0-10 with every lateral."""
    out: list[Action] = [CoinCall("heads"), CoinCall("tails"), KickChoice("kick"), KickChoice("receive"), Punt()]
    out += [KickPick(p, c) for p in POSITIONS for c in KICK_COLOURS]
    out += [NumberPick(n) for n in range(-1, number_max + 3)]
    for play in range(0, 11):
        for colour in PLAY_COLOURS:
            out += [PlayCall(play, colour), PlayCall(play, colour, timing="after")]
            for n in range(1, 11):
                for side in ("left", "right"):
                    out += [PlayCall(play, colour, n, side, t) for t in ("before", "after")]
    return list(dict.fromkeys(out))


def positions(games: int, every: int = 3) -> Iterator[GridFootballState]:
    """Every ``every``-th position of seeded random games under each ruleset (copies)."""
    k = 0
    for seed in range(games):
        s = new(RULESETS[seed % len(RULESETS)], seed)
        bots = {"home": RandomBot(seed), "away": RandomBot(seed + 1000)}
        while not s.is_terminal:
            k += 1
            if k % every == 0:
                yield s
            seat = s.to_act()[0]
            s.apply(seat, bots[seat].choose(s, seat))


def frozen(s: GridFootballState) -> tuple[str, str, str]:
    return json.dumps(s.snapshot(), sort_keys=True), json.dumps(s.to_json()), repr(s.rng.getstate())


def test_checking_never_changes_the_state() -> None:
    """Legal and illegal actions, checked for every seat on random positions: snapshot, JSON form
    and the random generator stay byte-identical (and a rejected apply changes nothing either)."""
    rng = random.Random(1)
    checked = rejected = 0
    for s in positions(9, every=4):
        cands = universe(s.rules.number_max)
        before = frozen(s)
        for seat in s.seats:
            legal = list(s.legal_actions(seat))
            for action in [*rng.sample(legal, min(6, len(legal))), *rng.sample(cands, 12)]:
                ok = s.is_legal(seat, action)
                checked += 1
                if not ok:
                    with pytest.raises(GameError):
                        s.apply(seat, action)
                    rejected += 1
                assert frozen(s) == before, (s.phase, seat, str(action))
    assert checked > 2000 and rejected > 800


def test_the_listing_is_exactly_what_the_check_accepts() -> None:
    """On random positions: every listed action is accepted, ``len`` is the number listed, and of
    every well-formed action exactly the listed ones are ``in`` (no sample that ``in`` exceeds)."""
    positions_seen = 0
    for s in positions(6, every=6):
        cands = universe(s.rules.number_max)
        for seat in s.seats:
            legal = s.legal_actions(seat)
            listed = list(legal)
            assert len(legal) == len(listed) == len(set(listed))
            accepted = {a for a in cands if a in legal}
            assert accepted == set(listed), (s.phase, seat)
        positions_seen += 1
    assert positions_seen > 60


def test_the_fast_check_agrees_with_the_rules_in_full() -> None:
    """The check tests membership in the cached listing; the rules stated in full
    (``_rule_error``, which explains a rejection) forbid exactly the actions not listed."""
    rng = random.Random(2)
    n = 0
    for s in positions(16, every=3):
        cands = universe(s.rules.number_max)
        for seat in s.to_act():
            listed = set(s.legal_actions(seat))
            for action in rng.sample(cands, 80):
                assert (s._rule_error(seat, action) is None) == (action in listed), (s.phase, seat, str(action))
                n += 1
    assert n > 20_000


def test_a_rejection_names_its_rule_and_the_options() -> None:
    s = new(None, 0)
    with pytest.raises(GameError) as info:
        s.apply("away", "left red")
    err = info.value
    assert err.rule == "GF-R-DECISION" and err.reason == "now is the time for a coin call, not a kick pick"
    assert err.legal == ("heads", "tails")


def test_phases_and_decisions_are_string_enums_with_unchanged_values() -> None:
    assert [p.value for p in Phase] == [
        "coin_toss", "kick_choice", "kickoff", "return_number", "play", "punt", "number_check", "halftime_choice", "game_over",
    ]
    assert {d.value for d in Decision} == {"coin_call", "kick_choice", "kick_pick", "number_pick", "play_call"}
    assert set(DECISIONS.values()) == set(Decision)
    s = new(None, 0)
    assert isinstance(s.phase, Phase) and s.phase == "coin_toss" and json.dumps(s.snapshot()["phase"]) == '"coin_toss"'
    assert isinstance(s.decision("away"), Decision) and s.decision("away") == "coin_call"
    assert s.decision("home") is None


def test_action_kinds_agree_with_the_legal_list_over_random_play() -> None:
    """The tool layer asks which kinds of action a seat has (to list the tools that answer now); Grid
    Football reads them off its cached legal listing, and the answer is the legal list's."""
    import random
    from collections import Counter

    from gm.core.registry import find_game
    from gm.core.state import GameState

    game = find_game("grid-football")
    rng = random.Random(5)
    seen: Counter[frozenset[str]] = Counter()
    for seed in range(4):
        st = game.new_state(None, seed)
        while not st.is_terminal:
            for seat in st.seats:
                kinds = st.action_kinds(seat)
                assert kinds == GameState.action_kinds(st, seat) == {a.type for a in st.legal_actions(seat)}
                seen[frozenset(kinds)] += 1
            seat = st.to_act()[0]
            st.apply(seat, st.legal_actions(seat).sample(rng))
    assert {tuple(sorted(k)) for k in seen} == {(), ("coin_call",), ("kick_choice",), ("kick_pick",), ("number_pick",),
                                                ("play_call",), ("play_call", "punt")}
