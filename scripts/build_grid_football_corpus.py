"""Rebuild the recorded part of transcripts/grid_football/ (the .md scenarios are hand-written).

    python scripts/build_grid_football_corpus.py

Bot games are played through the tool registry with different seeds, strategies and
rulesets; scripted games go through the offline referee with a human seat, including
lines that are rejected (each rejection exercises its rule id).  Deterministic: the
same code gives the same files.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from gm.transcript.record import record_bot_game, record_script

OUT = Path(__file__).resolve().parent.parent / "transcripts" / "grid_football"

POINTS = {"win": "points"}
SHORT = {"downs_per_quarter": 3}  # a regulation of 12 downs: quarters, halftime and scoreless draws come quickly

BOT_GAMES = [
    (5, "bot:default", "bot:random", POINTS),
    (4, "bot:random", "bot:adaptive", None),
    (12, "bot:adaptive", "bot:constant", SHORT),
    (8, "bot:default", "bot:default", POINTS),
    (1, "bot:default", "bot:random", None),
    (2, "bot:random", "bot:default", None),
    (3, "bot:random", "bot:random", None),
    (6, "bot:adaptive", "bot:constant", None),
    (7, "bot:constant", "bot:adaptive", None),
    (9, "bot:default", "bot:adaptive", None),
    (10, "bot:random", "bot:random", SHORT),
    (11, "bot:default", "bot:default", SHORT),
    (13, "bot:random", "bot:random", {"downs_per_quarter": 4, "win": "points"}),
    (14, "bot:default", "bot:random", {"kick_distance": 50, "first_down_rows": 8}),
    (15, "bot:adaptive", "bot:default", None),
    (16, "bot:random", "bot:default", {"win": "points", "touchdown_points": 6}),
]

# what a person types at `gm play`, cycled: whatever is asked, one line soon fits, and
# the rest are rejected by the engine with their rule ids
HUMAN_LINES = [
    "heads",
    "receive",
    "left red",
    "4",
    "play 4 red",  # GF-PLAY4-LOCK in quarter 1
    "play 1 red 5 left",  # GF-R-LATERAL-CAP (play 1 allows 3)
    "play 2 black 1 left",  # GF-R-LATERAL-CAP (play 2 allows none)
    "play 1 red 2 right before",  # on defense: GF-R-DEFENSE-CALL
    "punt",  # GF-R-PUNT before 4th down
    "number 11",  # outside 1-10
    "zorp",  # not a move at all
    "center green",
    "play 2 black",
    "9",
    "play 3 red 1 left after",
    "kick",
    "play 1 black",
    "what can I do?",
    "board",
    "score",
    "rules blocked",
]


def scripted(seed: int, n: int, away: str) -> list[tuple[str, str]]:
    seats = ["home"] if away.startswith("bot") else ["home", "away"]
    lines = itertools.islice(itertools.cycle(HUMAN_LINES), n)
    return [(seats[i % len(seats)] if len(seats) > 1 else "home", text) for i, text in enumerate(lines)]


SCRIPTED = [
    (21, 400, "bot:default", None),
    (22, 400, "bot:random", None),
    (23, 300, "human", None),
    (24, 400, "bot:adaptive", SHORT),
    (25, 300, "bot:default", {"win": "points", "downs_per_quarter": 4}),
    (26, 300, "human", SHORT),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for seed, home, away, rules in BOT_GAMES:
        tag = "points" if rules and rules.get("win") == "points" else "custom" if rules else "first_td"
        name = f"bots_{home[4:]}_vs_{away[4:]}_{tag}_seed{seed}.jsonl"
        record_bot_game("grid-football", seed, {"home": home, "away": away}, rules=rules).save(OUT / name)
        print(name)
    for seed, n, away, rules in SCRIPTED:
        name = f"scripted_human_vs_{away.replace('bot:', '')}_seed{seed}.jsonl"
        players = {"home": "human", "away": away}
        title = f"scripted human (offline referee) vs {away}, seed {seed}"
        record_script("grid-football", seed, scripted(seed, n, away), players=players, rules=rules, title=title).save(OUT / name)
        print(name)


if __name__ == "__main__":
    main()
