"""The seed a chatbot's log replays with: the one under which the engine's chance gives what the chat says
chance gave (its toss, first side, dice, the cards its placements show), found by replaying the log
under a bounded number of seeds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.chatlog.chance import LogChance
from gm.chatlog.read import chatlog_of
from gm.chatlog.replay import Remembering, remembering, replay_log

if TYPE_CHECKING:
    from gm.chatlog.report import Audit
    from gm.core.chance import Chance
    from gm.core.chatlog import ChatLog, ParsedLine
    from gm.core.chatlog_text import Line
    from gm.core.game import Game
    from gm.core.state import GameState

#: how many seeds the importer tries to agree with the chatbot's outcomes of chance
SEEDS = 64
#: the seed search replays at least this many of the log's first lines: who moves first is chance too
FIRST_LINES = 3
#: of the seeds that fit the chat's chance, the seed search replays the whole log under this many at most
FULL_TRIES = 8


@dataclass(frozen=True, slots=True)
class SeedChoice:
    """The seed a chatbot's log is replayed with, and why: ``fits`` when every outcome of chance the chat
    states (``stated``) comes out so under it; ``note`` says what did not."""

    seed: int
    fits: bool = True
    stated: int = 0
    note: str = ""


def choose_seed(
    game: Game,
    rules: Any,
    parsed: list[tuple[Line, ParsedLine]],
    prefer: int | None = None,
    setup: Chance | None = None,
    tries: int = SEEDS,
) -> SeedChoice:
    """The seed to replay a chatbot's log with.  The seeds ``prefer``, then 0, 1, ... (:data:`SEEDS` in all)
    are tried in two rounds (``tries`` seeds at most: 1 tries ``prefer`` alone).  First, which of them give every outcome of chance the log states (its coin,
    its dice, the cards its placements show: :mod:`gm.chatlog.chance`) and every claim about one (the chat
    log's ``chance_keys``), and replay the log's first lines (who moves first is chance too): each try
    replays the log as far as the last line that says something of chance, stopping at the first thing
    the seed does not give.  Then, of the first :data:`FULL_TRIES` that do, the first under which the
    whole log replays without a finding, else the one that goes furthest (the chat's dice that the log
    leaves unsaid are then the likeliest).  When no seed fits, the one that goes furthest before it
    contradicts the chat, and what no seed gives (``SeedChoice.note``)."""
    if not isinstance(game, Remembering):
        game = remembering(game)
    chatlog = chatlog_of(game)
    keys = chatlog.chance_keys
    claims = [i for i, (_, p) in enumerate(parsed) for c in p.claims if c.key in keys]
    says = [i for i, (_, p) in enumerate(parsed) if chatlog.says_chance(p)]
    horizon = max([*claims, *says, min(len(parsed), FIRST_LINES) - 1])
    prefix = parsed[: horizon + 1]
    index = {ln.number: i for i, (ln, _) in enumerate(parsed)}
    order = (([prefer] if prefer is not None else []) + [s for s in range(SEEDS) if s != prefer])[:tries]
    best: tuple[tuple[int, int, int, int], int, Audit] | None = None
    fits: list[tuple[int, Audit]] = []
    for s in order:
        probe = LogChance(chatlog, prefix, probe=True)
        a = replay_log(game, chatlog, rules, s, prefix, keys=keys, stop=True, source=probe, setup=setup)
        if a.mismatch is None and not a.divergences and a.illegal is None:
            fits.append((s, a))
            if len(fits) == FULL_TRIES:
                break
            continue
        if a.mismatch is not None:
            reached = a.mismatch.at
        else:
            reached = index[a.divergences[0].line] if a.divergences else index[a.illegal.line] if a.illegal else len(prefix)
        first = a.mismatch.index if a.mismatch is not None else 1 << 30  # (the longer the chat's chance agrees, the likelier)
        key = (reached, first, probe.agreed, a.checked - len(a.divergences))
        if best is None or key > best[0]:
            best = (key, s, a)
    if fits:
        return SeedChoice(_furthest(game, chatlog, rules, parsed, fits, setup), True, len(claims))
    assert best is not None
    _, s, a = best
    if a.mismatch is None and not a.divergences:  # chance agrees; the first lines stop at a mistake of the chatbot's own
        return SeedChoice(s, True, len(claims))
    if a.mismatch is not None:
        what = f"line {a.mismatch.line}: {a.mismatch.draw.describe()}"
    else:
        d = a.divergences[0]
        what = f"line {d.line}: {d.key} {d.said}"
    return SeedChoice(s, False, len(claims), f"No seed of the {len(order)} tried gives every outcome of chance the chat states ({what})")


def _furthest(
    game: Game, chatlog: ChatLog, rules: Any, parsed: list[tuple[Line, ParsedLine]], fits: list[tuple[int, Audit]], setup: Chance | None
) -> int:
    """Of the seeds that fit the chat's chance (with their replays of the log's first lines), the first under
    which the whole log replays without a finding, else the one whose replay goes furthest (the earliest on
    a tie).  A game whose first try draws nothing after those first lines is the same under every seed."""
    first, opening = fits[0]
    best = (-1, first)
    for s, _ in fits:
        a = replay_log(game, chatlog, rules, s, parsed, stop=s != first, setup=setup)
        reached = a.divergences[0].line if a.divergences else (a.illegal.line if a.illegal else None)
        if reached is None:
            return s
        if s == first and len(opening.state.log) < len(a.state.log) and _same_chance(opening.state, a.state):
            return first  # nothing drawn after the first lines: every fitting seed replays the same game
        progress = next(i for i, (ln, _) in enumerate(parsed) if ln.number == reached)
        if progress > best[0]:
            best = (progress, s)
    return best[1]


def _same_chance(before: GameState[Any], after: GameState[Any]) -> bool:
    """Whether a replay drew nothing more by chance after ``before`` (the same seed, further on)."""
    return before.draws == after.draws
