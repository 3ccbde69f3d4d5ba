"""A pinned digest of 300 seeded random games: optimising the engine must not change a thing.

The digest covers every action, every event (kind, rule, text, data), the outcome and the final
snapshot.  If a deliberate rule change moves it, say so in the commit and update ``DIGEST``.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from gf_helpers import G

from gm.core import RandomBot
from gm.core.chance import CHACHA20_V1, MT19937

#: pinned under both chance generators: mt19937 (what it was made with before generators were named:
#: it must still replay byte for byte) and chacha20-v1 (what new games use; 100 games)
DIGEST = {MT19937: "04d074b416cea564f908ff49e773e9e7a0afa04cab8dabde4a52223d0f82f565", CHACHA20_V1: "e9e5fbde1c52b448d61d14d97ad57e2cd119c13ca2947ac29f556380666fa03d"}


def games_digest(n: int = 300, chance: str = MT19937) -> str:
    h = hashlib.sha256()
    for seed in range(n):
        s = G.new_state({"win": "points"} if seed >= n - 50 else None, seed, chance)
        bots = {"home": RandomBot(2 * seed), "away": RandomBot(2 * seed + 1)}
        while not s.is_terminal:
            for seat in s.to_act():
                action = bots[seat].choose(s, seat)
                events = s.apply(seat, action)
                h.update(json.dumps([seat, str(action), [e.to_json() for e in events]], sort_keys=True).encode())
        assert s.outcome is not None
        h.update(json.dumps([s.outcome.to_json(), s.snapshot(), s.to_json()], sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize("chance", [MT19937, CHACHA20_V1])
def test_random_games_digest_is_pinned(chance: str) -> None:
    got = games_digest(300 if chance == MT19937 else 100, chance)
    assert got == DIGEST[chance], f"{chance}: {got}"
