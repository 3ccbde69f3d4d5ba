"""Text and JSON forms of actions: exact round trips, and a parser that only ever says 'invalid'."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from gf_helpers import G, at_down, new
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.core import Action, InvalidActionError, RandomBot, RulesetError
from gm.games.grid_football.actions import FORMS, CoinCall, KickChoice, KickPick, NumberPick, PlayCall, Punt


def _check_forms(a: Action) -> None:
    assert G.parse_action(str(a)) == a, str(a)
    data = a.to_json()
    assert G.action_from_json(json.loads(json.dumps(data))) == a, data
    assert data["type"] == a.type


def test_every_legal_action_round_trips_in_many_states() -> None:
    seen: set[Action] = set()
    for seed in range(12):
        s = new(seed=seed, rules={"win": "points"} if seed % 3 == 0 else None)
        bots = {"home": RandomBot(seed), "away": RandomBot(seed + 50)}
        while not s.is_terminal:
            for seat in s.to_act():
                for a in s.legal_actions(seat):
                    if a not in seen:
                        _check_forms(a)
                        seen.add(a)
                    assert a in s.legal_actions(seat)
                s.apply(seat, bots[seat].choose(s, seat))
    q2 = at_down("K30", quarter=2, down=4)
    for seat in ("home", "away"):
        for a in q2.legal_actions(seat):
            _check_forms(a)
            seen.add(a)
    types = {type(a) for a in seen}
    assert types == {CoinCall, KickChoice, KickPick, NumberPick, Punt, PlayCall}
    assert len([a for a in seen if isinstance(a, PlayCall)]) == 27 + 3 + 27 + 19  # plays 1-4 with every lateral


@pytest.mark.rules("GF-SYNTAX", "GF-LATERAL")
@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Play 1, Red, 2 right before", PlayCall(1, "red", 2, "right", "before")),
        ("Play 3, Black", PlayCall(3, "black")),
        ("play 1 red 2 right", PlayCall(1, "red", 2, "right", "before")),
        ("P2 pass after", PlayCall(2, "red", 0, None, "after")),
        ("play two run", PlayCall(2, "black")),
        ("3 black 1 left after", PlayCall(3, "black", 1, "left", "after")),
        ("play 1 red 2r", PlayCall(1, "red", 2, "right")),
        ("play 1 red 1 left", PlayCall(1, "red", 1, "left")),
        ("play 1 red left 2", PlayCall(1, "red", 2, "left")),
        ("play 1 black after", PlayCall(1, "black")),  # a run with no lateral: timing is moot
        ("play 1 red 0 left", PlayCall(1, "red")),
        ("Heads", CoinCall("heads")),
        ("RECEIVE", KickChoice("receive")),
        ("Left, Yellow", KickPick("left", "yellow")),
        ("green right", KickPick("right", "green")),
        ("center colour red", KickPick("center", "red")),
        ("number seven", NumberPick(7)),
        ("7", NumberPick(7)),
        ("pick 10", NumberPick(10)),
        ("punt", Punt()),
    ],
)
def test_the_guides_wording_parses(text: str, action: Action) -> None:
    assert G.parse_action(text) == action


def test_a_direction_without_a_count_is_not_guessed() -> None:
    """'play 1 red left' does not say how many columns: the parser asks (the offline referee then lists
    the counts the play allows) rather than taking one."""
    with pytest.raises(InvalidActionError, match=re.escape("say how many columns left, e.g. 'play 1 red 2 left'")):
        G.parse_action("play 1 red left")


def test_the_forms_list_parses() -> None:
    for text in FORMS:
        assert str(G.parse_action(text)) == text


def test_a_long_input_is_quoted_shortened() -> None:
    with pytest.raises(InvalidActionError) as info:
        G.parse_action("x" * 5000)
    assert info.value.input is not None and len(info.value.input) <= 200


_VOCAB = [
    "play", "p1", "p4", "red", "black", "pass", "run", "left", "right", "l", "r", "2r", "3l", "before", "after",
    "heads", "tails", "kick", "receive", "center", "yellow", "green", "number", "pick", "#", "punt", "with", "lateral",
    "0", "1", "2", "3", "4", "9", "10", "11", "99999999999", "²", "١", "one", "ten", ",", ":", "colour", "-3", "1.5",
]


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.one_of(st.text(max_size=60), st.lists(st.sampled_from(_VOCAB), max_size=7).map(" ".join)))
def test_the_parser_only_ever_raises_invalid_action(text: str) -> None:
    try:
        a = G.parse_action(text)
    except InvalidActionError as exc:
        assert exc.rule == "GF-SYNTAX" and exc.input is not None and exc.legal
        return
    assert G.parse_action(str(a)) == a  # whatever it reads, it reads back the same


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=False) | st.sampled_from(["left", "red", "1", "after"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=4,
)


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    st.sampled_from(["coin_call", "kick_choice", "kick_pick", "number_pick", "punt", "play_call", "nope"]),
    st.dictionaries(
        st.sampled_from(["call", "choice", "position", "colour", "number", "play", "lateral", "direction", "timing", "x"]),
        _JSON,
        max_size=5,
    ),
)
def test_action_from_json_only_ever_raises_invalid_action(kind: str, fields: dict[str, Any]) -> None:
    try:
        a = G.action_from_json({"type": kind, **fields})
    except InvalidActionError:
        return
    assert G.action_from_json(a.to_json()) == a


def test_a_rules_file_overrides_only_the_plays_and_fields_it_names(tmp_path: Path) -> None:
    """[plays.2] in TOML changes play 2's lines it names and keeps every other play."""
    from gm.core import find_game

    f = tmp_path / "r.toml"
    f.write_text('[plays.2]\nwrong = { forward = 3, lateral = 0 }\n')
    rules = find_game("grid-football").load_rules_file(f)
    defaults = find_game("grid-football").default_rules()
    assert sorted(rules.plays) == [1, 2, 3, 4]
    assert rules.plays[2].wrong.forward == 3
    assert rules.plays[2].matched == defaults.plays[2].matched and rules.plays[2].name == "Interior Run"
    assert rules.plays[1] == defaults.plays[1] and rules.plays[4] == defaults.plays[4]
    # a new play number is added; a bad field is still one clear error naming it
    f.write_text('[plays.5]\nname = "Trick"\nwrong = { forward = 9, lateral = 1 }\nmatched = { forward = -5, lateral = 0 }\n')
    assert sorted(find_game("grid-football").load_rules_file(f).plays) == [1, 2, 3, 4, 5]
    f.write_text("[plays]\n4 = false\n")
    assert sorted(find_game("grid-football").load_rules_file(f).plays) == [1, 2, 3]
    f.write_text('[plays.2]\nwrong = { forward = "far", lateral = 0 }\n')
    with pytest.raises(RulesetError) as exc:
        find_game("grid-football").load_rules_file(f)
    assert "plays.2.wrong.forward" in exc.value.message
