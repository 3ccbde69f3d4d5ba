"""Export context of Quarter Back: derived numbers and worked examples computed by the engine.

The templates in ``templates/`` (next to this module) never type a game number by hand: they
read the ruleset, and the examples here come from actually playing the moves on a
:class:`QuarterbackState` built from that ruleset (with the first attacker fixed to red, so
the examples read the same whatever the toss).  An example that does not fit a custom
ruleset (its squares off the board, its pieces missing) is ``None`` and left out.
"""

from __future__ import annotations

from typing import Any

from gm.core.errors import GameError
from gm.games.quarterback.actions import FORMS
from gm.games.quarterback.engine import QuarterbackState
from gm.games.quarterback.rules import KIND_NAMES, MAX_PER_KIND, SETUP_LISTS, QuarterbackRules, square_name


def export_context(rules: QuarterbackRules) -> dict[str, Any]:
    """Template context for the Quarter Back documents."""
    r = rules
    values = r.values
    last_col = chr(ord("A") + r.columns - 1)
    example_row, example_col = min(8, r.field_rows), min(4, r.columns)
    return {
        "first_col": "A",
        "last_col": last_col,
        "back_rows": [str(-i) for i in range(1, r.back_rows + 1)],
        "values": values,
        "values_default": r.column_values is None,
        "top_right": f"{last_col}{r.field_rows}",
        "top_right_points": r.field_rows + values[-1],
        "score_example": {
            "square": f"{chr(ord('A') + example_col - 1)}{example_row}",
            "row": example_row,
            "column": values[example_col - 1],
            "points": example_row + values[example_col - 1],
        },
        "strengths": {KIND_NAMES[k]: r.strength(k) for k in "SDTQ"},
        "setup": {side: _side(getattr(r, side)) for side in ("attack", "defense")},
        "setup_board": _setup_board(r),
        "forms": FORMS,
        "num": _NUMBER_WORDS,
        "match_list": _match_list(r),
        "toml": _toml(r),
        "offside_example": _offside_example(r),
        "example": worked_example(r),
        "default": _default_context(),
        "bounds": _bounds(),
    }


def _bounds() -> dict[str, Any]:
    """The largest value each whole-number field of the ruleset allows, and the most pieces of a kind."""
    props = QuarterbackRules.model_json_schema()["properties"]
    out: dict[str, Any] = {name: p["maximum"] for name, p in props.items() if "maximum" in p}
    out["per_kind"] = MAX_PER_KIND
    return out


def _default_context() -> dict[str, Any]:
    """The default ruleset's board and set-up, for the rulings' write-ups (which explain the defaults)."""
    d = QuarterbackRules()
    return {
        "last_col": chr(ord("A") + d.columns - 1),
        "back_rows": [str(-i) for i in range(1, d.back_rows + 1)],
        "setup": {side: _side(getattr(d, side)) for side in ("attack", "defense")},
    }


_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def _match_list(r: QuarterbackRules) -> dict[str, list[str]]:
    """The six outcomes of a match (two games) as game-point scores, by result (ruling QB-R-MATCH-LIST)."""
    pts = {"W": (r.win_points, 0), "D": (r.draw_points, r.draw_points), "L": (0, r.win_points)}
    out: dict[str, list[str]] = {"won": [], "drawn": [], "lost": []}
    for a, b in ("WW", "WD", "WL", "DD", "DL", "LL"):
        mine, theirs = pts[a][0] + pts[b][0], pts[a][1] + pts[b][1]
        key = "won" if mine > theirs else "lost" if mine < theirs else "drawn"
        score = f"{mine}-{theirs}"
        if score not in out[key]:
            out[key].append(score)
    return out


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


def _toml(r: QuarterbackRules) -> list[str]:
    """The whole ruleset as a TOML file (the set-up as its two tables)."""
    data = r.model_dump(mode="json")
    data["column_values"] = r.values
    lines = [f"{k} = {_toml_value(v)}" for k, v in data.items() if k not in ("attack", "defense")]
    for side in ("attack", "defense"):
        lines += ["", f"[{side}]"]
        lines += [f"{field} = {_toml_value(data[side][field])}" for field in SETUP_LISTS if data[side][field]]
    return lines


def _side(setup: Any) -> list[dict[str, Any]]:
    """One side's set-up: each kind with its squares (only the kinds it has)."""
    out = []
    for field, letter in SETUP_LISTS.items():
        squares = [square_name(_sq(s)) for s in getattr(setup, field)]
        if squares:
            out.append({"field": field, "kind": KIND_NAMES[letter], "squares": squares})
    return out


def _sq(text: str) -> tuple[int, int]:
    from gm.games.quarterback.rules import parse_square

    return parse_square(text)


def _red_first(r: QuarterbackRules, **changes: Any) -> QuarterbackState | None:
    """A state of the ruleset with red attacking first (and any changed fields), or ``None``."""
    from gm.games.quarterback import GAME  # layer seam

    data = {**r.model_dump(mode="json"), "first_attacker": "red", **changes}
    try:
        state = GAME.new_state(data, 0)
    except GameError:
        return None
    assert isinstance(state, QuarterbackState)
    return state


def _setup_board(r: QuarterbackRules) -> str:
    state = _red_first(r)
    assert state is not None  # the ruleset itself is valid
    return state.game.render(state, None)


# alike on purpose: the rules documents of Chess-Football and Quarter Back each open with an example of a move
# the engine refuses; each plays its own game's moves and expects its own rule
def _offside_example(r: QuarterbackRules) -> str | None:
    """The rejection of a defending Triple that steps over the line (the rules' opening example)."""
    if r.columns < 3 or r.field_rows < 2:
        return None
    qb = r.attack.quarterback[0]
    state = _red_first(r, format="game", attack={"quarterback": [qb]}, defense={"triples": ["C2"]})
    if state is None:
        return None
    try:
        state.apply("red", "end")
        state.validate("blue", "move T1 C2-C0")
    except GameError as exc:
        return exc.message if exc.rule == "QB-OFFSIDE-TRIPLE" else None
    return None


def worked_example(r: QuarterbackRules) -> dict[str, Any] | None:
    """The first turn of a game on the default set-up, played by the engine: a Double runs over
    the line (releasing the defense), the Quarterback passes forward to it, and a defending
    Triple tackles it.  ``None`` if the ruleset's set-up or numbers do not allow these moves."""
    state = _red_first(r)
    if state is None:
        return None
    moves = [("red", "move D2 G0-H0-H1"), ("red", "pass to H1"), ("blue", "move T2 H4-H1")]
    steps = []
    try:
        board_before = state.game.render(state, None)
        for seat, text in moves:
            events = state.apply(seat, text)
            steps.append({"seat": seat, "text": text, "events": [e.text for e in events]})
    except GameError:
        return None
    if not state.results or state.results[0]["how"] != "tackle":
        return None
    return {"board_before": board_before, "steps": steps, "result": state.results[0]}
