"""Export context of GridMaster4: derived numbers and worked examples computed by the engine.

The templates in ``templates/`` (next to this module) never type a game number by hand:
they read the ruleset, and the examples here come from actually playing the moves on a
:class:`GridMaster4State` built from that ruleset.
"""

from __future__ import annotations

from typing import Any

from gm.core.errors import GameError
from gm.games.gridmaster4.actions import FORMS
from gm.games.gridmaster4.engine import GridMaster4State
from gm.games.gridmaster4.grid import cell_name
from gm.games.gridmaster4.rules import COLOURS, LETTERS, GridMaster4Rules


def export_context(rules: GridMaster4Rules) -> dict[str, Any]:
    """Template context for the GridMaster4 documents."""
    r = rules
    return {
        "first_col": "A",
        "last_col": chr(ord("A") + r.columns - 1),
        "last_cell": cell_name(r.columns - 1, r.rows - 1),
        "players_table": [{"seat": s, "colour": COLOURS[s], "letter": LETTERS[s], "order": i + 1} for i, s in enumerate(r.seats)],
        "max_active": r.players,  # the first tile plus one free tile after each other player's block
        "max_options": 8 * r.players,
        # before anyone's winning tile at most players * (winning_tile - 1) tiles are down
        "never_full": r.cells > r.players * (r.winning_tile - 1),
        "forms": FORMS,
        "example": worked_example(r),
    }


def worked_example(r: GridMaster4Rules) -> dict[str, Any] | None:
    """A first move played on the ruleset's board: the moves from a centre tile, and a move that
    makes the built-on tile and an opponent's tile inactive.  ``None`` if the board is too small."""
    o = r.orthogonal
    col, row = (r.columns - 1) // 2, (r.rows - 1) // 2 - o // 2
    if r.players < 2 or not (0 <= row and row + o < r.rows and col + o < r.columns):
        return None
    state = GridMaster4State(r, 0)
    names = state.geo.names
    start, target, victim = cell_name(col, row), cell_name(col, row + o), cell_name(col + o, row + o)
    avoid = {start, target, victim, *(names[u] for u in state.geo.reach[state.geo.index[target]])}
    avoid |= {names[u] for u in state.geo.reach[state.geo.index[start]]}
    spare = [c for c in reversed(names) if c not in avoid]
    others = [victim, *spare[: r.players - 2]]
    if len(others) < r.players - 1:
        return None
    try:
        for seat, cell in zip(r.seats, [start, *others], strict=True):
            state.apply(seat, f"place 1 at {cell}")
        moves = [names[c] for c in state.move_cells(r.seats[0])]
        board_before = state.game.render(state, r.seats[0])
        rejected = _rejection(state, r.seats[0], start)
        events = state.apply(r.seats[0], f"place 2 at {target}")
    except GameError:  # a custom board where the example does not fit
        return None
    return {
        "start": start,
        "target": target,
        "victim": victim,
        "victim_seat": r.seats[1],
        "moves": moves,
        "board_before": board_before,
        "rejection": rejected,
        "events": [e.text for e in events],
        "board_after": state.game.render(state, None),
        "blocked_next": not state.move_cells(r.seats[1]),
    }


def _rejection(state: GridMaster4State, seat: str, start: str) -> str:
    """The message for a move one cell short of a legal move."""
    geo = state.geo
    i = geo.index[start]
    near = i + geo.columns * (state.rules.orthogonal - 1) if state.rules.orthogonal > 1 else i + 1
    text = f"place 2 at {geo.names[near]}" if 0 <= near < len(geo.names) else "place 9 at A1"
    try:
        state.validate(seat, text)
    except GameError as exc:
        return exc.message
    return ""
