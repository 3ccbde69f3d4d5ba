"""Sessions: one game on disk, played through one entry point, :meth:`Session.call`.

A session is a game id, a ruleset (with its hash), a seed, the players of each seat
(``human`` or ``bot:STRATEGY``) and the action log from which the state is rebuilt.
Every front end (CLI, offline and LLM referees, MCP) acts only through
``session.call(tool, args, seat)``, which never raises: it answers with a JSON-ready
dict, ``ok: true`` with events, board, status and what is expected next, or
``ok: false`` with the rule id, the reason and the legal alternatives (and then the
session has not changed).

**Storage.** ``$GM_HOME/sessions/<id>.jsonl`` (``GM_HOME`` defaults to ``~/.gm``), an
append-only JSON Lines file: a header line, then one line per accepted action,
appended (one ``write`` of a whole line) before the call returns.  Killing the
process at any moment loses nothing acknowledged; a torn last line (a write cut
short) was never acknowledged and is dropped.  The live state is kept in memory and
only a session that is opened again replays its log.  Appends take an exclusive
``flock``; a session object that finds records on disk it has not seen (another
process moved) refuses the move, reloads and says so (``CORE-SESSION``).

**Secret choices.**  When a seat moves while other seats still have to choose in the
same round (simultaneous picks), that move stays hidden from the other seats until
every seat of the round has moved: views, tool results and :meth:`log` show it only
as locked.  When the mover is a bot and a human still has to choose, the bot moves
*first* and the session publishes a commitment ``sha256(nonce + ":" + choice)``
(``choice`` = the action's text form, ``nonce`` = 32 random hex digits); the
result that completes the round reveals choice and nonce (:func:`verify`).  On
disk the bot's move is a separate ``sealed`` record, never a plain log line (a
human with read access to the file can still read it: the file is the bot's
memory).
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gm import __version__
from gm.core.actions import Action
from gm.core.bots import Bot
from gm.core.errors import GameError, InvalidActionError, StateError
from gm.core.events import Event
from gm.core.game import Game, ruleset_hash
from gm.core.state import GameState
from gm.core.tools import ToolSpec, expected, parse_args, tool_index, unknown_tool

if sys.platform != "win32":
    import fcntl
else:  # pragma: no cover - no advisory locks; the size check still catches most conflicts
    fcntl = None

FORMAT = "gm-session"
VERSION = 1
SESSION_RULE = "CORE-SESSION"
SEAT_RULE = "CORE-SEAT"
SUFFIX = ".jsonl"


def default_home() -> Path:
    """``$GM_HOME`` or ``~/.gm``."""
    env = os.environ.get("GM_HOME")
    return Path(env).expanduser() if env else Path.home() / ".gm"


def sessions_dir(home: str | Path | None = None) -> Path:
    return (Path(home).expanduser() if home is not None else default_home()) / "sessions"


def commitment(choice: str, nonce: str) -> str:
    """The published commitment of a secret choice: SHA-256 hex of ``nonce:choice``."""
    return hashlib.sha256(f"{nonce}:{choice}".encode()).hexdigest()


def verify(reveal: Mapping[str, Any]) -> bool:
    """Whether a reveal (``choice``, ``nonce``, ``commitment``) is consistent."""
    try:
        return commitment(str(reveal["choice"]), str(reveal["nonce"])) == reveal["commitment"]
    except (KeyError, TypeError):
        return False


def _derive(seed: int, *parts: object) -> str:
    return hashlib.sha256(":".join(map(str, (seed, *parts))).encode()).hexdigest()


def normalise_player(game: Game, spec: str) -> str:
    """``human``, ``bot`` (the default strategy) or ``bot:NAME``; raises :class:`GameError`."""
    s = str(spec).strip().lower()
    if s == "human":
        return s
    if s == "bot" or s.startswith("bot:"):
        bots = game.bots()
        name = s.removeprefix("bot").removeprefix(":") or ("default" if "default" in bots else "random")
        if name not in bots:
            raise GameError(f"unknown bot strategy for {game.id}", rule="CORE-BOT", input=spec, legal=[f"bot:{b}" for b in sorted(bots)])
        return f"bot:{name}"
    raise GameError("a player is 'human' or 'bot:STRATEGY'", rule="CORE-PLAYER", input=spec, legal=["human", "bot"])


@dataclass
class _Secret:
    """A move made while other seats of the same round still had to choose."""

    seat: str
    index: int  # position in the engine log
    choice: str
    waiting: set[str]
    nonce: str | None = None  # set for a bot's committed pick
    digest: str | None = None
    revealed: bool = False
    voided: bool = False  # cancelled by the engine: never revealed

    def reveal(self) -> dict[str, Any]:
        return {"choice": self.choice, "nonce": self.nonce, "commitment": self.digest, "verified": verify(
            {"choice": self.choice, "nonce": self.nonce, "commitment": self.digest})}


class SessionConflict(StateError):
    """Another process appended to the session file since this object read it."""


class Session:
    """One game: setup, players, live state and its append-only file."""

    def __init__(
        self,
        game: Game,
        state: GameState[Any],
        *,
        id: str,
        path: Path | None,
        players: Mapping[str, str],
        bot_seed: int,
        nonce_seed: int | None,
        created: str,
    ) -> None:
        self.game = game
        self.state = state
        self.id = id
        self.path = path
        self.players = dict(players)
        self.bot_seed = bot_seed
        self.nonce_seed = nonce_seed
        self.created = created
        self.tools: list[ToolSpec] = game.tools()
        self._tools = tool_index(self.tools)
        self._bots: dict[str, Bot] = {}
        self._secrets: list[_Secret] = []  # every secret move, in order
        self._open: list[_Secret] = []  # not yet revealed
        self._just_revealed: list[_Secret] = []  # revealed since the last action result
        self._size = 0  # bytes of complete records on disk that this object knows of
        self.bot_error: str | None = None
        #: what the set-up decided (before any move) and the events of the bot moves made when the
        #: session was created or opened
        self.opening_events: list[dict[str, Any]] = []

    # ----------------------------------------------------------------- create
    @classmethod
    def create(
        cls,
        game: str | Game,
        *,
        seed: int = 0,
        rules: Any = None,
        players: Mapping[str, str] | None = None,
        home: str | Path | None = None,
        persist: bool = True,
        id: str | None = None,
        bot_seed: int | None = None,
        nonce_seed: int | None = None,
        bots: Mapping[str, Bot] | None = None,
    ) -> Session:
        """A new session (saved under ``home``, default ``$GM_HOME``; ``persist=False``
        keeps it in memory).  ``players`` maps seats to ``human`` / ``bot:NAME``; seats
        not named are human.  ``rules``: a ruleset, a mapping or a TOML file path.
        ``bot_seed`` / ``nonce_seed`` make bots and commitment nonces reproducible (for
        tests and transcripts; a known nonce seed makes commitments guessable), random
        otherwise.  ``bots`` injects bot instances for some seats (a transcript replay
        serves recorded moves this way).  Bots that must move first do so before this
        returns."""
        from gm.core.registry import find_game

        g = game if isinstance(game, Game) else find_game(game)
        if isinstance(rules, str | Path):
            rules = g.load_rules_file(rules)
        ruleset = g.load_rules(rules)
        given = dict(players or {})
        unknown = sorted(set(given) - set(g.seats))
        if unknown:
            raise GameError(f"{g.id} has no seat {unknown[0]!r}", rule=SEAT_RULE, input=unknown[0], legal=g.seats)
        norm = {seat: normalise_player(g, given.get(seat, "human")) for seat in g.seats}
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise GameError("the seed is a whole number", rule=SESSION_RULE, input=str(seed))
        state = g.new_state(ruleset, seed)
        path: Path | None = None
        if persist:
            d = sessions_dir(home)
            d.mkdir(parents=True, exist_ok=True)
            if id is None:
                while True:
                    id = f"{g.id}-{secrets.token_hex(4)}"
                    if not (d / f"{id}{SUFFIX}").exists():
                        break
            elif not id.replace("-", "").replace("_", "").isalnum():
                raise GameError("a session id uses letters, digits, - and _", rule=SESSION_RULE, input=id)
            path = d / f"{id}{SUFFIX}"
            if path.exists():
                raise StateError(f"session {id} already exists: {path}", rule=SESSION_RULE)
        s = cls(
            g,
            state,
            id=id or f"{g.id}-{secrets.token_hex(4)}",
            path=path,
            players=norm,
            bot_seed=bot_seed if bot_seed is not None else secrets.randbits(63),
            nonce_seed=nonce_seed,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        if path is not None:
            tmp = path.with_suffix(".tmp")
            header = (json.dumps(s._header(), separators=(",", ":")) + "\n").encode()
            tmp.write_bytes(header)
            os.replace(tmp, path)
            s._size = len(header)
        s._bots.update(bots or {})  # injected bot instances (e.g. replaying a transcript's bot moves)
        s.opening_events = s._opening() + s.advance_bots()
        return s

    def _opening(self) -> list[dict[str, Any]]:
        """What the set-up decided (a coin toss), while nobody has moved yet."""
        return [] if self.state.log else [e.to_json() for e in self.state.opening_events()]

    def _header(self) -> dict[str, Any]:
        rules = self.state.rules
        return {
            "format": FORMAT,
            "version": VERSION,
            "id": self.id,
            "game": self.game.id,
            "rules": rules.model_dump(mode="json"),
            "rules_hash": ruleset_hash(rules),
            "seed": self.state.seed,
            "players": self.players,
            "bot_seed": self.bot_seed,
            "nonce_seed": self.nonce_seed,
            "created": self.created,
            "gm_version": __version__,
        }

    # ------------------------------------------------------------------- open
    @classmethod
    def resolve(cls, id_or_path: str | Path, home: str | Path | None = None) -> Path:
        """The file of a session given by id, unique id prefix, or path."""
        text = str(id_or_path)
        p = Path(text).expanduser()
        if p.is_file():
            return p
        if p.is_dir():
            raise StateError(f"{p} is a directory, not a session file", rule=SESSION_RULE)
        if os.sep in text or text.endswith(SUFFIX):
            raise StateError(f"no session file {p}", rule=SESSION_RULE)
        d = sessions_dir(home)
        exact = d / f"{text}{SUFFIX}"
        if exact.is_file():
            return exact
        hits = sorted(d.glob(f"{text}*{SUFFIX}")) if d.is_dir() and text else []
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise StateError(
                f"session id {text!r} is ambiguous in {d}", rule=SESSION_RULE, legal=[h.name.removesuffix(SUFFIX) for h in hits[:10]]
            )
        raise StateError(f"no session {text!r} in {d} (gm new GAME creates one)", rule=SESSION_RULE)

    @classmethod
    def open(cls, id_or_path: str | Path, *, home: str | Path | None = None) -> Session:
        """Open a saved session by id, id prefix or path; raises :class:`StateError`
        (one line) on a missing, corrupt or foreign file.  Bots owing a move make it."""
        path = cls.resolve(id_or_path, home)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise StateError(f"cannot read session file {path}: {exc.strerror or exc}", rule=SESSION_RULE) from None
        lines = raw.split(b"\n")
        tail = lines.pop()  # b"" when the file ends with a newline; else a torn write
        good = len(raw) - len(tail)
        foreign = StateError(f"{path} is not a gm session file", rule=SESSION_RULE)
        if not lines:
            raise foreign
        try:
            header = json.loads(lines[0])
        except (UnicodeDecodeError, ValueError):
            raise foreign from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise foreign
        if not isinstance(header.get("version"), int) or header["version"] > VERSION:
            raise StateError(f"{path}: session format version {header.get('version')!r} is not supported by gm {__version__}", rule=SESSION_RULE)
        s = cls._from_header(header, path)
        for n, line in enumerate(lines[1:], start=2):
            try:
                rec = json.loads(line)
                s._replay_record(rec)
            except (UnicodeDecodeError, ValueError, KeyError, TypeError, GameError) as exc:
                why = exc.message if isinstance(exc, GameError) else "not a valid record"
                raise StateError(f"{path}: line {n} is corrupt: {why}", rule=SESSION_RULE) from None
        s._size = good
        s.opening_events = s._opening() + s.advance_bots()
        return s

    @classmethod
    def _from_header(cls, h: dict[str, Any], path: Path) -> Session:
        from gm.core.registry import find_game

        try:
            game = find_game(str(h["game"]))
            rules = game.load_rules(h["rules"])
            if ruleset_hash(rules) != h["rules_hash"]:
                raise StateError(f"{path}: the ruleset does not match its hash (edited or corrupt)", rule=SESSION_RULE)
            players = {str(k): str(v) for k, v in dict(h["players"]).items()}
            if set(players) != set(game.seats):
                raise StateError(f"{path}: players do not match the seats of {game.id}", rule=SESSION_RULE)
            for p in players.values():
                normalise_player(game, p)
            state = game.new_state(rules, int(h["seed"]))
            nonce_seed = h.get("nonce_seed")
            return cls(
                game,
                state,
                id=str(h["id"]),
                path=path,
                players=players,
                bot_seed=int(h["bot_seed"]),
                nonce_seed=int(nonce_seed) if nonce_seed is not None else None,
                created=str(h.get("created", "")),
            )
        except StateError:
            raise
        except GameError as exc:
            raise StateError(f"{path}: bad session header: {exc.message}", rule=SESSION_RULE) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateError(f"{path}: bad session header ({exc!r})", rule=SESSION_RULE) from None

    def _replay_record(self, rec: Any) -> None:
        if not isinstance(rec, dict):
            raise TypeError("record is not an object")
        if "retract" in rec:
            self._take_back(str(rec["retract"]["seat"]))
        elif "sealed" in rec:
            sealed = rec["sealed"]
            seat, text = str(sealed["seat"]), str(sealed["action"])
            acting = self.state.to_act()
            events = self.state.apply(seat, text)
            self._note_move(seat, text, acting, events, nonce=str(sealed["nonce"]), digest=str(sealed["commitment"]))
        else:
            seat, text = str(rec["seat"]), str(rec["action"])
            acting = self.state.to_act()
            events = self.state.apply(seat, text)
            self._note_move(seat, text, acting, events)

    # ------------------------------------------------------------------- undo
    def can_retract(self, seat: str) -> str | None:
        """``None`` if ``seat`` may take back its last move, else why not.  Only a locked
        pick nobody has seen may be taken back: the seat's own, the last move made, and
        still secret (its round incomplete); anything revealed would leak information."""
        log = self.state.log
        if self.players.get(seat) != "human":
            return f"{seat} is not a human seat"
        if not log or log[-1].seat != seat:
            return "only your own last move can be taken back, and it is not the last move made"
        last = self._open[-1] if self._open else None
        if last is None or last.index != len(log) - 1 or last.seat != seat:
            return "that move is already public (its result has been shown), so taking it back would leak information"
        return None

    def retract(self, seat: str) -> str:
        """Take back ``seat``'s locked, unrevealed pick (see :meth:`can_retract`); returns a message."""
        why = self.can_retract(seat)
        if why is not None:
            return f"Cannot undo: {why}."
        self._append([{"retract": {"seat": seat}}])
        taken = self._take_back(seat)
        return f"Taken back: {taken}. {seat}, choose again."

    def _take_back(self, seat: str) -> str:
        why = self.can_retract(seat)
        if why is not None:
            raise StateError(f"cannot take back {seat}'s move: {why}", rule=SESSION_RULE)
        moves = self.state.log[:-1]
        taken = str(self.state.log[-1].action)
        fresh = self.game.new_state(self.state.rules, self.state.seed)
        for m in moves:
            fresh.apply(m.seat, m.action)
        self.state = fresh
        sec = self._open.pop()
        self._secrets.remove(sec)
        return taken

    # ------------------------------------------------------------ persistence
    def _append(self, records: list[dict[str, Any]]) -> None:
        """Append whole lines in one write, under an exclusive lock.  A torn tail (a write
        cut short, never acknowledged) is cut off first; complete records this object has
        not seen mean another process moved: :class:`SessionConflict`, nothing written."""
        if self.path is None:
            return
        data = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records).encode()
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            size = os.fstat(fd).st_size
            if size != self._size:
                extra = os.pread(fd, size - self._size, self._size) if size > self._size else b""
                if size < self._size or b"\n" in extra:
                    raise SessionConflict(
                        f"session {self.id} was changed on disk by another process", rule=SESSION_RULE
                    )
                os.ftruncate(fd, self._size)  # a torn tail
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            self._size += len(data)
        finally:
            os.close(fd)  # releases the lock

    def _reload(self) -> None:
        """Back to what is on disk (after a failed write)."""
        if self.path is None:
            return
        fresh = Session.open(self.path)
        self.__dict__.update(fresh.__dict__)

    # ---------------------------------------------------------------- players
    @property
    def human_seats(self) -> list[str]:
        return [s for s in self.game.seats if self.players.get(s) == "human"]

    @property
    def bot_seats(self) -> list[str]:
        return [s for s in self.game.seats if self.players.get(s, "").startswith("bot:")]

    @property
    def settings(self) -> dict[str, Any]:
        """Session-level settings that change results (secret: they make bots and nonces predictable)."""
        return {"bot_seed": self.bot_seed, "nonce_seed": self.nonce_seed}

    def _bot(self, seat: str) -> Bot:
        bot = self._bots.get(seat)
        if bot is None:
            seed = int(_derive(self.bot_seed, seat, len(self.state.log))[:15], 16)
            bot = self._bots[seat] = self.game.make_bot(self.players[seat], seed=seed)
        return bot

    def _nonce(self, seat: str) -> str:
        if self.nonce_seed is None:
            return secrets.token_hex(16)
        return _derive(self.nonce_seed, "nonce", seat, len(self.state.log))[:32]

    # --------------------------------------------------------- secret rounds
    def _note_move(
        self,
        seat: str,
        text: str,
        acting: tuple[str, ...],
        events: list[Event],
        *,
        nonce: str | None = None,
        digest: str | None = None,
    ) -> None:
        """Bookkeeping after an accepted move: open a secret if others of the round must
        still choose; reveal secrets whose round is complete; drop, unrevealed, the picks
        the engine voided (its events list them under ``void``, e.g. a call a punt cancels)."""
        void = {str(v) for e in events for v in e.data.get("void", ())}
        if void:
            for sec in self._open:
                sec.voided = sec.seat in void
            self._open = [s for s in self._open if not s.voided]
        revealed = []
        for sec in self._open:
            sec.waiting.discard(seat)
            if not sec.waiting or self.state.is_terminal:
                sec.revealed = True
                revealed.append(sec)
        if revealed:
            self._open = [s for s in self._open if not s.revealed]
            self._just_revealed.extend(revealed)
        others = {s for s in acting if s != seat}
        if others and not self.state.is_terminal:
            sec = _Secret(seat, len(self.state.log) - 1, text, others, nonce, digest)
            self._secrets.append(sec)
            self._open.append(sec)

    def commitments(self) -> dict[str, str]:
        """Open commitments of bots' secret picks: seat -> SHA-256 hex."""
        return {s.seat: s.digest for s in self._open if s.digest is not None}

    def _hidden_from(self, seat: str | None) -> set[int]:
        return {s.index for s in self._open if s.seat != seat}

    def _voided_for(self, seat: str | None) -> set[int]:
        return {s.index for s in self._secrets if s.voided and s.seat != seat}

    def log(self, seat: str | None = None) -> list[list[str]]:
        """The action log as ``seat`` may read it: other seats' unrevealed picks show as ``locked``,
        picks the engine voided as ``voided`` (for good), moves that still carry a secret
        (``GameState.secret_moves``) in their public form (``Action.public_text``)."""
        hidden, voided = self._hidden_from(seat), self._voided_for(seat)
        secret = self.state.secret_moves()
        return [
            [
                m.seat,
                "locked" if i in hidden
                else "voided" if i in voided
                else m.action.public_text() if i in secret and m.seat != seat
                else str(m.action),
            ]
            for i, m in enumerate(self.state.log)
        ]

    def reveals(self) -> list[dict[str, Any]]:
        """Every revealed bot commitment so far (seat, log index, choice, nonce, commitment)."""
        return [{"seat": s.seat, "index": s.index, **s.reveal()} for s in self._secrets if s.revealed and s.digest]

    # ------------------------------------------------------------------- bots
    def advance_bots(self) -> list[dict[str, Any]]:
        """Let bots make every move they owe now (a bot choosing alongside a human
        commits first); returns the events as JSON.  Stops at a human's move."""
        out: list[dict[str, Any]] = []
        self.bot_error = None
        for _ in range(100_000):
            st = self.state
            if st.is_terminal:
                break
            acting = st.to_act()
            movers = [s for s in acting if self.players.get(s, "").startswith("bot:")]
            if not movers:
                break
            seat = movers[0]
            try:
                action = self._bot(seat).choose(st, seat)
                events = st.apply(seat, action)
            except Exception as exc:  # a broken bot must not take the session down
                self.bot_error = f"bot {self.players[seat]} ({seat}) failed: {exc}"
                break
            text = str(action)
            humans_waiting = any(s != seat and self.players.get(s) == "human" for s in acting)
            if humans_waiting:
                nonce = self._nonce(seat)
                digest = commitment(text, nonce)
                rec: dict[str, Any] = {"sealed": {"seat": seat, "action": text, "nonce": nonce, "commitment": digest}}
                self._note_move(seat, text, acting, events, nonce=nonce, digest=digest)
            else:
                rec = {"seat": seat, "action": text}
                self._note_move(seat, text, acting, events)
            try:
                self._append([rec])
            except (OSError, StateError) as exc:
                self._reload()
                self.bot_error = f"could not save the move of {self.players[seat]} ({seat}): {exc}"
                break
            out.extend(e.to_json() for e in events)
        return out

    # ------------------------------------------------------------------- call
    def call(self, tool: str, args: Mapping[str, Any] | str | None = None, seat: str | None = None) -> dict[str, Any]:
        """Run one tool call for ``seat`` (``None``: a spectator, queries only).  Never raises."""
        try:
            return self._call(tool, args, seat)
        except GameError as exc:
            return self._error(tool, seat, exc)
        except Exception as exc:  # the last line of defence: nothing escapes a tool
            return self._error(tool, seat, GameError(f"internal error: {type(exc).__name__}: {exc}", rule="CORE-INTERNAL"))

    def _call(self, name: Any, args: Mapping[str, Any] | str | None, seat: Any) -> dict[str, Any]:
        spec = self._tools.get(name) if isinstance(name, str) else None
        if spec is None:
            raise unknown_tool(name, self.tools)
        if seat is not None and (not isinstance(seat, str) or seat not in self.game.seats):
            raise InvalidActionError(
                f"unknown seat; {self.game.id} has {', '.join(self.game.seats)}", rule=SEAT_RULE, input=str(seat), legal=self.game.seats
            )
        if seat is not None and self.players.get(seat, "human") != "human":
            raise InvalidActionError(
                f"{seat} is played by {self.players[seat]}; a call can only be made for a human seat",
                rule=SEAT_RULE,
                input=seat,
                legal=self.human_seats,
            )
        parsed = parse_args(spec, args)
        if spec.kind == "query":
            data = spec.handler(self.state, seat, parsed)
            return {
                "ok": True,
                "tool": spec.name,
                "kind": "query",
                "seat": seat,
                "status": self.game.status(self.state, seat),
                **data,
                "expected": self.expected(),
                "commitments": self.commitments(),
            }
        if seat is None:
            raise InvalidActionError(
                "an action needs the calling side (seat)",
                rule=SEAT_RULE,
                legal=[e["seat"] for e in self.expected() if e.get("player") == "human"] or self.human_seats,
            )
        action = spec.handler(self.state, seat, parsed)
        acting = self.state.to_act()
        events = self.state.apply(seat, action)
        text = str(action)
        self._just_revealed = []
        self._note_move(seat, text, acting, events)
        try:
            self._append([{"seat": seat, "action": text}])
        except SessionConflict as exc:
            self._reload()
            raise SessionConflict(f"{exc.reason}; reloaded it, the move was not made: call again", rule=SESSION_RULE) from None
        except OSError as exc:
            self._reload()
            raise StateError(f"could not save the session ({exc.strerror or exc}); the move was not made", rule=SESSION_RULE) from None
        out = [e.to_json() for e in events]
        out.extend(self.advance_bots())
        return self._action_result(spec, seat, action, out)

    def _action_result(self, spec: ToolSpec, seat: str, action: Action, events: list[dict[str, Any]]) -> dict[str, Any]:
        st = self.state
        result: dict[str, Any] = {
            "ok": True,
            "tool": spec.name,
            "kind": "action",
            "seat": seat,
            "action": str(action),
            "events": events,
            "narration": [e["text"] for e in events],
            "board": self.game.render(st, seat),
            "status": self.game.status(st, seat),
            "expected": self.expected(),
            "commitments": self.commitments(),
            "reveal": {s.seat: s.reveal() for s in self._just_revealed if s.digest},
            "outcome": st.outcome.to_json() if st.outcome else None,
        }
        self._just_revealed = []
        if self.bot_error:
            result["bot_error"] = self.bot_error
        return result

    def _error(self, tool: Any, seat: Any, exc: GameError) -> dict[str, Any]:
        raw = exc.to_json()
        err = {"kind": raw.pop("error"), **raw}
        try:
            exp = self.expected()
            status = self.game.status(self.state, seat if seat in self.game.seats and self.players.get(seat) == "human" else None)
        except Exception:
            exp, status = [], ""
        return {
            "ok": False,
            "tool": tool if isinstance(tool, str) else repr(tool),
            "seat": seat if isinstance(seat, str) or seat is None else repr(seat),
            "error": err,
            "status": status,
            "expected": exp,
            "commitments": self.commitments(),
        }

    # ------------------------------------------------------------------ views
    def expected(self) -> list[dict[str, Any]]:
        """Who must act now: seat, decision, the tools that answer it, and the player."""
        return expected(self.state, self.tools, self.players)

    def view(self, seat: str | None = None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator): never another seat's pending pick.
        Raises :class:`GameError` for an unknown seat or a bot's seat."""
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
            "seed": st.seed,
            "rules_hash": ruleset_hash(st.rules),
            "status": self.game.status(st, seat),
            "state": st.view(seat),
            "expected": self.expected(),
            "commitments": self.commitments(),
            "reveals": self.reveals(),
            "log": self.log(seat),
            "outcome": st.outcome.to_json() if st.outcome else None,
        }

    def __repr__(self) -> str:
        return f"<Session {self.id} {self.game.id} {self.players} moves={len(self.state.log)}>"
