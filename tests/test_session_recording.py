"""The session's recording collaborator (:class:`gm.session.recording.Recording`).

It starts the transcript once (a second start only names the referee), seals a human's pick in a
stored transcript while the pick is secret (never in memory, where nobody else reads it), records a
hidden seed exactly once when the game is over, and restarts on the stored transcript after a reload.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from gm.session import Session
from gm.session.recording import Recording

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session_helpers import human_to_act, legal_call


def _types(s: Session) -> list[str]:
    return [json.loads(line).get("type", "") for line in s.store.transcript_read(s.id)]


def test_start_is_once_and_a_second_start_names_the_referee(tmp_path: Path) -> None:
    s = Session.create("grid-football", seed=4, home=tmp_path, record=False)
    assert isinstance(s.recording, Recording) and s.recorder is None and s.transcript_location() is None
    rec = s.start_recording("offline", None, title="t")
    assert s.recorder is rec and s.start_recording("llm", "m") is rec
    assert s.transcript_location() is not None


def test_a_memory_session_never_seals_and_a_stored_one_does(tmp_path: Path) -> None:
    assert Session.create("grid-football", seed=4, persist=False).recording.sealing() is None
    stored = Session.create("grid-football", seed=4, home=tmp_path).recording.sealing()
    assert stored is not None and stored.open(stored.seal(["a", "b"])) == ["a", "b"]


def test_a_human_pick_is_sealed_while_secret(tmp_path: Path) -> None:
    """Grid Football's play calls are simultaneous: home's call is secret until away calls."""
    s = Session.create("grid-football", seed=5, home=tmp_path)
    rng = random.Random(5)
    assert not s.recording.human_secret_open()
    while not s.book.open:  # play until a seat's pick is locked
        seat = human_to_act(s)[0]
        name, args = legal_call(s, seat, rng)
        assert s.call(name, args, seat)["ok"]
    locked = s.book.open[0]
    assert s.recording.human_secret_open()
    assert _types(s)[-1] == "sealed"
    assert str(s.state.log[locked.index].action) not in "".join(s.store.transcript_read(s.id)[-1:])
    while s.book.open:
        seat = human_to_act(s)[0]
        name, args = legal_call(s, seat, rng)
        assert s.call(name, args, seat)["ok"]
    assert not s.recording.human_secret_open() and "unsealed" in _types(s)


def test_a_hidden_seed_is_recorded_once_at_the_end(tmp_path: Path) -> None:
    s = Session.create("brawl", players={"home": "bot", "away": "bot"}, home=tmp_path)
    assert s.state.is_terminal and not s.practice
    assert _types(s).count("seed") == 1 and s.recording.seed_recorded
    s.recording.progress()
    assert _types(s).count("seed") == 1
    again = Session.open(s.id, home=tmp_path)
    assert again.recording.seed_recorded
    again.recording.progress()
    assert _types(again).count("seed") == 1


def test_restart_continues_the_stored_transcript(tmp_path: Path) -> None:
    s = Session.create("grid-football", seed=6, home=tmp_path)
    rng = random.Random(6)
    seat = human_to_act(s)[0]
    name, args = legal_call(s, seat, rng)
    assert s.call(name, args, seat)["ok"]
    first = s.recorder
    s.recording.restart()
    assert s.recorder is not None and s.recorder is not first
    seat = human_to_act(s)[0]
    name, args = legal_call(s, seat, rng)
    assert s.call(name, args, seat)["ok"]
    calls = [json.loads(line) for line in s.store.transcript_read(s.id) if '"type":"tool_call"' in line]
    assert len(calls) == 2 and calls[0]["id"] != calls[1]["id"]
    unrecorded = Session.create("grid-football", seed=6, persist=False, record=False)
    unrecorded.recording.restart()
    assert unrecorded.recorder is None
