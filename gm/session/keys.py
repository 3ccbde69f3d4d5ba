"""The key that keeps a store's secrets: it seals secret picks and hidden seeds (AES-256-GCM) and
chains every stored record to the one before it (HMAC-SHA256), so that a stored session can be read
by nobody who lacks the key and edited by nobody without it showing.

The key is kept apart from the sessions it protects: ``$GM_SECRET_KEY`` (64 hex digits), else the
file ``$GM_KEY_FILE``, else ``$GM_HOME/secret.key`` — created on first use, owner-only (0600), in an
owner-only folder.  A copy of the sessions folder or of a database is useless without it: it cannot
reveal a sealed pick or a hidden seed, and an edit to it cannot be made to verify.  (A player who
can read the key file as the same OS user as gm can read everything gm can; the key only keeps
secrets from everyone else, and from tools given the sessions but not the key.)

AES-GCM comes from ``cryptography`` rather than anything hand-made: authenticated encryption is
exactly the part not to write oneself.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import threading
from pathlib import Path
from typing import Any

from gm.core.errors import StateError
from gm.session.home import default_home, sessions_dir

KEY_ENV = "GM_SECRET_KEY"
KEY_FILE_ENV = "GM_KEY_FILE"
KEY_FILE = "secret.key"
KEY_RULE = "CORE-KEY"
#: sealed plaintexts are padded to a multiple of this many bytes, so that the length of a sealed
#: pick says nothing about which pick it is
PAD = 1024


class SealError(StateError):
    """A sealed value that does not open with this key: edited, moved, or sealed with another key."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical(obj: Any) -> bytes:
    """The canonical JSON bytes of ``obj`` (sorted keys, no spaces): what a MAC covers."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


class KeyRing:
    """One 32-byte master key; every session gets its own sub-keys derived from it."""

    def __init__(self, master: bytes, source: str = "memory") -> None:
        if len(master) != 32:
            raise StateError("a gm secret key is 32 bytes (64 hex digits)", rule=KEY_RULE)
        self._master = master
        self.source = source
        #: names the key without revealing it (stored in every session header)
        self.id = hmac.new(master, b"gm key id", hashlib.sha256).hexdigest()[:16]
        self._subs: dict[tuple[str, str], bytes] = {}
        self._aead: dict[str, Any] = {}

    @classmethod
    def generate(cls) -> KeyRing:
        return cls(secrets.token_bytes(32))

    def _sub(self, purpose: str, session_id: str) -> bytes:
        key = (purpose, session_id)
        sub = self._subs.get(key)
        if sub is None:
            if len(self._subs) > 4096:  # a long-running server: keep the cache bounded
                self._subs.clear()
            sub = self._subs[key] = hmac.new(self._master, f"gm:{purpose}:{session_id}".encode(), hashlib.sha256).digest()
        return sub

    def _cipher(self, session_id: str) -> Any:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        aead = self._aead.get(session_id)
        if aead is None:
            if len(self._aead) > 4096:
                self._aead.clear()
            aead = self._aead[session_id] = AESGCM(self._sub("seal", session_id))
        return aead

    def mac(self, session_id: str, data: bytes) -> str:
        """HMAC-SHA256 (hex) of ``data`` under the session's MAC key."""
        return hmac.new(self._sub("mac", session_id), data, hashlib.sha256).hexdigest()

    def index_mac(self, data: bytes) -> str:
        """HMAC-SHA256 (hex) of ``data`` under the key of a gm home's anchor index (no session's)."""
        return hmac.new(self._sub("anchor-index", ""), data, hashlib.sha256).hexdigest()

    def grant_mac(self, data: bytes) -> str:
        """HMAC-SHA256 (hex) of ``data`` under the key of a server's access grants (no session's)."""
        return hmac.new(self._sub("grant", ""), data, hashlib.sha256).hexdigest()

    def seal(self, session_id: str, value: Any, context: str) -> str:
        """``value`` (JSON) encrypted and authenticated for ``session_id`` and ``context`` (where it
        is stored); padded so that every value under ``PAD`` bytes seals to the same length."""
        plain = canonical(value)
        plain += b" " * (-len(plain) % PAD)
        nonce = secrets.token_bytes(12)
        ct = self._cipher(session_id).encrypt(nonce, plain, f"{session_id}|{context}".encode())
        return _b64(nonce + ct)

    def open(self, session_id: str, blob: str, context: str) -> Any:
        """The value sealed in ``blob``; :class:`SealError` if it does not open."""
        from cryptography.exceptions import InvalidTag

        try:
            raw = _unb64(blob)
            plain = self._cipher(session_id).decrypt(raw[:12], raw[12:], f"{session_id}|{context}".encode())
            return json.loads(plain)
        except (InvalidTag, ValueError, TypeError) as exc:
            raise SealError(f"a sealed value does not open ({type(exc).__name__})", rule=KEY_RULE) from None


def key_path(home: str | Path | None = None) -> Path:
    """Where the key file is: ``$GM_KEY_FILE``, else ``GM_HOME/secret.key``."""
    env = os.environ.get(KEY_FILE_ENV)
    if env:
        return Path(env).expanduser()
    return (Path(home).expanduser() if home is not None else default_home()) / KEY_FILE


def load_keyring(home: str | Path | None = None, *, create: bool = True) -> KeyRing:
    """The key ring of this installation (see the module docstring).  The key file is made,
    owner-only, the first time a session is made (``create``), and only then: never by a command
    that only reads, and never while sessions sealed with a key are there to be read (a new key would
    make them unreadable for good: the missing key is a one-line error instead).  A key file other
    users could read is refused (:func:`gm.core.files.refuse_shared`)."""
    env = os.environ.get(KEY_ENV)
    if env:
        try:
            return KeyRing(bytes.fromhex(env.strip()), source=KEY_ENV)
        except ValueError:
            raise StateError(f"${KEY_ENV} must be 64 hex digits", rule=KEY_RULE) from None
    return _file_keyring(key_path(home), create, home)


_RINGS: dict[tuple[str, int, int, int], KeyRing] = {}
_RINGS_LOCK = threading.Lock()


def _sessions_sealed(home: str | Path | None) -> int:
    """How many saved sessions the gm home holds (each sealed with some key)."""
    d = sessions_dir(home)
    try:
        return sum(1 for p in d.iterdir() if p.name.endswith(".jsonl"))
    except OSError:
        return 0


def read_key_file(path: Path, what: str = "the gm key") -> KeyRing:
    """The key in ``path`` (64 hex digits), refused if other users could read it."""
    from gm.core.files import KEY_LIMIT, read_stream, refuse_shared

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise StateError(f"cannot read {what} {path}: {exc.strerror or exc}", rule=KEY_RULE) from None
    with os.fdopen(fd, "rb", buffering=0) as f:
        st = os.fstat(f.fileno())
        refuse_shared(path, what, st.st_mode)
        cached = (str(path), st.st_ino, st.st_mtime_ns, st.st_size)
        ring = _RINGS.get(cached)
        if ring is not None:
            return ring
        try:
            ring = KeyRing(bytes.fromhex(read_stream(f, KEY_LIMIT, what, str(path)).decode("ascii").strip()), source=str(path))
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            raise StateError(f"cannot read {what} {path}: {exc}", rule=KEY_RULE) from None
    with _RINGS_LOCK:
        if len(_RINGS) > 64:
            _RINGS.clear()
        _RINGS[cached] = ring
    return ring


def _file_keyring(path: Path, create: bool, home: str | Path | None) -> KeyRing:
    if not path.exists():
        if not create:
            raise StateError(
                f"the gm key {path} is missing: restore it (or give it: ${KEY_ENV}, ${KEY_FILE_ENV}); "
                "without it no saved session can be read",
                rule=KEY_RULE,
            )
        sealed = _sessions_sealed(home)
        if sealed:
            raise StateError(
                f"the gm key {path} is missing, and {sessions_dir(home)} holds {sealed} saved "
                f"session{'s' if sealed != 1 else ''} sealed with it: restore the key file (or give it: ${KEY_ENV}, "
                f"${KEY_FILE_ENV}); gm makes no new key while sessions need the old one (to start afresh, move them away)",
                rule=KEY_RULE,
            )
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            os.write(fd, (secrets.token_hex(32) + "\n").encode())
        except FileExistsError:
            pass  # another process made it first: read theirs
        finally:
            if fd is not None:
                os.close(fd)
    return read_key_file(path)
