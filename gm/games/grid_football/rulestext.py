"""The rules of Grid Football in one line each, worded from a ruleset: what the rules lookup
(``rules kick``, the ``get_rules`` tool) and the rule index read.

:func:`rules_text` renders every rule id with the ruleset's own numbers and tables (the
default ruleset gives the quick-start guide's wording, which is ``ruleids.RULES``); a rule
that the ruleset does not have (a play it removed) is left out.  :data:`RULE_WORDS` maps the
words players use to the rule ids they mean.
"""

from __future__ import annotations

from gm.core.wording import ordinal
from gm.games.grid_football.rules import POSITIONS, GridFootballRules, PlayResult, PlaySpec
from gm.templating import join_and

_WORDS = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve")


def _word(n: int) -> str:
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def _s(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _fwd(n: int) -> str:
    return f"+{n} forward" if n > 0 else f"{n} backward" if n < 0 else "0 forward"


def _play(n: int, name: str, wrong: PlayResult, matched: PlayResult) -> str:
    w = _fwd(wrong.forward) + (f", up to {wrong.lateral} lateral" if wrong.lateral else "")
    m = _fwd(matched.forward) + (f", up to {matched.lateral} lateral" if matched.lateral else ", no lateral")
    return f"Play {n} {name}: defense wrong {w}; matches {m}"


def rules_text(rules: GridFootballRules) -> dict[str, str]:
    """Rule id -> the rule in one line, as ``rules`` has it."""
    r = rules
    low, high, rows = r.low_goal_line, r.high_goal_line, r.rows
    last_col = chr(ord("A") + r.columns - 1)
    low_depth, high_depth = low, rows - high + 1
    F, Q, N = r.first_down_rows, r.quarters, r.number_max
    plays = dict(sorted(r.plays.items()))
    first_td = r.win == "first_touchdown"
    punts = join_and((ordinal(d) for d in sorted(r.punt_downs)), "or")
    if low_depth == high_depth:
        depth = f"both {low_depth} rows deep"
    else:
        depth = f"the high one is {high_depth} rows deep" if high_depth > low_depth else f"the low one is {low_depth} rows deep"
    out: dict[str, str] = {
        # --- the document
        "GF-BOARD": f"Board: columns A-{last_col}, rows 1-{rows}; goal lines rows {low} and {high}; end zones rows 1-{low} and {high}-{rows}",
        "GF-TOSS": "Coin toss: the winner chooses to kick or receive",
        "GF-TOSS-2H": "The toss loser chooses kick or receive at the start of the 2nd half",
        "GF-KICK-DIST": f"A kickoff travels {r.kick_distance} rows from the kicking team's goal line",
        "GF-KICK-PICK": "Kickoff: both teams secretly choose a position (left/center/right) and a colour (yellow/red/green)",
        "GF-KICK-RETURN": (
            f"Return distance by matches: 2 matches = {_s(r.return_steps[2], 'step')}, 1 match = {r.return_steps[1]}, "
            f"0 matches = {r.return_steps[0]}"
        ),
        "GF-KICK-NUMBER": f"0 matches: number check 1-{N}; a match is a return touchdown",
        "GF-LOCK": "Each down both teams lock a play secretly; offense reveals play, colour and movement intent, defense play and colour",
    }
    extra = [n for n in plays if f"GF-PLAY-{n}" not in _PLAY_IDS]
    if extra:  # plays without a rule id of their own are stated with GF-LOCK (the id the engine cites)
        out["GF-LOCK"] += "; " + "; ".join(
            _play(n, plays[n].name, plays[n].wrong, plays[n].matched) + f" (from Quarter {plays[n].unlock_quarter})" for n in extra
        )
    for n, spec in plays.items():
        if f"GF-PLAY-{n}" in _PLAY_IDS:
            text = _play(n, spec.name, spec.wrong, spec.matched)
            if spec.unlock_quarter > 1 and n != 4:
                text += f" (from Quarter {spec.unlock_quarter})"
            out[f"GF-PLAY-{n}"] = text
    if 4 in plays:
        q4 = plays[4].unlock_quarter
        out["GF-PLAY4-LOCK"] = f"Play 4 is unlocked after Quarter {q4 - 1}" if q4 > 1 else "Play 4 may be called from Quarter 1"
    switch = r.switch_after_quarters
    warn = r.warning_quarters
    out.update({
        "GF-COLOUR": "Colours: Red is a pass, Black is a run",
        "GF-MATCH-NONE": f"No match: base play result, {r.no_match_bonus:+d} bonus forward steps",
        "GF-MATCH-PLAY": f"Play match only: matched result, {r.play_match_bonus:+d} bonus forward steps",
        "GF-MATCH-COLOUR": (
            f"Colour match only: ignore the play, move exactly {r.colour_match_forward:+d} forward, then a number check (match = turnover)"
        ),
        "GF-MATCH-BOTH": "Play + colour match: immediate turnover, ball stays in place, drive direction reverses",
        "GF-LATERAL": "Lateral movement: declared before or after the forward movement (default before), left or right",
        "GF-LATERAL-MATCH": "Lateral is reduced by 1 if the defense matches the play number",
        "GF-DIRECTION": "Forward is toward the opponent's goal line, backward away from it",
        "GF-MOVE-RED": "Red: before = lateral in the air, forward on the ground; after = forward in the air, lateral on the ground",
        "GF-MOVE-BLACK": "Black: all movement on the ground",
        "GF-BLOCK": "Every play's ending square becomes blocked; blocked squares stop ground movement, air ignores them",
        "GF-INCOMPLETE": "A pass that overshoots the end zone is incomplete",
        "GF-TD": "Touchdown when the ball enters the opponent's end zone, or on a kickoff/punt number match",
        "GF-WIN": (
            "The first team to score a touchdown wins" if first_td
            else f"Most points after Quarter {Q} wins; a touchdown scores {r.touchdown_points}"
        ),
        "GF-FIRST-DOWN": f"Start at 1st & {F}; gaining {F}+ rows resets to 1st & {F}",
        "GF-DOWNS": f"{_word(r.downs)} {'down' if r.downs == 1 else 'downs'} to make progress" + (" or punt" if r.punt_downs else ""),
        "GF-QUARTERS": f"{_word(Q)} quarters of {_s(r.downs_per_quarter, 'down')} each",
        "GF-SWITCH": (
            "Switch ends after " + join_and(f"Quarter {q}" for q in sorted(switch)) if switch else "The teams never switch ends"
        ),
        "GF-WARNING": (
            f"Warning at {r.warning_downs_left} {'down' if r.warning_downs_left == 1 else 'downs'} remaining in "
            + join_and(f"Q{q}" for q in sorted(warn)) if warn else "No warning near the end of a quarter"
        ),
        "GF-TURNOVER": "On a turnover the ball stays where it is and the drive direction reverses",
        "GF-SYNTAX": (
            "Actions are written as in the guide: 'heads', 'kick', 'left yellow', 'number 7', 'punt', 'play 1 red 2 right before'"
        ),
        # --- rulings (see rules_md/grid_football.md)
        "GF-R-TOSS-CALL": f"The {r.toss_caller} team calls the toss; the engine's seeded generator flips the coin",
        "GF-R-ENDS": f"Home defends the low end zone (rows 1-{low}) in Quarter 1",
        "GF-R-END-ZONE": f"End zones are rows 1-{low} and {high}-{rows} as the board says ({depth})",
        "GF-R-KICK-COLUMN": (
            "A kick comes down in the column of the kicking team's position call: "
            + ", ".join(f"{p} {r.kick_columns[p]}" for p in POSITIONS)
        ),
        "GF-R-TOUCHBACK": "A kick return never ends inside the receiving team's end zone: the ball is placed on the first row outside it",
        "GF-R-KICK-GROUND": "A kick return runs straight along its column on the ground: blocked squares stop it",
        "GF-R-KICK-SQUARE": "Kick spots are not blocked: only a down's ending square is",
        "GF-R-LEFT-RIGHT": f"Left and right are board directions as printed: left toward column A, right toward column {last_col}",
        "GF-R-LATERAL-CAP": (
            "The offense may declare at most the play's 'defense wrong' lateral; a matched play moves at most its 'matches' lateral"
        ),
        "GF-R-LATERAL-TABLE": _lateral_table(plays),
        "GF-R-NET": "The bonus is added to the play's forward value and the ball moves the net distance once",
        "GF-R-DEFENSE-CALL": "The defense calls only a play and a colour; movement intent belongs to the offense",
        "GF-R-DECISION": (
            "One decision at a time: a coin call, kick or receive, a kick pick, a number pick, or a play call (or punt); "
            "a move of another kind is refused, naming the decision due"
        ),
        "GF-R-AIR-LANDING": "Air movement flies over blocked squares but lands on the last open square at or short of its target",
        "GF-R-EDGE": f"Lateral movement stops at the board edge (columns A and {last_col})",
        "GF-R-OWN-END-ZONE": "Backward movement stops on the last row before the offense's own end zone (no safeties)",
        "GF-R-TD-STOP": "Movement ends the moment the ball enters the opponent's end zone; the rest of the move is dropped",
        "GF-R-INCOMPLETE": "An incomplete pass leaves the ball where the down started; the down counts",
        "GF-R-COLOUR-MOVE": f"The colour-match {r.colour_match_forward:+d} has no lateral and uses the offense's forward mode (Red after = air)",
        "GF-R-COLOUR-TD": f"A colour-match {r.colour_match_forward:+d} that reaches the end zone is a touchdown before any number check",
        "GF-R-PUNT": (
            f"Punt: on {punts} down instead of a play; travels {r.punt_distance} rows from the ball and is returned like a kickoff"
            if r.punt_downs else "Punt: not allowed in this ruleset"
        ),
        "GF-R-DOWNS-FAIL": f"Failing on {ordinal(r.downs)} down is a turnover on downs at the spot",
        "GF-R-NEW-SERIES": f"After a turnover or a kick the new offense starts 1st & {F} from the ball",
        "GF-R-DOWN-COUNT": f"Each play call or punt resolved is one of the quarter's {r.downs_per_quarter} downs; kickoffs are not",
        "GF-R-SWITCH-MAP": (
            f"Switching ends mirrors the ball and every blocked square across midfield: row r becomes row {low + high} - r"
        ),
        "GF-R-HALF": "At halftime the drive ends; blocked squares stay; the toss loser chooses and the 2nd half starts with a kickoff",
        "GF-R-CARRY": _carry(Q),
        "GF-R-SCORELESS": (
            "If regulation ends with no touchdown the game is a draw" if first_td else "If regulation ends with equal points the game is a draw"
        ),
        "GF-R-NUMBER": f"Number checks: both teams secretly pick 1-{N}; equal numbers are a match",
        "GF-R-LINE-TO-GAIN": (
            f"The {F} rows are counted from where the series started (the line to gain); the line of scrimmage is the ball's row at each snap"
        ),
        "GF-R-KICK-LANDING": "A kick or punt may come down on a blocked square; the return starts from there",
        "GF-R-BALL-ON-BLOCK": (
            "The ball may rest on a blocked square (every down ends on one; a touchback may place it on one); only entering one is forbidden"
        ),
        "GF-R-POINTS": (
            f"Optional points mode: a touchdown scores {r.touchdown_points}, the scorer kicks off, most points after {Q} quarters wins"
            + ("" if first_td else " (this ruleset plays it)")
        ),
    })
    return {rid: out[rid] for rid in _ORDER if rid in out}


def _lateral_table(plays: dict[int, PlaySpec]) -> str:
    reduced: list[int] = []
    others: list[str] = []
    for n, spec in plays.items():
        w, m = spec.wrong.lateral, spec.matched.lateral
        if not w:
            continue
        if m == w - 1:
            reduced.append(n)
        else:
            others.append(f"Play {n} matched allows {'none' if m == 0 else m}")
    text = "The plays table governs lateral caps"
    parts = []
    if reduced:
        parts.append(f"'reduced by 1' is how it was built ({'Play' if len(reduced) == 1 else 'Plays'} {join_and(reduced)})")
    parts += others
    return text + ("; " + " and ".join(parts) if parts else "")


def _carry(quarters: int) -> str:
    half = quarters // 2
    breaks = [f"Q{q}/Q{q + 1}" for q in range(1, quarters) if q != half]
    if not breaks:
        return "There is no quarter break within a half: a drive ends only at halftime"
    return f"A drive carries over the {join_and(breaks)} {'break' if len(breaks) == 1 else 'breaks'} with its down and distance"


#: the rule ids in the order of the index (the guide's, then the rulings)
_ORDER = (
    "GF-BOARD", "GF-TOSS", "GF-TOSS-2H", "GF-KICK-DIST", "GF-KICK-PICK", "GF-KICK-RETURN", "GF-KICK-NUMBER", "GF-LOCK",
    "GF-PLAY-1", "GF-PLAY-2", "GF-PLAY-3", "GF-PLAY-4", "GF-PLAY4-LOCK", "GF-COLOUR", "GF-MATCH-NONE", "GF-MATCH-PLAY",
    "GF-MATCH-COLOUR", "GF-MATCH-BOTH", "GF-LATERAL", "GF-LATERAL-MATCH", "GF-DIRECTION", "GF-MOVE-RED", "GF-MOVE-BLACK",
    "GF-BLOCK", "GF-INCOMPLETE", "GF-TD", "GF-WIN", "GF-FIRST-DOWN", "GF-DOWNS", "GF-QUARTERS", "GF-SWITCH", "GF-WARNING",
    "GF-TURNOVER", "GF-SYNTAX",
    "GF-R-TOSS-CALL", "GF-R-ENDS", "GF-R-END-ZONE", "GF-R-KICK-COLUMN", "GF-R-TOUCHBACK", "GF-R-KICK-GROUND",
    "GF-R-KICK-SQUARE", "GF-R-LEFT-RIGHT", "GF-R-LATERAL-CAP", "GF-R-LATERAL-TABLE", "GF-R-NET", "GF-R-DEFENSE-CALL",
    "GF-R-DECISION", "GF-R-AIR-LANDING", "GF-R-EDGE", "GF-R-OWN-END-ZONE", "GF-R-TD-STOP", "GF-R-INCOMPLETE", "GF-R-COLOUR-MOVE",
    "GF-R-COLOUR-TD", "GF-R-PUNT", "GF-R-DOWNS-FAIL", "GF-R-NEW-SERIES", "GF-R-DOWN-COUNT", "GF-R-SWITCH-MAP", "GF-R-HALF",
    "GF-R-CARRY", "GF-R-SCORELESS", "GF-R-NUMBER", "GF-R-LINE-TO-GAIN", "GF-R-KICK-LANDING", "GF-R-BALL-ON-BLOCK",
    "GF-R-POINTS",
)  # fmt: skip
_PLAY_IDS = frozenset(f"GF-PLAY-{n}" for n in (1, 2, 3, 4))

_KICK = ("GF-KICK-DIST", "GF-KICK-PICK", "GF-KICK-RETURN", "GF-KICK-NUMBER", "GF-R-KICK-COLUMN", "GF-R-KICK-GROUND",
         "GF-R-KICK-LANDING", "GF-R-KICK-SQUARE", "GF-R-TOUCHBACK")  # fmt: skip
_COLOUR = ("GF-COLOUR", "GF-MATCH-COLOUR", "GF-R-COLOUR-MOVE", "GF-R-COLOUR-TD", "GF-MOVE-RED", "GF-MOVE-BLACK")
_BLOCK = ("GF-BLOCK", "GF-R-AIR-LANDING", "GF-R-KICK-LANDING", "GF-R-BALL-ON-BLOCK", "GF-R-KICK-SQUARE", "GF-R-KICK-GROUND")
_LATERAL = ("GF-LATERAL", "GF-LATERAL-MATCH", "GF-R-LATERAL-CAP", "GF-R-LATERAL-TABLE", "GF-R-EDGE", "GF-R-LEFT-RIGHT")
_TD = ("GF-TD", "GF-WIN", "GF-R-TD-STOP", "GF-R-COLOUR-TD", "GF-R-POINTS", "GF-KICK-NUMBER")
_DOWNS = ("GF-DOWNS", "GF-FIRST-DOWN", "GF-R-LINE-TO-GAIN", "GF-R-NEW-SERIES", "GF-R-DOWNS-FAIL", "GF-R-DOWN-COUNT")
_CLOCK = ("GF-QUARTERS", "GF-SWITCH", "GF-WARNING", "GF-R-DOWN-COUNT", "GF-R-CARRY", "GF-R-HALF", "GF-R-SWITCH-MAP")
_NUMBER = ("GF-R-NUMBER", "GF-KICK-NUMBER", "GF-MATCH-COLOUR")
_TURNOVER = ("GF-TURNOVER", "GF-MATCH-BOTH", "GF-MATCH-COLOUR", "GF-R-DOWNS-FAIL")
_PASS = ("GF-MOVE-RED", "GF-COLOUR", "GF-INCOMPLETE", "GF-R-INCOMPLETE", "GF-R-AIR-LANDING")
_RUN = ("GF-MOVE-BLACK", "GF-COLOUR", "GF-BLOCK")
_MATCH = ("GF-MATCH-NONE", "GF-MATCH-PLAY", "GF-MATCH-COLOUR", "GF-MATCH-BOTH", "GF-R-NET")
_END_ZONE = ("GF-R-END-ZONE", "GF-BOARD", "GF-TD", "GF-R-OWN-END-ZONE", "GF-R-TOUCHBACK", "GF-INCOMPLETE")
_PLAYS = ("GF-LOCK", "GF-PLAY-1", "GF-PLAY-2", "GF-PLAY-3", "GF-PLAY-4", "GF-PLAY4-LOCK", "GF-R-LATERAL-TABLE", "GF-R-NET")

# alike on purpose: every game has a table of this shape (a player's word -> the rule ids it means, read by
# Game.rule_words and the rules lookup); the words and the rules are each game's own
#: the words players use for the rules -> the rule ids they mean (the rules lookup also searches
#: the rules' own words)
RULE_WORDS: dict[str, tuple[str, ...]] = {
    "kick": _KICK, "kicks": _KICK, "kickoff": _KICK, "kick-off": _KICK, "kicking": _KICK,
    "return": ("GF-KICK-RETURN", "GF-R-KICK-GROUND", "GF-R-TOUCHBACK", "GF-KICK-NUMBER"),
    "punt": ("GF-R-PUNT", "GF-DOWNS", "GF-R-KICK-COLUMN", "GF-R-KICK-LANDING", "GF-R-TOUCHBACK"),
    "punting": ("GF-R-PUNT", "GF-DOWNS"),
    "touchback": ("GF-R-TOUCHBACK",),
    "blocked": _BLOCK, "block": _BLOCK, "blocks": _BLOCK, "blocking": _BLOCK,
    "lateral": _LATERAL, "sideways": _LATERAL, "left": ("GF-R-LEFT-RIGHT", "GF-LATERAL"), "right": ("GF-R-LEFT-RIGHT", "GF-LATERAL"),
    "edge": ("GF-R-EDGE",), "sideline": ("GF-R-EDGE",),
    "colour": _COLOUR, "color": _COLOUR, "colours": _COLOUR, "colors": _COLOUR,
    "red": _PASS, "pass": _PASS, "air": ("GF-MOVE-RED", "GF-R-AIR-LANDING"), "black": _RUN, "run": _RUN, "ground": _RUN,
    "incomplete": ("GF-INCOMPLETE", "GF-R-INCOMPLETE"), "overshoot": ("GF-INCOMPLETE", "GF-R-INCOMPLETE"),
    "touchdown": _TD, "td": _TD, "score": _TD, "scoring": _TD, "win": ("GF-WIN", "GF-R-POINTS", "GF-R-SCORELESS"),
    "points": ("GF-R-POINTS", "GF-WIN"), "draw": ("GF-R-SCORELESS",), "tie": ("GF-R-SCORELESS", "GF-R-POINTS"),
    "down": _DOWNS, "downs": _DOWNS, "first": ("GF-FIRST-DOWN", "GF-R-LINE-TO-GAIN"), "gain": ("GF-R-LINE-TO-GAIN", "GF-FIRST-DOWN"),
    "scrimmage": ("GF-R-LINE-TO-GAIN",), "distance": ("GF-FIRST-DOWN", "GF-R-LINE-TO-GAIN"),
    "quarter": _CLOCK, "quarters": _CLOCK, "clock": _CLOCK, "time": _CLOCK,
    "halftime": ("GF-R-HALF", "GF-TOSS-2H"), "half": ("GF-R-HALF", "GF-TOSS-2H"),
    "switch": ("GF-SWITCH", "GF-R-SWITCH-MAP"), "ends": ("GF-SWITCH", "GF-R-SWITCH-MAP", "GF-R-ENDS"), "mirror": ("GF-R-SWITCH-MAP",),
    "warning": ("GF-WARNING",),
    "number": _NUMBER, "numbers": _NUMBER, "guess": _NUMBER,
    "turnover": _TURNOVER, "turnovers": _TURNOVER, "fumble": _TURNOVER, "interception": _TURNOVER,
    "match": _MATCH, "matches": _MATCH, "bonus": ("GF-MATCH-NONE", "GF-MATCH-PLAY", "GF-R-NET"),
    "play": _PLAYS, "plays": _PLAYS, "breakaway": ("GF-PLAY-4", "GF-PLAY4-LOCK"), "locked": ("GF-PLAY4-LOCK", "GF-LOCK"),
    "unlock": ("GF-PLAY4-LOCK",), "defense": ("GF-R-DEFENSE-CALL", "GF-LOCK"), "offense": ("GF-LOCK", "GF-DIRECTION"),
    "forward": ("GF-DIRECTION", "GF-R-NET"), "backward": ("GF-DIRECTION", "GF-R-OWN-END-ZONE"),
    "safety": ("GF-R-OWN-END-ZONE",), "endzone": _END_ZONE, "zone": _END_ZONE, "goal": ("GF-BOARD", "GF-R-END-ZONE", "GF-TD"),
    "board": ("GF-BOARD",), "grid": ("GF-BOARD",), "toss": ("GF-TOSS", "GF-TOSS-2H", "GF-R-TOSS-CALL"),
    "coin": ("GF-TOSS", "GF-R-TOSS-CALL"), "heads": ("GF-TOSS", "GF-R-TOSS-CALL"), "tails": ("GF-TOSS", "GF-R-TOSS-CALL"),
    "syntax": ("GF-SYNTAX",), "write": ("GF-SYNTAX",),
}  # fmt: skip
