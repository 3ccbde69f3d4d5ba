"""Export context of brawl: derived tables and a worked example computed by the engine.

The templates in ``templates/`` (next to this module) never type a game number by hand: they read
the ruleset, and the example here comes from actually playing a series on a
:class:`BrawlState` built from that ruleset (the default bot chooses both sides' cards).
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Any

from gm.core.chance import MT19937
from gm.core.errors import GameError
from gm.games.brawl.actions import FORMS, Placement
from gm.games.brawl.engine import BrawlState
from gm.games.brawl.rules import ADJACENT, COLUMN_NAMES, COLUMNS, REGION_NAMES, REGIONS, X_ZONE, BrawlRules

#: the worked example's seed and chance generator (together they name one game): the default game's
#: first series has a completion and a zone cut off
EXAMPLE_SEED = 76
EXAMPLE_CHANCE = MT19937


def export_context(rules: BrawlRules) -> dict[str, Any]:
    """Template context for the brawl documents."""
    r = rules
    offense = [(p, s) for p, s in r.positions.items() if s.side == "offense"]
    defense = [(p, s) for p, s in r.positions.items() if s.side == "defense"]
    odds = sorted(r.field_goal_odds.items())
    longest = odds[-1][0]
    return {
        "regions": [
            {"code": g, "name": REGION_NAMES[g], "mult": r.multipliers[g], "zones": [g + c if g + c != X_ZONE else "X" for c in COLUMNS]}
            for g in REGIONS
        ],
        "columns": [COLUMN_NAMES[c] for c in COLUMNS],
        "x_neighbours": [f"`{z}`" for z in sorted(ADJACENT[X_ZONE])],
        "position_pairs": [
            (_position(o, r), _position(d, r)) for o, d in zip_longest(offense, defense, fillvalue=None)
        ],
        "decks": [{"position": p, "deck": " ".join(s.deck), "side": s.side} for p, s in r.positions.items()],
        "deck_sizes": sorted({len(s.deck) for s in r.positions.values()}),
        "roster": {unit: _roster(r, unit) for unit in ("offense", "defense")},
        "players": {unit: len(r.roster(unit)) for unit in ("offense", "defense")},
        "odds": [{"up_to": d, "chance": c} for d, c in odds],
        "longest_kick": longest,
        "kick_range": max(0, longest - r.field_goal_extra),
        "kick_example": _kick_example(r),
        "plays": r.series_cards,
        "plays_going": r.series_cards + r.go_cards,
        "forms": FORMS,
        "example_seed": EXAMPLE_SEED,
        "example": worked_example(r),
    }


def _position(item: tuple[str, Any] | None, r: BrawlRules) -> dict[str, Any] | None:
    if item is None:
        return None
    name, spec = item
    label = f"{name} (safety)" if name == "S" else name
    return {"name": label, "effects": [spec.effects[g] for g in ("B", "S", "M", "D")]}


def _roster(r: BrawlRules, unit: str) -> list[str]:
    """``QB``, ``WR1``, ... in roster order: each player's name, with its position where the two differ."""
    return [name if name == pos else f"{name} ({pos})" for name, pos in r.roster(unit).items()]


def _kick_example(r: BrawlRules) -> dict[str, Any] | None:
    """A kick from the opponent's 30 (or from the longest kick's reach on a short field)."""
    to_goal = min(30, r.field_length - 1)
    dist = to_goal + r.field_goal_extra
    chance = r.field_goal_chance(dist)
    return {"to_goal": to_goal, "distance": dist, "chance": chance}


def worked_example(r: BrawlRules) -> dict[str, Any] | None:
    """The first series of a game with this ruleset, the default bot choosing both sides' cards:
    each play's placements and reveal, the Agility rolls, the scoring, and the boards; plus a
    rejection (a placement with two cards in one zone).  ``None`` if the ruleset cannot play one."""
    try:
        state = BrawlState(r, EXAMPLE_SEED, EXAMPLE_CHANCE)
        bots = {seat: state.game.make_bot("default", seed=i) for i, seat in enumerate(state.seats)}
        offense, defense = state.offense, state.defense
        plays: list[dict[str, Any]] = []
        board_first = ""
        rejection = None
        scoring: list[str] = []
        while state.round == 1 and state.phase == "play":
            picks = {seat: bots[seat].choose(state, seat) for seat in (offense, defense)}
            if rejection is None:
                rejection = _rejection(state, offense, picks[offense])
            state.apply(offense, picks[offense])
            events = state.apply(defense, picks[defense])
            plays.append({"offense": str(picks[offense]), "defense": str(picks[defense]),
                          "reveal": next(e.text for e in events if e.kind == "reveal")})
            if not board_first:
                board_first = state.game.render(state, None, full=True)
            if state.round == 1 and state.phase == "play":
                continue
            scoring = [e.text for e in events if e.kind not in ("reveal", "series", "reshuffle", "decks")]
            break
        last = state.history[-1] if state.history else None
        return {
            "offense": offense,
            "defense": defense,
            "plays": plays,
            "first": plays[0]["offense"] if plays else "",
            "board_first": board_first,
            "scoring": scoring,
            "result": last["result"] if last else state.phase,
            "rejection": rejection,
        }
    except GameError:  # a custom ruleset the example does not fit
        return None


def _rejection(state: BrawlState, seat: str, pick: Any) -> dict[str, str] | None:
    """The message for ``pick`` with its first two players' cards put into one zone."""
    if not isinstance(pick, Placement) or len(pick.placements) < 2:
        return None
    a, b = pick.placements[0], pick.placements[1]
    bad = Placement((a, type(b)(b.player, b.card, a.zone), *pick.placements[2:]))
    try:
        state.validate(seat, bad)
    except GameError as exc:
        return {"rule": exc.rule, "reason": exc.reason, "input": str(bad), "message": exc.message,
                "player": b.player, "zone": a.zone}
    return None
