"""Record transcripts from play: bot-vs-bot games (every move a tool call through the
registry, so the tool layer is what gets regression-tested) and scripted human games
through the offline referee."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gm.transcript.format import Transcript


def record_bot_game(
    game: str,
    seed: int,
    strategies: Mapping[str, str],
    *,
    rules: Any = None,
    bot_seed: int = 0,
    title: str | None = None,
    max_moves: int = 100_000,
    bots: Mapping[str, Any] | None = None,
) -> Transcript:
    """Bots choose for every seat, and every choice is made as a tool call of that seat
    (the seats are 'human' to the session: the bots sit outside it, like players).  ``bots``: the bots
    themselves, already seeded (a game of a simulation recorded as it was played); ``strategies`` then
    only names them in the title."""
    from gm.core.playout import play_out
    from gm.core.registry import find_game
    from gm.referee.offline import tool_call_for
    from gm.session import Session

    g = find_game(game)
    title = title or f"{' vs '.join(strategies[s] for s in g.seats)}, seed {seed}"
    session = Session.create(g, seed=seed, rules=rules, persist=False, nonce_seed=0, title=title)
    rec = session.recorder
    assert rec is not None
    if bots is None:
        bots = {seat: g.make_bot(strategies[seat], seed=bot_seed * 100 + i) for i, seat in enumerate(g.seats)}

    def by_tool(seat: str, action: Any) -> list[Any]:
        call = tool_call_for(g, session.state, seat, action)
        if call is None:
            raise RuntimeError(f"no tool makes {action} for {seat}")
        session.call(call[0], call[1], seat, board=True)
        return []

    play_out(session.state, bots, max_moves=max_moves, apply=by_tool)
    session.call("get_board", {"full": True}, None)
    return rec.transcript


def record_script(
    game: str,
    seed: int,
    lines: Iterable[tuple[str, str]],
    *,
    players: Mapping[str, str] | None = None,
    rules: Any = None,
    title: str | None = None,
) -> Transcript:
    """A scripted game: each ``(seat, text)`` goes to the offline referee, as typed at ``gm play``."""
    from gm.referee.offline import OfflineReferee
    from gm.session import Session

    session = Session.create(
        game, seed=seed, rules=rules, players=players, persist=False, bot_seed=seed, nonce_seed=0, referee="offline", title=title
    )
    rec = session.recorder
    assert rec is not None
    ref = OfflineReferee()
    for seat, text in lines:
        if session.state.is_terminal:
            break
        turn = ref.handle(session, seat, text)
        if turn.board:
            rec.board(turn.board, seat)
    rec.sync_bot_moves(session, final=True)
    return rec.transcript
