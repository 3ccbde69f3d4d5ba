"""Carrying checked actions out on the field: moves, abilities, tackles, wraps, collisions, play
action, plan rows and the whistle.  The one statement of what an action does.

:func:`apply` takes an action with the :class:`~.checks.RowPlan` its check returned and
writes what happened to ``field.events``; a simulation field (plan checks, bots thinking
ahead) moves pieces without tackles, collisions or dice.
"""

from __future__ import annotations

from gm.core.chance import Die
from gm.core.errors import IllegalActionError
from gm.games.chess_football.actions import ABILITY_WORDS, Ability, BallChoice, Move, Pass, PieceAction, PlayAction
from gm.games.chess_football.checks import RowPlan, check
from gm.games.chess_football.field import DownEnd, DownResult, Field, Piece, ev
from gm.games.chess_football.geometry import Square, cheb, parse_square, sq
from gm.games.chess_football.paths import INF
from gm.games.chess_football.paths import reach as _reach

#: the rule id of each ability's event
ABILITY_RULES = {
    "push": "CF-PUSH", "chop_block": "CF-CHOP", "chip_block": "CF-CHIP", "retreat": "CF-RETREAT", "engage": "CF-ENGAGE",
    "react": "CF-REACT", "juke": "CF-JUKE", "jam": "CF-JAM", "seal": "CF-SEAL", "impact": "CF-IMPACT", "anchor": "CF-ANCHOR",
}  # fmt: skip


def apply(f: Field, team: str, a: object, plan: RowPlan | None) -> None:
    """Carry out action ``a`` of ``team`` with the plan :func:`.checks.check` returned for it."""
    if isinstance(a, Move):
        assert plan is not None
        _move(f, a, plan)
    elif isinstance(a, Ability):
        assert plan is not None
        _ability(f, team, a, plan)
    elif isinstance(a, Pass):
        p = f.pieces[a.passer or f.carrier]
        f.note_rank(p)
        f.finished.add(p.id)
        if f.hidden:
            reveal(f, "the pass")
        f.pass_decl = (p.id, a.receiver)
        also = ["CF-PASS"] + (["CF-SCRAMBLE"] if p.id in f.moved else [])
        f.events.append(ev("pass_declared", "CF-R-PASS-TIMING", "{passer} will pass to {receiver} when the ball moves",
                           passer=p.id, receiver=a.receiver, also=also))
    elif isinstance(a, PlayAction):
        p = f.pieces[f.carrier]
        f.note_rank(p)
        f.pa_used = True
        f.hidden = True
        f.pair = (p.id, a.partner)
        f.carrier = a.holder or p.id
        f.events.append(ev("play_action", "CF-PLAY-ACTION",
                           "play action: {qb} fakes with {partner} - the ball is hidden ({qb} or {partner})",
                           qb=p.id, partner=a.partner, also=["CF-R-PA"]))
    elif isinstance(a, BallChoice):
        f.ball_choice_used = True
        f.carrier = a.holder
        f.events.append(ev("ball_choice", "CF-PA-RETURN", "{team} decides who holds the hidden ball", team=team, also=["CF-R-PA"]))
        return
    else:  # done
        return
    after_change(f)


def _move(f: Field, a: Move, plan: RowPlan) -> None:
    p = f.pieces[a.piece]
    if a.rush:
        f.use(p, "speed_rush")
    if a.route:
        f.use(p, "route_running")
    mp = f.mp.get(p.id, 0) - plan.cost
    assert plan.to is not None
    target, cost = plan.to, plan.steps
    also = move_notes(f, p, a, mp, target, cost)
    f.mp[p.id] = mp - cost
    f.moved.add(p.id)
    f.note_rank(p)
    how = " (speed rush)" if a.rush else " (route running)" if a.route else ""
    move_to(f, p, target, a.position, f"{{piece}} moves {{frm}} -> {{to}} {{pos}}{how}", cost, also=also + burst_note(f, p))


def _ability(f: Field, team: str, a: Ability, plan: RowPlan) -> None:
    p = f.pieces[a.piece]
    name = a.ability
    cost = plan.cost
    f.mp[p.id] = f.mp.get(p.id, 0) - cost
    f.use(p, name)
    f.note_rank(p)
    r = f.rules
    word = ABILITY_WORDS[name]
    rule = ABILITY_RULES[name]
    # the rules besides the ability's own that decided this use (the event's ``also``)
    also = inherited(f, p, name) + (burst_note(f, p) if cost > 0 else [])
    if name in r.limited_abilities:
        also += ["CF-ONCE-4", "CF-R-ONCE-4"]
    t = f.pieces[a.target] if a.target else None
    if t is not None and t.sq == p.sq:
        also.append("CF-R-ADJACENT")  # the same square counts as adjacent
    if name in ("push", "impact"):
        assert t is not None
        if name == "impact":
            f.give_mp(t, -r.engage_drain)
        back = plan.back
        if back is None:  # Swim: the Rusher swaps places with the Heavy pushing it
            p_spot, t_spot = p.spot, t.spot
            f.put(p, *t_spot)
            f.put(t, *p_spot)
            f.give_mp(t, -r.swim_cost)
            also += [rule, "CF-R-SWIM", "CF-R-EFFECT-TIMING"] + (["CF-R-HEAVY"] if p.role else [])
            f.events.append(ev("swim", "CF-SWIM", "{piece} {word} {target} - {target} swims: they swap places "
                               "({target} now on {at})", piece=p.id, word="pushes" if name == "push" else "hits",
                               target=t.id, at=sq(t.sq), also=also))
        else:
            old = t.spot
            free = f.free_positions(back, besides=t.id)
            f.put(t, back, t.pos if t.pos in free else free[0])
            if name == "push":
                f.put(p, *old)
                f.events.append(ev("push", rule, "{piece} pushes {target} back to {at} and takes {frm}",
                                   piece=p.id, target=t.id, at=sq(back), frm=f"{sq(old[0])} {old[1]}", also=[*also, "CF-R-PUSH"]))
            else:
                f.events.append(ev("impact", rule, "{piece} hits {target}: -{n} movement and pushed back to {at}",
                                   piece=p.id, target=t.id, n=r.engage_drain, at=sq(back),
                                   also=[*also, "CF-R-IMPACT", "CF-R-PUSH", "CF-R-EFFECT-TIMING"]))
    elif name == "engage":
        assert t is not None
        f.give_mp(t, -r.engage_drain)
        f.events.append(ev("engage", rule, "{piece} engages {target}: -{n} movement", piece=p.id, target=t.id,
                           n=r.engage_drain, also=[*also, "CF-R-EFFECT-TIMING"]))
    elif name == "chop_block":
        assert t is not None
        f.mp[p.id] = 0
        f.finished.add(p.id)
        f.freeze(t)
        f.events.append(ev("chop_block", rule, "{piece} chop-blocks {target}: both lose all movement", piece=p.id,
                           target=t.id, also=[*also, "CF-R-CHOP", "CF-R-EFFECT-TIMING"]))
    elif name in ("chip_block", "anchor"):
        assert t is not None
        n = r.move_bonus.get(name, 1)
        f.give_mp(t, n)
        also += ["CF-R-EFFECT-TIMING"] + (["CF-R-HEAVY"] if t.role else [])
        if name == "anchor":
            f.immovable_until[p.id] = f.phase_idx + 1
            f.events.append(ev("anchor", rule, "{piece} anchors: {target} +{n} movement, {piece} is immovable",
                               piece=p.id, target=t.id, n=n, also=[*also, "CF-R-ANCHOR"]))
        else:
            f.events.append(ev("chip_block", rule, "{piece} chip-blocks for {target}: +{n} movement",
                               piece=p.id, target=t.id, n=n, also=also))
    elif name == "retreat":
        assert a.position and plan.to is not None
        f.moved.add(p.id)
        also += ["CF-R-RETREAT"] + (["CF-R-HEAVY"] if p.role else [])
        move_to(f, p, plan.to, a.position, "{piece} retreats {frm} -> {to} {pos}", cost, kind="retreat", rule=rule, also=also)
    elif name in ("react", "juke"):
        n = r.move_bonus.get(name, 1)
        f.mp[p.id] = f.mp.get(p.id, 0) + n
        if name == "react":
            also.append("CF-R-REACT")
        f.events.append(ev(name, rule, "{piece} uses {word}: +{n} movement", piece=p.id, word=word, n=n, also=also))
    elif name == "jam":
        hit = [q.id for q in f.adjacent(p, enemy=True)]
        for qid in hit:
            f.jam_until[qid] = f.phase_idx + 1
        f.events.append(ev("jam", rule, "{piece} jams {targets}: no abilities next turn", piece=p.id,
                           targets=", ".join(hit), also=[*also, "CF-R-JAM", "CF-R-EFFECT-TIMING"]))
    elif name == "seal":
        f.seal_until[p.id] = f.phase_idx + 1
        f.touch()  # the sealed squares changed
        f.events.append(ev("seal", rule, "{piece} seals: squares next to it cost +{n} movement", piece=p.id,
                           n=r.seal_cost, also=[*also, "CF-R-SEAL", "CF-R-EFFECT-TIMING"]))


# ---------------------------------------------------------------- citations
def inherited(f: Field, p: Piece, name: str) -> list[str]:
    """``CF-CAPTAIN-INHERIT`` when a captain uses an ability of its base piece."""
    if p.role and name not in f.rules.captains[p.role].abilities:
        return ["CF-CAPTAIN-INHERIT"]
    return []


def burst_note(f: Field, p: Piece) -> list[str]:
    """``CF-SNAP-BURST`` when ``p`` has just spent movement only the snap burst gave it (its movement
    left is below the burst); the Lineman's burst is also ruling CF-R-BLOCKING-CAPTAINS."""
    r = f.rules
    if f.turn != 1 or r.snap_burst <= 0 or not f.in_list(p, r.snap_burst_pieces):
        return []
    if f.mp.get(p.id, 0) >= r.snap_burst:
        return []
    return ["CF-SNAP-BURST", *(["CF-R-BLOCKING-CAPTAINS"] if p.role else [])]


def move_notes(f: Field, p: Piece, a: Move, mp: int, target: Square, cost: int) -> list[str]:
    """The rules besides ``CF-MOVEMENT`` that decided a move (its event's ``also``)."""
    restricted = p.spec[1]
    out = ["CF-R-STEP"]
    if not restricted:
        out.append("CF-MOVE-UNRESTRICTED")
    elif not a.route:
        out.append("CF-MOVE-RESTRICTED")
    if target == p.sq or a.position != "C":
        out.append("CF-R-POSITION")  # the position in the square is chosen for free
    if a.rush:
        out += ["CF-SPEED-RUSH", "CF-R-SPEED-RUSH", *inherited(f, p, "speed_rush")]
    if a.route:
        out.append("CF-ROUTE")
    if a.rush or a.route:
        out += ["CF-ONCE-4", "CF-R-ONCE-4"]
    if f.sealed(p.team):
        r = f.rules
        plain = _reach(f.grid, p.sq, mp, restricted and not a.route, f.blockers(p.team, a.rush), frozenset(),
                       r.direction_change_cost, r.seal_cost)
        if plain.get(target, INF) < cost:
            out += ["CF-SEAL", "CF-R-SEAL"]
    return out


# ---------------------------------------------------------------- moving pieces
def move_to(f: Field, p: Piece, target: Square, pos: str, template: str, cost: int, *, kind: str = "move",
            rule: str = "CF-MOVEMENT", also: list[str] | None = None) -> None:
    """Put ``p`` on ``target``/``pos``: a tackle, a wrap, a collision or a plain move."""
    frm = p.sq
    other = f.holder_at(target, pos, besides=p.id)
    f.events.append(ev(kind, rule, template, piece=p.id, frm=sq(frm), to=sq(target), pos=pos, cost=cost, also=also or []))
    if other is None or other.team == p.team or f.sim:
        f.put(p, target, pos)  # (a plan simulation assumes the move succeeds)
        return
    defender = p.team == f.defense
    if defender and not f.hidden and other.id == f.carrier:
        f.put(p, target, pos)
        tackle(f, p, other)
        return
    if defender and f.hidden and f.pair and other.id in f.pair:
        wrap(f, p, other, target)
        return
    collide(f, p, other, target, pos)


def place_free(f: Field, p: Piece, square: Square, prefer: str) -> bool:
    free = f.free_positions(square, besides=p.id)
    if not free:
        return False
    f.put(p, square, prefer if prefer in free else free[0])
    return True


def send_back(f: Field, p: Piece) -> None:
    """Send a collision loser back to where it started the phase (CF-R-COLLISION-RETURN)."""
    square, pos = f.phase_start.get(p.id, p.spot)
    if place_free(f, p, square, pos):
        return
    d = f.dir_of(p.team)
    for dist in range(1, 6):
        ring = sorted(f.grid.ring(square, dist), key=lambda s: (-(s[1] - square[1]) * d, abs(s[0] - square[0]), s[0]))
        for s in ring:
            if place_free(f, p, s, "C"):
                return


def collide(f: Field, mover: Piece, occ: Piece, target: Square, pos: str) -> None:
    """Two pieces on one position: each rolls a die, the loser goes back (CF-COLLISION)."""
    r = f.rules
    if f.immovable(occ):
        send_back(f, mover)
        f.events.append(ev("collision", "CF-R-ANCHOR", "{mover} runs into the anchored {occ} and goes back to {at}",
                           mover=mover.id, occ=occ.id, at=sq(mover.sq), also=["CF-ANCHOR", "CF-POSITIONS", "CF-R-COLLISION-RETURN"]))
        return
    assert f.draw is not None
    a = f.draw(Die("collision roll", 1, r.collision_die, about=mover.id))
    b = f.draw(Die("collision roll", 1, r.collision_die, about=occ.id))
    if a > b:
        f.put(mover, target, pos)
        send_back(f, occ)
        result = f"{mover.id} wins; {occ.id} goes back to {sq(occ.sq)} {occ.pos}"
    elif b > a:
        send_back(f, mover)
        result = f"{occ.id} wins; {mover.id} goes back to {sq(mover.sq)} {mover.pos}"
    else:
        send_back(f, mover)
        occ_start = f.phase_start.get(occ.id, occ.spot)
        if occ.spot != occ_start:
            send_back(f, occ)
        result = f"tie: both go back ({mover.id} {sq(mover.sq)}, {occ.id} {sq(occ.sq)})"
    also = ["CF-POSITIONS", "CF-R-COLLISION-RETURN"]
    if mover.id == f.carrier and not f.hidden:
        also.append("CF-R-COLLISION-TACKLE")  # the carrier onto a defender's position collides
    f.events.append(ev("collision", "CF-COLLISION", "collision on {at} {pos}: {mover} rolls {a}, {occ} rolls {b} - {result}",
                       at=sq(target), pos=pos, mover=mover.id, occ=occ.id, a=a, b=b, result=result, also=also))


def tackle(f: Field, defender: Piece, carrier: Piece) -> None:
    """The ball carrier is down: a tackle, a sack behind the line, or a safety in its own end zone."""
    spot = carrier.sq
    own_ez = f.in_end_zone_of(f.offense, spot[1])
    sack = f.beyond_los(spot[1]) < 0
    how = ["CF-POSITIONS", "CF-R-COLLISION-TACKLE"] if defender.id != carrier.id else []
    if own_ez:
        f.events.append(ev("tackle", "CF-TACKLE", "{defender} tackles {carrier} on {at} {pos}",
                           defender=defender.id, carrier=carrier.id, at=sq(spot), pos=carrier.pos, also=how))
        f.events.append(ev("safety", "CF-SAFETY", "tackled in the own end zone: SAFETY, {points} points to {team}",
                           points=f.rules.safety_points, team=f.defense, also=["CF-END-ZONES"]))
        f.result = DownResult(DownEnd.SAFETY, spot, defender.id)
        return
    kind = "sack" if sack else "tackle"
    f.events.append(ev(kind, "CF-SACK" if sack else "CF-TACKLE",
                       "{defender} {what} {carrier} on {at} {pos}" + (" - a sack, behind the line" if sack else ""),
                       defender=defender.id, what="sacks" if sack else "tackles", carrier=carrier.id,
                       at=sq(spot), pos=carrier.pos, also=(["CF-TACKLE", *how] if sack else how)))
    f.result = DownResult(DownEnd.TACKLE, spot, defender.id, sack)


def wrap(f: Field, defender: Piece, member: Piece, target: Square) -> None:
    """Hidden ball: a defender ending on the QB's or the fake's position wraps it up (CF-R-PA-TACKLE)."""
    f.wrapped.add(member.id)
    if not place_free(f, defender, target, "C"):
        send_back(f, defender)
    f.events.append(ev("wrap", "CF-R-PA-TACKLE", "{defender} wraps up {member} - the ball stays hidden",
                       defender=defender.id, member=member.id, also=["CF-POSITIONS"]))
    assert f.pair
    if all(m in f.wrapped for m in f.pair):
        qb = f.pieces[f.pair[0]]
        f.hidden = False
        f.pair = None
        f.carrier = qb.id
        f.events.append(ev("reveal", "CF-PA-COUNTER", "QB and fake both tackled: the ball defaults to {qb}", qb=qb.id,
                           also=["CF-R-PA-TACKLE"]))
        tackle(f, defender, qb)


def after_change(f: Field) -> None:
    """Touchdown and play-action checks after anything moved."""
    if f.result is not None or f.sim:
        return
    if f.hidden and f.pair:
        a, b = (f.pieces[i] for i in f.pair)
        if cheb(a.sq, b.sq) > 1:
            reveal(f, "they are no longer adjacent")
            if f.result is not None:
                return
    c = f.pieces.get(f.carrier)
    if c is None:
        return
    if f.in_end_zone_of(f.defense, c.sq[1]):
        if f.hidden:
            reveal(f, "it crosses the goal line")
            if f.result is not None:
                return
        f.events.append(ev("touchdown", "CF-TOUCHDOWN", "TOUCHDOWN {team}! {piece} carries the ball into the end zone at {at}",
                           team=f.offense, piece=c.id, at=sq(c.sq), also=["CF-END-ZONES", "CF-R-TD"]))
        f.result = DownResult(DownEnd.TOUCHDOWN, c.sq, c.id)


def reveal(f: Field, why: str) -> None:
    """The hidden ball marker returns to the board on its holder (CF-PA-RETURN)."""
    if not f.hidden:
        return
    f.hidden = False
    f.pair = None
    c = f.pieces[f.carrier]
    f.events.append(ev("reveal", "CF-PA-RETURN", "the ball is revealed ({why}): {piece} has it on {at} {pos}",
                       why=why, piece=c.id, at=sq(c.sq), pos=c.pos, also=["CF-R-PA"]))
    if c.id in f.wrapped:
        f.events.append(ev("reveal_tackle", "CF-R-PA-TACKLE", "{piece} was wrapped up with the ball", piece=c.id))
        tackler = next((q for q in f.pieces.values() if q.team == f.defense and q.sq == c.sq), None)
        tackle(f, tackler or c, c)


def whistle(f: Field) -> None:
    """The down's last turn is over (CF-R-DOWN-LIMIT): the ball carrier is down where it stands."""
    if f.result is not None:
        return
    reveal(f, "the whistle")
    if f.result is not None:
        return
    c = f.pieces[f.carrier]
    if f.in_end_zone_of(f.offense, c.sq[1]):
        f.events.append(ev("whistle", "CF-R-DOWN-LIMIT", "whistle: {piece} is down in its own end zone", piece=c.id))
        f.events.append(ev("safety", "CF-SAFETY", "SAFETY, {points} points to {team}",
                           points=f.rules.safety_points, team=f.defense, also=["CF-END-ZONES"]))
        f.result = DownResult(DownEnd.SAFETY, c.sq)
        return
    f.events.append(ev("whistle", "CF-R-DOWN-LIMIT", "whistle after {n} turns: {piece} is down on {at}",
                       n=f.turn, piece=c.id, at=sq(c.sq)))
    f.result = DownResult(DownEnd.WHISTLE, c.sq)


# ---------------------------------------------------------------- plan rows
def exec_row(f: Field, team: str, row: PieceAction, n: int) -> None:
    """Execute one revealed plan row: as planned if still legal, else cut short or skipped (CF-R-PLAN-CHECK)."""
    try:
        plan = check(f, team, row)
    except IllegalActionError as exc:
        if isinstance(row, Move) and _cut_short(f, team, row, exc):
            return
        f.events.append(ev("row_skipped", "CF-R-PLAN-CHECK", "{team} row {n} ({row}) cannot be carried out: {why}",
                           team=team, n=n, row=row.public_text(), why=exc.reason, also=[exc.rule]))
        return
    apply(f, team, row, plan)


def _cut_short(f: Field, team: str, a: Move, exc: IllegalActionError) -> bool:
    """A planned move that no longer fits goes as near as it can (or the piece holds); ``False``: skip the row."""
    p = f.pieces.get(a.piece)
    if p is None or p.team != team or p.id in f.moved or p.id in f.wrapped or p.id in f.finished or p.rank < f.floor:
        return False
    abil = p.spec[2]
    rush = a.rush and "speed_rush" in abil and f.limit_ok(p, "speed_rush") and not f.jammed(p)
    route = a.route and "route_running" in abil and f.limit_ok(p, "route_running") and not f.jammed(p)
    mp = f.mp.get(p.id, 0) - (abil.get("speed_rush", 0) if rush else 0)
    if mp < 0:
        rush, mp = False, f.mp.get(p.id, 0)
    mods = (abil["speed_rush"] if rush else 0) + (abil["route_running"] if route else 0)  # what the move will cost
    target = parse_square(a.to)
    best: tuple[int, int, int, int] | None = None
    spot: tuple[Square, str] | None = None
    for s, cost in f.reach(p, mp, rush=rush, route=route).items():
        free = f.free_positions(s, besides=p.id)
        if not free:
            continue
        if f.beyond_los(s[1]) > f.rules.ineligible_downfield and f.limited_row(p):
            continue
        key = (cheb(s, target), cost, s[1], s[0])
        if best is None or key < best:
            best, spot = key, (s, a.position if a.position in free else free[0])
    if spot is None or spot[0] == p.sq:
        f.events.append(ev("row_cut", "CF-R-PLAN-CHECK", "{piece} cannot reach {to} ({why}) and holds",
                           piece=p.id, to=a.to, why=exc.reason, also=[exc.rule]))
        f.moved.add(p.id)
        f.note_rank(p)
        return True
    f.events.append(ev("row_cut", "CF-R-PLAN-CHECK", "{piece} cannot reach {to} {pos} ({why}): it goes as near as it can",
                       piece=p.id, to=a.to, pos=a.position, why=exc.reason, also=[exc.rule]))
    assert best is not None
    apply(f, team, Move.trusted(p.id, sq(spot[0]), spot[1], rush, route), RowPlan(p.id, mods, spot[0], best[1]))
    return True


__all__ = ["apply", "exec_row", "move_to", "reveal", "tackle", "whistle"]
