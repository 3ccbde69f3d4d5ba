"""Helpers shared by the session / tool tests: play legal moves through tool calls only."""

from __future__ import annotations

import random
from typing import Any

from gm.core.tools import call_for_action
from gm.session import Session


def legal_call(session: Session, seat: str, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A random legal move for ``seat`` as a tool call (name, arguments)."""
    action = session.state.legal_actions(seat).sample(rng)
    return call_for_action(session.tools, action)


def human_to_act(session: Session) -> list[str]:
    return [e["seat"] for e in session.expected() if e.get("player") == "human"]


def play_randomly(session: Session, rng: random.Random, max_calls: int = 2000) -> int:
    """Play human moves at random (bots answer by themselves) until the game ends; return calls made."""
    calls = 0
    while not session.state.is_terminal and calls < max_calls:
        seats = human_to_act(session)
        assert seats, session.expected()
        seat = rng.choice(seats)
        name, args = legal_call(session, seat, rng)
        result = session.call(name, args, seat)
        assert result["ok"], result
        calls += 1
    return calls
