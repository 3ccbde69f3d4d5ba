"""The LLM referee's narration check: the game's claims (:mod:`gm.core.narration`) against the
turn's facts (:func:`turn_facts`: what the referee knows of a turn of a session), and
:func:`strip_boards`, which removes anything board-like the model drew (gm prints the engine's board
itself)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError
from gm.core.narration import Facts, build_facts, check

if TYPE_CHECKING:
    from gm.session import Session

__all__ = ["Facts", "build_facts", "check", "strip_boards", "turn_facts"]

BOARD_LINE = re.compile(r"^\s*[0-9]{1,2}\s+(?:[.#O=:+\-]\s+){5,}")
FENCE = re.compile(r"```.*?(?:```|$)", re.S)


def strip_boards(text: str) -> tuple[str, bool]:
    """``text`` without code blocks and board-like lines; and whether anything was removed."""
    cleaned = FENCE.sub("", text)
    lines = [ln for ln in cleaned.splitlines() if not BOARD_LINE.match(ln)]
    out = "\n".join(lines).strip()
    if out == text.strip():
        return out, False
    return re.sub(r"\n\s*\n", "\n", out), True


def turn_facts(
    session: Session,
    seat: str,
    *,
    results: Iterable[Mapping[str, Any]],
    before_status: str,
    before_view: Mapping[str, Any],
    rules_text: str,
    recent_events: Iterable[Mapping[str, Any]] = (),
) -> Facts:
    """The facts of a turn of ``session`` as ``seat``'s referee knows them: this turn's call results,
    ``seat``'s status and view before (given) and now, the rules summary the model may quote, the
    events of the turns just before, the game's claims and outcome."""
    st = session.state
    try:
        view: Mapping[str, Any] = session.view(seat)
    except GameError:
        view = {}
    statuses = [s for s in (before_status, session.game.status(st, seat)) if s]
    return build_facts(
        results=results,
        statuses=statuses,
        views=[v for v in (before_view, view) if v],
        rules_text=rules_text,
        recent_events=recent_events,
        seats=session.game.seats,
        over=st.is_terminal,
        claims=session.game.narration_claims(),
        seat=seat,
        outcome=str(st.outcome) if st.is_terminal and st.outcome is not None else None,
        due=not st.is_terminal and seat in st.to_act(),
    )
