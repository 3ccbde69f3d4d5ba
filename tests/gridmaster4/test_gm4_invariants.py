"""Seeded random play over thousands of games: the engine's invariants hold after every move.

- the state is consistent (tiles, scores, active sets, blocked seats);
- every legal action is accepted, round-trips through its text and JSON forms, and names
  only rule ids the game defines in its events;
- rejections (wrong seat, taken or off-board cell, wrong number, out-of-reach cell, junk)
  carry a known rule id and leave the state byte-identical;
- a finished game has no legal actions; replaying the log, and the JSON round trip,
  rebuild exactly the same state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from gm4_helpers import GAME, fingerprint

from gm.core.errors import IllegalActionError, InvalidActionError
from gm.core.state import GameState
from gm.games.gridmaster4.engine import GridMaster4State
from gm.games.gridmaster4.ruleids import RULES
from gm.games.gridmaster4.rules import SEATS

KNOWN = set(RULES) | {"CORE-OVER", "CORE-SEAT"}


def _random_rules(rng: random.Random) -> dict[str, Any]:
    cols, rows = rng.randint(1, 9), rng.randint(1, 9)
    players = rng.randint(1, min(4, cols * rows))
    tiles = rng.randint(1, 40)
    return {
        "columns": cols,
        "rows": rows,
        "players": players,
        "tiles": tiles,
        "winning_tile": rng.randint(1, tiles),
        "orthogonal": rng.randint(1, 4),
        "diagonal": rng.randint(1, 3),
        "build_from": rng.choice(["own", "own", "any"]),
        "deactivate": rng.choice(["any", "any", "own"]),
    }


def _consistent(s: GridMaster4State) -> None:
    numbers: dict[str, list[int]] = {seat: [] for seat in s.order}
    for i, o in enumerate(s.owner):
        if o < 0:
            assert not s.active[i]
            continue
        seat = SEATS[o]
        numbers[seat].append(s.number[i])
        assert (i in s.actives[seat]) == s.active[i]
    assert sum(map(len, numbers.values())) == s.moves == s.rules.cells - s.open_cells
    for seat in s.order:
        assert sorted(numbers[seat]) == list(range(1, s.score[seat] + 1))  # tiles 1..score, each once
    for seat in s.blocked:
        assert not s.actives[seat] and seat not in s.in_play
    assert sorted(s.blocked + s.in_play, key=s.order.index) == list(s.order)
    if s.outcome is None:
        (seat,) = s.to_act()
        assert seat in s.in_play and s.decision(seat) == "place_tile"
        assert all(s.decision(o) is None for o in SEATS if o != seat)


def _probe(s: GridMaster4State, seat: str, rng: random.Random, legal: list[Any]) -> None:
    """Try bad actions: each is rejected with a known rule id and changes nothing."""
    before = fingerprint(s)
    n = s.next_tile(seat)
    names = s.geo.names
    taken = [i for i, o in enumerate(s.owner) if o >= 0]
    legal_cells = {a.cell for a in legal}
    tries: list[tuple[str, str]] = [
        (seat, f"place {chr(ord('A') + s.rules.columns) if s.rules.columns < 26 else 'A'}{s.rules.rows + 1}"),
        (seat, f"place {n + 1} at {legal[0].cell}"),
        (seat, "place over there"),
        (seat, "pass"),
        (rng.choice([o for o in SEATS if o != seat] or [seat]), f"place {legal[0].cell}"),
    ]
    if taken:
        tries.append((seat, f"place {names[rng.choice(taken)]}"))
    outside = [c for c in names if c not in legal_cells]
    if outside:
        tries.append((seat, f"place {rng.choice(outside)}"))
    for who, text in tries:
        if who == seat and text == f"place {legal[0].cell}":
            continue
        with pytest.raises((IllegalActionError, InvalidActionError)) as info:
            s.apply(who, text)
        assert info.value.rule in KNOWN, info.value.message
        assert fingerprint(s) == before, text
    assert legal[0] in s.legal_actions(seat) and s.is_legal(seat, str(legal[0]))
    assert fingerprint(s) == before


def _play(s: GridMaster4State, rng: random.Random, probe_every: int) -> None:
    step = 0
    while not s.is_terminal:
        (seat,) = s.to_act()
        legal = list(s.legal_actions(seat))
        assert legal, "a seat to act always has a legal placement"
        if step % probe_every == 3:
            assert len(legal) == len({a.cell for a in legal})
            _consistent(s)
            _probe(s, seat, rng, legal)
        a = rng.choice(legal)
        assert GAME.parse_action(str(a)) == a and GAME.action_from_json(json.loads(json.dumps(a.to_json()))) == a
        for ev in s.apply(seat, a):
            assert ev.rule in RULES and all(r in RULES for r in ev.data.get("also", ()))
            assert ev.text
        step += 1
    _consistent(s)
    assert s.to_act() == () and all(not s.legal_actions(seat) for seat in SEATS)
    assert s.outcome is not None and s.outcome.winner in s.order and s.outcome.rule in RULES
    if s.outcome.rule != "GM4-WIN-TILE":
        assert not s.in_play and s.outcome.score[s.outcome.winner] == max(s.score.values())
    with pytest.raises(IllegalActionError) as info:
        s.apply(s.order[0], "place A1")
    assert info.value.rule == "CORE-OVER"
    # replay = rebuild from setup + seed + log, here through the JSON wire form
    again = GameState.from_json(json.loads(json.dumps(s.to_json())))
    assert isinstance(again, GridMaster4State)
    assert again.snapshot() == s.snapshot() and again.to_json() == s.to_json()
    assert (again.owner, again.number, again.active, again.actives) == (s.owner, s.number, s.active, s.actives)


def test_random_games_on_the_documents_board() -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        s = GAME.new_state(None, seed)
        assert isinstance(s, GridMaster4State)
        _play(s, rng, probe_every=60)
        assert s.outcome is not None
        outcomes[s.outcome.rule] += 1
    assert outcomes["GM4-WIN-TILE"] > 0 and outcomes["GM4-WIN-BLOCKED"] > 0


def test_random_games_on_random_small_rulesets() -> None:
    outcomes: Counter[str] = Counter()
    for seed in range(2000):
        rng = random.Random(10_000 + seed)
        s = GAME.new_state(_random_rules(rng), seed)
        assert isinstance(s, GridMaster4State)
        _play(s, rng, probe_every=15)
        assert s.outcome is not None
        outcomes[s.outcome.rule] += 1
    assert set(outcomes) == {"GM4-WIN-TILE", "GM4-WIN-BLOCKED", "GM4-R-TIE"}
