"""Rejections: the right rule id, the input quoted, the legal alternatives, and nothing changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from gf_helpers import G, at_down, down, frozen, kick, new, random_game, rejects, to_kickoff

from gm.core import GameError, IllegalActionError, InvalidActionError, RandomBot
from gm.games.grid_football.actions import KickPick, NumberPick, PlayCall, Punt
from gm.games.grid_football.engine import GridFootballState
from gm.games.grid_football.ruleids import RULES


def _coin_toss() -> GridFootballState:
    return new()


def _kick_choice() -> GridFootballState:
    s = new()
    s.apply("away", "heads")
    return s


def _kickoff() -> GridFootballState:
    return to_kickoff("home")


def _return_number() -> GridFootballState:
    s = to_kickoff("home")
    kick(s, "center red", "left yellow")
    return s


def _play() -> GridFootballState:
    return at_down("K30", down=4)


def _number_check() -> GridFootballState:
    s = at_down("K30")
    down(s, "play 1 red", "play 2 red")
    return s


def _punt() -> GridFootballState:
    s = at_down("K30", down=4)
    s.apply("home", "punt")
    return s


def _halftime() -> GridFootballState:
    s = at_down("K30", quarter=2, quarter_downs=14)
    down(s, "play 2 black", "play 1 red")
    return s


def _game_over() -> GridFootballState:
    s = at_down("K56")
    down(s, "play 1 black", "play 2 red")
    return s


PHASES: dict[str, Callable[[], GridFootballState]] = {
    "coin_toss": _coin_toss,
    "kick_choice": _kick_choice,
    "kickoff": _kickoff,
    "return_number": _return_number,
    "play": _play,
    "number_check": _number_check,
    "punt": _punt,
    "halftime_choice": _halftime,
}

# (phase, an action of the wrong kind, the decision due and the kind said): ruling GF-R-DECISION
WRONG_PHASE = [
    ("coin_toss", "kick", "coin call", "kick choice"),
    ("kick_choice", "heads", "kick choice", "coin call"),
    ("kickoff", "play 1 red", "kick pick", "play call"),
    ("return_number", "left red", "number pick", "kick pick"),
    ("play", "number 3", "play call", "number pick"),
    ("number_check", "play 1 red", "number pick", "play call"),
    ("punt", "punt", "kick pick", "punt"),
    ("halftime_choice", "tails", "kick choice", "coin call"),
]


@pytest.mark.rules("GF-R-DECISION")
@pytest.mark.parametrize(("phase", "action", "due", "said"), WRONG_PHASE, ids=[w[0] for w in WRONG_PHASE])
def test_an_action_of_the_wrong_kind_for_the_phase(phase: str, action: str, due: str, said: str) -> None:
    """A move of another kind than the decision due cites the ruling on that, naming the decision due and
    the kind said ('now is the time for a play call, not a number pick'), never the rule of the step."""
    s = PHASES[phase]()
    assert s.phase == phase
    seat = s.to_act()[0]
    err = rejects(s, seat, action, "GF-R-DECISION", kind=IllegalActionError)
    assert err.input == action and repr(action) in err.message
    assert err.reason == f"now is the time for a {due}, not a {said}"
    assert err.legal, "a rejection lists the legal alternatives"
    legal = [str(a) for a in s.legal_actions(seat)]
    if len(legal) <= 24:
        assert list(err.legal) == legal
        for alt in err.legal:  # every alternative offered is really legal
            assert s.is_legal(seat, alt)
    else:
        assert any(alt.startswith("play 1") for alt in err.legal)


@pytest.mark.parametrize("phase", list(PHASES))
def test_a_seat_with_nothing_to_do(phase: str) -> None:
    s = PHASES[phase]()
    idle = [seat for seat in ("home", "away") if seat not in s.to_act()]
    if not idle:  # simultaneous: lock one seat first, then it has nothing to do
        seat = s.to_act()[0]
        s.apply(seat, s.legal_actions(seat)[-1])
        idle = [seat]
    action = "heads"
    err = rejects(s, idle[0], action, "CORE-TURN", kind=IllegalActionError)
    assert "waiting for" in err.reason


def test_an_unknown_seat() -> None:
    s = new()
    before = frozen(s)
    with pytest.raises(InvalidActionError) as info:
        s.apply("referee", "heads")
    assert info.value.rule == "CORE-SEAT" and info.value.legal == ("home", "away")
    assert frozen(s) == before


@pytest.mark.rules("GF-WIN")
def test_the_game_is_over() -> None:
    s = _game_over()
    for seat in ("home", "away"):
        err = rejects(s, seat, "play 1 red", "CORE-OVER", kind=IllegalActionError)
        assert err.input == "play 1 red"
        assert s.decision(seat) is None and list(s.legal_actions(seat)) == []


@pytest.mark.rules("GF-SYNTAX")
@pytest.mark.parametrize(
    "text",
    ["", "   ", "hello", "play", "play red", "play 1", "play 1 green", "number", "number 1 2", "left purple",
     "play 1 red 11 left", "play 1 red 2", "play 1 red 2 left before after", "play 1 red black", "kick off"],
)
def test_malformed_text_is_invalid_in_every_phase(text: str) -> None:
    for make in PHASES.values():
        s = make()
        err = rejects(s, s.to_act()[0], text, "GF-SYNTAX", kind=InvalidActionError)
        assert err.legal, "a syntax error lists the forms"


@pytest.mark.rules("GF-R-NUMBER", "GF-MATCH-COLOUR")
@pytest.mark.parametrize("number", [0, -1, 11, 1000])
def test_bad_numbers_are_illegal(number: int) -> None:
    s = _number_check()
    err = rejects(s, "home", NumberPick(number), "GF-R-NUMBER", kind=IllegalActionError)
    assert err.input == f"number {number}"
    assert err.legal == ("number 1..10",)


@pytest.mark.rules("GF-LOCK", "GF-PLAY4-LOCK", "GF-R-LATERAL-CAP", "GF-R-DEFENSE-CALL", "GF-R-PUNT", "GF-DOWNS", "GF-R-DECISION")
@pytest.mark.parametrize(
    ("seat", "action", "rule"),
    [
        ("home", PlayCall(9, "red"), "GF-LOCK"),
        ("home", PlayCall(4, "red"), "GF-PLAY4-LOCK"),
        ("away", PlayCall(4, "black"), "GF-PLAY4-LOCK"),
        ("home", PlayCall(2, "red", 1, "left"), "GF-R-LATERAL-CAP"),
        ("away", PlayCall(1, "red", 1, "left"), "GF-R-DEFENSE-CALL"),
        ("away", Punt(), "GF-DOWNS"),
        ("home", KickPick("left", "red"), "GF-R-DECISION"),
    ],
)
def test_illegal_play_calls_as_action_objects(seat: str, action: object, rule: str) -> None:
    s = _play()
    err = rejects(s, seat, action, rule, kind=IllegalActionError)
    assert err.input == str(action) and err.legal
    assert any(alt.startswith("play 1") for alt in err.legal)
    if seat == "home":
        assert "punt" in err.legal  # 4th down: the summary offers the punt too


def test_a_punt_before_4th_down_names_the_down() -> None:
    s = at_down("K30", down=2)
    err = rejects(s, "home", "punt", "GF-R-PUNT", kind=IllegalActionError)
    assert "2nd down" in err.reason and "4th" in err.reason


@pytest.mark.rules("GF-SYNTAX")
@pytest.mark.parametrize(
    "data",
    [
        {"type": "nope"},
        {},
        {"type": "play_call", "play": "1", "colour": "red"},
        {"type": "play_call", "play": True, "colour": "red"},
        {"type": "play_call", "play": 1, "colour": "blue"},
        {"type": "play_call", "play": 1, "colour": "red", "lateral": 2},
        {"type": "play_call", "play": 1, "colour": "red", "lateral": 11, "direction": "left"},
        {"type": "play_call", "play": 1, "colour": "red", "timing": "during"},
        {"type": "kick_pick", "position": "middle", "colour": "red"},
        {"type": "number_pick", "number": 2.5},
        {"type": "number_pick"},
        {"type": "punt", "extra": 1},
        {"type": "coin_call", "call": "edge"},
        {"type": "kick_choice", "choice": ["kick"]},
    ],
)
def test_malformed_json_actions(data: dict[str, object]) -> None:
    with pytest.raises(InvalidActionError) as info:
        G.action_from_json(data)
    assert info.value.rule in RULES or info.value.rule.startswith("CORE-")
    assert info.value.input is not None


BAD_INPUTS = ["heads", "kick", "left red", "number 0", "number 5", "number 11", "punt", "play 4 red", "play 1 red 3 left after",
              "play 2 black 1 right", "play 9 red", "play 1 red after", "gibberish", "", "play 3 black"]


def test_rejections_never_change_the_state_anywhere() -> None:
    """Sweep random games: every rejected input is a GameError with a known rule and changes nothing."""
    rng = RandomBot(7)
    checked = 0
    for seed in range(25):
        s = new(seed=seed)
        bots = {"home": RandomBot(seed), "away": RandomBot(seed + 100)}
        while not s.is_terminal:
            for seat in ("home", "away"):
                text = rng.rng.choice(BAD_INPUTS)
                if s.is_legal(seat, text):
                    continue
                before = frozen(s)
                with pytest.raises(GameError) as info:
                    s.apply(seat, text)
                assert info.value.rule in RULES or info.value.rule.startswith("CORE-"), info.value.message
                assert frozen(s) == before
                checked += 1
            for seat in s.to_act():
                s.apply(seat, bots[seat].choose(s, seat))
    assert checked > 1000
    assert random_game(1).is_terminal
