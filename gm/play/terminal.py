"""The terminal game: a person (or two at one keyboard) against the built-in bot.

The loop reads a line for the human seat that must act, hands it to the referee
(which acts only through ``session.call``), and prints the referee's narration
and the engine-rendered board.  Every line typed, tool call, result and
narration is recorded in a transcript.  Piped input works: the loop never waits
on a prompt after the input ends, and it always closes with a summary.
"""

from __future__ import annotations

import getpass
import os
import sys
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console

from gm.referee.base import handle_streaming

if TYPE_CHECKING:
    from gm.referee.base import Referee
    from gm.session import Session


@dataclass
class Terminal:
    """Input and output of the game; colour via rich where the terminal supports it
    (never with ``NO_COLOR`` or when output is not a terminal)."""

    stdin: IO[str] = field(default_factory=lambda: sys.stdin)
    stdout: IO[str] = field(default_factory=lambda: sys.stdout)
    #: how the player runs gm where they are (``gm``, ``.venv/bin/gm``): the hints print it
    command: str = "gm"
    console: Console = field(init=False)

    def __post_init__(self) -> None:
        plain = bool(os.environ.get("NO_COLOR")) or not _isatty(self.stdout)
        self.console = Console(
            file=self.stdout, highlight=False, no_color=plain, force_terminal=None if not plain else False, soft_wrap=True
        )

    @property
    def interactive(self) -> bool:
        return _isatty(self.stdin)

    def say(self, text: str, style: str | None = None) -> None:
        if text:
            self.console.print(text, style=style, markup=False)

    def waiting(self, what: str) -> AbstractContextManager[object]:
        """A spinner with ``what`` while a slow step runs (a model answering), on a terminal only:
        piped output stays a plain game log."""
        if not _isatty(self.stdout):
            return nullcontext()
        return self.console.status(what, spinner="dots")

    def streaming(self, what: str) -> _Streaming:
        """Where a referee's narration is written as it comes: a spinner with ``what`` (on a terminal)
        until the first piece, then the pieces as they arrive (:meth:`_Streaming.write`)."""
        return _Streaming(self, what)

    def board(self, text: str | None) -> None:
        if text:
            self.console.print(text, markup=False, style="cyan")

    def ask(self, prompt: str, *, secret: bool = False) -> str | None:
        """One line from the player (``None`` at end of input).  ``secret`` hides typing."""
        try:
            if self.interactive:
                if secret:
                    self.console.print(prompt, end="", style="bold", markup=False)
                    return getpass.getpass("")
                _line_editing()
                self.stdout.flush()
                return input(prompt)  # with readline: arrow keys edit the line, up and down recall earlier ones
            line = self.stdin.readline()
            if line == "":
                return None
            line = line.rstrip("\n")
            # echo scripted input so the output reads like a game log (never a secret pick)
            self.console.print(prompt + ("(hidden)" if secret else line), markup=False, style="bold")
            return line
        except EOFError:
            return None
        except KeyboardInterrupt:
            self.console.print("")  # the prompt's line stays as it was; the summary starts on its own
            raise


class _Streaming:
    """The narration of one message written as it arrives (see :meth:`Terminal.streaming`)."""

    def __init__(self, term: Terminal, what: str) -> None:
        self.term = term
        self.what = what
        self.written = ""
        self._status: Any = None

    def __enter__(self) -> _Streaming:
        if _isatty(self.term.stdout):
            self._status = self.term.console.status(self.what, spinner="dots")
            self._status.start()
        return self

    def write(self, piece: str) -> None:
        """One more piece of the narration (the first one stops the spinner)."""
        if self._status is not None:
            self._status.stop()
            self._status = None
        self.term.console.print(piece, end="", markup=False, highlight=False, emoji=False)
        self.term.console.file.flush()
        self.written += piece

    def __exit__(self, *exc: object) -> None:
        if self._status is not None:
            self._status.stop()
        if self.written:
            self.term.console.print("")  # the narration's line ends


def _line_editing() -> None:
    """Line editing and history at the prompt (GNU readline, where Python has it; a secret pick is
    read by getpass and never enters the history)."""
    try:
        import readline  # noqa: F401  (importing it is what turns editing on for input())
    except ImportError:  # a Python built without readline: plain input still works
        pass


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass
class GameSummary:
    outcome: str | None
    status: str
    moves: int
    ended: str  # finished | quit | input ended | Ctrl-C | bot error | stuck


def play_game(session: Session, referee: Referee, term: Terminal) -> GameSummary:
    """Run the game until it ends, the player quits, input runs out or Ctrl-C is pressed (every
    move is saved as it is made; the summary says how to resume)."""
    try:
        ended = _play(session, referee, term)
    except KeyboardInterrupt:
        ended = "Ctrl-C"
    if session.recorder:
        session.recorder.sync_bot_moves(session, final=True)  # the recording pauses or ends here
    return _summary(session, term, ended)


def _play(session: Session, referee: Referee, term: Terminal) -> str:
    """The game loop; returns why it stopped."""
    game = session.game
    humans = session.human_seats
    hot_seat = len(humans) > 1
    opponents = ", ".join(f"{s} = {session.players[s]}" for s in game.seats if s not in humans) or "hot seat"
    term.say(f"{game.name}: you play {', '.join(humans)} ({opponents}). Session {session.id}.", "bold")
    term.say(seed_line(session), "yellow" if session.practice else None)
    term.say("Type 'help' for commands, 'quit' to stop (the game is saved).")
    session.set_referee(referee.kind, referee.model)
    # at a keyboard, stop when the player is out of the game (a blocked GridMaster4 colour) and let
    # them watch, skip or quit; piped input gets the whole game as a log
    session.pause_when_out = term.interactive
    if session.bots_owe_move():  # a resumed game whose bots still owe a move
        session.opening_events = session.opening_events + session.advance()
    for ev in session.opening_events:
        term.say(str(ev.get("text", "")))
    viewer = humans[0] if humans else None  # whose view of the board is on the screen
    shown = _show_position(session, term, viewer)
    ended = "finished"
    announced: set[str] = set()
    while not session.state.is_terminal:
        acting = [s for s in session.state.to_act() if s in humans]
        if not acting and session.pause_when_out and session.humans_out():
            how = _play_on(session, term, humans)
            if how != "finished":
                return how
            continue
        if not acting:
            if session.bot_error:
                term.say(session.bot_error, "red")
                ended = "bot error"
                break
            session.advance()
            if not [s for s in session.state.to_act() if s in humans] and not session.state.is_terminal:
                ended = "stuck"
                break
            continue
        seat = acting[0]
        if hot_seat and seat != viewer:
            # at one keyboard each seat sees its own view (its own hand, say) before it types
            viewer = seat
            shown = _show_position(session, term, seat)
        # the whole of a simultaneous round is typed hidden in hot seat, the last pick too
        secret = hot_seat and (len(session.state.to_act()) > 1 or _round_open(session, seat))
        for bot_seat, digest in session.commitments().items():
            if digest not in announced:
                announced.add(digest)
                term.say(f"{bot_seat} has locked in its choice. Commitment: {digest}", "magenta")
        decision = session.state.decision(seat)
        hint = f" ({decision.replace('_', ' ')})" if decision else ""
        line = term.ask(f"{seat}{hint}> ", secret=secret)
        if line is None:
            ended = "input ended"
            break
        streamed = ""  # the narration already written as it streamed
        if getattr(referee, "streams", False) and not secret:  # a language model writes: its narration shows as it comes
            with term.streaming(f"waiting for {referee.kind} ({referee.model})...") as out:
                turn = handle_streaming(referee, session, seat, line, out.write)
            streamed = out.written
        elif getattr(referee, "model", None):  # a language model answers: say we are waiting on it
            with term.waiting(f"waiting for {referee.kind} ({referee.model})..."):
                turn = referee.handle(session, seat, line)
        else:
            turn = referee.handle(session, seat, line)
        if turn.control == "quit":
            if not streamed:
                term.say(turn.narration)
            ended = "quit"
            break
        if turn.control == "undo":
            term.say(_undo(session, seat))
            continue
        if secret and turn.accepted and _still_secret(session):
            term.say(f"{seat} is locked in. Pass the keyboard.")  # never echo a hot-seat secret
            continue
        if not streamed:
            term.say(turn.narration)
        if hot_seat and turn.accepted and _next_human(session, humans) not in (None, seat):
            continue  # the next seat at the keyboard is shown its own view, not this seat's
        if turn.board and (turn.board != shown or not turn.accepted):
            shown, viewer = turn.board, seat
            term.board(turn.board)
            if session.recorder:
                session.recorder.board(turn.board, seat)
        if turn.accepted and not session.state.is_terminal:  # the summary prints the final status
            term.say(game.status(session.state, seat), "bold")
    return ended


def _play_on(session: Session, term: Terminal, humans: list[str]) -> str:
    """Every human seat is out while the bots play on: watch them a round at a time, skip to the
    end, or quit (the game is saved and resumes here).  Returns why it stopped."""
    from gm.session.session import MAX_BOT_MOVES

    game, st = session.game, session.state
    left = [s for s in game.seats if s not in humans and not st.is_out(s)]
    who = " and ".join(humans)
    term.say(f"{who} cannot move any more; {', '.join(left)} play on until the game ends.", "yellow")
    round_moves = max(1, len(left))
    while not session.state.is_terminal:
        line = term.ask("[w]atch the next round, [s]kip to the end, or [q]uit? (w) ")
        if line is None:
            return "input ended"
        answer = line.strip().lower()
        if answer in ("q", "quit"):
            return "quit"
        if answer in ("s", "skip"):
            before = len(session.state.log)
            session.advance(limit=MAX_BOT_MOVES)  # a limit plays on past the pause
            term.say(f"Skipped {len(session.state.log) - before} moves.")
            term.board(game.render(session.state, humans[0]))
        elif answer in ("", "w", "watch"):
            for ev in session.advance(limit=round_moves):
                term.say(str(ev.get("text", "")))
            if not session.state.is_terminal:
                term.say(game.status(session.state, humans[0]), "bold")
        else:
            term.say("Type w (or Enter) to watch the next round, s to skip to the end, or q to quit.")
            continue
        if session.bot_error:
            term.say(session.bot_error, "red")
            return "bot error"
    return "finished"


def _next_human(session: Session, humans: list[str]) -> str | None:
    """The human seat that must act next (``None``: a bot or nobody)."""
    return next((s for s in session.state.to_act() if s in humans), None)


def _still_secret(session: Session) -> bool:
    """Whether the last move made is still a locked, unrevealed pick."""
    log = session.log(None)
    return bool(log) and log[-1][1] == "locked"


def _round_open(session: Session, seat: str) -> bool:
    """Whether another seat has a locked, unrevealed pick in the current round."""
    return any(text == "locked" for who, text in session.log(seat) if who != seat)


def _undo(session: Session, seat: str) -> str:
    """Take back ``seat``'s own locked pick if nobody has seen it; never another seat's (at one
    keyboard the seat typing is the seat whose turn it is)."""
    return session.retract(seat)


def seed_line(session: Session) -> str:
    """How the game's chance is kept honest, said once at the start."""
    if session.practice:
        return (
            f"Practice game: the seed ({session.secret.seed}) is known, so the bot's picks and every roll are "
            "predictable. Leave out --seed for a game with a hidden seed."
        )
    line = f"Seed hidden until the game ends; its SHA-256 commitment is {session.seed_commitment}."
    if session.game.simultaneous:  # only where seats choose at the same time do bots lock picks first
        line += (" When a bot chooses at the same time as you, it locks its pick first and shows you a SHA-256 "
                 "commitment (a fingerprint of its pick and a random nonce); the reveal after your pick gives both, "
                 "so you can check the pick was not changed.")
    return line


def _show_position(session: Session, term: Terminal, seat: str | None) -> str:
    board = session.game.render(session.state, seat)
    term.board(board)
    term.say(session.game.status(session.state, seat), "bold")
    if session.recorder:
        session.recorder.board(board, seat)
    return board


def _summary(session: Session, term: Terminal, ended: str) -> GameSummary:
    st = session.state
    status = session.game.status(st, None)
    outcome = str(st.outcome) if st.outcome else None
    term.say("")
    if outcome:
        term.say(f"Game over: {outcome}.", "bold green")
        if not session.practice:
            rev = session.secret.reveal()
            term.say(f"The seed was {rev['seed']} (salt {rev['salt']}): sha256(salt:seed) = {rev['commitment']}, "
                     "the commitment shown at the start. The transcript replays the whole game.")
    else:
        where = session.path or session.id
        why = "you pressed Ctrl-C" if ended == "Ctrl-C" else ended
        term.say(f"Game paused ({why}); saved as {where}. Resume with: {term.command} play --resume {session.id}", "yellow")
    term.say(status)
    term.say(f"{len(st.log)} moves played.")
    return GameSummary(outcome, status, len(st.log), ended)


def transcript_path(session: Session) -> Path | None:
    """Where the session's transcript is (file stores)."""
    where = session.transcript_location()
    return Path(where) if where else None
