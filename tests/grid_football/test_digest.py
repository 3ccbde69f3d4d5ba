"""A pinned digest of 300 seeded random games: optimising the engine must not change a thing.

The digest covers every action, every event (kind, rule, text, data), the outcome and the final
snapshot.  If a deliberate rule change moves it, say so in the commit and update ``DIGEST``.
"""

from __future__ import annotations

import hashlib
import json

from gf_helpers import new

from gm.core import RandomBot

DIGEST = "04d074b416cea564f908ff49e773e9e7a0afa04cab8dabde4a52223d0f82f565"


def games_digest(n: int = 300) -> str:
    h = hashlib.sha256()
    for seed in range(n):
        s = new({"win": "points"} if seed >= n - 50 else None, seed)
        bots = {"home": RandomBot(2 * seed), "away": RandomBot(2 * seed + 1)}
        while not s.is_terminal:
            for seat in s.to_act():
                action = bots[seat].choose(s, seat)
                events = s.apply(seat, action)
                h.update(json.dumps([seat, str(action), [e.to_json() for e in events]], sort_keys=True).encode())
        assert s.outcome is not None
        h.update(json.dumps([s.outcome.to_json(), s.snapshot(), s.to_json()], sort_keys=True).encode())
    return h.hexdigest()


def test_random_games_digest_is_pinned() -> None:
    assert games_digest() == DIGEST
