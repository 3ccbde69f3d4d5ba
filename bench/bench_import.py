"""``gm import`` of a chatbot's move log: the seed search and the whole audit of long logs.

The logs are gm's own games written as a chatbot keeps them (no token: the seed must be found), 200
lines where the game lasts that long (Grid Football in points mode), else the whole game.  The seed is
40, so a game whose first lines fix its chance (brawl's deal) makes the search try 41 seeds; "late
mistake" puts a wrong claim on the log's last line, so every seed that fits replays all of it.
"""

from __future__ import annotations

import time
from typing import Any

#: (game, ruleset, random-bot game seed)
GAMES = [
    ("grid-football", {"win": "points"}, 40),
    ("quarterback", None, 40),
    ("gridmaster4", None, 40),
    ("brawl", None, 40),
    ("chess-football", None, 40),
]
LINES = 200


def _log(game_id: str, rules: Any, seed: int) -> tuple[Any, Any, str, int]:
    from gm.core.chatlog import exchanges
    from gm.core.registry import find_game

    game = find_game(game_id)
    state = game.new_state(game.load_rules(rules), seed)
    bots = {s: game.make_bot("random", seed=seed + i) for i, s in enumerate(game.seats)}
    while state.to_act() and len(state.log) < 6 * LINES:
        seat = state.to_act()[-1]
        state.apply(seat, bots[seat].choose(state, seat))
    lines = exchanges(game, state)[:LINES]
    return game, state.rules, "## Move log\n" + "\n".join(lines) + "\n", len(lines)


def _late_mistake(text: str) -> str:
    """The log with the score on its last line made wrong (a mistake every fitting seed replays up to)."""
    import re

    head, last = text.rstrip("\n").rsplit("\n", 1)
    wrong = re.sub(r"(score (?:home|red) )[0-9]+-[0-9]+|(scores orange )[0-9]+", lambda m: (m.group(1) or m.group(2)) + "99-99"[: 5 if m.group(1) else 2], last)
    assert wrong != last, last
    return f"{head}\n{wrong}\n"


def run(quick: bool = False) -> list[dict[str, Any]]:
    from gm.chatlog.audit import audit, choose_seed, read_log

    out: list[dict[str, Any]] = []
    for game_id, rules, seed in GAMES[:2] if quick else GAMES:
        game, ruleset, text, n = _log(game_id, rules, seed)
        for case, log in (("", text), (", late mistake", _late_mistake(text))):
            parsed = read_log(game, log).lines
            t = time.perf_counter()
            choice = choose_seed(game, ruleset, parsed)
            search = time.perf_counter() - t
            t = time.perf_counter()
            a = audit(game, log, ruleset)
            whole = time.perf_counter() - t
            note = f"{n} lines; seed {choice.seed} ({'fits' if choice.fits else 'no seed fits'}); {len(a.divergences)} findings"
            out.append({"name": f"seed search: {game_id}{case}", "value": round(search, 3), "unit": "s", "note": note, "target": "<= 2"})
            out.append({"name": f"import audit: {game_id}{case}", "value": round(whole, 3), "unit": "s", "note": "read + seed search + replay"})
    return out


if __name__ == "__main__":
    for row in run():
        print(row)
