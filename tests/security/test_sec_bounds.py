"""Issue #15, tests 7: a ruleset value out of range gets one line naming the field and the range,
through every front end that takes a ruleset (a TOML file to ``gm new`` / ``gm play`` / ``gm sim``,
MCP ``new_game`` rules, ``Session.create``); the bounds themselves are accepted and play.

The fields come from each game's ruleset schema, walked with ``tests/test_ruleset_bounds.py``'s
helpers: every whole-number field bounded on both sides is checked, so a field the game owners bound
later is covered from then on (fields still unbounded are listed by that file's own test)."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from sec_helpers import cli

from gm.core.errors import GameError
from gm.core.registry import all_games, find_game
from gm.mcp_server.host import GameHost
from gm.session import Session


def _bounds_helpers() -> Any:
    path = Path(__file__).parents[1] / "test_ruleset_bounds.py"
    spec = importlib.util.spec_from_file_location("ruleset_bounds_helpers", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ruleset_bounds_helpers", mod)
    spec.loader.exec_module(mod)
    return mod


def bounded_fields(game_id: str) -> list[tuple[str, int, int]]:
    """Top-level whole-number fields with both bounds: (name, lowest, highest)."""
    helpers = _bounds_helpers()
    schema = find_game(game_id).rules_model.model_json_schema()
    out = []
    for path, node in helpers._walk(schema, schema.get("$defs", {}), "", frozenset()):
        if "." in path or "[" in path or "{" in path or node.get("type") != "integer":
            continue
        if "minimum" in node and "maximum" in node:
            out.append((path, int(node["minimum"]), int(node["maximum"])))
    return out


def _message(field: str, value: int, lo: int, hi: int) -> str:
    return f"{field}: {value} is out of range; allowed {lo} to {hi}"


GAMES = [g.id for g in all_games()]


@pytest.mark.parametrize("game", GAMES)
def test_out_of_range_values_name_the_field_and_the_range_everywhere(game: str, tmp_path: Path) -> None:
    fields = bounded_fields(game)
    assert fields, f"{game}: no bounded whole-number field"
    host = GameHost(home=tmp_path)
    rules_file = tmp_path / "rules.toml"
    for field, lo, hi in fields:
        for bad in (hi + 1, lo - 1, 10**6):
            want = _message(field, bad, lo, hi)
            with pytest.raises(GameError) as err:  # the API
                Session.create(game, rules={field: bad}, home=tmp_path)
            assert err.value.message == f"[CORE-RULES] {want}", err.value.message
            r = host.call("new_game", {"game": game, "rules": {field: bad}}).result  # MCP
            assert not r["ok"] and r["error"]["rule"] == "CORE-RULES" and r["error"]["reason"] == want, r["error"]
            rules_file.write_text(f"{field} = {bad}\n")
            for args in (("new", game), ("play", game), ("sim", game, "--games", "1")):  # the command line
                code, out = cli(tmp_path, *args, "--rules", str(rules_file), input="quit\n")
                assert code == 2 and out.count("\n") == 1 and out.startswith("gm: error: [CORE-RULES]"), (args, out)
                assert want in out, (args, out)
    assert not (tmp_path / "sessions").exists() or not any((tmp_path / "sessions").iterdir())  # nothing was made


#: (game, field, value): every bounded field at its lowest and at its highest, one test each
AT_BOUNDS = [(game, field, v) for game in GAMES for field, lo, hi in bounded_fields(game) for v in (lo, hi)]


@pytest.mark.parametrize(("game", "field", "value"), AT_BOUNDS, ids=[f"{g}-{f}={v}" for g, f, v in AT_BOUNDS])
def test_values_at_the_bounds_are_accepted_and_play(game: str, field: str, value: Any, tmp_path: Path) -> None:
    """Each field at its lowest and its highest (the others at their defaults): the session is
    made (or a rule relating fields refuses it, saying so - not 'out of range') and a few moves
    are played by bots.  (How fast is bench's business, not a timed test's.)"""
    g = find_game(game)
    try:
        s = Session.create(game, rules={field: value}, persist=False, record=False, advance=False,
                           players={seat: "bot:random" for seat in g.seats})
    except GameError as exc:
        assert "out of range" not in exc.message, exc.message
        return
    rng = random.Random(1)
    for _ in range(6):
        acting = s.state.to_act()
        if not acting:
            break
        seat = acting[0]
        s.state.apply(seat, s.state.legal_actions(seat).sample(rng))
    assert s.state.replay().to_json() == s.state.to_json()
