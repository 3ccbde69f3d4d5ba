"""The offline referee: deterministic, no LLM, no network.

It reads what a player types - moves in the game's own words (Grid Football's
"Play 1, Red, 2 right before", "p3 black", "kick"; GridMaster4's "tile on K12";
each game lists a few as ``Game.move_examples``) and table talk ("board", "full
board", "score", "what can I do?", "rules blocked squares", "help", "undo", "quit")
- turns it into calls of the game's tools through ``session.call`` (never into
engine calls), and narrates the results in short sentences.

The game's parser is asked first: a text it reads as a move is that move, even one
that is also a table-talk word (a game whose ``s`` is scissors plays scissors).  Then
table talk; then the game's :class:`~gm.core.phrasing.Phrasing` reads looser words
(typos, numbers in words, slang, partial and relative moves): one legal move is made
(and said back: "Read as 'left yellow'."), several are asked about, listing them; the
answer may be one of them, "yes" for a single one, or its place in the list ("the
second").  Nothing game-specific lives here.
"""

from __future__ import annotations

import itertools
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gm.core.actions import Action
from gm.core.errors import GameError, InvalidActionError, error_json
from gm.core.phrasing import COMMON, FILLER, Reading, is_question
from gm.referee.base import RefereeTurn, ToolCallRecord

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.core.state import GameState
    from gm.session import Session

_QUIT = {"quit", "exit", "q", "bye", "stop", "resign", "leave"}
_HELP = {"help", "?", "commands", "how", "how do i play", "instructions"}
_BOARD = {"board", "show board", "show the board", "map", "b"}
_FULL = {"full board", "full", "whole board", "show full board", "show the full board", "entire board", "full map"}
_STATUS = {"score", "status", "clock", "time", "s", "situation"}
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
#: answers to a clarifying question: yes to a single candidate, or a candidate's place in the list
_YES = {"yes", "y", "yeah", "yep", "yup", "sure", "ok", "okay", "correct", "that one", "do it", "yes please", "please"}
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3, "fifth": 4, "5th": 4,
             "sixth": 5, "6th": 5, "seventh": 6, "7th": 6, "eighth": 7, "8th": 7, "last": -1}


def _clean(text: str) -> str:
    t = text.strip().lower()
    t = re.sub(r"[^\w\s?#'-]", " ", t)
    return re.sub(r"\s+", " ", t).strip().rstrip("?").strip()


def answered_by_gm(turn: RefereeTurn, words: str, help_text: Callable[[], str]) -> bool:
    """Whether ``words`` (cleaned) are ones every referee answers itself, never a model: quit and undo (a
    control the front end acts on), help or nothing said (``help_text()``); ``turn`` is filled in if so."""
    if words in _QUIT:
        turn.control = "quit"
        turn.narration = "Game saved. Goodbye!"
    elif words in _UNDO:
        turn.control = "undo"
    elif words in _HELP or not words:
        turn.narration = help_text()
    else:
        return False
    return True


def _json_value(value: Any) -> Any:
    """``value`` as JSON has it: tuples become lists (what a recorded call's arguments read back as)."""
    if isinstance(value, list | tuple):
        return [_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    return value


def reads_as_move(session: Session, text: str) -> bool:
    """Whether the game's parser (in the context of the state) reads ``text`` as a move: such a text is a
    move, never table talk, whatever else it could mean (the shared rule of every referee: a game whose
    ``s`` is scissors plays scissors, and ``status`` is still there)."""
    if is_question(text):  # "what happens if I go for it?" holds a move's words, but asks
        return False
    try:
        session.state.parse_action(text)
    except InvalidActionError:
        return False
    except Exception:  # a parser that fails on odd text reads no move in it
        return False
    return True


def tool_call_for(game: Game, state: GameState[Any], seat: str, action: Action) -> tuple[str, dict[str, Any]] | None:
    """The action tool call that makes ``action`` for ``seat`` (checked through the tool's own handler,
    with the tools of the state's ruleset); its arguments are JSON values, as a recording reads them
    back.  A move whose arguments lie outside the tool's bounds (a number above the ruleset's) is still
    the call of the tool that makes its kind of move: the session answers it, saying what is allowed."""
    from pydantic import ValidationError

    data = {k: _json_value(v) for k, v in action.to_json().items() if k != "type"}
    out_of_bounds: tuple[str, dict[str, Any]] | None = None
    for tool in game.tools(state.rules):
        if tool.kind != "action":
            continue
        fields = tool.args.model_fields
        if any(f.is_required() and name not in data for name, f in fields.items()):
            continue
        args = {k: v for k, v in data.items() if k in fields}
        try:
            parsed = tool.args.model_validate(args)
        except ValidationError:
            if out_of_bounds is None and tool.produces == action.type and set(data) <= set(fields):
                out_of_bounds = (tool.name, args)
            continue
        try:
            made = tool.act(state, seat, parsed)
        except Exception:  # a tool that does not fit this action: try the next one
            continue
        if made == action:
            return tool.name, args
    return out_of_bounds


#: the questions asked and not yet answered: (session id, seat) -> (log length, candidates), newest last
_QUESTIONS: OrderedDict[tuple[str, str], tuple[int, tuple[Action, ...]]] = OrderedDict()
_QUESTIONS_MAX = 256


def _remember(session: Session, seat: str, candidates: tuple[Action, ...]) -> None:
    _QUESTIONS[(session.id, seat)] = (len(session.state.log), candidates)
    _QUESTIONS.move_to_end((session.id, seat))
    while len(_QUESTIONS) > _QUESTIONS_MAX:
        _QUESTIONS.popitem(last=False)


class OfflineReferee:
    """Deterministic referee: table talk and moves in the game's words -> tool calls."""

    kind = "offline"
    model: str | None = None

    def __init__(self) -> None:
        #: the candidates last asked about, per (session, seat), with the log length they were asked at;
        #: shared by every offline referee of this process, so the answer may come through another one
        #: (the web page makes a referee per message), and bounded
        self._asked = _QUESTIONS

    def handle(self, session: Session, seat: str, text: str) -> RefereeTurn:
        """Handle one message; every effect goes through ``session.call`` (which records it)."""
        turn = RefereeTurn(seat=seat, text=text)
        recorder = session.recorder
        if recorder:
            recorder.player(seat, text)
        words = _clean(text)
        asked = self._asked.pop((session.id, seat), None)
        answer = self._answer(session, words, asked)
        if answer is not None:
            self._make(session, turn, seat, answer, said_back=True)
        elif words and reads_as_move(session, text):  # the game's parser before table talk
            self._move(session, turn, text, seat)
        elif answered_by_gm(turn, words, lambda: self.help_text(session, seat)):
            pass
        elif (talk := session.game.phrasing().talk.get(words)) in ("board", "status"):  # the game's own words for them
            if talk == "board":
                self._call(session, turn, "get_board", {"full": False}, seat)
                turn.board = turn.calls[-1].result.get("board")
            else:
                res = self._call(session, turn, "get_status", {}, seat)
                turn.narration = str(res.get("status", ""))
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
        elif is_question(text):
            turn.narration = self._question(session, turn, words, seat)
        else:
            self._move(session, turn, text, seat)
        if recorder:
            if turn.narration:
                recorder.narration(turn.narration, seat=seat)
            recorder.flush()
        return turn

    # ----------------------------------------------------------------- moves
    def _move(self, session: Session, turn: RefereeTurn, text: str, seat: str) -> None:
        reading = self.understand(session, seat, text)
        if reading.action is not None:
            self._make(session, turn, seat, reading.action, said_back=reading.read_as is not None)
            if reading.candidates and not turn.accepted:  # refused, but the words fit a few legal moves
                _remember(session, seat, reading.candidates)
                turn.narration += "\n" + reading.question()
            return
        if reading.candidates:
            _remember(session, seat, reading.candidates)
            turn.narration = reading.question()
            return
        why = reading.error
        because = f": {why.reason}" if why is not None and why.reason else ""
        turn.narration = f"I couldn't read {text.strip()!r} as a move{because}. " + self._forms(session, seat)
        turn.flags.append(NOT_UNDERSTOOD)

    def _question(self, session: Session, turn: RefereeTurn, words: str, seat: str) -> str:
        """A question answered from the rules: the (at most three) rules sharing the most words with it."""
        res = self._call(session, turn, "get_rules", {}, seat)
        rules: dict[str, str] = res.get("rules") or {}
        asked = {w for w in re.findall(r"[a-z0-9][a-z0-9'-]+", words) if w not in COMMON and w not in FILLER and len(w) > 2}
        toks = re.findall(r"[a-z0-9][a-z0-9'-]*", words)
        phrases = {" ".join(toks[i : i + 3]) for i in range(len(toks) - 2)}
        phrases |= {f"{a} {b}" for a, b in itertools.pairwise(toks) if {a, b} - COMMON - FILLER}
        score = dict.fromkeys(rules, 0)
        for rid, text in rules.items():
            low = text.lower()
            score[rid] += len(asked & set(re.findall(r"[a-z0-9][a-z0-9'-]+", f"{rid} {low}".lower())))
            score[rid] += 2 * sum(1 for phrase in phrases if phrase in low)  # "go for it", "colour match"
        for word, ids in session.game.rule_words.items():  # the words players use for a rule
            if (" " in word and word in words) or word in asked:
                for rid in ids:
                    if rid in score:
                        score[rid] += 1
        ranked = sorted(((n, rid) for rid, n in score.items()), key=lambda hit: -hit[0])
        found = [rid for n, rid in ranked[:3] if n]
        if not found:
            return ("I can't answer questions in my own words offline; try 'rules' and one word (e.g. 'rules "
                    f"{min(asked, default='score')}'), 'what can I do?' or 'help'.")
        return "From the rules:\n" + "\n".join(f"[{rid}] {rules[rid]}" for rid in found)

    @staticmethod
    def understand(session: Session, seat: str, text: str) -> Reading:
        """What ``seat`` means by ``text`` now: the game's :class:`~gm.core.phrasing.Phrasing` at the
        session's state (a move, candidates to ask about, or nothing)."""
        return session.game.phrasing().read(session.state, seat, text)

    def _make(self, session: Session, turn: RefereeTurn, seat: str, action: Action, *, said_back: bool) -> None:
        """Make ``action`` through the game's tool for it, and narrate the result (saying the move back
        first when it was read from other words than its own)."""
        game = session.game
        call = tool_call_for(game, session.state, seat, action)
        if call is None:
            turn.narration = f"{action} is not something you can do with the tools of {game.name}. " + self._forms(session, seat)
            turn.flags.append(NOT_UNDERSTOOD)
            return
        tool, args = call
        res = self._call(session, turn, tool, args, seat)
        turn.narration = (f"Read as '{action}'.\n" if said_back and res.get("ok") else "") + self.narrate(res)
        if res.get("ok"):
            turn.board = res.get("board")

    @staticmethod
    def _answer(session: Session, words: str, asked: tuple[int, tuple[Action, ...]] | None) -> Action | None:
        """The candidate a reply to the last clarifying question picks, if the game has not moved on
        since: "yes" to a single one, a place in the list ("the second", "2nd one"), or words only one
        of them has ("right" when asked left, center or right yellow); ``None`` otherwise."""
        if asked is None or asked[0] != len(session.state.log) or not words:
            return None
        options = asked[1]
        if len(options) == 1 and words in _YES:
            return options[0]
        said = [w for w in words.split() if w not in ("the", "one", "please", "option", "choice", "move")]
        if len(said) == 1 and said[0] in _ORDINALS and -len(options) <= _ORDINALS[said[0]] < len(options):
            return options[_ORDINALS[said[0]]]
        fits = [o for o in options if said and set(said) <= set(str(o).lower().split())]
        return fits[0] if len(fits) == 1 else None

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
            result = {"ok": False, "error": error_json(exc)}
        turn.calls.append(ToolCallRecord(tool, args, seat, result))
        return result

