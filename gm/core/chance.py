"""Chance: every chance result of a game is a *named draw* (OpenSpiel's chance nodes as the model).

A game never calls a random generator itself.  Where its rules leave something to chance, the engine
asks its state for a draw, a small frozen value saying the kind of chance, the game's name for it and
the possible outcomes::

    roll = state.draw(Die("pass roll", 1, 6))
    first = state.draw(Choice("toss", ("home", "away")))
    pile = state.draw(Shuffle("shuffle", deck, about="home QB"))
    hand = state.draw(Deal("deal", pile, 5, about="home QB"))

The state draws the outcome from its seeded *generator*; a :class:`ChanceSource` set on the state
(``gm import`` reading a chatbot's dice and deals, a test scripting them) may then supply another
outcome, which is used if it is possible and refused with a :class:`ChanceError` naming the draw, the
value and the possible outcomes if not (the move that made the draw is then undone: the state is as it
was).  A source is called for every draw with gm's own outcome, so it also observes them all, and the
state can keep a log of :class:`DrawRecord` (``record=True``): an audit compares a chatbot's stated
roll with gm's ("the chatbot rolled 5; gm's roll is 2").  Outcomes a source supplied are part of the
game's record (``GameState.to_json`` keeps them by draw number), so the game still replays exactly.

**Generators** are versioned by id, and every record of a game (state JSON, token, session header,
transcript header) names the one it was made with; a record without one was made with
:data:`MT19937`, the generator of every game before chance was versioned, and replays with it:

- ``"mt19937"`` - :class:`random.Random` (CPython's Mersenne Twister) seeded with the seed.  Seen
  results are outputs of a non-cryptographic generator: its later outputs can in principle be worked
  out from enough earlier ones.  Kept only so that earlier games replay.
- ``"chacha20-v1"`` (what new games use, :data:`CURRENT`) - the ChaCha20 keystream (RFC 8439) from
  ``cryptography`` (OpenSSL), key = SHA-256 of ``b"gm chance chacha20-v1:" + str(seed)``, nonce 0,
  block counter from 0; see :class:`ChaCha20Random` for how bytes become integers, dice, choices and
  shuffles (all specified here, so the version's results do not depend on the Python version).  A
  stream cipher keyed by the seed is a cryptographic generator: the results a player has seen say
  nothing about the ones not yet drawn unless the seed is known.

The draws of the legacy generator consume it exactly as the engines did before draws had names (a
die is ``randint``, a coin or a choice ``choice``, a shuffle ``shuffle``, a deal takes the top of an
already shuffled pile and consumes nothing), so every earlier seeded game, transcript and pinned
digest replays unchanged.
"""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from gm.core.errors import GameError, StateError, quote

T = TypeVar("T")
RULE = "CORE-CHANCE"

#: the generator of every game made before chance was versioned (a record without a generator id)
MT19937 = "mt19937"
#: ChaCha20 (RFC 8439) keyed by the seed: version 1 of how its keystream becomes results
CHACHA20_V1 = "chacha20-v1"
#: what a record without a generator id was made with
LEGACY = MT19937
#: what new games draw from
CURRENT = CHACHA20_V1
#: the most outcomes an error lists one by one
LISTED_MAX = 24


class ChanceError(GameError):
    """A supplied outcome that the draw cannot have (or a source that has none where it must): the
    move that made the draw is undone."""

    kind = "chance_error"


# ------------------------------------------------------------------- generators
class ChaCha20Random(random.Random):
    """A :class:`random.Random` drawing from the ChaCha20 keystream keyed by the seed (``chacha20-v1``).

    How the keystream becomes results (version 1; every method a game's draws use is defined here, so
    the results are the same on every Python version):

    - ``getrandbits(k)``: the next ``ceil(k / 8)`` keystream bytes as a little-endian integer, shifted
      right to its top ``k`` bits (``k == 0`` reads nothing);
    - a whole number below ``n`` (``_randbelow``): ``0`` for ``n == 1`` (nothing read); else
      ``getrandbits((n - 1).bit_length())`` until it is below ``n`` (rejection: no bias);
    - ``randrange``/``randint``: ``start + step * below(count)``; ``choice(seq)``: ``seq[below(len)]``;
      ``shuffle(x)``: Fisher-Yates, for ``i`` from ``len(x) - 1`` down to 1 swap ``x[i]`` with
      ``x[below(i + 1)]``; ``random()``: ``getrandbits(53) / 2**53``.

    Other :class:`random.Random` methods (``uniform``, ``sample``, ``gauss``...) are CPython's, on
    top of these; the engines' draws do not use them.  ``getstate``/``setstate`` hold the key and the
    keystream position (the block counter makes any position reachable at once)."""

    ID: ClassVar[str] = CHACHA20_V1
    #: keystream bytes made at once (16 ChaCha20 blocks; OpenSSL makes them in about a microsecond)
    CHUNK: ClassVar[int] = 1024
    _ZEROS: ClassVar[bytes] = bytes(1024)
    _nonce: bytes = bytes(12)  # (a game's generator: nonce 0; other nonces only for the test vectors)

    _key: bytes
    _buf: bytes
    _pos: int
    _base: int
    _enc: Any

    def __init__(self, x: int | None = None) -> None:
        self._key, self._buf, self._pos, self._base, self._enc = b"", b"", 0, 0, None
        super().__init__(x)

    @staticmethod
    def key_for(seed: int) -> bytes:
        """The ChaCha20 key of a seed: SHA-256 of ``b"gm chance chacha20-v1:" + str(seed)``."""
        return hashlib.sha256(b"gm chance chacha20-v1:" + str(int(seed)).encode("ascii")).digest()

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Key the generator with ``a`` (a whole number; ``None``: a random key) and start its stream."""
        if a is None:
            key = os.urandom(32)
        elif isinstance(a, int) and not isinstance(a, bool):
            key = self.key_for(a)
        else:
            raise TypeError(f"a {self.ID} generator is seeded with a whole number, not {type(a).__name__}")
        self._rekey(key, 0)
        self.gauss_next = None

    @classmethod
    def from_key(cls, key: bytes, offset: int = 0, nonce: bytes = bytes(12)) -> ChaCha20Random:
        """A generator reading the keystream of ``key`` and ``nonce`` from byte ``offset`` (the test
        vectors; a game's generator has nonce 0)."""
        g = cls()
        if len(nonce) != 12:
            raise ValueError("a ChaCha20 nonce is 12 bytes")
        g._nonce = bytes(nonce)
        g._rekey(bytes(key), offset)
        return g

    def _rekey(self, key: bytes, offset: int) -> None:
        if len(key) != 32:
            raise ValueError("a ChaCha20 key is 32 bytes")
        self._key = key
        block, skip = divmod(int(offset), 64)
        self._base, self._buf, self._pos, self._enc = block * 64, b"", 0, None
        if skip:
            self._refill(skip)
            self._pos = skip

    def _refill(self, need: int) -> None:
        """Make at least ``need`` unread bytes available (the stream goes on where it stopped)."""
        enc = self._enc
        if enc is None:  # started lazily: a state that never draws never builds a cipher
            from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

            at = self._base + len(self._buf)  # always a block boundary here
            nonce = (at // 64).to_bytes(4, "little") + self._nonce  # RFC 8439: the block counter, then the 96-bit nonce
            enc = self._enc = Cipher(algorithms.ChaCha20(self._key, nonce), mode=None).encryptor()
        rest = self._buf[self._pos :]
        self._base += self._pos
        size = self.CHUNK
        while len(rest) + size < need:
            size += self.CHUNK
        self._buf = rest + enc.update(self._ZEROS if size == self.CHUNK else bytes(size))
        self._pos = 0

    def read(self, n: int) -> bytes:
        """The next ``n`` keystream bytes."""
        if self._pos + n > len(self._buf):
            self._refill(n)
        pos = self._pos
        self._pos = pos + n
        return self._buf[pos : pos + n]

    def getrandbits(self, k: int) -> int:
        if k <= 0:
            if k < 0:
                raise ValueError("number of bits must be non-negative")
            return 0
        n = (k + 7) >> 3
        pos = self._pos
        end = pos + n
        if end > len(self._buf):
            self._refill(n)
            pos, end = 0, n
        self._pos = end
        return int.from_bytes(self._buf[pos:end], "little") >> ((n << 3) - k)

    def _randbelow(self, n: int) -> int:
        # (getrandbits((n - 1).bit_length()) until below n, written out over the buffer: a die or a
        # card's place, the draws games make most, are one byte each; this saves the calls that cost
        # more than the byte)
        if n <= 1:
            if n == 1:
                return 0
            raise ValueError("empty range")
        k = (n - 1).bit_length()
        nb = (k + 7) >> 3
        shift = (nb << 3) - k
        buf, pos = self._buf, self._pos
        while True:
            end = pos + nb
            if end > len(buf):
                self._pos = pos
                self._refill(nb)
                buf, pos = self._buf, 0
                end = nb
            r = (buf[pos] if nb == 1 else int.from_bytes(buf[pos:end], "little")) >> shift
            pos = end
            if r < n:
                self._pos = pos
                return r

    def random(self) -> float:
        return self.getrandbits(53) * 1.1102230246251565e-16  # 2**-53

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        start, stop, step = int(start), int(stop), int(step)
        if step == 0:
            raise ValueError("zero step for randrange()")
        count = (stop - start + step - (1 if step > 0 else -1)) // step
        if count <= 0:
            raise ValueError(f"empty range in randrange({start}, {stop}, {step})")
        return start + step * self._randbelow(count)

    def randint(self, a: int, b: int) -> int:
        if b < a:
            raise ValueError(f"empty range in randint({a}, {b})")
        return a + self._randbelow(b - a + 1)

    def choice(self, seq: Sequence[T]) -> T:  # type: ignore[override]
        if not len(seq):
            raise IndexError("cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        below = self._randbelow
        i = len(x) - 1
        while i >= 256:  # (a long list: the general draw)
            j = below(i + 1)
            x[i], x[j] = x[j], x[i]
            i -= 1
        # the rest one byte per try, as _randbelow reads it, over the buffer directly (a deck's
        # shuffle is most of what brawl draws: this halves its cost)
        buf, pos, size = self._buf, self._pos, len(self._buf)
        while i > 0:
            shift = 8 - i.bit_length()
            while True:
                if pos >= size:
                    self._pos = pos
                    self._refill(1)
                    buf, pos, size = self._buf, 0, len(self._buf)
                j = buf[pos] >> shift
                pos += 1
                if j <= i:
                    break
            x[i], x[j] = x[j], x[i]
            i -= 1
        self._pos = pos

    def getstate(self) -> tuple[Any, ...]:
        return (self.ID, self._key, self._nonce, self._base + self._pos, self.gauss_next)

    def setstate(self, state: tuple[Any, ...]) -> None:
        ident, key, nonce, offset, gauss = state
        if ident != self.ID:
            raise ValueError(f"not a {self.ID} generator state")
        self._nonce = bytes(nonce)
        self._rekey(bytes(key), int(offset))
        self.gauss_next = gauss


#: the generators by id: each makes a seeded :class:`random.Random`
GENERATORS: Mapping[str, Callable[[int], random.Random]] = {MT19937: random.Random, CHACHA20_V1: ChaCha20Random}


def check_generator(generator: Any) -> str:
    """``generator`` if it names a known generator, else a :class:`StateError` saying which are."""
    if not isinstance(generator, str) or generator not in GENERATORS:
        raise StateError(
            f"unknown chance generator; this gm draws with {', '.join(GENERATORS)}",
            rule=RULE,
            input=quote(generator, 40),
            legal=tuple(GENERATORS),
        )
    return generator


def make_generator(generator: str, seed: int) -> random.Random:
    """The generator ``generator`` (an id of :data:`GENERATORS`) seeded with ``seed``."""
    return GENERATORS[check_generator(generator)](seed)


# ------------------------------------------------------------------------ draws
def _text(x: Any) -> str:
    return str(x)


def _listed(items: Iterable[Any]) -> tuple[str, ...]:
    out = [_text(x) for x in items]
    return tuple(out[:LISTED_MAX]) + ((f"... and {len(out) - LISTED_MAX} more",) if len(out) > LISTED_MAX else ())


class Draw(tuple[Any, ...], Generic[T]):
    """One chance result a game needs: the kind of chance, the game's name for it (``label``: "pass
    roll", "coin toss", "deal"; a source may script outcomes by it), what it is for (``about``: whose
    deck, which piece), who sees the outcome when it is drawn (``seen_by``: ``None`` for every seat,
    else those seats: a deal only its owner, a deck's order nobody) and its possible outcomes.
    Subclasses say how the generator draws it (:meth:`generate`) and which outcomes are possible
    (:meth:`check`).

    A draw is a frozen value: a tuple (label, about, seen_by, then the kind's own fields) of its own
    type - made at C speed, since an engine makes one for every roll (brawl: a few every action, where
    a frozen dataclass's field-by-field construction cost it several percent of its speed)."""

    __slots__ = ()
    kind: ClassVar[str]
    #: the names of the kind's own fields, after label, about and seen_by (for repr)
    FIELDS: ClassVar[tuple[str, ...]] = ()

    @property
    def label(self) -> str:
        return str(self[0])

    @property
    def about(self) -> str:
        return str(self[1])

    @property
    def seen_by(self) -> tuple[str, ...] | None:
        seen: tuple[str, ...] | None = self[2]
        return seen

    @property
    def public(self) -> bool:
        """Whether every seat sees the outcome as it is drawn (a die, a coin; not a deal or a shuffle)."""
        return self[2] is None

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __repr__(self) -> str:
        names = ("label", "about", "seen_by", *self.FIELDS)
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in zip(names, self, strict=True))})"

    def generate(self, rng: random.Random) -> T:
        """gm's own outcome, drawn from the generator (consuming it as the engines always have)."""
        raise NotImplementedError

    def check(self, outcome: Any) -> T:
        """``outcome`` as the draw's value if it is possible (its text form is read too), else a
        :class:`ChanceError` naming the draw, the value and the possible outcomes."""
        raise NotImplementedError

    def possible(self) -> tuple[str, ...]:
        """The possible outcomes in words (listed when few, else described)."""
        raise NotImplementedError

    def to_json(self, outcome: T) -> Any:
        """``outcome`` as JSON (what a record keeps; :meth:`check` reads it back)."""
        return outcome

    def outcome_text(self, outcome: T) -> str:
        """``outcome`` in words ("5", "heads", "S3 F2 A1-4")."""
        return _text(outcome)

    def describe(self) -> str:
        """The draw in words: "pass roll (1-6)", "deal (3 of 8, home QB)"."""
        about = f", {self.about}" if self.about else ""
        return f"{self.label} ({self._range()}{about})"

    def _range(self) -> str:
        return self.kind

    def impossible(self, value: Any, why: str = "") -> ChanceError:
        return ChanceError(
            f"{self.describe()} cannot come out {quote(value, 80)}{f': {why}' if why else ''}; possible: {', '.join(self.possible())}",
            rule=RULE,
            input=quote(value, 80),
            legal=self.possible(),
        )


class Die(Draw[int]):
    """A whole number from ``lo`` to ``hi``, each equally likely (a die: ``Die("pass roll", 1, 6)``)."""

    __slots__ = ()
    kind: ClassVar[str] = "die"
    FIELDS = ("lo", "hi")

    def __new__(cls, label: str, lo: int, hi: int, *, about: str = "", seen_by: tuple[str, ...] | None = None) -> Die:
        return tuple.__new__(cls, (label, about, seen_by, lo, hi))

    # alike on purpose: Draw's label/about/seen_by read the tuple the same way; each kind's own fields by index (a draw is a tuple, made at C speed)
    @property
    def lo(self) -> int:
        return int(self[3])

    @property
    def hi(self) -> int:
        return int(self[4])

    def generate(self, rng: random.Random) -> int:
        return self.roll(rng, self[3], self[4])

    @staticmethod
    def roll(rng: random.Random, lo: int, hi: int) -> int:
        """The generator's roll from ``lo`` to ``hi`` (``randint``: how every engine has rolled)."""
        return rng.randint(lo, hi)

    def check(self, outcome: Any) -> int:
        value = outcome
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or not self.lo <= value <= self.hi:
            raise self.impossible(outcome)
        return value

    def possible(self) -> tuple[str, ...]:
        n = self.hi - self.lo + 1
        return _listed(range(self.lo, self.hi + 1)) if n <= LISTED_MAX else (f"a whole number from {self.lo} to {self.hi}",)

    def _range(self) -> str:
        return f"{self.lo}-{self.hi}"


class Choice(Draw[T]):
    """One of ``options``, each equally likely (who has the ball first: ``Choice("toss", SEATS)``)."""

    __slots__ = ()
    kind: ClassVar[str] = "choice"
    FIELDS = ("options",)

    def __new__(cls, label: str, options: Sequence[T], *, about: str = "", seen_by: tuple[str, ...] | None = None) -> Choice[T]:
        return tuple.__new__(cls, (label, about, seen_by, tuple(options)))

    @property
    def options(self) -> tuple[T, ...]:
        options: tuple[T, ...] = self[3]
        return options

    def generate(self, rng: random.Random) -> T:
        outcome: T = rng.choice(self[3])
        return outcome

    def check(self, outcome: Any) -> T:
        for o in self.options:
            if o == outcome:
                return o
        if isinstance(outcome, str):
            said = outcome.strip().lower()
            for o in self.options:
                if _text(o).lower() == said:
                    return o
        raise self.impossible(outcome)

    def possible(self) -> tuple[str, ...]:
        return _listed(self.options)

    def to_json(self, outcome: T) -> Any:
        return outcome if isinstance(outcome, str | int) and not isinstance(outcome, bool) else _text(outcome)

    def _range(self) -> str:
        return " or ".join(map(_text, self.options))


class Coin(Choice[str]):
    """A coin toss: ``heads`` or ``tails``."""

    __slots__ = ()
    kind: ClassVar[str] = "coin"

    def __new__(cls, label: str, options: Sequence[str] = ("heads", "tails"), *, about: str = "",
                seen_by: tuple[str, ...] | None = None) -> Coin:
        return tuple.__new__(cls, (label, about, seen_by, tuple(options)))


def _match_items(draw: Draw[Any], items: Sequence[T], wanted: Any, count: int | None) -> list[T]:
    """The items of ``items`` that ``wanted`` (a sequence of items or their text forms) names, each
    item used once (so ``wanted`` must be a sub-multiset of ``items``; ``count``: exactly so many)."""
    if isinstance(wanted, str):
        wanted = wanted.replace(",", " ").split()
    if not isinstance(wanted, Sequence | tuple | list):
        raise draw.impossible(wanted, "not a list")
    if count is not None and len(wanted) != count:
        raise draw.impossible(" ".join(map(_text, wanted)), f"{len(wanted)} given, {count} drawn")
    free = list(items)
    out: list[T] = []
    for w in wanted:
        k = next((i for i in range(len(free) - 1, -1, -1) if free[i] == w), -1)  # (top first: what a pile would give)
        if k < 0:
            said = _text(w).strip().lower()
            k = next((i for i in range(len(free) - 1, -1, -1) if _text(free[i]).lower() == said), -1)
        if k < 0:
            raise draw.impossible(" ".join(map(_text, wanted)), f"{_text(w)} is not {'left' if out else 'there'} to draw")
        out.append(free.pop(k))
    return out


class Shuffle(Draw[list[T]]):
    """``items`` in an order, every order equally likely (a deck shuffled: the outcome is the new
    pile, a fresh list).  Nobody sees it (``seen_by=()``) unless the engine says otherwise."""

    __slots__ = ()
    kind: ClassVar[str] = "shuffle"
    FIELDS = ("items",)

    def __new__(cls, label: str, items: Sequence[T], *, about: str = "", seen_by: tuple[str, ...] | None = ()) -> Shuffle[T]:
        return tuple.__new__(cls, (label, about, seen_by, tuple(items)))

    @property
    def items(self) -> tuple[T, ...]:
        items: tuple[T, ...] = self[3]
        return items

    def generate(self, rng: random.Random) -> list[T]:
        pile = list(self[3])
        rng.shuffle(pile)
        return pile

    def check(self, outcome: Any) -> list[T]:
        return _match_items(self, self.items, outcome, len(self.items))

    def possible(self) -> tuple[str, ...]:
        return (f"any order of {' '.join(map(_text, self.items))}",)

    def to_json(self, outcome: list[T]) -> Any:
        return [_text(x) for x in outcome]

    def outcome_text(self, outcome: list[T]) -> str:
        return " ".join(map(_text, outcome))

    def _range(self) -> str:
        return f"{len(self.items)} items"


class Deal(Draw[tuple[T, ...]]):
    """``n`` items dealt from a shuffled ``pile`` whose top is its end: gm's own outcome is the top
    ``n``, top first (consuming nothing: the shuffle was the chance); a source may deal any ``n`` of
    the pile.  :func:`take` removes the dealt items from the pile (``GameState.deal`` does both).
    Nobody but the seats in ``seen_by`` sees it (the engine names who holds the cards)."""

    __slots__ = ()
    kind: ClassVar[str] = "deal"
    FIELDS = ("pile", "n")

    def __new__(cls, label: str, pile: Sequence[T], n: int, *, about: str = "", seen_by: tuple[str, ...] | None = ()) -> Deal[T]:
        return tuple.__new__(cls, (label, about, seen_by, tuple(pile), n))

    @property
    def pile(self) -> tuple[T, ...]:
        pile: tuple[T, ...] = self[3]
        return pile

    @property
    def n(self) -> int:
        return int(self[4])

    def generate(self, rng: random.Random) -> tuple[T, ...]:
        return tuple(self.top(self.pile, self.n))  # (the shuffle drew already: nothing from the generator)

    @staticmethod
    def top(pile: Sequence[T], n: int) -> list[T]:
        """The top ``n`` of ``pile`` (its end), top first: what a deal gives when nobody supplies another."""
        return list(pile[: -n - 1 : -1]) if n > 0 else []

    def check(self, outcome: Any) -> tuple[T, ...]:
        return tuple(_match_items(self, self.pile, outcome, self.n))

    def possible(self) -> tuple[str, ...]:
        return (f"{self.n} of {' '.join(map(_text, sorted(self.pile, key=_text)))}",)

    def to_json(self, outcome: tuple[T, ...]) -> Any:
        return [_text(x) for x in outcome]

    def outcome_text(self, outcome: tuple[T, ...]) -> str:
        return " ".join(map(_text, outcome))

    def _range(self) -> str:
        return f"{self.n} of {len(self.pile)}"


def take(pile: list[T], dealt: Sequence[T]) -> None:
    """Remove the ``dealt`` items (a :class:`Deal`'s outcome, items of ``pile`` itself) from ``pile``:
    its top, unless a source dealt others."""
    n = len(dealt)
    if not n:
        return
    if all(a is b for a, b in zip(reversed(pile[-n:]), dealt, strict=True)):
        del pile[-n:]
        return
    for item in dealt:
        k = next(i for i in range(len(pile) - 1, -1, -1) if pile[i] is item)
        del pile[k]


# ---------------------------------------------------------------------- sources
class ChanceSource(Protocol):
    """Where outcomes may come from instead of the generator (a chatbot's log, a test's script).  It
    is called for every draw, with gm's own outcome, so it sees them all."""

    def outcome(self, draw: Draw[Any], index: int, drawn: Any) -> Any:
        """The outcome of the game's draw number ``index`` (``None``: gm's own, ``drawn``).  A value
        the draw cannot have is refused with a :class:`ChanceError` (the move is undone)."""


class Scripted:
    """Outcomes given in advance: by label (``{"pass roll": [6, 2]}``: the next two pass rolls), and/or
    in order for draws of any label (``every=[...]``); a draw with nothing scripted gets gm's own
    outcome, or (``strict``) a :class:`ChanceError`.  :meth:`push` scripts more as play goes on."""

    def __init__(self, by_label: Mapping[str, Iterable[Any]] | None = None, *, every: Iterable[Any] = (), strict: bool = False) -> None:
        self.by_label: dict[str, list[Any]] = {k: list(v) for k, v in (by_label or {}).items()}
        self.every: list[Any] = list(every)
        self.strict = strict

    def push(self, label: str | None, *outcomes: Any) -> Scripted:
        """Script the next ``outcomes`` of draws labelled ``label`` (``None``: of any label)."""
        (self.every if label is None else self.by_label.setdefault(label, [])).extend(outcomes)
        return self

    def left(self) -> int:
        """How many scripted outcomes are not used yet."""
        return len(self.every) + sum(map(len, self.by_label.values()))

    def outcome(self, draw: Draw[Any], index: int, drawn: Any) -> Any:
        queue = self.by_label.get(draw.label)
        if queue:
            return queue.pop(0)
        if self.every:
            return self.every.pop(0)
        if self.strict:
            raise ChanceError(f"nothing scripted for {draw.describe()}", rule=RULE, legal=draw.possible())
        return None


@dataclass(frozen=True, slots=True)
class DrawRecord:
    """One draw of a game: its number, the draw, gm's own outcome and the one used (``supplied``:
    a source's)."""

    index: int
    draw: Draw[Any]
    drawn: Any
    outcome: Any
    supplied: bool

    # alike on purpose: a game's view dict (a state's public fields) has the same literal shape; this is a draw record's own JSON form
    def to_json(self) -> dict[str, Any]:
        d = self.draw
        return {
            "index": self.index,
            "kind": d.kind,
            "label": d.label,
            "about": d.about,
            "drawn": d.to_json(self.drawn),
            "outcome": d.to_json(self.outcome),
            "supplied": self.supplied,
        }

    def __str__(self) -> str:
        d = self.draw
        said = d.outcome_text(self.outcome)
        if self.supplied and self.outcome != self.drawn:
            return f"{d.describe()}: {said} (supplied; gm's own: {d.outcome_text(self.drawn)})"
        return f"{d.describe()}: {said}"


# ------------------------------------------------------------------------ setup
@dataclass(frozen=True)
class Chance:
    """How a game's chance is set up, besides its seed: the generator (by id), the outcomes supplied
    earlier by draw number (JSON forms, what a record keeps: a replay uses them again), a source for
    outcomes from now on, and whether the state keeps a log of its draws."""

    generator: str = CURRENT
    supplied: Mapping[int, Any] = field(default_factory=dict)
    source: ChanceSource | None = field(default=None, compare=False)
    record: bool = False

    def __post_init__(self) -> None:
        check_generator(self.generator)

    @classmethod
    def of(cls, spec: Chance | str | None) -> Chance:
        """A setup from a generator id (``None``: :data:`CURRENT`) or a setup itself."""
        if isinstance(spec, Chance):
            return spec
        if spec is None:
            return _SETUPS[CURRENT]
        return _SETUPS.get(spec) or cls(spec)

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Chance:
        """The setup a record (``chance``: generator id, ``supplied``: draw number -> outcome) names; a
        record without a generator was made with :data:`LEGACY`."""
        gen = data.get("chance", LEGACY)
        supplied = data.get("supplied") or {}
        if not isinstance(supplied, Mapping):
            raise StateError("a record's supplied chance outcomes are a mapping of draw numbers", rule=RULE)
        try:
            by_index = {int(k): v for k, v in supplied.items()}
        except (TypeError, ValueError):
            raise StateError("a record's supplied chance outcomes are keyed by draw number", rule=RULE) from None
        return cls(check_generator(gen), by_index) if by_index else cls.of(check_generator(gen))

    def record_fields(self) -> dict[str, Any]:
        """What a record of a game keeps of this setup (nothing for a legacy game without supplied outcomes)."""
        out: dict[str, Any] = {} if self.generator == LEGACY else {"chance": self.generator}
        if self.supplied:
            out["supplied"] = {str(k): v for k, v in sorted(self.supplied.items())}
        return out


_SETUPS = {g: Chance(g) for g in GENERATORS}
