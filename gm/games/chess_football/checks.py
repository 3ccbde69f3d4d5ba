"""Is an action legal on the field now?  The one statement of every check.

:func:`check` is pure: it raises :class:`IllegalActionError` with the rule id and the reason,
or returns the :class:`RowPlan` that :func:`.resolution.apply` carries out (what the row
spends, where the piece goes, where a pushed piece lands), so applying never checks again.
The engine adds the legal alternatives to the error (computing them here would recurse).
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.core.errors import IllegalActionError
from gm.games.chess_football.actions import Ability, BallChoice, Done, Move, Pass, PlayAction
from gm.games.chess_football.field import Field, Piece
from gm.games.chess_football.geometry import Spot, Square, cheb, col_letter, parse_square, sq

#: abilities that modify a move or are actions of their own: never used as an ``Ability``
NOT_ON_THEIR_OWN = ("speed_rush", "route_running", "pass", "play_action")


@dataclass(frozen=True, slots=True)
class RowPlan:
    """What a checked piece action does: the acting piece, the movement it spends on the ability
    (``cost``; for a move the modifiers' cost), and for a move or retreat the destination and the
    steps' cost, for a push or impact where the target goes (``None``: a Swim swap)."""

    piece: str
    cost: int = 0
    to: Square | None = None
    steps: int = 0
    back: Square | None = None


def err(rule: str, reason: str, action: object) -> IllegalActionError:
    return IllegalActionError(reason, rule=rule, input=str(action))


def check(f: Field, team: str, a: object) -> RowPlan | None:
    """Raise :class:`IllegalActionError` unless ``a`` is legal for ``team`` now; else its plan
    (``None`` for ``done`` and a ball choice)."""
    if f.result is not None:
        raise IllegalActionError("the down is over", rule="CF-TACKLE", input=str(a))
    if isinstance(a, Move):
        return check_move(f, team, a)
    if isinstance(a, Ability):
        return check_ability(f, team, a)
    if isinstance(a, Done):
        return None
    if isinstance(a, Pass):
        return check_pass(f, team, a)
    if isinstance(a, PlayAction):
        return check_play_action(f, team, a)
    if isinstance(a, BallChoice):
        check_ball_choice(f, team, a)
        return None
    raise err("CF-REACTION", "not a move, ability, pass, play action, ball choice or 'done'", a)


def legal(f: Field, team: str, a: object) -> bool:
    """Does :func:`check` accept ``a``?"""
    try:
        if isinstance(a, Move) and f.result is None:
            return _check_move(f, team, a, True) is not None
        check(f, team, a)
    except IllegalActionError:
        return False
    return True


# ---------------------------------------------------------------- the pieces involved
def own_piece(f: Field, team: str, pid: str | None, action: object) -> Piece:
    """``team``'s piece ``pid``, if it may still act this part of the turn."""
    p = f.pieces.get(pid or "")
    if p is None or p.team != team:
        mine = ", ".join(sorted(q.id for q in f.team_pieces(team)))
        raise err("CF-TEAM", f"you have no piece {pid} on the field (yours: {mine})", action)
    if p.id in f.wrapped:
        raise err("CF-R-PA-TACKLE", f"{p.id} was wrapped up and is out of the down", action)
    if p.id in f.finished:
        raise err("CF-R-ONE-MOVE", f"{p.id} is done for this turn", action)
    if p.rank < f.floor:
        order = " -> ".join(f.rules.movement_order)
        # the QB's place (last) and a captain's (first, whatever its base) are a ruling
        ruled = f.floor == f._rank["qb"] or (p.role is not None and f._rank[p.base] >= f.floor)
        rule = "CF-R-QB-ORDER" if ruled else "CF-MOVE-ORDER"
        raise err(rule, f"movement order is {order}; {p.id} ({p.kind_name}) can no longer act this turn", action)
    return p


def enemy_piece(f: Field, me: Piece, pid: str | None, action: object) -> Piece:
    t = f.pieces.get(pid or "")
    if t is None or t.team == me.team:
        raise err("CF-TEAM", f"{pid} is not an opposing piece on the field", action)
    if cheb(me.sq, t.sq) > 1:
        raise err("CF-R-ADJACENT", f"{t.id} is not adjacent to {me.id}", action)
    return t


def ally_piece(f: Field, me: Piece, pid: str | None, action: object) -> Piece:
    t = f.pieces.get(pid or "")
    if t is None or t.team != me.team or t.id == me.id:
        raise err("CF-TEAM", f"{pid} is not another piece of your team", action)
    if cheb(me.sq, t.sq) > 1:
        raise err("CF-R-ADJACENT", f"{t.id} is not adjacent to {me.id}", action)
    return t


def ability_refusal(f: Field, p: Piece, name: str) -> tuple[str, str] | None:
    """Why ``p`` may not use ability ``name`` now, as (rule id, reason), or ``None``: it may (CF-ABILITIES,
    CF-JAM, CF-R-ONE-MOVE, CF-R-ONCE-4, CF-MOVEMENT).  Listing options asks this without raising."""
    abil = p.spec[2]
    if name not in abil:
        rule = "CF-CAPTAIN-INHERIT" if p.role else "CF-ABILITIES"
        have = ", ".join(sorted(abil)) or "none"
        return rule, f"{p.id} ({p.kind_name}) has no {name.replace('_', ' ')} (abilities: {have})"
    if f.jammed(p):
        return "CF-JAM", f"{p.id} is jammed: no abilities this turn"
    used = f.used.get(p.id)
    if used is not None and name in used:
        return "CF-R-ONE-MOVE", f"{p.id} already used {name.replace('_', ' ')} this turn"
    if not f.limit_ok(p, name):
        return "CF-R-ONCE-4", f"{p.id} used {name.replace('_', ' ')} within the last {f.rules.once_per_downs} downs"
    cost = abil[name]
    left = f.mp.get(p.id, 0)
    if cost > left:
        return "CF-MOVEMENT", f"{name.replace('_', ' ')} costs {cost}; {p.id} has {left} movement left"
    return None


def ability_cost(f: Field, p: Piece, name: str, action: object) -> int:
    """The movement ``p`` pays for ability ``name`` if it may use it now (see :func:`ability_refusal`)."""
    refusal = ability_refusal(f, p, name)
    if refusal is not None:
        raise err(*refusal, action)
    return p.spec[2][name]


def push_target(f: Field, pusher: Piece, t: Piece, action: object) -> Square | None:
    """Where a push or impact sends ``t`` (``None``: a Swim swap); raise if it cannot be pushed (CF-R-PUSH)."""
    if f.immovable(t):
        raise err("CF-R-ANCHOR", f"{t.id} is anchored and cannot be pushed", action)
    if pusher.heavy and f.has_passive(t, "swim"):
        return None
    back = (t.sq[0], t.sq[1] - f.dir_of(t.team))
    if not f.on_field(back):
        raise err("CF-R-PUSH", f"{t.id} cannot be pushed off the field", action)
    if not f.free_positions(back, besides=t.id):
        raise err("CF-R-PUSH", f"{sq(back)} is full: {t.id} cannot be pushed there", action)
    return back


def row_limit(f: Field, p: Piece) -> int | None:
    """The last row (counted past the line of scrimmage) ``p`` may end on: an ineligible receiver goes at
    most ``ineligible_downfield`` rows past the line before the pass (CF-INELIGIBLE); ``None``: no limit."""
    return f.rules.ineligible_downfield if f.limited_row(p) else None


def check_ineligible(f: Field, p: Piece, row: int, action: object) -> None:
    limit = row_limit(f, p)
    if limit is not None and f.beyond_los(row) > limit:
        rule = "CF-R-BLOCKING-CAPTAINS" if p.role else "CF-INELIGIBLE"
        raise err(rule, f"{p.id} is an ineligible receiver: before the pass it may go at most "
                  f"{f.rules.ineligible_downfield} row past the line of scrimmage", action)


def teammate_spots(f: Field, p: Piece) -> dict[Spot, Piece]:
    """The positions ``p``'s teammates hold: no piece ends on one (CF-R-TEAMMATE-POS).  On a plan's
    simulation board none counts: a planned row may end where a teammate stood at the snap, for the
    teammate may have moved on by then; at execution a row that still meets one is cut short
    (ruling CF-R-PLAN-CHECK)."""
    if f.sim:
        return {}
    spots = f.spots_of(p.team)
    if spots.get(p.spot) is p:
        spots = dict(spots)
        del spots[p.spot]
    return spots


def check_end_spot(f: Field, p: Piece, square: Square, pos: str, action: object) -> None:
    other = None if f.sim else f.spots_of(p.team).get((square, pos))  # (see teammate_spots: p itself does not count)
    if other is not None and other is not p:
        raise err("CF-R-TEAMMATE-POS", f"{other.id} already stands on {sq(square)} {pos}", action)


# ---------------------------------------------------------------- the actions
def check_ball_choice(f: Field, team: str, a: BallChoice) -> None:
    if team != f.offense or not f.hidden or not f.pair:
        raise err("CF-PA-RETURN", "the ball is not hidden: there is no holder to choose", a)
    if a.holder not in f.pair:
        raise err("CF-PA-RETURN", f"the ball can only be with {' or '.join(f.pair)}", a)
    if f.ball_choice_used:
        raise err("CF-R-PA", "the holder may be chosen once per turn", a)


def move_allowance(f: Field, p: Piece, rush: bool, route: bool, action: object) -> int:
    """The movement left for the steps of a move once its modifiers (Speed Rush, Route Running) are paid."""
    mp = f.mp.get(p.id, 0)
    if rush:
        mp -= ability_cost(f, p, "speed_rush", action)
    if route:
        mp -= ability_cost(f, p, "route_running", action)
    return mp


def move_allowance_or_none(f: Field, p: Piece, rush: bool, route: bool) -> int | None:
    """:func:`move_allowance`, or ``None`` where it would raise (for listing options without raising)."""
    if (rush and ability_refusal(f, p, "speed_rush") is not None) or (route and ability_refusal(f, p, "route_running") is not None):
        return None
    abil = p.spec[2]
    return f.mp.get(p.id, 0) - (abil["speed_rush"] if rush else 0) - (abil["route_running"] if route else 0)


def check_move(f: Field, team: str, a: Move) -> RowPlan:
    plan = _check_move(f, team, a, False)
    assert plan is not None
    return plan


def _check_move(f: Field, team: str, a: Move, quiet: bool) -> RowPlan | None:
    """:func:`check_move`; ``quiet``: a square out of reach gives ``None`` instead of the error (whose
    reason costs a second path search), for :func:`legal`."""
    p = own_piece(f, team, a.piece, a)
    if p.id in f.moved:
        raise err("CF-R-ONE-MOVE", f"{p.id} has already moved this turn", a)
    target = parse_square(a.to)
    if not f.on_field(target):
        raise err("CF-BOARD", f"{a.to} is off the field (columns A-{col_letter(f.rules.columns - 1)}, rows 1-{f.rules.rows})", a)
    if target == p.sq and a.position == p.pos:
        raise err("CF-R-POSITION", f"{p.id} already stands on {a.to} {a.position}", a)
    mp = move_allowance(f, p, a.rush, a.route, a)
    steps = f.reach(p, mp, rush=a.rush, route=a.route).get(target)
    if steps is None:
        if quiet:
            return None
        if target in f.reach(p, mp, rush=a.rush, route=a.route, ghost=True):
            if a.rush:
                raise err("CF-R-SPEED-RUSH", f"{p.id} cannot rush through to {a.to}: an opposing Heavy blocks the way", a)
            raise err("CF-R-PASS-THROUGH", f"{p.id} cannot get through to {a.to}: opposing pieces block the way", a)
        rule = "CF-MOVE-RESTRICTED" if p.spec[1] and not a.route else "CF-MOVEMENT"
        raise err(rule, f"{a.to} is out of reach for {p.id} ({mp} movement left)", a)
    check_end_spot(f, p, target, a.position, a)
    check_ineligible(f, p, target[1], a)
    return RowPlan(p.id, f.mp.get(p.id, 0) - mp, target, steps)


def check_ability(f: Field, team: str, a: Ability) -> RowPlan:
    p = own_piece(f, team, a.piece, a)
    cost = ability_cost(f, p, a.ability, a)
    return ability_target(f, team, p, a, cost)


def ability_target(f: Field, team: str, p: Piece, a: Ability, cost: int = 0) -> RowPlan:
    """The part of an ability's check that depends on its target (``p`` may use the ability now)."""
    name = a.ability
    if name in ("push", "impact"):
        t = enemy_piece(f, p, a.target, a)
        back = push_target(f, p, t, a)
        if name == "push":
            check_ineligible(f, p, t.sq[1], a)
        return RowPlan(p.id, cost, back=back)
    if name in ("engage", "chop_block"):
        enemy_piece(f, p, a.target, a)
    elif name in ("chip_block", "anchor"):
        t = ally_piece(f, p, a.target, a)
        if not t.heavy:
            raise err("CF-CHIP" if name == "chip_block" else "CF-ANCHOR", f"{t.id} is not a Heavy", a)
    elif name == "retreat":
        if f.qb(team) is None:
            raise err("CF-R-RETREAT", "retreat moves toward your own QB; your team has none on the field", a)
        if p.id in f.moved:
            raise err("CF-R-ONE-MOVE", f"{p.id} has already moved this turn", a)
        assert a.to and a.position
        target = parse_square(a.to)
        if target not in f.retreat_reach(p):
            raise err("CF-RETREAT", f"{a.to} is not up to {f.rules.retreat_squares} squares toward your QB", a)
        check_end_spot(f, p, target, a.position, a)
        return RowPlan(p.id, cost, target)
    elif name == "jam":
        if not f.adjacent(p, enemy=True):
            raise err("CF-JAM", f"no opposing piece is adjacent to {p.id}", a)
    elif name == "react" and team != f.defense:
        raise err("CF-R-REACT", "React works in the defense's part of the turn", a)
    elif name in NOT_ON_THEIR_OWN:
        raise err("CF-REACTION", f"{name.replace('_', ' ')} is not used on its own", a)
    return RowPlan(p.id, cost)


def check_pass(f: Field, team: str, a: Pass) -> RowPlan:
    pid = a.passer or f.carrier
    if team != f.offense:
        raise err("CF-PASS", "only the offense passes", a)
    p = own_piece(f, team, pid, a)
    passer_ready(f, team, p, a)
    receiver_ready(f, team, p, a.receiver, a)
    return RowPlan(p.id)


def passer_ready(f: Field, team: str, p: Piece, action: object) -> None:
    """May ``p`` (one of ``team``'s pieces that may act) pass now, to anybody?"""
    refusal = passer_refusal(f, p)
    if refusal is not None:
        raise err(*refusal, action)


def passer_refusal(f: Field, p: Piece) -> tuple[str, str] | None:
    """Why ``p`` may not pass now, as (rule id, reason), or ``None`` (see :func:`passer_ready`)."""
    if not f.can_pass(p):
        return "CF-PASS", f"only the QB or the Scrambler may pass; {p.id} is a {p.kind_name}"
    if f.pass_decl or f.pass_thrown:
        return "CF-R-PASS-TIMING", "one pass per down"
    if p.id != f.carrier:
        return "CF-PASS", f"{p.id} does not have the ball"
    if f.jammed(p):
        return "CF-JAM", f"{p.id} is jammed: no abilities this turn"
    if p.id in f.moved and not f.has_passive(p, "scramble"):
        return "CF-SCRAMBLE", f"{p.id} has moved this turn; only the Scrambler may pass after moving"
    return None


def receiver_ready(f: Field, team: str, p: Piece, receiver: str, action: object = None) -> None:
    """May ``receiver`` catch a pass from ``p``?"""
    refusal = receiver_refusal(f, team, p, receiver)
    if refusal is not None:
        raise err(*refusal, action if action is not None else receiver)


def receiver_refusal(f: Field, team: str, p: Piece, receiver: str) -> tuple[str, str] | None:
    """Why ``receiver`` may not catch a pass from ``p``, as (rule id, reason), or ``None``."""
    r = f.pieces.get(receiver)
    if r is None or r.team != team or r.id == p.id:
        return "CF-R-RECEIVER", f"{receiver} is not a teammate who can catch"
    if f.ineligible(r):
        rule = "CF-R-BLOCKING-CAPTAINS" if r.role else "CF-INELIGIBLE"
        return rule, f"{r.id} ({r.kind_name}) is an ineligible receiver"
    if r.id in f.wrapped:
        return "CF-R-PA-TACKLE", f"{r.id} was wrapped up"
    return None


def check_play_action(f: Field, team: str, a: PlayAction) -> RowPlan:
    refusal = play_action_refusal(f, team, a)
    if refusal is not None:
        raise err(*refusal, a)
    return RowPlan(f.carrier)


def play_action_refusal(f: Field, team: str, a: PlayAction) -> tuple[str, str] | None:
    """Why ``team`` may not run play action ``a`` now, as (rule id, reason), or ``None``: it may."""
    if team != f.offense:
        return "CF-PLAY-ACTION", "only the offense runs play action"
    if f.hidden or f.pa_used:
        return "CF-R-PA", "play action once per down"
    if f.pass_decl or f.pass_thrown:
        return "CF-R-PA", "play action comes before the pass"
    try:
        p = own_piece(f, team, f.carrier, a)
        if "play_action" not in p.spec[2]:
            return "CF-PLAY-ACTION", f"the ball carrier {p.id} is not a QB: no play action"
        if f.jammed(p):
            return "CF-JAM", f"{p.id} is jammed: no abilities this turn"
        t = ally_piece(f, p, a.partner, a)
    except IllegalActionError as exc:
        return exc.rule, exc.reason
    if t.heavy:
        rule = "CF-R-HEAVY" if t.role else "CF-PLAY-ACTION"  # a Heavy-based captain counts as a Heavy
        return rule, f"play action needs a non-Heavy ally; {t.id} is a Heavy"
    if t.id in f.wrapped:
        return "CF-R-PA-TACKLE", f"{t.id} was wrapped up"
    if a.holder is not None and a.holder not in (p.id, t.id):
        return "CF-PA-RETURN", f"the ball stays with {p.id} or goes to {t.id}"
    return None


def row_piece(f: Field, a: object) -> str | None:
    """The piece a plan row belongs to: the mover or user, the passer (the ball carrier when none is
    named), the ball carrier for play action."""
    if isinstance(a, Move | Ability):
        return a.piece
    if isinstance(a, Pass):
        return a.passer or f.carrier
    if isinstance(a, PlayAction):
        return f.carrier
    return None


__all__ = ["RowPlan", "check", "legal", "row_piece"]
