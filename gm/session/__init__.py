"""Sessions: one game, stored, played through :meth:`Session.call` by every front end.

See :mod:`gm.session.session` for the session, :mod:`gm.session.store` for where sessions are kept,
:mod:`gm.session.records` for their tamper-evident stored form, :mod:`gm.session.keys` for the key
that seals them, and :mod:`gm.session.commit` for commit and reveal.
"""

from __future__ import annotations

from gm.session.commit import SecretStatus, SeedSecret, commitment, seed_commitment, verify, verify_seed
from gm.session.home import default_home, sessions_dir
from gm.session.keys import KeyRing, load_keyring
from gm.session.players import SEAT_RULE, normalise_player
from gm.session.records import TamperError
from gm.session.session import SEED_MAX, Session, check_seed
from gm.session.store import (
    SESSION_RULE,
    SUFFIX,
    FileStore,
    MemoryStore,
    SessionConflict,
    SessionNotFound,
    SessionStore,
    open_store,
)

__all__ = [
    "SEAT_RULE",
    "SEED_MAX",
    "SESSION_RULE",
    "SUFFIX",
    "FileStore",
    "KeyRing",
    "MemoryStore",
    "SecretStatus",
    "SeedSecret",
    "Session",
    "SessionConflict",
    "SessionNotFound",
    "SessionStore",
    "TamperError",
    "check_seed",
    "commitment",
    "default_home",
    "load_keyring",
    "normalise_player",
    "open_store",
    "seed_commitment",
    "sessions_dir",
    "verify",
    "verify_seed",
]
