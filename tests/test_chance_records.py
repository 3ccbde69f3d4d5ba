"""A session and its transcript record which chance generator they draw with, and replay with it (#36 item 7).

A new game draws from ``chacha20-v1`` and says so in its session header and its transcript header; a
game made with ``mt19937`` (every game made before generators were versioned) writes no ``chance``
field at all, so its files are as they always were, and a record without the field replays with
``mt19937``.  The field is what the replay goes by: the same files naming the other generator no
longer replay (brawl's deals and dice come out otherwise).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gm.core.chance import CHACHA20_V1, CURRENT, MT19937
from gm.core.tools import call_for_action
from gm.session import Session
from gm.transcript.replay import replay_path

RULES = {"rounds": 2}


def _finished(home: Path, chance: str | None) -> Session:
    """A hidden-seed brawl game, a human (random choices) against the default bot, played to its end."""
    s = Session.create("brawl", players={"home": "human", "away": "bot:default"}, home=home, id="g", rules=RULES, chance=chance)
    rng = random.Random(3)
    while not s.state.is_terminal:
        tool, args = call_for_action(s.tools, s.state.legal_actions("home").sample(rng))
        assert s.call(tool, args, "home")["ok"]
    return s


def _header(path: Path) -> dict[str, object]:
    first: dict[str, object] = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    return first


def _rewrite_header(path: Path, chance: str | None) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    head = json.loads(lines[0])
    head.pop("chance", None)
    if chance is not None:
        head["chance"] = chance
    path.write_text(json.dumps(head) + "\n" + "".join(lines[1:]), encoding="utf-8")


@pytest.mark.parametrize("chance", [None, CHACHA20_V1, MT19937], ids=["new", "chacha20-v1", "mt19937"])
def test_the_session_and_its_transcript_name_their_generator_and_replay_with_it(chance: str | None, tmp_path: Path) -> None:
    s = _finished(tmp_path, chance)
    made = chance or CURRENT
    assert CURRENT == CHACHA20_V1 and s.state.generator == made and s.state.draws > 0
    session_file = tmp_path / "sessions" / "g.jsonl"
    transcript = tmp_path / "transcripts" / "g.jsonl"
    for path in (session_file, transcript):
        head = _header(path)
        if made == MT19937:
            assert "chance" not in head, path  # (a legacy game's files, as they were)
        else:
            assert head["chance"] == CHACHA20_V1, path
        assert "supplied" not in head  # (nothing was supplied)

    again = Session.open("g", home=tmp_path)
    assert again.state.generator == made and again.state.to_json() == s.state.to_json()
    result = replay_path(transcript)
    assert result.ok, result.report()

    # the header's field is what the replay goes by: naming the other generator, the game is another
    _rewrite_header(transcript, CHACHA20_V1 if made == MT19937 else None)
    other = replay_path(transcript)
    assert not other.ok and "diverged at line 3: result of call c1 (home: play_cards" in other.report()  # (the first hand)


def test_the_same_seed_makes_another_game_under_each_generator(tmp_path: Path) -> None:
    """(What makes the test above able to fail: the generators differ on the game's own draws.)"""
    a = Session.create("brawl", seed=11, players={"home": "bot:default", "away": "bot:default"}, persist=False, record=False,
                       rules=RULES, chance=MT19937)
    b = Session.create("brawl", seed=11, players={"home": "bot:default", "away": "bot:default"}, persist=False, record=False,
                       rules=RULES, chance=CHACHA20_V1)
    assert a.state.is_terminal and b.state.is_terminal
    assert [str(m.action) for m in a.state.log] != [str(m.action) for m in b.state.log]
