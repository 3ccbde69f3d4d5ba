"""A human's locked pick stays secret from the other human (#15): two people at one keyboard (hot
seat) or two terminals of one OS user (``gm call``) share the gm home, so the transcript written so
far must not hold a pick before its reveal - neither the words typed nor the call that locked it.

The lines of a turn that leaves a human's pick secret are written sealed (AES-GCM under the session's
key, padded), and written in the clear, in their order, once the pick is revealed: a replay then sees
the whole game.  Attacked here as the other seat would: its whole world is identical between two
games that differ only in the first seat's locked pick; the pick's words appear nowhere in the files;
the sealed lines survive a new process (each ``gm call`` is one) and the finished transcript replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sec_helpers import assert_same_world, cli, masked, world

from gm.core.registry import find_game
from gm.session import SeedSecret, Session
from gm.transcript.format import Transcript
from gm.transcript.replay import replay

SID = "grid-football-0badc0de"
#: the two picks home may lock (the kick pick after away chose to receive, seed 1)
PICKS = ({"position": "left", "colour": "red"}, {"position": "right", "colour": "yellow"})


def _to_kick_picks(home: Path, seed: int | None = None) -> Session:
    """Both seats human, up to the kick picks; a hidden seed (pinned, so two games differ only in
    what the test does) unless ``seed`` makes it a practice game."""
    g = find_game("grid-football")
    secret = None if seed is not None else SeedSecret(seed=7, salt="5a" * 16, bot_seed=11, nonce_seed=None, practice=False)
    s = Session.create(g, seed=seed, secret=secret, players={seat: "human" for seat in g.seats}, home=home, id=SID)
    for _ in range(4):
        exp = s.expected()
        if any(e["decision"] == "kick_pick" for e in exp):
            return s
        e = exp[0]
        tool, seat = e["tools"][0], e["seat"]
        args = {"call_coin_toss": {"call": "heads"}, "choose_kick_or_receive": {"choice": "receive"}}[tool]
        assert s.call(tool, args, seat)["ok"]
    raise AssertionError("never reached the kick picks")


def _files(home: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(home.rglob("*")) if p.is_file())


def test_a_locked_human_pick_is_nowhere_the_other_seat_can_read(tmp_path: Path) -> None:
    worlds = []
    for i, pick in enumerate(PICKS):
        home = tmp_path / str(i)
        s = _to_kick_picks(home)
        shown = s.call("pick_kick", pick, "home")
        assert shown["ok"], shown
        text = f"{pick['position']} {pick['colour']}"
        assert text not in _files(home), "home's locked pick is readable in the gm home"
        worlds.append(masked(world(home, SID, "away", play=False), home))
    assert_same_world(worlds[0], worlds[1], "away's world while home's kick pick is locked")


def test_the_sealed_turn_is_written_in_the_clear_at_the_reveal_and_the_game_replays(tmp_path: Path) -> None:
    home = tmp_path
    s = _to_kick_picks(home, seed=1)  # a practice game: its transcript replays before the game ends
    code, out = cli(home, "call", SID, "pick_kick", '{"position": "left", "colour": "red"}', "--as", "home")
    assert code == 0, out
    transcript = home / "transcripts" / f"{SID}.jsonl"
    assert "left red" not in transcript.read_text(encoding="utf-8")
    # another process (another terminal): away's wrong call is sealed too, while home's pick is open
    code, out = cli(home, "call", SID, "pick_kick", '{"position": "middle", "colour": "red"}', "--as", "away")
    assert code != 0
    assert "left red" not in transcript.read_text(encoding="utf-8")
    code, out = cli(home, "call", SID, "pick_kick", '{"position": "right", "colour": "yellow"}', "--as", "away")
    assert code == 0, out
    text = transcript.read_text(encoding="utf-8")
    assert "left red" in text  # revealed: the held lines are written, in their order
    tr = Transcript.from_jsonl(text)
    calls = [(e.seat, e.tool, e.args) for e in tr.entries if e.type == "tool_call"]
    assert [c[:2] for c in calls[-3:]] == [("home", "pick_kick"), ("away", "pick_kick"), ("away", "pick_kick")]
    assert [e.id for e in tr.entries if e.type == "tool_call"] == [f"c{i}" for i in range(1, len(calls) + 1)]
    assert replay(tr, referee=False).ok
    del s


@pytest.mark.parametrize("typed", ["left red", "right yellow"])
def test_a_pick_typed_in_words_is_sealed_with_its_call(typed: str, tmp_path: Path) -> None:
    """Through the offline referee (what gm play does in hot seat): the words typed are held with the
    call they lead to, so they are sealed with it."""
    from gm.referee.offline import OfflineReferee

    s = _to_kick_picks(tmp_path)
    s.start_recording("offline")
    turn: Any = OfflineReferee().handle(s, "home", typed)
    assert turn.calls and turn.calls[-1].result["ok"]
    assert typed not in (tmp_path / "transcripts" / f"{SID}.jsonl").read_text(encoding="utf-8")
