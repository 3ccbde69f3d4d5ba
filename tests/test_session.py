"""Sessions: create/open, the single entry point ``call``, persistence, corrupt files, sides."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from session_helpers import human_to_act, legal_call, play_randomly

from gm.core.errors import GameError, StateError
from gm.session import Session, commitment, verify


def _new(tmp_path: Path, **kw: object) -> Session:
    kw.setdefault("players", {"home": "human", "away": "bot:random"})
    return Session.create("grid-football", seed=kw.pop("seed", 1), home=tmp_path, bot_seed=7, **kw)  # type: ignore[arg-type]


def test_create_writes_header_and_open_rebuilds_the_same_state(tmp_path: Path) -> None:
    s = _new(tmp_path)
    assert s.path is not None and s.path.parent == tmp_path / "sessions"
    header = json.loads(s.path.read_text().splitlines()[0])
    assert header["format"] == "gm-session" and header["game"] == "grid-football"
    assert header["seed"] == 1 and header["players"] == {"home": "human", "away": "bot:random"}
    assert len(header["rules_hash"]) == 64
    rng = random.Random(3)
    for _ in range(12):
        if s.state.is_terminal:
            break
        seat = human_to_act(s)[0]
        name, args = legal_call(s, seat, rng)
        assert s.call(name, args, seat)["ok"]
    again = Session.open(s.id, home=tmp_path)
    assert again.state.snapshot() == s.state.snapshot()
    assert again.state.to_json() == s.state.to_json()
    assert again.commitments() == s.commitments()
    assert again.log("home") == s.log("home")
    assert Session.open(s.path).id == s.id  # by path
    assert Session.open(s.id[:-2], home=tmp_path).id == s.id  # by unique prefix


def test_default_home_is_gm_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GM_HOME", str(tmp_path / "h"))
    s = Session.create("gf", seed=0)
    assert s.path == tmp_path / "h" / "sessions" / f"{s.id}.jsonl"
    assert Session.open(s.id).id == s.id


def test_accepted_action_result_shape(tmp_path: Path) -> None:
    # away (bot) calls the toss: find a seed where home wins it
    s = next(x for seed in range(20) if (x := Session.create("gf", seed=seed, players={"away": "bot:random"}, persist=False, bot_seed=7)).expected()[0]["decision"] == "kick_choice")
    assert s.expected() == [{"seat": "home", "decision": "kick_choice", "tools": ["choose_kick_or_receive"], "player": "human"}]
    assert "board" not in s.call("get_status", {}, "home")  # queries and actions carry a board only when asked
    r = s.call("choose_kick_or_receive", {"choice": "receive"}, "home", board=True)
    assert r["ok"] is True and r["kind"] == "action" and r["tool"] == "choose_kick_or_receive"
    assert r["seat"] == "home" and r["action"] == "receive"
    assert r["events"][0]["kind"] == "kick_choice" and r["events"][0]["rule"] == "GF-TOSS"
    assert r["narration"][0] == "home chooses to receive: away kicks off"
    assert r["narration"][-1] == "away is locked in"  # the bot committed its kick pick first
    assert set(r["commitments"]) == {"away"} and len(r["commitments"]["away"]) == 64
    assert r["expected"] == [{"seat": "home", "decision": "kick_pick", "tools": ["pick_kick"], "player": "human"}]
    assert "A B C D E F G H I J K L M N O P Q R S T" in r["board"]
    assert r["status"].startswith("Q1 | 15 downs left | kickoff")
    assert r["reveal"] == {} and r["outcome"] is None
    json.dumps(r)
    r2 = s.call("pick_kick", {"position": "left", "colour": "red"}, "home")
    rev = r2["reveal"]["away"]
    assert rev["commitment"] == r["commitments"]["away"] and rev["verified"] is True
    assert commitment(rev["choice"], rev["nonce"]) == rev["commitment"] and verify(rev)
    assert any(e["kind"] == "kick_reveal" and rev["choice"] in e["text"] for e in r2["events"])


def _home_chooses(tmp_path: Path) -> Session:
    """A persisted session where home (human) won the toss and must choose kick or receive."""
    for seed in range(50):
        s = _new(tmp_path, seed=seed)
        if s.expected()[0]["decision"] == "kick_choice":
            return s
    raise AssertionError("no seed")


def test_rejected_calls_change_nothing_and_say_why(tmp_path: Path) -> None:
    s = _home_chooses(tmp_path)
    before = (s.state.to_json(), s.state.snapshot(), s.path.read_bytes() if s.path else b"")
    cases = [
        ("no_such_tool", {}, "home", "CORE-TOOL"),
        ("call_play", {"play": 1, "colour": "red"}, "home", "GF-R-DECISION"),  # wrong phase
        ("call_play", {"play": 1}, "home", "CORE-ARGS"),  # missing
        ("call_play", {"play": 1, "colour": "red", "speed": 3}, "home", "CORE-ARGS"),  # extra
        ("call_play", {"play": "1", "colour": "red"}, "home", "CORE-ARGS"),  # wrong type
        ("call_play", {"play": True, "colour": "red"}, "home", "CORE-ARGS"),
        ("call_play", {"play": 12, "colour": "red"}, "home", "CORE-ARGS"),  # out of range
        ("pick_number", {"number": 0}, "home", "CORE-ARGS"),
        ("choose_kick_or_receive", {"choice": "kick"}, "away", "CORE-SEAT"),  # the bot's seat
        ("choose_kick_or_receive", {"choice": "kick"}, "referee", "CORE-SEAT"),
        ("choose_kick_or_receive", {"choice": "kick"}, None, "CORE-SEAT"),  # actions need a side
        ("choose_kick_or_receive", "{not json", "home", "CORE-ARGS"),
        ("choose_kick_or_receive", "[1, 2]", "home", "CORE-ARGS"),
        ("get_board", {"full": "yes"}, "home", "CORE-ARGS"),
        ("get_square", {"square": "K200"}, "home", "CORE-ARGS"),
        ("get_status", {}, "away", "CORE-SEAT"),  # never the bot's view
    ]
    for tool, args, seat, rule in cases:
        r = s.call(tool, args, seat)
        assert r["ok"] is False, (tool, args, seat)
        assert r["error"]["rule"] == rule, (tool, args, seat, r["error"])
        assert r["error"]["reason"] and "legal" in r["error"]
        assert r["expected"][0]["seat"] == "home"
        json.dumps(r)
        assert (s.state.to_json(), s.state.snapshot(), s.path.read_bytes() if s.path else b"") == before
    assert s.call("no_such_tool", {}, "home")["error"]["legal"][:2] == ["get_board", "get_status"]
    assert s.call("call_play", {"play": 1}, "home")["error"]["reason"] == "colour: missing (required)"


def test_null_for_optional_arguments_means_default(tmp_path: Path) -> None:
    """OpenAI strict mode sends every field; null = the default."""
    s = _new(tmp_path, players={"home": "human", "away": "human"}, seed=2)
    r = s.call("get_board", {"full": None}, "home")
    assert r["ok"] and " of 64; blocked here" in r["board"]  # the window, not the full board
    assert s.call("get_rules", '{"topic": null}', None)["ok"]


def test_queries_are_views_of_the_calling_side(tmp_path: Path) -> None:
    s = _new(tmp_path, players={"home": "human", "away": "human"}, seed=2)
    rng = random.Random(0)
    while s.state.phase != "play":  # type: ignore[attr-defined]
        seat = human_to_act(s)[0]
        s.call(*legal_call(s, seat, rng), seat)
    offense = s.state.offense  # type: ignore[attr-defined]
    r = s.call("call_play", {"play": 1, "colour": "red", "lateral": 2, "direction": "right", "timing": "after"}, offense)
    assert r["ok"] and r["action"] == "play 1 red 2 right after"
    other = "away" if offense == "home" else "home"
    mine, theirs, spectator = s.view(offense), s.view(other), s.view(None)
    assert mine["state"]["pending"] == {offense: "play 1 red 2 right after"}
    assert theirs["state"]["pending"] == {offense: "locked"}
    assert spectator["state"]["pending"] == {offense: "locked"}
    assert theirs["log"][-1] == [offense, "locked"] and mine["log"][-1] == [offense, "play 1 red 2 right after"]
    for tool, args in (("get_status", {}), ("get_board", {"full": True}), ("legal_actions", {}), ("get_square", {"square": "K20"})):
        for seat in (other, None):
            assert "right after" not in json.dumps(s.call(tool, args, seat)), (tool, seat)
    legal = s.call("legal_actions", {}, other)
    assert legal["decision"] == "play_call" and "play 3 black" in legal["legal"]
    assert "play 1 red 2 right after" in json.dumps(s.call("get_status", {}, offense))


def test_get_square_and_rules_queries(tmp_path: Path) -> None:
    s = _new(tmp_path)
    assert s.call("get_square", {"square": "k3"}, "home")["zone"] == "end zone (home defends)"
    assert s.call("get_square", {"square": "A59"}, "home")["zone"] == "goal line (away defends)"
    assert s.call("get_square", {"square": "Z9"}, "home")["on_board"] is False
    assert set(s.call("get_rules", {"topic": "blocked"}, None)["rules"]) >= {"GF-BLOCK"}
    assert list(s.call("get_rules", {"topic": "gf-play4-lock"}, None)["rules"]) == ["GF-PLAY4-LOCK"]


def test_players_and_bots(tmp_path: Path) -> None:
    s = _new(tmp_path)
    assert s.human_seats == ["home"] and s.bot_seats == ["away"]
    assert Session.create("gf", persist=False, players={"away": "bot"}).players["away"].startswith("bot:")
    with pytest.raises(GameError, match="CORE-BOT"):
        Session.create("gf", persist=False, players={"away": "bot:nope"})
    with pytest.raises(GameError, match="CORE-PLAYER"):
        Session.create("gf", persist=False, players={"away": "robot"})
    with pytest.raises(GameError, match="CORE-SEAT"):
        Session.create("gf", persist=False, players={"north": "human"})


def test_bot_vs_bot_session_plays_itself_out(tmp_path: Path) -> None:
    s = _new(tmp_path, players={"home": "bot:random", "away": "bot:random"})
    assert s.state.is_terminal and s.expected() == [] and s.commitments() == {}
    assert Session.open(s.path).state.outcome == s.state.outcome  # type: ignore[arg-type]


def test_whole_game_human_vs_bot_and_reopen_each_move(tmp_path: Path) -> None:
    s = _new(tmp_path, seed=11)
    rng = random.Random(11)
    play_randomly(s, rng)
    assert s.state.is_terminal
    assert Session.open(s.path).state.to_json() == s.state.to_json()  # type: ignore[arg-type]
    for rev in s.reveals():
        assert verify(rev)


def test_corrupt_and_foreign_files_give_one_clear_error(tmp_path: Path) -> None:
    s = _new(tmp_path)
    assert s.path is not None
    lines = s.path.read_text().splitlines(keepends=True)
    cases = {
        "empty.jsonl": "",
        "text.jsonl": "hello world\n",
        "json.jsonl": '{"format": "something-else"}\n',
        "newer.jsonl": json.dumps({**json.loads(lines[0]), "version": 99}) + "\n",
        "badgame.jsonl": json.dumps({**json.loads(lines[0]), "game": "no-such-game"}) + "\n",
        "hash.jsonl": json.dumps({**json.loads(lines[0]), "rules_hash": "0" * 64}) + "\n",
        "middle.jsonl": lines[0] + "{broken\n" + "".join(lines[1:]),
        "illegal.jsonl": lines[0] + json.dumps({"seat": "home", "action": "play 4 red"}) + "\n",
    }
    (tmp_path / "binary.jsonl").write_bytes(b"\xff\xfe\x00\x01\n")
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    for name in [*cases, "binary.jsonl"]:
        with pytest.raises(StateError) as info:
            Session.open(tmp_path / name)
        msg = info.value.message
        assert "\n" not in msg and str(tmp_path / name) in msg, msg
    with pytest.raises(StateError, match="no session"):
        Session.open("nope", home=tmp_path)
    with pytest.raises(StateError, match="directory"):
        Session.open(tmp_path)


def test_torn_last_line_is_dropped_and_the_session_goes_on(tmp_path: Path) -> None:
    s = _home_chooses(tmp_path)
    assert s.path is not None
    good = s.path.read_bytes()
    with open(s.path, "ab") as f:
        f.write(b'{"seat":"home","act')  # a write cut short by a kill
    again = Session.open(s.path)
    assert again.state.to_json() == s.state.to_json()
    assert again.call("choose_kick_or_receive", {"choice": "kick"}, "home")["ok"]
    data = s.path.read_bytes()
    assert data.startswith(good) and b'"act\n' not in data and b'"act{' not in data
    assert Session.open(s.path).state.to_json() == again.state.to_json()


WRITER = textwrap.dedent(
    """
    import random, sys
    sys.path.insert(0, {tests!r})
    from session_helpers import human_to_act, legal_call
    from gm.session import Session
    rng = random.Random(int(sys.argv[2]))
    while True:
        s = Session.create("grid-football", seed=rng.randrange(1000), home=sys.argv[1],
                           players={{"home": "human", "away": "bot:random"}})
        while not s.state.is_terminal:
            seat = human_to_act(s)[0]
            r = s.call(*legal_call(s, seat, rng), seat)
            assert r["ok"], r
            print("ACK", s.path, len(s.state.log), flush=True)
    """
)


@pytest.mark.parametrize("round_", range(3))
def test_killing_a_writer_mid_game_loses_nothing_acknowledged(tmp_path: Path, round_: int) -> None:
    script = tmp_path / "writer.py"
    script.write_text(WRITER.format(tests=str(Path(__file__).parent)))
    proc = subprocess.Popen(
        [sys.executable, str(script), str(tmp_path / "home"), str(round_)], stdout=subprocess.PIPE, text=True
    )
    acked: dict[str, int] = {}
    assert proc.stdout is not None
    stop_after = random.Random(round_).randrange(30, 400)
    for _ in range(stop_after):
        line = proc.stdout.readline()
        assert line.startswith("ACK"), line
        _, path, n = line.split()
        acked[path] = int(n)
    os.kill(proc.pid, signal.SIGKILL)  # at whatever point the writer happens to be
    proc.wait()
    proc.stdout.close()
    assert acked
    for path, n in acked.items():
        s = Session.open(path)
        assert len(s.state.log) >= n
        assert s.state.replay().to_json() == s.state.to_json()


def test_two_writers_on_one_session_never_fork_it(tmp_path: Path) -> None:
    """A stale Session object (another process moved since it read the file) reads the new moves
    first, under the write lock, and judges the call on the current game: a move made for the old
    position is answered as the game now stands; the file stays one consistent log."""
    a = _new(tmp_path, players={"home": "human", "away": "human"}, seed=2)
    b = Session.open(a.path)  # type: ignore[arg-type]
    rng = random.Random(1)
    seat = human_to_act(a)[0]
    old = legal_call(b, seat, random.Random(1))
    assert a.call(*legal_call(a, seat, rng), seat)["ok"]
    stale = b.call(*old, seat)
    assert b.state.to_json() == a.state.to_json()  # caught up; the old-position move was not made
    assert stale["ok"] is False and stale["error"]["rule"] != "CORE-SESSION"
    seat = human_to_act(b)[0]
    assert b.call(*legal_call(b, seat, rng), seat)["ok"]
    assert Session.open(a.path).state.to_json() == b.state.to_json()  # type: ignore[arg-type]
