"""Every number, list and text of every game's ruleset has documented bounds (issue: one ruleset
value must not exhaust memory), and a value past a bound gets one line naming the field and the
range, through every front end that takes a ruleset."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gm.core.errors import RulesetError
from gm.core.registry import all_games, find_game

GAMES = [g.id for g in all_games()]


def _walk(schema: dict[str, Any], defs: dict[str, Any], path: str, seen: frozenset[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            return
        yield from _walk(defs[name], defs, path, seen | {name})
        return
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, ()):
            yield from _walk(sub, defs, path, seen)
    kind = schema.get("type")
    if kind in ("integer", "number", "array", "string") or (kind == "object" and isinstance(schema.get("additionalProperties"), dict)):
        yield path, schema
    for name, sub in (schema.get("properties") or {}).items():
        yield from _walk(sub, defs, f"{path}.{name}" if path else name, seen)
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"], defs, f"{path}[]", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _walk(schema["additionalProperties"], defs, f"{path}{{}}", seen)


def _unbounded(game_id: str) -> list[str]:
    model = find_game(game_id).rules_model
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    out = []
    for path, node in _walk(schema, defs, "", frozenset()):
        kind = node.get("type")
        if "enum" in node or "const" in node:
            continue
        if kind in ("integer", "number"):
            lo = "minimum" in node or "exclusiveMinimum" in node
            hi = "maximum" in node or "exclusiveMaximum" in node
            if not (lo and hi):
                out.append(f"{path} ({kind}: {'no maximum' if lo else 'no minimum'})")
        elif kind == "array" and "maxItems" not in node:
            out.append(f"{path} (array: no maxItems)")
        elif kind == "string" and "maxLength" not in node and "pattern" not in node:
            out.append(f"{path} (string: no maxLength)")
        elif kind == "object" and "maxProperties" not in node:
            out.append(f"{path} (mapping: no maxProperties)")
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_every_ruleset_field_is_bounded(game_id: str) -> None:
    assert _unbounded(game_id) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_a_value_past_a_bound_names_the_field_and_the_range(game_id: str) -> None:
    game = find_game(game_id)
    props = game.rules_model.model_json_schema()["properties"]
    ints = [(n, p) for n, p in props.items() if p.get("type") == "integer" and "maximum" in p and "minimum" in p]
    assert ints, "a ruleset with no bounded whole-number field"
    for name, p in ints:
        for bad in (p["maximum"] + 1, p["minimum"] - 1, 10**9):
            with pytest.raises(RulesetError) as err:
                game.load_rules({name: bad})
            assert err.value.message.startswith(f"[CORE-RULES] {name}: "), err.value.message
            assert f"allowed {p['minimum']} to {p['maximum']}" in err.value.message or "(and" in err.value.message, err.value.message
        # the bounds themselves are allowed (a model validator may still refuse a combination)
        for ok in (p["minimum"], p["maximum"]):
            try:
                game.load_rules({name: ok})
            except RulesetError as exc:
                assert "out of range" not in exc.message, exc.message


def test_a_misspelt_field_gets_did_you_mean() -> None:
    with pytest.raises(RulesetError) as err:
        find_game("grid-football").load_rules({"first_down_rowz": 8})
    assert err.value.message == "[CORE-RULES] first_down_rowz: no such field; did you mean 'first_down_rows'?"
