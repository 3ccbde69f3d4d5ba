"""The audit of a game played in a chatbot: find its move log (:mod:`gm.chatlog.read`), choose the seed its
chance replays with (:mod:`gm.chatlog.seed`), replay it through the engine on the chat's own dice and
deals where it states them (:mod:`gm.chatlog.replay`, :mod:`gm.chatlog.chance`), and list every place
where the chatbot's account differs from what the rules give (:mod:`gm.chatlog.report`).

The replay stops at the first move the rules forbid (the true game cannot go past it); the
engine's game up to there is what :func:`audit` returns, ready to be saved as a session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gm.chatlog.chance import LogChance
from gm.chatlog.read import EXAMPLE, LogRead, Restatement, Rewrite, chatlog_of, detect_game, find_log, read_log
from gm.chatlog.replay import remembering, replay_log
from gm.chatlog.report import FIX, Audit, Divergence, Illegal
from gm.chatlog.seed import FIRST_LINES, FULL_TRIES, SEEDS, SeedChoice, choose_seed
from gm.core.chance import Chance
from gm.core.chatlog_text import RULE, clean_lines
from gm.core.errors import StateError

if TYPE_CHECKING:
    from gm.core.game import Game

__all__ = [
    "CHANCE_MODES", "EXAMPLE", "FIRST_LINES", "FIX", "FULL_TRIES", "RULE", "SEEDS", "Audit", "Divergence", "Illegal",
    "LogRead", "Restatement", "Rewrite", "SeedChoice", "audit", "choose_seed", "detect_game", "find_log", "read_log",
]  # fmt: skip

# ------------------------------------------------------------------ the audit
#: how ``gm import`` takes the outcomes of chance: ``from-log``, the chat's own where its log states them
#: (gm's seed draws only what the log leaves unsaid), or ``seed``, gm's seed alone (a chatbot's roll that
#: differs is then a finding)
CHANCE_MODES = ("from-log", "seed")


def audit(
    game: Game,
    text: str,
    rules: Any = None,
    seed: int | None = None,
    chance: Chance | str | None = None,
    *,
    prefer: int | None = None,
    outcomes: str = "from-log",
    tries: int = SEEDS,
) -> Audit:
    """Replay the move log in ``text`` with ``rules`` and list what the chatbot got wrong.  ``seed``: the
    engine's chance (``None``: :func:`choose_seed` finds the seed under which the engine's chance agrees
    with the chat, trying ``prefer`` first, as the seed of a blank session template's token); ``chance``:
    the chance generator (and outcomes supplied before) of the game's own token, default what new games
    use; ``outcomes``: one of :data:`CHANCE_MODES`; ``tries``: how many seeds the search tries at most
    (1: ``prefer`` alone; whether it fits, :attr:`Audit.seed_note` says)."""
    if outcomes not in CHANCE_MODES:
        raise StateError(f"unknown chance mode; gm import takes {' or '.join(CHANCE_MODES)}", rule=RULE, input=outcomes,
                         legal=CHANCE_MODES)  # fmt: skip
    setup = Chance.of(chance)
    chatlog = chatlog_of(game)
    read = read_log(game, text)
    parsed = read.lines
    if not parsed:
        raise StateError(f"no {game.name} move log found in the text", rule=RULE)
    rules = game.load_rules(rules)
    reading = remembering(game)
    choice = SeedChoice(seed) if seed is not None else choose_seed(reading, rules, parsed, prefer, setup, tries)
    source = LogChance(chatlog, parsed) if outcomes == "from-log" else None
    result = replay_log(reading, chatlog, rules, choice.seed, parsed, source=source, setup=setup)
    result.state.__dict__.pop("game", None)  # the game's own again (see Remembering)
    result.chance = outcomes
    if result.impossible:  # a roll flagged as impossible is not a second finding of a roll that differs
        flagged = {i.line for i in result.impossible}
        result.divergences = [d for d in result.divergences if not (d.roll and d.line in flagged)]
    result.unread, result.restated, result.rewrites = read.unread, read.restated, read.rewrites
    if choice.note:
        how = (f"the chat's own outcomes are used where seed {choice.seed}'s differ" if source is not None
               else f"replayed with seed {choice.seed}")  # fmt: skip
        result.seed_note = f"{choice.note}; {how}."
    if result.illegal is None:  # the document's account of where the game stands, against the engine's
        lines = [(ln.number, ln.text) for ln in clean_lines(text, game.seats)]
        for number, claim in chatlog.final_claims(lines):
            f = chatlog.fact(claim.key, result.state, [])
            if f is not None and not f.agrees(claim.said):
                result.divergences.append(Divergence(number, "status", "the game as it stands", claim.key, claim.said, f.shown, f.rule))
    return result
