"""The LLM referee: player message -> model -> tool calls -> engine -> results -> model -> narration.

One loop for every provider (:mod:`gm.referee.llm.providers` adapts the wire
formats).  For each player message:

1. Table talk that needs no model (``quit``, ``undo``, ``board``, ``full board``,
   ``score``, ``help``) is answered at once through the tools, as the offline
   referee does.
2. Otherwise the model gets the system prompt (rendered from the ruleset), the
   tools of the game, a short recent history (the last few player messages and
   the narrations the player saw – never old tool traffic) and a *state block*
   (status line, the decision due, the latest public moves) followed by the
   player's words.  The engine holds the state, so the request stays the same size
   all game long.
3. Every tool call the model makes goes through ``session.call`` for the
   referee's seat (the model never picks the seat), is recorded, and its result
   goes back to the model in a compact form (``ok: false`` results carry the rule
   id, the reason and the legal options).  Calls per turn are capped; after
   ``max_failures`` rejected calls in a row the referee stops (the moves made this
   message first).  A call the same as one accepted for this message is not made
   again, unless the player's words ask for several moves (:func:`requested_moves`).
4. A reply in words, while no move was accepted for this message, that claims a
   move (:func:`gm.core.narration.move_claim`), skips the call the player's words
   ask for, or describes results the engine contradicts gets one reminder
   (:func:`reminder`); a move claimed again is never shown: the player reads that
   nothing happened, and the status.
5. The final text is the narration.  Anything board-like is cut out (gm prints the
   engine's board), and :func:`gm.referee.llm.check.check` compares its claims with
   the turn's engine events: on a contradiction the turn is flagged and the player
   sees the engine's version.  With ``on_text`` the narration streams as the model
   writes, each piece checked first (:mod:`gm.referee.llm.stream`).

What local models and OpenAI-compatible servers send is read too (see
:mod:`gm.referee.llm.textcalls`): calls written in the text (JSON, ``<tool_call>``
tags) run like structured ones when they are the whole reply, or on a server without
tool definitions when they are not shown inside explanation; reasoning (``reasoning_content``, ``<think>``) is
never narration nor a call; a server that refuses tool definitions gets the tools in
the prompt and a JSON-only protocol from then on; an empty reply gets one nudge, a
reply cut off at the token limit is never run and asked for once more; a model that
keeps calling tools is stopped at the cap.  Each time the player is told plainly.

Hidden information: a bot's pick is made and committed by the session before the
player's message is handled, and the model sees only what the player's seat may
see (results and views of that seat, no commitment hashes), so no request holds a
secret before its reveal.

Every model response is recorded as an ``llm_response`` entry (the SDK's
``model_dump()``; a failed request as ``{"gm_error": ...}``) with a ``usage`` entry,
so a transcript replays offline through :class:`gm.referee.llm.replay.ReplayProvider`.
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError, error_json
from gm.core.narration import move_claim
from gm.referee.base import RefereeTurn, TextSink, ToolCallRecord
from gm.referee.llm.check import Facts, check, strip_boards, turn_facts
from gm.referee.llm.prompts import rules_summary, session_system_prompt, text_tools_prompt
from gm.referee.llm.stream import NarrationStream
from gm.referee.llm.textcalls import tools_unsupported
from gm.referee.llm.types import (
    AssistantTurn,
    Item,
    LLMError,
    Reply,
    Request,
    ToolOutput,
    ToolOutputs,
    ToolUse,
    UserText,
)
from gm.referee.offline import _BOARD, _FULL, _STATUS, OfflineReferee, _clean, answered_by_gm, reads_as_move

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.tools import ToolSpec
    from gm.referee.llm.providers import Provider
    from gm.session import Session
    from gm.transcript.recorder import Recorder

#: generic queries the model does not need: gm prints the board and status itself,
#: and every request carries the status in its state block
HIDDEN_TOOLS = frozenset({"get_board", "get_status"})
CAP_RULE = "GM-REFEREE-CAP"
REPEAT_RULE = "GM-REFEREE-REPEAT"
EMPTY_NUDGE = "[gm] Your reply was empty. Answer the player: call the tool for a stated decision, or reply in words."
CUT_NUDGE = (
    "[gm] Your last reply was cut off at the output token limit and was discarded; nothing in it was done. "
    "Reply again, briefly: one tool call, or 1-3 short sentences."
)
NO_TOOLS_FLAG = "no-tools: the server takes no tool definitions; tools are described in the prompt and called as JSON"
NO_STREAM_FLAG = "no-streaming: the server refused a streamed request; replies are asked for whole from now on"
#: what the model is told when it repeats a call already made for this message
REPEAT_NOTE = "already done: this exact call was made for this message (its result is above); it was not made again"
NO_MOVE = "Nothing happened in the game: no move was made."
OVERRULED = "(The referee's account did not match the game engine; here is the engine's.)"


def reminder(words: str, *, text_call: bool = False, json_protocol: bool = False) -> str:
    """gm's one reminder to a model that answered a player's message with words and no accepted
    call: no move was made; call the tool or ask (``text_call``: its reply held a call written in
    its text, not run)."""
    how = "as the JSON object the tool protocol asks for" if json_protocol else "through the tools you were given"
    why = " A tool call written inside your text, beside other words, is not run." if text_call else ""
    return (
        f"[gm] No move was made: no tool call was accepted for this message, so nothing happened in the game.{why} "
        f"The player said: {_clip(words, 300)!r}. If that states a decision, call its tool now ({how}); otherwise ask "
        "the player what they want. Never say a move was made unless a tool call made it."
    )


#: "... and then ...", "; ", new lines: where a message may hold several moves
_SEVERAL = re.compile(r"\s*(?:[;\n]|,\s*(?:and\s+)?then\b|\band\s+then\b|\bthen\b|\band\b|,)\s*", re.I)
_AGAIN = re.compile(r"\b(?:again|too|as\s+well|once\s+more)\b", re.I)
_TIMES = re.compile(r"\b(twice|thrice|two\s+times|three\s+times|([2-9])\s*(?:x|times)|x\s*([2-9]))\b", re.I)


def requested_moves(game: Game, text: str) -> int:
    """How many moves the player's words ask for: one when the game's parser reads the whole message
    as a move ("MLB S3 BL, DT1 S3 SL, ..." is one lineup), else the parts it reads as moves ("play 2
    black, then play 2 black again"); times a count ("twice", "3 times"); at least 1."""
    parts = [_AGAIN.sub("", p) for p in _SEVERAL.split(text) if p and p.strip()]
    whole = len(parts) <= 1 or OfflineReferee.read_action(game, text) is not None  # one move, commas and all
    moves = 1 if whole else sum(1 for p in parts if p.strip() and OfflineReferee.read_action(game, p) is not None)
    times = 1
    for m in _TIMES.finditer(text):
        word = m.group(1).lower()
        n = int(m.group(2) or m.group(3) or 0) or (3 if word.startswith(("thrice", "three")) else 2)
        times = max(times, n)
    return max(1, moves) * times


def call_key(name: str, args: Any) -> str:
    """A call's identity: the tool and its arguments (same tool, same arguments: the same call)."""
    return json.dumps([name, args], sort_keys=True, separators=(",", ":"), default=str)


def model_tools(session: Session) -> list[ToolSpec]:
    """The tools offered to the model (every call is made for the referee's seat): the game's
    ``model_tools`` without the queries gm answers itself."""
    return [t for t in session.model_tools if t.name not in HIDDEN_TOOLS]


def tool_names(session: Session) -> dict[str, str]:
    """Session tool -> the model tool that stands in for it (a move-as-text tool's covered tools)."""
    return {c: t.name for t in session.model_tools for c in t.covers}


def _cap(items: Any, n: int) -> list[str]:
    items = [str(x) for x in items or []]
    return items if len(items) <= n else [*items[:n], f"... {len(items) - n} more"]


def _expected_text(expected: Any, names: Mapping[str, str] | None = None) -> str:
    """Who decides what, with the tools (as the model knows them: ``names`` maps a session tool to
    the model tool standing in for it)."""
    parts = []
    for e in expected or []:
        if isinstance(e, Mapping):
            decision = str(e.get("decision") or "move").replace("_", " ")
            tools = dict.fromkeys((names or {}).get(t, t) for t in e.get("tools") or [])
            parts.append(f"{e.get('seat')}: {decision} ({', '.join(tools)})")
    return "; ".join(parts) or "nobody"


def for_model(result: Mapping[str, Any], *, legal_cap: int = 24, names: Mapping[str, str] | None = None) -> str:
    """A tool result as the model sees it: compact JSON, no board, no commitment hashes (the tools
    due next named as the model knows them, see :func:`tool_names`)."""
    out: dict[str, Any]
    if not result.get("ok"):
        err = result.get("error") or {}
        out = {
            "ok": False,
            "rule": err.get("rule"),
            "reason": err.get("reason"),
            "input": err.get("input"),
            "legal": _cap(err.get("legal"), legal_cap),
            "status": result.get("status"),
        }
    elif result.get("kind") == "action":
        reveal = result.get("reveal") or {}
        out = {
            "ok": True,
            "action": result.get("action"),
            "events": result.get("narration"),
            "revealed": {s: r.get("choice") for s, r in reveal.items() if isinstance(r, Mapping)},
            "status": result.get("status"),
            "next": _expected_text(result.get("expected"), names),
            "outcome": result.get("outcome"),
        }
    else:
        skip = {"tool", "kind", "seat", "commitments", "expected"}
        out = {k: v for k, v in result.items() if k not in skip}
        if isinstance(out.get("legal"), list):
            out["legal"] = _cap(out["legal"], 60)
    return json.dumps({k: v for k, v in out.items() if v not in (None, {}, [])}, separators=(",", ":"), ensure_ascii=False)


def state_block(session: Session, seat: str, *, moves: int = 4) -> str:
    """The current state as the seat may see it: status, the decision due, latest public moves."""
    st = session.state
    lines = [f"[state for {seat}] {session.game.status(st, seat)}"]
    exp = session.expected(seat)
    names = tool_names(session)
    mine = [e for e in exp if e.get("seat") == seat]
    if mine:
        lines.append(f"{seat} decides now: {_expected_text(mine, names)}")
    elif st.is_terminal:
        lines.append("The game is over.")
    else:
        lines.append(f"Not {seat}'s move; waiting for {_expected_text(exp, names)}")
    locked = [who for who, text in session.log(seat) if text == "locked"]
    if locked:
        lines.append(f"{', '.join(sorted(set(locked)))} has locked a secret pick (hidden until the round is complete)")
    log = session.log(seat)[-moves:]
    if log:
        lines.append("Latest moves: " + "; ".join(f"{who}: {text}" for who, text in log))
    return "\n".join(lines)


@dataclass
class _Exchange:
    player: str
    narration: str
    events: tuple[Mapping[str, Any], ...] = ()

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(str(ev.get("kind")) for ev in self.events)


@dataclass
class _Message:
    """What one player message has done so far (the loop's bookkeeping)."""

    asked: int  # moves the player's words ask for
    before_status: str
    before_view: dict[str, Any]
    results: list[dict[str, Any]] = field(default_factory=list)
    done: Counter[str] = field(default_factory=Counter)  # accepted action calls by call_key
    failures: int = 0
    calls: int = 0
    reminded: bool = False
    retried: set[str] = field(default_factory=set)  # "empty", "cut": each asked again once
    last_error: dict[str, Any] | None = None


class LLMReferee:
    """A referee whose words come from a model and whose every effect goes through the tools."""

    #: :func:`gm.referee.base.handle_streaming` passes ``on_text`` to :meth:`handle`
    streams = True

    def __init__(
        self,
        provider: Provider,
        *,
        kind: str | None = None,
        max_tool_calls: int = 6,
        max_failures: int = 3,
        history_turns: int = 3,
        history_chars: int = 300,
        check_narration: bool = True,
    ) -> None:
        self.provider = provider
        self.kind = kind or provider.kind
        self.model: str | None = provider.model
        self.max_tool_calls = max_tool_calls
        self.max_failures = max_failures
        self.history_turns = history_turns
        self.history_chars = history_chars
        self.check_narration = check_narration
        self._history: dict[str, deque[_Exchange]] = {}
        self._system: dict[tuple[str, str], str] = {}
        #: the server refused tool definitions once: from then on tools are in the prompt (JSON protocol)
        self.text_tools = False
        #: the server refused a streamed request once: from then on replies are asked for whole
        self.no_streaming = False
        #: the server writes reasoning with no opening tag (a lone ``</think>``): streamed text waits for it
        self.reasoning_first = False
        #: requests made in the last handled turn (for tests and measurements)
        self.last_requests: list[Request] = []

    # ------------------------------------------------------------------ API
    def handle(self, session: Session, seat: str, text: str, *, on_text: TextSink | None = None) -> RefereeTurn:
        """Handle one message from ``seat``; every effect goes through ``session.call`` (which records it).
        ``on_text`` receives the narration as it is written (pieces adding up to ``turn.narration``;
        streamed from the model when the provider can, each piece checked before it is shown)."""
        turn = RefereeTurn(seat=seat, text=text)
        recorder = session.recorder
        if recorder:
            recorder.player(seat, text)
        if self._table_talk(session, turn, seat, recorder):
            if on_text is not None and turn.narration:
                on_text(turn.narration)
        else:
            gate = NarrationStream(on_text, seats=session.game.seats, reasoning_first=self.reasoning_first) if on_text else None
            self._converse(session, turn, seat, recorder, gate)
        if recorder and turn.narration:
            recorder.narration(turn.narration, seat=seat, flags=list(turn.flags))
        return turn

    # ----------------------------------------------------------- table talk
    def _table_talk(self, session: Session, turn: RefereeTurn, seat: str, recorder: Recorder | None) -> bool:
        words = _clean(turn.text)
        if reads_as_move(session, turn.text):  # the game's parser before table talk (a game's 's' may be a move)
            return False
        if answered_by_gm(turn, words, lambda: self.help_text(session, seat)):
            return True
        if words in _FULL or words in _BOARD:
            res = self._call(session, turn, "get_board", {"full": words in _FULL}, seat)
            turn.board = res.get("board")
        elif words in _STATUS:
            res = self._call(session, turn, "get_status", {}, seat)
            turn.narration = str(res.get("status", ""))
        else:
            return False
        return True

    def help_text(self, session: Session, seat: str) -> str:
        examples = ", ".join(f"'{e}'" for e in session.game.move_examples[:4])
        moves = f"your move in the game's words ({examples})" if examples else "your move"
        return (
            f"You are playing {session.game.name} as {seat}, refereed by {self.kind} ({self.model}). "
            f"Say what you want in plain words: {moves}, or a question ('what can I do?', 'how does scoring work?').\n"
            "Answered by gm itself: 'board', 'full board', 'score', 'undo', 'help', 'quit'."
        )

    # ------------------------------------------------------------ the loop
    def _converse(self, session: Session, turn: RefereeTurn, seat: str, recorder: Recorder | None,
                  gate: NarrationStream | None) -> None:
        msg = _Message(requested_moves(session.game, turn.text), session.game.status(session.state, seat), self._view(session, seat))
        request = self._request(session, seat, self._history_items(seat))
        request.messages.append(UserText(f"{state_block(session, seat)}\n[{seat} says]\n{turn.text}"))
        self.last_requests = []
        narration: str | None = None
        own = False  # the narration is gm's own words (used as they are)
        intends = None  # whether the player's words read as a move of theirs (read once, when first needed)
        for _ in range(self.max_tool_calls + 4):
            if gate is not None:
                if intends is None:
                    intends = self._intends_move(session, seat, turn.text)
                facts = self._facts(session, seat, turn, msg)
                gate.begin(lambda text, f=facts: self._findings(text, f),  # type: ignore[misc]
                           hold=not turn.accepted and not msg.reminded and bool(intends))
            try:
                reply = self._ask(request, recorder, gate)
            except LLMError as exc:
                if gate is not None:
                    gate.drop()
                if request.tools and exc.status is not None and tools_unsupported(exc.message):
                    self.text_tools = True
                    turn.flags.append(NO_TOOLS_FLAG)
                    request = self._request(session, seat, request.messages)
                    continue
                if gate is not None and not self.no_streaming and _stream_refused(exc):
                    self.no_streaming = True
                    turn.flags.append(NO_STREAM_FLAG)
                    continue
                turn.flags.append(f"llm-error: {exc.kind}: {exc.message}")
                narration = self._engine_version(session, turn, seat) if turn.accepted else ""
                narration = (narration + "\n" if narration else "") + self._failure_text(session, turn, exc)
                own = True
                break
            self.reasoning_first = self.reasoning_first or reply.reasoning_first
            if reply.truncated:  # a half-written call is never run
                if gate is not None:
                    gate.drop()
                cut = f"cut-off: the reply hit the output token limit ({reply.stop}); nothing in it was run"
                if "cut" not in msg.retried:
                    msg.retried.add("cut")
                    turn.flags.append(f"{cut}; asked again")
                    request.messages.append(UserText(CUT_NUDGE))
                    continue
                turn.flags.append(cut)
                narration = self._gave_up(
                    session, turn, seat, "its reply was cut off at its output token limit, twice",
                    "Try a shorter message, or raise the server's output token limit (--max-tokens).",
                )
                own = True
                break
            run, unrun = self._runnable(reply, request)
            for use in unrun:
                where = ("inside an example, an offer, a question or a condition" if use.framed
                         else "beside other words (this server takes tools: a call in text is run only when it is the whole reply)")
                turn.flags.append(f"text-call-not-run: {use.name} was written in the reply's text {where}")
            said = reply.answer if unrun and not run else reply.text
            request.messages.append(AssistantTurn(said, tuple(run)))
            if not run:
                if not said.strip() and not turn.calls:
                    if gate is not None:
                        gate.drop()
                    if "empty" not in msg.retried:
                        msg.retried.add("empty")
                        turn.flags.append("empty-reply: the model answered nothing; asked again")
                        request.messages.append(UserText(EMPTY_NUDGE))
                        continue
                    turn.flags.append("empty-reply: the model answered nothing again")
                    narration, own = self._gave_up(session, turn, seat, "it gave no answer (an empty reply, twice)"), True
                    break
                if not turn.accepted and not msg.reminded:
                    why = self._why_remind(session, seat, turn, msg, said, bool(unrun))
                    if why is not None:
                        if gate is not None:
                            gate.drop()
                        msg.reminded = True
                        turn.flags.append(why)
                        if why.startswith("claimed-move"):
                            turn.invented += 1
                        request.messages.append(UserText(reminder(turn.text, text_call=bool(unrun), json_protocol=not request.tools)))
                        continue
                narration = said
                break
            outputs = [self._run(session, turn, seat, msg, use) for use in run]
            if gate is not None:
                gate.drop()
            request.messages.append(ToolOutputs(tuple(outputs)))
            if msg.failures >= self.max_failures:
                turn.flags.append(f"rephrase: {msg.failures} rejected tool calls in a row")
                narration, own = self._rephrase(session, turn, seat, msg), True
                break
            if msg.calls >= self.max_tool_calls and any(o.is_error and CAP_RULE in o.content for o in outputs):
                narration = self._gave_up(
                    session, turn, seat, f"it kept calling tools ({msg.calls} in one message) without answering",
                    "Ask a more direct question, or say your move.",
                )
                own = True
                break
        if narration is None:  # the request budget ran out
            turn.flags.append("no-narration: request budget used up")
            narration, own = self._gave_up(session, turn, seat, "it used up the requests allowed for one message"), True
        self._finish(session, turn, seat, narration, msg, gate, own=own)

    def _runnable(self, reply: Reply, request: Request) -> tuple[list[ToolUse], list[ToolUse]]:
        """The calls of ``reply`` to run, and the calls written in its text that are not run.

        Structured calls always run (calls echoed in the text beside them are dropped).  A call
        written in the text runs when the reply is nothing but calls, or - on a server without tool
        definitions, where text is the model's way of calling - when it is not shown inside an
        example, an offer, a question or a condition."""
        structured = [u for u in reply.tool_uses if not u.in_text]
        if structured:
            return structured, []
        texted = list(reply.tool_uses)
        if reply.alone:
            return texted, []
        json_protocol = not request.tools
        run = [u for u in texted if json_protocol and not u.framed]
        return run, [u for u in texted if u not in run]

    def _run(self, session: Session, turn: RefereeTurn, seat: str, msg: _Message, use: ToolUse) -> ToolOutput:
        """One call: through ``session.call``, unless the cap is reached or it repeats a call already
        accepted for this message (more often than the player asked for moves)."""
        if msg.calls >= self.max_tool_calls:
            if not any(f.startswith("tool-cap") for f in turn.flags):
                turn.flags.append(f"tool-cap: more than {self.max_tool_calls} tool calls asked for")
            return ToolOutput(use.id, use.name, json.dumps({
                "ok": False, "rule": CAP_RULE, "reason": f"at most {self.max_tool_calls} tool calls per player message",
            }), True, use.in_text)
        args = _args(use)
        key = call_key(use.name, args)
        if msg.done[key] >= msg.asked:
            turn.flags.append(f"repeat-call: {use.name} {json.dumps(args, sort_keys=True, default=str)} was already made for this "
                              "message; not made again")
            return ToolOutput(use.id, use.name, json.dumps({"ok": True, "rule": REPEAT_RULE, "note": REPEAT_NOTE}), False, use.in_text)
        msg.calls += 1
        result = self._call(session, turn, use.name, args, seat)
        msg.results.append(result)
        if result.get("ok"):
            msg.failures = 0
            if result.get("kind") == "action":
                msg.done[key] += 1
            if result.get("kind") == "action" or use.name == "get_board":
                turn.board = result.get("board") or turn.board
        else:
            msg.failures += 1
            msg.last_error = result
        return ToolOutput(use.id, use.name, for_model(result, names=tool_names(session)), not result.get("ok"), use.in_text)

    def _why_remind(self, session: Session, seat: str, turn: RefereeTurn, msg: _Message, text: str, text_call: bool) -> str | None:
        """Why a text-only reply, with no move accepted this message, gets gm's one reminder (or
        ``None``): it says a move was made; or the player's words read as their move (or the reply
        held a call written as text); or it describes results the engine's account contradicts."""
        if session.state.is_terminal:
            return None
        facts = self._facts(session, seat, turn, msg)
        if facts.due:
            claim = move_claim(strip_boards(text)[0], facts.claims, seats=session.game.seats, seat=seat)
            if claim is not None:
                return f"claimed-move: the model said {claim!r} with no move accepted; reminded it that no move was made"
        if turn.calls:  # it called tools (the engine refused its moves): its words stand, checked as narration
            return None
        if seat in session.state.to_act() and (text_call or self._intends_move(session, seat, turn.text)):
            return "no-tool-call: reminded the model that nothing happened"
        if self.check_narration and check(strip_boards(text)[0], facts):
            return "no-tool-call: the reply describes results that did not happen; reminded the model"
        return None

    @staticmethod
    def _intends_move(session: Session, seat: str, text: str) -> bool:
        return seat in session.state.to_act() and OfflineReferee.read_action(session.game, text) is not None

    def _request(self, session: Session, seat: str, messages: list[Item]) -> Request:
        """A request with the game's tools, or - for a server that takes none - with the tools
        described in the system prompt (JSON protocol) and no tool definitions."""
        system = self._system_prompt(session, seat)
        if not self.text_tools:
            return Request(system, model_tools(session), list(messages))
        key = (f"text-tools:{session.id}", seat)
        if key not in self._system:
            self._system[key] = f"{system}\n\n{text_tools_prompt(model_tools(session))}"
        return Request(self._system[key], [], [_as_text(m) for m in messages])

    def _ask(self, request: Request, recorder: Recorder | None, gate: NarrationStream | None = None) -> Reply:
        snapshot = Request(request.system, request.tools, list(request.messages))
        self.last_requests.append(snapshot)
        stream = getattr(self.provider, "stream", None)
        try:
            if gate is not None and stream is not None and not self.no_streaming:
                reply: Reply = stream(snapshot, gate.feed)
            else:
                reply = self.provider.complete(snapshot)
        except LLMError as exc:
            if recorder:
                recorder.llm_response(self.kind, {"gm_error": exc.to_json()})
            raise
        if recorder:
            recorder.llm_response(self.kind, reply.raw)
            u = reply.usage
            recorder.usage(u.input_tokens, u.output_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens)
        return reply

    # ----------------------------------------------------------- narration
    def _findings(self, text: str, facts: Facts) -> list[str]:
        """What the engine's account contradicts in ``text`` (boards aside); nothing when the check is off."""
        return check(strip_boards(text)[0], facts) if self.check_narration else []

    def _finish(
        self,
        session: Session,
        turn: RefereeTurn,
        seat: str,
        narration: str,
        msg: _Message,
        gate: NarrationStream | None,
        *,
        own: bool = False,
    ) -> None:
        if own:
            text = narration  # gm's own words: the engine's version plus what went wrong
        else:
            text, stripped = strip_boards(narration)
            if stripped:
                turn.flags.append("board-removed: the model drew a board; gm prints the engine's")
            findings = check(text, self._facts(session, seat, turn, msg)) if (self.check_narration and text) else []
            if findings:
                turn.invented += 1
                turn.flags.extend(f"narration-check: {f}" for f in findings)
                turn.flags.append(f"model-narration: {text}")
                claims_only = not turn.accepted and all(f.startswith("a move made") for f in findings)
                engine = self._engine_version(session, turn, seat)
                text = engine if claims_only else f"{OVERRULED}\n{engine}"
            elif not text:
                text = self._engine_version(session, turn, seat)
            else:
                text = self._nothing_happened(session, turn, text)
        text = text.strip()
        turn.narration = gate.finish(text) if gate is not None else text
        events = tuple(
            ev
            for c in turn.calls
            if c.ok and c.result.get("kind") == "action"
            for ev in c.result.get("events") or []
            if isinstance(ev, Mapping)
        )
        if not any(f.startswith("llm-error") for f in turn.flags):  # a failed turn is not worth remembering
            hist = self._history.setdefault(seat, deque(maxlen=max(1, self.history_turns)))
            hist.append(_Exchange(turn.text, turn.narration, events))

    def _facts(self, session: Session, seat: str, turn: RefereeTurn, msg: _Message) -> Facts:
        return turn_facts(
            session, seat,
            results=msg.results or [c.result for c in turn.calls],
            before_status=msg.before_status,
            before_view=msg.before_view,
            rules_text=self._rules_text(session, seat),
            recent_events=[ev for ex in list(self._history.get(seat, ()))[-2:] for ev in ex.events],
        )

    @staticmethod
    def _view(session: Session, seat: str) -> dict[str, Any]:
        try:
            return session.view(seat)
        except GameError:
            return {}

    def _engine_version(self, session: Session, turn: RefereeTurn, seat: str) -> str:
        """The turn in the engine's words: accepted actions' events, else the last rejection,
        else that nothing happened, and the status."""
        done = [c.result for c in turn.calls if c.ok and c.result.get("kind") == "action"]
        if done:
            return "\n".join(OfflineReferee.narrate(r) for r in done)
        failed = [c.result for c in turn.calls if not c.ok]
        if failed:
            return OfflineReferee.narrate(failed[-1])
        return f"{NO_MOVE} {session.game.status(session.state, seat)}"

    @staticmethod
    def _nothing_happened(session: Session, turn: RefereeTurn, text: str) -> str:
        """The model's words, and - when it tried moves and the engine refused every one - a plain
        line saying the game did not change and why (a model's "Done." must not read as a move)."""
        actions = {t.name for t in session.tools if t.kind == "action"} | {t.name for t in session.model_tools if t.covers}
        tried = [c for c in turn.calls if c.tool in actions]
        if not tried or any(c.ok for c in tried):
            return text
        err = tried[-1].result.get("error") or {}
        why = f" [{err.get('rule', '?')}] {err.get('reason', 'the move was refused')}." if err else ""
        return f"{text}\n(Nothing happened in the game: the engine refused the move.{why})"

    def _rephrase(self, session: Session, turn: RefereeTurn, seat: str, msg: _Message) -> str:
        """gm's words after too many refused calls in a row: the moves made this message first
        (they stand), then what was refused and what the player can say."""
        err = (msg.last_error or {}).get("error") or {}
        why = f" [{err.get('rule', '?')}] {err.get('reason', 'rejected')}." if err else ""
        if turn.accepted:
            return (f"{self._engine_version(session, turn, seat)}\n(Then the engine refused {msg.failures} more calls of the "
                    f"referee model, so gm stopped it:{why} Nothing else changed.)")
        acts = session.state.legal_actions(seat)
        legal = session.state.legal_summary(seat) if acts.is_space else [str(a) for a in acts.page(0, 7)]
        options = f" Right now you can say, for example: {', '.join(legal[:6])}{' ...' if len(legal) > 6 else ''}." if legal else ""
        return f"I couldn't turn that into a move the rules allow.{why} Could you rephrase?{options}"

    def _gave_up(
        self, session: Session, turn: RefereeTurn, seat: str, why: str, hint: str = "Type your message again, or say it differently."
    ) -> str:
        """gm's own words when the model gave no usable answer: the engine's account of any move
        made, what went wrong, and that nothing (else) changed."""
        if turn.accepted:
            return f"{self._engine_version(session, turn, seat)}\n(gm stopped the referee model: {why}.)"
        return f"The referee model did not answer properly: {why}. Nothing changed in the game. {hint}"

    def _failure_text(self, session: Session, turn: RefereeTurn, exc: LLMError) -> str:
        made = " Your move was made (see above)." if turn.accepted else " Nothing changed in the game."
        return (
            f"The referee model is not answering: {exc.message}.{made} The game is saved; type your message again, "
            f"or continue without a model: gm play --resume {session.id} --referee offline"
        )

    # ------------------------------------------------------------- plumbing
    def _system_prompt(self, session: Session, seat: str) -> str:
        key = (session.id, seat)
        if key not in self._system:
            self._system[key] = session_system_prompt(session, seat)
        return self._system[key]

    def _rules_text(self, session: Session, seat: str) -> str:
        key = (f"rules:{session.id}", seat)
        if key not in self._system:
            self._system[key] = rules_summary(session.game, session.state.rules, seat, dict(session.players))
        return self._system[key]

    def _history_items(self, seat: str) -> list[Item]:
        items: list[Item] = []
        for ex in self._history.get(seat, ()):
            items.append(UserText(f"[{seat} says]\n{_clip(ex.player, self.history_chars)}"))
            items.append(AssistantTurn(_clip(ex.narration, self.history_chars) or "(no reply)"))
        return items

    @staticmethod
    def _call(session: Session, turn: RefereeTurn, tool: str, args: Any, seat: str) -> dict[str, Any]:
        try:
            result = session.call(tool, args, seat, board=True)
        except GameError as exc:  # session.call never raises; belt and braces
            result = {"ok": False, "error": error_json(exc)}
        turn.calls.append(ToolCallRecord(tool, args if isinstance(args, dict) else {"_raw": args}, seat, result))
        return result


def _stream_refused(exc: LLMError) -> bool:
    """Whether a server's error says it cannot stream (not a bad request in general)."""
    return exc.status in (400, 404, 415, 422, 501) and "stream" in exc.message.lower()


def _args(use: ToolUse) -> dict[str, Any] | str | None:
    """The call's arguments as recorded: a dict when they are a JSON object, else the raw text."""
    a = use.arguments
    if isinstance(a, str):
        try:
            data = json.loads(a) if a.strip() else {}
        except ValueError:
            return a
        return data if isinstance(data, dict) else a
    return a


def _as_text(item: Item) -> Item:
    """A conversation item for a server without tools: structured calls and results as text."""
    if isinstance(item, AssistantTurn) and item.tool_uses:
        return AssistantTurn(item.text, tuple(replace(u, in_text=True) for u in item.tool_uses))
    if isinstance(item, ToolOutputs):
        return ToolOutputs(tuple(replace(o, in_text=True) for o in item.outputs))
    return item


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."
