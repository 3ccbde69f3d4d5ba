"""GF-R-PUNT: a punt voids the defense's locked call, which is then never revealed."""

from __future__ import annotations

from pathlib import Path

from gm.referee.offline import tool_call_for
from gm.session import Session
from gm.transcript.record import record_script
from gm.transcript.replay import replay


def _to_home_offense(s: Session) -> None:
    """Play simple legal choices for home until home is on offense and must call a play."""
    for _ in range(500):
        st = s.state
        if st.offense == "home" and st.decision("home") == "play_call":
            return
        action = next(iter(st.legal_actions("home")))
        tool, args = tool_call_for(s.game, st, "home", action)  # type: ignore[misc]
        assert s.call(tool, args, "home")["ok"]
    raise AssertionError("home never got the ball")


def test_the_bot_defense_call_voided_by_a_punt_is_never_revealed(tmp_path: Path) -> None:
    s = Session.create(
        "grid-football", seed=3, rules={"punt_downs": [1, 2, 3, 4]}, players={"away": "bot:random"}, home=tmp_path, bot_seed=5
    )
    _to_home_offense(s)
    assert "away" in s.commitments()  # the bot defense has locked its call
    locked_index = len(s.state.log) - 1
    res = s.call("punt", {}, "home")
    assert res["ok"]
    assert "away" not in res["reveal"]
    assert res["events"][0]["kind"] == "punt_called" and res["events"][0]["void"] == ["away"]
    assert s.log("home")[locked_index] == ["away", "voided"]
    assert all(r["index"] != locked_index for r in s.reveals())
    # reopening the file rebuilds the same view: still voided, still unrevealed
    again = Session.open(s.path)  # type: ignore[arg-type]
    assert again.log("home")[locked_index] == ["away", "voided"]
    assert again.state.snapshot() == s.state.snapshot()


def test_a_hot_seat_call_voided_by_a_punt_stays_hidden_and_transcripts_replay() -> None:
    lines = [("away", "heads"), ("away", "kick"), ("home", "left red"), ("away", "left red")]
    lines += [("away", "play 2 black"), ("home", "punt")]
    tr = record_script("grid-football", 1, lines, rules={"punt_downs": [1, 2, 3, 4]})
    results = [e.result for e in tr.entries if e.type == "tool_result" and e.result.get("tool") == "punt"]
    assert results and results[0]["ok"]
    assert "play 2 black" not in str(results[0])
    assert replay(tr).ok


def test_recorded_bot_game_with_a_voided_call_replays(tmp_path: Path) -> None:
    from gm.transcript.format import Transcript

    lines = [("home", x) for x in ["receive", "kick", "left red", "5"]] * 3 + [("home", "punt")]
    tr = record_script("grid-football", 3, lines, players={"away": "bot:random"}, rules={"punt_downs": [1, 2, 3, 4]})
    moves = [e.action for e in tr.entries if e.type == "bot_move"]
    path = tmp_path / "t.jsonl"
    tr.save(path)
    assert replay(Transcript.load(path)).ok, moves
