"""Every rule id of the Chess-Football Hybrid, with a one-line title.

``CF-*`` ids name rules of the document (``shared/seeds/004``, v2.0); ``CF-R-*`` ids
name the rulings recorded in ``rules_md/chess_football.md`` where the document is
silent, vague or contradicts itself.  :func:`rules_text` gives the texts with the numbers of
the ruleset a session runs.
"""

from __future__ import annotations

from typing import Any

from gm.core.wording import ordinal

RULES: dict[str, str] = {
    # --- the document: board and teams
    "CF-BOARD": "Board: 48 x 16 squares (rows 1-48, columns A-P); 1 square = 2.5 yards",
    "CF-POSITIONS": "Five positions per square: NW, NE, Center (C), SW, SE",
    "CF-END-ZONES": "End zones: rows 1-4 and 45-48",
    "CF-TEAM": "7 pieces per team: 6 standard pieces + 1 captain",
    "CF-CAPTAIN": "One captain per team, chosen from the specialized roles",
    "CF-SIDES": "Teams alternate between offense (QB role) and defense (Safety role)",
    "CF-SYNTAX": "Action text forms: moves, abilities, passes, play action, plans (see the action forms)",
    # --- movement
    "CF-MOVEMENT": "Movement per turn: Heavy 1, Strong 2, Fast 3, QB 1; captains as listed (Rusher/Lineman 2, Scrambler 3 ...)",
    "CF-MOVE-RESTRICTED": "Restricted movement (Fast, Safety, Deep Threat, Scrambler): a change of direction costs 1 movement",
    "CF-MOVE-UNRESTRICTED": "Unrestricted movement (Heavy, Strong, QB, Nickelback, Lead Blocker, Rusher, Lineman)",
    "CF-SNAP-BURST": "Snap burst: on the first turn only, blocking pieces (Heavy, Strong, Lineman) get +1 movement",
    "CF-MOVE-ORDER": "Movement order: Captain -> Heavy -> Strong -> Fast",
    "CF-RETREAT": "Retreat (1): a Heavy piece moves up to 2 squares toward its own QB for 1 movement",
    # --- turns
    "CF-SNAP": "The snap (first turn): both teams plan on the whiteboard, reveal simultaneously; offense executes, then defense",
    "CF-PLAN": "Planning board 7 x 3: order (1st-7th), piece, action (destination, ability use)",
    "CF-REACTION": "Reaction turns: offense moves all pieces, defense moves all pieces, the ball moves (teleports on a complete pass)",
    # --- tackling and downs
    "CF-TACKLE": "Tackling is deterministic: a defender ending on the ball carrier's square and position ends the down; ball spotted there",
    "CF-SAFETY": "Safety: ball carrier tackled in its own end zone - 2 points to the defense",
    "CF-SACK": "Sack: tackle behind the line of scrimmage - ball spotted there, the offense loses the down",
    "CF-DRIVE-START": "Every drive starts from square 8 (the 20-yard line)",
    "CF-LOS": "Line of scrimmage: the ball's current location",
    "CF-FIRST-DOWN": "First down line: LOS + 4 squares; 4 downs to reach it",
    "CF-FOURTH-DOWN": "4th down: go for it (failure = turnover at the spot) or punt (declared before the turn; opponent starts at square 8)",
    "CF-TOUCHDOWN": "Touchdown: the ball enters the opponent's end zone - 7 points; the opponent starts at square 8",
    "CF-TURNOVERS": "Turnovers: interception, failed 4th down, punt, safety",
    "CF-COIN-TOSS": "A coin toss decides the first possession",
    "CF-POSSESSIONS": "4 possessions per team per half; all drives begin from square 8",
    # --- passing
    "CF-PASS": "The QB or the Scrambler may pass: roll 1d6 + modifiers",
    "CF-PASS-TABLE": "Pass table: 3-6 complete, 1-2 incomplete (down used), -1 interception (non-Safety), 0 or lower interception (Safety)",
    "CF-PASS-MOD-DEFENDER": "Pass modifier: -1 per defender adjacent to the receiver",
    "CF-PASS-MOD-SAFETY": "Pass modifier: -2 if the Safety is adjacent to the receiver",
    "CF-PASS-MOD-RUSHER": "Pass modifier: -1 if the Rusher is adjacent to the QB",
    "CF-PASS-MOD-DEEP": "Pass modifier: +1 if the receiver is the Deep Threat",
    "CF-PASS-MOD-LEAD": "Pass modifier: +1 if the Lead Blocker is within 2 squares of the QB",
    "CF-INELIGIBLE": "Ineligible receivers (Heavies, Strongs, blocking captains) may move only 1 square downfield before the pass",
    # --- play action
    "CF-PLAY-ACTION": "Play action: when the QB is adjacent to a non-Heavy ally the ball marker is hidden",
    "CF-PA-RETURN": "When the adjacency ends the team chooses who holds the ball",
    "CF-PA-COUNTER": "If the QB and the fake are both tackled, the ball defaults to the QB",
    # --- collisions
    "CF-COLLISION": "Two pieces on one position: each rolls 1d6; higher wins, the loser returns to its starting square; tie: both return",
    # --- abilities
    "CF-ABILITIES": "Standard pieces: Heavy (Push, Chop Block, Chip Block, Retreat), Strong (Push, Engage, Chip Block), Fast (Engage, Speed Rush), QB (Pass, Play Action)",
    "CF-PUSH": "Push: push an adjacent enemy back 1 and enter its square (Heavy: 1 movement, Strong: 2)",
    "CF-CHOP": "Chop Block: you and the enemy both lose all movement (once per 4 downs)",
    "CF-CHIP": "Chip Block (1): an adjacent Heavy gets +1 movement",
    "CF-ENGAGE": "Engage: remove 1 movement from an adjacent enemy (Strong, Scrambler: 1; Fast, Safety, Deep Threat: 2)",
    "CF-SPEED-RUSH": "Speed Rush (1): move through occupied squares (Heavies block), once per 4 downs",
    "CF-CAPTAIN-INHERIT": "Captains inherit all base abilities of their piece type",
    "CF-INTERCEPT": "Safety - Intercept: +2 on adjacent failed passes",
    "CF-REACT": "Safety - React: +1 movement once per 4 downs (opponent's turn)",
    "CF-JAM": "Nickelback - Jam (1): block adjacent abilities for 1 turn",
    "CF-SEAL": "Nickelback - Seal (1): adjacent squares cost +1 movement",
    "CF-SWIM": "Rusher - Swim (1): if pushed by a Heavy, swap places",
    "CF-PRESSURE": "Rusher - Pressure: the QB/Scrambler gets -1 to pass if adjacent",
    "CF-SCRAMBLE": "Scrambler - Scramble: may pass after moving",
    "CF-JUKE": "Scrambler - Juke: +1 movement once per 4 downs",
    "CF-CATCHING": "Deep Threat - +1 Catching: pass bonus",
    "CF-ROUTE": "Deep Threat - Route Running: ignore the direction cost once per 4 downs",
    "CF-IMPACT": "Lead Blocker / Lineman - Impact (1): remove 1 movement and push back 1 square",
    "CF-ESCORT": "Lead Blocker - Escort: +1 movement if starting adjacent to the ball carrier",
    "CF-CHECK-DOWN": "Lead Blocker - Check Down: +1 pass if within 2 squares of the QB",
    "CF-ANCHOR": "Lineman - Anchor (2): an adjacent Heavy gets +1 movement, the Lineman becomes immovable (once per 4 downs)",
    "CF-ONCE-4": "Abilities marked 'once per 4 downs' can be used once in any 4 downs",
    # --- the game
    "CF-WIN": "Four possessions per team per half; the highest score at the end of regulation wins",
    "CF-OVERTIME": "Overtime: 1 possession per team; the highest score wins",
    # --- rulings (see rules_md/chess_football.md)
    "CF-R-ENDS": "Home attacks toward rows 45-48, away toward rows 1-4, all game; there is no change of ends",
    "CF-R-SQUARE8": "'Square 8' counts from the team's own goal line: row 12 for home, row 37 for away",
    "CF-R-LINEUP": "Six standard pieces: offense QB, 2 Heavy, 1 Strong, 2 Fast; defense 2 Heavy, 2 Strong, 2 Fast; fixed line-up columns",
    "CF-R-SPOT": "The spot is a row: every down starts from the line-up at the line of scrimmage (the ball's column is not kept)",
    "CF-R-SNAP-BALL": "The ball starts every down with the QB",
    "CF-R-CAPTAINS": "Each team secretly names an offensive and a defensive captain; the one for its current side is on the field",
    "CF-R-EIGHTH": "The eighth captain role is not described: captains are chosen from the seven described roles",
    "CF-R-TOSS": "The away team calls the toss; the winner has the first possession",
    "CF-R-POSITION": "Where a piece ends in a square it takes any position for free; positions matter for tackles, collisions and room (5 a square)",
    "CF-R-STEP": "Movement is in king steps (8 directions), 1 movement each; a change of direction is a step unlike the previous one of the move",
    "CF-R-PASS-THROUGH": "A piece may end on a square with opposing pieces but never pass through one; teammates do not block",
    "CF-R-ADJACENT": "Adjacent means the same square or one of the 8 neighbouring squares",
    "CF-R-TEAMMATE-POS": "A piece may not end on a position a teammate holds",
    "CF-R-ONE-MOVE": "Each turn a piece makes at most one move and uses each ability at most once, within its movement",
    "CF-R-QB-ORDER": "The QB, missing from the movement order, acts last; a captain acts as 'Captain' whatever its base",
    "CF-R-HEAVY": "'Heavy' in ability texts includes the Heavy-based captains (Rusher, Lineman)",
    "CF-R-BLOCKING-CAPTAINS": "Blocking captains are the Heavy- and Strong-based captains; the snap burst goes to Heavy, Strong and Lineman as listed",
    "CF-R-PLAN-CHECK": "A plan is checked against the board at the snap, each row after its own piece's earlier rows (it may end where a teammate stood); at execution a row that no longer fits is cut short or skipped",
    "CF-R-ABILITY-ORDER": "Abilities resolve at once, in the order used (offense rows, then defense rows); pass modifiers when the ball moves",
    "CF-R-EFFECT-TIMING": "Movement gained or lost applies to the target's next part of a turn (its current one if it can still act); Jam, Seal and Anchor last through the opponent's next part",
    "CF-R-ONCE-4": "'Once per 4 downs' is per piece: after a use on a down the next use comes 4 downs later (downs counted over the game)",
    "CF-R-PUSH": "'Back' is one row toward the pushed piece's own end zone; a Strong's push is the same push for 2; no push off the field, into a full square or of an anchored piece",
    "CF-R-IMPACT": "Impact pushes the target back without the hitter entering its square",
    "CF-R-CHOP": "Chop Block costs nothing, ends the chopper's turn and freezes the target for its next part of a turn",
    "CF-R-RETREAT": "Retreat needs an own QB on the field (offense only); every step must bring the piece closer to it",
    "CF-R-SPEED-RUSH": "Speed Rush: the move may pass through squares with opposing pieces, except a square holding an opposing Heavy-type",
    "CF-R-REACT": "React is used in the defense's part of a turn (its reaction to the offense's turn): +1 movement",
    "CF-R-JAM": "Jam hits every opposing piece adjacent to the Nickelback; jammed pieces use no abilities (pass and play action included)",
    "CF-R-SEAL": "Seal: an opposing step into a square next to the Nickelback costs +1",
    "CF-R-SWIM": "Swim is automatic when an opposing Heavy-type pushes the Rusher; it costs the Rusher 1 movement next turn",
    "CF-R-ANCHOR": "An anchored Lineman cannot be pushed, impacted or swapped and stays put in any collision",
    "CF-R-ESCORT": "Escort counts adjacency at the start of the Lead Blocker's part of a turn; with the ball hidden either candidate counts",
    "CF-R-COLLISION-TACKLE": "A defender ending on the carrier's position tackles (no dice); the carrier ending on a defender's position collides",
    "CF-R-COLLISION-RETURN": "A collision loser returns to the square (and position if free) it held at the start of its side's part of the turn",
    "CF-R-PASS-TIMING": "A pass is declared in the offense's part of a turn (a QB that has not moved; the Scrambler any time) and thrown when the ball moves; one pass per down",
    "CF-R-TELEPORT": "A complete pass puts the ball on the receiver where it stands (square and position); the down goes on",
    "CF-R-RECEIVER": "Any teammate but the passer may be a receiver unless ineligible",
    "CF-R-PASS-MODS": "Intercept, Pressure, +1 Catching and Check Down are the captains' modifier rows and count once; 'QB' means the passer; the Safety is also an adjacent defender",
    "CF-R-PASS-TABLE": "0 or lower with the Safety next to the receiver: the Safety intercepts; -1 or lower: a defender next to the receiver intercepts; otherwise incomplete",
    "CF-R-INCOMPLETE": "An incomplete pass ends the down; the ball goes back to the line of scrimmage",
    "CF-R-INTERCEPT-SPOT": "After an interception the intercepting team starts its drive at its square 8",
    "CF-R-SAFETY-RESTART": "A safety is a turnover: the scoring team takes over at its square 8",
    "CF-R-PA": "Play action: the QB carrying the ball declares it with an adjacent non-Heavy ally, once per down, before a pass; the holder is secret (none in a snap plan: the QB keeps it) and may be re-chosen once per turn while hidden",
    "CF-R-PA-TACKLE": "While the ball is hidden a defender ending on the QB's or the fake's position wraps it up (no dice, nothing revealed); a wrapped piece is out of the down; the revealed holder wrapped = tackled",
    "CF-R-TD": "Touchdown the moment the ball carrier stands in the opponent's end zone (after its move or a complete pass)",
    "CF-R-DOWN-LIMIT": "A down lasts at most 4 turns (snap + 3 reaction turns); then the whistle: the carrier is down where it stands",
    "CF-R-GOAL-TO-GO": "A first down line inside the end zone means goal to go",
    "CF-R-FOURTH": "On 4th down the offense declares punt or go for it before the snap",
    "CF-R-POSSESSION-END": "A possession ends only by a score or a turnover; a half ends when both teams have had their possessions",
    "CF-R-HALF2": "The toss loser has the first possession of the second half; the toss winner the first of overtime",
    "CF-R-OT-TIE": "One overtime period; still tied after it, the game is a draw",
}


def rules_text(r: Any) -> dict[str, str]:
    """Every rule id with its text as the ruleset ``r`` has the game (the ruleset's numbers and names)."""

    kinds, caps, p = r.kinds, r.captains, r.passing
    last = chr(ord("A") + r.columns - 1)
    moves = ", ".join(f"{k.name} {k.movement}" for k in kinds.values())
    order = " -> ".join(o.capitalize() if o != "qb" else "QB" for o in r.movement_order)
    limited = f"once per {r.once_per_downs} downs"
    punt = " or ".join(ordinal(d) for d in r.punt_downs)
    out = dict(RULES)
    out.update({
        "CF-BOARD": f"Board: {r.rows} x {r.columns} squares (rows 1-{r.rows}, columns A-{last}); 1 square = 2.5 yards",
        "CF-END-ZONES": f"End zones: rows 1-{r.low_goal} and {r.high_goal}-{r.rows}",
        "CF-TEAM": f"{len(r.offense_lineup) + 1} pieces on offense, {len(r.defense_lineup) + 1} on defense: the standard pieces + 1 captain",
        "CF-MOVEMENT": f"Movement per turn: {moves}; captains: " + ", ".join(f"{c.name} {c.movement}" for c in caps.values()),
        "CF-SNAP-BURST": f"Snap burst: on the first turn only, {', '.join(r.snap_burst_pieces)} get +{r.snap_burst} movement",
        "CF-MOVE-ORDER": f"Movement order: {order}",
        "CF-RETREAT": f"Retreat: a Heavy piece moves up to {r.retreat_squares} squares toward its own QB",
        "CF-PLAN": f"Planning board {r.plan_rows} x 3: order (1st-{ordinal(r.plan_rows)}), piece, action (destination, ability use)",
        "CF-DRIVE-START": f"Every drive starts from square {r.drive_start_square}",
        "CF-FIRST-DOWN": f"First down line: LOS + {r.first_down_squares} squares; {r.downs} downs to reach it",
        "CF-FOURTH-DOWN": f"{punt.capitalize()} down: go for it (failure = turnover at the spot) or punt (declared before the turn; "
                          f"opponent starts at square {r.drive_start_square})",
        "CF-TOUCHDOWN": f"Touchdown: the ball enters the opponent's end zone - {r.touchdown_points} points; the opponent starts at "
                        f"square {r.drive_start_square}",
        "CF-SAFETY": f"Safety: ball carrier tackled in its own end zone - {r.safety_points} points to the defense",
        "CF-POSSESSIONS": f"{r.possessions_per_half} possessions per team per half; all drives begin from square {r.drive_start_square}",
        "CF-PASS": f"The QB or the Scrambler may pass: roll 1d{p.die} + modifiers",
        "CF-PASS-TABLE": f"Pass table: {p.complete_min} or more complete, {p.incomplete_min} to {p.complete_min - 1} incomplete "
                         f"(down used), {p.interception_max} or lower interception (non-Safety), {p.safety_interception_max} "
                         "or lower interception (Safety)",
        "CF-PASS-MOD-DEFENDER": f"Pass modifier: {p.adjacent_defender:+d} per defender adjacent to the receiver",
        "CF-PASS-MOD-SAFETY": f"Pass modifier: {p.safety_adjacent:+d} if the Safety is adjacent to the receiver",
        "CF-PASS-MOD-RUSHER": f"Pass modifier: {p.rusher_adjacent_passer:+d} if the Rusher is adjacent to the QB",
        "CF-PASS-MOD-DEEP": f"Pass modifier: {p.deep_threat_receiver:+d} if the receiver is the Deep Threat",
        "CF-PASS-MOD-LEAD": f"Pass modifier: {p.lead_blocker_near_passer:+d} if the Lead Blocker is within {p.lead_blocker_range} "
                            "squares of the QB",
        "CF-INELIGIBLE": f"Ineligible receivers ({', '.join(r.ineligible_pieces)}) may move only {r.ineligible_downfield} "
                         "square(s) downfield before the pass",
        "CF-COLLISION": f"Two pieces on one position: each rolls 1d{r.collision_die}; higher wins, the loser returns to its "
                        "starting square; tie: both return",
        "CF-ONCE-4": f"Abilities marked 'once per 4 downs' ({', '.join(r.limited_abilities)}) can be used {limited}",
        "CF-WIN": f"{r.possessions_per_half} possessions per team per half; the highest score at the end of regulation wins",
        "CF-OVERTIME": f"Overtime: {r.overtime_possessions} possession(s) per team; the highest score wins",
        "CF-R-DOWN-LIMIT": f"A down lasts at most {r.max_turns_per_down} turns (snap + {r.max_turns_per_down - 1} reaction turns); "
                           "then the whistle: the carrier is down where it stands",
        "CF-R-OT-TIE": f"{r.overtime_periods} overtime period(s); still tied after them, the game is a draw",
        "CF-R-ONCE-4": f"'Once per {r.once_per_downs} downs' is per piece: after a use on a down the next use comes "
                       f"{r.once_per_downs} downs later (downs counted over the game)",
    })
    return out


# alike on purpose: every game has a table of this shape (a player's word -> the rule ids it means, read by
# Game.rule_words and the rules lookup); the words and the rules are each game's own
#: the words players use for the rules, with the rule ids they mean (the rules lookup finds these too)
RULE_WORDS: dict[str, tuple[str, ...]] = {
    "whiteboard": ("CF-PLAN", "CF-SNAP"),
    "plan": ("CF-PLAN", "CF-SNAP", "CF-R-PLAN-CHECK"),
    "hold": ("CF-PLAN",),
    "sack": ("CF-SACK",),
    "fake": ("CF-PLAY-ACTION", "CF-R-PA"),
    "handoff": ("CF-PA-RETURN", "CF-R-PA"),
    "hand off": ("CF-PA-RETURN", "CF-R-PA"),
    "hidden ball": ("CF-PLAY-ACTION", "CF-R-PA-TACKLE"),
    "throw": ("CF-PASS", "CF-PASS-TABLE"),
    "catch": ("CF-PASS-TABLE", "CF-R-RECEIVER", "CF-INELIGIBLE"),
    "receiver": ("CF-R-RECEIVER", "CF-INELIGIBLE"),
    "pick": ("CF-R-PASS-TABLE", "CF-INTERCEPT"),
    "interception": ("CF-R-PASS-TABLE", "CF-INTERCEPT", "CF-R-INTERCEPT-SPOT"),
    "dice": ("CF-COLLISION", "CF-PASS"),
    "roll": ("CF-COLLISION", "CF-PASS"),
    "block": ("CF-PUSH", "CF-CHOP", "CF-CHIP", "CF-R-PASS-THROUGH"),
    "blocked": ("CF-R-PASS-THROUGH", "CF-R-SPEED-RUSH"),
    "position": ("CF-POSITIONS", "CF-R-POSITION", "CF-R-TEAMMATE-POS"),
    "corner": ("CF-POSITIONS", "CF-R-POSITION"),
    "diagonal": ("CF-R-STEP", "CF-MOVE-RESTRICTED"),
    "turn cost": ("CF-MOVE-RESTRICTED", "CF-R-STEP"),
    "order": ("CF-MOVE-ORDER", "CF-R-QB-ORDER"),
    "whistle": ("CF-R-DOWN-LIMIT",),
    "clock": ("CF-R-DOWN-LIMIT", "CF-POSSESSIONS"),
    "kick": ("CF-FOURTH-DOWN", "CF-R-FOURTH"),
    "score": ("CF-TOUCHDOWN", "CF-SAFETY"),
    "toss": ("CF-COIN-TOSS", "CF-R-TOSS"),
    "captain": ("CF-CAPTAIN", "CF-R-CAPTAINS", "CF-CAPTAIN-INHERIT"),
    "overtime": ("CF-OVERTIME", "CF-R-OT-TIE"),
}
