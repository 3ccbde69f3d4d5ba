"""Every rule id of Quarter Back, with a one-line statement.

``QB-*`` ids name rules of the rules document (``shared/seeds/001``); ``QB-R-*``
ids name the rulings recorded in ``rules_md/quarterback.md`` where the document
is silent, vague or lost its diagram.  :data:`RULES` states them with the default
numbers; :func:`rule_texts` states them as a given ruleset has them (the rules
lookup of a session), and :data:`RULE_WORDS` maps the words players use to them.
"""

from __future__ import annotations

from gm.games.quarterback.rules import QuarterbackRules, parse_square, square_name

_WORDS = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def _n(k: int) -> str:
    return _WORDS.get(k, str(k))


def _squares(k: int) -> str:
    return f"{_n(k)} square{'s' if k != 1 else ''}"


def _side(setup: dict[str, list[str]]) -> str:
    parts = []
    for field, label in (("quarterback", "QB"), ("singles", "Singles"), ("doubles", "Doubles"), ("triples", "Triples")):
        if setup[field]:
            parts.append(f"{label} {' '.join(square_name(parse_square(x)) for x in setup[field])}")
    return ", ".join(parts) or "nothing"


def _match_list(r: QuarterbackRules) -> str:
    """The six outcomes of a match as game-point scores, grouped into won, drawn and lost."""
    pts = {"W": (r.win_points, 0), "D": (r.draw_points, r.draw_points), "L": (0, r.win_points)}
    groups: dict[str, list[tuple[list[str], str]]] = {"win": [], "draw": [], "lose": []}
    for a, b in ("WW", "WD", "WL", "DD", "DL", "LL"):
        mine, theirs = pts[a][0] + pts[b][0], pts[a][1] + pts[b][1]
        group = groups["win" if mine > theirs else "lose" if mine < theirs else "draw"]
        score = f"{mine}-{theirs}"
        if group and group[-1][1] == score:
            group[-1][0].append(f"{a}+{b}")
        else:
            group.append(([f"{a}+{b}"], score))
    said = [
        " and ".join(f"{' and '.join(pairs)} {score}" for pairs, score in group) + f" {result}"
        for result, group in groups.items()
        if group
    ]
    return "The lost list of match outcomes: " + ", ".join(said)


def rule_texts(r: QuarterbackRules) -> dict[str, str]:
    """Rule id -> the rule as ruleset ``r`` has it (its numbers, board and set-up); with the default
    ruleset this is :data:`RULES`."""
    rows = r.field_rows
    last = chr(ord("A") + r.columns - 1)
    back = (
        "no unnumbered rows"
        if r.back_rows == 0
        else f"{r.back_rows} unnumbered row{'s' if r.back_rows > 1 else ''} ({', '.join(str(-i) for i in range(1, r.back_rows + 1))})"
    )
    single = "A Single moves one square in any direction" if r.single_moves == 1 else (
        f"A Single moves up to {_squares(r.single_moves)}, one at a time, in any direction")  # fmt: skip
    double = (
        "A Double moves as a Single and then, if wanted, another square in any direction"
        if r.double_moves == r.single_moves + 1
        else f"A Double moves up to {_squares(r.double_moves)}, one at a time, in any direction"
    )
    triple = (
        "A Triple moves as a Double with the option of yet another square in any direction"
        if r.triple_moves == r.double_moves + 1
        else f"A Triple moves up to {_squares(r.triple_moves)}, one at a time, in any direction"
    )
    qb_over = f"as a Triple plus {_squares(r.quarterback_extra)}" if r.quarterback_extra else "as a Triple too"
    turn = (
        "The attacker moves two pieces, or moves a piece and passes, or passes and moves a piece, or passes twice"
        if r.attack_actions == 2
        else f"The attacker has {_n(r.attack_actions)} action{'s' if r.attack_actions != 1 else ''} a turn, each moving a piece or passing"
    )
    columns = (
        f"Columns are numbered 1-{r.columns} from the attacker's left; an unnumbered row counts 0"
        if r.column_values is None
        else f"Columns score {', '.join(map(str, r.values))} from the attacker's left; an unnumbered row counts 0"
    )
    setup = "Default set-up" if r.attack == QuarterbackRules().attack and r.defense == QuarterbackRules().defense else "Set-up"
    sides = {k: getattr(r, k).model_dump() for k in ("attack", "defense")}
    toss = "Seats are red and blue; the engine's seeded coin decides who attacks first (no call is needed)"
    if r.first_attacker != "toss":
        toss += f"; this ruleset has no toss: {r.first_attacker} attacks first"
    fmt = 'A gm game of Quarter Back is a full match (two games, four halves); format = "game" plays a single game'
    if r.format == "game":
        fmt += " (as this ruleset does)"
    tackles = (
        "Tackles onto the square: Triples and Doubles tackle each other, same kinds included (a Triple tackles a Triple, "
        "the Quarterback or a Double), and so do Singles and Doubles; the Quarterback counts as a Triple"
        if r.tackle_reading == "groups"
        else "Tackles onto the square: Triple on Double, Double on Triple/Quarterback/Single, Single on Double; the "
        'Quarterback counts as a Triple; pieces of the same kind never (this ruleset\'s tackle_reading = "pairs")'
    )
    return {
        # --- the document
        "QB-HALVES": "A game is two halves: the pieces are set out afresh, the first half's attacker defends the second, the attacker moves first",
        "QB-TOSS": "A coin toss decides who attacks first",
        "QB-SCORE": "The attacker scores row + column of the square where the ball carrier is tackled",
        "QB-WIN": "The player who scores the most points wins the game",
        "QB-LOS": "The line of scrimmage lies between rows 0 and 1; row 0 and the unnumbered rows are behind it",
        "QB-MOVE-SINGLE": single,
        "QB-MOVE-DOUBLE": double,
        "QB-MOVE-TRIPLE": triple,
        "QB-MOVE-QB": f"A Quarterback starting its move behind the line moves as a Triple; starting on rows 1-{rows}, {qb_over}",
        "QB-OCCUPIED": "A piece can't move onto a square occupied by another piece, except when tackling the ball carrier",
        "QB-JUMP": "A piece can't jump over another piece",
        "QB-TURN": turn,
        "QB-SEQUENCE": "A piece moves its squares in one uninterrupted sequence; only a pass may come in between",
        "QB-OFFSIDE-TRIPLE": f"A defending Triple may not go over the line of scrimmage: it stays on rows 1-{rows}",
        "QB-OFFSIDE-LINE": f"A defending Double or Single may not be on rows 2-{rows} until an attacking Double or the Quarterback has moved over the line",
        "QB-STRENGTH": f"Blocking strengths: Single {r.single_strength}, Double {r.double_strength}, Triple {r.triple_strength}, Quarterback {r.quarterback_strength}",
        "QB-DIAGONAL": "A piece can't move diagonally past a piece of equal or greater blocking strength",
        "QB-ADJACENT": "A Triple or Quarterback may not be on a square next to an opposition Single",
        "QB-PUSH": "A piece can push only an opposition piece of weaker strength: one square on, in the direction the pusher moved",
        "QB-PUSH-SINGLE": "A Single pushes a Triple or a Quarterback without the ball by moving next to it: one square away along the line from the Single",
        "QB-PUSH-LIMIT": "No push onto an occupied square or off the board; no Triple or Quarterback is pushed next to an opposition Single",
        "QB-PUSH-CARRIER": "The ball carrier can't push at all",
        "QB-TACKLE": "Triples and Doubles tackle each other, Singles and Doubles tackle each other: the defender moves onto the carrier's square",
        "QB-TACKLE-SINGLE": "A Single tackles a Quarterback or Triple carrying the ball by moving onto a square next to it",
        "QB-PASS": "The ball carrier may pass any distance along a row, column or diagonal; the passer stays where it is",
        "QB-PASS-FORWARD": "Only the Quarterback passes forward, and only from a square behind the line of scrimmage",
        "QB-PASS-LINE": "The line of a pass must be free of attacking and defending pieces, apart from the receiver",
        "QB-PASS-LOOSE": "A pass may go to an empty square: the first piece to reach it picks the ball up",
        "QB-INTERCEPT": "A defender picking up a pass intercepts it: the half ends and the attacker scores nothing",
        "QB-BALL-START": "Each half the ball starts with the attacker's Quarterback",
        "QB-MATCH": f"A full match is two games, game two's first attacker defended first in game one; game points: {r.win_points} a win, {r.draw_points} a draw",
        # --- rulings (see rules_md/quarterback.md)
        "QB-R-BOARD": f"Board: {r.columns} columns A-{last}, numbered rows 0-{rows} and {back} behind row 0; the attacker plays up toward row {rows}",
        "QB-R-COLUMNS": columns,
        "QB-R-SETUP": f"{setup}: attack {_side(sides['attack'])}; defense {_side(sides['defense'])}",
        "QB-R-DEFENSE-QB": "The defense fields no Quarterback by default; one entered in a set-up plays as a Triple",
        "QB-R-TOSS": toss,
        "QB-R-DEFENSE-TURN": f"The defender moves up to {_n(r.defense_moves)} different piece{'s' if r.defense_moves != 1 else ''} a turn, each in one uninterrupted sequence",
        "QB-R-END": "A side may end its turn early, even having done nothing; the turn ends by itself when nothing more is allowed",
        "QB-R-WHISTLE": f"A half ends after {r.max_rounds} round{'s' if r.max_rounds != 1 else ''}: the carrier scores as if tackled where it stands; a loose ball scores nothing",
        "QB-R-ADJACENT": "Adjacent means the eight surrounding squares; only opposition Singles restrict Triples and Quarterbacks",
        "QB-R-DIAGONAL": "A diagonal step passes the two squares beside it; an opposition piece of equal or greater strength on either blocks it",
        "QB-R-TACKLE-PAIRS": tackles,
        "QB-R-PUSH-STEP": "A push is one step of the pusher's move: it takes the pushed piece's square, the piece goes one square on; the move may go on",
        "QB-R-PUSH-BLOCKED": "No move into a piece that can't be pushed or tackled; a Single may not move next to a Triple or Quarterback it can't push away",
        "QB-R-OFFSIDE": "Offside binds every square a defender moves onto; a push may leave it offside; the release lasts for the rest of the half",
        "QB-R-PICKUP": "A piece reaching the loose ball (moving through its square or pushed onto it) picks it up; an attacker may move on with it",
        "QB-R-PASS": "Forward means toward a higher row; any carrier may pass sideways or back from anywhere; a receiver is one of the attacker's pieces",
        "QB-R-MATCH-LIST": _match_list(r),
        "QB-R-FORMAT": fmt,
        "QB-R-NOTATION": "Squares are column letter + row (E7, E-1); a move names the piece and its path, each leg straight; a bare destination takes the straight route, else the first legal one; directions (S2 forward) are the moving side's own",
    }


#: every rule id with its statement under the default ruleset
RULES: dict[str, str] = rule_texts(QuarterbackRules())

# alike on purpose: every game has a table of this shape (a player's word -> the rule ids it means, read by
# Game.rule_words and the rules lookup); the words and the rules are each game's own
#: words players use for the rules, with the rule ids they mean (the rules lookup finds a rule by these
#: as well as by the words of its own text)
RULE_WORDS: dict[str, tuple[str, ...]] = {
    "toss": ("QB-TOSS", "QB-R-TOSS"),
    "coin": ("QB-TOSS", "QB-R-TOSS"),
    "first": ("QB-TOSS", "QB-R-TOSS", "QB-HALVES"),
    "offside": ("QB-OFFSIDE-TRIPLE", "QB-OFFSIDE-LINE", "QB-R-OFFSIDE"),
    "onside": ("QB-OFFSIDE-TRIPLE", "QB-OFFSIDE-LINE", "QB-R-OFFSIDE"),
    "released": ("QB-OFFSIDE-LINE", "QB-R-OFFSIDE"),
    "scrimmage": ("QB-LOS", "QB-OFFSIDE-LINE"),
    "line": ("QB-LOS", "QB-OFFSIDE-LINE", "QB-PASS-FORWARD"),
    "block": ("QB-STRENGTH", "QB-DIAGONAL", "QB-R-DIAGONAL"),
    "blocked": ("QB-STRENGTH", "QB-DIAGONAL", "QB-R-DIAGONAL", "QB-JUMP", "QB-PASS-LINE"),
    "blocking": ("QB-STRENGTH", "QB-DIAGONAL", "QB-R-DIAGONAL"),
    "strength": ("QB-STRENGTH", "QB-PUSH", "QB-DIAGONAL"),
    "strong": ("QB-STRENGTH",),
    "diagonal": ("QB-DIAGONAL", "QB-R-DIAGONAL"),
    "diagonally": ("QB-DIAGONAL", "QB-R-DIAGONAL"),
    "jump": ("QB-JUMP",),
    "over": ("QB-JUMP", "QB-LOS"),
    "occupied": ("QB-OCCUPIED",),
    "next": ("QB-ADJACENT", "QB-R-ADJACENT", "QB-TACKLE-SINGLE", "QB-PUSH-SINGLE"),
    "adjacent": ("QB-ADJACENT", "QB-R-ADJACENT"),
    "near": ("QB-ADJACENT", "QB-R-ADJACENT"),
    "push": ("QB-PUSH", "QB-PUSH-SINGLE", "QB-PUSH-LIMIT", "QB-PUSH-CARRIER", "QB-R-PUSH-STEP", "QB-R-PUSH-BLOCKED"),
    "pushing": ("QB-PUSH", "QB-PUSH-SINGLE", "QB-PUSH-LIMIT", "QB-PUSH-CARRIER", "QB-R-PUSH-STEP", "QB-R-PUSH-BLOCKED"),
    "shove": ("QB-PUSH", "QB-PUSH-SINGLE"),
    "tackle": ("QB-TACKLE", "QB-TACKLE-SINGLE", "QB-R-TACKLE-PAIRS", "QB-SCORE"),
    "tackling": ("QB-TACKLE", "QB-TACKLE-SINGLE", "QB-R-TACKLE-PAIRS"),
    "sack": ("QB-TACKLE", "QB-TACKLE-SINGLE"),
    "pass": ("QB-PASS", "QB-PASS-FORWARD", "QB-PASS-LINE", "QB-PASS-LOOSE", "QB-R-PASS"),
    "passing": ("QB-PASS", "QB-PASS-FORWARD", "QB-PASS-LINE", "QB-PASS-LOOSE", "QB-R-PASS"),
    "throw": ("QB-PASS", "QB-PASS-FORWARD", "QB-PASS-LINE", "QB-R-PASS"),
    "forward": ("QB-PASS-FORWARD", "QB-R-PASS", "QB-R-NOTATION"),
    "direction": ("QB-R-NOTATION",),
    "directions": ("QB-R-NOTATION",),
    "left": ("QB-R-NOTATION", "QB-R-COLUMNS"),
    "right": ("QB-R-NOTATION",),
    "loose": ("QB-PASS-LOOSE", "QB-R-PICKUP", "QB-INTERCEPT"),
    "fumble": ("QB-PASS-LOOSE", "QB-R-PICKUP"),
    "pickup": ("QB-R-PICKUP", "QB-PASS-LOOSE"),
    "intercept": ("QB-INTERCEPT", "QB-R-PICKUP"),
    "interception": ("QB-INTERCEPT", "QB-R-PICKUP"),
    "ball": ("QB-BALL-START", "QB-PASS-LOOSE", "QB-PUSH-CARRIER"),
    "carrier": ("QB-PUSH-CARRIER", "QB-TACKLE", "QB-SCORE"),
    "score": ("QB-SCORE", "QB-R-COLUMNS", "QB-WIN"),
    "scoring": ("QB-SCORE", "QB-R-COLUMNS"),
    "points": ("QB-SCORE", "QB-R-COLUMNS", "QB-MATCH"),
    "column": ("QB-R-COLUMNS", "QB-SCORE"),
    "columns": ("QB-R-COLUMNS", "QB-R-BOARD"),
    "row": ("QB-SCORE", "QB-R-BOARD", "QB-LOS"),
    "rows": ("QB-R-BOARD", "QB-LOS"),
    "board": ("QB-R-BOARD", "QB-R-COLUMNS"),
    "field": ("QB-R-BOARD",),
    "setup": ("QB-R-SETUP", "QB-HALVES"),
    "set-up": ("QB-R-SETUP", "QB-HALVES"),
    "start": ("QB-R-SETUP", "QB-BALL-START", "QB-HALVES"),
    "single": ("QB-MOVE-SINGLE", "QB-ADJACENT", "QB-PUSH-SINGLE", "QB-TACKLE-SINGLE"),
    "singles": ("QB-MOVE-SINGLE", "QB-ADJACENT", "QB-PUSH-SINGLE", "QB-TACKLE-SINGLE"),
    "double": ("QB-MOVE-DOUBLE",),
    "doubles": ("QB-MOVE-DOUBLE",),
    "triple": ("QB-MOVE-TRIPLE", "QB-OFFSIDE-TRIPLE"),
    "triples": ("QB-MOVE-TRIPLE", "QB-OFFSIDE-TRIPLE"),
    "quarterback": ("QB-MOVE-QB", "QB-BALL-START", "QB-PASS-FORWARD", "QB-R-DEFENSE-QB"),
    "qb": ("QB-MOVE-QB", "QB-BALL-START", "QB-PASS-FORWARD", "QB-R-DEFENSE-QB"),
    "move": ("QB-MOVE-SINGLE", "QB-MOVE-DOUBLE", "QB-MOVE-TRIPLE", "QB-MOVE-QB", "QB-SEQUENCE"),
    "moves": ("QB-MOVE-SINGLE", "QB-MOVE-DOUBLE", "QB-MOVE-TRIPLE", "QB-MOVE-QB", "QB-SEQUENCE"),
    "squares": ("QB-MOVE-SINGLE", "QB-MOVE-DOUBLE", "QB-MOVE-TRIPLE", "QB-MOVE-QB"),
    "sequence": ("QB-SEQUENCE",),
    "turn": ("QB-TURN", "QB-R-DEFENSE-TURN", "QB-R-END", "QB-SEQUENCE"),
    "turns": ("QB-TURN", "QB-R-DEFENSE-TURN", "QB-R-END"),
    "actions": ("QB-TURN", "QB-R-DEFENSE-TURN"),
    "end": ("QB-R-END",),
    "defense": ("QB-R-DEFENSE-TURN", "QB-R-DEFENSE-QB", "QB-OFFSIDE-LINE", "QB-OFFSIDE-TRIPLE"),
    "defender": ("QB-R-DEFENSE-TURN", "QB-R-DEFENSE-QB", "QB-OFFSIDE-LINE", "QB-OFFSIDE-TRIPLE"),
    "attack": ("QB-TURN", "QB-HALVES", "QB-BALL-START"),
    "attacker": ("QB-TURN", "QB-HALVES", "QB-BALL-START"),
    "half": ("QB-HALVES", "QB-R-WHISTLE"),
    "halves": ("QB-HALVES", "QB-R-WHISTLE"),
    "whistle": ("QB-R-WHISTLE",),
    "time": ("QB-R-WHISTLE",),
    "rounds": ("QB-R-WHISTLE",),
    "clock": ("QB-R-WHISTLE",),
    "win": ("QB-WIN", "QB-MATCH", "QB-R-MATCH-LIST"),
    "winner": ("QB-WIN", "QB-MATCH", "QB-R-MATCH-LIST"),
    "draw": ("QB-MATCH", "QB-R-MATCH-LIST"),
    "match": ("QB-MATCH", "QB-R-MATCH-LIST", "QB-R-FORMAT"),
    "game": ("QB-WIN", "QB-R-FORMAT", "QB-HALVES"),
    "notation": ("QB-R-NOTATION",),
    "write": ("QB-R-NOTATION",),
}
