"""Pinned digests of seeded games: the engine and the bots play them move for move the same, whatever
is done to their speed.  A change here must be deliberate (re-pin with the printed values).

Re-pinned when QB-R-TACKLE-PAIRS was re-read (issue #31: Triples tackle Triples by default); the random
games pinned before it still play move for move the same under the older reading, ``tackle_reading =
"pairs"`` (:data:`PAIRS_PINNED`)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from qb_helpers import G

from gm.core.bots import RandomBot
from gm.core.playout import play_out

GAMES = {
    "random vs random, full matches": (None, "random", "random", range(6)),
    "default vs random, one game": ({"format": "game"}, "default", "random", range(4)),
    "core uniform bot, short games": ({"format": "game", "max_rounds": 2}, "uniform", "uniform", range(2)),
}
PINNED = {
    "random vs random, full matches": "83581e65c7daa726b12cd6856a135575c6f18ab9f0d56e08c4c355ea220f817c",
    "default vs random, one game": "ac6eb11195960d7fb06d6e0c4c7ca1557a5f5b9c8f84a2f774003a13e13a965d",
    "core uniform bot, short games": "0083b15146237991d7435d372cebdb51e61f893cceceeb27a01a85ed9afed198",
}


def _digest(rules: dict | None, red: str, blue: str, seeds: range, full: bool = False) -> str:
    """The games' logs, final snapshots and events (their texts; ``full``: their whole JSON) hashed."""
    h = hashlib.sha256()
    for seed in seeds:
        s = G.new_state(rules, seed)
        bots = {seat: RandomBot(seed) if name == "uniform" else G.make_bot(name, 10 * seed + i)
                for i, (seat, name) in enumerate(zip(G.seats, (red, blue), strict=True))}  # fmt: skip
        events: list[Any] = []
        play_out(s, bots, on_move=lambda seat, action, evs, out=events: out.extend(e.to_json() if full else e.text for e in evs))
        h.update(json.dumps([s.to_json()["log"], s.snapshot(), events], sort_keys=True, default=str).encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", list(GAMES))
def test_seeded_games_are_pinned(name: str) -> None:
    assert _digest(*GAMES[name]) == PINNED[name], f"{name}: {_digest(*GAMES[name])}"


# Wider cover, pinned before the speed work of issue #22: every event in full (kind, rule, the rules
# cited, the facts), not only its text; the seats' bots swapped; the core uniform bot at length.
FULL_GAMES = {
    "random vs random, 24 more matches": (None, "random", "random", range(6, 30)),
    "default vs random, 12 more games": ({"format": "game"}, "default", "random", range(4, 16)),
    "random vs default, 12 games": ({"format": "game"}, "random", "default", range(12)),
    "default vs default, 4 games": ({"format": "game"}, "default", "default", range(4)),
    "core uniform bot, 6 games": ({"format": "game", "max_rounds": 3}, "uniform", "uniform", range(2, 8)),
    "core uniform vs random, 6 games": ({"format": "game", "max_rounds": 4}, "uniform", "random", range(6)),
}
FULL_PINNED = {
    "random vs random, 24 more matches": "fe2cd66455bd0062338eb586baf8b3473e6225c9d529a7d7ace4c89442be196e",
    "default vs random, 12 more games": "2d9360f8350d035564ebcf358662c78435f5b245b773fa08f25c5db256d94aba",
    "random vs default, 12 games": "4d27e9d7413eb96b3d13d13c6fce64e201d7e4db5154a87258fdb8aeff257893",
    "default vs default, 4 games": "f90ab4f0bc354f739865c0fe344c7381750b699590e225118f26d603acefdfc8",
    "core uniform bot, 6 games": "17b3ea189d8fa2c425f180caea9aa46e9db6be373dda54465c26e6aafd211f87",
    "core uniform vs random, 6 games": "ef3cd3a534328173906029c48d20a81b356839852c2070b9528b09f648174a86",
}


@pytest.mark.parametrize("name", list(FULL_GAMES))
def test_seeded_games_in_full_are_pinned(name: str) -> None:
    assert _digest(*FULL_GAMES[name], full=True) == FULL_PINNED[name], f"{name}: {_digest(*FULL_GAMES[name], full=True)}"


LEGAL_PINNED = "eba95e3d39dc74c6a9ec2b2dd9accd3990282ccf25be1820de554ec691a0ab07"


def test_legal_lists_are_pinned() -> None:
    """Every legal list (its actions in order: the core bot draws by index), the kinds of action open
    and the short summary, at every position of seeded random games."""
    h = hashlib.sha256()
    for seed in range(3):
        s = G.new_state({"format": "game", "max_rounds": 4}, seed)
        bots = {seat: G.make_bot("random", 10 * seed + i) for i, seat in enumerate(G.seats)}
        while not s.is_terminal:
            seat = s.to_act()[0]
            h.update("|".join(map(str, s.legal_actions(seat))).encode())
            h.update(repr(sorted(s.action_kinds(seat))).encode())
            h.update("|".join(s.legal_summary(seat)).encode())
            s.apply(seat, bots[seat].choose(s, seat))
    assert h.hexdigest() == LEGAL_PINNED, h.hexdigest()


def test_drawing_a_legal_action_draws_as_from_the_list() -> None:
    """The core random bot's draw counts the moves without listing them: at every position of seeded
    games it draws the very action ``rng.choice`` draws from the whole list, and leaves the generator
    in the same state."""
    import random

    positions = 0
    for seed in range(4):
        s = G.new_state({"format": "game"}, seed)
        bots = {seat: G.make_bot("random", 10 * seed + i) for i, seat in enumerate(G.seats)}
        while not s.is_terminal:
            seat = s.to_act()[0]
            for k in range(3):
                lazy, listed = random.Random(1000 * seed + k), random.Random(1000 * seed + k)
                drawn = s.legal_actions(seat).sample(lazy)
                assert drawn == listed.choice(tuple(s.legal_actions(seat))), f"seed {seed}, move {len(s.log)}"
                assert lazy.getstate() == listed.getstate()
            s.apply(seat, bots[seat].choose(s, seat))
            positions += 1
    assert positions == 438


#: the random games as pinned before the default reading of QB-R-TACKLE-PAIRS changed: the older reading,
#: kept as an option, plays them move for move as before
PAIRS_PINNED = {
    "random vs random, full matches": "3293df81d38b2672e593deaadc27164663a64e0a7b07ec5c1967655ea3a373ab",
    "core uniform bot, short games": "0083b15146237991d7435d372cebdb51e61f893cceceeb27a01a85ed9afed198",
    "random vs random, 24 more matches": "f97e40c30b26ea4a02be60046edc77be462b0696ca50b541b1ab73fe28b6dbc8",
    "core uniform bot, 6 games": "17b3ea189d8fa2c425f180caea9aa46e9db6be373dda54465c26e6aafd211f87",
    "core uniform vs random, 6 games": "ef3cd3a534328173906029c48d20a81b356839852c2070b9528b09f648174a86",
}


@pytest.mark.parametrize("name", list(PAIRS_PINNED))
def test_the_older_tackle_reading_plays_the_games_pinned_before(name: str) -> None:
    rules, red, blue, seeds = GAMES[name] if name in GAMES else FULL_GAMES[name]
    pairs = {**(rules or {}), "tackle_reading": "pairs"}
    assert _digest(pairs, red, blue, seeds, full=name in FULL_GAMES) == PAIRS_PINNED[name]
