"""A session: one game, played through one entry point, :meth:`Session.call`.

A session is a game, a ruleset (with its hash), a seed, the players of each seat (``human`` or
``bot:STRATEGY``) and the action log from which the state is rebuilt.  Every front end (CLI, offline
and LLM referees, MCP, the HTTP server) acts only through ``session.call(tool, args, seat)``, which
never raises: it answers with a JSON-ready dict, ``ok: true`` with events, board, status and what is
expected next, or ``ok: false`` with the rule id, the reason and the legal alternatives (and then the
session has not changed).

The work is split along its jobs, each a collaborator with its own tests; :class:`Session` is the
facade that holds them together:

- storage: :class:`gm.session.ledger.Ledger` seals, chains (:mod:`gm.session.records`) and appends
  the records to a :mod:`gm.session.store` (files, memory, SQL), inside the write a call holds;
- commit and reveal: :class:`gm.session.commit.SecretBook` (secret picks, bot commitments) and
  :class:`gm.session.commit.SeedSecret` (the hidden seed);
- the bots: :class:`gm.session.driver.BotDriver` (a fresh, seeded bot for every decision, committing
  first when a human chooses in the same round);
- recording: :class:`gm.session.recording.Recording` puts every call, bot move and reveal into the
  session's transcript, whichever front end plays; front ends add what only they know (the player's
  words, the narration, boards shown, model responses) via :attr:`Session.recorder`;
- views: :mod:`gm.session.views` (the log and the seed as a seat may read them);
- dispatching tool calls, undo and the live state: here.

**Seeds.**  ``Session.create(seed=N)`` is a *practice* game: the seed is public and everything
(bots, nonces) is derived from it, so the game reproduces byte for byte.  Without a seed the seed is
drawn at random and hidden: views show only its commitment until the game is over.  The session's
header names the chance generator its seed keys (``chance``; a session without one was made with
``mt19937``, :mod:`gm.core.chance`) and any chance outcomes supplied at its start (a game brought
back from a chatbot's log, or copied from a running hidden-seed game): in the clear for a practice
game, sealed with the hidden seed otherwise.

Reading never changes a session: :meth:`open`, :meth:`view` and query tools write nothing to the
game (a bot that owes a move makes it at the next action, or when a front end calls :meth:`advance`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gm import __version__
from gm.core.actions import Action
from gm.core.bots import Bot
from gm.core.chance import Chance
from gm.core.errors import GameError, InvalidActionError, StateError, error_json
from gm.core.events import Event
from gm.core.game import Game, ruleset_hash
from gm.core.state import GameState
from gm.core.tools import (
    ToolSpec,
    call_key,
    covered_call,
    expected,
    keep_action,
    made_action,
    parse_args,
    tool_index,
    unknown_tool,
)
from gm.session.commit import LOCKED_TEXT, SecretBook, SeedSecret, commitment, derive
from gm.session.driver import BotDriver
from gm.session.ledger import Ledger, store_keys
from gm.session.players import SEAT_RULE, normalise_player, seat_players
from gm.session.recording import Recording
from gm.session.records import FORMAT, VERSION, Chain, TamperError
from gm.session.result import CallResult, Pending
from gm.session.store import (
    SESSION_RULE,
    SUFFIX,
    FileStore,
    MemoryStore,
    SessionConflict,
    SessionExists,
    SessionStore,
    Writer,
    check_id,
    resolve,
)
from gm.session.views import log_as_seen, public_move, seed_info

if TYPE_CHECKING:
    from gm.transcript.recorder import Recorder

#: seeds are whole numbers in this range (what every front end accepts)
SEED_MAX = 2**63 - 1
#: the most bot moves one advance makes (a guard against a game that never ends): all of a game
MAX_BOT_MOVES = 100_000


def check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise GameError(f"the seed is a whole number from 0 to {SEED_MAX}", rule=SESSION_RULE, input=str(seed)[:40])
    return seed


def _store_for(home: str | Path | None, persist: bool, store: SessionStore | None) -> SessionStore:
    if store is not None:
        return store
    return FileStore(home) if persist else MemoryStore()


class Session:
    """One game: setup, players, live state and its stored records."""

    def __init__(
        self,
        game: Game,
        state: GameState[Any],
        *,
        id: str,
        store: SessionStore,
        chain: Chain,
        players: Mapping[str, str],
        secret: SeedSecret,
        created: str,
        injected: Mapping[str, Bot] | None = None,
        chance: Chance | None = None,
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
        self._pending = Pending()
        self._expected: tuple[tuple[int, int, str | None], list[dict[str, Any]]] | None = None
        self.tools: list[ToolSpec] = game.tools(state.rules)
        self._tools = tool_index(self.tools)
        self._model_tools: list[ToolSpec] | None = None
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

    # ----------------------------------------------------------------- create
    @classmethod
    def create(
        cls,
        game: str | Game,
        *,
        seed: int | None = None,
        rules: Any = None,
        players: Mapping[str, str] | None = None,
        home: str | Path | None = None,
        persist: bool = True,
        id: str | None = None,
        bot_seed: int | None = None,
        nonce_seed: int | None = None,
        bots: Mapping[str, Bot] | None = None,
        store: SessionStore | None = None,
        record: bool = True,
        referee: str = "none",
        model: str | None = None,
        title: str | None = None,
        secret: SeedSecret | None = None,
        advance: bool = True,
        chance: Chance | str | None = None,
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
        from gm.core.registry import find_game

        g = game if isinstance(game, Game) else find_game(game)
        if isinstance(rules, str | Path):
            rules = g.load_rules_file(rules)
        ruleset = g.load_rules(rules)
        norm = seat_players(g, opponent="human", players=players, creator=False)
        if seed is not None:
            check_seed(seed)
        if secret is None:
            secret = SeedSecret.draw(seed, bot_seed=bot_seed, nonce_seed=nonce_seed)
        st = _store_for(home, persist, store)
        keys = store_keys(st)
        if id is not None:
            check_id(id)
        setup = Chance.of(chance)
        state = g.new_state(ruleset, secret.seed, setup)
        created = datetime.now(UTC).isoformat(timespec="seconds")
        for _ in range(100):
            sid = id or f"{g.id}-{secrets.token_hex(4)}"
            chain = Chain(keys, sid, plain=isinstance(st, MemoryStore))
            s = cls(g, state, id=sid, store=st, chain=chain, players=norm, secret=secret, created=created, injected=bots,
                    chance=Chance(setup.generator, dict(setup.supplied)))
            try:
                header = chain.header(s._header())
                s.ledger.position = st.create(sid, header, None if chain.plain else chain.anchor(0))
                break
            except SessionExists:
                if id is not None:
                    raise
        else:  # pragma: no cover - 100 collisions of 32 random bits
            raise StateError("could not find a free session id", rule=SESSION_RULE)
        if record:
            s.start_recording(referee, model, title=title)
        s.opening_events = s._opening() + (s.advance() if advance else [])
        return s

    def _opening(self) -> list[dict[str, Any]]:
        """What the set-up decided (a coin toss), while nobody has moved yet."""
        return [] if self.state.log else [e.to_json() for e in self.state.opening_events()]

    @classmethod
    def restore(
        cls,
        game: Game,
        *,
        rules: Any,
        players: Mapping[str, str],
        secret: SeedSecret,
        moves: list[tuple[str, str]],
        store: SessionStore,
        id: str | None = None,
        chance: Chance | str | None = None,
    ) -> Session:
        """A new stored session holding a game brought back (a token): ``moves`` replayed through the
        engine, which checks each one; the bots move only when the game goes on.  ``chance``: the
        game's generator and the outcomes supplied to it (see :meth:`create`)."""
        s = cls.create(game, rules=rules, players=players, secret=secret, store=store, id=id, advance=False, referee="import",
                       chance=chance)
        for i, (seat, text) in enumerate(moves):
            try:
                _, record = s._apply(seat, text)
            except GameError as exc:
                s.store.delete(s.id)
                raise StateError(f"move {i + 1} ({seat}: {text}) does not replay: {exc.message}", rule="CORE-TOKEN") from None
            s.ledger.append([record])
        s.book.just_revealed = []
        return s

    def _header(self) -> dict[str, Any]:
        rules = self.state.rules
        h: dict[str, Any] = {
            "id": self.id,
            "game": self.game.id,
            "rules": rules.model_dump(mode="json"),
            "rules_hash": ruleset_hash(rules),
            "players": self.players,
            "created": self.created,
            "gm_version": __version__,
            "practice": self.practice,
        }
        record = self.chance.record_fields()
        supplied = record.pop("supplied", None)
        h.update(record)  # the generator (none: mt19937)
        if self.practice:
            h.update(seed=self.secret.seed, bot_seed=self.secret.bot_seed, nonce_seed=self.secret.nonce_seed)
            if supplied:
                h["supplied"] = supplied
        else:
            h["seed_commitment"] = self.secret.commitment
            h["sealed"] = self.ledger.seal({**self.secret.sealed_part(), **({"supplied": supplied} if supplied else {})}, "header")
        return h

    # ------------------------------------------------------------------- open
    @classmethod
    def resolve(cls, ref: str | Path, home: str | Path | None = None) -> Path:
        """The file of a saved session given by id, unique id prefix, or path."""
        store, sid = cls._locate(ref, home, None)
        if not isinstance(store, FileStore):  # pragma: no cover - _locate gives files without a store
            raise StateError("not a file session", rule=SESSION_RULE)
        return store.path(sid)

    @staticmethod
    def _locate(ref: str | Path, home: str | Path | None, store: SessionStore | None) -> tuple[SessionStore, str]:
        text = str(ref).strip()
        if store is None and (isinstance(ref, Path) or "/" in text or "\\" in text or text.endswith(SUFFIX)):
            p = Path(text).expanduser()
            if p.is_dir():
                raise StateError(f"{p} is a directory, not a session file", rule=SESSION_RULE)
            if not p.is_file() or not p.name.endswith(SUFFIX) or p.parent.name != "sessions":
                raise StateError(f"no session file {p} (a session file is GM_HOME/sessions/ID{SUFFIX})", rule=SESSION_RULE)
            return FileStore(p.parent.parent), check_id(p.name.removesuffix(SUFFIX))
        st = store if store is not None else FileStore(home)
        return st, resolve(st, text)

    @classmethod
    def open(
        cls,
        ref: str | Path,
        *,
        home: str | Path | None = None,
        store: SessionStore | None = None,
        record: bool = True,
        anchor: bool = True,
    ) -> Session:
        """Open a saved session by id, unique id prefix or path; raises :class:`StateError` (one line)
        on a missing, corrupt, edited, cut-back or foreign session.  Opening writes nothing.
        ``anchor=False``: do not hold the session to its anchor (``gm sessions repair``)."""
        st, sid = cls._locate(ref, home, store)
        store_keys(st, create=False)  # (never made to read; a file store checks the anchor it reads with it)
        stored = st.read(sid)
        h = stored.header
        version = h.get("version")
        if version == 1:
            from gm.session.legacy import upgrade_v1

            stored = upgrade_v1(st, sid, stored, store_keys(st, create=False))
            h = stored.header
        elif not isinstance(version, int) or version > VERSION or h.get("format") != FORMAT:
            raise StateError(
                f"{st.where(sid, 0)}: session format version {version!r} is not supported by gm {__version__}",
                rule=SESSION_RULE,
            )
        keys = store_keys(st, create=False)
        chain = Chain(keys, sid, plain=isinstance(st, MemoryStore))
        chain.verify_header(h, st.where(sid, 0))
        s = cls._from_header(st, sid, h, chain)
        for n, rec in enumerate(stored.records, start=1):
            where = st.where(sid, n)
            chain.verify(n, rec, where)
            try:
                s._replay_record(rec, where)
            except TamperError:
                raise
            except (KeyError, TypeError, ValueError, GameError) as exc:
                why = exc.message if isinstance(exc, GameError) else "not a valid record"
                raise StateError(f"session {sid}: {where} is corrupt: {why}", rule=SESSION_RULE) from None
        if stored.anchor is not None and anchor:
            macs = [str(h.get("mac")), *(str(r.get("mac")) for r in stored.records)]
            chain.check_anchor(stored.anchor, macs, lambda n: st.where(sid, n), bool(h.get("anchored")))
        s.ledger.position = stored.position
        s.opening_events = s._opening()
        if record:
            s.start_recording()
        return s

    @classmethod
    def _from_header(cls, st: SessionStore, sid: str, h: Mapping[str, Any], chain: Chain) -> Session:
        from gm.core.registry import find_game

        where = st.where(sid, 0)
        try:
            game = find_game(str(h["game"]))
            rules = game.load_rules(h["rules"], legacy=True)  # (stored in full: a field it lacks came later)
            if ruleset_hash(rules) != h["rules_hash"]:
                raise TamperError(f"session {sid}: the ruleset does not match its hash (edited or corrupt)", rule=SESSION_RULE)
            players = {str(k): str(v) for k, v in dict(h["players"]).items()}
            if set(players) != set(game.seats):
                raise StateError(f"session {sid}: players do not match the seats of {game.id}", rule=SESSION_RULE)
            for p in players.values():
                normalise_player(game, p)
            if h.get("practice"):
                ns = h.get("nonce_seed")
                secret = SeedSecret(
                    int(h["seed"]), derive(int(h["seed"]), "salt")[:32], int(h["bot_seed"]), int(ns) if ns is not None else None, True
                )
                supplied = h.get("supplied")
            else:
                opened = chain.open(h["sealed"], "header", where)
                secret = SeedSecret.from_sealed(opened, practice=False)
                if secret.commitment != h.get("seed_commitment"):
                    raise TamperError(f"session {sid}: the seed does not open its commitment", rule=SESSION_RULE)
                supplied = opened.get("supplied")
            setup = Chance.from_record({**({"chance": h["chance"]} if "chance" in h else {}), "supplied": supplied})
            state = game.new_state(rules, secret.seed, setup)
            return cls(game, state, id=sid, store=st, chain=chain, players=players, secret=secret, created=str(h.get("created", "")),
                       chance=setup)
        except StateError:
            raise
        except GameError as exc:
            raise StateError(f"session {sid}: bad session header: {exc.message}", rule=SESSION_RULE) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"session {sid}: bad session header ({exc!r})", rule=SESSION_RULE) from None

    def _replay_record(self, rec: Mapping[str, Any], where: str) -> None:
        if "retract" in rec:
            self._take_back(str(rec["retract"]))
            return
        seat = str(rec["seat"])
        if "sealed" in rec:
            inner = self.ledger.chain.open(rec["sealed"], f"record {rec['n']}", where)
            text, nonce = str(inner["action"]), inner.get("nonce")
            digest = rec.get("commitment")
            self._apply(seat, text, nonce=str(nonce) if nonce is not None else None, digest=str(digest) if digest else None)
        else:
            self._apply(seat, str(rec["action"]))

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
        self._pending.settle()  # the last result reads the game as it was
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
                "sealed": None,  # filled in by _seal (it needs the record's number)
                "_inner": {"action": said, "nonce": nonce},
            }
            if digest is not None:
                record["commitment"] = digest
        else:
            record = {"seat": seat, "action": said}
        return events, record

    def _catch_up(self, writer: Writer) -> None:
        """Read what another process stored since this copy was read (a server's cached session, a
        game played through several server processes), before acting on it."""
        if writer.stale(self.ledger.position):
            self._resync()

    def refresh(self) -> bool:
        """Catch up with moves another process stored since this copy was read, without writing (a
        server's cached copy, before it shows a view); whether there were any."""
        if self.ledger.stored_count() == self.ledger.count:
            return False
        self._resync()
        return True

    def _resync(self) -> None:
        """Back to what is stored, the transcript's recorder too (its counters continue the stored one)."""
        self._reload()
        self.recording.restart()

    def _recover(self) -> None:
        """After a write that failed or was refused as a whole: back to what is stored, if it can be read."""
        try:
            self._resync()
        except GameError:
            pass

    def _reload(self) -> None:
        """Back to what is stored (after a failed write); never to fewer records than this copy has
        seen (a store cut back or put back from an older copy meanwhile: :class:`TamperError`)."""
        self._pending.settle()
        fresh = Session.open(self.id, store=self.store, record=False)
        if fresh.ledger.count < self.ledger.count:
            raise TamperError(
                f"session {self.id}: {self.store.description} now holds {fresh.ledger.count} records, and this "
                f"process has seen {self.ledger.count}: it was cut back or put back from an older copy",
                rule=SESSION_RULE,
            )
        self._adopt(fresh)

    def _adopt(self, fresh: Session) -> None:
        """Take the game as ``fresh`` (a copy of this session just read from the store) holds it: its
        state, secret book and ledger position.  What the header fixes (game, rules, players, seeds)
        is the same in both; the recorder, the bots' driver, the held write and the front end's
        settings (:attr:`commit_human_picks`, :attr:`pause_when_out`, :attr:`on_bot_move`) stay."""
        self.state = fresh.state
        self.book = fresh.book
        self.ledger.follow(fresh.ledger)
        self.opening_events = fresh.opening_events
        self._pending = fresh._pending
        self._expected = None
        self.bot_error = None

    # ------------------------------------------------------------------- undo
    def can_retract(self, seat: str) -> str | None:
        """``None`` if ``seat`` may take back its last move, else why not.  Only the seat's own pick,
        still locked (its round incomplete) and the last move made, may be taken back: anything
        revealed, or any other seat's pick, would leak information."""
        log = self.state.log
        if self.players.get(seat) != "human":
            return f"{seat} is not a human seat"
        own = self.book.own_open(seat)
        if own is None:
            return f"{seat} has no locked pick to take back"
        if not log or own.index != len(log) - 1:
            return "only the last move made can be taken back, and it is not yours"
        return None

    def retract(self, seat: str) -> str:
        """Take back ``seat``'s locked, unrevealed pick (see :meth:`can_retract`); returns a message
        for that seat (it names only that seat's own pick)."""
        why = self.can_retract(seat)
        if why is not None:
            return f"Cannot undo: {why}."
        self.ledger.append([{"retract": seat}])
        taken = self._take_back(seat)
        return f"Taken back: {taken}. {seat}, choose again."

    def _take_back(self, seat: str) -> str:
        why = self.can_retract(seat)
        if why is not None:
            raise StateError(f"cannot take back {seat}'s move: {why}", rule=SESSION_RULE)
        self._pending.settle()
        moves = self.state.log[:-1]
        taken = str(self.state.log[-1].action)
        fresh = self.game.new_state(self.state.rules, self.state.seed, self.chance)  # (as opening the session does)
        for m in moves:
            fresh.apply(m.seat, m.action)
        self.state = fresh
        self.book.retract(seat, len(moves))
        return taken

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
        with self.store.writing(self.id) as writer:
            self._catch_up(writer)
            self.ledger.writer = writer
            try:
                rec = self.recording.recorder
                if rec is None:
                    return self.advance_bots(limit)
                with rec.batch():
                    events = self.advance_bots(limit)
                    self.recording.progress()
                return events
            finally:
                self.ledger.writer = None

    def advance_bots(self, limit: int | None = None) -> list[dict[str, Any]]:
        """Let bots make every move they owe now (a bot choosing alongside a human commits first),
        or at most ``limit``; returns the events as JSON.  Stops at a human's move, and, with
        :attr:`pause_when_out` and no ``limit``, once every human seat is out of the game."""
        out: list[dict[str, Any]] = []
        self.bot_error = None
        if not self.driver.has_bots:
            return out
        for _ in range(MAX_BOT_MOVES if limit is None else limit):
            st = self.state
            if st.is_terminal or (limit is None and self.pause_when_out and self.humans_out()):
                break
            seat = self.driver.next_mover(st)
            if seat is None:
                break
            try:
                action, nonce, digest = self.driver.move(st, seat)  # (a bot choosing alongside a human commits first)
                events, record = self._apply(seat, action, nonce=nonce, digest=digest)
            except Exception as exc:  # a broken bot must not take the session down
                self.bot_error = f"bot {self.players[seat]} ({seat}) failed: {exc}"
                break
            try:
                self.ledger.append([record])
            except (OSError, StateError) as exc:
                self._reload()
                self.bot_error = f"could not save the move of {self.players[seat]} ({seat}): {exc}"
                break
            out.extend(e.to_json() for e in events)
            if self.on_bot_move is not None:
                self.on_bot_move(seat)
        return out

    # ------------------------------------------------------------------- call
    def call(
        self, tool: str, args: Mapping[str, Any] | str | None = None, seat: str | None = None, *, board: bool = False
    ) -> dict[str, Any]:
        """Run one tool call for ``seat`` (``None``: a spectator, queries only).  Never raises.
        ``board``: put the board window, as ``seat`` sees it, in an action's result (a front end
        that shows text asks for it; drawing the board is most of the cost of a call).

        The call holds the session's write lock throughout, so its records and its transcript lines
        (the call, its result, the bot moves it caused) land together and in order."""
        try:
            with self.store.writing(self.id) as writer:
                self._catch_up(writer)
                self.ledger.writer = writer
                try:
                    return self._locked_call(tool, args, seat, board)
                finally:
                    self.ledger.writer = None
        except GameError as exc:  # the store itself failed (a session deleted under us, a commit refused)
            self._recover()
            return self._error(tool, seat, exc)
        except Exception as exc:
            return self._error(tool, seat, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))

    def _locked_call(self, tool: Any, args: Mapping[str, Any] | str | None, seat: Any, board: bool) -> dict[str, Any]:
        rec = self.recording.recorder
        if rec is None:
            return self._guarded(tool, args, seat, board)
        with rec.batch():
            who = seat if isinstance(seat, str) or seat is None else repr(seat)[:100]
            call_id = rec.tool_call(who, str(tool)[:200], _recordable(args), board=board)
            result = self._guarded(tool, args, seat, board)
            rec.tool_result(call_id, result)
            self.recording.progress()
        return result

    def _guarded(self, tool: Any, args: Mapping[str, Any] | str | None, seat: Any, board: bool) -> dict[str, Any]:
        try:
            return self._call(tool, args, seat, board)
        except GameError as exc:
            return self._error(tool, seat, exc)
        except Exception as exc:  # the last line of defence: nothing escapes a tool
            return self._error(tool, seat, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))

    @property
    def model_tools(self) -> list[ToolSpec]:
        """The tools a language model is offered (``Game.model_tools``): the session's tools, or a
        move-as-text tool standing in for some of them; :meth:`call` takes both."""
        if self._model_tools is None:
            self._model_tools = self.game.model_tools(self.state.rules)
        return self._model_tools

    def _spec(self, name: Any) -> ToolSpec | None:
        spec = self._tools.get(name) if isinstance(name, str) else None
        if spec is None and isinstance(name, str):
            spec = next((t for t in self.model_tools if t.name == name and t.covers), None)
        return spec

    def _call(self, name: Any, args: Mapping[str, Any] | str | None, seat: Any, board: bool = False) -> dict[str, Any]:
        spec = self._tools.get(name) if type(name) is str else None
        if spec is None:
            spec = self._spec(name)
            if spec is None:
                raise unknown_tool(name, self.tools)
        if seat is not None and (type(seat) is not str or seat not in self.game.seats):
            raise InvalidActionError(
                f"unknown seat; {self.game.id} has {', '.join(self.game.seats)}", rule=SEAT_RULE, input=str(seat)[:100], legal=self.game.seats
            )
        if seat is not None and self.players.get(seat, "human") != "human":
            raise InvalidActionError(
                f"{seat} is played by {self.players[seat]}; a call can only be made for a human seat",
                rule=SEAT_RULE,
                input=seat,
                legal=self.human_seats,
            )
        if spec.covers and seat is not None:  # a move written as text: made through the tool it stands for
            name, args = covered_call(spec, self.tools, self.state, seat, args)
            spec = self._tools[name]
        key = call_key(args) if spec.made is not None else None
        action = made_action(spec, key)  # the same plain arguments made this action before
        parsed = parse_args(spec, args) if action is None else None
        if spec.kind == "query":
            data = spec.answer(self.state, seat, parsed)
            return {
                "ok": True,
                "tool": spec.name,
                "kind": "query",
                "seat": seat,
                # (a query answering the status line, as get_status and get_board do, has just worked it out)
                "status": data["status"] if "status" in data else self.game.status(self.state, seat),
                **data,
                "expected": self.expected(seat),
                "commitments": self.commitments(),
            }
        if seat is None:
            raise InvalidActionError(
                "an action needs the calling side (seat)",
                rule=SEAT_RULE,
                legal=[e["seat"] for e in self.expected() if e.get("player") == "human"] or self.human_seats,
            )
        before: list[dict[str, Any]] = []
        bots = self.driver.has_bots
        if bots and self.bots_owe_move():  # left owing after an interrupted write: they move first
            before = self.advance_bots()
        if action is None:
            action = spec.act(self.state, seat, parsed)
            keep_action(spec, key, action)
        if self.book.just_revealed:
            self.book.just_revealed = []
        nonce = digest = None
        if self.commit_human_picks and any(s != seat and self.players.get(s) == "human" for s in self.state.to_act()):
            # another human still picks this round: commit as a bot does, with a nonce nobody can
            # derive (a practice game's derived nonces are public, and a pick has few values)
            nonce = secrets.token_hex(16)
            digest = commitment(str(action), nonce)
        events, record = self._apply(seat, action, nonce=nonce, digest=digest)  # a rejected action raises here and changes nothing
        try:
            self.ledger.append([record])
        except SessionConflict as exc:
            self._reload()
            raise SessionConflict(f"{exc.reason}; reloaded it, the move was not made: call again", rule=SESSION_RULE) from None
        except OSError as exc:
            self._reload()
            raise StateError(f"could not save the session ({exc.strerror or exc}); the move was not made", rule=SESSION_RULE) from None
        if bots:  # each move's events in words before the next move is made, as they were then
            out = [*before, *(e.to_json() for e in events)]
            out.extend(self.advance_bots())
            return self._action_result(spec, seat, action, out, board)
        self.bot_error = None
        return self._action_result(spec, seat, action, events, board)  # (made into JSON when read)

    def _action_result(
        self, spec: ToolSpec, seat: str, action: Action, events: list[Event] | list[dict[str, Any]], board: bool
    ) -> CallResult:
        """An action's result: what changes with the next move (the reveals taken from the book, the
        seed, a bot's error) is taken now; the rest (events and narration in words, the board window,
        status, who acts next, commitments, outcome) when the result is first read, or before the game
        next changes (:class:`gm.session.result.CallResult`)."""
        st = self.state
        book = self.book
        reveal = book.take_revealed() if book.just_revealed else {}
        seed = self.secret.reveal() if st.outcome is not None and not self.practice else None
        # (the function and its arguments, not a closure: a closure's cells would cost more than the rest of this)
        return self._pending.lazy(Session._made_result, self, spec, seat, action, events, board, st, reveal, seed, self.bot_error)

    def _made_result(
        self, spec: ToolSpec, seat: str, action: Action, events: list[Event] | list[dict[str, Any]], board: bool, st: GameState[Any],
        reveal: dict[str, Any], seed: dict[str, Any] | None, bot_error: str | None,
    ) -> dict[str, Any]:
        """The content of :meth:`_action_result`'s result, made from the game as it is (the session
        makes it before the game changes)."""
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
                **({"board": self.game.render(st, seat)} if board else {}),
                "status": self.game.status(st, seat),
                "expected": self.expected(seat),
                "commitments": self.commitments(),
                "reveal": reveal,
                "outcome": st.outcome.to_json() if st.outcome else None,
            }
        except Exception as exc:  # nothing escapes a tool, whenever its result is read
            return self._error(spec.name, seat, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))
        if seed is not None:
            result["seed"] = seed
        if bot_error:
            result["bot_error"] = bot_error
        return result

    def _error(self, tool: Any, seat: Any, exc: GameError) -> dict[str, Any]:
        err = error_json(exc)
        try:
            viewer = seat if seat in self.game.seats and self.players.get(seat) == "human" else None
            exp = self.expected(viewer)
            status = self.game.status(self.state, viewer)
        except Exception:
            exp, status = [], ""
        return {
            "ok": False,
            "tool": tool if isinstance(tool, str) else repr(tool)[:100],
            "seat": seat if isinstance(seat, str) or seat is None else repr(seat)[:100],
            "error": err,
            "status": status,
            "expected": exp,
            "commitments": self.commitments(),
        }

    # ------------------------------------------------------------------ views
    def expected(self, seat: str | None = None) -> list[dict[str, Any]]:
        """Who must act now: seat, decision, the tools that answer it, and the player, as ``seat`` may
        be told it (``None``: a spectator): another seat's tools never show what ``seat`` may not see
        (a Chess-Football offense's pass while the ball is hidden: ``GameState.action_kinds_seen``).
        Worked out once per position and viewer."""
        st = self.state
        viewer = seat if isinstance(seat, str) and seat in self.game.seats else None
        key = (id(st), len(st.log), viewer)
        if self._expected is None or self._expected[0] != key:
            self._expected = (key, expected(st, self.tools, self.players, viewer))
        return [dict(e, tools=list(e["tools"])) for e in self._expected[1]]

    def view(self, seat: str | None = None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): never another seat's pending pick, nor a
        hidden seed.  Raises :class:`GameError` for an unknown seat or a bot's seat."""
        if seat is not None:
            if seat not in self.game.seats:
                raise GameError("unknown seat", rule=SEAT_RULE, input=seat, legal=self.game.seats)
            if self.players.get(seat) != "human":
                raise GameError(f"{seat} is played by {self.players[seat]}; its view is private", rule=SEAT_RULE, input=seat)
        st = self.state
        return {
            "session": self.id,
            "game": self.game.id,
            "seat": seat,
            "players": dict(self.players),
            "seed": self.public_seed,
            "practice": self.practice,
            "seed_commitment": None if self.practice else self.secret.commitment,
            "rules_hash": ruleset_hash(st.rules),
            "status": self.game.status(st, seat),
            "state": st.view(seat),
            "expected": self.expected(seat),
            "commitments": self.commitments(),
            "reveals": self.reveals(),
            "log": self.log(seat),
            "outcome": st.outcome.to_json() if st.outcome else None,
        }

    def __repr__(self) -> str:
        return f"<Session {self.id} {self.game.id} {self.players} moves={len(self.state.log)}>"


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
