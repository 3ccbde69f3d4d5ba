"""Play action: the hidden ball marker, its return, wrapping up, the counter - and that the
defense never learns where the ball is before it is revealed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cf_helpers import G, at, defense_turn, field, kinds, reaction, rejects, start, texts

from gm.core import GameError
from gm.games.chess_football.bots import DefaultBot, RandomBot
from gm.games.chess_football.engine import ChessFootballState
from gm.session import Session


def hidden(holder: str, **spots: str) -> ChessFootballState:
    """Turn 2, offense to act: the QB has run play action with ST1; ``holder`` secretly has the ball."""
    s = reaction(start(), **spots)
    s.apply("home", f"play action ST1 ball {holder}")
    return s


@pytest.mark.rules("CF-PLAY-ACTION", "CF-R-HEAVY")
def test_play_action_needs_the_qb_with_the_ball_next_to_a_non_heavy_ally() -> None:
    s = reaction(start())
    rejects(s, "home", "play action HV1 ball HV1", "CF-PLAY-ACTION")  # G12 is next to H11 but a Heavy
    rejects(s, "home", "play action FA2 ball FA2", "CF-R-ADJACENT")
    rejects(s, "home", "play action ST1 ball FA1", "CF-PA-RETURN")
    events = s.apply("home", "play action ST1 ball ST1")
    assert "play_action" in kinds(events) and "ST1" in texts(events)
    assert s.view("away")["ball"] == {"hidden": True, "candidates": ["QB", "ST1"]}
    assert s.view("home")["ball"] == {"carrier": "ST1", "square": "H12", "position": "C", "hidden": True, "candidates": ["QB", "ST1"]}
    t = reaction(start(), FA1="C16")
    field(t).carrier = "FA1"
    rejects(t, "home", "play action FA2 ball FA2", "CF-PLAY-ACTION")  # the carrier is no QB


@pytest.mark.rules("CF-R-PA")
def test_play_action_once_per_down_before_the_pass_holder_chosen_once_per_turn() -> None:
    s = hidden("QB")
    rejects(s, "home", "play action ST1 ball QB", "CF-R-PA")
    s.apply("home", "ball ST1")
    rejects(s, "home", "ball QB", "CF-R-PA")
    t = reaction(start())
    rejects(t, "home", "ball QB", "CF-PA-RETURN")  # nothing hidden
    t.apply("home", "QB pass to FA1")
    rejects(t, "home", "play action ST1 ball ST1", "CF-R-PA")  # after the pass


@pytest.mark.rules("CF-PA-RETURN", "CF-R-PA")
def test_the_ball_is_revealed_on_the_holder_when_the_pair_separates() -> None:
    s = hidden("ST1")
    defense_turn(s)
    s.apply("away", "done")  # turn 3
    s.apply("home", "ball QB")  # the team chooses who holds the ball ...
    events = s.apply("home", "ST1 to H13 NE")  # ... then the pair separates: revealed
    assert "reveal" in kinds(events) and "QB has it" in texts(events)
    assert s.view("away")["ball"]["carrier"] == "QB"


@pytest.mark.rules("CF-R-PA", "CF-PA-RETURN")
def test_a_pass_reveals_the_ball() -> None:
    s = hidden("QB", FA1="C16")
    events = s.apply("home", "QB pass to FA1")
    assert "reveal" in kinds(events) and not field(s).hidden
    t = hidden("ST1")
    rejects(t, "home", "QB pass to FA1", "CF-PASS")  # the QB does not have it


@pytest.mark.rules("CF-R-PA-TACKLE", "CF-PA-COUNTER", "CF-SACK")
def test_wrapping_up_one_keeps_the_secret_both_default_to_the_qb() -> None:
    for holder in ("QB", "ST1"):
        s = defense_turn(hidden(holder), FA3="F11", RU="J12")
        events = s.apply("away", "RU to H11 C")  # the QB's position
        assert kinds(events)[-1] == "wrap" and s.phase == "defense_turn"
        assert field(s).hidden and at(s, "RU") == "H11 NW"
        events = s.apply("away", "HV3 to H12 C")  # ST1's position: both wrapped up
        assert "ball defaults to QB" in texts(events) and "sack" in kinds(events)
        assert s.down == 2 and s.los == 11


@pytest.mark.rules("CF-R-PA-TACKLE")
def test_a_wrapped_piece_is_out_of_the_down_and_a_wrapped_holder_is_tackled_when_revealed() -> None:
    s = defense_turn(hidden("QB"), RU="J12")
    s.apply("away", "RU to H11 C")
    s.apply("away", "done")
    rejects(s, "home", "QB to H10 C", "CF-R-PA-TACKLE")
    events = s.apply("home", "ST1 to H13 C")  # the pair separates: the QB had it - and is wrapped up
    assert "reveal_tackle" in kinds(events) and s.down == 2
    t = defense_turn(hidden("ST1"), RU="J12")
    t.apply("away", "RU to H11 C")
    t.apply("away", "done")
    t.apply("home", "ST1 to I13 C")  # the holder runs free
    assert t.phase == "offense_turn" and field(t).carrier == "ST1" and not field(t).hidden


# ----------------------------------------------------------------- hidden information
BAD = ("QB pass to FA1", "RU to H11 C", "ball QB", "HV3 push ST1", "FA3 to Z99 C", "SF react", "plan: hold", "done")


def _errors(s: ChessFootballState, seat: str) -> list[Any]:
    out = []
    for text in BAD:
        try:
            s.validate(seat, text)
            out.append("ok")
        except GameError as exc:
            out.append(exc.to_json())
    return out


def _defense_sees(s: ChessFootballState) -> str:
    parts: dict[str, Any] = {
        "view": s.view("away"),
        "spectator": s.view(None),
        "status": G.status(s, "away"),
        "window": G.render(s, "away"),
        "full": G.render(s, "away", full=True),
        "spectator_board": G.render(s, None),
        "legal": [str(a) for a in s.legal_actions("away")],
        "errors": _errors(s, "away"),
        "decision": s.decision("away"),
        "random_bot": str(RandomBot(5).choose(s, "away")) if "away" in s.to_act() else None,
        "default_bot": str(DefaultBot(5).choose(s, "away")) if "away" in s.to_act() else None,
    }
    return json.dumps(parts, sort_keys=True, default=str)


@pytest.mark.rules("CF-PLAY-ACTION", "CF-R-PA", "CF-R-ESCORT")
def test_the_defense_never_learns_the_holder_before_the_reveal() -> None:
    a, b = hidden("QB"), hidden("ST1")
    assert a.snapshot() != b.snapshot()
    assert _defense_sees(a) == _defense_sees(b)
    assert a.view("home")["ball"]["carrier"] == "QB" and b.view("home")["ball"]["carrier"] == "ST1"
    assert "QB@" in G.render(a, "home") and "ST1@" in G.render(b, "home")
    assert "QB?" in G.render(a, "away") and "st1?" not in G.render(a, "away") and "ST1?" in G.render(a, "away")
    for s in (a, b):
        defense_turn(s, RU="J12")
    assert _defense_sees(a) == _defense_sees(b)
    for s in (a, b):
        s.apply("away", "RU to H11 C")  # wrap one of them: still nothing given away
    assert _defense_sees(a) == _defense_sees(b)
    assert a.public_log("away") == b.public_log("away")


@pytest.mark.rules("CF-R-PA")
def test_tool_results_for_the_defense_do_not_show_the_holder() -> None:
    results = []
    for holder in ("QB", "ST1"):
        sess = Session.create("chess-football", seed=3, persist=False, players={"home": "human", "away": "human"})
        calls = [
            ("home", "choose_captains", {"offense": "deep_threat", "defense": "safety"}),
            ("away", "choose_captains", {"offense": "lead_blocker", "defense": "rusher"}),
        ]
        for seat, tool, args in calls:
            assert sess.call(tool, args, seat)["ok"]
        toss = sess.call("call_coin_toss", {"call": "heads"}, "away")
        assert toss["ok"]
        off = sess.state.offense
        de = "away" if off == "home" else "home"
        assert off is not None
        for seat in (off, de):
            assert sess.call("submit_snap_plan", {"rows": []}, seat)["ok"]
        res = sess.call("play_action", {"partner": "ST1", "holder": holder}, off)
        assert res["ok"], res
        seen = [res["events"], res["narration"]]
        for tool, args in (("get_board", {}), ("get_board", {"full": True}), ("get_status", {}), ("legal_actions", {}),
                           ("piece_options", {"piece": "HV3" if de == "away" else "HV1"})):
            r = sess.call(tool, args, de)
            r.pop("expected", None)
            seen.append(r)
        end = sess.call("end_turn", {}, off)
        seen += [end["events"], end["narration"]]
        results.append(json.dumps(seen, sort_keys=True))
        assert f"ball {holder}" not in results[-1]
    assert results[0] == results[1]


@pytest.mark.rules("CF-R-PA", "CF-PA-RETURN")
def test_a_plan_names_no_holder_the_offense_chooses_later() -> None:
    s = start()
    rejects(s, "home", "plan: play action ST1 ball ST1", "CF-R-PA")
    s.apply("home", "plan: play action ST1")
    s.apply("away", "plan: hold")
    f = field(s)
    assert f.hidden and f.carrier == "QB" and s.view("away")["ball"] == {"hidden": True, "candidates": ["QB", "ST1"]}
    assert "play action ST1" in s.last["home"] and "ball" not in s.last["home"]
    s.apply("home", "ball ST1")  # the hand-off, secretly
    assert f.carrier == "ST1" and s.view("away")["ball"] == {"hidden": True, "candidates": ["QB", "ST1"]}
    assert s.public_log("away")[-1] == ["home", "ball choice"]


@pytest.mark.rules("CF-R-PA", "CF-PA-RETURN")
def test_a_bots_play_action_is_logged_and_recorded_without_the_holder_until_the_reveal() -> None:
    """The holder is part of the offense's action: the defense's log shows ``play action ST1`` and
    ``ball choice`` while the ball is hidden (``secret_moves``), and a transcript writes the bot's
    move - with every later one - only once the ball is revealed, so it replays exactly."""
    from gm.transcript.replay import ReplayBot, replay

    script = ["captains deep_threat safety", "plan: hold", "play action ST1 ball ST1", "ball QB", "done",
              "ST1 to J13 C", "done"]
    sess = Session.create("chess-football", seed=0, persist=False, players={"home": "bot:random"},
                          bots={"home": ReplayBot(script)}, nonce_seed=0)
    rec = sess.recorder  # the session records every call and every bot move once it is public
    assert rec is not None

    def call(tool: str, args: dict[str, Any]) -> dict[str, Any]:
        res = sess.call(tool, args, "away")
        assert res["ok"], res
        return res

    def recorded() -> list[str]:
        return [e.action for e in rec.transcript.entries if e.type == "bot_move"]

    call("choose_captains", {"offense": "lead_blocker", "defense": "rusher"})
    call("call_coin_toss", {"call": "heads"})
    call("submit_snap_plan", {"rows": []})
    st = sess.state
    assert isinstance(st, ChessFootballState) and st.phase == "defense_turn" and field(st).hidden
    assert sess.log("away")[-3:] == [["home", "play action ST1"], ["home", "ball choice"], ["home", "done"]]
    assert sess.log("home")[-3][1] == "play action ST1 ball ST1"
    assert recorded() == ["captains deep_threat safety", "plan: hold"]  # the rest waits for the reveal
    text = json.dumps([e.model_dump() for e in rec.transcript.entries])
    assert "ball ST1" not in text and "ball QB" not in text
    call("end_turn", {})  # the ball moves; the bot's ST1 runs off: the pair separates, the ball is revealed on QB
    assert not field(st).hidden and field(st).carrier == "QB"
    assert sess.log("away")[-6:-3] == [["home", "play action ST1 ball ST1"], ["home", "ball QB"], ["home", "done"]]
    assert recorded() == script
    assert replay(rec.transcript).ok


@pytest.mark.rules("CF-R-PA")
def test_a_recording_that_ends_while_the_ball_is_hidden_writes_the_public_form_and_replays() -> None:
    from gm.transcript.replay import ReplayBot, replay

    script = ["captains deep_threat safety", "plan: hold", "play action ST1 ball ST1", "ball QB", "done"]
    sess = Session.create("chess-football", seed=0, persist=False, players={"home": "bot:random"},
                          bots={"home": ReplayBot(script)}, nonce_seed=0)
    rec = sess.recorder
    assert rec is not None
    for tool, args in (("choose_captains", {"offense": "lead_blocker", "defense": "rusher"}),
                       ("call_coin_toss", {"call": "heads"}), ("submit_snap_plan", {"rows": []})):
        sess.call(tool, args, "away")
    st = sess.state
    assert isinstance(st, ChessFootballState) and field(st).hidden  # the recording ends here
    rec.sync_bot_moves(sess, final=True)
    moves = [e.action for e in rec.transcript.entries if e.type == "bot_move"]
    assert moves == ["captains deep_threat safety", "plan: hold", "play action ST1", "ball choice", "done"]
    assert replay(rec.transcript).ok  # a stand-in for the secret: nothing recorded depends on it
