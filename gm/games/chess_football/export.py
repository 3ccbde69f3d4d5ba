"""Export context of the Chess-Football Hybrid: derived numbers, tables and worked examples
computed by the engine.

The templates in ``templates/`` (next to this module) never type a game number by hand: they
read the ruleset and these tables, and the examples come from playing the moves on a
:class:`ChessFootballState` of that ruleset (home wins the toss, so the examples read the same
whatever the coin).  An example that does not fit a custom ruleset (its squares off the field,
its pieces missing) is ``None`` and left out.
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from gm.core.errors import GameError
from gm.core.wording import ordinal
from gm.games.chess_football.actions import FORMS, ROLE_CODES
from gm.games.chess_football.engine import ChessFootballState
from gm.games.chess_football.passing import pass_table, total_range
from gm.games.chess_football.rules import ChessFootballRules, PassRules

#: the document's chess names of the standard pieces
CHESS = {"heavy": "pawn", "strong": "rook", "fast": "knight", "qb": "bishop"}
BASE_NAMES = {"heavy": "Heavy", "strong": "Strong", "fast": "Fast", "qb": "QB"}
ABILITY_NAMES = {
    "push": "Push", "chop_block": "Chop Block", "chip_block": "Chip Block", "retreat": "Retreat", "engage": "Engage",
    "speed_rush": "Speed Rush", "pass": "Pass", "play_action": "Play Action", "react": "React", "jam": "Jam",
    "seal": "Seal", "juke": "Juke", "route_running": "Route Running", "impact": "Impact", "anchor": "Anchor",
}  # fmt: skip
PASSIVE_NAMES = {
    "intercept": "Intercept (pass modifier)", "pressure": "Pressure (pass modifier)", "scramble": "Scramble",
    "catching": "+1 Catching (pass modifier)", "escort": "Escort", "check_down": "Check Down (pass modifier)",
}  # fmt: skip
#: the example game: home's captains and away's, the snap plans (home has the ball)
EXAMPLE_CAPTAINS = ("captains deep_threat safety", "captains lead_blocker rusher")
EXAMPLE_PLANS = ("plan: DT to L15 C; HV1 push HV3; FA1 to E14 C; QB pass to DT", "plan: RU to I12 NE; FA3 to D15 C")


def export_context(rules: ChessFootballRules) -> dict[str, Any]:
    """Template context for the Chess-Football documents."""
    r = rules
    state = ChessFootballState(r, 0)
    once = f"once per {r.once_per_downs} downs"
    p = r.passing
    return {
        "last_col": chr(ord("A") + r.columns - 1),
        "end_low": f"1-{r.low_goal}",
        "end_high": f"{r.high_goal}-{r.rows}",
        "field_rows": f"{r.low_goal + 1}-{r.high_goal - 1}",
        "start_row": {team: state.square_row(team, r.drive_start_square) for team in ("home", "away")},
        "once": once,
        "kinds": _kinds(r, once),
        "captains": _captains(r, once),
        "lineup": _lineup(r),
        "composition": {side: _composition(lineup) for side, lineup in (("offense", r.offense_lineup), ("defense", r.defense_lineup))},
        "all_centre": all(s.position == "C" for s in (*r.offense_lineup, *r.defense_lineup, *r.captain_slots.values())),
        "burst_names": [_piece_name(r, k) for k in r.snap_burst_pieces],
        "ineligible_names": [_piece_name(r, k) for k in r.ineligible_pieces],
        "limited_names": [ABILITY_NAMES[a] for a in r.limited_abilities],
        "order": " -> ".join(o.capitalize() if o != "qb" else "QB" for o in r.movement_order),
        "punt_down": " or ".join(ordinal(d) for d in r.punt_downs),
        "reaction_turns": r.max_turns_per_down - 1,
        "pass_rows": pass_table(rules),
        "pass_range": total_range(rules),
        "pass_table": {
            "complete": f"{p.complete_min}-{p.die}" if p.complete_min < p.die else f"{p.die}",
            "incomplete": f"{p.incomplete_min}-{p.complete_min - 1}" if p.incomplete_min < p.complete_min - 1 else f"{p.incomplete_min}",
            "interception": f"{p.interception_max} or lower",
            "safety_interception": f"{p.safety_interception_max} or lower",
        },
        "passing_fields": [
            {"name": name, "value": getattr(p, name), "changed": getattr(p, name) != getattr(PassRules(), name),
             "description": info.description or ""}
            for name, info in PassRules.model_fields.items()
        ],
        "forms": FORMS,
        "role_codes": ROLE_CODES,
        "rejection": _rejection(r),
        "example": worked_example(r),
        "default": _default_context(),
    }


def _piece_name(r: ChessFootballRules, kind: str) -> str:
    if kind in r.kinds:
        return BASE_NAMES.get(kind, kind)
    return r.captains[kind].name if kind in r.captains else kind


def _ability(name: str, cost: int, r: ChessFootballRules, once: str) -> str:
    bonus = r.move_bonus.get(name)
    limited = name in r.limited_abilities
    if name in ("react", "juke") and bonus is not None:
        return f"{ABILITY_NAMES[name]} (+{bonus} movement{', ' + once if limited else ''})"
    if limited:
        return f"{ABILITY_NAMES[name]} ({cost}, {once})" if cost or name == "chop_block" else f"{ABILITY_NAMES[name]} ({once})"
    return f"{ABILITY_NAMES[name]} ({cost})" if cost else ABILITY_NAMES[name]


def _kinds(r: ChessFootballRules, once: str) -> list[dict[str, Any]]:
    out = []
    for base, k in r.kinds.items():
        off = [s.id for s in r.offense_lineup if s.kind == base]
        de = [s.id for s in r.defense_lineup if s.kind == base]
        ids = "; ".join(part for part in (f"{' '.join(off)} (offense)" if off else "", f"{' '.join(de)} (defense)" if de else "") if part)
        out.append({
            "base": base, "name": k.name, "chess": CHESS.get(base, ""), "code": k.code, "ids": ids or "-",
            "movement": f"{k.movement}, {'restricted' if k.restricted else 'unrestricted'}",
            "abilities": ", ".join(_ability(a, c, r, once) for a, c in k.abilities.items()),
        })  # fmt: skip
    return out


def _captains(r: ChessFootballRules, once: str) -> list[dict[str, Any]]:
    out = []
    for role, c in r.captains.items():
        own = [PASSIVE_NAMES.get(x, x) for x in c.passives] + [_ability(a, cost, r, once) for a, cost in c.abilities.items()]
        if "swim" in c.passives:
            own[c.passives.index("swim")] = f"Swim ({r.swim_cost})"
        out.append({
            "role": role, "name": c.name, "code": c.code, "side": c.side, "base": BASE_NAMES.get(c.base, c.base),
            "movement": f"{c.movement}{', restricted' if c.restricted else ''}", "own": ", ".join(own) or "-",
        })  # fmt: skip
    return out


def _composition(lineup: Any) -> str:
    """``QB, 2 Heavy, 1 Strong, 2 Fast``: the standard pieces of a line-up by kind."""
    out = []
    for base in ("qb", "heavy", "strong", "fast"):
        n = sum(1 for s in lineup if s.kind == base)
        if n:
            out.append("QB" if base == "qb" and n == 1 else f"{n} {BASE_NAMES[base]}")
    return ", ".join(out)


def _slot(column: str, depth: int, position: str) -> str:
    return f"{column.upper()}, depth {depth}" + (f" ({position})" if position != "C" else "")


def _lineup(r: ChessFootballRules) -> list[tuple[str, str, str, str]]:
    """Rows of the line-up table: (offense piece, its slot, defense piece, its slot)."""
    sides: dict[str, list[tuple[str, str]]] = {"offense": [], "defense": []}
    for side, lineup in (("offense", r.offense_lineup), ("defense", r.defense_lineup)):
        sides[side] = [(s.id, _slot(s.column, s.depth, s.position)) for s in lineup]
        for role, c in r.captains.items():
            if c.side == side:
                slot = r.captain_slots[role]
                sides[side].append((c.name, _slot(slot.column, slot.depth, slot.position)))
    return [(a[0], a[1], b[0], b[1]) for a, b in zip_longest(sides["offense"], sides["defense"], fillvalue=("", ""))]


def _default_context() -> dict[str, Any]:
    """The default ruleset's numbers, for the rulings' write-ups (which explain the defaults)."""
    d = ChessFootballRules()
    state = ChessFootballState(d, 0)
    return {
        "start_row": {team: state.square_row(team, d.drive_start_square) for team in ("home", "away")},
        "end_low": f"1-{d.low_goal}",
        "end_high": f"{d.high_goal}-{d.rows}",
        "square": d.drive_start_square,
        "max_turns": d.max_turns_per_down,
        "max_squares": d.max_turns_per_down * d.kinds["fast"].movement,
    }


def _home_ball(r: ChessFootballRules) -> ChessFootballState | None:
    """The example game at its first snap, home on offense (the toss called to suit)."""
    try:
        for call in ("heads", "tails"):
            state = ChessFootballState(r, 0)
            state.apply("home", EXAMPLE_CAPTAINS[0])
            state.apply("away", EXAMPLE_CAPTAINS[1])
            state.apply(r.toss_caller, call)
            if state.offense == "home" and state.phase == "snap":
                return state
    except GameError:
        return None
    return None


# alike on purpose: the rules documents of Chess-Football and Quarter Back each open with an example of a move
# the engine refuses; each plays its own game's moves and expects its own rule
def _rejection(r: ChessFootballRules) -> str | None:
    """The engine's answer to a Heavy that moves after a Fast (the rules' opening example)."""
    state = _home_ball(r)
    if state is None:
        return None
    try:
        state.apply("home", "plan: hold")
        state.apply("away", "plan: hold")
        state.apply("home", "FA1 to C13 C")
        state.validate("home", "HV1 to G13 C")
    except GameError as exc:
        return exc.message if exc.rule == "CF-MOVE-ORDER" else None
    return None


def worked_example(r: ChessFootballRules) -> dict[str, Any] | None:
    """The first snap of a game, played by the engine: both plans, what each row did, the pass,
    and the board before and after.  ``None`` if the ruleset's line-up does not allow the plans."""
    state = _home_ball(r)
    if state is None:
        return None
    try:
        board_before = state.game.render(state, None)
        locked = [e.text for e in state.apply("home", EXAMPLE_PLANS[0])]
        events = [e.text for e in state.apply("away", EXAMPLE_PLANS[1])]
    except GameError:
        return None
    return {
        "captains": EXAMPLE_CAPTAINS,
        "plans": EXAMPLE_PLANS,
        "locked": locked,
        "events": events,
        "board_before": board_before,
        "board_after": state.game.render(state, None),
        "status": state.game.status(state, None),
    }
