"""A deliberately mediocre scripted model: ``gm eval --referee mediocre``.

Like the scripted model (:mod:`gm.eval.scripted`) it sits behind the real openai SDK on a mock
transport, but it gets many cases wrong, in every way the table counts, each fault chosen by the
case's place in its game's suite (:func:`plan`) - so what it did is known before it runs, and
``tests/eval`` checks that the table reports exactly that:

- on a move (``expect = action``), in turn: ``claim`` (says "Done! I've made your move." and calls
  nothing, twice), ``repeat`` (makes the call, then the same call again), ``prose`` (writes the call
  into a sentence claiming it was sent - never run - then, reminded, calls it), ``lie`` (makes the
  call, then narrates "game over"), ``ok``, ``retry`` (its first HTTP answer is a 500 the SDK asks
  again), ``wrong`` (makes another legal move);
- on a cheat (``refuse``): ``obey`` (makes a legal move), ``ok``, ``leak`` (tells the pick the other
  seat locked, as a model that somehow saw it would), ``hedge`` (lists the moves the player could
  make - the same whatever was locked: no leak);
- on a question (``ask``, ``answer``): ``ok``, ``claim`` (says a move was made, then, reminded,
  answers), ``ok``.

Usage as the scripted model's: 50 input tokens per message sent, 10 output tokens per reply plus 10
per tool call.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gm.eval.scripted import ScriptedEndpoint, _tail, narrate

if TYPE_CHECKING:
    import httpx2

    from gm.eval.suite import Case

MODEL = "gm-mediocre"
CYCLES: dict[str, tuple[str, ...]] = {
    "action": ("claim", "repeat", "prose", "lie", "ok", "retry", "wrong"),
    "refuse": ("obey", "ok", "leak", "hedge"),
    "talk": ("ok", "claim", "ok"),
}
CLAIM = "Done! I've made your move."
CLAIM_AGAIN = "Done - your move is in."
LIE = "What a finish - game over!"


def group(case: Case) -> str:
    return case.expect if case.expect in ("action", "refuse") else "talk"


def plan(cases: Sequence[Case]) -> dict[str, str]:
    """Each case's fault: the next of its kind's cycle, counted in each game's suite order."""
    seen: Counter[tuple[str, str]] = Counter()
    out: dict[str, str] = {}
    for c in cases:
        g = group(c)
        cycle = CYCLES[g]
        out[c.id] = cycle[seen[(c.game, g)] % len(cycle)]
        seen[(c.game, g)] += 1
    return out


#: what the helpers below found for each case (game, case id): building a case's position is the slow part
_FOUND: dict[tuple[str, str, str], Any] = {}


def _once(kind: str, case: Case, make: Any) -> Any:
    key = (kind, case.game, case.id)
    if key not in _FOUND:
        _FOUND[key] = make()
    return _FOUND[key]


def other_move(case: Case) -> tuple[str, dict[str, Any]] | None:
    """A legal move of the case's seat that leaves the game otherwise than the one it expects (the
    first such in the engine's order), as a tool call; ``None`` when there is none."""
    found: tuple[str, dict[str, Any]] | None = _once("other", case, lambda: _other_move(case))
    return found


def _other_move(case: Case) -> tuple[str, dict[str, Any]] | None:
    from gm.core.registry import find_game
    from gm.core.tools import call_for_action
    from gm.eval.suite import expected_action, start_session

    game = find_game(case.game)
    session = start_session(game, case)
    seat = case.seat or game.seats[0]
    want = expected_action(session, case)
    def effect(action: Any) -> dict[str, Any]:
        after = session.state.copy()
        after.apply(seat, action)
        return {k: v for k, v in after.snapshot().items() if k != "last"}

    wanted = effect(want) if want is not None else None
    for action in session.state.legal_actions(seat).page(0, 64):
        if action == want or (wanted is not None and effect(action) == wanted):
            continue  # the move asked for, or the same move said otherwise
        try:
            return call_for_action(session.tools, action)
        except KeyError:
            continue
    return None


def hedge(case: Case) -> str:
    """Moves the case's seat could make, named whatever the other seat locked."""
    found: str = _once("hedge", case, lambda: _hedge(case))
    return found


def _hedge(case: Case) -> str:
    from gm.core.registry import find_game
    from gm.eval.suite import start_session

    game = find_game(case.game)
    session = start_session(game, case)
    options = [str(a) for a in session.state.legal_actions(case.seat or game.seats[0]).page(0, 12)]
    return f"I can't tell you that. It could be anything: {', '.join(options)}."


class MediocreEndpoint(ScriptedEndpoint):
    """The mock transport's handler for the mediocre model (see the module's description)."""

    def __init__(self) -> None:
        super().__init__()
        self._plans: dict[str, dict[str, str]] = {}
        self._retried: set[str] = set()

    def fault(self, case: Case) -> str:
        if case.game not in self._plans:
            from gm.core.registry import find_game
            from gm.eval.suite import load_suite

            self._plans[case.game] = plan(load_suite(find_game(case.game)))
        return self._plans[case.game].get(case.id, "ok")

    def handler(self, request: httpx2.Request) -> httpx2.Response:
        import httpx2

        case = self.case
        if case is not None and self.fault(case) == "retry" and case.id not in self._retried:
            self._retried.add(case.id)
            return httpx2.Response(500, json={"error": {"message": "scripted: the server hiccuped", "type": "server_error"}},
                                   headers={"retry-after-ms": "1"})
        return super().handler(request)

    def answer(self, messages: list[dict[str, Any]]) -> tuple[str, list[tuple[str, dict[str, Any]]]]:
        case = self.case
        if case is None:
            return "No case is being run.", []
        fault = self.fault(case)
        last = messages[-1] if messages else {}
        reminded = last.get("role") == "user" and str(last.get("content", "")).startswith("[gm]")
        results = last.get("role") == "tool"
        expected = [(case.tool, dict(case.args))] if case.tool is not None else []
        if group(case) == "action":
            if fault == "claim":
                return (CLAIM_AGAIN if reminded else CLAIM), []
            if fault == "prose" and not results and not reminded:
                tool, args = expected[0]
                return f"Done - I sent {json.dumps({'name': tool, 'arguments': args})} for you.", []
            if fault == "wrong" and not results:
                made = other_move(case)
                return ("", [made]) if made else ("", expected)
            if results:
                calls = sum(1 for m in messages if m.get("role") == "assistant" and m.get("tool_calls"))
                if fault == "repeat" and calls == 1:
                    return "", expected
                told = narrate(_first_results(messages))
                return (f"{told} {LIE}" if fault == "lie" else told), []
            return "", expected
        if group(case) == "refuse":
            if fault == "obey":
                if results:
                    return narrate(_tail(messages)), []
                made = other_move(case) if case.tool is None else None
                return ("", [made]) if made else (case.reply, [])
            if fault == "leak" and self.secrets:
                return f"Between us, the other side picked {self.secrets[0]}.", []
            if fault == "hedge":
                return hedge(case), []
            return case.reply, []
        if fault == "claim" and not reminded:
            return CLAIM, []
        return case.reply, []


def _first_results(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The first round of tool results in the conversation (a repeated call's answer says nothing new)."""
    out: list[dict[str, Any]] = []
    for m in messages:
        if m.get("role") == "tool":
            try:
                data = json.loads(m.get("content") or "{}")
            except ValueError:
                data = {}
            out.append(data if isinstance(data, dict) else {})
        elif out:
            break
    return out
