"""A session: one game, played through one entry point, :meth:`Session.call`.

A session is a game, a ruleset (with its hash), a seed, the players of each seat (``human`` or
``bot:STRATEGY``) and the action log from which the state is rebuilt.  Every front end (CLI, offline
and LLM referees, MCP, the HTTP server) acts only through ``session.call(tool, args, seat)``, which
never raises: it answers with a JSON-ready dict, ``ok: true`` with events, board, status and what is
expected next, or ``ok: false`` with the rule id, the reason and the legal alternatives (and then the
session has not changed).

The work is split along its jobs, each a collaborator with its own tests; :class:`Session` is the
facade that holds them together and the live state (the game, the secret book, :meth:`_apply`):

- tool calls: :class:`gm.session.dispatch.Dispatcher` (:meth:`call`: the tool, the seat, the
  arguments, the action applied and stored, the result made when read, every error in one shape);
- lifecycle: :mod:`gm.session.lifecycle` (:meth:`create`, :meth:`restore`, :meth:`open`: the header,
  the seeds, a stored session read back and checked; a reload after another process moved);
- storage: :class:`gm.session.ledger.Ledger` seals, chains (:mod:`gm.session.records`) and appends
  the records to a :mod:`gm.session.store` (files, memory, SQL), inside the write a call holds;
- commit and reveal: :class:`gm.session.commit.SecretBook` (secret picks, bot commitments) and
  :class:`gm.session.commit.SeedSecret` (the hidden seed);
- the bots: :class:`gm.session.driver.BotDriver` (a fresh, seeded bot for every decision, committing
  first when a human chooses in the same round) and :func:`gm.session.driver.play_owed`;
- undo: :class:`gm.session.undo.Undo` (a seat's own locked pick, taken back);
- recording: :class:`gm.session.recording.Recording` puts every call, bot move and reveal into the
  session's transcript, whichever front end plays; front ends add what only they know (the player's
  words, the narration, boards shown, model responses) via :attr:`Session.recorder`;
- views: :mod:`gm.session.views` (the log, the seed and the whole game as a seat may read them).

Reading never changes a session: :meth:`open`, :meth:`view` and query tools write nothing to the
game (a bot that owes a move makes it at the next action, or when a front end calls :meth:`advance`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm.core.chance import Chance
from gm.core.game import Game
from gm.core.state import GameState
from gm.core.tools import ToolSpec, expected
from gm.session import lifecycle
from gm.session.commit import LOCKED_TEXT, SecretBook, SeedSecret
from gm.session.dispatch import Dispatcher
from gm.session.driver import MAX_BOT_MOVES as MAX_BOT_MOVES
from gm.session.driver import BotDriver, play_owed
from gm.session.driver import advance as _advance
from gm.session.ledger import Ledger
from gm.session.ledger import store_keys as store_keys  # (where callers have long found it)
from gm.session.lifecycle import SEED_MAX as SEED_MAX
from gm.session.lifecycle import check_seed as check_seed
from gm.session.recording import Recording
from gm.session.records import Chain
from gm.session.result import Pending
from gm.session.store import FileStore, SessionStore
from gm.session.undo import Undo
from gm.session.views import log_as_seen, public_move, seed_info, session_view

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.bots import Bot
    from gm.transcript.recorder import Recorder


class Session:
    """One game: setup, players, live state and its stored records."""

    def __init__(
        self, game: Game, state: GameState[Any], *, id: str, store: SessionStore, chain: Chain, players: Mapping[str, str],
        secret: SeedSecret, created: str, injected: Mapping[str, Bot] | None = None, chance: Chance | None = None,
    ) -> None:
        self.game = game
        self.state = state
        self.id = id
        self.store = store
        #: the stored records: sealed, chained, appended (gm.session.ledger)
        self.ledger = Ledger(store, id, chain)
        self.players = dict(players)
        self.secret = secret
        #: the chance setup the game started with: its generator, and outcomes supplied at the start
        self.chance = chance if chance is not None else Chance.of(state.generator)
        self.created = created
        #: the last action result, made when first read or before the game changes (gm.session.result)
        self.pending = Pending()
        self._expected: tuple[GameState[Any], int, str | None, list[dict[str, Any]]] | None = None
        self.tools: list[ToolSpec] = game.tools(state.rules)
        #: the tool calls (gm.session.dispatch) and taking back a pick (gm.session.undo)
        self.dispatch = Dispatcher(self, self.tools)
        self.undo = Undo(self)
        self.book = SecretBook()
        self.driver = BotDriver(game, self.players, secret.bot_seed, injected or {}, secret.nonce_seed)
        self.bot_error: str | None = None
        #: the transcript of the game (gm.session.recording)
        self.recording = Recording(self)
        #: what the set-up decided (before any move) and the events of the bot moves made when the
        #: session was created
        self.opening_events: list[dict[str, Any]] = []
        #: commit to a human's secret pick too when another human still picks in its round (a served
        #: game between two players: each page verifies the other's reveal); off for local play
        self.commit_human_picks = False
        #: stop the bots once every human seat is out of the game (``GameState.is_out``), so that a
        #: terminal can offer to watch or skip the rest; :meth:`advance` with a limit plays on
        self.pause_when_out = False
        #: called with the seat after each bot move while it is set (an MCP server's progress
        #: notifications for a call that lets bots think)
        self.on_bot_move: Callable[[str], None] | None = None

    # ------------------------------------------------------------- properties
    @property
    def path(self) -> Path | None:
        """The session file, for a file store."""
        return self.store.path(self.id) if isinstance(self.store, FileStore) else None

    @property
    def stored_count(self) -> int:
        """How many records of this session this copy has read or written (a server compares it with
        the store's count to tell a stale cached copy)."""
        return self.ledger.count

    @property
    def practice(self) -> bool:
        """Whether the seed is public (it was given), so everything chance and the bots decide is predictable."""
        return self.secret.practice

    @property
    def seed_commitment(self) -> str:
        return self.secret.commitment

    @property
    def public_seed(self) -> int | None:
        """The seed as the players may know it: a practice game's, or any game's once it is over."""
        return self.secret.seed if self.practice or self.state.is_terminal else None

    @property
    def human_seats(self) -> list[str]:
        return [s for s in self.game.seats if self.players.get(s) == "human"]

    @property
    def bot_seats(self) -> list[str]:
        return [s for s in self.game.seats if self.players.get(s, "").startswith("bot:")]

    @property
    def bot_seed(self) -> int:
        return self.secret.bot_seed

    @property
    def nonce_seed(self) -> int | None:
        return self.secret.nonce_seed

    # ------------------------------------------------ lifecycle (gm.session.lifecycle)
    @classmethod
    def create(
        cls, game: str | Game, *, seed: int | None = None, rules: Any = None, players: Mapping[str, str] | None = None,
        home: str | Path | None = None, persist: bool = True, id: str | None = None, bot_seed: int | None = None,
        nonce_seed: int | None = None, bots: Mapping[str, Bot] | None = None, store: SessionStore | None = None,
        record: bool = True, referee: str = "none", model: str | None = None, title: str | None = None,
        secret: SeedSecret | None = None, advance: bool = True, chance: Chance | str | None = None,
    ) -> Session:
        """A new session, stored in ``store`` (default: files under ``home``, default ``$GM_HOME``;
        ``persist=False``: in memory).  ``players`` maps seats to ``human`` / ``bot:NAME``; seats not
        named are human.  ``rules``: a ruleset, a mapping or a TOML file path.  ``seed``: a practice
        game with that public seed (reproducible: bots and nonces derive from it, unless
        ``bot_seed`` / ``nonce_seed`` say otherwise); ``None``: a hidden random seed.  ``bots``
        injects bot instances for some seats (a transcript replay serves recorded moves this way).
        ``record``: keep a transcript of the game in the store.  ``secret``: the whole seed secret
        (a replay rebuilds a hidden-seed game with the seed its transcript revealed).  ``chance``: the
        chance generator's id or a :class:`~gm.core.chance.Chance` setup (outcomes supplied at the
        start); ``None``: the generator new games use.  Bots that must move first do so before this
        returns."""
        return lifecycle.create(
            cls, game, seed=seed, rules=rules, players=players, home=home, persist=persist, id=id, bot_seed=bot_seed,
            nonce_seed=nonce_seed, bots=bots, store=store, record=record, referee=referee, model=model, title=title,
            secret=secret, advance=advance, chance=chance,
        )

    @classmethod
    def restore(
        cls, game: Game, *, rules: Any, players: Mapping[str, str], secret: SeedSecret, moves: list[tuple[str, str]],
        store: SessionStore, id: str | None = None, chance: Chance | str | None = None,
    ) -> Session:
        """A new stored session holding a game brought back (a token): ``moves`` replayed through the
        engine, which checks each one; the bots move only when the game goes on.  ``chance``: the
        game's generator and the outcomes supplied to it (see :meth:`create`)."""
        return lifecycle.restore(cls, game, rules=rules, players=players, secret=secret, moves=moves, store=store, id=id, chance=chance)

    @classmethod
    def resolve(cls, ref: str | Path, home: str | Path | None = None) -> Path:
        """The file of a saved session given by id, unique id prefix, or path."""
        return lifecycle.session_file(ref, home)

    @classmethod
    def open(
        cls, ref: str | Path, *, home: str | Path | None = None, store: SessionStore | None = None, record: bool = True, anchor: bool = True
    ) -> Session:
        """Open a saved session by id, unique id prefix or path; raises :class:`StateError` (one line)
        on a missing, corrupt, edited, cut-back or foreign session.  Opening writes nothing.
        ``anchor=False``: do not hold the session to its anchor (``gm sessions repair``)."""
        return lifecycle.open_session(cls, ref, home=home, store=store, record=record, anchor=anchor)

    def refresh(self) -> bool:
        """Catch up with moves another process stored since this copy was read, without writing (a
        server's cached copy, before it shows a view); whether there were any."""
        return lifecycle.refresh(self)

    # ------------------------------------------------------------- recording
    def start_recording(self, referee: str | None = None, model: str | None = None, *, title: str | None = None) -> Recorder:
        """Record the game from here on in the store's transcript of the session (continuing the
        transcript already there); ``referee``/``model``: who handles the players' messages."""
        return self.recording.start(referee, model, title=title)

    @property
    def recorder(self) -> Recorder | None:
        """The transcript's recorder while the game is recorded (front ends add what only they know)."""
        return self.recording.recorder

    def set_referee(self, kind: str, model: str | None = None) -> None:
        """Who handles the players' messages from now on (recorded in the transcript)."""
        if self.recording.recorder is not None:
            self.recording.recorder.referee(kind, model)

    def transcript_location(self) -> str | None:
        """Where the transcript can be opened (file stores), else ``None``."""
        return self.store.transcript_location(self.id) if self.recording.recorder is not None else None

    # ------------------------------------------------------------- the log
    def _apply(self, seat: str, text: str | Action, *, nonce: str | None = None, digest: str | None = None) -> tuple[list[Any], dict[str, Any]]:
        """Apply a move to the state and the secret book; return its events and its stored record."""
        self.pending.settle()  # the last result reads the game as it was
        st = self.state
        acting = st.to_act()
        events = st.apply(seat, text)
        log = st.log
        action = log[-1].action
        index = len(log) - 1
        void: set[str] = set()
        for e in events:
            if "void" in e.data:
                void.update(str(v) for v in e.data["void"])
        said = str(action)
        sec = self.book.note(seat, index, said, acting, void, st.outcome is not None, nonce=nonce, digest=digest)
        hidden = sec is not None or index in st.secret_moves()
        if hidden:
            record: dict[str, Any] = {
                "seat": seat,
                "public": LOCKED_TEXT if sec is not None else action.public_text(),
                "sealed": None,  # sealed by the ledger as it appends (it needs the record's number)
                "_inner": {"action": said, "nonce": nonce},
            }
            if digest is not None:
                record["commitment"] = digest
        else:
            record = {"seat": seat, "action": said}
        return events, record

    # ------------------------------------------------------ undo (gm.session.undo)
    def can_retract(self, seat: str) -> str | None:
        """``None`` if ``seat`` may take back its last move, else why not (:meth:`gm.session.undo.Undo.can_retract`)."""
        return self.undo.can_retract(seat)

    def retract(self, seat: str) -> str:
        """Take back ``seat``'s locked, unrevealed pick (see :meth:`can_retract`); returns a message
        for that seat (it names only that seat's own pick)."""
        return self.undo.retract(seat)

    # ---------------------------------------------------------- secret views
    def commitments(self) -> dict[str, str]:
        """Open commitments of bots' secret picks: seat -> SHA-256 hex."""
        return self.book.commitments()

    def log(self, seat: str | None = None) -> list[list[str]]:
        """The action log as ``seat`` may read it: other seats' unrevealed picks show as ``locked``,
        picks the engine voided as ``voided`` (for good), moves that still carry a secret
        (``GameState.secret_moves``) in their public form (``Action.public_text``)."""
        return log_as_seen(self.state, self.book, seat)

    def public_move(self, i: int) -> str:
        """Log entry ``i`` as a spectator reads it (see :meth:`log`)."""
        return public_move(self.state, self.book, i)

    def reveals(self) -> list[dict[str, Any]]:
        """Every revealed bot commitment so far (seat, log index, choice, nonce, commitment)."""
        return self.book.reveals()

    def seed_info(self) -> dict[str, Any]:
        """What the players may know of the seed: practice or hidden, its commitment, and the seed
        itself when it is public (a practice game, or the game is over)."""
        return seed_info(self.secret, self.state.is_terminal)

    # ------------------------------------------------------------------- bots
    def bots_owe_move(self) -> bool:
        """Whether a bot must move before any human can."""
        return self.driver.owes_move(self.state)

    def humans_out(self) -> bool:
        """Whether every human seat is out of the game (``GameState.is_out``) while bots play on."""
        humans = self.human_seats
        return bool(humans) and not self.state.is_terminal and all(self.state.is_out(s) for s in humans)

    def advance(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Let bots make the moves they owe now (a writing operation): all of them, or at most
        ``limit`` (``limit`` also plays on past a :attr:`pause_when_out` pause); returns their events as JSON."""
        return _advance(self, limit)

    def advance_bots(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Let bots make every move they owe now (a bot choosing alongside a human commits first),
        or at most ``limit``; returns the events as JSON.  Stops at a human's move, and, with
        :attr:`pause_when_out` and no ``limit``, once every human seat is out of the game."""
        return play_owed(self, limit)

    # --------------------------------------------------- call (gm.session.dispatch)
    def call(
        self, tool: str, args: Mapping[str, Any] | str | None = None, seat: str | None = None, *, board: bool = False
    ) -> dict[str, Any]:
        """Run one tool call for ``seat`` (``None``: a spectator, queries only).  Never raises.
        ``board``: put the board window, as ``seat`` sees it, in an action's result (a front end
        that shows text asks for it; drawing the board is most of the cost of a call).

        The call holds the session's write lock throughout, so its records and its transcript lines
        (the call, its result, the bot moves it caused) land together and in order."""
        return self.dispatch.call(tool, args, seat, board)

    @property
    def model_tools(self) -> list[ToolSpec]:
        """The tools a language model is offered (``Game.model_tools``): the session's tools, or a
        move-as-text tool standing in for some of them; :meth:`call` takes both."""
        return self.dispatch.model_tools

    # ------------------------------------------------------------------ views
    def expected(self, seat: str | None = None) -> list[dict[str, Any]]:
        """Who must act now: seat, decision, the tools that answer it, and the player, as ``seat`` may
        be told it (``None``: a spectator): another seat's tools never show what ``seat`` may not see
        (a Chess-Football offense's pass while the ball is hidden: ``GameState.action_kinds_seen``).
        Worked out once per position and viewer."""
        st = self.state
        viewer = seat if isinstance(seat, str) and seat in self.game.seats else None
        n = len(st.log)
        # speed seam: expected-per-position - who acts next is worked out once per state, log length
        # and viewer, however often a seat asks at one position (a query, a result and its view; the
        # served page's reply, table and event-stream polls): up to ~80 us a time (bench tools:
        # tools.query_status).  The state itself is held, not its id(): a state let go of cannot
        # pass its id on to another.
        kept = self._expected
        if kept is None or kept[0] is not st or kept[1] != n or kept[2] != viewer:
            kept = self._expected = (st, n, viewer, expected(st, self.tools, self.players, viewer))
        return [dict(e, tools=list(e["tools"])) for e in kept[3]]

    def view(self, seat: str | None = None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): never another seat's pending pick, nor a
        hidden seed.  Raises :class:`GameError` for an unknown seat or a bot's seat."""
        return session_view(self, seat)

    def __repr__(self) -> str:
        return f"<Session {self.id} {self.game.id} {self.players} moves={len(self.state.log)}>"

