"""gm.testing, the contract kit for game authors: green on gm's five games and the test-only plugin
game, red (naming the broken promise) on sample games each broken in one way."""

from __future__ import annotations

import dataclasses
import itertools
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import gm.testing
from gm.core import Action, Bot, GameError, GameState
from gm.core.registry import all_games, find_game

PLUGIN = Path(__file__).resolve().parent / "plugin_game"
#: the games with a secret a seat may hold from the others (a locked pick, a hidden ball carrier)
SECRETS = {"grid-football", "brawl", "chess-football", "rock-paper-scissors"}


@pytest.fixture
def rps(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The plugin game's module (``gm_rps.game``), imported from the source tree (not registered)."""
    monkeypatch.syspath_prepend(str(PLUGIN))
    import gm_rps.game

    return gm_rps.game


@pytest.mark.parametrize("gid", [g.id for g in all_games()])
def test_every_installed_game_keeps_the_contract(gid: str) -> None:
    report = gm.testing.check_game(find_game(gid), seeds=(0,), plies=20)
    assert report.positions == 21 and report.actions > 100 and report.refusals > 100 and report.boards > 0
    if gid in SECRETS:
        assert report.pairs > 0, "no counterfactual pair was compared"


def test_the_plugin_game_keeps_the_contract(rps: Any) -> None:
    report = gm.testing.check_game(rps.GAME, seeds=(0, 1))
    assert report.pairs > 0 and report.boards > 0 and report.refusals > 0
    with pytest.raises(GameError):  # registered only while it was checked
        find_game(rps.GAME.id)


def test_a_game_under_another_ruleset_is_checked_under_it(rps: Any) -> None:
    report = gm.testing.check_game(rps.GAME, {"lizard_spock": True, "best_of": 5}, seeds=(2,), plies=12)
    assert report.actions >= 12 * 5 // 2


def test_unknown_checks_are_named() -> None:
    with pytest.raises(ValueError, match="unknown checks \\['speed'\\]; the checks are legal, refusal"):
        gm.testing.check_game(find_game("gridmaster4"), only=["speed"])


def test_the_board_schema_is_a_valid_schema_shipped_in_the_package() -> None:
    schema = gm.testing.load_board_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    assert v.is_valid({"game": "g", "kind": "grid", "columns": 3, "rows": 3})
    assert not v.is_valid({"game": "g", "kind": "hex", "columns": 3, "rows": 3})
    assert not v.is_valid({"game": "g", "kind": "grid", "columns": 3, "rows": 3, "cells": [{"col": 0, "row": 1}]})


# ------------------------------------------------------------ broken sample games
def broken(rps: Any, name: str, state: Mapping[str, Any] | None = None, game: Mapping[str, Any] | None = None) -> Any:
    """The plugin game with one promise broken: its state and game classes with ``state``/``game`` overrides."""
    state_cls: Any = type(f"Broken{name}State", (rps.RpsState,), dict(state or {}))
    game_cls: Any = type(f"Broken{name}", (rps.RockPaperScissors,), {
        "id": f"broken-{name}", "aliases": (), "package": "gm_rps", "__module__": rps.__name__,
        "new_state": lambda self, rules=None, seed=0, chance=None: state_cls(self.load_rules(rules), seed, chance),
        **(game or {}),
    })
    g = game_cls()
    state_cls.game = g
    return g


def red(game: Any, check: str) -> str:
    with pytest.raises(gm.testing.ContractError) as info:
        gm.testing.check_game(game, seeds=(0,), plies=12, only=[check])
    text = str(info.value)
    assert text.startswith(f"{game.id} breaks gm's game contract (")
    return text


def test_red_when_listed_actions_are_refused(rps: Any) -> None:
    game = broken(rps, "legal", {"_legal": lambda self, seat: rps._throws(rps.EXTENDED)})
    text = red(game, "legal")
    assert "- legal: listed throw lizard is not `in` the legal actions of alice (seed 0, after 0 moves)" in text
    assert "- legal: listed throw spock is refused by apply for alice: [RPS-SHAPES] 'throw spock': this match plays rock, paper, scissors" in text


def test_red_when_a_refused_move_changes_the_state(rps: Any) -> None:
    def turn_error(self: Any, seat: str, action: Action) -> GameError:
        self.wins[seat] += 1  # a refusal that scores
        return GameError("not your turn", rule="RPS-SECRET")

    text = red(broken(rps, "refusal", {"_turn_error": turn_error}), "refusal")
    assert text.endswith("(1 failures):\n- refusal: bob: refused throw rock changed the state (seed 0, after 1 moves (... bob: throw paper))")


def test_red_when_an_action_does_not_read_back(rps: Any) -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Hurl(rps.Throw):  # type: ignore[misc,name-defined]
        def __str__(self) -> str:
            return f"hurl {self.shape}"

    hurls = tuple(Hurl(s) for s in rps.CLASSIC)
    text = red(broken(rps, "text", {"_legal": lambda self, seat: hurls}), "round_trip")
    assert "- round_trip: Game.parse_action('hurl rock') refuses it: [RPS-SYNTAX] 'hurl rock': a throw names a shape" in text
    assert "- round_trip: action_from_json({'type': 'throw', 'shape': 'rock'}) gives Throw(shape='rock'), not " in text
    assert "Hurl(shape='rock')" in text


def test_red_when_the_same_seed_and_bots_play_another_game(rps: Any) -> None:
    class Leaky:
        """A bot whose choice leaks from one game into the next (a count shared by every bot made)."""

        made = itertools.count()

        def __init__(self, seed: int = 0) -> None:
            self.shape = rps.CLASSIC[0] if next(Leaky.made) < 2 else rps.CLASSIC[1]

        def choose(self, state: GameState[Any], seat: str) -> Action:
            return rps.Throw(self.shape)

    def bots(self: Any) -> Mapping[str, Callable[..., Bot]]:
        return {"default": Leaky}

    text = red(broken(rps, "seed", game={"bots": bots}), "determinism")
    assert "- determinism: seed 0, the same bots: the games part at line 0 (['alice: throw rock'] v ['alice: throw paper'])" in text


def test_red_when_another_seat_can_see_a_locked_pick(rps: Any) -> None:
    def render(self: Any, state: Any, seat: str | None = None, *, full: bool = False) -> str:
        return f"{rps.render(state, seat, full=full)}pending: {state.pending}\n"

    text = red(broken(rps, "peek", game={"render": render}), "hidden")
    assert "- hidden: bob can tell throw rock from throw paper, a locked pick of alice (seed 0, after 0 moves)" in text
    assert "- hidden: a spectator can tell throw rock from throw paper, a locked pick of alice" in text


def test_red_when_a_template_does_not_render(rps: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(PLUGIN / "gm_rps" / "templates", tmp_path / "broken_rps_docs" / "templates")
    (tmp_path / "broken_rps_docs" / "__init__.py").write_text("")
    rules = tmp_path / "broken_rps_docs" / "templates" / "rules.md.j2"
    rules.write_text(rules.read_text(encoding="utf-8") + '\n{{ ids("RPS-NOPE") }}\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    text = red(broken(rps, "docs", game={"package": "broken_rps_docs"}), "templates")
    assert "- templates: the rules document does not render: [CORE-EXPORT]" in text and "RPS-NOPE" in text


def test_red_when_the_board_is_not_the_documented_format(rps: Any) -> None:
    from gm_rps.board_json import board_json

    def off(self: Any, state: Any, seat: str | None = None) -> dict[str, Any]:
        out = board_json(state, seat)
        out["cells"][0]["col"] = out["columns"]  # one column past the board
        out["pieces"].append({"col": 0, "row": 1})  # a piece of no kind
        return out

    text = red(broken(rps, "board", game={"board_json": off}), "board_json")
    assert "- board_json for alice: pieces/0: 'kind' is a required property (seed 0, after 0 moves)" in text
    ok = red(broken(rps, "board2", game={"board_json": lambda self, state, seat=None: {**board_json(state, seat), "pieces": [],
                                                                                       "cells": [{"col": 3, "row": 1, "kind": "x"}]}}), "board_json")
    assert "- board_json for alice: cells: x at col 3, row 1 is off the board (seed 0, after 0 moves)" in ok



def test_a_game_registered_under_the_same_id_is_registered_again(rps: Any) -> None:
    from gm.core.registry import register_game, unregister_game

    other = broken(rps, "twin")
    twin = broken(rps, "twin")
    register_game(other)
    try:
        gm.testing.check_game(twin, seeds=(0,), plies=4, only=["determinism"])
        assert find_game("broken-twin") is other
    finally:
        unregister_game(other)
    with pytest.raises(GameError):
        find_game("broken-twin")
