"""Quarter Back bots: both strategies play legal moves to the end; the default beats random; a bot made
afresh for every decision plays exactly as one kept for the whole game."""

from __future__ import annotations

from typing import Any

import pytest
from qb_helpers import G

from gm.core import RandomBot
from gm.core.playout import play_out
from gm.games.quarterback.bots import Draws
from gm.games.quarterback.engine import QuarterbackState


def _play(red: str, blue: str, seed: int, rules: dict) -> QuarterbackState:
    s = G.new_state(rules, seed)
    assert isinstance(s, QuarterbackState)
    play_out(s, {"red": G.make_bot(red, seed * 2), "blue": G.make_bot(blue, seed * 2 + 1)})
    return s


def test_bots_registered() -> None:
    assert set(G.bots()) == {"random", "default"}
    assert G.make_bot("bot:default").name == "default"


def test_default_beats_random_with_a_safe_margin() -> None:
    wins = games = 0
    for seed in range(12):
        default_seat = ("red", "blue")[seed % 2]
        red, blue = ("default", "random") if default_seat == "red" else ("random", "default")
        s = _play(red, blue, seed, {"format": "game"})
        assert s.outcome is not None
        wins += s.outcome.winner == default_seat
        games += 1
    assert wins >= 10, f"default won only {wins} of {games}"


def test_default_against_itself_and_core_random_bot_finish() -> None:
    s = _play("default", "default", 3, {"format": "game"})
    assert s.is_terminal
    s = G.new_state({"format": "game", "max_rounds": 2}, seed=4)
    play_out(s, {seat: RandomBot(i) for i, seat in enumerate(G.seats)})  # uniform over the full legal list
    assert s.outcome is not None


@pytest.mark.parametrize(("strategy", "seeds", "rules"), [
    ("random", range(40), {"format": "game", "max_rounds": 6}),
    ("default", range(8), {"format": "game", "max_rounds": 5}),
])  # fmt: skip
def test_a_bot_made_afresh_for_every_decision_plays_as_one_kept(strategy: str, seeds: range, rules: dict) -> None:
    """A bot's choice is a function of its seed and the position: the session may make a new bot for
    every decision (in any process, or after a resume) and the game is the same."""
    for seed in seeds:
        bot_seeds = {"red": 3 * seed + 1, "blue": 3 * seed + 2}
        kept = G.new_state(rules, seed)
        play_out(kept, {seat: G.make_bot(strategy, bot_seeds[seat]) for seat in G.seats})
        fresh = G.new_state(rules, seed)
        play_out(fresh, lambda seat, seeds=bot_seeds: G.make_bot(strategy, seeds[seat]))  # a new bot every time
        assert fresh.to_json() == kept.to_json() and fresh.is_terminal
        if strategy == "random":  # the seed matters
            other = G.new_state(rules, seed)
            play_out(other, {seat: G.make_bot(strategy, bot_seeds[seat] + 100) for seat in G.seats})
            assert other.log != kept.log


def test_a_decision_draws_uniformly_from_its_key_alone() -> None:
    a, b = Draws("quarterback", 7, "red", 12), Draws("quarterback", 7, "red", 12)
    assert [a.below(6) for _ in range(50)] == [b.below(6) for _ in range(50)]
    assert [Draws("quarterback", 7, "red", 13).below(1000) for _ in range(3)] != [Draws("quarterback", 7, "red", 12).below(1000)] * 3
    d = Draws("x")
    counts = [0] * 7
    for _ in range(7000):
        counts[d.below(7)] += 1
    assert all(900 < c < 1100 for c in counts)  # seeded: the same counts every run
    items = list(range(10))
    d.shuffle(items)
    assert sorted(items) == list(range(10)) and items != list(range(10))


def _walk_results(reading: str, seeds: range) -> list[tuple[str, Any]]:
    """One game per seed: the Triple walk (a scripted seat) against the default bot, the walker red and blue in
    turn; (the walker's seat, the finished state)."""
    from gm.games.quarterback.bots import TripleWalk

    out = []
    for seed in seeds:
        walker = G.seats[seed % 2]
        s = G.new_state({"format": "game", "tackle_reading": reading}, seed)
        play_out(s, {seat: TripleWalk(seed) if seat == walker else G.make_bot("default", seed + 100) for seat in G.seats})
        assert s.outcome is not None
        out.append((walker, s))
    return out


def test_the_triple_walk_no_longer_wins_against_the_default_bot() -> None:
    """Issue #31: a Triple taken over the line, passed the ball and walked up the field.  Under the default
    reading of QB-R-TACKLE-PAIRS a defending Triple tackles the Triple carrier, and the walk loses every game
    of a seeded series to the default bot; under the older reading (kept as tackle_reading = "pairs") it
    wins them all - the reason for the ruling."""
    now = _walk_results("groups", range(8))
    assert [s.outcome.winner == walker for walker, s in now] == [False] * 8
    for walker, s in now:  # answered by a Triple: the walker's half ends with its Triple tackled by one
        tackles = [r for r in s.results if r["attacker"] == walker]
        assert tackles and tackles[0]["how"] == "tackle"
    before = _walk_results("pairs", range(8))
    assert [s.outcome.winner == walker for walker, s in before] == [True] * 8


def test_gm_balance_finds_the_triple_walk_under_the_old_reading_only() -> None:
    """The balance study plays every simple line of each seat against the default bot: the Triple walk is
    flagged as a dominant line under tackle_reading = "pairs", and not under the default reading."""
    from gm.balance.study import Study, parse_vary, run_study

    study = Study(G, base={"format": "game"}, varies=[parse_vary(G, "tackle_reading=groups,pairs")], games=6, seed=1,
                  line_games=12)
    summary = run_study(study)
    walk_flags = {rs["values"]["tackle_reading"]: [f for f in rs["flags"] if f["kind"] == "line" and f["line"] == "triple-walk"]
                  for rs in summary["rulesets"]}  # fmt: skip
    assert walk_flags["groups"] == [] and {f["seat"] for f in walk_flags["pairs"]} == set(G.seats)
    rows = {(rs["values"]["tackle_reading"], row["seat"]): row for rs in summary["rulesets"] for row in rs["lines"]
            if row["line"] == "triple-walk"}  # fmt: skip
    assert all(rows[("pairs", seat)]["wins"] == 12 and rows[("groups", seat)]["wins"] == 0 for seat in G.seats)
