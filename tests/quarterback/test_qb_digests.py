"""Pinned digests of seeded games: the engine and the bots play them move for move the same, whatever
is done to their speed.  A change here must be deliberate (re-pin with the printed values)."""

from __future__ import annotations

import hashlib
import json

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
    "random vs random, full matches": "3293df81d38b2672e593deaadc27164663a64e0a7b07ec5c1967655ea3a373ab",
    "default vs random, one game": "08656b9d38dd6bab393c07c7001b1371d587bed2ecba31317187e76c43848c2c",
    "core uniform bot, short games": "0083b15146237991d7435d372cebdb51e61f893cceceeb27a01a85ed9afed198",
}


def _digest(rules: dict | None, red: str, blue: str, seeds: range) -> str:
    h = hashlib.sha256()
    for seed in seeds:
        s = G.new_state(rules, seed)
        bots = {seat: RandomBot(seed) if name == "uniform" else G.make_bot(name, 10 * seed + i)
                for i, (seat, name) in enumerate(zip(G.seats, (red, blue), strict=True))}  # fmt: skip
        events: list[str] = []
        play_out(s, bots, on_move=lambda seat, action, evs, out=events: out.extend(e.text for e in evs))
        h.update(json.dumps([s.to_json()["log"], s.snapshot(), events], sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", list(GAMES))
def test_seeded_games_are_pinned(name: str) -> None:
    assert _digest(*GAMES[name]) == PINNED[name], f"{name}: {_digest(*GAMES[name])}"
