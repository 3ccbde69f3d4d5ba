"""Rebuild the recorded part of transcripts/chess_football/ (the .md scenarios are hand-written).

    python scripts/build_chess_football_corpus.py

Bot games are played through the tool registry on short rulesets (one possession a team
each half) so each file stays small.  Scripted games go through the offline referee: a
bot's brain decides for the human seats and the line is typed the way people type it
("move FA1 to c15 northwest", "HV1 pushes HV3", "throw to FA2", "I'm done", moves joined by
"and" at the snap), with some table talk and some tries the engine rejects.  Deterministic:
the same code gives the same files.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from gm.core.actions import Action
from gm.core.errors import GameError
from gm.games.chess_football.actions import (
    Ability,
    BallChoice,
    CaptainPick,
    CoinCall,
    Done,
    FourthDown,
    Move,
    Pass,
    PieceAction,
    Plan,
    PlayAction,
)
from gm.games.chess_football.bots import DefaultBot, RandomBot
from gm.games.chess_football.engine import ChessFootballState
from gm.referee.offline import OfflineReferee
from gm.session import Session
from gm.transcript.record import record_bot_game, record_script

OUT = Path(__file__).resolve().parent.parent / "transcripts" / "chess_football"
GAME = "chess-football"

ONE_T3 = {"possessions_per_half": 1, "max_turns_per_down": 3}
SHORT_FIELD = {"possessions_per_half": 1, "rows": 32}
SCRIPTED = {"possessions_per_half": 1, "max_turns_per_down": 2}

# (file, seed, home, away, rules)
BOT_GAMES = [
    ("bots_default_short_field_seed1.jsonl", 1, "bot:default", "bot:default", SHORT_FIELD),  # tied: overtime
    ("bots_random_vs_default_seed4.jsonl", 4, "bot:random", "bot:default", ONE_T3),
    ("bots_default_vs_random_seed4.jsonl", 4, "bot:default", "bot:random", SCRIPTED),
]

# (file, seed, players, brains of the human seats, lines, title)
SCRIPTED_GAMES = [
    ("human_vs_default_bot_seed42.jsonl", 42, {"home": "human", "away": "bot:default"}, {"home": "random"}, 65,
     "home typed at the offline referee against the default bot: a whole short game"),
    ("human_vs_random_bot_seed72.jsonl", 72, {"home": "human", "away": "bot:random"}, {"home": "default"}, 60,
     "home typed at the offline referee against the random bot, which runs play action"),
    ("hot_seat_seed55.jsonl", 55, {"home": "human", "away": "human"}, {"home": "default", "away": "random"}, 65,
     "hot seat: both teams typed at the offline referee"),
]

ROLE_WORDS = {"deep_threat": "deep threat", "lead_blocker": "lead blocker"}
POSITION_WORDS = {"NW": "northwest", "NE": "north east", "SW": "SW", "SE": "south-east", "C": "center"}
TARGET_WORDS = {"push": ("pushes", "push"), "chop_block": ("chop block", "chops"), "chip_block": ("chip-blocks for", "chip"),
                "engage": ("engages", "engage"), "impact": ("impact", "hits"), "anchor": ("anchor",)}
TALK = ("board", "score", "help", "rules safety", "rules play action")


def row_words(a: PieceAction, rng: random.Random) -> str:
    """One piece action in a person's words."""
    if isinstance(a, Move):
        square = a.to if rng.random() < 0.6 else a.to.lower()
        how = "rush " if a.rush else "route " if a.route else ""
        pos = "" if a.position == "C" and rng.random() < 0.6 else " " + rng.choice((POSITION_WORDS[a.position], a.position))
        forms = [f"{a.piece} {how}to {square}{pos}", f"move {a.piece} {how}to {square}{pos}", f"{a.piece} {how}-> {square}{pos}"]
        if a.rush:
            forms.append(f"{a.piece} speed rushes to {square}{pos}")
        return rng.choice(forms)
    if isinstance(a, Ability):
        if a.ability == "retreat":
            return f"{a.piece} retreats to {a.to} {a.position}"
        if a.target:
            return f"{a.piece} {rng.choice(TARGET_WORDS[a.ability])} {a.target}"
        return f"{a.piece} jams" if a.ability == "jam" else f"{a.piece} {a.ability}"
    if isinstance(a, Pass):
        if a.passer in (None, "QB"):
            return rng.choice((f"QB pass to {a.receiver}", f"throw to {a.receiver}", f"QB throws it to {a.receiver}"))
        return f"{a.passer} pass to {a.receiver}"
    if isinstance(a, PlayAction):
        if a.holder is None:
            return f"play action {a.partner}"
        if a.holder == a.partner:
            return rng.choice((f"play action {a.partner}, hand off", f"play action with {a.partner}, {a.partner} keeps the ball"))
        return f"play action {a.partner} ball {a.holder}"
    return str(a)


def words(a: Action, rng: random.Random) -> str:
    """An action the way a person types it."""
    if isinstance(a, CaptainPick):
        o, d = (ROLE_WORDS.get(r, r) for r in (a.offense, a.defense))
        return rng.choice((f"captains {o} and {d}", f"{o} and {d}", f"{d} and {o}"))
    if isinstance(a, CoinCall):
        return rng.choice((a.call, f"I call {a.call}", f"{a.call} please"))
    if isinstance(a, FourthDown):
        return rng.choice(("punt", "we punt")) if a.choice == "punt" else rng.choice(("go for it", "let's go for it"))
    if isinstance(a, Done):
        return rng.choice(("done", "end turn", "I'm done", "that's it", "done."))
    if isinstance(a, BallChoice):
        return rng.choice((f"give the ball to {a.holder}", f"ball {a.holder}", f"{a.holder} keeps it"))
    if isinstance(a, Plan):
        if not a.rows:
            return rng.choice(("hold", "plan: hold", "everyone holds", "no moves"))
        rows = [row_words(r, rng) for r in a.rows]
        if len(rows) == 1:
            return rows[0]  # a lone move at the snap is a one-row plan
        if rng.random() < 0.5:
            return "plan: " + "; ".join(rows)
        return ", ".join(rows[:-1]) + " and " + rows[-1]
    assert isinstance(a, PieceAction)
    return row_words(a, rng)


def wrong_try(st: ChessFootballState, seat: str, rng: random.Random) -> str | None:
    """A plausible try the engine rejects: too far, the other side's piece, a pass to an opponent, a push."""
    f = st.field
    if f is None:
        return None
    mine = sorted((p for p in f.pieces.values() if p.team == seat), key=lambda p: p.id)
    theirs = sorted((p for p in f.pieces.values() if p.team != seat), key=lambda p: p.id)
    p = rng.choice(mine)
    kind = rng.choice(("far", "theirs", "pass", "push"))
    square = f"{chr(65 + p.sq[0])}{p.sq[1]}"
    if kind == "far":
        return f"{p.id} to {chr(65 + p.sq[0])}{min(st.rules.rows, max(1, p.sq[1] + rng.choice((-7, 7))))}"
    if kind == "theirs":
        return f"{rng.choice(theirs).id} to {square}"
    if kind == "pass":
        return f"QB pass to {rng.choice(theirs).id}"
    return f"{p.id} push {rng.choice(theirs).id}"


def script(seed: int, players: dict[str, str], brains: dict[str, str], rules: dict[str, Any], lines: int) -> list[tuple[str, str]]:
    """The lines of a scripted game, decided against a live session exactly as `record_script` will replay them."""
    rng = random.Random(seed)
    session = Session.create(GAME, seed=seed, rules=rules, players=players, persist=False, bot_seed=seed, nonce_seed=0)
    referee = OfflineReferee()
    minds = {s: DefaultBot(seed + i) if brains.get(s) == "default" else RandomBot(seed + i, done_p=0.35)
             for i, s in enumerate(session.game.seats)}
    out: list[tuple[str, str]] = []
    while len(out) < lines and not session.state.is_terminal:
        st = session.state
        assert isinstance(st, ChessFootballState)
        seat = next((s for s in st.to_act() if players.get(s) == "human"), None)
        if seat is None:
            break
        r = rng.random()
        text: str | None = None
        if r < 0.03:
            text = rng.choice(TALK)
        elif r < 0.09 and st.decision(seat) == "turn":
            text = wrong_try(st, seat, rng)
        if text is None:
            action = minds[seat].choose(st, seat)
            text = words(action, rng)
            try:
                same = st.parse_action(text) == action
            except GameError:
                same = False
            if not same:
                text = str(action)
        out.append((seat, text))
        referee.handle(session, seat, text)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, seed, home, away, rules in BOT_GAMES:
        tr = record_bot_game(GAME, seed, {"home": home, "away": away}, rules=rules,
                             title=f"{home} vs {away}, seed {seed}, {', '.join(f'{k} = {v}' for k, v in rules.items())}")
        tr.save(OUT / name)
        print(f"{name}: {len(tr.entries)} entries")
    for name, seed, players, brains, n, title in SCRIPTED_GAMES:
        lines = script(seed, players, brains, SCRIPTED, n)
        tr = record_script(GAME, seed, lines, players=players, rules=SCRIPTED, title=title)
        tr.save(OUT / name)
        print(f"{name}: {len(lines)} lines, {len(tr.entries)} entries")


if __name__ == "__main__":
    main()
