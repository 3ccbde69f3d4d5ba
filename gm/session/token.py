"""Session tokens: a whole saved game as one checksummed line of text, to paste into any chatbot
and bring back with ``gm import``::

    gm2.<game id>.<payload>.<checksum>

``payload`` is canonical JSON, zlib-compressed and base64url-encoded; ``checksum`` is the first 16
hex digits of the SHA-256 of everything before it, so any changed character is caught.  A token
carries the ruleset (fields that differ from the defaults), the players, and the moves everyone
has seen: a pick still locked is left out (the bot picks again on import), and a move that still
carries a secret (a hidden ball holder) is there only in its public form.  The token names the
game's chance generator (``chance``; none: ``mt19937``) and carries the chance outcomes supplied at
its start.  What must stay hidden – the seed of a game whose seed is hidden, outcomes supplied to
it, and the secret parts of moves – travels *sealed* with this gm's key (:mod:`gm.session.keys`):
the token imports where that key is (the same gm home or server), and reading it anywhere else
reveals nothing.  A practice game's seed is public and is in the token as it is.

**A running game with a hidden seed is never copied with its seed** (:func:`import_token`): playing
a copy on would show the original's chance to come, and its end would reveal the seed.  The copy
gets a fresh hidden seed and fresh bots; what already happened in the open is kept (every chance
outcome all seats saw: tosses, dice, is supplied to the copy), and whatever is still hidden (a deck's
order, cards dealt to one seat) is drawn again from the new seed.  If the moves so far do not replay
that way (they used cards only the seed decided and not every seat has seen), the import is refused
with one line.  A finished game's seed is public: its token comes back with it.

``gm1`` tokens (a bare state, :mod:`gm.core.token`) are read too.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from gm.core.chance import CURRENT, Chance, ChanceError
from gm.core.errors import GameError, StateError
from gm.core.token import RULE, clean_token, frame, unframe
from gm.session.commit import SeedSecret
from gm.session.keys import KeyRing, SealError

if TYPE_CHECKING:
    from gm.core.game import Game
    from gm.session.session import Session
    from gm.session.store import SessionStore

PREFIX = "gm2"
_SEAL_ID = "token"


def session_token(session: Session) -> str:
    """The token of ``session`` as it stands (see the module docstring)."""
    from gm.session.session import store_keys

    st = session.state
    cut = min((sec.index for sec in session.book.open), default=len(st.log))  # locked picks stay out
    secret_idx = st.secret_moves()
    log: list[list[str]] = []
    hidden: dict[str, str] = {}
    for i, m in enumerate(st.log[:cut]):
        if i in secret_idx:
            log.append([m.seat, m.action.public_text()])
            hidden[str(i)] = str(m.action)
        else:
            log.append([m.seat, str(m.action)])
    defaults = session.game.default_rules().model_dump(mode="json")
    rules = {k: v for k, v in st.rules.model_dump(mode="json").items() if defaults.get(k) != v}
    data: dict[str, Any] = {"game": session.game.id, "rules": rules, "players": session.players, "log": log}
    sealed: dict[str, Any] = {}
    chance = session.chance.record_fields()
    supplied = chance.pop("supplied", None)
    data.update(chance)
    if session.practice:
        data["seed"] = session.secret.seed
        if supplied:
            data["supplied"] = supplied
    else:
        data["seed_commitment"] = session.seed_commitment
        sealed["secret"] = session.secret.sealed_part()
        if supplied:
            sealed["supplied"] = supplied
    if hidden:
        sealed["moves"] = hidden
    if sealed:
        keys = store_keys(session.store)
        data["key_id"] = keys.id
        data["sealed"] = keys.seal(_SEAL_ID, sealed, session.game.id)
    return frame(PREFIX, session.game.id, data)


def decode(text: str) -> dict[str, Any]:
    """The JSON inside a ``gm2`` token; :class:`StateError` if it is malformed or changed."""
    return unframe(text, PREFIX, reads=f"gm1 and {PREFIX}")


def import_token(
    text: str,
    *,
    store: SessionStore,
    session_id: str | None = None,
    players: Mapping[str, str] | None = None,
) -> Session:
    """A new session holding the game of a token (``gm2``, or a ``gm1`` state token): its moves
    replayed and checked by the engine, its players kept (``players`` overrides some seats).  A
    running game with a hidden seed comes back as a copy with a fresh hidden seed, or not at all (see
    the module docstring): :func:`fresh_copy` says which."""
    from gm.core.registry import find_game
    from gm.session.session import Session

    clean = clean_token(text)
    if clean.startswith("gm1."):
        from gm.core.token import decode_token

        raw = decode_token(clean)
        data: dict[str, Any] = {k: raw[k] for k in ("game", "seed", "log", "chance", "supplied") if k in raw}
        data["rules"] = raw.get("rules") or {}
    else:
        data = decode(clean)
    try:
        game = find_game(str(data["game"]))
        chosen = {**{str(k): str(v) for k, v in dict(data.get("players") or {}).items()}, **dict(players or {})}
        secret, chance, moves = opened(data, store)
        if not secret.practice:
            copy = fresh_copy(game, data.get("rules") or {}, secret, chance, moves)
            if copy is not None:
                secret, chance = copy
            else:  # the game is over: its seed is public; the bots decide afresh all the same
                secret = dataclasses.replace(secret, bot_seed=secrets.randbits(63))
    except GameError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise StateError(f"the token does not hold a gm game: {exc!r}", rule=RULE) from None
    return Session.restore(
        game, rules=data.get("rules") or {}, players=chosen, secret=secret, moves=moves, store=store, id=session_id, chance=chance
    )


def opened(data: Mapping[str, Any], store: SessionStore) -> tuple[SeedSecret, Chance, list[tuple[str, str]]]:
    """What a decoded token holds, its sealed part opened with ``store``'s key: the seed secret (a
    practice seed, or the hidden one), the chance setup and the moves, each in its full (secret) form."""
    from gm.core.registry import find_game
    from gm.session.session import store_keys

    game = find_game(str(data["game"]))
    moves = [(str(seat), str(action)) for seat, action in data["log"]]
    hidden: dict[str, str] = {}
    supplied = data.get("supplied")
    if "sealed" in data:
        keys: KeyRing = store_keys(store)
        if data.get("key_id") != keys.id:
            raise StateError(
                "this token's secrets (its hidden seed, a hidden move) are sealed with another gm's key: import it "
                "where it was exported (the same gm home or server)",
                rule=RULE,
            )
        try:
            sealed = keys.open(_SEAL_ID, str(data["sealed"]), game.id)
        except SealError:
            raise StateError("the token's sealed part does not open: it was changed", rule=RULE) from None
        hidden = {str(k): str(v) for k, v in dict(sealed.get("moves") or {}).items()}
        supplied = sealed.get("supplied", supplied)
        if "secret" in sealed:
            secret = SeedSecret.from_sealed(sealed["secret"], practice=False)
            if secret.commitment != data.get("seed_commitment"):
                raise StateError("the token's sealed seed does not match its commitment", rule=RULE)
        else:
            secret = SeedSecret.draw(int(data["seed"]))
    else:
        secret = SeedSecret.draw(int(data["seed"]))
    chance = Chance.from_record({**({"chance": data["chance"]} if "chance" in data else {}), "supplied": supplied})
    return secret, chance, [(seat, hidden.get(str(i), action)) for i, (seat, action) in enumerate(moves)]


def fresh_copy(
    game: Game, rules: Any, secret: SeedSecret, chance: Chance, moves: list[tuple[str, str]]
) -> tuple[SeedSecret, Chance] | None:
    """The seed and chance of a copy of a game with a hidden seed (see the module docstring): ``None``
    when the game is over (its seed is public: it comes back as it was); else a fresh hidden seed and
    the chance outcomes every seat has seen, supplied again.  A :class:`StateError` (one line) when
    the moves so far cannot replay without the hidden seed."""
    state = game.new_state(rules, secret.seed, Chance(chance.generator, chance.supplied, record=True))
    try:
        for seat, text in moves:
            state.apply(seat, text)
    except (GameError, ChanceError) as exc:
        raise StateError(f"the token's game does not replay: {exc.message}", rule=RULE) from None
    if state.is_terminal:
        return None
    assert state.draw_log is not None
    seen = {r.index: r.draw.to_json(r.outcome) for r in state.draw_log if r.draw.public}
    copy = Chance(CURRENT, seen)
    fresh = SeedSecret.draw()
    trial = game.new_state(rules, fresh.seed, copy)
    for i, (seat, text) in enumerate(moves):
        try:
            trial.apply(seat, text)
        except GameError:
            kept = sorted({r.draw.label for r in state.draw_log if not r.draw.public and r.index < trial.draws + 1})
            raise StateError(
                f"this {game.name} game is still running, and its seed is hidden: a copy gets a new hidden seed, and "
                f"move {i + 1} ({seat}: {text}) needs what only the old seed decided and not every seat has seen "
                f"({', '.join(kept) or 'chance'}); carry on with the game itself, or import its token once it is over",
                rule=RULE,
            ) from None
    return fresh, copy
