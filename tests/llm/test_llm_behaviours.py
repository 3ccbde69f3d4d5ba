"""What a player reads when the model misbehaves, in every game: the real openai (and anthropic) SDK
over a scripted model server, at a position of each game's eval suite, with the player's words and the
call they mean.  A move is never claimed as fact without an accepted call, never applied twice
unless asked for, never made from a call shown in prose; lies about scores, squares and cells,
downs, first downs, game over and winners are overruled by the engine's account; moves made come
first; streamed narration adds up to what the player reads and never shows a false claim."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from llm_fakes import Call, Conv, FakeLLM, Raw, Say, Step, fixture
from llm_game import make_referee

from gm.core.registry import find_game
from gm.eval.suite import load_suite, start_session
from gm.referee.base import RefereeTurn, handle_streaming
from gm.referee.llm.referee import NO_MOVE, NO_TOOLS_FLAG, OVERRULED, REPEAT_NOTE, reminder
from gm.referee.offline import OfflineReferee
from gm.session import Session


@dataclass(frozen=True)
class Scene:
    """A position of a game's suite, the player's words there, and lies a model could tell after the move."""

    case: str
    lies: tuple[tuple[str, str, str], ...]  # (narration, the start of the check's finding, the false words in it)


SCENES = {
    "grid-football": Scene("gf-13", (
        ("Huge gain: the ball moves to K63.", "square K63", "K63"),
        ("That makes it 4th & 1.", "4th & 1", "4th"),
        ("home leads 7-0 now.", "score home leads 7-0", "leads"),
        ("TOUCHDOWN home!", "a touchdown", "TOUCHDOWN"),
    )),
    "gridmaster4": Scene("gm4-21", (
        ("You placed tile 2 at K12.", "orange's tile 2 at K12", "K12"),  # K12 holds orange's tile 1: on the board, not this move's
        ("orange leads 7 - 0.", "score orange leads 7-0", "leads"),
        ("magenta has 9 points.", "magenta 9 points", "9 points"),
        ("Game over: orange wins!", "the game is not over", "over"),
    )),
    "quarterback": Scene("qb-03", (
        ("red 5 - 0 blue.", "score red 5 - 0 blue", "5 - 0"),
        ("The quarterback moves to E1.", "square E1", "E1"),
        ("Tackled! red scores 5.", "scores 5", "Tackled"),
        ("Game over - blue wins!", "the game is not over", "over"),
    )),
    "brawl": Scene("br-33", (
        ("TOUCHDOWN home!", "a touchdown", "TOUCHDOWN"),
        ("home leads 7-0.", "score home leads 7-0", "leads"),
        ("That makes it 2nd & 3.", "2nd & 3", "2nd"),
        ("home wins the game!", "the game is not over", "wins"),
    )),
    "chess-football": Scene("cf-10", (
        ("First down!", "a first down", "First"),
        ("That makes it 3rd & 2.", "3rd & 2", "3rd"),
        ("away leads 7-0.", "score away leads 7-0", "leads"),
        ("Game over: away wins!", "the game is not over", "over"),
    )),
}
GAMES = sorted(SCENES)


@dataclass
class Table:
    session: Session
    seat: str
    words: str
    call: tuple[str, dict[str, Any]]
    fake: FakeLLM
    referee: Any

    def say(self, on_text: Any = None) -> RefereeTurn:
        if on_text is not None:
            return handle_streaming(self.referee, self.session, self.seat, self.words, on_text)
        turn: RefereeTurn = self.referee.handle(self.session, self.seat, self.words)
        return turn

    def moves(self) -> list[str]:
        return [str(m.action) for m in self.session.state.log if m.seat == self.seat]


def table(game: str, script: list[Step | Any], kind: str = "openai", **fake: Any) -> Table:
    scene = SCENES[game]
    g = find_game(game)
    case = next(c for c in load_suite(g) if c.id == scene.case)
    session = start_session(g, case)
    bot = FakeLLM(script=script, **fake)
    return Table(session, case.seat or g.seats[0], case.message, (str(case.tool), dict(case.args)), bot,
                 make_referee(kind, bot, max_retries=0))


def events(conv: Conv) -> Step:
    """A true narration: the engine's events of the last call, quoted."""
    return Say(". ".join(str(e) for e in (conv.tool_outputs or [{}])[0].get("events") or []) + ".")


def quoted(turn: RefereeTurn, i: int = 0) -> str:
    return ". ".join(str(t) for t in turn.calls[i].result.get("narration") or []) + "."


def as_json(call: tuple[str, dict[str, Any]]) -> str:
    return json.dumps({"name": call[0], "arguments": call[1]})


# ------------------------------------------------------------------ claims without a call
@pytest.mark.parametrize("game", GAMES)
def test_a_move_claimed_twice_without_a_call_is_never_shown(game: str) -> None:
    t = table(game, [Say("Done! I've made your move."), Say("All set: your move is in.")])
    status = t.session.game.status(t.session.state, t.seat)
    before = t.session.state.to_json()
    turn = t.say()
    assert turn.narration == f"{NO_MOVE} {status}"
    assert t.session.state.to_json() == before and turn.calls == [] and turn.invented == 2
    assert t.fake.requests[1]["body"]["messages"][-1] == {"role": "user", "content": reminder(t.words)}
    assert "Done" not in turn.narration and "your move is in" not in turn.narration


@pytest.mark.parametrize("game", GAMES)
def test_a_claim_then_the_call_makes_the_move_once(game: str) -> None:
    t = table(game, [Say("Done! I've made your move."), lambda conv: Call([t.call]), events])
    turn = t.say()
    assert len(t.moves()) == len(t.moves()[:]) and turn.accepted and [c.tool for c in turn.calls] == [t.call[0]]
    assert turn.narration == quoted(turn) and turn.invented == 1
    assert turn.flags == ["claimed-move: the model said 'Done' with no move accepted; reminded it that no move was made"]


# ------------------------------------------------------------------ a call repeated
@pytest.mark.parametrize("game", GAMES)
def test_a_repeated_call_is_not_applied_again(game: str) -> None:
    t = table(game, [])
    t.fake.queue.extend([Call([t.call]), Call([t.call]), lambda conv: Say("Made.")])
    before = len(t.moves())
    turn = t.say()
    assert len(t.moves()) == before + 1 and [c.tool for c in turn.calls] == [t.call[0]]
    back = json.loads(t.fake.requests[2]["body"]["messages"][-1]["content"])
    assert back == {"ok": True, "rule": "GM-REFEREE-REPEAT", "note": REPEAT_NOTE}
    assert turn.flags == [f"repeat-call: {t.call[0]} {json.dumps(t.call[1], sort_keys=True)} was already made for this message; "
                          "not made again"]
    assert turn.narration == "Made."


# ------------------------------------------------------------------ calls written as text
@pytest.mark.parametrize("game", GAMES)
def test_a_call_shown_in_prose_is_never_run(game: str) -> None:
    t = table(game, [])
    t.fake.queue.extend([Say(f"To make that move you would send {as_json(t.call)} - but only if you want it."),
                         Say("Which move do you want?")])
    before = t.session.state.to_json()
    turn = t.say()
    assert turn.calls == [] and t.session.state.to_json() == before
    assert turn.narration == "Which move do you want?"
    assert turn.flags[0] == (f"text-call-not-run: {t.call[0]} was written in the reply's text inside an example, an offer, a "
                             "question or a condition")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("shape", ["tool_call_tag", "bare_json", "fenced_json"])
def test_a_reply_that_is_the_call_alone_runs_on_a_server_with_tools(game: str, shape: str) -> None:
    t = table(game, [])
    text = {"tool_call_tag": f"<tool_call>\n{as_json(t.call)}\n</tool_call>", "bare_json": as_json(t.call),
            "fenced_json": f"```json\n{as_json(t.call)}\n```"}[shape]
    t.fake.queue.extend([Say(text), events])
    before = len(t.moves())
    turn = t.say()
    assert len(t.moves()) == before + 1 and turn.accepted and turn.flags == []
    assert turn.narration == quoted(turn)


@pytest.mark.parametrize("game", GAMES)
def test_a_server_without_tools_runs_the_json_protocol_but_not_an_example(game: str) -> None:
    t = table(game, [Raw(fixture("ollama_tools_unsupported_400"), 400)])
    t.fake.queue.extend([Say(f"For example, you could send {json.dumps({'tool': t.call[0], 'arguments': t.call[1]})}."),
                         Say("Tell me which move.")])
    before = t.session.state.to_json()
    turn = t.say()
    assert turn.calls == [] and t.session.state.to_json() == before and turn.narration == "Tell me which move."
    assert turn.flags[0] == NO_TOOLS_FLAG and "tools" not in t.fake.requests[1]["body"]
    t.fake.queue.extend([Say(f"Sending it now.\n{json.dumps({'tool': t.call[0], 'arguments': t.call[1]})}"), events])
    turn = t.say()
    assert turn.accepted and turn.narration == quoted(turn) and turn.flags == []


# ------------------------------------------------------------------ lies
@pytest.mark.parametrize("game", GAMES)
def test_lies_about_the_move_are_overruled_by_the_engine(game: str) -> None:
    for lie, finding, _ in SCENES[game].lies:
        t = table(game, [])
        t.fake.queue.extend([Call([t.call]), Say(lie)])
        turn = t.say()
        assert turn.accepted, lie
        assert turn.narration == f"{OVERRULED}\n{OfflineReferee.narrate(turn.calls[0].result)}", lie
        assert any(f.startswith(f"narration-check: {finding}") for f in turn.flags), (lie, turn.flags)
        assert f"model-narration: {lie}" in turn.flags and turn.invented == 1


# ------------------------------------------------------------------ the truth first
@pytest.mark.parametrize("game", GAMES)
def test_a_move_made_is_reported_first_whatever_was_refused_after(game: str) -> None:
    t = table(game, [])
    bad = (t.call[0], {"nonsense": True})
    t.fake.queue.extend([Call([t.call]), Call([bad]), Call([bad]), Call([bad])])
    turn = t.say()
    assert [c.ok for c in turn.calls] == [True, False, False, False]
    err = turn.calls[-1].result["error"]
    assert turn.narration == (f"{OfflineReferee.narrate(turn.calls[0].result)}\n(Then the engine refused 3 more calls of the referee "
                              f"model, so gm stopped it: [{err['rule']}] {err['reason']}. Nothing else changed.)")
    assert "rephrase" not in turn.narration


# ------------------------------------------------------------------ cut off
@pytest.mark.parametrize("game", GAMES)
def test_a_cut_off_reply_is_never_run(game: str) -> None:
    t = table(game, [Raw(fixture("openai_length_truncated_call")), Raw(fixture("openai_length_truncated_call"))])
    before = t.session.state.to_json()
    turn = t.say()
    assert turn.calls == [] and t.session.state.to_json() == before
    assert turn.narration == ("The referee model did not answer properly: its reply was cut off at its output token limit, twice. "
                              "Nothing changed in the game. Try a shorter message, or raise the server's output token limit "
                              "(--max-tokens).")


# ------------------------------------------------------------------ streaming
@pytest.mark.parametrize("kind", ["openai", "openai-responses", "anthropic"])
@pytest.mark.parametrize("game", GAMES)
def test_the_narration_streams_and_adds_up(game: str, kind: str) -> None:
    t = table(game, [], kind=kind)
    t.fake.queue.extend([Call([t.call]), events])
    parts: list[str] = []
    turn = t.say(parts.append)
    assert turn.accepted and turn.narration == quoted(turn) and "".join(parts) == turn.narration
    assert all(r["body"].get("stream") for r in t.fake.requests)


@pytest.mark.parametrize("game", GAMES)
def test_a_streamed_lie_is_never_shown(game: str) -> None:
    """The words before a false claim may show as they stream; the false claim never does: the
    stream stops there and the engine's account follows."""
    for lie, _, false in SCENES[game].lies:
        t = table(game, [])
        t.fake.queue.extend([Call([t.call]), Say(f"Here we go. {lie}")])
        parts: list[str] = []
        turn = t.say(parts.append)
        assert "".join(parts) == turn.narration, lie
        shown, sep, engine = turn.narration.partition(f"\n{OVERRULED}\n")
        assert sep and engine == OfflineReferee.narrate(turn.calls[0].result), lie
        assert f"Here we go. {lie}".startswith(shown) and shown.startswith("Here we go.") and false not in shown, (lie, shown)


@pytest.mark.parametrize("game", GAMES)
def test_a_streamed_claim_without_a_call_is_never_shown(game: str) -> None:
    t = table(game, [Say("Done! I've made your move."), Say("Done - your move is in.")])
    status = t.session.game.status(t.session.state, t.seat)
    parts: list[str] = []
    turn = t.say(parts.append)
    assert "".join(parts) == turn.narration == f"{NO_MOVE} {status}"
