"""Passing: the modifiers in force and the throw when the ball moves (CF-PASS, CF-PASS-TABLE,
CF-PASS-MOD-*).  A pass is declared in the offense's part of a turn (:mod:`.checks`,
:mod:`.resolution`) and thrown here, at the end of the turn, after the defense has moved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.core.chance import Die
from gm.games.chess_football.field import DownEnd, DownResult, Field, Piece, ev
from gm.games.chess_football.geometry import cheb, sq
from gm.games.chess_football.resolution import after_change

if TYPE_CHECKING:
    from gm.games.chess_football.rules import ChessFootballRules, PassRules

#: the captains' abilities behind the pass modifier rows (ruling CF-R-PASS-MODS)
MOD_ALSO = {
    "CF-PASS-MOD-SAFETY": ("CF-INTERCEPT", "CF-R-PASS-MODS"),
    "CF-PASS-MOD-RUSHER": ("CF-PRESSURE", "CF-R-PASS-MODS"),
    "CF-PASS-MOD-DEEP": ("CF-CATCHING", "CF-R-PASS-MODS"),
    "CF-PASS-MOD-LEAD": ("CF-CHECK-DOWN", "CF-R-PASS-MODS"),
}


def pass_modifiers(f: Field, passer: Piece, receiver: Piece) -> list[tuple[str, int, str]]:
    """The pass modifiers in force: (what, value, rule id)."""
    pr = f.rules.passing
    out: list[tuple[str, int, str]] = []
    defenders = [q for q in f.pieces.values() if q.team == f.defense]
    near = [q for q in defenders if cheb(q.sq, receiver.sq) <= 1]
    for q in near:
        out.append((f"{q.id} next to the receiver", pr.adjacent_defender, "CF-PASS-MOD-DEFENDER"))
    if any(f.has_passive(q, "intercept") for q in near):
        out.append(("Safety next to the receiver", pr.safety_adjacent, "CF-PASS-MOD-SAFETY"))
    if any(f.has_passive(q, "pressure") and cheb(q.sq, passer.sq) <= 1 for q in defenders):
        out.append(("Rusher next to the passer", pr.rusher_adjacent_passer, "CF-PASS-MOD-RUSHER"))
    if f.has_passive(receiver, "catching"):
        out.append(("receiver is the Deep Threat", pr.deep_threat_receiver, "CF-PASS-MOD-DEEP"))
    if any(q.team == f.offense and f.has_passive(q, "check_down") and cheb(q.sq, passer.sq) <= pr.lead_blocker_range
           for q in f.pieces.values()):
        out.append(("Lead Blocker near the passer", pr.lead_blocker_near_passer, "CF-PASS-MOD-LEAD"))
    return out


def pass_outcome(pr: PassRules, total: int, *, safety_near: bool, defender_near: bool) -> str:
    """``complete``, ``incomplete`` or ``interception`` for a pass ``total`` (the roll plus the modifiers)
    with a defender, or the Safety, next to the receiver or not (CF-PASS-TABLE, ruling CF-R-PASS-TABLE).
    The one statement of the table: the engine throws by it and the documents print it."""
    if total >= pr.complete_min:
        return "complete"
    if total >= pr.incomplete_min:
        return "incomplete"
    if safety_near and total <= pr.safety_interception_max:
        return "interception"
    if defender_near and total <= pr.interception_max:
        return "interception"
    return "incomplete"


def total_range(rules: ChessFootballRules) -> tuple[int, int]:
    """The lowest and the highest pass total possible under ``rules``: the die's faces with every
    modifier that can lower (or raise) it at once - each defender next to the receiver, the Safety
    among them, the Rusher next to the passer, the Deep Threat catching, the Lead Blocker near."""
    pr = rules.passing
    defenders = len(rules.defense_lineup) + 1  # the lineup and the defense's captain
    mods = [pr.adjacent_defender] * defenders + [pr.safety_adjacent, pr.rusher_adjacent_passer, pr.deep_threat_receiver,
                                                 pr.lead_blocker_near_passer]
    return 1 + sum(m for m in mods if m < 0), pr.die + sum(m for m in mods if m > 0)


def pass_table(rules: ChessFootballRules) -> list[dict[str, str]]:
    """The pass table as the documents print it: one row per run of totals with the same outcomes, from
    the lowest possible total to the highest, each with the outcome when no defender is next to the
    receiver, when a defender (not the Safety) is, and when the Safety is."""
    pr = rules.passing
    lo, hi = total_range(rules)
    rows: list[dict[str, str]] = []
    for total in range(hi, lo - 1, -1):
        cells = {"open": pass_outcome(pr, total, safety_near=False, defender_near=False),
                 "defender": pass_outcome(pr, total, safety_near=False, defender_near=True),
                 "safety": pass_outcome(pr, total, safety_near=True, defender_near=True)}
        if rows and all(rows[-1][k] == v for k, v in cells.items()):
            rows[-1]["low"] = str(total)
        else:
            rows.append({"high": str(total), "low": str(total), **cells})
    for r in rows:
        r["totals"] = r["high"] if r["high"] == r["low"] else f"{r['low']} to {r['high']}"
    return rows


def completion_chance(f: Field, passer: Piece, receiver: Piece) -> float:
    """The chance a pass from ``passer`` to ``receiver`` is complete with the modifiers in force now."""
    pr = f.rules.passing
    mods = sum(m[1] for m in pass_modifiers(f, passer, receiver))
    return sum(1 for roll in range(1, pr.die + 1) if roll + mods >= pr.complete_min) / pr.die


def ball_step(f: Field) -> None:
    """End of a turn: the ball moves - a declared pass is thrown (CF-REACTION, CF-PASS)."""
    if f.result is not None or f.pass_decl is None:
        return
    pid, rid = f.pass_decl
    f.pass_decl = None
    passer, receiver = f.pieces[pid], f.pieces[rid]
    if f.carrier != passer.id:
        return
    f.pass_thrown = True
    pr = f.rules.passing
    assert f.draw is not None
    roll = f.draw(Die("pass roll", 1, pr.die, about=f"{passer.id} to {receiver.id}"))
    mods = pass_modifiers(f, passer, receiver)
    total = roll + sum(m[1] for m in mods)
    mod_text = ", ".join(f"{m[0]} {m[1]:+d}" for m in mods) or "no modifiers"
    near = sorted((q for q in f.pieces.values() if q.team == f.defense and cheb(q.sq, receiver.sq) <= 1),
                  key=lambda q: (q.sq != receiver.sq, q.id))
    safety = next((q for q in near if f.has_passive(q, "intercept")), None)
    outcome = pass_outcome(pr, total, safety_near=safety is not None, defender_near=bool(near))
    also = ["CF-PASS-TABLE"]
    for m in mods:
        also += [m[2], *MOD_ALSO.get(m[2], ())]
    if total <= 0:
        also.append("CF-R-PASS-TABLE")  # where the table's interception rows overlap
    if mods:
        also.append("CF-R-ABILITY-ORDER")  # modifiers are read when the ball moves
    f.events.append(ev("pass", "CF-PASS", "{passer} passes to {receiver}: rolls {roll} ({mods}) = {total}: {outcome}",
                       passer=pid, receiver=rid, roll=roll, mods=mod_text, total=total, outcome=outcome,
                       also=list(dict.fromkeys(also))))
    if outcome == "complete":
        f.carrier = rid
        f.events.append(ev("complete", "CF-R-TELEPORT", "complete: the ball is with {receiver} on {at} {pos}",
                           receiver=rid, at=sq(receiver.sq), pos=receiver.pos))
        after_change(f)
    elif outcome == "incomplete":
        f.events.append(ev("incomplete", "CF-R-INCOMPLETE", "incomplete: the ball goes back to the line of scrimmage",
                           also=["CF-PASS-TABLE"]))
        f.result = DownResult(DownEnd.INCOMPLETE)
    else:
        by = safety if safety is not None and total <= pr.safety_interception_max else near[0]
        also = ["CF-PASS-TABLE", "CF-TURNOVERS"] + (["CF-INTERCEPT"] if by is safety else [])
        f.events.append(ev("interception", "CF-R-PASS-TABLE", "INTERCEPTED by {by} on {at}", by=by.id, at=sq(receiver.sq), also=also))
        f.result = DownResult(DownEnd.INTERCEPTION, receiver.sq, by.id)


__all__ = ["ball_step", "completion_chance", "pass_modifiers", "pass_outcome", "pass_table", "total_range"]
