"""Pinned digests of seeded whole games: the engine and the bots play them move for move the same,
whatever is done to their speed.  A change here must be deliberate (re-pin with the printed values)."""

from __future__ import annotations

import hashlib
import json

import pytest
from br_helpers import G

from gm.core.bots import RandomBot
from gm.core.playout import play_out

GAMES = {
    "random vs random": (None, "random", "random", range(12)),
    "default vs random": (None, "default", "random", range(12)),
    "random vs default, short games": ({"rounds": 6}, "random", "default", range(12)),
    "core uniform bot (legal_actions.sample)": (None, "uniform", "uniform", range(12)),
}
PINNED = {
    "random vs random": "c7bf7a03ee98fd630a2e740fbe448aea49ac90ed5edfedc06afc17d347c50925",
    "default vs random": "e2c9b5d4bf81d0d67bd886baef12ff22ec6ca71eff328322c20d25503e0a9463",
    "random vs default, short games": "10b5be18615de8e1ff3778aecc457916568f7c7075a24f3fe592b4f755243b38",
    "core uniform bot (legal_actions.sample)": "af5a6b3b6503da00f6239541fe84d264069e6ee289863ab64c6c1804416e0b7a",
}


def _digest(rules: dict | None, home: str, away: str, seeds: range) -> str:
    """sha256 over every game's action log texts, event texts and final snapshot (status included)."""
    h = hashlib.sha256()
    for seed in seeds:
        s = G.new_state(rules, seed)
        bots = {seat: RandomBot(10 * seed + i) if name == "uniform" else G.make_bot(name, 10 * seed + i)
                for i, (seat, name) in enumerate(zip(G.seats, (home, away), strict=True))}  # fmt: skip
        events: list[str] = []
        play_out(s, bots, on_move=lambda seat, action, evs, out=events: out.extend(e.text for e in evs))
        assert s.outcome is not None
        h.update(json.dumps([s.to_json()["log"], s.snapshot(), events, str(s.outcome)], sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize("name", list(GAMES))
def test_seeded_games_are_pinned(name: str) -> None:
    got = _digest(*GAMES[name])
    assert got == PINNED[name], f"{name}: {got}"
