"""The chat's own chance (``gm import --chance from-log``, the default): games whose dice and deals no seed
gives - played in gm on a chance source that rolls every die high and deals from the bottom of each pile -
are written out as chatbot logs and come back move for move, their dice and deals from the log; a roll or a
deal the rules cannot give is flagged; with ``--chance seed`` the same log shows where gm's dice differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from chat_helpers import moves
from layouts import exchanges, line

from gm.chatlog.audit import SEEDS, audit
from gm.core.chance import Chance, Coin, Deal, Die, Draw
from gm.core.registry import find_game
from gm.games.brawl.actions import Placement, card_play

CORPUS = Path(__file__).parent / "corpus"


class Unseeded:
    """Chance no seed gives: every die shows its highest face, every coin heads, every deal the bottom of its pile."""

    def outcome(self, draw: Draw[Any], index: int, drawn: Any) -> Any:
        if isinstance(draw, Die):
            return draw.hi
        if isinstance(draw, Coin):
            return "heads"
        if isinstance(draw, Deal):
            return list(draw.pile[: draw.n])
        return None


def _named(state: Any, seat: str, action: Any) -> Any:
    """A brawl placement with every card named (a bot may leave out a player's only card: then the log would not
    say which card was dealt, and gm would deal its own)."""
    if not isinstance(action, Placement):
        return action
    hands = state.hands[seat]
    return Placement(tuple(card_play(p.player, p.card or str(hands[p.player][0]), p.zone) for p in action.placements))


def _played(game_id: str, seed: int, limit: int) -> Any:
    game = find_game(game_id)
    state = game.new_state(None, seed, Chance(source=Unseeded()))
    bots = {s: game.make_bot("random", seed=seed + i) for i, s in enumerate(game.seats)}
    while state.to_act() and len(state.log) < limit:
        seat = state.to_act()[-1]
        state.apply(seat, _named(state, seat, bots[seat].choose(state, seat)))
    return game, state


@pytest.mark.parametrize(("game_id", "seed", "limit"), [("brawl", 2, 60), ("chess-football", 5, 160)])
def test_a_game_on_the_chats_own_dice_and_deals_comes_back_move_for_move(game_id: str, seed: int, limit: int) -> None:
    game, played = _played(game_id, seed, limit)
    xs, state = exchanges(game, played)
    assert state.supplied, "the game drew outcomes no seed gives"
    text = "## Move log\n" + "\n".join(line(x) for x in xs) + "\n"
    a = audit(game, text)
    assert (a.divergences, a.illegal, a.impossible, a.chance) == ([], None, [], "from-log")
    assert moves(a.state) == moves(state) and a.state.view(None) == state.view(None)  # (hands not yet played: the log cannot say)
    assert a.supplied and a.text().splitlines()[1].startswith(f"No seed of the {SEEDS} tried gives every outcome of chance")
    assert a.text().splitlines()[2].startswith(f"The chat's own dice and deals: {len(a.supplied)} outcomes of chance came from its log")
    replayed = a.state.to_json()
    assert replayed["supplied"] and game.new_state(a.state.rules, a.seed, Chance.from_record(replayed)).rebuilt().seed == a.seed
    again = type(a.state).from_json(replayed)  # the state's record keeps the chat's outcomes: it replays exactly
    assert again.snapshot() == a.state.snapshot()


def test_with_gms_seed_alone_the_same_log_shows_where_its_dice_differ() -> None:
    game, played = _played("chess-football", 5, 160)
    xs, _ = exchanges(game, played)
    a = audit(game, "\n".join(line(x) for x in xs), outcomes="seed")
    assert a.chance == "seed" and not a.supplied
    assert a.text().splitlines()[1:4] == [
        f"No seed of the {SEEDS} tried gives every outcome of chance the chat states (line 57: pass roll (1-6, QB to FA1)); "
        "replayed with seed 8.",  # (seed 8 rolls every die of the first 56 lines as the chat does)
        "line 57 T57 (home: done): pass roll: the chatbot rolled 6; gm's roll is 3 [CF-PASS]",
        "line 62 T62 (home: FA3 to G36 C): collision: the chatbot rolled FA3 6 HV1 6; gm's rolls are FA3 1 HV1 6 [CF-COLLISION]",
    ]


def test_a_log_that_agrees_with_a_seed_supplies_nothing() -> None:
    """gm's own game: the seed search finds its seed, and the chat's outcomes, all the seed's, supply nothing."""
    game = find_game("chess-football")
    state = game.new_state(None, 7)
    bots = {s: game.make_bot("random", seed=7 + i) for i, s in enumerate(game.seats)}
    while len(state.log) < 120:
        seat = state.to_act()[-1]
        state.apply(seat, bots[seat].choose(state, seat))
    xs, _ = exchanges(game, state)
    a = audit(game, "\n".join(line(x) for x in xs))
    assert (a.seed, a.supplied, a.seed_note, a.divergences) == (7, [], "", [])
    assert "supplied" not in a.state.to_json()


# ------------------------------------------------------------------ the command line
def test_gm_import_chance_seed_and_json(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gm.cli.app import app

    chat = tmp_path / "chat.md"
    chat.write_text((CORPUS / "cf_mistakes_own_dice.md").read_text(encoding="utf-8"), encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["import", str(chat), "--json", "--seed", "26", "-o", str(tmp_path / "s.json")])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["chance"] == "from-log" and data["chance_from_log"] == [  # (seed 26 rolls other collisions than the chat)
        {"line": 15, "label": "T3", "draw": "collision roll (1-6, HV4)", "chatbot": "6", "gm": "5"},
        {"line": 15, "label": "T3", "draw": "collision roll (1-6, HV1)", "chatbot": "6", "gm": "2"},
    ]
    assert data["impossible_chance"][0]["draw"] == "pass roll" and data["impossible_chance"][0]["rule"] == "CORE-CHANCE"
    res = runner.invoke(app, ["import", str(chat), "--chance", "seed", "-o", str(tmp_path / "t.json")])
    assert res.exit_code == 0 and "pass roll: the chatbot rolled 7; gm's roll is " in res.stdout
    bad = runner.invoke(app, ["import", str(chat), "--chance", "dice"])
    assert bad.exit_code == 2 and bad.stderr == "gm: error: --chance takes from-log or seed, not 'dice'\n"


def test_a_session_made_on_the_chats_dice_keeps_them_and_says_so(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from gm.cli.app import app
    from gm.session import Session

    runner = CliRunner()
    chat = CORPUS / "br_clean_own_deal.md"
    res = runner.invoke(app, ["import", str(chat), "--gm-home", str(tmp_path), "--id", "own"])
    assert res.exit_code == 0, res.output
    a = audit(find_game("brawl"), chat.read_text(encoding="utf-8"))
    assert len(a.supplied) == 86
    assert ("the session plays on the chat's own dice and deals: 86 outcomes of chance from the log are kept with it; gm's "
            "seed draws the rest") in res.stdout  # fmt: skip
    s = Session.open("own", home=tmp_path)
    assert s.practice and s.state.snapshot() == a.state.snapshot() and s.state.supplied == a.state.supplied
    assert s.chance.supplied and s.chance.supplied == a.state.chance_setup().supplied  # (opened again from its header)
    header = (tmp_path / "sessions").glob("own*")
    assert any("supplied" in p.read_text(encoding="utf-8").splitlines()[0] for p in header if p.is_file())


@pytest.mark.parametrize("seed", [0, 6])  # (under mt19937: home has the ball first, then away)
def test_brawls_toss_unsaid_is_the_side_its_first_placements_show_on_offense(seed: int) -> None:
    """A chat that never says who had the ball first, dealt by no seed of gm's generator: the side whose first
    placement fields the offense (BR-R-ROSTER) had it, and the game comes back move for move."""
    from gm.core.chance import MT19937

    game = find_game("brawl")
    state = game.new_state(None, seed, MT19937)
    bots = {s: game.make_bot("random", seed=seed + i) for i, s in enumerate(game.seats)}
    while len(state.log) < 12:
        seat = state.to_act()[-1]
        state.apply(seat, _named(state, seat, bots[seat].choose(state, seat)))
    xs, state = exchanges(game, state)
    text = "\n".join(line(x) for x in xs)
    assert "has the ball first" in text
    text = text.replace("| home has the ball first", "").replace("| away has the ball first", "")
    first = next(e.data["seat"] for e in state.setup_events if e.kind == "toss")  # type: ignore[attr-defined]
    a = audit(game, text)
    assert a.supplied and (a.illegal, a.divergences) == (None, [])
    assert moves(a.state) == moves(state)
    assert [e.data["seat"] for e in a.state.setup_events if e.kind == "toss"] == [first]  # type: ignore[attr-defined]
