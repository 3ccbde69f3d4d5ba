"""The offline referee: deterministic, no LLM, no network.

It reads what a player types – moves in the game's own words (Grid Football's
"Play 1, Red, 2 right before", "p3 black", "kick"; GridMaster4's "tile on K12";
each game lists a few as ``Game.move_examples``) and table talk ("board", "full
board", "score", "what can I do?",
"rules blocked squares", "help", "undo", "quit") – turns it into calls of the
game's tools through ``session.call`` (never into engine calls), and narrates the
results in short sentences.  Move phrasing is understood by the game's own
``parse_action``; only generic table talk is handled here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gm.core.actions import Action
from gm.core.errors import GameError, InvalidActionError
from gm.referee.base import RefereeTurn, ToolCallRecord

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.state import GameState
    from gm.session import Session

#: words people wrap around a move ("I'll call heads please") that carry no meaning for it
FILLER = frozenset(
    "i we i'll ill we'll well will would like choose chose call calling pick picking go going with want wanna to "
    "let's lets please the a an my our it is as for take do try select ok okay um uh so and then now "
    "gonna me us".split()
)

_QUIT = {"quit", "exit", "q", "bye", "stop", "resign", "leave"}
_HELP = {"help", "?", "commands", "how", "how do i play", "instructions"}
_BOARD = {"board", "show board", "show the board", "map", "field", "b", "where is the ball", "wheres the ball"}
_FULL = {"full board", "full", "whole board", "show full board", "show the full board", "entire board", "full map"}
_STATUS = {"score", "status", "clock", "time", "down", "what down is it", "s", "situation"}
_LEGAL = {
    "what can i do",
    "what can i do now",
    "what are my options",
    "options",
    "moves",
    "legal",
    "legal moves",
    "what now",
    "choices",
    "what are my choices",
}
_UNDO = {"undo", "take back", "take it back", "takeback", "oops"}
#: the flag of a turn whose words were not read as a move nor as table talk (a front end shows it as an error)
NOT_UNDERSTOOD = "not-understood"


def _clean(text: str) -> str:
    t = text.strip().lower()
    t = re.sub(r"[^\w\s?#'-]", " ", t)
    return re.sub(r"\s+", " ", t).strip().rstrip("?").strip()


def _json_value(value: Any) -> Any:
    """``value`` as JSON has it: tuples become lists (what a recorded call's arguments read back as)."""
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    return value


def tool_call_for(game: Game, state: GameState[Any], seat: str, action: Action) -> tuple[str, dict[str, Any]] | None:
    """The action tool call that makes ``action`` for ``seat`` (checked through the tool's own handler);
    its arguments are JSON values, as a recording reads them back."""
    data = {k: _json_value(v) for k, v in action.to_json().items() if k != "type"}
    for tool in game.action_tools():
        fields = tool.args.model_fields
        if any(f.is_required() and name not in data for name, f in fields.items()):
            continue
        args = {k: v for k, v in data.items() if k in fields}
        try:
            parsed = tool.args.model_validate(args)
            made = tool.handler(state, seat, parsed)
        except Exception:  # a tool that does not fit this action: try the next one
            continue
        if made == action:
            return tool.name, args
    return None


class OfflineReferee:
    """Deterministic referee: table talk and moves in the game's words -> tool calls."""

    kind = "offline"
    model: str | None = None

    def handle(self, session: Session, seat: str, text: str) -> RefereeTurn:
        """Handle one message; every effect goes through ``session.call`` (which records it)."""
        turn = RefereeTurn(seat=seat, text=text)
        recorder = session.recorder
        if recorder:
            recorder.player(seat, text)
        words = _clean(text)
        if words in _QUIT:
            turn.control = "quit"
            turn.narration = "Game saved. Goodbye!"
        elif words in _UNDO:
            turn.control = "undo"
        elif words in _HELP or not words:
            turn.narration = self.help_text(session, seat)
        elif words in _FULL:
            self._call(session, turn, "get_board", {"full": True}, seat)
            turn.board = turn.calls[-1].result.get("board")
        elif words in _BOARD:
            self._call(session, turn, "get_board", {"full": False}, seat)
            turn.board = turn.calls[-1].result.get("board")
        elif words in _STATUS:
            res = self._call(session, turn, "get_status", {}, seat)
            turn.narration = str(res.get("status", ""))
        elif words in _LEGAL:
            res = self._call(session, turn, "legal_actions", {}, seat)
            turn.narration = self._legal_text(res, seat)
        elif m := re.match(r"^(?:rules?|explain|what is|what's|whats)\s+(?:about\s+|for\s+|on\s+)?(.+)$", words):
            res = self._call(session, turn, "get_rules", {"topic": m.group(1)}, seat)
            rules = res.get("rules") or {}
            turn.narration = (
                "\n".join(f"[{rid}] {title}" for rid, title in rules.items())
                or f"No rule mentions {m.group(1)!r}. Try 'rules' followed by one word, e.g. 'rules blocked'."
            )
        elif words in ("rules", "rule"):
            res = self._call(session, turn, "get_rules", {}, seat)
            turn.narration = "\n".join(f"[{rid}] {title}" for rid, title in (res.get("rules") or {}).items())
        else:
            self._move(session, turn, text, seat)
        if recorder:
            if turn.narration:
                recorder.narration(turn.narration, seat=seat)
            recorder.flush()
        return turn

    # ----------------------------------------------------------------- moves
    def _move(self, session: Session, turn: RefereeTurn, text: str, seat: str) -> None:
        game, state = session.game, session.state
        action, why = self._read(state.parse_action, text)  # read in the context of the state
        if action is None:
            because = f": {why.reason}" if why is not None and why.reason else ""
            turn.narration = f"I couldn't read {text.strip()!r} as a move{because}. " + self._forms(session, seat)
            turn.flags.append(NOT_UNDERSTOOD)
            return
        call = tool_call_for(game, state, seat, action)
        if call is None:
            turn.narration = f"{action} is not something you can do with the tools of {game.name}. " + self._forms(session, seat)
            turn.flags.append(NOT_UNDERSTOOD)
            return
        tool, args = call
        res = self._call(session, turn, tool, args, seat)
        turn.narration = self.narrate(res)
        if res.get("ok"):
            turn.board = res.get("board")

    @staticmethod
    def read_action(game: Game, text: str) -> Action | None:
        """The move in ``text`` via the game's parser, retrying without filler words."""
        return OfflineReferee._read(game.parse_action, text)[0]

    @staticmethod
    def _read(parse: Callable[[str], Action], text: str) -> tuple[Action | None, InvalidActionError | None]:
        """The move in ``text`` (read by ``parse``), or ``None`` and the parser's objection to the text as typed."""
        try:
            return parse(text), None
        except InvalidActionError as exc:
            first = exc
        kept = [w for w in _clean(text).split() if w not in FILLER]
        if not kept:
            return None, first
        try:
            return parse(" ".join(kept)), None
        except InvalidActionError:
            return None, first

    # ------------------------------------------------------------- narration
    @staticmethod
    def narrate(result: dict[str, Any]) -> str:
        """Short narration of a tool result: events in plain words, or the engine's reason."""
        if not result.get("ok"):
            err = result.get("error") or {}
            legal = err.get("legal") or []
            more = f" You can: {', '.join(map(str, legal[:12]))}{' ...' if len(legal) > 12 else ''}." if legal else ""
            return f"Not allowed [{err.get('rule', '?')}]: {err.get('reason', 'rejected')}.{more}"
        lines = [str(t) for t in result.get("narration") or []]
        # a reveal closes the round just played: it goes before the picks already locked for the next one
        events = result.get("events") or []
        at = len(lines)
        if len(events) == len(lines):
            while at and isinstance(events[at - 1], dict) and events[at - 1].get("kind") == "locked":
                at -= 1
        reveals = []
        for seat, rev in (result.get("reveal") or {}).items():
            if isinstance(rev, dict):
                check = "verified" if rev.get("verified") else "DOES NOT MATCH its commitment"
                reveals.append(f"Reveal: {seat} chose {rev.get('choice')} (nonce {rev.get('nonce')}; {check}).")
        lines[at:at] = reveals
        expected = result.get("expected") or []
        if expected:
            who = "; ".join(f"{e.get('seat')}: {str(e.get('decision', '')).replace('_', ' ')}" for e in expected)
            lines.append(f"Next - {who}.")
        return "\n".join(lines)

    def _legal_text(self, result: dict[str, Any], seat: str) -> str:
        legal = result.get("legal") or []
        if not legal:
            waiting = ", ".join(result.get("to_act") or []) or "nobody"
            return f"Nothing for you to do right now (waiting for: {waiting})."
        if "summary" in result:  # too many to list: the game's summary, and one of them
            return f"You can choose from {result.get('count', len(legal)):,} moves: " + "; ".join(map(str, result["summary"])) + f". For example: {legal[0]}"
        return f"You can ({len(legal)}): " + ", ".join(map(str, legal))

    def _forms(self, session: Session, seat: str) -> str:
        acts = session.state.legal_actions(seat)
        if acts.is_space:  # too many to list: the game's short summary of them
            return "Your options in short:\n" + "\n".join(f"  {line}" for line in session.state.legal_summary(seat)) + (
                "\n('what can I do?' counts your moves and shows one, 'help' for more)"
            )
        legal = [str(a) for a in acts.page(0, 6)]
        if not legal:
            return "It isn't your move right now; try 'board', 'score' or 'help'."
        sample = ", ".join(legal) + (" ..." if len(acts) > 6 else "")
        return f"Right now you can say, for example: {sample} (or 'what can I do?' for the full list, 'help' for more)."

    def help_text(self, session: Session, seat: str) -> str:
        game = session.game
        examples = ", ".join(f"'{e}'" for e in game.move_examples)
        return (
            f"You are playing {game.name} as {seat}. Type your move in the game's words"
            + (f", e.g. {examples}" if examples else "")
            + ".\nTable talk: 'board', 'full board', 'score', 'what can I do?', 'rules <word>', 'undo' (only a locked "
            "pick nobody has seen yet), 'help', 'quit'.\n" + self._forms(session, seat)
        )

    # --------------------------------------------------------------- plumbing
    @staticmethod
    def _call(session: Session, turn: RefereeTurn, tool: str, args: dict[str, Any], seat: str) -> dict[str, Any]:
        try:
            result = session.call(tool, args, seat, board=True)
        except GameError as exc:  # session.call never raises; belt and braces for the edge
            result = {"ok": False, "error": exc.to_json()}
        turn.calls.append(ToolCallRecord(tool, args, seat, result))
        return result

