"""The search bot (``bot:search``, :mod:`gm.core.search`) over the game contract, in every installed game and
the test-only plugin game: copies play on as the original; worlds drawn for a seat look to it exactly as
the game does; the bot cannot see what its seat cannot (attacked: two games differing only in a secret get
the same choice); seeded choices; budgets; bot specs with parameters."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from gm.core import GameError
from gm.core.game import Game
from gm.core.playout import play_out
from gm.core.registry import all_games
from gm.core.search import SearchBot, hidden_moves
from gm.core.state import GameState

sys.path.insert(0, str(Path(__file__).resolve().parent / "plugin_game"))
from gm_rps import GAME as RPS

GAMES: list[Game] = [*all_games(), RPS]
IDS = [g.id for g in GAMES]


@pytest.fixture(autouse=True)
def _plugin_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin game found by its id while a test runs (a replay looks games up), then forgotten."""
    from gm.core import registry

    monkeypatch.setitem(registry._registered, RPS.id, RPS)


def _random_position(game: Game, seed: int, moves: int) -> GameState[Any]:
    """A game played by seeded random bots for ``moves`` moves (or to its end)."""
    s = game.new_state(None, seed)
    play_out(s, {seat: game.make_bot("random", 7 * seed + i) for i, seat in enumerate(game.seats)}, max_moves=moves)
    return s


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_clone_plays_on_exactly_as_the_original(game: Game) -> None:
    for seed, moves in ((1, 5), (2, 40), (3, 120)):
        s = _random_position(game, seed, moves)
        before = s.to_json(), s.snapshot()
        dice = s.rng.getstate()
        twin = s.clone()
        assert twin is not s and twin.to_json() == before[0] and twin.snapshot() == before[1]
        rebuilt = s.replay()
        bots = {seat: game.make_bot("random", 99 + i) for i, seat in enumerate(game.seats)}
        play_out(twin, bots, max_moves=250)
        assert (s.to_json(), s.snapshot()) == before  # playing on the clone left the original as it was
        assert s.rng.getstate() == dice  # and its chance to come: the clone drew from its own generator
        play_out(rebuilt, {seat: game.make_bot("random", 99 + i) for i, seat in enumerate(game.seats)}, max_moves=250)
        assert twin.to_json() == rebuilt.to_json() and twin.snapshot() == rebuilt.snapshot()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_world_drawn_for_a_seat_looks_to_it_as_the_game_does(game: Game) -> None:
    """Every world the determinizer draws shows the seat exactly its view of the real game, and the worlds
    differ in what the seat cannot see (whenever something is hidden)."""
    rng = random.Random(5)
    for seed in range(3):
        s = game.new_state(None, seed)
        bots = {seat: game.make_bot("random", 3 * seed + i) for i, seat in enumerate(game.seats)}
        checked = 0
        while not s.is_terminal and checked < 12:
            for seat in game.seats:
                draw = s.determinizer(seat)
                for _ in range(2):
                    world = draw(rng)
                    assert world.view(seat) == s.view(seat), (game.id, seed, len(s.log), seat)
                    assert world.log is not s.log and [m.seat for m in world.log] == [m.seat for m in s.log]
            checked += 1
            play_out(s, bots, max_moves=max(1, len(s.log) // 3 + 1))


def _round_positions(game: Game, seeds: range, limit: int = 3) -> list[tuple[GameState[Any], str, str]]:
    """Positions where two seats choose in the same round: (state, the seat that picks first, the other)."""
    found: list[tuple[GameState[Any], str, str]] = []
    for seed in seeds:
        s = game.new_state(None, seed)
        bots = {seat: game.make_bot("random", 11 * seed + i) for i, seat in enumerate(game.seats)}
        while not s.is_terminal and len(found) < limit * (seed - seeds.start + 1):
            acting = s.to_act()
            if len(acting) >= 2:
                found.append((s.clone(), acting[0], acting[1]))
                play_out(s, bots, max_moves=len(s.log) + 7 - len(s.log))
                continue
            play_out(s, bots, max_moves=1)
        if len(found) >= limit:
            break
    return found[:limit]


SIMULTANEOUS = [g for g in GAMES if _round_positions(g, range(2), 1)]


@pytest.mark.parametrize("game", SIMULTANEOUS, ids=[g.id for g in SIMULTANEOUS])
def test_the_search_cannot_see_a_locked_pick(game: Game) -> None:
    """Attack: the first seat of a round locks one pick or another; the seat still to choose gets the very same
    choice from the same seeded search in both games (and its drawn worlds do not depend on the lock)."""
    positions = _round_positions(game, range(6), 2)
    assert positions, f"{game.id}: no simultaneous round found"
    for state, first, second in positions:
        legal = list(state.legal_actions(first).page(0, 400))
        rng = random.Random(len(state.log))
        a, b = rng.sample(legal, 2) if len(legal) >= 2 else (legal[0], legal[0])
        one, two = state.clone(), state.clone()
        one.apply(first, a)
        two.apply(first, b)
        if second not in one.to_act() or second not in two.to_act():
            continue
        assert one.view(second) == two.view(second)  # the lock looks the same to the seat still choosing
        bot = "bot:search?iters=8&depth=4"
        pick_one = game.make_bot(bot, 4).choose(one, second)
        pick_two = game.make_bot(bot, 4).choose(two, second)
        assert pick_one == pick_two, (game.id, str(a), str(b))
        w1, w2 = one.determinizer(second)(random.Random(1)), two.determinizer(second)(random.Random(1))
        assert w1.snapshot() == w2.snapshot()


def _secret_pairs(game: Game, seeds: range) -> list[tuple[GameState[Any], str, Any, Any]]:
    """Positions where a seat has two moves that read the same to the others but differ (a lasting secret)."""
    out = []
    for seed in seeds:
        s = game.new_state(None, seed)
        bots = {seat: game.make_bot("random", 13 * seed + i) for i, seat in enumerate(game.seats)}
        while not s.is_terminal and len(s.log) < 400:
            seat = s.to_act()[0]
            drawn = list(itertools.islice(s.legal_actions(seat), 3000))
            by_public: dict[str, list[Any]] = {}
            for act in drawn:
                if act.public_text() != str(act):
                    by_public.setdefault(act.public_text(), []).append(act)
            pair = next((v for v in by_public.values() if len({str(a) for a in v}) >= 2), None)
            if pair is not None:
                a = pair[0]
                b = next(x for x in pair if str(x) != str(a))
                out.append((s.clone(), seat, a, b))
                if len(out) >= 2:
                    return out
            s.apply(seat, bots[seat].choose(s, seat))
    return out


SECRETS = [g for g in GAMES if g.id == "chess-football"]


@pytest.mark.parametrize("game", SECRETS, ids=[g.id for g in SECRETS])
def test_the_search_cannot_see_a_secret_carried_by_a_public_move(game: Game) -> None:
    """Attack: the same public move hiding one secret or another (who holds the ball); the other seat's next
    search choice is the same in both games."""
    pairs = _secret_pairs(game, range(4))
    assert pairs, f"{game.id}: no move carrying a secret found"
    for state, seat, a, b in pairs:
        one, two = state.clone(), state.clone()
        one.apply(seat, a)
        two.apply(seat, b)
        while seat in one.to_act() and not one.is_terminal:  # the mover finishes its turn alike in both games
            done = next((x for x in one.legal_actions(seat) if x.type == "done"), None)
            assert done is not None and done in two.legal_actions(seat)
            one.apply(seat, done)
            two.apply(seat, done)
        other = next(x for x in one.to_act() if x != seat)
        assert one.secret_moves() and one.view(other) == two.view(other) and one.snapshot() != two.snapshot()
        bot = "bot:search?iters=8&depth=4"
        assert game.make_bot(bot, 2).choose(one, other) == game.make_bot(bot, 2).choose(two, other)


CHANCE = [g for g in GAMES if g.id in ("grid-football", "quarterback", "chess-football")]


@pytest.mark.parametrize("game", CHANCE, ids=[g.id for g in CHANCE])
def test_the_search_cannot_see_the_dice_to_come(game: Game) -> None:
    """Attack: two games with different seeds that look the same to the seat on turn (the seed's draws so far
    came out alike): the same seeded search chooses the same - it plays imagined futures on dice of its own."""
    by_view: dict[str, GameState[Any]] = {}
    for seed in range(40):
        s = game.new_state(None, seed)
        seat = s.to_act()[0]
        key = repr(s.view(seat))
        if key in by_view:
            first = by_view[key]
            assert first.seed != s.seed and first.to_act()[0] == seat
            bot = "bot:search?iters=10&depth=8"
            assert game.make_bot(bot, 6).choose(first, seat) == game.make_bot(bot, 6).choose(s, seat)
            return
        by_view[key] = s
    pytest.fail(f"{game.id}: no two seeds open alike")


def test_hidden_moves_reads_locked_picks_from_the_log() -> None:
    s = RPS.new_state(None, 0)
    s.apply("alice", "rock")
    prefix, rest = hidden_moves(s, "bob")
    assert len(prefix.log) == 0 and len(rest) == 1 and rest[0].public is None  # type: ignore[union-attr]
    prefix, rest = hidden_moves(s, "alice")  # alice sees her own pick
    assert [str(m.action) for m in prefix.log] == ["throw rock"] and rest == []


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_same_seed_and_iterations_give_the_same_choice(game: Game) -> None:
    s = _random_position(game, 4, 9)
    if s.is_terminal:
        s = game.new_state(None, 4)
    seat = s.to_act()[0]
    spec = "bot:search?iters=10&depth=6"
    choices = {str(game.make_bot(spec, 3).choose(s, seat)) for _ in range(2)}
    assert len(choices) == 1
    assert next(iter(choices)) in {str(a) for a in [game.make_bot(spec, 3).choose(s, seat)]}
    assert game.make_bot(spec, 3).choose(s, seat) in s.legal_actions(seat)


def test_seeds_vary_the_choice_among_equal_moves() -> None:
    """RPS against a uniform opponent: every throw is as good as the others, so the seed decides."""
    s = RPS.new_state(None, 0)
    picks = {str(RPS.make_bot("bot:search?iters=30", seed).choose(s, "alice")) for seed in range(12)}
    assert len(picks) >= 2


def test_a_time_budget_returns_a_legal_move() -> None:
    s = RPS.new_state(None, 0)
    bot = RPS.make_bot("bot:search?ms=5", 1)
    assert bot.choose(s, "alice") in s.legal_actions("alice")
    assert isinstance(bot, SearchBot) and bot.last["iterations"] >= 1


def test_the_search_bot_plays_the_plugin_game_to_the_end() -> None:
    """The plugin game implements the contract and nothing for the search: it gets it for free."""
    assert "search" in RPS.strategies() and "search" not in RPS.bots()
    s = RPS.new_state({"best_of": 5}, 2)
    play_out(s, {"alice": RPS.make_bot("bot:search?iters=20", 1), "bob": RPS.make_bot("default", 2)})
    assert s.is_terminal and s.replay().to_json() == s.to_json()


def test_the_root_explores_every_move_of_a_balanced_choice() -> None:
    """Rock-paper-scissors against a uniform opponent: no throw is better, so UCB spreads the iterations
    over all three (the statistics the bot reports add up to its budget)."""
    s = RPS.new_state({"best_of": 3}, 0)
    bot = SearchBot(1, iters=60)
    bot.choose(s, "alice")
    visits = [v for _, v, _ in bot.last["moves"]]
    assert bot.last["iterations"] == 60 and sum(visits) == 60 and len(visits) == 3 and min(visits) >= 10


@pytest.mark.parametrize(("spec", "message"), [
    ("bot:search?iters=0", "iters is from 1"),
    ("bot:search?budget=5", "takes iters, ms, depth and c"),
    ("bot:search?ms=fast", "ms is a number"),
    ("bot:default?iters=5", "takes no parameters"),
    ("bot:nosuch", "unknown bot strategy"),
])  # fmt: skip
def test_a_bad_bot_spec_is_one_clear_error(spec: str, message: str) -> None:
    from gm.core.registry import find_game
    from gm.session import normalise_player

    g = find_game("quarterback")
    with pytest.raises(GameError) as info:
        normalise_player(g, spec)
    assert info.value.rule == "CORE-BOT" and message in info.value.message


def test_a_bot_spec_is_kept_in_its_canonical_form() -> None:
    from gm.core.registry import find_game
    from gm.session import normalise_player

    g = find_game("quarterback")
    assert normalise_player(g, "BOT:Search?MS=200&iters=5") == "bot:search?iters=5&ms=200"
    assert normalise_player(g, "bot:search") == "bot:search"
    assert normalise_player(g, "bot") == "bot:default"
    bot = g.make_bot("bot:search?iters=5&ms=200", 1)
    assert isinstance(bot, SearchBot) and (bot.iters, bot.ms) == (5, 200.0)
