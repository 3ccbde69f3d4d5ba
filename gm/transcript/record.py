"""Record transcripts from play: bot-vs-bot games (every move a tool call through the
registry, so the tool layer is what gets regression-tested) and scripted human games
through the offline referee."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from gm import __version__
from gm.core.game import ruleset_hash
from gm.transcript.format import Header, RefereeInfo, Transcript
from gm.transcript.recorder import Recorder


def _header(session: Any, referee: str, title: str | None) -> Header:
    st = session.state
    return Header(
        game=session.game.id,
        rules=st.rules.model_dump(mode="json", exclude_defaults=True),
        rules_hash=ruleset_hash(st.rules),
        seed=st.seed,
        players=dict(session.players),
        gm_version=__version__,
        referee=RefereeInfo(kind=referee),
        title=title,
    )


def record_bot_game(
    game: str,
    seed: int,
    strategies: Mapping[str, str],
    *,
    rules: Any = None,
    bot_seed: int = 0,
    title: str | None = None,
    max_moves: int = 100_000,
) -> Transcript:
    """Bots choose for every seat, and every choice is made as a tool call of that seat
    (the seats are 'human' to the session: the bots sit outside it, like players)."""
    from gm.referee.offline import tool_call_for
    from gm.session import Session

    session = Session.create(game, seed=seed, rules=rules, persist=False, nonce_seed=0)
    g = session.game
    bots = {seat: g.make_bot(strategies[seat], seed=bot_seed * 100 + i) for i, seat in enumerate(g.seats)}
    rec = Recorder(_header(session, "none", title or f"{' vs '.join(strategies[s] for s in g.seats)}, seed {seed}"))
    for _ in range(max_moves):
        st = session.state
        if st.is_terminal:
            break
        seat = st.to_act()[0]
        action = bots[seat].choose(st, seat)
        call = tool_call_for(g, st, seat, action)
        if call is None:
            raise RuntimeError(f"no tool makes {action} for {seat}")
        tool, args = call
        cid = rec.tool_call(seat, tool, args)
        rec.tool_result(cid, session.call(tool, args, seat))
    cid = rec.tool_call(None, "get_board", {"full": True})
    rec.tool_result(cid, session.call("get_board", {"full": True}, None))
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

    session = Session.create(game, seed=seed, rules=rules, players=players, persist=False, bot_seed=seed, nonce_seed=0)
    rec = Recorder(_header(session, "offline", title))
    rec.sync_bot_moves(session)
    ref = OfflineReferee()
    for seat, text in lines:
        if session.state.is_terminal:
            break
        turn = ref.handle(session, seat, text, rec)
        if turn.board:
            rec.board(turn.board, seat)
    rec.sync_bot_moves(session, final=True)
    return rec.transcript
