"""The narration check of every game (gm.core.narration + each game's narration module): claims a
referee's narration makes, checked against a real turn of a seeded game.  True narrations in other
words than the engine's pass; each kind of false claim is caught."""

from __future__ import annotations

import functools
import random
import re
from typing import Any

import pytest

from gm.core.narration import Claims, Facts, build_facts, check
from gm.core.registry import find_game


@functools.cache  # several tests read the same turn: searched for once per process
def turn_with(game_id: str, kind: str, *, seeds: range = range(40)) -> Facts:
    """The facts of the first move, in seeded random play, that makes an event of ``kind``."""
    g = find_game(game_id)
    for seed in seeds:
        st = g.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(600):
            if st.is_terminal:
                break
            seat = st.to_act()[0]
            before_status, before_view = g.status(st, seat), st.view(seat)
            events = st.apply(seat, st.legal_actions(seat).sample(rng))
            if any(ev.kind == kind for ev in events):
                result: dict[str, Any] = {"ok": True, "kind": "action",
                                          "events": [{"kind": ev.kind, "text": ev.text} for ev in events]}
                return build_facts(results=[result], statuses=[before_status, g.status(st, seat)],
                                   views=[before_view, st.view(seat)], rules_text="", seats=g.seats,
                                   over=st.is_terminal, claims=g.narration_claims())
    raise AssertionError(f"no {kind} event in {len(seeds)} seeded games of {game_id}")


def text_of(facts: Facts, kind_word: str) -> str:
    return next(q for q in facts.quotes if kind_word in q)


def test_every_game_declares_its_claims() -> None:
    for gid in ("grid-football", "quarterback", "gridmaster4", "brawl", "chess-football"):
        claims = find_game(gid).narration_claims()
        assert isinstance(claims, Claims) and claims.events and claims.values, gid


def test_a_game_without_a_narration_module_checks_the_shared_claims_only() -> None:
    facts = build_facts(results=[], statuses=["a"], views=[{"score": {"a": 1, "b": 0}}], rules_text="", seats=("a", "b"))
    assert check("Touchdown! Square K20.", facts) == []
    assert check("Score: a 0 - 3 b.", facts) == ["score a 0 - 3 b: the engine's score differs"]
    assert check("Game over, a wins!", facts) == ["the game is not over", "a wins: the engine does not say so"]


def test_the_engines_own_words_are_never_contradictions() -> None:
    """Quoting the engine (its event texts and statuses) is never flagged, whatever the game."""
    for gid, kind in [("grid-football", "touchdown"), ("quarterback", "tackle"), ("gridmaster4", "blocked"),
                      ("brawl", "first_down"), ("chess-football", "pass")]:
        facts = turn_with(gid, kind)
        assert check(" ".join(facts.quotes), facts) == [], gid


# ------------------------------------------------------------------ Quarter Back
def test_quarterback_tackle() -> None:
    f = turn_with("quarterback", "tackle")
    square = re.search(r"tackled on ([A-I]-?[0-9]+)", " ".join(f.quotes)).group(1)  # type: ignore[union-attr]
    assert check(f"What a hit - the carrier is tackled on {square}!", f) == []
    assert check("The carrier is tackled on A9!", f) == ["square A9: not in the engine's account of this turn",
                                                         "square A9: no event of this turn puts it there"]
    assert check("Intercepted! Great read.", f) == ["an interception: the engine reports none this turn"]


def test_quarterback_score_and_quiet_moves() -> None:
    f = turn_with("quarterback", "score")
    points = text_of(f, "scores").split("scores ")[1].split()[0]
    assert check(f"The whistle goes and that side scores {points}.", f) == []
    wrong = str(int(points) + 7)
    assert check(f"The whistle goes and that side scores {wrong}.", f) == [f"scores {wrong}: the engine scores no such points this turn"]
    quiet = turn_with("quarterback", "move")
    assert check("Tackled!", quiet) == ["a tackle: the engine reports none this turn"]
    assert check("He pushes the Double back.", quiet) == ["a push: the engine reports none this turn"]
    assert check("If he reaches the line he could be tackled.", quiet) == []
    assert "a tackle: the engine reports none this turn" in check("S1 tackles the quarterback.", quiet)
    # a rules answer names a tackle without claiming one happened (no false alarm: gm eval's rules cases)
    assert check("A tackle ends the attack; tackles score nothing, and a tackle behind the line costs the row.", quiet) == []


# ------------------------------------------------------------------ GridMaster4
def test_gridmaster4_placements_blocks_and_inactive_tiles() -> None:
    f = turn_with("gridmaster4", "deactivated")
    placed = text_of(f, "places")
    number, cell = placed.split("places ")[1].split(" at ")
    assert check(f"Tile {number} goes down on {cell}, and a rival tile turns inactive.", f) == []
    assert check(f"Tile {int(number) + 40} goes down on {cell}.", f) == [f"tile {int(number) + 40}: not in the engine's account of this turn"]
    quiet = turn_with("gridmaster4", "placed")
    assert check("Orange is blocked now.", quiet) == ["a blocked player: the engine reports none this turn",
                                                      "orange blocked: the engine has not blocked orange"]
    assert check("Two tiles are now inactive.", quiet) == ["an inactive tile: the engine reports none this turn"]
    assert check("That opens a free round.", quiet) == ["a free placement: the engine reports none this turn"]


# ------------------------------------------------------------------ brawl
def test_brawl_yards_zones_and_first_downs() -> None:
    f = turn_with("brawl", "yards")
    yards = re.search(r"gains ([0-9]+) yards", " ".join(f.quotes)).group(1)  # type: ignore[union-attr]
    assert check(f"A solid push: the offense gains {yards} yards.", f) == []
    assert check("A solid push: the offense gains 77 yards.", f) == ["77 yards: the engine gives other yards this turn"]
    quiet = turn_with("brawl", "locked")
    assert check("TOUCHDOWN!", quiet) == ["a touchdown: the engine reports none this turn"]
    assert check("Sacked in the backfield!", quiet) == ["a sack: the engine reports none this turn"]
    assert check("Fumble! Turnover!", quiet) == ["a turnover: the engine reports none this turn"]
    assert check("That's 4th & 17 now.", quiet) == ["4th & 17: the engine's down and distance differ"]
    fd = turn_with("brawl", "first_down")
    assert check("Moving the chains: first down!", fd) == []


# ------------------------------------------------------------------ Chess-Football
def test_chess_football_passes_rolls_and_squares() -> None:
    f = turn_with("chess-football", "pass")
    said = text_of(f, "passes to")
    roll = said.split("rolls ")[1].split()[0]
    assert check(f"The quarterback lets it fly and rolls {roll}.", f) == []
    wrong = "6" if roll != "6" else "1"
    assert f"a roll of {wrong}: the engine rolled no such number this turn" in check(f"The quarterback rolls {wrong}.", f)
    quiet = turn_with("chess-football", "move")
    assert check("The runner is tackled!", quiet) == ["a tackle: the engine reports none this turn"]
    assert check("Intercepted!", quiet) == ["an interception: the engine reports none this turn"]
    assert check("Touchdown!", quiet) == ["a touchdown: the engine reports none this turn"]
    assert check("The runner stops on P48.", quiet) == ["square P48: not in the engine's account of this turn"]


# ------------------------------------------------------------------ Grid Football
def test_grid_football_claims_are_its_own_module() -> None:
    f = turn_with("grid-football", "touchdown")
    assert check("Touchdown! What a drive.", f) == []
    quiet = turn_with("grid-football", "moved")
    assert "a touchdown: the engine reports none this turn" in check("Touchdown! What a drive.", quiet)


@pytest.mark.parametrize("gid", ["quarterback", "gridmaster4", "brawl", "chess-football"])
def test_football_claims_stay_out_of_other_games(gid: str) -> None:
    """A game's claims are its own: 'row 99' means nothing to a game that does not number rows so."""
    facts = turn_with(gid, {"quarterback": "move", "gridmaster4": "placed", "brawl": "locked", "chess-football": "move"}[gid])
    assert check("Nice, the ball is on row 99.", facts) == []
