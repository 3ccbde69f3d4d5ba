"""True lines pass: a log of a game played in gm, written in every shape chatbots write logs (tables of
every layout, lists, prefixes, fences, a log restated as it grows) and with either gm's own claims or
gm's own status line after each exchange, is read back move for move and the audit finds nothing."""

from __future__ import annotations

import pytest
from chat_helpers import moves, played
from layouts import LAYOUTS, exchanges

from gm.chatlog.audit import audit
from gm.core.chance import MT19937
from gm.core.registry import find_game

#: (game, seed, bot, moves at most): games long enough to pass scores, series, halves and blocks
GAMES = [
    ("grid-football", 5, "default", 160),
    ("quarterback", 2, "random", 140),
    ("gridmaster4", 1, "random", 160),
    ("brawl", 3, "random", 70),
    ("chess-football", 4, "random", 160),
]


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize(("game_id", "seed", "bot", "limit"), GAMES, ids=[g[0] for g in GAMES])
@pytest.mark.parametrize("status", [False, True], ids=["claims", "status"])
def test_a_log_of_gms_own_game_in_any_shape_has_nothing_to_flag(
    game_id: str, seed: int, bot: str, limit: int, layout: str, status: bool
) -> None:
    game = find_game(game_id)
    xs, state = exchanges(game, played(game, seed, bot, seed, limit))
    text = LAYOUTS[layout](game, xs, status)
    a = audit(game, text, seed=seed, chance=MT19937)
    assert (a.divergences, a.illegal, a.unread, a.left_out) == ([], None, [], [])
    assert a.state.snapshot() == state.snapshot()
    if layout in ("table_seats", "table_side"):  # a column per seat: simultaneous picks in the columns' order
        assert sorted(moves(a.state)) == sorted(moves(state))
    else:
        assert moves(a.state) == moves(state)
    rows = sum(len(x.moves) for x in xs) if layout == "table_side" else len(xs)  # a row per seat's part there
    assert a.lines == rows and a.replayed == rows
    assert a.checked >= (len(xs) if not status else len(xs) // 2)  # the claims were read and checked, not skipped
    if layout == "restated":
        assert a.restated and all(r.of_first == a.restated[0].of_first for r in a.restated)
