"""Commit and reveal: which moves are still secret, to whom, and how a secret is shown to have been
fixed before anyone else chose.

**Secret picks.**  A move made while other seats of the same round still have to choose stays hidden
from them until every seat of the round has moved (:class:`SecretBook`).  When the mover is a bot
and a human still has to choose, the bot moves *first* and the session publishes a commitment
``sha256(nonce + ":" + choice)`` (:func:`commitment`); the result that completes the round reveals
choice and nonce, and anyone can check them (:func:`verify`).  A pick the engine voids (a call a
punt cancels) is never revealed.

**Hidden seeds.**  A game's chance comes from its seed.  Unless the seed was given (a practice game),
it is drawn at random and kept secret while the game runs: every seat is shown
``seed_commitment = sha256(salt + ":" + seed)`` at the start, and seed and salt at the end, when
anyone can check the commitment and replay the whole game from its transcript (:class:`SeedSecret`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class SecretStatus(StrEnum):
    """What another seat reads in place of a move that is (or was) secret."""

    LOCKED = "locked"  # made, not yet revealed
    VOIDED = "voided"  # cancelled by the engine before its reveal: never revealed
    REVEALED = "revealed"


# (an enum member looked up once: reading it off the class each time costs a lookup per move)
_LOCKED, _REVEALED = SecretStatus.LOCKED, SecretStatus.REVEALED
#: the text of a locked pick (``SecretStatus.LOCKED.value``)
LOCKED_TEXT: str = SecretStatus.LOCKED.value

def commitment(choice: str, nonce: str) -> str:
    """The published commitment of a secret choice: SHA-256 hex of ``nonce:choice``."""
    return hashlib.sha256(f"{nonce}:{choice}".encode()).hexdigest()


def verify(reveal: Mapping[str, Any]) -> bool:
    """Whether a reveal (``choice``, ``nonce``, ``commitment``) is consistent."""
    try:
        return commitment(str(reveal["choice"]), str(reveal["nonce"])) == reveal["commitment"]
    except (KeyError, TypeError):
        return False


def derive(seed: int | str, *parts: object) -> str:
    """A hex digest derived from ``seed`` and ``parts`` (bot seeds, nonces of practice games)."""
    return hashlib.sha256(":".join(map(str, (seed, *parts))).encode()).hexdigest()


def derive_int(seed: int | str, *parts: object) -> int:
    return int(derive(seed, *parts)[:15], 16)


@dataclass(frozen=True)
class SeedSecret:
    """A game's seed and what else of a session is derived from it or hidden with it.

    ``practice``: the seed was given, so it is public (and so is everything derived from it: the
    bots' choices and the nonces of their commitments are predictable)."""

    seed: int
    salt: str
    bot_seed: int
    nonce_seed: int | None
    practice: bool

    @classmethod
    def draw(cls, seed: int | None = None, *, bot_seed: int | None = None, nonce_seed: int | None = None) -> SeedSecret:
        """A practice seed when ``seed`` is given (bots and nonces derived from it unless given),
        else a fresh secret one (bots seeded at random, nonces random)."""
        if seed is not None:
            return cls(
                seed=seed,
                salt=derive(seed, "salt")[:32],
                bot_seed=bot_seed if bot_seed is not None else derive_int(seed, "bots"),
                nonce_seed=nonce_seed if nonce_seed is not None else derive_int(seed, "nonces"),
                practice=True,
            )
        return cls(
            seed=secrets.randbits(63),
            salt=secrets.token_hex(16),
            bot_seed=bot_seed if bot_seed is not None else secrets.randbits(63),
            nonce_seed=nonce_seed,
            practice=False,
        )

    @property
    def commitment(self) -> str:
        return seed_commitment(self.seed, self.salt)

    def reveal(self) -> dict[str, Any]:
        """What the end of a game shows: seed, salt and the commitment they open."""
        return {"seed": self.seed, "salt": self.salt, "commitment": self.commitment, "verified": True}

    def sealed_part(self) -> dict[str, Any]:
        return {"seed": self.seed, "salt": self.salt, "bot_seed": self.bot_seed, "nonce_seed": self.nonce_seed}

    @classmethod
    def from_sealed(cls, data: Mapping[str, Any], practice: bool) -> SeedSecret:
        ns = data.get("nonce_seed")
        return cls(int(data["seed"]), str(data["salt"]), int(data["bot_seed"]), int(ns) if ns is not None else None, practice)


def seed_commitment(seed: int, salt: str) -> str:
    """SHA-256 hex of ``salt:seed``: what every seat is shown of a hidden seed."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


def verify_seed(reveal: Mapping[str, Any]) -> bool:
    """Whether a revealed seed (``seed``, ``salt``, ``commitment``) opens its commitment."""
    try:
        return seed_commitment(int(reveal["seed"]), str(reveal["salt"])) == reveal["commitment"]
    except (KeyError, TypeError, ValueError):
        return False


@dataclass(slots=True)
class Secret:
    """A move made while other seats of the same round still had to choose."""

    seat: str
    index: int  # position in the engine log
    choice: str
    waiting: set[str]
    nonce: str | None = None  # set for a bot's committed pick
    digest: str | None = None
    status: SecretStatus = SecretStatus.LOCKED
    #: the log index of the move that revealed it (a front end tells the reveal with that move)
    revealed_at: int | None = None

    def reveal(self) -> dict[str, Any]:
        rev = {"choice": self.choice, "nonce": self.nonce, "commitment": self.digest}
        return {**rev, "verified": verify(rev)}


@dataclass
class SecretBook:
    """The secret moves of one game: which are open, which were revealed or voided."""

    all: list[Secret] = field(default_factory=list)  # every secret move, in order
    open: list[Secret] = field(default_factory=list)  # not yet revealed
    just_revealed: list[Secret] = field(default_factory=list)  # revealed since the last result

    def note(
        self,
        seat: str,
        index: int,
        text: str,
        acting: Collection[str],
        void: set[str],
        terminal: bool,
        *,
        nonce: str | None = None,
        digest: str | None = None,
    ) -> Secret | None:
        """Bookkeeping after an accepted move at log ``index``: drop, unrevealed, the picks the engine
        voided; reveal the picks whose round is now complete; open a secret for this move if others
        of its round must still choose (returned)."""
        if void:
            for sec in self.open:
                if sec.seat in void:
                    sec.status = SecretStatus.VOIDED
            self.open = [s for s in self.open if s.status is SecretStatus.LOCKED]
        if self.open:
            revealed = []
            for sec in self.open:
                sec.waiting.discard(seat)
                if not sec.waiting or terminal:
                    sec.status = _REVEALED
                    sec.revealed_at = index
                    revealed.append(sec)
            if revealed:
                self.open = [] if len(revealed) == len(self.open) else [s for s in self.open if s.status is _LOCKED]
                self.just_revealed.extend(revealed)
        if terminal or (len(acting) == 1 and seat in acting):  # (the common case: nobody else of the round)
            return None
        others = set(acting)
        others.discard(seat)
        if others:
            sec = Secret(seat, index, text, others, nonce, digest)
            self.all.append(sec)
            self.open.append(sec)
            return sec
        return None

    def retract(self, seat: str, index: int) -> Secret:
        """Forget ``seat``'s open pick at log ``index`` (taken back)."""
        sec = next(s for s in self.open if s.seat == seat and s.index == index)
        self.open.remove(sec)
        self.all.remove(sec)
        return sec

    def commitments(self) -> dict[str, str]:
        """Open commitments of bots' secret picks: seat -> SHA-256 hex."""
        return {s.seat: s.digest for s in self.open if s.digest is not None}

    def hidden_from(self, seat: str | None) -> set[int]:
        return {s.index for s in self.open if s.seat != seat}

    def voided_for(self, seat: str | None) -> set[int]:
        return {s.index for s in self.all if s.status is SecretStatus.VOIDED and s.seat != seat}

    def own_open(self, seat: str) -> Secret | None:
        """``seat``'s own pick that is still locked, if any (the latest)."""
        mine = [s for s in self.open if s.seat == seat]
        return mine[-1] if mine else None

    def reveals(self) -> list[dict[str, Any]]:
        """Every revealed commitment so far (seat, log index, choice, nonce, commitment, and the index of
        the move that revealed it)."""
        return [
            {"seat": s.seat, "index": s.index, **s.reveal(), "revealed_at": s.revealed_at}
            for s in self.all
            if s.status is SecretStatus.REVEALED and s.digest
        ]

    def take_revealed(self) -> dict[str, dict[str, Any]]:
        """The bot reveals since the last call, by seat (and forget them)."""
        out = {}
        for s in self.just_revealed:  # (a loop: most picks revealed are humans', with nothing to show)
            if s.digest:
                out[s.seat] = s.reveal()
        self.just_revealed = []
        return out
