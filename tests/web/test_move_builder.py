"""The move-builder hook (``Game.move_builder``, :mod:`gm.core.movebuilder`): every game's builder is
valid against the JSON Schema in the package, and what it lets a player build is exactly what the
engine accepts - every listed row's tool call makes a legal move whose text is the row's, every legal
move has its row, and assignments and sequences built by the declared rules are accepted."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema
import pytest

from gm.core.game import Game
from gm.core.movebuilder import MAX_MOVES, default_builder, fill, key, load_schema
from gm.core.registry import all_games, find_game
from gm.core.state import GameState
from gm.core.tools import parse_args

VALIDATOR = jsonschema.Draft202012Validator(load_schema())
#: legal moves a builder may leave out because another row makes the same move: "pass to FA1" is
#: "QB pass to FA1" when QB carries the ball
SAME_AS_A_ROW = {"chess-football": re.compile(r"^pass to ")}


def positions(game: Game, seed: int, plies: int = 160, *, rules: Any = None) -> Iterator[GameState[Any]]:
    """The positions of a seeded random game (the same state object, moved on).  A seat whose builder
    collects a sequence (a snap plan) moves by it: drawing from a space as large as a plan's costs
    most of a second a time."""
    st = game.new_state(rules=rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal:
            return
        yield st
        seat = st.to_act()[0]
        forms = game.move_builder(st, seat)["forms"]
        if forms and "sequence" in forms[0]:
            st.apply(seat, make(game, st, seat, forms[0]["tool"], fill(forms[0]["args"], {"items": plan(forms[0], rng)})))
        else:
            st.apply(seat, st.legal_actions(seat).sample(rng))


def plan(f: dict[str, Any], rng: random.Random) -> list[str]:
    """A sequence built by the form's declared rules: up to ``max`` rows of its forms, one per value of
    ``once``, sent in the ``sort`` order."""
    seq = f["sequence"]
    order = seq["sort"]["order"]
    rows: list[tuple[int, str]] = []
    used: set[str] = set()
    for _ in range(rng.randint(0, seq["max"])):
        form = rng.choice(seq["forms"])
        names = [p["name"] for p in form["parts"]]
        candidates = [r for r in form["moves"] if r[names.index(seq["once"])] not in used]
        if not candidates:
            continue
        row = rng.choice(candidates)
        piece = row[names.index(seq["once"])]
        used.add(piece)
        rows.append((order.index(piece), row[-1]))
    return [text for _, text in sorted(rows, key=lambda r: r[0])]


def make(game: Game, st: GameState[Any], seat: str, tool: str, args: Mapping[str, Any]) -> Any:
    spec = next(t for t in game.tools(st.rules) if t.name == tool)
    assert spec.kind == "action"
    return spec.handler(st, seat, parse_args(spec, dict(args)))


def listed_forms(b: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for f in b["forms"]:
        if "parts" in f:
            yield f


#: rows of a form whose tool calls are made and checked (a seeded sample of the larger forms)
CHECKED_ROWS = 40


def check_rows(game: Game, st: GameState[Any], seat: str, f: dict[str, Any], *, tool: bool = True) -> set[str]:
    """Every row is well formed and its values are located on the board; the rows' values fill the
    form's call into a move the engine accepts, whose text is the row's (every row of a small form, a
    seeded sample of a large one)."""
    names = [p["name"] for p in f["parts"]]
    assert len({key(r[-1]) for r in f["moves"]}) == len(f["moves"]), "two rows make one move"
    for p in f["parts"]:
        if p["input"] != "choice":  # a board input locates every value its rows use
            used = {key(r[names.index(p["name"])]) for r in f["moves"]} - {"null"}
            assert used <= set(p["where"]), (p["name"], used - set(p["where"]))
    sample = {id(r) for r in random.Random(len(f["moves"])).sample(f["moves"], min(CHECKED_ROWS, len(f["moves"])))}
    for row in f["moves"]:
        assert len(row) == len(names) + 1
        if tool and id(row) in sample:
            action = make(game, st, seat, f["tool"], fill(f["args"], dict(zip(names, row, strict=False))))
            st.validate(seat, action)
            assert str(action) == row[-1] or st.parse_action(row[-1]) in st.legal_actions(seat), (row, str(action))
    return {str(r[-1]) for r in f["moves"]}


@pytest.mark.parametrize("game_id", [g.id for g in all_games()])
def test_every_builder_is_valid_and_builds_exactly_the_legal_moves(game_id: str) -> None:
    game = find_game(game_id)
    kinds: set[str] = set()
    for st in positions(game, seed=7, plies=120):
        for seat in game.seats:
            b = game.move_builder(st, seat)
            VALIDATOR.validate(b)
            assert b["seat"] == seat and json.loads(json.dumps(b)) == b
            if seat not in st.to_act():
                assert b["forms"] == [] and b["decision"] is None
                continue
            assert b["forms"], f"{game_id}: {seat} must {st.decision(seat)} but the builder offers nothing"
            assert b["decision"] == st.decision(seat)
            texts: set[str] = set()
            for f in listed_forms(b):
                kinds.add(f["id"])
                texts |= check_rows(game, st, seat, f)
            for f in b["forms"]:
                kinds.add(f["id"])
            if all("parts" in f and not f.get("typed") for f in b["forms"]):  # every move listed: all of them, no other
                legal = st.legal_actions(seat)
                every = {str(a) for a in legal}
                missing = {t for t in every - texts if not (game_id in SAME_AS_A_ROW and SAME_AS_A_ROW[game_id].match(t))}
                assert not missing, (game_id, sorted(missing)[:5])
                assert texts <= every
    assert kinds  # the game was played through some of its forms


def test_brawl_assignments_built_by_the_declared_rules_are_accepted() -> None:
    """An ``assign`` form: every item a value of each field (its own choices, a distinct zone) makes a
    placement the engine accepts; a repeated zone is refused."""
    game = find_game("brawl")
    rng = random.Random(4)
    checked = 0
    for st in positions(game, seed=4, plies=60):
        for seat in st.to_act():
            b = game.move_builder(st, seat)
            f = b["forms"][0]
            if "assign" not in f:
                continue
            a = f["assign"]
            fields = {fd["name"]: fd for fd in a["fields"]}
            zones = list(fields["zone"]["values"])
            rng.shuffle(zones)
            rows = []
            for item, zone in zip(a["items"], zones, strict=False):
                rows.append({a["key"]: item["value"], "card": rng.choice(item["choices"]["card"]), "zone": zone})
            st.validate(seat, make(game, st, seat, f["tool"], fill(f["args"], {"rows": rows})))
            rows[1]["zone"] = rows[0]["zone"]  # distinct: a zone twice is not a placement
            with pytest.raises(Exception, match="one card per zone"):
                st.validate(seat, make(game, st, seat, f["tool"], fill(f["args"], {"rows": rows})))
            checked += 1
    assert checked >= 5


def test_chess_football_plans_built_by_the_declared_rules_are_accepted() -> None:
    """A ``sequence`` form: up to ``max`` rows of its forms, one per piece (``once``), sent in the
    declared order (``sort``): the engine accepts the plan."""
    game = find_game("chess-football")
    rng = random.Random(9)
    checked = 0
    for st in positions(game, seed=9, plies=400):
        for seat in st.to_act():
            if st.decision(seat) != "snap_plan":
                continue
            f = game.move_builder(st, seat)["forms"][0]
            items = plan(f, rng)
            st.validate(seat, make(game, st, seat, f["tool"], fill(f["args"], {"items": items})))
            checked += 1
    assert checked >= 4


@pytest.mark.parametrize("game_id", ["grid-football", "quarterback", "gridmaster4"])
def test_the_default_builder_offers_every_listed_move_as_choices(game_id: str) -> None:
    """A game without a ``move_builder`` module: one form per action tool, every argument a choice."""
    game = find_game(game_id)
    for st in positions(game, seed=3, plies=30):
        seat = st.to_act()[0]
        b = default_builder(game, st, seat)
        VALIDATOR.validate(b)
        legal = st.legal_actions(seat)
        if legal.is_space and len(legal) > MAX_MOVES:
            assert b["forms"] == [] and b["summary"]
            continue
        texts: set[str] = set()
        for f in b["forms"]:
            assert all(p["input"] == "choice" for p in f["parts"])
            texts |= check_rows(game, st, seat, f)
        assert texts == {str(a) for a in legal}


def test_the_schema_refuses_what_a_front_end_could_not_build() -> None:
    st = find_game("quarterback").new_state(seed=1)
    b = find_game("quarterback").move_builder(st, st.to_act()[0])
    bad = json.loads(json.dumps(b))
    del bad["forms"][0]["parts"][0]["where"]  # a piece part that says nowhere where its pieces are
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(bad)
    bad = json.loads(json.dumps(b))
    bad["forms"][0]["assign"] = {"key": "x", "items": [], "fields": []}  # listed and assigned at once
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(bad)
