"""A session's transcript: every call, bot move and reveal, whichever front end plays.

:class:`Recording` is the session's recording collaborator and its one door to :mod:`gm.transcript`:
it starts the :class:`gm.transcript.recorder.Recorder` on the store's transcript of the session
(continuing what is there), keeps a human's pick sealed in it while the pick is secret, and adds
the bot moves that became public and, once a hidden-seed game is over, its seed.  Front ends add
what only they know (the player's words, the narration, boards shown, model responses) through
:attr:`gm.session.Session.recorder`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm import __version__
from gm.core.game import ruleset_hash
from gm.session.ledger import store_keys
from gm.transcript.format import Header, RefereeInfo
from gm.transcript.recorder import Recorder, Sealing

if TYPE_CHECKING:
    from gm.session.session import Session


class Recording:
    """Records one session's game in its store's transcript (while :attr:`recorder` is set)."""

    __slots__ = ("recorder", "seed_recorded", "session")

    def __init__(self, session: Session) -> None:
        self.session = session
        #: the transcript's recorder while the game is recorded, else ``None``
        self.recorder: Recorder | None = None
        #: whether the transcript holds the revealed seed
        self.seed_recorded = False

    def start(self, referee: str | None = None, model: str | None = None, *, title: str | None = None) -> Recorder:
        """Record from here on, continuing the transcript already stored; ``referee``/``model``: who
        handles the players' messages."""
        if self.recorder is not None:
            self.recorder.referee(referee or "none", model)
            return self.recorder
        s = self.session
        st = s.state
        record = s.chance.record_fields()
        header = Header(
            game=s.game.id,
            rules=st.rules.model_dump(mode="json"),
            rules_hash=ruleset_hash(st.rules),
            seed=s.secret.seed if s.practice else None,
            seed_commitment=None if s.practice else s.secret.commitment,
            players=dict(s.players),
            gm_version=__version__,
            referee=RefereeInfo(kind=referee or "none", model=model),
            title=title,
            session={"id": s.id},
            chance=record.get("chance"),
            supplied=record.get("supplied") if s.practice else None,
        )
        store, sid = s.store, s.id
        existing = store.transcript_read(sid)
        self.recorder = Recorder(
            header, sink=s.ledger.write_transcript, existing=existing, reader=lambda: store.transcript_read(sid),
            sealing=self.sealing(),
        )
        if not existing:
            self.recorder.sync_bot_moves(s)
        elif referee is not None:
            self.recorder.referee(referee, model)
        self.seed_recorded = any('"type":"seed"' in line for line in existing)
        return self.recorder

    def restart(self) -> None:
        """Start again on the stored transcript (after the session reloaded: its counters continue
        the stored ones); nothing if the game is not recorded."""
        if self.recorder is not None:
            self.recorder = None
            self.start()

    def sealing(self) -> Sealing | None:
        """How the transcript keeps a human's pick sealed while it is secret (no need in memory:
        nobody but this process reads a memory store)."""
        s = self.session
        if s.ledger.in_memory:
            return None
        keys, sid = store_keys(s.store), s.id
        return Sealing(
            active=self.human_secret_open,
            seal=lambda lines: keys.seal(sid, list(lines), "transcript"),
            open=lambda box: [str(x) for x in keys.open(sid, box, "transcript")],
        )

    def human_secret_open(self) -> bool:
        """Whether a human seat's move is still secret (a locked pick, a hidden choice)."""
        s = self.session
        st = s.state
        log = st.log
        indices = set(st.secret_moves()) | {p.index for p in s.book.open}
        return any(i < len(log) and s.players.get(log[i].seat, "human") == "human" for i in indices)

    def progress(self) -> None:
        """Bot moves that became public, and the seed once the game is over."""
        rec = self.recorder
        if rec is None:
            return
        s = self.session
        over = s.state.is_terminal
        rec.sync_bot_moves(s, final=over)
        if over and not s.practice and not self.seed_recorded:
            self.seed_recorded = True
            rec.seed(s.secret.seed, s.secret.salt, s.secret.commitment, s.chance.record_fields().get("supplied"))
