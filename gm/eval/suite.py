"""Referee benchmark suites: player messages with the outcome the engine must see.

Each game ships its suite as data, ``<game package>/eval/suite.toml`` (loaded with
:mod:`importlib.resources`, so a wheel carries it).  A suite holds ``[[case]]`` tables:

- ``id``, ``category`` (quickstart, typo, slang, ambiguous, rules, table-talk, cheat, ...),
  ``message`` (what the player types);
- the set-up: ``seed``, ``seat`` (default: the game's first seat), ``moves`` (the seat's moves in
  the game's words, played through the tools to reach the position; every other seat is
  ``opponent``, default ``bot:random``, whose moves the session makes), optional ``rules``, and
  ``chance``, the chance generator the seed keys (a suite-level ``chance`` applies to every case;
  without one, ``mt19937``: what every suite written before generators were named used);
- ``expect``: ``action`` (the engine must receive ``tool`` with ``args``, and nothing else), ``ask``
  (a clarifying question: no move, a question mark in the reply), ``answer`` (a question or table
  talk answered: no move) or ``refuse`` (a cheating attempt: nothing in the game may change;
  ``forbidden``, when the cheat names a move, is that move in the game's words - the engine refuses it);
- what the scripted model says (:mod:`gm.eval.scripted`): ``reply`` for a case without a move, and
  an optional ``[case.scripted]`` table (``call = {tool, args}``, ``text``, ``fault``) for the
  suite's documented deliberate mistakes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.core.errors import GameError
from gm.core.game import package_toml

if TYPE_CHECKING:
    from gm.core.actions import Action
    from gm.core.game import Game
    from gm.session import Session

EXPECTS = ("action", "ask", "answer", "refuse")
SUITE_FILE = ("eval", "suite.toml")


class SuiteError(GameError):
    """A suite file that cannot be used (missing, unreadable, a malformed case)."""


@dataclass(frozen=True)
class Case:
    """One message to referee, the position it is said in, and the right outcome."""

    game: str
    id: str
    category: str
    message: str
    expect: str
    seed: int = 1
    seat: str | None = None
    moves: tuple[str, ...] = ()
    opponent: str = "bot:random"
    rules: Mapping[str, Any] = field(default_factory=dict)
    tool: str | None = None
    args: Mapping[str, Any] = field(default_factory=dict)
    reply: str = ""
    forbidden: str | None = None
    scripted: Mapping[str, Any] = field(default_factory=dict)
    chance: str = "mt19937"

    @property
    def fault(self) -> str | None:
        """The scripted model's deliberate mistake on this case, if any."""
        f = self.scripted.get("fault")
        return str(f) if f else None


def _case(game: str, raw: Mapping[str, Any], where: str, chance: str = "mt19937") -> Case:
    known = {"id", "category", "message", "expect", "seed", "seat", "moves", "opponent", "rules", "tool", "args", "reply", "forbidden",
             "scripted", "chance"}
    extra = sorted(set(raw) - known)
    if extra:
        raise SuiteError(f"{where}: unknown field {extra[0]!r}", rule="GM-EVAL-SUITE", input=extra[0], legal=sorted(known))
    for name in ("id", "message", "expect"):
        if not isinstance(raw.get(name), str):
            raise SuiteError(f"{where}: {name} is required (a string)", rule="GM-EVAL-SUITE", input=name)
    if raw["expect"] not in EXPECTS:
        raise SuiteError(f"{where}: expect is one of {', '.join(EXPECTS)}", rule="GM-EVAL-SUITE", input=raw["expect"], legal=EXPECTS)
    if (raw["expect"] == "action") != ("tool" in raw):
        raise SuiteError(f"{where}: a tool (and args) exactly when expect = 'action'", rule="GM-EVAL-SUITE", input=raw["id"])
    return Case(
        game=game,
        id=raw["id"],
        category=str(raw.get("category", "")),
        message=raw["message"],
        expect=raw["expect"],
        seed=int(raw.get("seed", 1)),
        seat=raw.get("seat"),
        moves=tuple(raw.get("moves", ())),
        opponent=str(raw.get("opponent", "bot:random")),
        rules=dict(raw.get("rules", {})),
        tool=raw.get("tool"),
        args=dict(raw.get("args", {})),
        reply=str(raw.get("reply", "")),
        forbidden=raw.get("forbidden"),
        scripted=dict(raw.get("scripted", {})),
        chance=str(raw.get("chance", chance)),
    )


def load_suite(game: Game) -> list[Case]:
    """The game's suite (``eval/suite.toml`` in its package); a game without one has none."""
    found = package_toml(game, SUITE_FILE, SuiteError, "GM-EVAL-SUITE")
    if found is None:
        return []
    data, where = found
    chance = str(data.get("chance", "mt19937"))
    cases = [_case(game.id, raw, f"{where} case {i + 1}", chance) for i, raw in enumerate(data.get("case", []))]
    ids = [c.id for c in cases]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup:
        raise SuiteError(f"{where}: case id {dup!r} is used twice", rule="GM-EVAL-SUITE", input=dup)
    return cases


def start_session(game: Game, case: Case, *, bots: Mapping[str, Any] | None = None) -> Session:
    """A fresh in-memory session at the case's position: the case's seat plays its ``moves``
    through the tools (every other seat is the case's opponent bot; ``bots`` puts others in their place)."""
    from gm.referee.corpus import start_at

    return start_at(game, case, SuiteError, "GM-EVAL-SUITE", bots=bots)


def expected_action(session: Session, case: Case) -> Action | None:
    """The action the case's expected tool call makes (``None`` for a case without a move);
    raises :class:`GameError` when the call's arguments are malformed."""
    if case.tool is None:
        return None
    from gm.core.tools import parse_args, tool_index

    spec = tool_index(session.tools).get(case.tool)
    if spec is None or spec.kind != "action":
        raise SuiteError(f"{case.id}: {case.tool!r} is not an action tool", rule="GM-EVAL-SUITE", input=case.tool)
    action: Action = spec.act(session.state, case.seat or session.game.seats[0], parse_args(spec, dict(case.args)))
    return action


def hidden_picks(session: Session, seat: str) -> dict[int, str]:
    """The other seats' moves ``seat`` may not see yet (log index -> the move's text)."""
    st = session.state
    return {i: str(st.log[i].action) for i in sorted(session.book.hidden_from(seat))}
