"""The largest ruleset the bounds allow (issue #15: one ruleset value must not exhaust memory): every
size at its maximum still sets up, plays a random match to the end, and lists its legal actions in
sane memory."""

from __future__ import annotations

import tracemalloc
from typing import Any

from qb_helpers import G

from gm.core.playout import play_out
from gm.games.quarterback.engine import QuarterbackState
from gm.games.quarterback.rules import MAX_PER_KIND, QuarterbackRules


def _col(c: int) -> str:
    return chr(ord("A") + c)


def largest() -> QuarterbackRules:
    """Every whole-number field at its maximum (the strengths keep the document's order), nine pieces of
    each kind a side and a Quarterback each, a full match."""
    props = QuarterbackRules.model_json_schema()["properties"]
    data: dict[str, Any] = {n: p["maximum"] for n, p in props.items() if p.get("type") == "integer" and "maximum" in p}
    data.update(single_strength=9, double_strength=8, triple_strength=7, quarterback_strength=7, format="match")
    k = MAX_PER_KIND
    data["attack"] = {"quarterback": ["N-3"], "singles": [f"{_col(c)}0" for c in range(k)],
                      "doubles": [f"{_col(c)}0" for c in range(k, 2 * k)], "triples": [f"{_col(c)}-1" for c in range(k)]}
    data["defense"] = {"quarterback": ["N6"], "singles": [f"{_col(c)}1" for c in range(k)],
                       "doubles": [f"{_col(c)}1" for c in range(k, 2 * k)], "triples": [f"{_col(c)}6" for c in range(k)]}  # fmt: skip
    rules = G.load_rules(data)
    assert (rules.columns, rules.field_rows, rules.back_rows, rules.max_rounds) == (26, 30, 9, 200)
    return rules


def test_the_largest_ruleset_plays_a_random_match_to_the_end() -> None:
    s = G.new_state(largest(), 1)
    assert isinstance(s, QuarterbackState) and len(s.pos) == 2 * (3 * MAX_PER_KIND + 1)
    moves = play_out(s, {seat: G.make_bot("random", i) for i, seat in enumerate(G.seats)})
    assert s.outcome is not None and len(s.results) == 4
    assert 0 < moves < 20_000


def test_the_largest_ruleset_lists_its_legal_actions_in_sane_memory() -> None:
    """Mid-game, with the pieces spread out: a few thousand legal actions, a few megabytes to list them."""
    s = G.new_state(largest(), 2)
    bots = {seat: G.make_bot("random", i) for i, seat in enumerate(G.seats)}
    play_out(s, bots, max_moves=40)
    seat = s.to_act()[0]
    tracemalloc.start()
    try:
        n = len(s.legal_actions(seat))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert 100 < n < 20_000
    assert peak < 64 * 2**20, f"{peak / 2**20:.0f} MB to list {n} actions"
