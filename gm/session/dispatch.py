"""A session's tool calls: one call in, one JSON-ready answer out, never an exception.

The session's dispatch collaborator.  :meth:`Dispatcher.call` takes the session's write lock (so a
call's records, its transcript lines and the bot moves it caused land together), finds the tool (or
the move-as-text tool a language model is offered in its place), checks the seat and the arguments,
answers a query from the live game, or builds the action, applies and stores it, lets the bots
answer, and hands back the result: made when first read (:class:`gm.session.result.CallResult`).
Anything that goes wrong is answered with :meth:`Dispatcher.error`'s one shape (``ok: false``, the
rule id, the reason, the legal alternatives), and then the session has not changed.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError, InvalidActionError, StateError, error_json
from gm.core.tools import (
    ToolSpec,
    call_key,
    covered_call,
    keep_action,
    made_action,
    parse_args,
    tool_index,
    unknown_tool,
)
from gm.session import lifecycle
from gm.session.commit import commitment
from gm.session.players import SEAT_RULE
from gm.session.store import SESSION_RULE, SessionConflict

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.events import Event
    from gm.core.state import GameState
    from gm.session.result import CallResult
    from gm.session.session import Session
    from gm.transcript.recorder import Recorder


class Dispatcher:
    """Runs one session's tool calls (see the module docstring)."""

    __slots__ = ("_model_tools", "index", "session", "tools")

    def __init__(self, session: Session, tools: list[ToolSpec]) -> None:
        self.session = session
        #: the session's tools, and by name
        self.tools = tools
        self.index = tool_index(tools)
        self._model_tools: list[ToolSpec] | None = None

    def call(self, tool: Any, args: Mapping[str, Any] | str | None = None, seat: Any = None, board: bool = False) -> dict[str, Any]:
        """Run one tool call for ``seat`` (see :meth:`gm.session.Session.call`).  Never raises."""
        s = self.session
        try:
            return lifecycle.held(s, self._guarded, self._recorded, tool, args, seat, board)
        except GameError as exc:  # the store itself failed (a session deleted under us, a commit refused)
            lifecycle.recover(s)
            return self.error(tool, seat, exc)
        except Exception as exc:
            return self.error(tool, seat, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))

    def _recorded(self, rec: Recorder, tool: Any, args: Mapping[str, Any] | str | None, seat: Any, board: bool) -> dict[str, Any]:
        """The call and its result in the transcript, with the bot moves it made public, in one batch."""
        with rec.batch():
            who = seat if isinstance(seat, str) or seat is None else repr(seat)[:100]
            call_id = rec.tool_call(who, str(tool)[:200], _recordable(args), board=board)
            result = self._guarded(tool, args, seat, board)
            rec.tool_result(call_id, result)
            self.session.recording.progress()
        return result

    def _guarded(self, tool: Any, args: Mapping[str, Any] | str | None, seat: Any, board: bool) -> dict[str, Any]:
        try:
            return self._run(tool, args, seat, board)
        except GameError as exc:
            return self.error(tool, seat, exc)
        except Exception as exc:  # the last line of defence: nothing escapes a tool
            return self.error(tool, seat, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))

    @property
    def model_tools(self) -> list[ToolSpec]:
        """The tools a language model is offered (``Game.model_tools``): the session's tools, or a
        move-as-text tool standing in for some of them; :meth:`call` takes both."""
        if self._model_tools is None:
            s = self.session
            self._model_tools = s.game.model_tools(s.state.rules)
        return self._model_tools

    def spec(self, name: Any) -> ToolSpec | None:
        """The tool ``name`` calls: one of the session's, or a model's move-as-text tool; ``None`` if neither."""
        spec = self.index.get(name) if isinstance(name, str) else None
        if spec is None and isinstance(name, str):
            spec = next((t for t in self.model_tools if t.name == name and t.covers), None)
        return spec

    def _run(self, name: Any, args: Mapping[str, Any] | str | None, seat: Any, board: bool = False) -> dict[str, Any]:
        s = self.session
        spec = self.index.get(name) if type(name) is str else None
        if spec is None:
            spec = self.spec(name)
            if spec is None:
                raise unknown_tool(name, self.tools)
        game = s.game
        if seat is not None and (type(seat) is not str or seat not in game.seats):
            raise InvalidActionError(
                f"unknown seat; {game.id} has {', '.join(game.seats)}", rule=SEAT_RULE, input=str(seat)[:100], legal=game.seats
            )
        if seat is not None and s.players.get(seat, "human") != "human":
            raise InvalidActionError(
                f"{seat} is played by {s.players[seat]}; a call can only be made for a human seat",
                rule=SEAT_RULE,
                input=seat,
                legal=s.human_seats,
            )
        if spec.covers and seat is not None:  # a move written as text: made through the tool it stands for
            name, args = covered_call(spec, self.tools, s.state, seat, args)
            spec = self.index[name]
        key = call_key(args) if spec.made is not None else None
        action = made_action(spec, key)  # the same plain arguments made this action before
        parsed = parse_args(spec, args) if action is None else None
        if spec.kind == "query":
            data = spec.answer(s.state, seat, parsed)
            return {
                "ok": True,
                "tool": spec.name,
                "kind": "query",
                "seat": seat,
                # (a query answering the status line, as get_status and get_board do, has just worked it out)
                "status": data["status"] if "status" in data else game.status(s.state, seat),
                **data,
                "expected": s.expected(seat),
                "commitments": s.commitments(),
            }
        if seat is None:
            raise InvalidActionError(
                "an action needs the calling side (seat)",
                rule=SEAT_RULE,
                legal=[e["seat"] for e in s.expected() if e.get("player") == "human"] or s.human_seats,
            )
        before: list[dict[str, Any]] = []
        bots = s.driver.has_bots
        if bots and s.bots_owe_move():  # left owing after an interrupted write: they move first
            before = s.advance_bots()
        if action is None:
            action = spec.act(s.state, seat, parsed)
            keep_action(spec, key, action)
        if s.book.just_revealed:
            s.book.just_revealed = []
        nonce = digest = None
        if s.commit_human_picks and any(t != seat and s.players.get(t) == "human" for t in s.state.to_act()):
            # another human still picks this round: commit as a bot does, with a nonce nobody can
            # derive (a practice game's derived nonces are public, and a pick has few values)
            nonce = secrets.token_hex(16)
            digest = commitment(str(action), nonce)
        events, record = s._apply(seat, action, nonce=nonce, digest=digest)  # a rejected action raises here and changes nothing
        try:
            s.ledger.append([record])
        except SessionConflict as exc:
            lifecycle.reload(s)
            raise SessionConflict(f"{exc.reason}; reloaded it, the move was not made: call again", rule=SESSION_RULE) from None
        except OSError as exc:
            lifecycle.reload(s)
            raise StateError(f"could not save the session ({exc.strerror or exc}); the move was not made", rule=SESSION_RULE) from None
        if bots:  # each move's events in words before the next move is made, as they were then
            out = [*before, *(e.to_json() for e in events)]
            out.extend(s.advance_bots())
            return self._action_result(spec, seat, action, out, board)
        s.bot_error = None
        return self._action_result(spec, seat, action, events, board)  # (made into JSON when read)

    def _action_result(
        self, spec: ToolSpec, seat: str, action: Action, events: list[Event] | list[dict[str, Any]], board: bool
    ) -> CallResult:
        """An action's result: what changes with the next move (the reveals taken from the book, the
        seed, a bot's error) is taken now; the rest (events and narration in words, the board window,
        status, who acts next, commitments, outcome) when the result is first read, or before the game
        next changes (:class:`gm.session.result.CallResult`)."""
        s = self.session
        st = s.state
        book = s.book
        reveal = book.take_revealed() if book.just_revealed else {}
        seed = s.secret.reveal() if st.outcome is not None and not s.practice else None
        # (the function and its arguments, not a closure: a closure's cells would cost more than the
        # rest of this; part of the lazy-call-result seam, gm/session/result.py)
        return s.pending.lazy(Dispatcher._made_result, self, spec, seat, action, events, board, st, reveal, seed, s.bot_error)

    def _made_result(
        self, spec: ToolSpec, seat: str, action: Action, events: list[Event] | list[dict[str, Any]], board: bool, st: GameState[Any],
        reveal: dict[str, Any], seed: dict[str, Any] | None, bot_error: str | None,
    ) -> dict[str, Any]:
        """The content of :meth:`_action_result`'s result, made from the game as it is (the session
        makes it before the game changes)."""
        s = self.session
        try:
            evs = [e if isinstance(e, dict) else e.to_json() for e in events]
            result: dict[str, Any] = {
                "ok": True,
                "tool": spec.name,
                "kind": "action",
                "seat": seat,
                "action": str(action),
                "events": evs,
                "narration": [e["text"] for e in evs],
                **({"board": s.game.render(st, seat)} if board else {}),
                "status": s.game.status(st, seat),
                "expected": s.expected(seat),
                "commitments": s.commitments(),
                "reveal": reveal,
                "outcome": st.outcome.to_json() if st.outcome else None,
            }
        except Exception as exc:  # nothing escapes a tool, whenever its result is read
            return self.error(spec.name, seat, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))
        if seed is not None:
            result["seed"] = seed
        if bot_error:
            result["bot_error"] = bot_error
        return result

    def error(self, tool: Any, seat: Any, exc: GameError) -> dict[str, Any]:
        """The answer to a refused or failed call: the error (rule id, reason, quoted input, legal
        alternatives) with the status and who acts next as ``seat`` may see them."""
        s = self.session
        err = error_json(exc)
        try:
            viewer = seat if seat in s.game.seats and s.players.get(seat) == "human" else None
            exp = s.expected(viewer)
            status = s.game.status(s.state, viewer)
        except Exception:
            exp, status = [], ""
        return {
            "ok": False,
            "tool": tool if isinstance(tool, str) else repr(tool)[:100],
            "seat": seat if isinstance(seat, str) or seat is None else repr(seat)[:100],
            "error": err,
            "status": status,
            "expected": exp,
            "commitments": s.commitments(),
        }


def _recordable(args: Any) -> Any:
    """Tool arguments as a transcript stores them (JSON values; anything else as its text).  Arguments
    nested deeper than any tool takes (refused with CORE-ARGS) are stored as a note: stored nested,
    they would make the transcript, and so the session, unreadable."""
    import json

    from gm.core.tools import too_deep

    if args is None or isinstance(args, str):
        return args
    if type(args) is dict and all(type(k) is str and type(v) in (str, int, bool, type(None)) for k, v in args.items()):
        return dict(args)
    deep = too_deep(args)
    if deep:
        return deep
    try:
        data = json.loads(json.dumps(args, allow_nan=False))
    except (TypeError, ValueError, RecursionError):
        return repr(args)[:1000]
    return data if isinstance(data, dict) else json.dumps(data)
