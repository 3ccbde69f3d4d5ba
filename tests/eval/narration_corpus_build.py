"""Build the narration corpora (``gm/games/<game>/eval/narrations.toml``) from seeded games.

``python tests/eval/narration_corpus_build.py [GAME ...]`` plays a seeded game of each game with
every seat choosing a seeded random legal move, picks turns with the events worth narrating (and a
few messages that make no move), and writes for each turn narrations a referee model could give:
true ones - paraphrases of the engine's events in other words, scores and downs restated, hedges,
conditionals, rules talk, quotes - and false ones, each getting one kind of claim wrong (a square
that is on the board but not where the ball went, a down off by one, a touchdown that did not
happen, a move claimed when none was made ...).  The file written is the corpus: review it, commit
it; ``gm.eval.narration.measure`` (tests/eval/test_narration_corpus.py, ``python -m bench --only
narration``) runs the check on it.  The narrations are written from the engine's facts of each
turn by the templates below, never by running the check.
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gm.core.narration import Facts, state_of
from gm.core.registry import find_game
from gm.eval.narration import Play, Turn, play_facts
from gm.games.grid_football.narration import _rows as gf_rows
from gm.games.gridmaster4.narration import _cells as gm4_cells

ROOT = Path(__file__).resolve().parents[2]
PREFIX = {"grid-football": "gf", "gridmaster4": "gm4", "quarterback": "qb", "brawl": "br", "chess-football": "cf"}


@dataclass
class Written:
    """The narrations written for one turn (``n``: the turn's number, to vary the wording)."""

    n: int = 0
    true: list[str] = field(default_factory=list)
    false: list[tuple[str, str]] = field(default_factory=list)  # (kind, text)

    def t(self, *texts: str) -> None:
        self.true.extend(texts)

    def f(self, kind: str, *texts: str) -> None:
        self.false.extend((kind, x) for x in texts)

    def one(self, *options: str) -> str:
        """One of ``options``, a different one from turn to turn."""
        return options[self.n % len(options)]


# ------------------------------------------------------------------ playing
def random_game(game_id: str, seed: int, rules: Mapping[str, Any], limit: int = 3000) -> tuple[list[tuple[str, str]], list[list[Any]], list[list[str]]]:
    """A seeded game, every seat choosing a random legal move: the moves, each move's events, and
    who was to act before each move."""
    g = find_game(game_id)
    st = g.new_state(g.load_rules(dict(rules)), seed, chance="mt19937")  # what the corpora are written with (no 'chance' key)
    rng = random.Random(seed)
    moves: list[tuple[str, str]] = []
    events: list[list[Any]] = []
    acting: list[list[str]] = []
    while not st.is_terminal and len(moves) < limit:
        to_act = list(st.to_act())
        seat = to_act[0]
        action = st.legal_actions(seat).sample(rng)
        acting.append(to_act)
        moves.append((seat, str(action)))
        events.append(st.apply(seat, action))
    return moves, events, acting


def turn_spans(moves: list[tuple[str, str]], acting: list[list[str]]) -> Iterator[tuple[int, int]]:
    """(first move, count) of each message: a seat's move and the other seats' moves after it, until
    that seat is to act again (at most 4 moves) - what a referee's call returns with the bots' replies."""
    i = 0
    while i < len(moves):
        seat = moves[i][0]
        j = i + 1
        while j < len(moves) and j - i < 4 and seat not in acting[j]:
            j += 1
        yield i, j - i
        i = j


# ------------------------------------------------------------------ helpers for templates
def ev(f: Facts, kind: str) -> list[Mapping[str, Any]]:
    return [e for e in f.events if e.get("kind") == kind]


def first(f: Facts, kind: str) -> Mapping[str, Any] | None:
    found = ev(f, kind)
    return found[0] if found else None


def board(f: Facts, at: int = -1) -> dict[str, int]:
    return dict(f.boards[at]) if f.boards else {}


def other(seats: tuple[str, ...], seat: str) -> str:
    return next(s for s in seats if s != seat)


def shift_square(sq: str, dc: int, dr: int, cols: str, rows: range) -> str | None:
    m = re.fullmatch(r"([A-Z])(-?[0-9]+)", sq)
    if not m:
        return None
    c = chr(ord(m.group(1)) + dc)
    r = int(m.group(2)) + dr
    return f"{c}{r}" if c in cols and r in rows else None


ORD = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
WORD = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def common(f: Facts, w: Written, *, moved: bool) -> None:
    """The claims every game shares: a move made (or not), the game over, the winner, the score."""
    seats = f.seats
    me = f.seat or seats[0]
    rival = other(seats, me)
    b = board(f)
    if moved:
        w.f("nothing happened", w.one("I couldn't turn that into a move the rules allow. Could you rephrase?",
                                      "Hmm, I couldn't make that move. Please rephrase.",
                                      "Nothing happened - I could not process that. Try again?"))
        w.f("nothing happened", w.one("Sorry, no move was made this time.", "Nothing changed: I wasn't able to make the move.",
                                      "That didn't work, so nothing has happened yet. Could you rephrase?"))
        w.t(w.one("Your move is in.", "Done - the engine took your move.", "Locked in and played.", "All done, your move was made."))
    else:
        w.f("move made", w.one("Done! I've made your move.", "All set: your move is in.", "Your move has been made.",
                               "Locked in - I've submitted it for you."))
        w.f("move made", w.one(f"I've played that for you, {me}.", "Done.", "Your pick is in!", "OK, I've made the call."))
        w.t(w.one("Tell me what you want to do and I'll make the call.", "Nothing has changed yet: it's still your decision.",
                  "Which move would you like? Say it and I'll send it.", "I haven't made any move for you yet - what's your call?"))
        w.t(w.one("Shall I make that move for you?", "When you're done thinking, tell me your move.",
                  "If you want, I can list the legal moves.", "Once you decide, I'll lock it in."))
    if not f.over:
        w.f("game over", w.one("And that's game over!", "What a finish - game over.", "The game is over now.", "Game over, folks."))
        w.f("winner", w.one(f"{me} wins the game!", f"Congratulations, {rival} has won the game.", f"{rival} wins!", f"You win, {me}!"))
        w.t(w.one("The game goes on.", "No winner yet - plenty of game left.", "Nobody has won yet.", "It isn't over: keep going."))
    else:
        winner = next(iter(sorted(f.winners)), None)
        if winner:
            w.t(w.one(f"That's the game: {winner} wins!", f"Game over - {winner} won the game."))
            w.f("winner", f"{other(seats, winner)} wins the game!")
        elif f.drawn:
            w.t("It ends in a draw.")
            w.f("winner", f"{me} wins the game!")
    if b and len(b) == 2:
        (a, x), (c, y) = sorted(b.items())
        w.t(w.one(f"The score is {a} {x} - {y} {c}.", f"Score: {c} {y} - {x} {a}.", f"On the scoreboard it's {a} {x}, {c} {y}."))
        w.f("score", w.one(f"The score is {a} {x + 7} - {y} {c}.", f"Score: {c} {y + 3} - {x} {a}.", f"{a} {x}, {c} {y + 6} on the scoreboard."))
        if x == y:
            w.t(w.one(f"It's still level at {x}-{y}.", f"The score is tied, {x}-{y}."))
            w.f("score", w.one(f"{a} leads {x + 3}-{y}.", f"{c} is ahead {y + 7} to {x}."))
        else:
            lead, trail = (a, c) if x > y else (c, a)
            w.t(w.one(f"{lead} leads {max(x, y)}-{min(x, y)}.", f"{trail} trails {min(x, y)}-{max(x, y)}."))
            w.f("score", w.one(f"{trail} leads {max(x, y)}-{min(x, y)}.", f"It's tied at {x}."))


def rules_talk(w: Written, *texts: str) -> None:
    """Rules answers: they name events and values without claiming them."""
    w.t(w.one(*texts))


# ------------------------------------------------------------------ Grid Football
def grid_football(f: Facts, w: Written, moved: bool) -> None:
    common(f, w, moved=moved)
    cols, rows = "ABCDEFGHIJKLMNOPQRST", range(1, 65)
    view = state_of(f.views[-1]) if f.views else {}
    ball = str(view.get("ball") or "")
    blocked = [s for s in view.get("blocked") or [] if s != ball]
    status = f.statuses[-1] if f.statuses else ""
    mv = first(f, "moved")
    if mv:
        frm, to, gained = str(mv["frm"]), str(mv["to"]), int(mv.get("gained", 0))
        n = abs(gained)
        word = "gained" if gained >= 0 else "lost"
        w.t(w.one(f"The ball goes from {frm} to {to}.", f"From {frm} the ball moves to {to}.", f"The run takes the ball to {to}."))
        w.t(w.one(f"{n} row{'s' if n != 1 else ''} {word}: the ball is now on {to}.", f"That's {n} row{'s' if n != 1 else ''} {word}; ball at {to}."))
        said = {q for text in f.texts(recent=False) for q in re.findall(r"[A-T][0-9]+", text)} | {ball}
        wrong = next((q for q in blocked if q not in said), None) or shift_square(to, 1, 0, cols, rows)
        if wrong:
            w.f("square", w.one(f"The ball moves to {wrong}.", f"The run ends at {wrong}.", f"Great gain - the ball goes to {wrong}."))
        w.f("ball at", w.one(f"The ball sits on row {int(to[1:]) + 9}.", f"The ball is at {shift_square(to, 2, 3, cols, rows) or 'A1'} now."))
    m = re.search(r"([1-4])(?:st|nd|rd|th) & (\d+|goal)", status)
    if m:
        k, togo = int(m.group(1)), m.group(2)
        w.t(w.one(f"That makes it {ORD[k]} & {togo}.", f"It's {WORD[k]} and {togo} now.", f"{ORD[k]} down and {togo} to go."))
        wrong_togo = str(int(togo) + 2) if togo.isdigit() else "3"
        w.f("down and distance", w.one(f"That makes it {ORD[1 + k % 4]} & {togo}.", f"It's {WORD[k]} and {wrong_togo} now.",
                                       f"{ORD[k]} & {wrong_togo} coming up."))
    if "touchdown" in f.kinds:
        td = first(f, "touchdown")
        w.t(w.one(f"TOUCHDOWN {td['team']}!" if td else "Touchdown!", "Touchdown - into the end zone!"))
    else:
        w.t(w.one("No touchdown on that one.", "If you reach the goal line it would be a touchdown.", "Still no score: the end zone is a long way off."))
        w.f("a touchdown", w.one("Touchdown! What a drive.", "He's in - TOUCHDOWN!", "That's a touchdown!"))
    if "turnover" in f.kinds:
        w.t(w.one("That's a turnover: possession changes.", "Turnover - the other side takes the ball."))
    else:
        w.t(w.one("A colour match could mean a turnover, so watch your picks.", "No turnover this time.", "You avoided a turnover."))
        w.f("a turnover", w.one("Fumble! The defense takes over.", "Intercepted! That's a turnover.", "Turnover - possession changes hands."))
    if not ({"first_down", "first_and_ten"} & (f.kinds | f.recent_kinds)) and "1st &" not in status:
        w.f("a first down", w.one("First down! The chains move.", "That's a first down.", "And that's good for a first down!"))
    if "first_down" in f.kinds:
        w.t("First down - a fresh set of downs.")
    ltg = view.get("line_to_gain")
    if isinstance(ltg, int) and not f.over:
        w.t(w.one(f"The line to gain is row {ltg}.", f"You need to reach row {ltg} for a first down."))
        w.f("line to gain", w.one(f"The line to gain is row {ltg + 6}.", f"You need to reach row {max(1, ltg - 7)} for a first down."))
    if status:
        w.t(w.one(f"Where things stand: {status}", f"Status: {status}"))
    bad_row = next(r for r in (62, 3, 57, 8, 50, 14) if str(r) not in gf_rows(f))
    w.f("row", w.one(f"The defense is stacked on row {bad_row}.", f"Watch out for row {bad_row}: that's where the trouble is."))
    if ball and not mv:
        w.t(w.one(f"The ball is on {ball}.", f"Ball on {ball}."))
        wrong = next(iter(blocked), None) or shift_square(ball, 2, 0, cols, rows)
        if wrong:
            w.f("ball at", w.one(f"The ball is on {wrong}.", f"Ball on {wrong}, by my count."))
    kr = first(f, "kick_return")
    if kr:
        at = str(kr.get("at"))
        w.t(f"{kr['receiver']} brings the kick back to {at}.")
        w.f("square", f"{kr['receiver']} returns it all the way to {shift_square(at, 0, 6, cols, rows) or 'A1'}.")
    rules_talk(w, "Remember: play 4 is the pass, locked early in the game.", "A touchdown needs the ball over the goal line.",
               "Blocked squares stop a run, so plan around them.", "On 4th down you may punt.")
    for e in f.events[:2]:
        if e.get("kind") not in ("locked",):
            w.t(f"Here's what happened: {e['text']}.")
            break


# ------------------------------------------------------------------ GridMaster4
def gridmaster4(f: Facts, w: Written, moved: bool) -> None:
    common(f, w, moved=moved)
    me = f.seat or f.seats[0]
    b = board(f)
    cols, rows = "ABCDEFGHIJKLMNOPQRST", range(1, 21)
    placed = [(str(e["seat"]), int(e["number"]), str(e["cell"])) for e in ev(f, "placed")]
    view = state_of(f.views[-1]) if f.views else {}
    occupied = [str(t.get("cell")) for t in view.get("tiles") or [] if isinstance(t, Mapping) and t.get("cell")]
    if b:
        ranked = sorted(b.items(), key=lambda kv: (-kv[1], kv[0]))
        w.t(w.one("Scores: " + ", ".join(f"{s} {v}" for s, v in sorted(b.items())) + ".",
                  f"{ranked[0][0]} has {ranked[0][1]} points.", f"You have {b.get(me, 0)} points, {me}."))
        lo = ranked[-1]
        w.f("score", w.one(f"{lo[0]} has {lo[1] + 5} points.",
                           "Scores: " + ", ".join(f"{s} {v + (3 if s == lo[0] else 0)}" for s, v in sorted(b.items())) + ".",
                           f"{lo[0]} leads {lo[1] + 9} - {ranked[0][1]}."))
        if ranked[0][1] > ranked[1][1]:
            w.t(w.one(f"{ranked[0][0]} leads.", f"{ranked[0][0]} is in the lead."))
        if lo[1] < ranked[0][1]:
            w.f("score", f"{lo[0]} leads.")
    here = {c for _, _, c in placed} | {str(e.get("cell")) for e in f.recent_events if e.get("kind") == "placed"}
    for seat, num, cell in placed[:2]:
        who = "your" if seat == me else f"{seat}'s"
        w.t(w.one(f"{seat} places tile {num} at {cell}.", f"Tile {num} goes down on {cell} for {seat}.", f"{cell} gets {who} tile {num}."))
        others = [c for c in occupied if c not in here] or [shift_square(cell, 1, 1, cols, rows) or "A1"]
        wrong = others[(w.n + num) % len(others)]
        w.f("placements", w.one(f"{seat} places tile {num} at {wrong}.", f"Tile {num} goes to {wrong}.", f"Placed tile {num} at {wrong}."))
        w.f("placements", w.one(f"{seat} put it on {wrong}.", f"That tile was placed on {wrong}.", f"{seat} drops a tile onto {wrong}."))
        w.f("tile", f"{seat} places tile {num + 40} on the board.")
    mine = [p for p in placed if p[0] == me]
    if mine and len(placed) > 1:
        _, num, cell = mine[0]
        rival_cell = next(c for s, _, c in placed if s != me)
        w.t(f"Your tile {num} is on {cell}.")
        w.f("placements", f"Your tile {num} is on {rival_cell}.")
    known = gm4_cells(f)
    empty = next((f"{c}{r}" for r in (9, 1, 5, 8, 2) for c in "IAEHB" if f"{c}{r}" not in known), None)
    if empty:
        w.f("cell", w.one(f"{me}'s best tile sits at {empty}.", f"There is an active tile on {empty}."))
    if "deactivated" in f.kinds:
        w.t(w.one("Some tiles turn inactive.", "That makes a tile inactive."))
    elif "deactivated" not in f.recent_kinds:
        w.f("an inactive tile", w.one("Two tiles are now inactive.", "That deactivates a rival tile."))
    if "blocked" in f.kinds:
        who = str(f.texts(("blocked",), recent=False)[0]).split()[0]
        w.t(f"{who} is blocked now.")
    else:
        free = [s for s in f.seats if not _blocked_now(f, s)]
        if free:
            w.f("blocked", w.one(f"{free[0]} is blocked now.", f"{free[-1]} has no legal move: blocked."))
        if len(free) == len(f.seats) and "blocked" not in f.recent_kinds:
            w.f("a blocked player", w.one("Someone just got blocked.", "One player is blocked: no legal move."))
    if "free_round" not in (f.kinds | f.recent_kinds):
        w.f("a free placement", w.one("That opens a free round.", "Free placements for everyone!"))
    rules_talk(w, "A tile goes exactly 3 cells up, down, left or right, or 2 diagonally, from your active tile.",
               "When every player is blocked the largest tile wins.", "Inactive tiles stay on the board but cannot be built on.",
               "If you cannot move you are blocked.")
    status = f.statuses[-1] if f.statuses else ""
    if status:
        w.t(f"Status: {status}")


def _blocked_now(f: Facts, seat: str) -> bool:
    for p in (state_of(f.views[-1]) if f.views else {}).get("players") or []:
        if isinstance(p, Mapping) and p.get("seat") == seat and p.get("status") == "blocked":
            return True
    return False


# ------------------------------------------------------------------ Quarter Back
def quarterback(f: Facts, w: Written, moved: bool) -> None:
    common(f, w, moved=moved)
    squares = [f"{c}{r}" for c in "ABCDEFGHI" for r in range(-2, 12)]
    view = state_of(f.views[-1]) if f.views else {}
    pieces: Mapping[str, Any] = view.get("pieces") or {}
    taken = sorted({str(sq) for side in pieces.values() if isinstance(side, Mapping) for sq in side.values()})
    for e in ev(f, "move")[:2]:
        piece = str(e["piece"])  # "red Single S2"
        path = re.findall(r"[A-I]-?[0-9]+", str(e["path"]))
        end = path[-1]
        short = piece.split()[-1]
        w.t(w.one(f"{short} moves to {end}.", f"{piece} steps up to {end}.", f"{piece} goes to {end}."))
        wrong = next((q for q in taken if q != end and q not in path), None) or "A9"
        w.f("square", w.one(f"{short} moves to {wrong}.", f"{piece} moves on to {wrong}.", f"{piece} advances to {wrong}."))
    ps = first(f, "pass")
    if ps:
        w.t(f"The pass goes to {ps['to']}.")
        w.f("square", f"The quarterback passes to {next(iter(q for q in squares if q != ps['to'] and q not in taken), 'A9')}.")
    sc = first(f, "score")
    if sc:
        w.t(w.one(f"{sc['attacker']} scores {sc['points']}.", f"That's {sc['points']} points: {sc['attacker']} scores {sc['points']}."))
        w.f("points", f"{sc['attacker']} scores {int(sc['points']) + 4}.")
    else:
        w.f("points", w.one("Red scores 5 on that.", "That side scores 7."))
    if "tackle" in f.kinds:
        w.t("Tackled!")
    else:
        w.t(w.one("If he reaches the line he could be tackled.", "No tackle this time.", "A tackle ends the attack; tackles score by the square."))
        w.f("a tackle", w.one("Tackled! What a hit.", "The carrier is tackled.", "S1 tackles the quarterback."))
    if "intercept" not in (f.kinds | f.recent_kinds):
        w.f("an interception", w.one("Intercepted!", "Picked off by the defense!"))
    if "push" not in (f.kinds | f.recent_kinds):
        w.f("a push", w.one("He pushes the Double back.", "D2 pushed the quarterback aside."))
    else:
        w.t("A push moves the carrier.")
    ball = view.get("ball") or {}
    if isinstance(ball, Mapping) and ball.get("square"):
        w.t(f"The ball is on {ball['square']}.")
    rules_talk(w, "The carrier scores the row plus the column when held.", "Triples move up to 3 squares.",
               "A pass lands on an empty square or a team-mate.", "Each side has two actions a turn.")
    status = f.statuses[-1] if f.statuses else ""
    if status:
        w.t(f"Status: {status}")
        m = re.search(r"game (\d+): (\w+) (\d+) - (\d+) (\w+)", status)
        if m:
            a, x, y, c = m.group(2), int(m.group(3)), int(m.group(4)), m.group(5)
            w.t(f"In game {m.group(1)} it's {a} {x} - {y} {c}.")
            w.f("score", f"In game {m.group(1)} it's {a} {x + 5} - {y} {c}.")


# ------------------------------------------------------------------ brawl
ZONES = ("DL", "DM", "DR", "ML", "MM", "MR", "SL", "SM", "SR", "BL", "BM", "BR")


def brawl(f: Facts, w: Written, moved: bool) -> None:
    common(f, w, moved=moved)
    me = f.seat or f.seats[0]
    status = f.statuses[-1] if f.statuses else ""
    m = re.search(r"([1-4])(?:st|nd|rd|th) & (\d+|goal)", status)
    if m:
        k, togo = int(m.group(1)), m.group(2)
        w.t(w.one(f"That makes it {ORD[k]} & {togo}.", f"It's {WORD[k]} and {togo}.", f"{ORD[k]} down and {togo} to go."))
        wrong = str(int(togo) + 3) if togo.isdigit() else "4"
        w.f("down and distance", w.one(f"That makes it {ORD[1 + k % 4]} & {togo}.", f"It's {WORD[k]} and {wrong}.", f"{ORD[k]} & {wrong} next."))
    at = re.search(r"\b(own|opp) (\d+)", status)
    if at:
        side, n = at.group(1), int(at.group(2))
        w.t(w.one(f"The ball is at {side} {n}.", f"Ball on the {side} {n}."))
        w.f("field position", w.one(f"The ball is at {side} {max(1, n - 12)}.", f"Ball on the {'opp' if side == 'own' else 'own'} {min(49, n + 11)}."))
    y = first(f, "yards")
    if y:
        n = int(y["yards"])
        w.t(w.one(f"{y['offense']} gains {n} yards.", f"A gain of {n}: {y['offense']} gains {n} yards."))
        w.f("yards", w.one(f"{y['offense']} gains {n + 17} yards.", f"{y['offense']} gains {n + 5} yards on the play."))
    z = first(f, "zones")
    if z:
        won = re.findall(r"\b([BMSFD][LMR])\b", str(z["zones"]))
        if won:
            w.t(f"{z['offense']} wins {won[0]}.")
            lost = next((q for q in ZONES if q not in won), "MM")
            w.f("zone", f"{z['offense']} wins {lost}.")
            w.f("zone", f"{other(f.seats, str(z['offense']))} wins {won[0]}.")
    else:
        w.f("zone", w.one("Home wins MM on strength.", "You win the zone DL."))
    for kind, claim, true_text, false_texts in (
        ("touchdown", "a touchdown", "TOUCHDOWN!", ("Touchdown!", "They score a touchdown!")),
        ("sack", "a sack", "Sacked in the backfield!", ("Sacked!", "The quarterback is sacked.")),
        ("fumble", "a turnover", "Fumble - the defense takes over!", ("Fumble! Turnover!", "That's a turnover.")),
        ("first_down", "a first down", "First down!", ("Moving the chains: first down!", "That's a first down.")),
        ("field_goal", "a field goal", "The field goal is good!", ("The field goal is good!", "They kick a field goal - good!")),
    ):
        if kind in f.kinds:
            w.t(true_text)
        elif kind not in f.recent_kinds and not (kind == "first_down" and "1st &" in status) and not (
                kind == "fumble" and {"punt", "possession", "downs", "interception"} & (f.kinds | f.recent_kinds)):
            w.f(claim, w.one(*false_texts))
    if "locked" in f.kinds and "reveal" not in f.kinds:
        w.t(f"{other(f.seats, me)} has its cards locked; waiting for yours.")
    rules_talk(w, "A sack means no zones count.", "On 4th down you can punt or go for it.",
               "Winning the backfield is a sack.", "A touchdown is worth 7.")
    if status:
        w.t(f"Status: {status}")


# ------------------------------------------------------------------ Chess-Football
def chess_football(f: Facts, w: Written, moved: bool) -> None:
    common(f, w, moved=moved)
    status = f.statuses[-1] if f.statuses else ""
    view = state_of(f.views[-1]) if f.views else {}
    pieces = [p for p in view.get("pieces") or [] if isinstance(p, Mapping)]
    taken = sorted({str(p.get("square")) for p in pieces if p.get("square")})
    for e in ev(f, "move")[:2]:
        piece, to = str(e["piece"]), str(e["to"])
        w.t(w.one(f"{piece} moves to {to}.", f"{piece} steps up to {to}.", f"{piece} goes to {to}."))
        wrong = next((q for q in taken if q != to and q != e.get("frm")), "P48")
        w.f("square", w.one(f"{piece} moves to {wrong}.", f"{piece} runs to {wrong}.", f"{piece} goes to {wrong}."))
    m = re.search(r"([1-4])(?:st|nd|rd|th) & (\d+|goal)", status)
    if m:
        k, togo = int(m.group(1)), m.group(2)
        w.t(w.one(f"It's {ORD[k]} & {togo}.", f"{WORD[k].capitalize()} and {togo}."))
        wrong = str(int(togo) + 3) if togo.isdigit() else "2"
        w.f("down and distance", w.one(f"It's {ORD[1 + k % 4]} & {togo}.", f"{WORD[k].capitalize()} and {wrong}."))
    rolled = {int(x) for text in f.texts() for x in re.findall(r"rolls? (?:a )?([1-6])", text)}
    unrolled = [r for r in (6, 4, 2, 5, 1, 3) if r not in rolled]
    ps = first(f, "pass")
    if ps:
        w.t(f"The quarterback rolls {ps['roll']} on the pass.")
    if unrolled:
        w.f("roll", w.one(f"The quarterback rolls a {unrolled[0]}!", f"He rolls {unrolled[0]} on the pass."))
    for kind, claim, false_texts in (
        ("touchdown", "a touchdown", ("Touchdown!", "He carries it into the end zone - touchdown!")),
        ("whistle", "a tackle", ("The runner is tackled!", "Tackled at the line.")),
        ("interception", "an interception", ("Intercepted!", "The pass is intercepted.")),
        ("complete", "a complete pass", ("Complete pass!", "The pass is complete.")),
        ("incomplete", "an incomplete pass", ("Incomplete!", "The pass falls incomplete.")),
    ):
        if kind in f.kinds:
            w.t({"touchdown": "Touchdown!", "whistle": "The whistle goes: he is down.", "interception": "Intercepted!",
                 "complete": "Complete pass!", "incomplete": "Incomplete."}[kind])
        elif kind not in f.recent_kinds and not (kind == "whistle" and "tackle" in (f.kinds | f.recent_kinds)):
            w.f(claim, w.one(*false_texts))
    before = f.statuses[0] if f.statuses else ""
    spot = re.compile(r"1st &[^|]*")
    now, was = spot.search(status), spot.search(before)
    if "first_down" in f.kinds or (now and (not was or was.group(0) != now.group(0))):
        w.t("First down!")
    elif "first_down" not in f.recent_kinds:
        w.f("a first down", w.one("First down!", "That's a first down for the offense."))
    rules_talk(w, "A pass is complete on a roll of 4 or more, with modifiers.", "A touchdown is worth 7.",
               "The whistle blows after the last turn of a down.", "Pieces block the way; plan your path.")
    if status:
        w.t(f"Status: {status}")


BUILDERS: dict[str, tuple[Callable[[Facts, Written, bool], None], int, dict[str, Any], set[str], int]] = {
    # game: (templates, seed, rules, event kinds worth a turn, messages that make no move)
    "grid-football": (grid_football, 6, {}, {"touchdown", "turnover", "first_down", "moved", "kick_return", "game_over", "number_reveal"}, 3),
    "gridmaster4": (gridmaster4, 0, {"columns": 9, "rows": 9}, {"placed", "deactivated", "blocked", "free_round", "game_over", "play_begins"}, 3),
    "quarterback": (quarterback, 1, {"format": "game", "max_rounds": 4},
                    {"move", "pass", "score", "push", "pick_up", "released", "game_over", "half_start", "end_turn"}, 3),
    "brawl": (brawl, 1, {}, {"yards", "zones", "touchdown", "sack", "fumble", "first_down", "punt", "field_goal", "game_over", "go_for_it", "downs"}, 3),
    "chess-football": (chess_football, 2, {"possessions_per_half": 1, "max_turns_per_down": 2},
                       {"pass", "complete", "incomplete", "whistle", "first_down", "turnover", "punt", "down", "collision", "game_over", "move"}, 3),
}


#: narrations written by hand for some turns, in freer words than the templates (the corpus's held-out
#: part: written from the events shown beside each turn in the corpus, not from the check)
EXTRA: dict[str, dict[str, tuple[list[str], list[tuple[str, str]]]]] = {
    "grid-football": {
        "gf-03": (["Both sides picked play 3, so the defense read it: a one-row loss and the ball sits on K46.",
                   "Play match! Away drops back to K46, and K46 is blocked from now on. That brings up 2nd & 11."],
                  [("square", "Play match, but away still gains 2 rows to K48."), ("down and distance", "That's 3rd & 11 for away."),
                   ("a turnover", "The defense matched, so it's a turnover!")]),
        "gf-06": (["The numbers matched, six and six, so it's a turnover: home takes over at K43, 1st & 10.",
                   "Turnover! You have the ball now at K43, attacking row 59."],
                  [("a touchdown", "The numbers matched and home runs it back for a touchdown!"), ("ball at", "The ball is at K45 now."),
                   ("score", "home leads 1-0 after that turnover.")]),
        "gf-07": (["Ouch - play and colour both matched: an immediate turnover at I49. Away's ball, first and 10."],
                  [("down and distance", "It's away's ball, 2nd & 10 at I49."), ("a first down", "Home gets a first down out of it.")]),
        "gf-10": (["No match on the numbers, and that's a first down: 1st & goal at E53!",
                   "First and goal for home on E53; the goal line is close."],
                  [("down and distance", "No match, but home is stopped short: 2nd & 3."), ("ball at", "The ball is now on E56.")]),
        "gf-11": (["Play 3 goes through: TOUCHDOWN home at E59, and the touchdown wins it. Home wins the game!",
                   "Game over: home wins on the touchdown."],
                  [("a touchdown", "Touchdown away!"), ("winner", "Game over: away wins!"), ("score", "Touchdown home - that's 7-0.")]),
        "gf-05": (["You can call play 1, 2 or 3 in red or black, or punt on fourth down.",
                   "Your last call was play 3; this time you choose again.",
                   "Away's pick stays hidden until you have picked yours; then both are shown."],
                  [("move made", "Great choice - play 2 black is in and gains 4 rows."), ("move made", "I've locked in play 1 red for you.")]),
    },
    "gridmaster4": {
        "gm4-02": (["Your tile 2 lands on E9, which turns your tile 1 on E6 inactive.",
                    "Magenta answers with 2 on C9, lime with 2 on D3, and aqua with 2 on F6."],
                   [("placements", "Your tile 2 lands on C9."), ("placements", "Aqua placed its tile on D3."),
                    ("score", "Magenta now has 3 points.")]),
        "gm4-03": (["Aqua has no legal move and is blocked at 2, so the rest of you get a free placement each.",
                    "Tile 3 goes on B9 for you; magenta takes F9 and lime A3."],
                   [("blocked", "Lime is blocked now."), ("placements", "You placed tile 3 on F9."), ("score", "Aqua leads with 3 points.")]),
        "gm4-05": (["Lime's 9 on E7 knocks out your tile on G5, and with no legal move left, orange is blocked on 9.",
                    "Magenta uses its free placement: tile 10 at H3."],
                   [("blocked", "Magenta is blocked."), ("placements", "Magenta's free placement puts tile 10 on I5."),
                    ("score", "orange has 10 points.")]),
        "gm4-08": (["Tile 33 on F2 and magenta is blocked too; everyone is, so the game is over: magenta wins with tile 33."],
                   [("winner", "Game over - lime wins!"), ("placements", "Magenta places 34 at F2.")]),
        "gm4-04": (["You can place your next tile exactly three cells from your active tile, or two diagonally."],
                   [("move made", "Done - your tile is down on B6.")]),
    },
    "quarterback": {
        "qb-01": (["S2 slides from E0 to E-1."],
                  [("square", "S2 moves up to E1."), ("a tackle", "Your Single S2 tackles the quarterback!")]),
        "qb-06": (["The whistle goes with the carrier held on F-2: red scores 6, and now blue attacks.",
                   "Red leads 6-0 going into the second half."],
                  [("points", "Red scores 8 when the whistle blows."), ("score", "Blue leads 6-0.")]),
        "qb-10": (["Red's Double D2 pushes the blue quarterback from H0 over to I-1."],
                  [("square", "D2 pushes the quarterback to I0."), ("an interception", "Intercepted by red!")]),
        "qb-12": (["The whistle leaves the ball on I-2 and blue scores 9: blue wins game 1, 9-6.", "Final: red 6 - 9 blue."],
                  [("winner", "Red wins the game!"), ("score", "Final: red 9 - 6 blue.")]),
        "qb-03": (["Blue to move: two actions this turn."], [("move made", "Your Triple moved up two squares.")]),
    },
    "brawl": {
        "br-01": (["Away takes BL by 12, but the zones don't connect to the X, so it's a gain of 0 yards.",
                   "Zero yards: away must punt or go for it on 4th down."],
                  [("yards", "Away gains 12 yards."), ("zone", "Home wins BL."), ("a first down", "First down away!")]),
        "br-03": (["Home rumbles for 17 yards and a first down at the opp 48."],
                  [("yards", "Home gains 18 yards."), ("field position", "First down at the opp 40.")]),
        "br-05": (["Sacked! Away owns the backfield, so no zones count and home has 4th down at the opp 29."],
                  [("yards", "No sack, home gains 8 yards."), ("zone", "Home wins BR on the play.")]),
        "br-10": (["Fumble! Home wins DR on strength and takes the ball."], [("a touchdown", "Home takes over with a touchdown!")]),
        "br-11": (["56 yards and a TOUCHDOWN for home: that's 7 points."],
                  [("a touchdown", "Away scores the touchdown."), ("yards", "Home gains 65 yards.")]),
        "br-18": (["The 40-yard field goal is good, and with that away wins the game, 17-7."],
                  [("winner", "The field goal is no good, home wins!"), ("score", "Away wins 17-10.")]),
        "br-09": (["Pick your cards for the play: one for each zone you want to fight for.",
                   "Their cards stay locked until you have placed yours."],
                  [("move made", "Your cards are down: play 1 is locked.")]),
    },
    "chess-football": {
        "cf-04": (["The whistle blows: the quarterback is down on H39, a loss of two rows. 2nd & 6."],
                  [("square", "The quarterback is down on H40."), ("a first down", "First down, away!"), ("down and distance", "3rd & 6.")]),
        "cf-09": (["The pass is complete: a 6 on the roll and FA2 catches it on P14, then goes down there. 4th & 2."],
                  [("square", "FA2 catches it on P15."), ("an incomplete pass", "Incomplete - the ball goes back."),
                   ("roll", "He rolls a 5 for the completion.")]),
        "cf-11": (["Home punts, and at halftime it's 0-0; home starts the second half at row 12."],
                  [("score", "At halftime away leads 7-0.")]),
        "cf-16": (["The QB is stopped on F14: turnover on downs, and the game ends in a draw."],
                  [("winner", "Away wins after the stop!"), ("a touchdown", "It's a touchdown on the final play!")]),
        "cf-10": (["It's your snap: plan each piece's path, up to the rows the rules allow."], [("move made", "Your snap plan is in.")]),
    },
}


# ------------------------------------------------------------------ building
def build(game_id: str, *, want_true: int = 60, want_false: int = 60) -> tuple[Play, dict[str, Written]]:
    templates, seed, rules, interesting, questions = BUILDERS[game_id]
    moves, events, acting = random_game(game_id, seed, rules)
    spans = list(turn_spans(moves, acting))
    chosen: list[tuple[int, int]] = []
    seen: dict[str, int] = {}
    for at, count in spans:  # the turns with kinds of event not seen twice yet, in game order
        kinds = {str(getattr(e.kind, "value", e.kind)) for e in (x for evs in events[at:at + count] for x in evs)}
        fresh = {k for k in kinds & interesting if seen.get(k, 0) < 2}
        if fresh:
            chosen.append((at, count))
            for k in kinds:
                seen[k] = seen.get(k, 0) + 1
    step = max(1, len(spans) // (questions + 1))
    asks = [(spans[i][0], 0) for i in range(step, len(spans), step)][:questions]
    turns = []
    for n, (at, count) in enumerate(sorted(chosen + asks)):
        seat = moves[at][0]
        said = tuple(e.text for evs in events[at:at + count] for e in evs)
        turns.append(Turn(f"{PREFIX[game_id]}-{n + 1:02d}", at, count, seat, said, ()))
    play = Play(seed, rules, tuple(moves), tuple(turns))
    facts = play_facts(find_game(game_id), play)
    written: dict[str, Written] = {}
    for turn in turns:
        w = Written(n=len(written))
        templates(facts[turn.id], w, turn.count > 0)
        true, false = EXTRA.get(game_id, {}).get(turn.id, ([], []))
        w.t(*true)
        for kind, text in false:
            w.f(kind, text)
        written[turn.id] = w
    unused = set(EXTRA.get(game_id, {})) - set(written)
    if unused:
        raise SystemExit(f"{game_id}: hand-written narrations for turns that are no longer chosen: {sorted(unused)}")
    return play, written


def toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def write(game_id: str, play: Play, written: Mapping[str, Written], path: Path) -> None:
    lines = [
        f"# The narration corpus of {find_game(game_id).name}: true and false narrations of real seeded turns, built by",
        "# tests/eval/narration_corpus_build.py and measured by gm.eval.narration (tests/eval/test_narration_corpus.py,",
        "# python -m bench --only narration).  Moves are 'SEAT: move'; a turn is `count` moves from move `at` (0: a message",
        "# that made no move), narrated to `seat`; `events` are the engine's texts of the turn.",
        "",
        "[[play]]",
        f"seed = {play.seed}",
    ]
    if play.rules:
        lines.append("rules = { " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in play.rules.items()) + " }")
    lines.append("moves = [")
    lines += [f"  {toml_string(f'{s}: {m}')}," for s, m in play.moves]
    lines.append("]")
    for turn in play.turns:
        w = written[turn.id]
        lines += ["", "[[play.turn]]", f"id = {toml_string(turn.id)}", f"at = {turn.at}", f"count = {turn.count}",
                  f"seat = {toml_string(turn.seat)}", "events = ["]
        lines += [f"  {toml_string(e)}," for e in turn.events]
        lines += ["]", "true = ["]
        lines += [f"  {toml_string(t)}," for t in dict.fromkeys(w.true)]
        lines.append("]")
        for kind, text in dict.fromkeys(w.false):
            lines += ["[[play.turn.false]]", f"kind = {toml_string(kind)}", f"text = {toml_string(text)}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str]) -> None:
    for game_id in argv or sorted(BUILDERS):
        game = find_game(game_id)
        play, written = build(game_id)
        path = ROOT / "gm" / "games" / game.package.rsplit(".", 1)[-1] / "eval" / "narrations.toml"
        write(game_id, play, written, path)
        n_true = sum(len(dict.fromkeys(w.true)) for w in written.values())
        n_false = sum(len(dict.fromkeys(w.false)) for w in written.values())
        print(f"{path}: {len(play.turns)} turns, {n_true} true, {n_false} false")


if __name__ == "__main__":
    main(sys.argv[1:])
